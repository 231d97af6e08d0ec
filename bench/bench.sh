#!/bin/bash
# make bench: the patched and the unpatched 6.1 kernel, built from the same
# config (target x86_64-bench: the x86_64 guest without debug options), run
# the same out-of-tree benchmark modules (bench/modules/) under QEMU TCG,
# interleaved patched, baseline, patched, baseline... for ROUNDS rounds per
# variant.
# Prints the median ns/op of each case for both kernels, the ratio
# patched/baseline and the spread ((max - min) / median) over the rounds;
# writes the table to build/bench/results.txt and every raw sample to
# build/bench/samples.txt.
#
#   ROUNDS=5 OPS=400000 CLOCK=icount bench/bench.sh [VARIANT...]
#
# CLOCK=icount (default) runs the guest with one vCPU under QEMU's
# -icount shift=0: guest time advances one nanosecond per guest
# instruction, so "ns" per operation is the number of guest instructions
# it took, repeatable from run to run.  TCG models no caches, so wall-clock
# time under TCG measures the emulator rather than the hardware anyway.
# CLOCK=wall measures host time instead (2 vCPUs; noisy: expect a spread of
# tens of percent on a loaded 2-core host).
#
# Variants are kernel command lines to benchmark under (default: all):
#   default      no extra parameters
#   page_owner   page_owner=on
#   smp2         the stack depot's hit path from two CPUs at once
#                (depot-hit-2cpu): always 2 vCPUs and the wall clock, since
#                one vCPU cannot show cache-line bouncing; ROUNDS_SMP2
#                rounds (default 3 * ROUNDS) to tame the noise
#   frames32     bytes per stored trace with CONFIG_STACKDEPOT_MAX_FRAMES=32:
#                the patched kernel is target x86_64-bench32 (the baseline
#                has no such option and stays x86_64-bench); one round
#   profiling    the kmalloc and page allocator cases with memory allocation profiling
#                compiled in and on: target x86_64-bench-prof, built with
#                static keys and -O2 as production kernels are; the
#                baseline is built from the same fragments (it has no
#                profiling option)
#   nomem_profiling  the same kernel booted with nomem_profiling
#                The profiling kernel has allocation context capture
#                (CONFIG_MEM_ALLOC_PROFILING_CONTEXT) built in and no site
#                capturing, and runs kmalloc-64-ctx and pgalloc-ctx too:
#                the same loops with capture on at their call site, held
#                against the same case with capture off
#
#   mainline     the 7.3 peer: mainline's own allocation profiling on the
#                same harness.  Unpatched 7.3 (Debian's linux-source-7.3)
#                built from the same fragments as x86_64-bench-prof
#                (mainline/targets.sh: x86_64-bench without profiling,
#                x86_64-bench-prof with it), the same kmem_bench module
#                built against each, booted in each round as: 7.3 (no
#                profiling), on (its default: pages' tags in page_ext),
#                compressed (sysctl.vm.mem_profiling=1,compressed: tags in
#                the page flags) and off (sysctl.vm.mem_profiling=0);
#                and the 7.3 line's own kernel (build/7.3/linux: 7.3 with
#                the line's postings, its allocation profiling posting
#                among them) from the same fragments, booted on and
#                compressed.  With the profiling variant in the same run,
#                a table puts both lines side by side, as ratios to each
#                line's base and as instructions added per pair
#
#   workload     user-space work instead of a loop in a module
#                (bench/guest/workload.c: fork + exec, a tmpfs file cycle,
#                pipe messages, anonymous memory, a stat walk), guest
#                instructions per operation under -icount, booted
#                interleaved WL_ROUNDS times (default 3): 6.1, profiling
#                on, nomem_profiling, pages' tags in page_ext
#                (x86_64-bench-prof-pext) and on with context capture at
#                the sites of one busy function (WL_CTX_FUNC, default
#                vm_area_alloc); WL_SCALE (default 1) multiplies the
#                operations.  One boot of x86_64-bench-count (the
#                allocators' event counters) counts the slab objects and
#                pages each operation allocates, reported per 1000
#                instructions of 6.1.
#
#   uml          native timing (issue: instruction counts are not what
#                wall-clock anchors measured): target um-bench, the kernel
#                as a Linux process (ARCH=um, defconfig + profiling) and
#                the unpatched 6.1 from the same fragments, pinned to one
#                host CPU (UML_CPU, default 1), booted interleaved
#                (6.1, on, nomem_profiling) UML_ROUNDS times (default 6);
#                each boot runs each case UML_REPEAT times (default 5)
#                and keeps the fastest; UML_OPS pairs per run (default
#                1000000).  Prints ns per pair (median over the boots),
#                the ratios, and the share of the four per-CPU counter
#                updates of a profiled pair (percpu-4 - plain-4), which
#                UML makes far dearer than x86 does.  See
#                docs/benchmarks.md.
#
# After the runs, the memory the profiling costs is read off the
# x86_64-bench-prof vmlinux (the alloc_tags section, the per-CPU
# counters) and reported with the ratios.
#
# The modules in bench/modules/ (kmem_bench: allocator loops; depot_bench:
# the stack depot) print "case=NAME ... ns_per_op=X" and "metric=NAME
# value=X" lines; metrics (bytes per stored trace) are reported like cases.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

ROUNDS=${ROUNDS:-5}
OPS=${OPS:-400000}
CLOCK=${CLOCK:-icount}
case $CLOCK in
icount) vm=(--smp 1 --qemu "-icount shift=0,align=off") unit="guest instructions" ;;
wall) vm=(--smp 2) unit="ns (host wall clock under TCG)" ;;
*) die "CLOCK is icount or wall" ;;
esac
target=x86_64-bench
declare -A VARIANTS=([default]="" [page_owner]="page_owner=on"
		    [smp2]="kmemobs.bench_only=depot-hit-2cpu"
		    [frames32]="kmemobs.bench_only=bytes-per-"
		    [profiling]="kmemobs.bench_only=kmalloc,pgalloc"
		    [nomem_profiling]="kmemobs.bench_only=kmalloc,pgalloc nomem_profiling"
		    [unwind]="kmemobs.bench_only=unwind-"
		    [mainline]="kmemobs.bench_only=kmalloc,pgalloc")
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(default page_owner smp2 frames32 profiling nomem_profiling unwind workload uml)
uml= wl=
for v in "${variants[@]}"; do
	[ "$v" = uml ] && uml=1
	[ "$v" = workload ] && wl=1
done
# The uml and workload variants are run apart, after the QEMU ones.
qvariants=()
for v in "${variants[@]}"; do
	case $v in uml | workload) ;; *) qvariants+=("$v") ;; esac
done
variants=(${qvariants[@]+"${qvariants[@]}"})
ml=
for v in ${variants[@]+"${variants[@]}"}; do
	[ "$v" = mainline ] && ml=1
done
out=$BUILD/bench
mkdir -p "$out"

"$TOP/scripts/install-deps.sh" x86_64
"$TOP/scripts/tree.sh" --sync
# kind:target pairs the variants need (only those are built); frames32 is
# the patched kernel with 32-frame slots.
kts=()
for v in "${variants[@]}"; do
	case $v in
	frames32) kts+=(patched:x86_64-bench32 baseline:$target) ;;
	profiling | nomem_profiling)
		kts+=(patched:x86_64-bench-prof baseline:x86_64-bench-prof) ;;
	# No baseline: the unpatched kernel has no deferred unwinding.
	unwind) kts+=(patched:x86_64-bench-prof) ;;
	uml | mainline) ;;
	*) kts+=(patched:$target baseline:$target) ;;
	esac
done
[ -z "$uml" ] || kts+=(patched:um-bench baseline:um-bench)
[ -z "$wl" ] || kts+=(patched:x86_64-bench-prof baseline:x86_64-bench-prof)
for kt in $(printf '%s\n' ${kts[@]+"${kts[@]}"} | awk '!seen[$0]++'); do
	k=${kt%%:*} t=${kt#*:}
	base=
	[ $k = baseline ] && base=--baseline
	"$TOP/scripts/build-kernel.sh" $base $t
	mod=$out/mod-$k
	[ $t = $target ] || mod=$out/mod-$k-$t
	build_modules $k $t "$TOP/bench/modules" "$mod"
done
# The 7.3 peer: unpatched 7.3, its kernels and modules under build/7.3/.
# ml73 CMD...: CMD with the scripts of the 7.3 line.
ml73() { KMEMOBS_LINE=7.3 "$@"; }
if [ -n "$ml" ]; then
	ml73 "$TOP/scripts/install-deps.sh" mainline
	ml73 "$TOP/scripts/tree.sh" --sync
	for t in x86_64-bench x86_64-bench-prof; do
		ml73 "$TOP/scripts/build-kernel.sh" --baseline $t
		(
			export KMEMOBS_LINE=7.3
			. "$TOP/scripts/lib.sh"
			build_modules baseline $t "$TOP/bench/modules" "$out/mod-7.3-$t"
		)
	done
	ml73 "$TOP/scripts/build-kernel.sh" x86_64-bench-prof
	(
		export KMEMOBS_LINE=7.3
		. "$TOP/scripts/lib.sh"
		build_modules patched x86_64-bench-prof "$TOP/bench/modules" "$out/mod-7.3-line"
	)
fi
# The workload variant's other kernels: no modules.
if [ -n "$wl" ]; then
	"$TOP/scripts/build-kernel.sh" x86_64-bench-prof-pext
	"$TOP/scripts/build-kernel.sh" x86_64-bench-count
fi

samples=$out/samples.txt
# results.txt holds what this run measured: a run of the uml variant alone
# prints no empty QEMU table (and keeps the QEMU samples as they were).
if [ ${#variants[@]} -eq 0 ]; then
	: >"$out/results.txt"
else
	: >"$samples"
fi
for v in ${variants[@]+"${variants[@]}"}; do
	[ -n "${VARIANTS[$v]+x}" ] || die "unknown variant $v (${!VARIANTS[*]})"
	rounds=$ROUNDS vmv=("${vm[@]}") ptarget=$target
	if [ "$v" = smp2 ]; then
		rounds=${ROUNDS_SMP2:-$((3 * ROUNDS))} vmv=(--smp 2)
	elif [ "$v" = frames32 ]; then
		rounds=1 ptarget=x86_64-bench32
	elif [ "$v" = profiling ] || [ "$v" = nomem_profiling ] || [ "$v" = unwind ]; then
		ptarget=x86_64-bench-prof
	fi
	# Deferred unwinding has no baseline: the unpatched kernel lacks it.
	kinds="patched baseline"
	[ "$v" = unwind ] && kinds=patched
	# The 7.3 peer: four boots of unpatched 7.3 a round.
	if [ "$v" = mainline ]; then
		for r in $(seq 1 "$rounds"); do
			for run in 7.3:x86_64-bench: on:x86_64-bench-prof: \
				compressed:x86_64-bench-prof:sysctl.vm.mem_profiling=1,compressed \
				off:x86_64-bench-prof:sysctl.vm.mem_profiling=0 \
				line:x86_64-bench-prof: \
				line-compressed:x86_64-bench-prof:sysctl.vm.mem_profiling=1,compressed; do
				IFS=: read -r what t extra <<<"$run"
				tag=bench-$v-$what-$r
				k=baseline mod=$out/mod-7.3-$t
				case $what in line*) k=patched mod=$out/mod-7.3-line ;; esac
				KMEMOBS_LINE=7.3 GUEST_TAG=$tag "$TOP/scripts/run-guest.sh" --kind $k --mode bench "${vmv[@]}" \
					--append "kmemobs.bench_ops=$OPS ${VARIANTS[$v]} $extra" \
					--file "$mod/kmem_bench.ko:/lib/modules/kmem_bench.ko" $t >/dev/null
				log=$BUILD/7.3/logs/guest-$(kind_name $k $t)-$tag.log
				n=$(grep -caE 'kmem_bench: case=' "$log" || true)
				[ "$n" -gt 0 ] || { tail -n 30 "$log"; die "no benchmark output in $log"; }
				grep -aq 'did not complete' "$log" && { tail -n 30 "$log"; die "a benchmark module failed in $log"; }
				# Each boot measured the mode it asked for: 7.3
				# turns profiling off with an error when the page
				# flags cannot hold a tag's index.
				want=1
				case $what in 7.3) want= ;; off) want=0 ;; esac
				grep -aq 'profiling is disabled' "$log" &&
					{ grep -a 'profiling is disabled' "$log"; die "7.3 $what: profiling was turned off ($log)"; }
				got=$(sed -nE 's/.*run-benchmarks: vm.mem_profiling=([0-9a-z]*).*/\1/p' "$log" | head -n 1)
				[ "$got" = "$want" ] || die "7.3 $what: vm.mem_profiling is '$got', not '$want' ($log)"
				sed -nE "s/.*kmem_bench: case=([^ ]*) .*ns_per_op=([0-9.]*).*/$v $what $r \1 \2/p" \
					"$log" >>"$samples"
				phase "variant $v round $r/$rounds 7.3 $what: $n cases"
			done
		done
		continue
	fi
	for r in $(seq 1 "$rounds"); do
		for k in $kinds; do
			base= t=$ptarget mod=$out/mod-$k
			[ $t = $target ] || mod=$out/mod-$k-$t
			if [ $k = baseline ]; then
				base=--baseline t=$target mod=$out/mod-$k
				if [ $ptarget = x86_64-bench-prof ]; then
					t=$ptarget mod=$out/mod-$k-$t
				fi
			fi
			tag=bench-$v-$r
			GUEST_TAG=$tag "$TOP/scripts/run-guest.sh" $base --mode bench "${vmv[@]}" \
				--append "kmemobs.bench_ops=$OPS ${VARIANTS[$v]}" \
				--file "$mod/kmem_bench.ko:/lib/modules/kmem_bench.ko" \
				--file "$mod/depot_bench.ko:/lib/modules/depot_bench.ko" \
				$t >/dev/null
			log=$LOGS/guest-$(kind_name $k $t)-$tag.log
			n=$(grep -cE '_bench: (case|metric)=' "$log" || true)
			[ "$n" -gt 0 ] || { tail -n 30 "$log"; die "no benchmark output in $log"; }
			grep -q 'did not complete' "$log" && { tail -n 30 "$log"; die "a benchmark module failed in $log"; }
			sed -nE "s/.*_bench: case=([^ ]*) .*ns_per_op=([0-9.]*).*/$v $k $r \1 \2/p;
				 s/.*_bench: metric=([^ ]*) value=([0-9.]*).*/$v $k $r \1 \2/p" \
				"$log" >>"$samples"
			phase "variant $v round $r/$rounds $k: $n cases"
		done
	done
done

[ ${#variants[@]} -eq 0 ] || python3 - "$samples" "$out/results.txt" "$ROUNDS" "$OPS" "$unit" <<'PY'
import statistics, sys
from collections import defaultdict
samples, dest, rounds, ops, unit = sys.argv[1:]
data = defaultdict(list)
order = []
for line in open(samples):
    v, k, r, case, ns = line.split()
    if (v, case) not in order:
        order.append((v, case))
    data[(v, case, k)].append(float(ns))
lines = [f'make bench: {rounds} rounds, {ops} ops per case, QEMU TCG x86_64, '
         f'{unit} per operation (median of rounds); variant smp2: 2 vCPUs, '
         f'host wall-clock ns; bytes-per-[ref-]trace-N: bytes of free memory per '
         f'stored trace of N frames',
         f'{"variant":<11} {"case":<18} {"patched":>9} {"baseline":>9} '
         f'{"ratio":>6} {"spread-p":>8} {"spread-b":>8}']
notes = []
unwind = {}
for v, case in order:
    p, b = data[(v, case, 'patched')], data[(v, case, 'baseline')]
    # The -ctx cases exist in the patched kernel only: held against the
    # same case with capture off, in the same boots.
    if not b and case.endswith('-ctx'):
        b = data[(v, case[:-len('-ctx')], 'patched')]
        if b and not notes:
            notes.append('*-ctx: context capture on at the case\'s call site; '
                         '"baseline" is the same case with capture off, '
                         'in the same patched kernel and boots')
    if p and not b and case.startswith('unwind-'):
        # Deferred unwinding exists only in the patched kernel.
        unwind[case] = statistics.median(p)
        continue
    if not p or not b:
        continue
    mp, mb = statistics.median(p), statistics.median(b)
    sp = (max(p) - min(p)) / mp * 100 if mp else 0
    sb = (max(b) - min(b)) / mb * 100 if mb else 0
    lines.append(f'{v:<11} {case:<18} {mp:9.1f} {mb:9.1f} {mp / mb:6.3f} '
                 f'{sp:7.1f}% {sb:7.1f}%')
lines += notes
# The 7.3 peer: unpatched 7.3 without profiling, on, compressed, off.
ml = [case for v, case in order if v == 'mainline' and data[('mainline', case, '7.3')]]
if ml:
    med = {k: statistics.median(v) for k, v in data.items() if v}
    lines.append(f'7.3 peer (variant mainline: unpatched 7.3 from the same fragments, '
                 f'{unit}, median of rounds; ratio to 7.3 without profiling)')
    lines.append(f'{"case":<12} {"7.3":>9} {"on":>9} {"ratio":>6} {"compr":>9} '
                 f'{"ratio":>6} {"off":>9} {"ratio":>6} {"line on":>9} {"ratio":>6} '
                 f'{"line cmp":>9} {"ratio":>6}')
    for case in ml:
        b = med[('mainline', case, '7.3')]
        row = f'{case:<12} {b:9.1f}'
        for w in ('on', 'compressed', 'off', 'line', 'line-compressed'):
            x = med.get(('mainline', case, w))
            row += f' {x:9.1f} {x / b:6.3f}' if x else f' {"-":>9} {"-":>6}'
        lines.append(row)
    lines.append('on: 7.3\'s default (pages\' tags in page_ext); compr: '
                 'sysctl.vm.mem_profiling=1,compressed (tags in the page flags); '
                 'off: sysctl.vm.mem_profiling=0; line on, line cmp: the 7.3 '
                 'line\'s kernel (its profiling posting applied), on and compressed')
    # Side by side with the 6.1 line, when the profiling variant ran.
    both = [c for c in ml if data[('profiling', c, 'patched')] and data[('profiling', c, 'baseline')]]
    if both:
        lines.append('profiling on, both lines (instructions added per pair over '
                     'each line\'s own base, unpatched 6.1 and 7.3; "x": 7.3 on, '
                     'and the 7.3 line on, adds this many times the 6.1 line\'s)')
        lines.append(f'{"case":<12} {"6.1":>8} {"6.1 line":>17} {"7.3":>8} '
                     f'{"7.3 on":>17} {"7.3 compr":>17} {"x":>5} '
                     f'{"7.3 line on":>17} {"7.3 line compr":>17} {"x":>5}')
        for case in both:
            b61, p61 = med[('profiling', case, 'baseline')], med[('profiling', case, 'patched')]
            b73, on73 = med[('mainline', case, '7.3')], med[('mainline', case, 'on')]
            c73 = med.get(('mainline', case, 'compressed'), 0)
            l73 = med.get(('mainline', case, 'line'), 0)
            lc73 = med.get(('mainline', case, 'line-compressed'), 0)
            add61 = p61 - b61
            cell = lambda x, b: f'{x:7.1f} {x / b:5.3f} {x - b:+4.0f}' if x else f'{"-":>17}'
            times = lambda x: f'{(x - b73) / add61:5.1f}' if x and add61 > 0 else f'{"-":>5}'
            lines.append(f'{case:<12} {b61:8.1f} {cell(p61, b61)} {b73:8.1f} '
                         f'{cell(on73, b73)} {cell(c73, b73)} {times(on73)} '
                         f'{cell(l73, b73)} {cell(lc73, b73)} {times(l73)}')
if unwind:
    lines.append(f'deferred unwinding (patched kernel only, {unit}):')
    for case in ('unwind-request-first', 'unwind-request'):
        if case in unwind:
            lines.append(f'  {case:<22} {unwind[case]:9.1f} per request')
    if 'unwind-user-4' in unwind and 'unwind-user-60' in unwind:
        per = (unwind['unwind-user-60'] - unwind['unwind-user-4']) / 56
        lines.append(f'  unwind_user()          {unwind["unwind-user-4"]:9.1f} for 4 frames, '
                     f'{unwind["unwind-user-60"]:.1f} for 60: {per:.1f} per frame')
open(dest, 'w').write('\n'.join(lines) + '\n')
print('\n'.join(lines))
PY
# Memory of the profiling, from the x86_64-bench-prof vmlinux and this
# run's last profiling boot (only when the profiling variant ran).
vmlinux=$(out_dir patched x86_64-bench-prof)/vmlinux
prof=
for v in ${variants[@]+"${variants[@]}"}; do [ "$v" = profiling ] && prof=1; done
if [ -n "$prof" ] && [ -f "$vmlinux" ]; then
	read -r start stop <<<"$(nm "$vmlinux" | awk '
		$3 == "__start_alloc_tags" { a = $1 } $3 == "__stop_alloc_tags" { b = $1 }
		END { print a, b }')"
	bytes=$(( 0x$stop - 0x$start ))
	# The size of one tag, from its symbol (40 bytes, 48 with page_idx).
	size=$(nm -S "$vmlinux" | awk '$4 ~ /^__alloc_tag(\.|$)/ && !f { print $2; f = 1 }')
	size=$(( 0x${size:-28} ))
	tags=$(( bytes / size ))
	# Where the pages' tags are: this run's last profiling boot.
	where="page_ext: 8 bytes per page (0.195% of memory with 4 KiB pages)"
	plog=$LOGS/guest-$(kind_name patched x86_64-bench-prof)-bench-profiling-$ROUNDS.log
	[ -f "$plog" ] || plog=
	if [ -n "$plog" ] && grep -q 'page tags in page flags' "$plog"; then
		where="page tags in page flags: 0 bytes per page ($(grep -o 'page flags: [0-9]* bits' "$plog" | head -n 1 | cut -d' ' -f3) bits)"
	fi
	# Per-CPU areas: their tags' xarray nodes, from the same boot
	# (bench/guest/run-benchmarks.sh prints them from percpu_stats).
	pcpu="per-CPU areas: not measured (no percpu-tags line)"
	if [ -n "$plog" ] && grep -q 'percpu-tags: ' "$plog"; then
		pcpu=$(grep -o 'percpu-tags: .*' "$plog" | head -n 1 | tr -d '\r' | awk '{
			for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			printf "per-CPU areas: %d charged in %d chunks, their tags %d bytes (%.0f per area; a vector per chunk took %d)",
				v["areas"], v["chunks"], v["tag_bytes"],
				v["areas"] ? v["tag_bytes"] / v["areas"] : 0, v["vector_bytes"]
		}')
	fi
	{
		echo "memory (x86_64-bench-prof vmlinux): alloc_tags section $bytes bytes," \
			"$tags call sites of $size bytes; per-CPU counters $(( tags * 16 )) bytes per CPU;" \
			"$where; slab objects: 8 bytes each in their slab's vector (16 with memcg);" \
			"$pcpu"
	} | tee -a "$out/results.txt"
fi

# The workloads: one kernel after the other in each round, the counting
# kernel once at the end.
if [ -n "$wl" ]; then
	WL_ROUNDS=${WL_ROUNDS:-3} WL_SCALE=${WL_SCALE:-1} WL_CTX_FUNC=${WL_CTX_FUNC:-vm_area_alloc}
	wsamples=$out/samples-workload.txt
	: >"$wsamples"
	runs=(6.1:baseline:x86_64-bench-prof: on:patched:x86_64-bench-prof:
	      nomem:patched:x86_64-bench-prof:nomem_profiling
	      pext:patched:x86_64-bench-prof-pext:
	      ctx:patched:x86_64-bench-prof:kmemobs.ctx_func=$WL_CTX_FUNC)
	for r in $(seq 1 "$WL_ROUNDS") count; do
		rr=("${runs[@]}")
		[ "$r" = count ] && rr=(count:patched:x86_64-bench-count:kmemobs.workload_count)
		for run in "${rr[@]}"; do
			IFS=: read -r what k t extra <<<"$run"
			base=
			[ $k = baseline ] && base=--baseline
			tag=bench-workload-$what-$r
			GUEST_TAG=$tag "$TOP/scripts/run-guest.sh" $base --mode bench "${vm[@]}" \
				--append "kmemobs.workload=$WL_SCALE $extra" $t >/dev/null
			log=$LOGS/guest-$(kind_name $k $t)-$tag.log
			grep -q 'workload_bench: done' "$log" && ! grep -q 'did not complete' "$log" ||
				{ tail -n 30 "$log"; die "the workloads did not complete in $log"; }
			# The ctx boot must really have captured at its site.
			[ "$what" != ctx ] || grep -q 'workload_bench: ctx: .*captured:[1-9]' "$log" ||
				{ tail -n 30 "$log"; die "no context captured at $WL_CTX_FUNC in $log"; }
			sed -nE "s/.*workload_bench: case=([^ ]*) .*ns_per_op=([0-9.]*).*/$what $r \1 \2/p;
				 s/.*workload_bench: metric=([^ ]*) value=([0-9.]*).*/$what $r \1 \2/p" \
				"$log" >>"$wsamples"
			phase "variant workload round $r/$WL_ROUNDS $what"
		done
	done
	ctxline=$(grep -h 'workload_bench: ctx: #' "$LOGS"/guest-*-bench-workload-ctx-1.log | head -n 1 |
		sed 's/.*workload_bench: ctx: //' | tr -d '\r')
	python3 - "$wsamples" "$WL_ROUNDS" "$WL_SCALE" "$WL_CTX_FUNC" "$ctxline" <<'PY' | tee -a "$out/results.txt"
import statistics, sys
from collections import defaultdict
samples, rounds, scale, ctxfunc, ctxline = sys.argv[1:]
data = defaultdict(list)
cases = []
for line in open(samples):
    what, r, case, v = line.split()
    data[(what, case)].append(float(v))
    if what != 'count' and case not in cases:
        cases.append(case)
med = {k: statistics.median(v) for k, v in data.items()}
print(f'workloads (bench/guest/workload.c, scale {scale}): guest instructions per '
      f'operation under -icount, median of {rounds} interleaved boots; ratio to 6.1; '
      f'spread = (max - min) / median over the boots (largest of the five kernels)')
print(f'{"case":<13} {"6.1":>10} {"on":>6} {"nomem":>6} {"pext":>6} {"ctx":>6} '
      f'{"spread":>6} {"slab/op":>8} {"pages/op":>8} {"allocs/1k":>9}')
for case in cases:
    b = med.get(('6.1', case))
    if not b:
        continue
    ratios = []
    for w in ('on', 'nomem', 'pext', 'ctx'):
        ratios.append(f'{med[(w, case)] / b:6.3f}' if (w, case) in med else f'{"-":>6}')
    spread = max((max(v) - min(v)) / statistics.median(v) * 100
                 for (w, c), v in data.items() if c == case and w != 'count')
    slab = med.get(('count', case + '-slab'))
    pages = med.get(('count', case + '-pages'))
    per = f'{(slab + pages) / b * 1000:9.2f}' if slab is not None else f'{"-":>9}'
    print(f'{case:<13} {b:10.0f} {" ".join(ratios)} {spread:5.2f}% '
          f'{slab if slab is not None else 0:8.1f} {pages if pages is not None else 0:8.1f} {per}')
print('on: profiling on; nomem: booted with nomem_profiling; pext: the pages\' tags in '
      'page_ext (x86_64-bench-prof-pext); ctx: on, with context capture at the sites of '
      f'{ctxfunc}(); slab/op, pages/op: slab objects and pages allocated per operation '
      '(x86_64-bench-count: SLUB_STATS, /proc/vmstat); allocs/1k: both per 1000 '
      'instructions of 6.1')
if ctxline:
    print(f'ctx boot, allocations.ctx after the workloads: {ctxline}')
PY
fi

# The native timing host: UML, pinned to one host CPU.
if [ -n "$uml" ]; then
	UML_ROUNDS=${UML_ROUNDS:-6} UML_REPEAT=${UML_REPEAT:-5} UML_OPS=${UML_OPS:-1000000}
	UML_CPU=${UML_CPU:-1}
	ucases=kmalloc-8,kmalloc-64,kmalloc-192,pgalloc,percpu-4,plain-4
	usamples=$out/samples-uml.txt
	: >"$usamples"
	for r in $(seq 1 "$UML_ROUNDS"); do
		for run in baseline:6.1 patched:on patched:nomem_profiling; do
			k=${run%%:*} what=${run#*:}
			extra=
			[ "$what" = nomem_profiling ] && extra=nomem_profiling
			name=guest-$(kind_name $k um-bench)-bench-uml-$what-$r
			cpio=$BUILD/out/$name.cpio log=$LOGS/$name.log
			"$TOP/scripts/initramfs.sh" um-bench "$cpio" \
				"$out/mod-$k-um-bench/kmem_bench.ko:/lib/modules/kmem_bench.ko"
			# con0 on stdout; the kernel's messages come on stderr
			# (CONFIG_STDERR_CONSOLE).
			timeout 900 taskset -c "$UML_CPU" "$(out_dir $k um-bench)/linux" \
				mem=256M initrd="$cpio" con=null con0=null,fd:1 \
				kmemobs.mode=bench kmemobs.poweroff kmemobs.bench_ops="$UML_OPS" \
				kmemobs.bench_only=$ucases kmemobs.bench_repeat="$UML_REPEAT" \
				$extra </dev/null >"$log" 2>&1 || true
			n=$(grep -c 'kmem_bench: case=' "$log" || true)
			[ "$n" -gt 0 ] || { tail -n 30 "$log"; die "no benchmark output in $log"; }
			# A boot cut short (timeout, crash) must not enter the medians.
			grep -q 'kmem_bench: done' "$log" ||
				{ tail -n 30 "$log"; die "kmem_bench did not complete in $log"; }
			sed -nE "s/.*kmem_bench: case=([^ ]*) .*ns_per_op=([0-9.]*).*/$what $r \1 \2/p" \
				"$log" >>"$usamples"
			phase "variant uml round $r/$UML_ROUNDS $what: $n cases"
		done
	done
	python3 - "$usamples" "$UML_ROUNDS" "$UML_REPEAT" "$UML_OPS" "$UML_CPU" <<'PY' | tee -a "$out/results.txt"
import statistics, sys
from collections import defaultdict
samples, rounds, repeat, ops, cpu = sys.argv[1:]
data = defaultdict(list)
for line in open(samples):
    what, r, case, ns = line.split()
    data[(what, case)].append(float(ns))
med = {k: statistics.median(v) for k, v in data.items()}
def spread(k):
    v = data[k]
    return (max(v) - min(v)) / statistics.median(v) * 100
print(f'native (UML, ARCH=um defconfig, host CPU {cpu}): ns per alloc/free pair, '
      f'fastest of {repeat} runs of {ops} pairs per boot, median of {rounds} '
      f'interleaved boots; spread = (max - min) / median over the boots')
print(f'{"case":<12} {"6.1":>7} {"on":>7} {"ratio":>6} {"nomem":>7} {"ratio":>6} '
      f'{"spread 6.1/on/nomem":>20}')
for case in ('kmalloc-8', 'kmalloc-64', 'kmalloc-192', 'pgalloc', 'pgalloc-o3'):
    k = [(w, case) for w in ('6.1', 'on', 'nomem_profiling')]
    if not all(x in med for x in k):
        continue
    b, on, off = (med[x] for x in k)
    sp = '/'.join(f'{spread(x):.1f}%' for x in k)
    print(f'{case:<12} {b:7.1f} {on:7.1f} {on / b:6.3f} {off:7.1f} {off / b:6.3f} {sp:>20}')
pc, pl = med.get(('on', 'percpu-4')), med.get(('on', 'plain-4'))
if pc is not None and pl is not None:
    share = pc - pl
    print(f'per-CPU share: four this_cpu updates {pc:.1f} ns, four plain updates '
          f'{pl:.1f} ns: {share:.1f} ns per profiled pair')
    print(f'{"case":<12} {"overhead on":>12} {"- per-CPU":>10} {"= rest":>7} '
          f'{"ratio without share":>20}')
    for case in ('kmalloc-8', 'kmalloc-64', 'kmalloc-192', 'pgalloc', 'pgalloc-o3'):
        if ('6.1', case) not in med or ('on', case) not in med:
            continue
        b, on = med[('6.1', case)], med[('on', case)]
        rest = on - b - share
        print(f'{case:<12} {on - b:12.1f} {share:10.1f} {rest:7.1f} {(b + rest) / b:20.3f}')
PY
fi
echo "results: ${out#"$TOP"/}/results.txt, samples: ${samples#"$TOP"/}"
