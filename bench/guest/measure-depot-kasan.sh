#!/bin/sh
# make bench-kasan, in the guest: the stack depot's memory after boot and
# after each round of a fixed churn (kasan_ring_test: kmalloc/kfree pairs
# from stacks never seen before).  One line per point:
#   KASAN-BENCH: point=NAME pools=N pool_bytes=N records_in_use=N
# Kernel parameters: kmemobs.bench_rounds=N (default 6),
# kmemobs.bench_pairs=N pairs per round (default 16384: one turn of the
# default 32k-entry stack ring).
rounds=6 pairs=16384
for arg in $(cat /proc/cmdline); do
	case $arg in
	kmemobs.bench_rounds=*) rounds=${arg#*=} ;;
	kmemobs.bench_pairs=*) pairs=${arg#*=} ;;
	esac
done
stats=/sys/kernel/debug/stackdepot/stats

point() {
	cat "$stats" >/tmp/st
	line="KASAN-BENCH: point=$1"
	for f in pools pool_bytes records_in_use; do
		line="$line $f=$(sed -n "s/^$f: //p" /tmp/st)"
	done
	echo "$line"
}

point boot
# The whole statistics file once, to see where the depot's pools go.
sed 's/^/KASAN-BENCH: boot stats: /' "$stats"
insmod /lib/modules/kasan_ring_test.ko || { echo "KASAN-BENCH: error: insmod"; exit 1; }
r=1
while [ $r -le "$rounds" ]; do
	echo "churn $pairs" >/sys/kernel/debug/kasan_ring_test
	point "churn$r"
	r=$((r + 1))
done
