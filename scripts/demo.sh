#!/bin/bash
# make demo (host side): install what is needed, build the demo kernels
# (the series' options, no test suite: configs/demo.config), boot each
# under QEMU and print what tests/show-features.sh shows inside.
#
#   DEMO="x86_64 arm64-mte 7.3-arm64-sw-tags" scripts/demo.sh   (the default)
#   DEMO=x86_64 scripts/demo.sh                  (no arm64 toolchain needed)
#
# 7.3-arm64-sw-tags is the 7.3 line's guest: the KASAN software-tags
# kernel of make check, booted for the one KUnit case its first posting
# adds (a report printed after its stack ring entries were overwritten),
# shown by mainline/tests/show-features.sh; this script runs again with
# KMEMOBS_LINE=7.3 for it.
#
# Full console logs in build/logs/guest-*-demo.log (the 7.3 line's in
# build/7.3/logs/).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

default="x86_64 arm64-mte 7.3-arm64-sw-tags"
[ "$LINE" = 6.1 ] || default=arm64-sw-tags
read -r -a guests <<<"${DEMO:-$default}"
need=(x86_64) line73=()
for g in "${guests[@]}"; do
	case $LINE/$g in
	6.1/x86_64) ;;
	6.1/arm64-mte) need+=(arm64) ;;
	6.1/7.3-*) line73+=("${g#7.3-}") ;;
	7.3/arm64-sw-tags) need+=(arm64 mainline) ;;
	*) die "DEMO: unknown guest '$g' (x86_64, arm64-mte, 7.3-arm64-sw-tags)" ;;
	esac
done
if [ ${#line73[@]} -gt 0 ]; then
	rest=()
	for g in "${guests[@]}"; do [[ $g == 7.3-* ]] || rest+=("$g"); done
	if [ ${#rest[@]} -gt 0 ]; then
		DEMO="${rest[*]}" "$0"
	fi
	exec env KMEMOBS_LINE=7.3 DEMO="${line73[*]}" "$0"
fi

phase "packages"
"$TOP/scripts/install-deps.sh" "${need[@]}" || die "install-deps failed"
phase "base tree + series"
"$TOP/scripts/tree.sh" --sync

for g in "${guests[@]}"; do
	target=$g-demo extra=()
	# The 7.3 line shows its test kernel, for one KUnit case.
	[ "$LINE" = 6.1 ] || target=$g extra=(--append kunit.filter_glob=kasan.stack_ring_report_keeps_stacks)
	"$TOP/scripts/build-kernel.sh" "$target"
	files=()
	if [ "$g" = arm64-mte ]; then
		# The module that drives KASAN's stack ring (tests/modules).
		mod=$BUILD/out/modules-$target
		build_modules patched "$target" "$GUEST_MODULES" "$mod"
		files=(--file "$mod/kasan_ring_test.ko:/lib/modules/kasan_ring_test.ko")
	fi
	GUEST_TAG=demo "$TOP/scripts/run-guest.sh" --mode demo ${extra[@]+"${extra[@]}"} \
		${files[@]+"${files[@]}"} "$target" >/dev/null
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
		grep -vE 'BUG: KASAN: (slab-)?use-after-free in ' || true)
	[ -z "$bad" ] || die "unexpected kernel messages in ${log#"$TOP"/}: $bad"
done
phase "demo done (console logs: ${LOGS#"$TOP"/}/guest-*-demo.log)"
