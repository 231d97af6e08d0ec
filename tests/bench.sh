#!/bin/sh
# Benchmark mode: load the benchmark module (it runs every case and prints
# "kmem_bench: case=..." lines on the console), then unload it.
ops=
for arg in $(cat /proc/cmdline); do
	case $arg in kmemobs.bench_ops=*) ops=${arg#*=} ;; esac
done
insmod /lib/modules/kmem_bench.ko ${ops:+ops=$ops}
rmmod kmem_bench
dmesg | grep -q 'kmem_bench: done' || echo "KMEMOBS: bench did not complete"
