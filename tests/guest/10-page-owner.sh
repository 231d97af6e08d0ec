# page_owner=on is accepted and page_owner records allocations.

if [ ! -e /sys/kernel/debug/page_owner ]; then
	skip "page_owner records allocations" "kernel built without CONFIG_PAGE_OWNER"
elif ! cmdline_has page_owner=on; then
	skip "page_owner records allocations" "booted without page_owner=on"
else
	check "page_owner=on accepted" sh -c '! dmesg | grep -q "Unknown kernel command line parameters.*page_owner"'
	# Each record starts with this header line (mm/page_owner.c).
	n=$(head -c 65536 /sys/kernel/debug/page_owner | grep -c '^Page allocated via order')
	check "page_owner lists allocated pages ($n in first 64KiB)" test "$n" -gt 0
fi
