#!/bin/bash
# make demo (host side): install what is needed, build the demo kernels
# (the series' options, no test suite: configs/demo.config), boot each
# under QEMU and print what tests/show-features.sh shows inside.
#
#   DEMO="x86_64 arm64-mte" scripts/demo.sh     (the default: both guests)
#   DEMO=x86_64 scripts/demo.sh                  (no arm64 toolchain needed)
#
# Full console logs in build/logs/guest-*-demo.log.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

read -r -a guests <<<"${DEMO:-x86_64 arm64-mte}"
need=(x86_64)
for g in "${guests[@]}"; do
	case $g in
	x86_64) ;;
	arm64-mte) need+=(arm64) ;;
	*) die "DEMO: unknown guest '$g' (x86_64, arm64-mte)" ;;
	esac
done

phase "packages"
"$TOP/scripts/install-deps.sh" "${need[@]}" || die "install-deps failed"
phase "base tree + series"
"$TOP/scripts/tree.sh" --sync

for g in "${guests[@]}"; do
	target=$g-demo
	"$TOP/scripts/build-kernel.sh" "$target"
	files=()
	if [ "$g" = arm64-mte ]; then
		# The module that drives KASAN's stack ring (tests/modules).
		mod=$BUILD/out/modules-$target
		build_modules patched "$target" "$TOP/tests/modules" "$mod"
		files=(--file "$mod/kasan_ring_test.ko:/lib/modules/kasan_ring_test.ko")
	fi
	GUEST_TAG=demo "$TOP/scripts/run-guest.sh" --mode demo ${files[@]+"${files[@]}"} "$target" >/dev/null
	log=$LOGS/guest-$target-demo.log

	echo
	frags=$(. "$TOP/scripts/targets.sh"; target_env "$target"; echo "$BASECONF + $FRAGS")
	echo "######## $g guest: $(git -C "$TREE" rev-list --count base..HEAD) patches in $(posting_tags | wc -l) postings on" \
	     "$(git -C "$TREE" tag -l --format='%(contents:subject)' base); config: $frags"
	# The guest's own output: everything init printed, without kernel
	# messages.
	sed -n '/^KMEMOBS: userspace up/,/^KMEMOBS: done/p' "$log" |
		grep -av -e '^KMEMOBS:' -e '^\[ *[0-9]*\.[0-9]*\]' | tr -d '\r'
	echo
	grep -aq '^KMEMOBS: done' "$log" || die "the guest did not finish: see ${log#"$TOP"/}"
	# Nothing but the demo's own KASAN report may look like a splat.
	bad=$(grep -anE 'WARNING:|BUG:|Oops|Kernel panic|INFO: task|possible recursive|circular locking|suspicious RCU' "$log" |
		grep -v 'BUG: KASAN: use-after-free in ' || true)
	[ -z "$bad" ] || die "unexpected kernel messages in ${log#"$TOP"/}: $bad"
done
phase "demo done (console logs: build/logs/guest-*-demo.log)"
