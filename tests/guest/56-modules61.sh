# 6.1's ABI: a module built against the unpatched 6.1 tree
# (tests/modules61/alloc61_test.c, built by scripts/test-guest.sh) loads
# into the patched kernel, which exports the allocators under 6.1's names
# beside their _noprof ones ("mm: export the allocators under 6.1's names
# too").  With profiling on, each of its allocations is charged to the line
# of the 6.1 name in the allocator's file: vmlinux's lines of those
# functions, which nothing built with the series calls, so their counts are
# the module's alone.

MOD=/lib/modules/61/alloc61_test.ko
AI=/proc/allocinfo
# func NAME MIN: what each 6.1 name the module calls must show while it
# holds its memory: one call and at least MIN bytes.
FUNCS="__kmalloc:3000 kmalloc_trace:200 kstrdup:13 vmalloc:12288 kvmalloc_node:3000 __alloc_pages:8192 kmem_cache_alloc:100"

# line NAME: "BYTES CALLS" of vmlinux's /proc/allocinfo line(s) of the
# function NAME (accurate or not).
line() {
	awk -v f="func:$1" '{ sub(/ accurate:no $/, " ") }
		$NF == f && $(NF - 1) !~ /^\[/ { print $1, $2 }' /tmp/ai61.txt
}

if [ ! -e $MOD ]; then
	skip "a module built against 6.1 loads" "no alloc61_test module in this guest"
else
	check "insmod a module built against unpatched 6.1 (6.1's allocator names exported)" insmod $MOD
	if [ ! -r $AI ] || grep -q 'nomem_profiling' $AI; then
		skip "its allocations charged to 6.1's names" "no allocation profiling"
	elif lsmod | grep -q '^alloc61_test'; then
		cat $AI >/tmp/ai61.txt
		for fm in $FUNCS; do
			f=${fm%%:*} min=${fm#*:}
			l=$(line "$f")
			expect_eq "one line for func:$f" "$(echo "$l" | grep -c .)" 1
			bytes=${l%% *} calls=${l##* }
			expect_eq "func:$f: the module's one call" "${calls:-none}" 1
			check "func:$f: at least $min bytes (${bytes:-none})" test "${bytes:-0}" -ge "$min"
		done
	fi
	check "rmmod alloc61_test" rmmod alloc61_test
	if [ -r $AI ] && ! grep -q 'nomem_profiling' $AI; then
		cat $AI >/tmp/ai61.txt
		for fm in $FUNCS; do
			f=${fm%%:*}
			expect_eq "func:$f: nothing left after rmmod" "$(line "$f")" "0 0"
		done
	fi
fi
