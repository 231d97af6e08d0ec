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
# the areas charged, the bytes of their xarray nodes, and what a vector of
# 8 bytes per 4-byte unit of every chunk would take.
st=/sys/kernel/debug/percpu_stats
if [ -r $st ] && grep -q tagged_areas $st; then
	awk '
		function pages(x) { return int((x + 4095) / 4096) * 4096 }
		$1 == "unit_size" || $1 == "static_size" || $1 == "reserved_size" ||
			$1 == "dyn_size" { ai[$1] = $3 }
		/^Chunk/ {
			if (/First Chunk/)
				v = pages((ai["static_size"] + ai["reserved_size"]) % 4096 + ai["dyn_size"])
			else if (/Reserved Chunk/)
				v = pages(ai["static_size"] % 4096 + ai["reserved_size"])
			else
				v = ai["unit_size"]
			vec += 2 * v
			chunks++
		}
		$1 == "tagged_areas" { areas += $3 }
		$1 == "tag_bytes" { bytes += $3 }
		END { print "percpu-tags: chunks=" chunks " areas=" areas " tag_bytes=" bytes " vector_bytes=" vec }
	' $st
fi
