#!/bin/bash
# make bench-kasan: the stack depot's memory under the tag-based KASAN
# modes, with the evicting depot (the series) against the keep-forever
# depot with statistics only (the series up to "lib/stackdepot: add
# statistics in debugfs": 6.1's depot plus the stats file, the fair point
# of comparison).  Both kernels of a mode are built from the same config
# (arm64-mte-bench: hardware tags under QEMU's MTE; arm64-sw-tags-bench:
# software tags), with CONFIG_STACKDEPOT_MAX_FRAMES=32 where the option
# exists and the default 32k-entry stack ring, and run the same workload
# (bench/guest/measure-depot-kasan.sh): the depot's pools and bytes after
# boot, then after each of ROUNDS rounds of PAIRS kmalloc/kfree pairs from
# stacks never seen before (tests/modules/kasan_ring_test.c).
#
# The keep-forever kernel is the base with posting 0 and
# bench/baseline/*.patch (6.1's
# depot with the statistics file; scripts/lib.sh statsonly_tree).
#
#   ROUNDS=6 PAIRS=16384 bench/bench-kasan.sh [hw|sw]...
#
# Prints pool_bytes per point for both kernels and the ratio
# evicting/keep-forever; writes the table to build/bench/kasan.txt.
#
# Then the price of eviction on the allocation hot path, with the same two
# kernels: kmalloc(64)/kfree() pairs from one call site
# (bench/modules/kmem_bench.c, OPS pairs), which under the tag modes take
# and drop depot references on the same records.  kmalloc-64 runs on one
# vCPU under -icount (guest instructions per pair, exact); kmalloc-64-2cpu
# on two vCPUs at once from the same call site, on the host wall clock
# (SMP_ROUNDS interleaved rounds, median and spread), where a depot cache
# line written by both CPUs would bounce.  PAIRS_ONLY=1 skips the memory
# part.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

ROUNDS=${ROUNDS:-6}
PAIRS=${PAIRS:-16384}
OPS=${OPS:-200000}
SMP_ROUNDS=${SMP_ROUNDS:-5}
modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(hw sw)
out=$BUILD/bench
statsonly_in_series ||
	die "make bench-kasan: the keep-forever comparison needs bench/baseline/*.patch (6.1's depot with statistics)"
# Packages, trees; the keep-forever depot is the statsonly tree.
arm64_bench_prepare

table=$out/kasan.txt
: >"$table"
for m in "${modes[@]}"; do
	case $m in
	hw) target=arm64-mte-bench ;;
	sw) target=arm64-sw-tags-bench ;;
	*) die "mode is hw or sw" ;;
	esac
	if [ -z "${PAIRS_ONLY:-}" ]; then
		declare -A bytes=()
		for kind in patched statsonly; do
			"$TOP/scripts/build-kernel.sh" --kind $kind "$target"
			mod=$BUILD/out/modules-$(kind_name $kind "$target")
			build_modules $kind "$target" "$GUEST_MODULES" "$mod"
			GUEST_TAG=bench "$TOP/scripts/run-guest.sh" --kind $kind --mode bench-kasan \
				--file "$mod/kasan_ring_test.ko:/lib/modules/kasan_ring_test.ko" \
				--append "kmemobs.bench_rounds=$ROUNDS kmemobs.bench_pairs=$PAIRS" "$target"
			log=$LOGS/guest-$(kind_name $kind "$target")-bench.log
			grep -q 'KASAN-BENCH: point=churn'"$ROUNDS" "$log" ||
				die "$kind $target: the workload did not finish (see ${log#"$TOP"/})"
			while read -r point b; do
				bytes[$kind:$point]=$b
			done < <(sed -n 's/.*KASAN-BENCH: point=\([^ ]*\) .*pool_bytes=\([0-9]*\).*/\1 \2/p' "$log")
		done
		{
			echo "== $m tags ($target): depot pool bytes, $PAIRS pairs per round"
			printf '  %-8s %14s %14s %7s\n' point evicting keep-forever ratio
			for point in boot $(seq -f 'churn%g' 1 "$ROUNDS"); do
				p=${bytes[patched:$point]} s=${bytes[statsonly:$point]}
				printf '  %-8s %14s %14s %7s\n' "$point" "$p" "$s" \
					"$(awk -v p="$p" -v s="$s" 'BEGIN { printf "%.3f", p / s }')"
			done
		} | tee -a "$table"
		unset bytes
	fi
	for kind in patched statsonly; do
		"$TOP/scripts/build-kernel.sh" --kind $kind "$target"
		build_modules $kind "$target" "$TOP/bench/modules" "$out/mod-$kind-$target"
	done
	# run_pairs KIND TAG ONLY VM...: boot KIND's kernel with kmem_bench,
	# print "CASE NS_PER_OP" lines.
	run_pairs() {
		local kind=$1 tag=$2 only=$3 log
		shift 3
		GUEST_TAG=$tag "$TOP/scripts/run-guest.sh" --kind $kind --mode bench "$@" \
			--append "kmemobs.bench_ops=$OPS kmemobs.bench_only=$only" \
			--file "$out/mod-$kind-$target/kmem_bench.ko:/lib/modules/kmem_bench.ko" \
			"$target" >/dev/null
		log=$LOGS/guest-$(kind_name $kind "$target")-$tag.log
		grep -q 'kmem_bench: done' "$log" ||
			die "$kind $target: kmem_bench did not finish (see ${log#"$TOP"/})"
		sed -nE 's/.*kmem_bench: case=([^ ]*) .*ns_per_op=([0-9.]*).*/\1 \2/p' "$log"
	}
	declare -A icount=()
	for kind in patched statsonly; do
		read -r _ icount[$kind] < <(run_pairs $kind pairs-icount kmalloc-64 \
			--smp 1 --qemu "-icount shift=0,align=off" | grep '^kmalloc-64 ')
		phase "$m $kind: kmalloc-64 ${icount[$kind]} instructions per pair"
	done
	samples=()
	for r in $(seq 1 "$SMP_ROUNDS"); do
		for kind in patched statsonly; do
			read -r _ ns < <(run_pairs $kind pairs-smp2-$r kmalloc-64-2cpu --smp 2 |
				grep '^kmalloc-64-2cpu ')
			samples+=("$kind $ns")
			phase "$m round $r/$SMP_ROUNDS $kind: kmalloc-64-2cpu $ns ns per pair"
		done
	done
	printf '%s\n' "${samples[@]}" | python3 -c '
import statistics, sys
m, ip, ik = sys.argv[1:]
d = {"patched": [], "statsonly": []}
for line in sys.stdin:
    k, v = line.split()
    d[k].append(float(v))
mp, mk = statistics.median(d["patched"]), statistics.median(d["statsonly"])
sp = (max(d["patched"]) - min(d["patched"])) / mp
sk = (max(d["statsonly"]) - min(d["statsonly"])) / mk
n = len(d["patched"])
print(f"== {m} tags: kmalloc(64)/kfree() pairs, evicting vs keep-forever depot")
print(f"  kmalloc-64       1 vCPU, -icount: {float(ip):9.1f} {float(ik):9.1f} instructions per pair, ratio {float(ip) / float(ik):.3f}")
print(f"  kmalloc-64-2cpu  2 vCPUs, wall:   {mp:9.1f} {mk:9.1f} ns per pair (median of {n}), ratio {mp / mk:.3f}, spread {sp:.0%} / {sk:.0%}")
' "$m" "${icount[patched]}" "${icount[statsonly]}" | tee -a "$table"
	unset icount
done
echo "table in ${table#"$TOP"/}"
