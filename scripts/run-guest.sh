#!/bin/bash
# Boot a target's kernel under QEMU (TCG) with the test initramfs, keep the
# console log under build/logs/ and judge it with parse-log.py.
#
#   scripts/run-guest.sh [--baseline | --kind KIND] [--mode test|demo] [--tests a,b]
#                        [--append "ARGS"] [--file HOST:GUEST]...
#                        [--smp N] [--qemu "QEMU ARGS"] TARGET
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/targets.sh"

kind=patched mode=test tests= append= files=() smp=2 qemu_extra=()
while [ $# -gt 0 ]; do
	case $1 in
	--baseline) kind=baseline ;;
	--kind) kind=$2; shift ;;
	--mode) mode=$2; shift ;;
	--tests) tests=$2; shift ;;
	--append) append="$append $2"; shift ;;
	--file) files+=("$2"); shift ;;
	--smp) smp=$2; shift ;;
	--qemu) read -r -a qemu_extra <<<"$2"; shift ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
	shift
done
[ $# -eq 1 ] || die "usage: $0 [options] TARGET"
target=$1
target_env "$target"
kernel=$(out_dir $kind "$target")/$IMAGE
[ -f "$kernel" ] || die "$kernel missing: scripts/build-kernel.sh --kind $kind $target"

name=guest-$(kind_name $kind "$target")${GUEST_TAG:+-$GUEST_TAG}
cpio=$BUILD/out/$name.cpio
log=$LOGS/$name.log
"$(dirname "$0")/initramfs.sh" "$target" "$cpio" ${files[@]+"${files[@]}"}

cmdline="panic=-1 kmemobs.mode=$mode${tests:+ kmemobs.tests=$tests}"
case $target in
x86_64*)
	qemu=(qemu-system-x86_64 -machine pc -accel tcg -smp "$smp" -m 1G)
	cmdline="console=ttyS0 $cmdline"
	limit=300
	# defconfig boots more drivers, and its guest loads its modules.
	case $target in *-defconfig) limit=900 ;; esac
	;;
arm64-*)
	# Hardware tags: QEMU emulates MTE (and KASAN is asked to use it).
	machine=virt
	case $target in arm64-mte*) machine=virt,mte=on ;; esac
	qemu=(qemu-system-aarch64 -machine "$machine" -cpu max -accel tcg -smp "$smp" -m 1G)
	# kasan_multi_shot: the guest tests provoke reports after the KUnit
	# suite, which leaves reporting on for the first report only.
	cmdline="console=ttyAMA0 kasan_multi_shot $cmdline"
	limit=900
	;;
esac
# A longer run (the soak) may ask for more time.
limit=${GUEST_LIMIT:-$limit}
# kasan=on: the switch of hardware tags (software tags have none).
case $target in arm64-mte*) cmdline="$cmdline kasan=on" ;; esac
if [ "$LINE" = 7.3 ]; then
	# Every test guest of the 7.3 line runs page_owner (its stacks are
	# counted through the depot's reference counts) and writes its
	# output to the kernel log (tests/init: kmemobs.kmsg); the x86_64 one
	# has a bogus depot bound that tests/guest/20-stackdepot.sh expects
	# to see refused.  Benchmarks (make bench's 7.3 peer) measure the
	# allocators without it, as on the 6.1 line.
	[ "$mode" = bench ] || cmdline="$cmdline page_owner=on"
	[ "$mode" = test ] && cmdline="$cmdline printk.devkmsg=on kmemobs.kmsg"
	[ "$target" = x86_64 ] && [ "$mode" = test ] && cmdline="$cmdline stack_depot_max_size=16Q"
else
	case $target in x86_64 | x86_64-defconfig | x86_64-slab | x86_64-kasan | x86_64-frames8 | x86_64-demo) cmdline="$cmdline page_owner=on" ;; esac
fi
# A CMA area (configs/alloc-profiling.config): its pages enter the page
# allocator after boot, which profiling's DEBUG checks must accept.
[ "$LINE" = 6.1 ] && case $target in x86_64 | x86_64-slab | x86_64-kasan) cmdline="$cmdline cma=16M" ;; esac
# A depot cap in mainline's pools, after a bogus size and a bogus count
# the guest test expects to see rejected (the boot "depotcap" of
# scripts/test-guest.sh fills a depot of 64 pools).
[ "$LINE" = 6.1 ] && [ "$target" = x86_64 ] && [ "$mode" = test ] &&
	cmdline="$cmdline stack_depot_max_size=16Q stack_depot_max_pools=9000 stack_depot_max_pools=1024"
# The failslab mark on the xarray nodes' cache (read-only at run time):
# tests/guest/50-alloc-profiling.sh fails them for one task.
[ "$LINE" = 6.1 ] && [ "$target" = x86_64 ] && [ "$mode" = test ] &&
	cmdline="$cmdline slub_debug=A,radix_tree_node"
cmdline="$cmdline$append"

phase "boot $(kind_name $kind "$target") ($mode) under QEMU TCG, console in ${log#"$TOP"/}"
start=$(date +%s)
rc=0
timeout "$limit" "${qemu[@]}" ${qemu_extra[@]+"${qemu_extra[@]}"} -nographic -no-reboot -kernel "$kernel" -initrd "$cpio" \
	-append "$cmdline" </dev/null >"$log" 2>&1 || rc=$?
[ $rc = 124 ] && echo "run-guest: QEMU killed after ${limit}s" >>"$log"
phase "guest exited (rc=$rc) after $(($(date +%s) - start))s"
