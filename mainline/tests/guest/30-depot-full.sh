# A stack depot at its bound (stack_depot_max_size=1M, a boot of its own:
# lib.sh, guest_extra_boots "full"): saves fail and are counted in
# full_failures, with one message and no warning splat; putting the traces
# makes room again.  The module depot_fill.ko fills and empties it.

f=/sys/kernel/debug/stackdepot/stats
get() { sed -n "s/^$1: //p" $f; }
if ! cmdline_has stack_depot_max_size=1M; then
	skip "a full stack depot" "booted without stack_depot_max_size=1M"
elif [ ! -e /lib/modules/depot_fill.ko ]; then
	skip "a full stack depot" "no depot_fill.ko"
else
	check "stackdepot/stats has full_failures" grep -q '^full_failures: ' $f
	fails0=$(get full_failures) inuse0=$(get refcounted_in_use)
	check "depot_fill.ko filled the depot and made room again" insmod /lib/modules/depot_fill.ko
	line=$(dmesg | grep 'depot_fill: saved' | tail -n 1)
	echo "    # $line"
	set -- $(echo "$line" | sed 's/.*saved \([0-9]*\) until full, put [0-9]*, saved \([0-9]*\) again.*/\1 \2/')
	check "after eviction the depot stores as many traces again ($1, then $2)" test "${2:-0}" -ge "${1:-1}"
	fails1=$(get full_failures) pools=$(get pools)
	check "full_failures counts the failed saves ($fails0 -> $fails1)" test "$fails1" -gt "$fails0"
	# 1 MiB in pools of 4 pages.
	expect_eq "pools at the bound" "$pools" $((1048576 / 16384))
	n=$(dmesg | grep -c 'stackdepot: reached its limit of 64 pools (1024 KiB)')
	expect_eq "one message for the full depot" "$n" 1
	rmmod depot_fill
	check "a second fill prints no second message" sh -c \
		'insmod /lib/modules/depot_fill.ko && [ "$(dmesg | grep -c "stackdepot: reached its limit")" = 1 ]'
	rmmod depot_fill 2>/dev/null
	inuse1=$(get refcounted_in_use)
	# Other users' records come and go meanwhile; the module's thousands
	# are all gone.
	check "the module's records are evicted (in use $inuse0 -> $inuse1)" test "$inuse1" -lt $((inuse0 + 1000))
fi
