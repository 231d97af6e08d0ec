#!/bin/bash
# make bench-kasan: the stack depot's memory under the tag-based KASAN
# modes, with the evicting depot (the series) against the keep-forever
# depot with statistics only (the series up to "lib/stackdepot: add
# statistics in debugfs": 6.1's depot plus the stats file, the fair point
# of comparison).  Both kernels of a mode are built from the same config
# (arm64-mte-bench: hardware tags under QEMU's MTE; arm64-sw-tags-bench:
# software tags), with CONFIG_STACKDEPOT_MAX_FRAMES=32 where the option
# exists and the default 32k-entry stack ring, and run the same workload
# (tests/bench-kasan.sh): the depot's pools and bytes after boot, then
# after each of ROUNDS rounds of PAIRS kmalloc/kfree pairs from stacks
# never seen before (tests/modules/kasan_ring_test.c).
#
#   ROUNDS=6 PAIRS=16384 scripts/bench-kasan.sh [hw|sw]...
#
# Prints pool_bytes per point for both kernels and the ratio
# evicting/keep-forever; writes the table to build/bench/kasan.txt.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ROUNDS=${ROUNDS:-6}
PAIRS=${PAIRS:-16384}
modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(hw sw)
out=$BUILD/bench
mkdir -p "$out"

"$TOP/scripts/install-deps.sh" >"$LOGS/install-deps.log" 2>&1
"$TOP/scripts/tree.sh" --sync

# The stats-only tree: a worktree of build/linux at the statistics patch.
stats_commit=$(git -C "$TREE" log --format=%H --grep='^lib/stackdepot: add statistics in debugfs$' base..HEAD)
[ -n "$stats_commit" ] || die "no 'lib/stackdepot: add statistics in debugfs' commit in build/linux"
wt=$(tree_dir statsonly)
if [ ! -e "$wt/.git" ]; then
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$wt" "$stats_commit"
fi
[ "$(git -C "$wt" rev-parse HEAD)" = "$stats_commit" ] ||
	git -C "$wt" checkout -q --detach "$stats_commit"

table=$out/kasan.txt
: >"$table"
for m in "${modes[@]}"; do
	case $m in
	hw) target=arm64-mte-bench ;;
	sw) target=arm64-sw-tags-bench ;;
	*) die "mode is hw or sw" ;;
	esac
	declare -A bytes=()
	for kind in patched statsonly; do
		"$TOP/scripts/build-kernel.sh" --kind $kind "$target"
		mod=$BUILD/out/modules-$(kind_name $kind "$target")
		build_modules $kind "$target" "$TOP/tests/modules" "$mod"
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
done
echo "table in ${table#"$TOP"/}"
