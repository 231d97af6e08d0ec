#!/bin/sh
# Benchmark mode: load each benchmark module (it runs its cases and prints
# "<module>: case=..." lines on the console), then unload it.
# kmemobs.bench_ops=N sets the operations per case, kmemobs.bench_only=NAME
# runs only the cases whose name starts with NAME (modules without such a
# case then print nothing but "done"), kmemobs.bench_repeat=N runs each
# allocator case N times and reports the fastest (kmem_bench).
ops= only= repeat=
for arg in $(cat /proc/cmdline); do
	case $arg in
	kmemobs.bench_ops=*) ops=${arg#*=} ;;
	kmemobs.bench_only=*) only=${arg#*=} ;;
	kmemobs.bench_repeat=*) repeat=${arg#*=} ;;
	esac
done
for mod in kmem_bench depot_bench stack_bench; do
	[ -f /lib/modules/$mod.ko ] || continue
	args=
	[ $mod = kmem_bench ] && args=${repeat:+repeat=$repeat}
	insmod /lib/modules/$mod.ko ${ops:+ops=$ops} ${only:+only=$only} $args
	rmmod $mod
	dmesg | grep -q "$mod: done" || echo "KMEMOBS: $mod did not complete"
done
# The memory per-CPU areas' allocation tags take (CONFIG_PERCPU_STATS):
# a "percpu-tags:" line (tests/pcpu-tags.sh, which every initramfs carries
# as /tests/pcpu-tags.sh), read by bench/bench.sh.
st=/sys/kernel/debug/percpu_stats
if [ -r $st ] && grep -q tagged_areas $st; then
	. /tests/pcpu-tags.sh
	cat $st >/tmp/pcpu-stats.txt
	pcpu_tags /tmp/pcpu-stats.txt | grep '^percpu-tags: '
fi
