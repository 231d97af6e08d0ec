# page_owner_stacks and page_owner_threshold: per-stack counts of
# outstanding base pages, driven by the page_owner_test module
# (tests/modules), whose allocations come from known functions.

PO=/sys/kernel/debug/page_owner_stacks
TH=/sys/kernel/debug/page_owner_threshold
CTL=/sys/kernel/debug/page_owner_test
MOD=/lib/modules/page_owner_test.ko

# stack_pages FUNC: base pages outstanding for the stacks through FUNC, as
# page_owner_stacks prints them (0 when none is listed).  Slab pages that
# FUNC's allocations caused (the xarray nodes of a tmpfs file) are not
# FUNC's pages: a stack through the slab allocator is left out, whichever
# of its functions the compiler kept (SLUB's new_slab() is inlined into
# allocate_slab() or ___slab_alloc() in defconfig; SLAB's are
# kmem_getpages() and cache_grow_begin()).
stack_pages() {
	awk -v f=" $1+" '
		/^nr_base_pages: / { if (hit && !slab) sum += $2; hit = slab = 0; next }
		index($0, f) == 1 { hit = 1 }
		/^ (new_slab|allocate_slab|___slab_alloc|__slab_alloc|alloc_slab_page|kmem_getpages|cache_grow_begin|cache_alloc_refill|kmem_cache_alloc[a-z_]*|__kmalloc[a-z_]*|kmalloc_trace[a-z_]*)[.+]/ { slab = 1 }
		END { print sum + 0 }' $PO
}

# listed FUNC: how many printed stacks go through FUNC.
listed() {
	grep -c "^ $1+" $PO
}

# well_formed FILE: every stack is one or more " symbol+off/size" frames
# (one leading space, as mainline's show_stacks prints them), then
# "nr_base_pages: N" with N > 0 and at least the threshold, then a blank
# line; prints what is wrong and fails otherwise.
well_formed() {
	awk -v min="${2:-1}" '
		function bad(why) { printf "line %d: %s: %s\n", NR, why, $0; err = 1; exit 1 }
		state == 0 && /^$/ { bad("blank line where a stack starts") }
		state == 2 { if ($0 != "") bad("no blank line after a stack"); state = 0; next }
		/^nr_base_pages: [0-9]+$/ {
			if (!frames) bad("count without frames")
			if ($2 < 1 || $2 < min) bad("count under the threshold")
			frames = 0; stacks++; state = 2; next
		}
		# symbol+off/size [module], or a bare address where no symbol is
		# known any more (the init code of a module, freed after it ran)
		/^ ([^ ]+\+0x[0-9a-f]+\/0x[0-9a-f]+( \[[^]]+\])?|0x[0-9a-f]+)$/ { frames++; state = 1; next }
		{ bad("not a frame") }
		END {
			if (err) exit 1
			if (state != 0 && state != 2) { print "truncated stack at the end"; exit 1 }
			if (!stacks) { print "no stack"; exit 1 }
		}' "$1"
}

# fails_write VALUE: writing VALUE to the threshold fails.
fails_write() {
	! printf '%s' "$1" >$TH 2>/dev/null
}

po_stacks_tests() {
	check "page_owner_stacks is 0400, page_owner_threshold 0600" \
		sh -c "ls -l $PO | grep -q '^-r--------' && ls -l $TH | grep -q '^-rw-------'"
	cat $PO >/tmp/po.txt
	check "page_owner_stacks is well formed after boot" well_formed /tmp/po.txt
	n=$(grep -c '^nr_base_pages:' /tmp/po.txt)
	top=$(sed -n 's/^nr_base_pages: //p' /tmp/po.txt | sort -n | tail -n 1)
	check "page_owner_stacks lists the boot's stacks ($n, the largest $top pages)" test "$n" -ge 10
	expect_eq "page_owner_threshold reads 0 at boot" "$(cat $TH)" 0

	# Records start where 6.1's do: prep_new_page() inlines the body of
	# post_alloc_hook(), which calls page_owner, so a buddy allocation's
	# first frame is prep_new_page (compaction's free pages start at
	# post_alloc_hook, called from split_map_pages()).
	check "no stack starts post_alloc_hook, prep_new_page (an extra frame)" awk '
		/^nr_base_pages:/ || /^$/ { i = 0; next }
		{ i++ }
		i == 1 { first = $0 }
		i == 2 && first ~ /^ post_alloc_hook\+/ && /^ prep_new_page\+/ {
			print "starts:", first, $0; bad = 1 }
		END { exit bad }' /tmp/po.txt
	# The initramfs, unpacked into the tmpfs root at boot, holds its pages
	# through stacks that pass do_copy.  Which frames above it fit in
	# page_owner's 16 is up to the compiler's inlining, so only the count
	# is checked: those stacks hold at least the pages of /bin/busybox,
	# one of the files unpacked.
	if grep -q '^ do_copy+' /tmp/po.txt; then
		initrd=$(awk '
			/^nr_base_pages:/ { if (copy) s += $2; copy = 0; next }
			/^ do_copy\+/ { copy = 1 }
			END { print s + 0 }' /tmp/po.txt)
		bb=$((($(wc -c </bin/busybox) + 4095) / 4096))
		check "the initramfs' tmpfs pages are counted ($initrd through do_copy, /bin/busybox alone $bb)" \
			test "$initrd" -ge "$bb"
	else
		skip "the initramfs' tmpfs pages are counted" "no stack through do_copy"
	fi

	# The sum of the counts cannot exceed the pages allocated.
	sum=$(awk '/^nr_base_pages:/ { s += $2 } END { print s + 0 }' /tmp/po.txt)
	used=$(awk '/^MemTotal:/ { t = $2 } /^MemFree:/ { f = $2 } END { print int((t - f) / 4) }' /proc/meminfo)
	check "counted pages ($sum) <= pages in use ($used) + 256" test "$sum" -le $((used + 256))

	if ! insmod $MOD; then
		fail "insmod page_owner_test"
		return
	fi

	# N blocks of order k: N * 2^k pages; free half, then the rest.
	echo "pages 16 2" >$CTL
	expect_eq "16 order-2 blocks: 64 base pages" "$(stack_pages po_test_pages)" 64
	echo "free 8" >$CTL
	expect_eq "8 blocks freed: 32 base pages" "$(stack_pages po_test_pages)" 32
	echo "free 8" >$CTL
	expect_eq "all freed: the stack is not printed" "$(listed po_test_pages)" 0

	# alloc_pages_exact(5 pages): an order-3 block whose 3 tail pages are
	# freed at once, then pages freed one by one.
	echo "exact $((5 * 4096))" >$CTL
	expect_eq "alloc_pages_exact(5 pages): 5 base pages" "$(stack_pages po_test_exact)" 5
	echo "free 2" >$CTL
	expect_eq "alloc_pages_exact: 2 pages freed, 3 left" "$(stack_pages po_test_exact)" 3
	echo "free 3" >$CTL
	expect_eq "alloc_pages_exact: all freed, not printed" "$(listed po_test_exact)" 0

	# split_page() of an order-3 block, pages freed one by one.
	echo "split 3" >$CTL
	expect_eq "split_page(order 3): 8 base pages" "$(stack_pages po_test_split)" 8
	echo "free 3" >$CTL
	expect_eq "split_page: 3 pages freed, 5 left" "$(stack_pages po_test_split)" 5
	echo "free 5" >$CTL
	expect_eq "split_page: all freed, not printed" "$(listed po_test_split)" 0

	# The threshold: below, equal, above.
	echo "pages 10 0" >$CTL
	expect_eq "10 order-0 pages: 10 base pages" "$(stack_pages po_test_pages)" 10
	echo 9 >$TH
	expect_eq "threshold 9: the 10-page stack is printed" "$(listed po_test_pages)" 1
	echo 10 >$TH
	expect_eq "threshold 10: printed (equal)" "$(listed po_test_pages)" 1
	expect_eq "page_owner_threshold reads back 10" "$(cat $TH)" 10
	cat $PO >/tmp/po-th.txt
	check "with threshold 10 every printed count is >= 10" well_formed /tmp/po-th.txt 10
	echo 11 >$TH
	expect_eq "threshold 11: not printed (above)" "$(listed po_test_pages)" 0
	for v in abc -1 +5 12abc 0x10 18446744073709551616 "1 2"; do
		check "threshold write '$v' fails" fails_write "$v"
	done
	check "threshold write of a lone newline fails" fails_write "
"
	expect_eq "threshold unchanged after bad writes" "$(cat $TH)" 11
	echo 0 >$TH
	echo "free 10" >$CTL

	# Small reads return what one read returns.  readall (tests/tools)
	# reads the file three times in one process that allocates nothing
	# meanwhile; the rest of the system may still change a count, so
	# compare only when the whole reads around the small one agree.
	same=
	command -v readall >/dev/null || same=none
	[ "$same" = none ] || for try in 1 2 3 4 5; do
		readall $PO /tmp/po-a.txt 65536 /tmp/po-b.txt 1 /tmp/po-c.txt 65536
		if cmp -s /tmp/po-a.txt /tmp/po-c.txt; then
			same=$try
			break
		fi
	done
	if [ "$same" = none ]; then
		skip "1-byte reads read what one read reads" "no readall in this guest (tests/tools)"
	elif [ -z "$same" ]; then
		skip "1-byte reads read what one read reads" "the counts kept changing across 5 tries"
	else
		check "1-byte reads read what one read reads ($(wc -c </tmp/po-a.txt) bytes, try $same)" \
			diff /tmp/po-a.txt /tmp/po-b.txt
	fi
	dd if=$PO of=/tmp/po-d.txt bs=1 2>/dev/null
	check "dd bs=1 output is well formed" well_formed /tmp/po-d.txt

	# Migration: compaction moves tmpfs pages; their stacks keep their
	# counts, and removing the file gives them all back.  Compaction
	# moves movable pages from the bottom of a zone to free pages at its
	# top, and the page allocator hands out the top first: a ballast file
	# written first (a quarter of free memory) takes the top, the test
	# file lands below it, and the ballast is removed before compacting,
	# so that the file's pages have somewhere to go.
	before=$(stack_pages shmem_write_begin)
	ballast=$(awk '/^MemFree:/ { print int($2 / 16) }' /proc/meminfo)
	dd if=/dev/zero of=/tmp/po-ballast bs=4096 count=$ballast 2>/dev/null
	mid=$(stack_pages shmem_write_begin)
	dd if=/dev/zero of=/tmp/po-file bs=4096 count=2048 2>/dev/null
	filled=$(stack_pages shmem_write_begin)
	check "a 2048-page tmpfs file: +2048 pages on shmem_write_begin stacks ($mid -> $filled)" \
		test $((filled - mid)) -eq 2048
	rm /tmp/po-ballast
	filled=$(stack_pages shmem_write_begin)
	check "a $ballast-page ballast file removed: $before + 2048 pages left ($filled)" \
		test $((filled - before)) -eq 2048
	if [ -w /proc/sys/vm/compact_memory ]; then
		m0=$(awk '/^pgmigrate_success/ { print $2 }' /proc/vmstat)
		echo 1 >/proc/sys/vm/compact_memory
		m1=$(awk '/^pgmigrate_success/ { print $2 }' /proc/vmstat)
		after=$(stack_pages shmem_write_begin)
		# Pages of the file that compaction moved, by page_owner's
		# per-page records (a blank line ends each).
		# page_owner fails reads too small for a whole record: read
		# it in large blocks.
		moved=$(dd if=/sys/kernel/debug/page_owner bs=65536 2>/dev/null | awk '
			function done() { if (w && k && m) n++; w = k = m = 0 }
			/^Page allocated/ { done() }
			/^ *shmem_write_begin\+/ { w = 1 }
			/^ *ksys_write\+/ { k = 1 }
			/migrate reason: compaction/ { m = 1 }
			END { done(); print n + 0 }')
		if [ "$moved" = 0 ]; then
			skip "compaction keeps the counts" "compaction moved no page of the file ($((m1 - m0)) pages migrated)"
		else
			expect_eq "compaction moved $moved pages of the file: the counts stay" "$after" "$filled"
			expect_eq "no migration target keeps a count" "$(listed compaction_alloc)" 0
		fi
	else
		skip "compaction keeps the counts" "kernel built without CONFIG_COMPACTION"
	fi
	rm /tmp/po-file
	expect_eq "file removed: back to $before" "$(stack_pages shmem_write_begin)" "$before"

	# Read while the system allocates: fork/exec, page cache reads, tmpfs
	# writes and the test module's allocations in the background.
	(
		while [ ! -e /tmp/po-stop ]; do
			cat /bin/busybox >/dev/null
			dd if=/dev/zero of=/tmp/po-churn bs=4096 count=64 2>/dev/null
			rm -f /tmp/po-churn
			echo "pages 8 1" >$CTL
			echo "free 8" >$CTL
		done
	) &
	churn=$!
	ok=1
	for i in 1 2 3 4 5 6; do
		cat $PO >/tmp/po-r.txt
		well_formed /tmp/po-r.txt >/tmp/po-r.err || { ok=; break; }
	done
	touch /tmp/po-stop
	wait $churn
	rm -f /tmp/po-stop
	if [ -n "$ok" ]; then
		pass "6 reads during fork/exec, page cache and allocation churn are well formed"
	else
		fail "reads during churn are well formed" "$(head -n 3 /tmp/po-r.err)"
	fi
	expect_eq "after the churn the module holds nothing" "$(listed po_test_pages)" 0

	check "rmmod page_owner_test" rmmod page_owner_test
	check "no page_owner count went negative" sh -c '! dmesg | grep -q "freed more pages than it allocated"'
}

if [ ! -e /sys/kernel/debug/page_owner ]; then
	skip "page_owner_stacks" "kernel built without CONFIG_PAGE_OWNER"
elif ! cmdline_has page_owner=on; then
	skip "page_owner_stacks" "booted without page_owner=on"
elif [ ! -e $PO ]; then
	fail "page_owner_stacks exists with page_owner=on"
else
	po_stacks_tests
fi
