#!/bin/bash
# Instructions per allocation pair with mainline's allocation profiling,
# after each patch of a range of the 7.3 line: the before/after numbers of
# the profiling posting's changelogs.  Each commit of BASE..TIP (and BASE
# itself) is checked out in a worktree of build/7.3/linux (kind "steps",
# build/7.3/steps/linux), built as target x86_64-bench-prof (the 7.3 peer
# of make bench: the same fragments as the 6.1 line's x86_64-bench-prof)
# into one output directory, so that each step rebuilds only what the
# patch touches, and booted on one vCPU under -icount shift=0 with
# bench/modules/kmem_bench.ko built against it: once with the pages' tags
# in page_ext (7.3's default) and once in the page flags
# (sysctl.vm.mem_profiling=1,compressed).  Under -icount the counts are
# the same from boot to boot, so one boot per mode is enough.
#
#   OPS=400000 mainline/bench/profiling-steps.sh BASE TIP
#
# Prints a table (one column per commit) and writes it to
# build/7.3/bench/profiling-steps.txt; logs in build/7.3/logs/.
set -euo pipefail
export KMEMOBS_LINE=7.3
. "$(dirname "$0")/../../scripts/lib.sh"

OPS=${OPS:-400000}
[ $# = 2 ] || die "usage: $0 BASE TIP (commits of build/7.3/linux)"
tree=$(tree_dir patched)
base=$(git -C "$tree" rev-parse --verify "$1^{commit}")
tip=$(git -C "$tree" rev-parse --verify "$2^{commit}")
mapfile -t commits < <(echo "$base"; git -C "$tree" rev-list --reverse "$base..$tip")
target=x86_64-bench-prof
wt=$(tree_dir steps)
out=$BUILD/bench
mkdir -p "$out"
if [ ! -d "$wt" ]; then
	mkdir -p "$(dirname "$wt")"
	git -C "$tree" worktree add -q --detach "$wt" "$base"
fi

samples=$out/profiling-steps.samples
: >"$samples"
for c in "${commits[@]}"; do
	short=$(git -C "$tree" log -1 --format=%h "$c")
	git -C "$wt" checkout -q --detach "$c"
	phase "step $short: $(git -C "$tree" log -1 --format=%s "$c")"
	"$TOP/scripts/build-kernel.sh" --kind steps $target
	mod=$out/mod-steps-$target
	build_modules steps $target "$TOP/bench/modules" "$mod"
	for run in page_ext: compressed:sysctl.vm.mem_profiling=1,compressed; do
		what=${run%%:*} extra=${run#*:}
		tag=steps-$what
		GUEST_TAG=$tag "$TOP/scripts/run-guest.sh" --kind steps --mode bench --smp 1 \
			--qemu "-icount shift=0,align=off" \
			--append "kmemobs.bench_ops=$OPS kmemobs.bench_only=kmalloc,pgalloc $extra" \
			--file "$mod/kmem_bench.ko:/lib/modules/kmem_bench.ko" $target >/dev/null
		log=$LOGS/guest-$(kind_name steps $target)-$tag.log
		grep -aq 'kmem_bench: case=' "$log" || { tail -n 30 "$log"; die "no benchmark output in $log"; }
		grep -aq 'did not complete' "$log" && { tail -n 30 "$log"; die "a benchmark module failed in $log"; }
		got=$(sed -nE 's/.*run-benchmarks: vm.mem_profiling=([0-9a-z]*).*/\1/p' "$log" | head -n 1)
		[ "$got" = 1 ] || die "step $short $what: vm.mem_profiling is '$got', not 1 ($log)"
		sed -nE "s/.*kmem_bench: case=([^ ]*) .*ns_per_op=([0-9.]*).*/$short $what \1 \2/p" \
			"$log" >>"$samples"
	done
done

python3 - "$samples" "$out/profiling-steps.txt" "$OPS" <<'PY'
import sys
samples, dest, ops = sys.argv[1:]
cols, rows, val = [], [], {}
for line in open(samples):
    c, what, case, v = line.split()
    if c not in cols:
        cols.append(c)
    if (what, case) not in rows:
        rows.append((what, case))
    val[(c, what, case)] = float(v)
out = [f'guest instructions per operation (QEMU -icount, ops={ops}); '
       f'each column a commit of the 7.3 line, the first the base; '
       f'(delta to the column before)',
       f'{"tags":<10} {"case":<18}' + ''.join(f' {c:>20}' for c in cols)]
for what, case in rows:
    cells, prev = [], None
    for c in cols:
        v = val.get((c, what, case))
        if v is None:
            cells.append(f' {"-":>20}')
        elif prev is None:
            cells.append(f' {v:>20.1f}')
        else:
            cells.append(f' {f"{v:.1f} ({v - prev:+.1f})":>20}')
        prev = v if v is not None else prev
    out.append(f'{what:<10} {case:<18}' + ''.join(cells))
text = '\n'.join(out) + '\n'
open(dest, 'w').write(text)
print(text, end='')
PY
echo "table: ${out#"$TOP"/}/profiling-steps.txt"
