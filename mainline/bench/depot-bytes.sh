#!/bin/bash
# The stack depot's size on the 7.3 line against unpatched 7.3, under both
# KASAN tag modes: boots the patched and the unpatched (baseline) guests of
# arm64-sw-tags and arm64-mte, built from one config, with no KUnit suite
# at boot (kunit.filter_glob=none: the suites differ between the two
# kernels), and prints the statistics that
# mainline/tests/guest/40-depot-bytes.sh logs after boot and after its
# workload, with the bytes per refcounted record (544 on
# unpatched 7.3 with 64 frames: every refcounted record takes a whole
# slot, as lib/stackdepot.c sizes it there).
#
#   mainline/bench/depot-bytes.sh [--no-boot] [TARGET...]
#       --no-boot: read the last logs instead of booting again
# Logs: build/7.3/logs/guest-{,baseline-}TARGET-nokunit.log.
set -euo pipefail
export KMEMOBS_LINE=7.3
. "$(dirname "$0")/../../scripts/lib.sh"

boot=1
[ "${1:-}" = --no-boot ] && { boot=; shift; }
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(arm64-sw-tags arm64-mte)
# The unpatched record: a whole slot of 64 frames (32-byte header).
SLOT=$((32 + 64 * 8))

for t in "${targets[@]}"; do
	for kind in baseline patched; do
		log=$LOGS/guest-$(kind_name $kind "$t")-nokunit.log
		if [ -n "$boot" ]; then
			b=
			[ $kind = baseline ] && b=--baseline
			"$TOP/scripts/build-kernel.sh" $b "$t"
			GUEST_TAG=nokunit "$TOP/scripts/run-guest.sh" $b --append kunit.filter_glob=none \
				--tests depot-bytes "$t" >/dev/null || true
		fi
		for when in "after boot" "after churn"; do
			line=$(grep -a "# depot $when:" "$log" | tail -n 1)
			[ -n "$line" ] || { echo "$t $kind: no '$when' line in ${log#"$TOP"/}"; continue; }
			get() { sed -n "s/.* $1: \([0-9]*\).*/\1/p" <<<"$line"; }
			pools=$(get pools) inuse=$(get refcounted_in_use) bytes=$(get refcounted_bytes)
			[ -n "$bytes" ] || bytes=$((inuse * SLOT))
			per=0
			[ "$inuse" -gt 0 ] && per=$((bytes / inuse))
			printf '%-14s %-9s %-12s pools %4d (%5d KiB)  refcounted in use %5d  bytes each %4d  persistent %s\n' \
				"$t" "$kind" "$when" "$pools" $((pools * 16)) "$inuse" "$per" "$(get persistent_bytes)"
		done
	done
done
