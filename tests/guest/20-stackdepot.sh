# stackdepot/stats in debugfs: the depot's counters.  With page_owner=on
# every page allocation saves a stack, so the counters must move.

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
	for f in pools pool_bytes records_in_use saves hits new_records dropped; do
		v=$(field $f)
		check "field $f is a number ($v)" sh -c "[ -n '$v' ] && [ '$v' -ge 0 ]"
	done
	pools=$(field pools)
	check "pools in use ($pools)" test "$pools" -ge 1
	# STACK_ALLOC_ORDER 2: a pool is four 4 KiB pages.
	expect_eq "pool_bytes is pools * 16 KiB" "$(field pool_bytes)" "$((pools * 16384))"
	records=$(field records_in_use)
	check "records stored ($records)" test "$records" -ge 1
	expect_eq "records are never freed: in use == created" "$records" "$(field new_records)"
	expect_eq "nothing dropped" "$(field dropped)" 0

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
