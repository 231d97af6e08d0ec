# stackdepot/stats in debugfs: the depot's counters and the invariants
# between them.  With page_owner=on every page allocation saves a stack, so
# the counters must move.  The stackdepot KUnit suite (run at boot) has
# evicted records and filled the depot to its cap by now.

stats=/sys/kernel/debug/stackdepot/stats
# Reading the file allocates pages, which saves stacks: take every value
# from one read (snap), which the kernel keeps consistent.
snap() {
	cat "$stats" >/tmp/depot-stats
}
# field NAME: the value of "NAME: value" in the last snapshot.
field() {
	sed -n "s/^$1: //p" /tmp/depot-stats
}

if [ ! -r "$stats" ]; then
	skip "stackdepot/stats" "kernel without depot statistics"
else
	snap
	sed -n '1,7s/^/    # /p' /tmp/depot-stats
	# Mainline's fields first, in its order (tools written for it).
	expect_eq "the first fields are mainline's" "$(head -n 7 /tmp/depot-stats | cut -d: -f1 | tr '\n' ' ')" \
		"pools refcounted_allocations refcounted_frees refcounted_in_use freelist_size persistent_count persistent_bytes "
	for f in refcounted_allocations refcounted_frees refcounted_in_use freelist_size persistent_count \
		 pools max_pools pool_bytes persistent_bytes refcounted_bytes \
		 free_bytes records_in_use \
		 records_persistent records_refcounted freelist saves hits \
		 new_records evictions nmi_evictions reclaimed_pools dropped cap_reached \
		 bad_puts stale_fetches; do
		v=$(field $f)
		check "field $f is a number ($v)" sh -c "[ -n '$v' ] && [ '$v' -ge 0 ]"
	done
	# The KUnit suite's misuse cases (a double put, a stale handle) are
	# counted but must not warn: a WARN_ONCE() spent by a test is one that
	# real misuse later in the boot would not print.
	if dmesg | grep -qE 'ok [0-9]+ test_unbalanced_put$'; then
		check "the stackdepot suite's misuse was counted (bad_puts $(field bad_puts), stale_fetches $(field stale_fetches))" \
			sh -c "[ '$(field bad_puts)' -ge 3 ] && [ '$(field stale_fetches)' -ge 1 ]"
	fi
	if dmesg | grep -q '# Subtest: stackdepot$'; then
		check "the stackdepot suite did not warn (no stack_depot_put/fetch warning in dmesg)" sh -c \
			"! dmesg | grep -E 'WARNING: .* at lib/stackdepot.c|stack_depot_(put|fetch): (handle|stale)'"
	fi
	pools=$(field pools)
	check "pools in use ($pools)" test "$pools" -ge 1
	# A pool is four 4 KiB pages.
	expect_eq "pool_bytes is pools * 16 KiB" "$(field pool_bytes)" "$((pools * 16384))"
	check "pools ($pools) within max_pools ($(field max_pools))" \
		test "$pools" -le "$(field max_pools)"
	records=$(field records_in_use)
	check "records stored ($records)" test "$records" -ge 1
	expect_eq "records in use are persistent or refcounted" "$records" \
		"$(($(field records_persistent) + $(field records_refcounted)))"
	expect_eq "every record created is in use or evicted" "$(field new_records)" \
		"$((records + $(field evictions)))"
	# Mainline's names for the depot's own counts.
	expect_eq "refcounted_in_use is records_refcounted" "$(field refcounted_in_use)" "$(field records_refcounted)"
	expect_eq "refcounted_frees is evictions" "$(field refcounted_frees)" "$(field evictions)"
	expect_eq "freelist_size is freelist" "$(field freelist_size)" "$(field freelist)"
	expect_eq "persistent_count is records_persistent" "$(field persistent_count)" "$(field records_persistent)"
	check "refcounted_allocations ($(field refcounted_allocations)) within new_records ($(field new_records))" \
		test "$(field refcounted_allocations)" -le "$(field new_records)"
	# Less than that only by the refcounted records made persistent.
	check "refcounted_in_use within refcounted_allocations - refcounted_frees" \
		test "$(field refcounted_in_use)" -le "$(($(field refcounted_allocations) - $(field refcounted_frees)))"
	# Records and free slots fit in the pools; the rest is the unused end
	# of pools.  Every record and every free slot takes 48 bytes at least
	# (a 16-byte header and room for a free slot's links, in 16-byte
	# granules), and a multiple of 16.
	used=$(($(field persistent_bytes) + $(field refcounted_bytes) + $(field free_bytes)))
	check "bytes of records and free slots ($used) <= pool_bytes" \
		test "$used" -le "$(field pool_bytes)"
	for kind in refcounted persistent; do
		check "${kind}_bytes >= 48 * records_$kind" \
			test "$(field ${kind}_bytes)" -ge "$((48 * $(field records_$kind)))"
		expect_eq "${kind}_bytes is a multiple of 16" \
			"$(($(field ${kind}_bytes) % 16))" 0
	done
	check "free_bytes >= 48 * freelist" \
		test "$(field free_bytes)" -ge "$((48 * $(field freelist)))"

	# The main boot: stack_depot_max_pools= after a bogus size and a
	# bogus count; the failinit boot: stack_depot_max_size= after that.
	if cmdline_has stack_depot_max_size=24M; then
		expect_eq "stack_depot_max_size=24M after stack_depot_max_pools=1024: 1536 pools" \
			"$(field max_pools)" 1536
	else
		skip "stack_depot_max_size=24M" "not on the command line"
	fi
	if cmdline_has stack_depot_max_pools=1024 && ! cmdline_has stack_depot_max_size=24M; then
		expect_eq "stack_depot_max_pools=1024: 1024 pools at most" "$(field max_pools)" 1024
		check "stack_depot_max_pools=9000 rejected with a message" \
			sh -c "dmesg | grep -q 'stack_depot_max_pools=9000: not a number from 1 to 8192'"
		check "stack_depot_max_size=16Q rejected with a message" \
			sh -c "dmesg | grep -q 'stack_depot_max_size=16Q: not a size'"
	else
		skip "stack_depot_max_pools=" "not on the command line"
		skip "stack_depot_max_pools= rejected" "not on the command line"
		skip "stack_depot_max_size= rejected" "not on the command line"
		skip "the depot reached its cap twice" "not on the command line"
		skip "reaching the cap was logged" "not on the command line"
	fi

	saves0=$(field saves)
	hits0=$(field hits)
	check "saves ($saves0) >= hits ($hits0) + new records ($records)" \
		test "$saves0" -ge $((hits0 + records))
	# Fork and exit some processes: their pages are allocated from stacks
	# page_owner has seen before, so most saves are hits.
	i=0
	while [ $i -lt 20 ]; do
		/bin/true
		i=$((i + 1))
	done
	snap
	saves1=$(field saves)
	hits1=$(field hits)
	check "saves grow with allocations ($saves0 -> $saves1)" test "$saves1" -gt "$saves0"
	check "hits grow with repeated stacks ($hits0 -> $hits1)" test "$hits1" -gt "$hits0"
fi

# 6.1's exported interface (__stack_depot_save() with extra bits and
# can_alloc, stack_depot_fetch(), _snprint(), _print(), _init(),
# _get_extra_bits()), used by a module as 6.1's callers use it
# (tests/modules/stackdepot_61_test.c): it checks at load and fails to
# load on any failed check.
SD61_MOD=/lib/modules/stackdepot_61_test.ko
if [ ! -e $SD61_MOD ]; then
	skip "6.1's depot interface from a module" "no stackdepot_61_test module in this guest"
else
	# A marker, not a line count: the log may be full and wrap.
	echo "stackdepot_61_test: start $$" >/dev/kmsg 2>/dev/null
	check "insmod stackdepot_61_test: 6.1's depot interface works" insmod $SD61_MOD
	dmesg | sed -n "/stackdepot_61_test: start $$\$/,\$p" >/tmp/sd61.txt
	[ -s /tmp/sd61.txt ] || dmesg >/tmp/sd61.txt
	check "it reports its checks passed" grep -qE 'stackdepot_61_test: [1-9][0-9]* checks passed$' /tmp/sd61.txt
	# stack_depot_print(): the module's first frame, between the markers.
	check "stack_depot_print() printed the module's trace" awk '
		/stackdepot_61_test: end of the trace/ { exit !hit }
		on && /sd61_trace_a\+0x[0-9a-f]+\/0x[0-9a-f]+ \[stackdepot_61_test\]/ { hit = 1 }
		/stackdepot_61_test: stack_depot_print\(\) of the first trace:/ { on = 1 }
		END { exit !hit }' /tmp/sd61.txt
	grep 'stackdepot_61_test: failed' /tmp/sd61.txt
	check "rmmod stackdepot_61_test" rmmod stackdepot_61_test
fi
