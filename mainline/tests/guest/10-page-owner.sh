# page_owner on the 7.3 line: it counts the pages of each allocating stack
# through the stack depot's reference counts, which the line's postings
# must leave working.

d=/sys/kernel/debug/page_owner_stacks
if [ ! -e /sys/kernel/debug/page_owner ]; then
	skip "page_owner" "kernel built without CONFIG_PAGE_OWNER"
elif ! cmdline_has page_owner=on; then
	skip "page_owner" "booted without page_owner=on"
else
	n=$(head -c 65536 /sys/kernel/debug/page_owner | grep -c '^Page allocated via order')
	check "page_owner lists allocated pages ($n in the first 64 KiB)" test "$n" -gt 0
	cat $d/show_stacks >/tmp/stacks
	n=$(grep -c '^nr_base_pages: ' /tmp/stacks)
	check "show_stacks lists stacks with their base pages ($n)" test "$n" -gt 0
	# Pages a stack holds now, and after more of them are allocated: a
	# 4 MiB tmpfs file adds 1024 pages (other tasks free some meanwhile).
	total() { awk '/^nr_base_pages: / { s += $2 } END { print s + 0 }' $d/show_stacks; }
	before=$(total)
	dd if=/dev/zero of=/tmp/ballast bs=64k count=64 2>/dev/null
	after=$(total)
	check "a 4 MiB tmpfs file adds 768 of its 1024 pages or more to the counts ($before -> $after)" \
		test "$after" -ge $((before + 768))
	rm -f /tmp/ballast
	echo 1000000 >$d/count_threshold
	n=$(grep -c '^nr_base_pages: ' $d/show_stacks)
	check "count_threshold 1000000 hides every stack ($n shown)" test "$n" -eq 0
	echo 0 >$d/count_threshold
fi
