#!/bin/sh
# Benchmark mode: load each benchmark module (it runs its cases and prints
# "<module>: case=..." lines on the console), then unload it.
# kmemobs.bench_ops=N sets the operations per case, kmemobs.bench_only=NAME
# runs only the cases whose name starts with NAME (modules without such a
# case then print nothing but "done"), kmemobs.bench_repeat=N runs each
# allocator case N times and reports the fastest (kmem_bench).
# kmemobs.workload=SCALE runs the user-space workloads (/bin/workload -n
# SCALE, bench/guest/workload.c) after the modules, kmemobs.workload_count
# adds their allocation counts (-c), kmemobs.ctx_func=NAME turns context
# capture on at the sites of function NAME first (allocations.ctx),
# kmemobs.workload_only=NAME runs only that workload and
# kmemobs.workload_profile marks its loop for bench/profile.sh.
ops= only= repeat= wl= wlcount= ctxfunc= wlonly= wlprof=
for arg in $(cat /proc/cmdline); do
	case $arg in
	kmemobs.bench_ops=*) ops=${arg#*=} ;;
	kmemobs.bench_only=*) only=${arg#*=} ;;
	kmemobs.bench_repeat=*) repeat=${arg#*=} ;;
	kmemobs.workload=*) wl=${arg#*=} ;;
	kmemobs.workload_count) wlcount=-c ;;
	kmemobs.ctx_func=*) ctxfunc=${arg#*=} ;;
	kmemobs.workload_only=*) wlonly="-o ${arg#*=}" ;;
	kmemobs.workload_profile) wlprof=-p ;;
	esac
done
if [ -n "$ctxfunc" ]; then
	echo "func $ctxfunc enable" >/sys/kernel/debug/allocations.ctx ||
		echo "KMEMOBS: workload_bench did not complete: no capture at $ctxfunc"
fi
# The state of allocation profiling, where the kernel has it (make bench
# checks that each boot measured the mode it asked for).
[ -r /proc/sys/vm/mem_profiling ] &&
	echo "run-benchmarks: vm.mem_profiling=$(cat /proc/sys/vm/mem_profiling)"
for mod in kmem_bench depot_bench stack_bench; do
	[ -f /lib/modules/$mod.ko ] || continue
	args=
	[ $mod = kmem_bench ] && args=${repeat:+repeat=$repeat}
	insmod /lib/modules/$mod.ko ${ops:+ops=$ops} ${only:+only=$only} $args
	rmmod $mod
	dmesg | grep -q "$mod: done" || echo "KMEMOBS: $mod did not complete"
done
if [ -n "$wl" ]; then
	/bin/workload -n "$wl" $wlcount $wlonly $wlprof || echo "KMEMOBS: workload_bench did not complete"
	if [ -n "$ctxfunc" ]; then
		# The capture's header and site lines (bench/bench.sh checks that
		# the site captured).
		head -n 2 /sys/kernel/debug/allocations.ctx | sed 's/^/workload_bench: ctx: /'
	fi
fi
# The memory per-CPU areas' allocation tags take (CONFIG_PERCPU_STATS):
# a "percpu-tags:" line (tests/pcpu-tags.sh, which every initramfs carries
# as /tests/pcpu-tags.sh), read by bench/bench.sh.
st=/sys/kernel/debug/percpu_stats
if [ -r $st ] && grep -q tagged_areas $st; then
	. /tests/pcpu-tags.sh
	cat $st >/tmp/pcpu-stats.txt
	pcpu_tags /tmp/pcpu-stats.txt | grep '^percpu-tags: '
fi
