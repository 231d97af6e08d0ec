# Targets of the 7.3 line (scripts/targets.sh sources this file when
# KMEMOBS_LINE=7.3): architecture, cross compiler, config fragments and
# boot image, as in scripts/targets.sh.  A fragment is read from
# mainline/configs/ when it is there, else from configs/ (the ones that
# mean the same on both bases: base, x86_64, arm64, kasan-sw-tags,
# page_owner, debug).
# shellcheck shell=bash

TARGETS="x86_64 arm64-sw-tags arm64-mte x86_64-defconfig arm64-defconfig x86_64-bench
	x86_64-bench-prof"

# target_env TARGET: as in scripts/targets.sh (target_arch_env there).
target_env() {
	target_arch_env "$1"
	case $1 in
	# The x86_64 guest of make check: lockdep, page_owner (which counts
	# its stacks through the depot's refcount), the depot's KUnit suite,
	# and allocation profiling with its debug checks and SLUB's suite.
	x86_64) FRAGS="$FRAGS debug page_owner depot-kunit alloc-profiling-kunit" W1=1 ;;
	# The KASAN guests: software tags (make check) and hardware tags
	# under QEMU's MTE (make check-wide), each with KASAN's KUnit suite
	# and page_owner.
	arm64-sw-tags) FRAGS="$FRAGS kasan-sw-tags kasan-kunit page_owner" W1=1 ;;
	arm64-mte) FRAGS="$FRAGS kasan-hw-tags kasan-kunit page_owner" ;;
	# What users build (make check-wide): defconfig with the line's
	# options.
	x86_64-defconfig) BASECONF=defconfig FRAGS="wide" ;;
	arm64-defconfig) BASECONF=defconfig FRAGS="wide kasan-sw-tags wide-kasan" ;;
	# make bench's 7.3 peer (variant mainline), as the 6.1 line's
	# x86_64-bench-prof: the guest without debug options, static keys
	# and -O2; without and with mainline's allocation profiling.
	x86_64-bench) FRAGS="$FRAGS page_owner production" ;;
	x86_64-bench-prof) FRAGS="$FRAGS page_owner production alloc-profiling-bench" ;;
	*) die "unknown 7.3 target '$1' ($TARGETS)" ;;
	esac
}
