# Target definitions: architecture, cross compiler, config fragments (in
# configs/, applied in order on top of BASECONF: tinyconfig, or defconfig
# for the targets that build what users build) and the boot image.
# shellcheck shell=bash

# target_arch_env TARGET: what the name's prefix says, on both lines: ARCH,
# CROSS, IMAGE, the first fragments (base and the architecture's), and the
# defaults of LLVM, BASECONF and W1.
target_arch_env() {
	LLVM= BASECONF=tinyconfig W1=
	case $1 in
	x86_64*)
		ARCH=x86_64 CROSS= IMAGE=arch/x86/boot/bzImage
		FRAGS="base x86_64"
		;;
	arm64*)
		ARCH=arm64 CROSS=aarch64-linux-gnu- IMAGE=arch/arm64/boot/Image
		FRAGS="base arm64"
		;;
	um*)
		ARCH=um CROSS= IMAGE=linux
		FRAGS=
		;;
	esac
}

# The 7.3 line has targets of its own (mainline/targets.sh).
if [ "${LINE:-6.1}" = 7.3 ]; then
	. "$TOP/mainline/targets.sh"
	return
fi

TARGETS="x86_64 x86_64-bench x86_64-bench32 x86_64-frames8 x86_64-bench-prof x86_64-users x86_64-kmsan x86_64-abi arm64-mte arm64-sw-tags
	arm64-mte-bench arm64-sw-tags-bench x86_64-defconfig arm64-defconfig arm64-defconfig-sw-tags x86_64-hdr-on
	x86_64-slab x86_64-demo arm64-mte-demo arm64-mte-scs arm64-sw-tags-scs
	arm64-mte-scs-bench arm64-sw-tags-scs-bench arm64-mte-fp-bench arm64-sw-tags-fp-bench
	x86_64-bench-prof-noctx x86_64-bench-prof-pext x86_64-bench-count x86_64-kasan um-bench"

# target_env TARGET: set ARCH, CROSS, FRAGS, IMAGE for TARGET, LLVM=1
# for targets built with clang, and W1=1 for the targets whose touched
# directories make series checks at W=1 (the guests of make check: their
# kernels are built with W=1 too, so that the check's objects are the
# kernel's).  The architecture follows from the name's
# prefix; each target adds its own fragments.
target_env() {
	target_arch_env "$1"
	case $1 in
	# The guest of make check.
	x86_64) FRAGS="$FRAGS debug page_owner page_owner-test stackdepot-test alloc-profiling" W1=1 ;;
	# The x86_64 guest without the debug options, for make bench.
	x86_64-bench) FRAGS="$FRAGS page_owner" ;;
	# x86_64-bench with 32-frame depot slots (make bench, frames32).
	x86_64-bench32) FRAGS="$FRAGS page_owner depot-frames32" ;;
	# The x86_64 guest's depot tests with 8-frame records, the fewest
	# CONFIG_STACKDEPOT_MAX_FRAMES allows (make check-wide).
	x86_64-frames8) FRAGS="$FRAGS debug page_owner stackdepot-test depot-frames8" W1=1 ;;
	# x86_64-bench with static keys and -O2, as production kernels are
	# built, and allocation profiling without its debug checks (make
	# bench, profiling and nomem_profiling; the baseline is built from
	# the same fragments).
	x86_64-bench-prof) FRAGS="$FRAGS page_owner production alloc-profiling-bench" ;;
	# x86_64-bench-prof without context capture built in: what capture
	# costs the sites that do not capture (make bench-ctx).
	x86_64-bench-prof-noctx) FRAGS="$FRAGS page_owner production alloc-profiling-bench no-alloc-ctx" ;;
	# x86_64-bench-prof with the pages' tags in page_ext, as distribution
	# kernels with many nodes and CPUs have them (make bench: workload-pext).
	x86_64-bench-prof-pext) FRAGS="$FRAGS page_owner production alloc-profiling-bench page-tags-ext-bench" ;;
	# x86_64-bench-prof with the allocators' event counters (SLUB_STATS,
	# /proc/vmstat): how many allocations each workload makes (make bench:
	# workload), never timed.
	x86_64-bench-count) FRAGS="$FRAGS page_owner production alloc-profiling-bench bench-count" ;;
	# Compile-only: the stack depot's users (make series).
	x86_64-users) FRAGS="$FRAGS depot-users" ;;
	# The ABI check (make check-wide): patched and unpatched, compared.
	x86_64-abi) FRAGS="$FRAGS abi" ;;
	# Compile-only, with clang: KMSAN (make series).
	x86_64-kmsan) FRAGS="$FRAGS depot-users-kmsan" LLVM=1 ;;
	# The KASAN guests of make check: hardware tags (QEMU's MTE) and
	# software tags.
	arm64-mte) FRAGS="$FRAGS kasan-hw-tags kasan-kunit" W1=1 ;;
	# arm64-sw-tags also captures allocation contexts under KASAN, and
	# keeps page tags in page_ext (the alloc_tag suite runs there too).
	arm64-sw-tags) FRAGS="$FRAGS kasan-sw-tags kasan-kunit alloc-ctx page-tags-ext" ;;
	# The same with the shadow call stack: KASAN copies its stack traces
	# from it.  arm64-sw-tags-scs (make check) is arm64-sw-tags with it,
	# contexts and page_ext tags included; arm64-mte-scs and arm64-sw-tags
	# are in make check-wide.
	arm64-mte-scs) FRAGS="$FRAGS kasan-hw-tags kasan-kunit scs" ;;
	arm64-sw-tags-scs) FRAGS="$FRAGS kasan-sw-tags kasan-kunit alloc-ctx page-tags-ext scs" ;;
	# make bench-scs: KASAN's traces from the shadow call stack, and the
	# same kernel with the unwinder.
	arm64-mte-scs-bench) FRAGS="$FRAGS kasan-hw-tags scs-bench" ;;
	arm64-sw-tags-scs-bench) FRAGS="$FRAGS kasan-sw-tags scs-bench" ;;
	arm64-mte-fp-bench) FRAGS="$FRAGS kasan-hw-tags scs-bench scs-off" ;;
	arm64-sw-tags-fp-bench) FRAGS="$FRAGS kasan-sw-tags scs-bench scs-off" ;;
	# Their make bench-kasan kernels: no KUnit suite, 32-frame slots.
	arm64-mte-bench) FRAGS="$FRAGS kasan-hw-tags depot-frames32" ;;
	arm64-sw-tags-bench) FRAGS="$FRAGS kasan-sw-tags depot-frames32" ;;
	# What users build: defconfig with the series' options (make
	# check-wide), and arm64's with KASAN software tags.
	x86_64-defconfig) BASECONF=defconfig FRAGS="wide unwind" ;;
	arm64-defconfig) BASECONF=defconfig FRAGS=wide ;;
	arm64-defconfig-sw-tags) BASECONF=defconfig FRAGS="wide kasan-sw-tags" ;;
	# The demo kernels (make demo): the series' options as a user sets
	# them, no test suite; the MTE one shows the KASAN stack ring.
	x86_64-demo) FRAGS="$FRAGS production page_owner demo" ;;
	arm64-mte-demo) FRAGS="$FRAGS production kasan-hw-tags" ;;
	# The x86_64 guest with SLAB instead of SLUB (make check-wide).
	x86_64-slab) FRAGS="$FRAGS debug page_owner page_owner-test stackdepot-test alloc-profiling slab" ;;
	# The x86_64 guest under generic KASAN (make check-wide): deferred
	# unwinding and context capture under KASAN too.
	x86_64-kasan) FRAGS="$FRAGS debug page_owner page_owner-test stackdepot-test alloc-profiling kasan-generic" ;;
	# make bench's native timing host (variant uml): UML's defconfig with
	# allocation profiling; the baseline from the same fragments.
	um-bench) BASECONF=defconfig FRAGS=um-bench ;;
	# Header self-containment (scripts/check-headers.sh) with profiling
	# configured, without DEBUG: prepared, never built.
	x86_64-hdr-on) FRAGS="$FRAGS headers-on" ;;
	*) die "unknown target '$1' ($TARGETS)" ;;
	esac
}
