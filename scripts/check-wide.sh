#!/bin/bash
# make check-wide: what make check leaves out because it does not fit the
# CI budget, run before an issue is resolved:
#  - x86_64 and arm64 defconfig with the series' options, and arm64
#    defconfig with KASAN software tags, built completely with no new
#    warning (scripts/check-build.sh);
#  - the distro-like guest (x86_64-distro): the x86_64 defconfig kernel
#    booted with the guest suites and its own modules, loaded and unloaded
#    by tests/guest/60-real-modules.sh;
#  - the x86_64 guest with SLAB instead of SLUB (x86_64-slab), and under
#    generic KASAN (x86_64-kasan), booted with the guest suites;
#  - the x86_64 guest's depot suites with 8-frame records (x86_64-frames8),
#    the fewest CONFIG_STACKDEPOT_MAX_FRAMES allows;
#  - soak-x86_64 and soak-arm64-sw-tags: the DEBUG x86_64 test kernel
#    and the arm64 KASAN software-tags kernel under stress-ng for three
#    minutes each while every interface is read and switched
#    (scripts/soak.sh, tests/guest/90-soak.sh);
#  - abi: 6.1's exports kept with profiling not configured, the
#    patched and the unpatched kernel's vmlinux.symvers compared
#    (scripts/check-abi.sh);
#  - sparc64-layout: sparc64's page-flag layout with profiling, checked
#    at build time (scripts/check-sparc64.sh);
#  - gdb: the series' GDB command (lx-stack-depot-lookup) on an ARCH=um
#    kernel with debug info, against the kernel's own stack_depot_fetch()
#    (scripts/check-gdb.sh);
#  - bisect-x86_64: the x86_64 guest kernel built after every patch of
#    every posting (scripts/bisect-check.sh x86_64), one count per patch;
#    last, as the longest (make bisect does x86_64 and arm64-mte);
#  - arm64-mte, kunit, arm64-mte-scs, arm64-sw-tags, 7.3-kunit and
#    kmsan-users (the depot's KMSAN users compiled with clang), which make
#    check leaves out for time
#    (scripts/check.sh);
#  - the 7.3 line's (KMEMOBS_LINE=7.3): its KASAN guest under hardware
#    tags (QEMU's MTE), x86_64 and arm64 defconfig with its options, and
#    every prefix of its postings for x86_64 and arm64 with software tags.
#
#   scripts/check-wide.sh [STEP...]
# Ends with the same summary as make check.
[ $# -gt 0 ] || set -- x86_64-defconfig x86_64-distro x86_64-slab x86_64-kasan x86_64-frames8 soak-x86_64 soak-arm64-sw-tags abi sparc64-layout \
	arm64-defconfig arm64-defconfig-sw-tags gdb arm64-mte kunit arm64-mte-scs arm64-sw-tags kmsan-users 7.3-kunit 7.3-arm64-mte 7.3-x86_64-defconfig 7.3-arm64-defconfig \
	7.3-bisect-x86_64 7.3-bisect-arm64-sw-tags bisect-x86_64
exec "$(dirname "$0")/check.sh" "$@"
