#!/bin/bash
# make bench-scs: KASAN's stack traces from arm64's shadow call stack
# against the frame record unwinder, under QEMU -icount (one vCPU, guest
# instructions per operation, exact from run to run).  For each tag mode
# (hw: hardware tags under QEMU's MTE, sw: software tags) three kernels
# from one config (tinyconfig + KASAN + SHADOW_CALL_STACK):
#   shadow    the series, KASAN_STACKTRACE_SCS=y  (arm64-*-scs-bench)
#   unwinder  the series, KASAN_STACKTRACE_SCS=n  (arm64-*-fp-bench)
#   6.1       6.1's keep-forever depot with the statistics file (and the
#             hardware tags build fix): the base with posting 0 and
#             bench/baseline/*.patch,
#             same config
# and two measurements:
#   - one stack collection at depths 8, 16 and 32
#     (bench/modules/stack_bench.c, STACK_OPS per case), stack_trace_save()
#     against stack_trace_save_shadow() in the shadow kernel;
#   - kmalloc(64)/kfree() pairs from one call site
#     (bench/modules/kmem_bench.c, OPS pairs) in each of the three
#     kernels: every pair saves two traces.
#
#   OPS=50000 STACK_OPS=20000 bench/bench-scs.sh [hw|sw]...
#
# The table goes to build/bench/scs.txt.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

OPS=${OPS:-50000}
STACK_OPS=${STACK_OPS:-20000}
modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(hw sw)
out=$BUILD/bench
statsonly_in_series ||
	die "make bench-scs: the 6.1 row needs bench/baseline/*.patch (6.1's depot with statistics)"
# Packages, trees; the 6.1 depot is the statsonly tree.
arm64_bench_prepare

# run_bench KIND TARGET TAG OPS ONLY: boot KIND's TARGET kernel on one vCPU
# under -icount with the bench modules, print "CASE NS_PER_OP" lines.
run_bench() {
	local kind=$1 target=$2 tag=$3 ops=$4 only=$5 mod log files=()
	mod=$out/mod-$kind-$target
	for ko in "$mod"/*.ko; do
		files+=(--file "$ko:/lib/modules/${ko##*/}")
	done
	GUEST_TAG=$tag "$TOP/scripts/run-guest.sh" --kind "$kind" --mode bench --smp 1 \
		--qemu "-icount shift=0,align=off" ${files[@]+"${files[@]}"} \
		--append "kmemobs.bench_ops=$ops kmemobs.bench_only=$only" "$target" >/dev/null
	log=$LOGS/guest-$(kind_name "$kind" "$target")-$tag.log
	grep -q 'kmem_bench: done' "$log" ||
		die "$kind $target: the benchmark did not finish (see ${log#"$TOP"/})"
	sed -nE 's/.*(kmem|stack)_bench: case=([^ ]*) .*ns_per_op=([0-9.]*).*/\2 \3/p' "$log"
}

table=$out/scs.txt
: >"$table"
for m in "${modes[@]}"; do
	case $m in
	hw) pre=arm64-mte ;;
	sw) pre=arm64-sw-tags ;;
	*) die "mode is hw or sw" ;;
	esac
	kernels=("patched:$pre-scs-bench" "patched:$pre-fp-bench" "statsonly:$pre-scs-bench")
	for k in "${kernels[@]}"; do
		"$TOP/scripts/build-kernel.sh" --kind "${k%%:*}" "${k#*:}"
		build_modules "${k%%:*}" "${k#*:}" "$TOP/bench/modules" "$out/mod-${k%%:*}-${k#*:}"
	done

	declare -A r=()
	while read -r c v; do r[stack:$c]=$v; done < <(run_bench patched "$pre-scs-bench" \
		scs-stack "$STACK_OPS" unwind,scs)
	names=(shadow unwinder 6.1)
	for i in 0 1 2; do
		k=${kernels[$i]}
		while read -r c v; do r[${names[$i]}:$c]=$v; done < <(run_bench "${k%%:*}" "${k#*:}" \
			scs-kmalloc "$OPS" kmalloc-64)
		phase "$m ${names[$i]}: kmalloc-64 ${r[${names[$i]}:kmalloc-64]:-?} instructions per pair"
	done
	ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a && b) printf "%.3f", a / b; else print "?" }'; }
	{
		echo "== $m tags ($pre-scs-bench): one stack collection, guest instructions"
		printf '  %-6s %10s %10s %8s\n' depth unwinder shadow "unw/shd"
		for d in 8 16 32; do
			u=${r[stack:unwind-$d]:-} s=${r[stack:scs-$d]:-}
			printf '  %-6s %10s %10s %8s\n' "$d" "${u:-?}" "${s:-?}" "$(ratio "$u" "$s")"
		done
		echo "== $m tags: kmalloc(64)/kfree() pairs, guest instructions per pair"
		s=${r[shadow:kmalloc-64]:-} u=${r[unwinder:kmalloc-64]:-} b=${r[6.1:kmalloc-64]:-}
		printf '  shadow call stack     %10s\n' "${s:-?}"
		printf '  frame unwinder        %10s   shadow/unwinder %s\n' "${u:-?}" "$(ratio "$s" "$u")"
		printf "  6.1's depot, unwinder %10s   shadow/6.1 %s, unwinder/6.1 %s\n" "${b:-?}" \
			"$(ratio "$s" "$b")" "$(ratio "$u" "$b")"
	} | tee -a "$table"
	unset r
done
echo "table in ${table#"$TOP"/}"
