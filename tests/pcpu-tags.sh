# pcpu_tags FILE: the memory the per-CPU areas' allocation tags take, from
# FILE, a copy of /sys/kernel/debug/percpu_stats (CONFIG_PERCPU_STATS), as
# one line
#   percpu-tags: chunks=N areas=N tag_bytes=N vector_bytes=N bad=N
# areas: the areas charged (tagged_areas of every chunk); tag_bytes: the
# bytes of their xarray nodes; vector_bytes: what a vector of 8 bytes per
# 4-byte unit of every chunk took before the tags moved to the xarrays
# (for the first and reserved chunks, twice their dynamic or reserved area
# from the page it starts in to a page boundary, 4 KiB pages assumed; for
# a later chunk twice the unit size); bad: the chunks with more areas
# charged than allocated (nr_alloc), each also printed on a line of its own.
# Used by tests/guest/50-alloc-profiling.sh and by make bench's
# bench/guest/run-benchmarks.sh; it stays under tests/ (a guest test
# needs it, and every initramfs carries /tests).
pcpu_tags() {
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
		chunks && $1 == "nr_alloc" { nr = $3 }
		chunks && $1 == "tagged_areas" {
			areas += $3
			if ($3 > nr) {
				print "chunk " chunks ": " $3 " areas charged, " nr " allocated"
				bad++
			}
		}
		chunks && $1 == "tag_bytes" { bytes += $3 }
		END {
			print "percpu-tags: chunks=" chunks " areas=" areas " tag_bytes=" bytes \
				" vector_bytes=" vec " bad=" bad + 0
		}' "$1"
}
