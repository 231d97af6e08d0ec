#!/bin/sh
# Benchmark mode: load each benchmark module (it runs its cases and prints
# "<module>: case=..." lines on the console), then unload it.
# kmemobs.bench_ops=N sets the operations per case, kmemobs.bench_only=NAME
# runs only the cases whose name starts with NAME (modules without such a
# case then print nothing but "done").
ops= only=
for arg in $(cat /proc/cmdline); do
	case $arg in
	kmemobs.bench_ops=*) ops=${arg#*=} ;;
	kmemobs.bench_only=*) only=${arg#*=} ;;
	esac
done
for mod in kmem_bench depot_bench stack_bench; do
	[ -f /lib/modules/$mod.ko ] || continue
	insmod /lib/modules/$mod.ko ${ops:+ops=$ops} ${only:+only=$only}
	rmmod $mod
	dmesg | grep -q "$mod: done" || echo "KMEMOBS: $mod did not complete"
done
