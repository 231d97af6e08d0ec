# Target definitions: architecture, cross compiler, config fragments (in
# configs/, applied in order on top of tinyconfig) and the boot image.
# shellcheck shell=bash

# target_env TARGET: set ARCH, CROSS, FRAGS, IMAGE for TARGET, and LLVM=1
# for targets built with clang.
target_env() {
	LLVM=
	case $1 in
	x86_64)
		ARCH=x86_64 CROSS=
		FRAGS="base x86_64 debug page_owner stackdepot-test"
		IMAGE=arch/x86/boot/bzImage
		;;
	x86_64-bench)
		# The x86_64 guest without the debug options, for make bench.
		ARCH=x86_64 CROSS=
		FRAGS="base x86_64 page_owner"
		IMAGE=arch/x86/boot/bzImage
		;;
	x86_64-bench32)
		# x86_64-bench with 32-frame depot slots.
		ARCH=x86_64 CROSS=
		FRAGS="base x86_64 page_owner depot-frames32"
		IMAGE=arch/x86/boot/bzImage
		;;
	arm64-mte)
		ARCH=arm64 CROSS=aarch64-linux-gnu-
		FRAGS="base arm64 kasan-hw-tags"
		IMAGE=arch/arm64/boot/Image
		;;
	x86_64-users)
		# Compile-only: the stack depot's users (make series).
		ARCH=x86_64 CROSS=
		FRAGS="base x86_64 depot-users"
		IMAGE=arch/x86/boot/bzImage
		;;
	x86_64-kmsan)
		# Compile-only, with clang: KMSAN (make series).
		ARCH=x86_64 CROSS= LLVM=1
		FRAGS="base x86_64 depot-users-kmsan"
		IMAGE=arch/x86/boot/bzImage
		;;
	*)
		die "unknown target '$1' (x86_64, x86_64-bench, x86_64-bench32, arm64-mte, x86_64-users, x86_64-kmsan)"
		;;
	esac
}
