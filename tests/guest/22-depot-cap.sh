# The stack depot at its cap (a boot of its own, scripts/test-guest.sh
# "depotcap": stack_depot_max_pools=64, no built-in KUnit suite):
# stackdepot_cap_test.ko's KUnit suite fills the depot, empties it and
# fills it again, gets emptied pools carved anew for other sizes and
# splits a freed slot.  Filling the depot is why it is not in
# lib/test_stackdepot.c, which runs in kernels in use.

MOD=/lib/modules/stackdepot_cap_test.ko
if ! cmdline_has stack_depot_max_pools=64; then
	skip "the stackdepot_cap suite" "booted without stack_depot_max_pools=64"
elif [ ! -e $MOD ]; then
	fail "stackdepot_cap_test.ko is in the guest"
else
	check "insmod stackdepot_cap_test" insmod $MOD
	res=$(dmesg | sed -n 's/.*# stackdepot_cap: \(pass:.*\)/\1/p' | tail -n 1)
	expect_eq "the stackdepot_cap suite: both cases pass" "$res" "pass:2 fail:0 skip:0 total:2"
	f=/sys/kernel/debug/stackdepot/stats
	expect_eq "the depot reached its 64 pools" "$(sed -n 's/^pools: //p' $f)" 64
	# test_cap fills the depot twice, emptying it in between: both
	# fillings count, and the first is logged.
	cap=$(sed -n 's/^cap_reached: //p' $f)
	check "the depot reached its cap twice ($cap)" test "${cap:-0}" -ge 2
	check "reaching the cap was logged" \
		sh -c "dmesg | grep -q 'stackdepot: full at 64 pools (1024 KiB)'"
	rmmod stackdepot_cap_test
fi
