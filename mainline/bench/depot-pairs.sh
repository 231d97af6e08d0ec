#!/bin/bash
# Instructions per stack depot operation on the 7.3 line against unpatched
# 7.3, under both KASAN tag modes: the make check kernels of arm64-sw-tags
# and arm64-mte, patched and unpatched (baseline) built from one config,
# each booted on one vCPU under QEMU's -icount shift=0 (guest time advances
# one nanosecond per instruction, so ns per operation is the number of
# guest instructions, the same from run to run) with
# bench/modules/depot_bench.ko built against it.  Cases (see depot_bench.c):
#   depot-new  a new 16-frame trace saved with STACK_DEPOT_FLAG_GET and
#              put again at once: what KASAN's stack ring does for every
#              entry it overwrites
#   depot-hit  a save of a trace already stored (the lookup path)
# The unpatched depot takes the pair's record from its one freelist of
# whole slots; the patched one from the freelist of the record's size
# class.  Prints one line per case and mode with both counts and their
# ratio, and writes them to build/7.3/bench/depot-pairs.txt.
#
#   OPS=20000 mainline/bench/depot-pairs.sh [TARGET...]
# Logs: build/7.3/logs/guest-{,baseline-}TARGET-pairs.log.
set -euo pipefail
export KMEMOBS_LINE=7.3
. "$(dirname "$0")/../../scripts/lib.sh"

OPS=${OPS:-20000}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(arm64-sw-tags arm64-mte)
out=$BUILD/bench
mkdir -p "$out"
table=$out/depot-pairs.txt
: >"$table"

# run KIND TARGET: print "CASE NS_PER_OP" lines of depot_bench.
run() {
	local kind=$1 target=$2 b= log mod=$out/mod-$1-$2
	[ "$kind" = baseline ] && b=--baseline
	"$TOP/scripts/build-kernel.sh" $b "$target" >&2
	build_modules "$kind" "$target" "$TOP/bench/modules" "$mod" >&2
	GUEST_TAG=pairs "$TOP/scripts/run-guest.sh" $b --mode bench --smp 1 \
		--qemu "-icount shift=0,align=off" --file "$mod/depot_bench.ko:/lib/modules/depot_bench.ko" \
		--append "kunit.filter_glob=none kmemobs.bench_ops=$OPS kmemobs.bench_only=depot-new,depot-hit" \
		"$target" >&2 || true
	log=$LOGS/guest-$(kind_name "$kind" "$target")-pairs.log
	grep -aq 'depot_bench: done' "$log" ||
		die "$kind $target: depot_bench did not finish (see ${log#"$TOP"/})"
	grep -aq 'depot_bench: .*save failed' "$log" &&
		die "$kind $target: a save failed (see ${log#"$TOP"/})"
	sed -nE 's/.*depot_bench: case=([^ ]*) .*ns_per_op=([0-9.]*).*/\1 \2/p' "$log"
}

for t in "${targets[@]}"; do
	declare -A r=()
	for kind in baseline patched; do
		while read -r c v; do r[$kind:$c]=$v; done < <(run $kind "$t")
	done
	for c in depot-new depot-hit; do
		awk -v t="$t" -v c="$c" -v b="${r[baseline:$c]:-0}" -v p="${r[patched:$c]:-0}" 'BEGIN {
			printf "%-14s %-10s 7.3 %8.1f  patched %8.1f  instructions, ratio %s\n", t, c, b, p,
				(b > 0 && p > 0) ? sprintf("%.3f", p / b) : "?"
		}' | tee -a "$table"
	done
	unset r
done
echo "table: ${table#"$TOP"/}"
