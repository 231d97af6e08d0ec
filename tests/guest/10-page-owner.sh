# page_owner=on is accepted and page_owner records allocations.

PO=/sys/kernel/debug/page_owner
PO_FILTER=/bin/page_owner_filter-73
PO_SORT=/bin/page_owner_sort-73

# po_read SETTINGS OUT: open page_owner, write SETTINGS to it (none if
# empty), read it all through the same open file into OUT.
po_read() {
	exec 3<>$PO || return 1
	if [ -n "$1" ]; then
		printf '%s' "$1" >&3 || { exec 3>&-; return 1; }
	fi
	cat <&3 >"$2"
	exec 3>&-
}

# po_refused SETTINGS: writing SETTINGS in one write() fails with EINVAL
# (dd says why; busybox's printf does not).
po_refused() {
	_err=$(printf '%s' "$1" | dd of=$PO conv=notrunc 2>&1) && { echo "the write succeeded"; return 1; }
	case $_err in *"Invalid argument"*) return 0 ;; esac
	echo "$_err"
	return 1
}

# po_records FILE: the number of page records in FILE.
po_records() {
	grep -c '^Page allocated via order' "$1"
}

# po_handles_match FILE: in a stack_handle dump, each record's stack comes
# right before its handle line, and equal handles have equal stacks.
po_handles_match() {
	awk '/^Page allocated via order/ { st = ""; next }
		/^ / { st = st $0 "\n"; next }
		/^handle: [0-9]+$/ {
			if (st == "") { print "no stack before", $0; bad = 1 }
			else if (($2 in seen) && seen[$2] != st) { print "two stacks for", $0; bad = 1 }
			seen[$2] = st; n++; next }
		END { if (!n) { print "no handle line"; bad = 1 }; exit bad }' "$1"
}

# Per-reader filters (mode=, nid=), as mainline's tools/mm/page_owner_filter
# uses them; a reader that writes nothing gets what it always got.
page_owner_filter_tests() {
	check "page_owner is 0600 (writable for the filters)" sh -c "ls -l $PO | grep -q '^-rw-------'"
	must_po() { check "$@" || return 1; }
	must_po "read with no filter" po_read "" /tmp/po-stack || return
	must_po "read with mode=handle" po_read "mode=handle" /tmp/po-handle || return
	must_po "read with mode=stack_handle" po_read "mode=stack_handle" /tmp/po-both || return
	check "no filter: records have stacks" test "$(grep -c '^ ' /tmp/po-stack)" -gt 0
	expect_eq "no filter: no handle lines" "$(grep -c '^handle: ' /tmp/po-stack)" 0
	n=$(po_records /tmp/po-handle)
	check "mode=handle: $n records" test "$n" -gt 0
	expect_eq "mode=handle: one handle line per record" "$(grep -c '^handle: [0-9][0-9]*$' /tmp/po-handle)" "$n"
	expect_eq "mode=handle: no stack lines" "$(grep -c '^ ' /tmp/po-handle)" 0
	check "mode=handle: smaller than the stacks ($(wc -c </tmp/po-handle) vs $(wc -c </tmp/po-stack) bytes)" \
		test "$(wc -c </tmp/po-handle)" -lt "$(wc -c </tmp/po-stack)"
	expect_eq "mode=stack_handle: one handle line per record" \
		"$(grep -c '^handle: ' /tmp/po-both)" "$(po_records /tmp/po-both)"
	check "mode=stack_handle: each handle follows its stack, one stack per handle" po_handles_match /tmp/po-both
	must_po "read with nid=0" po_read "nid=0 mode=handle" /tmp/po-nid0 || return
	check "nid=0 (the guest's one node): records" test "$(po_records /tmp/po-nid0)" -gt 0
	for bad in "mode=bogus" "mode=" "nid=" "nid=1" "nid=x" "bogus" "mode=handle nid=9"; do
		check "writing '$bad' fails with EINVAL" po_refused "$bad"
	done
	# All or nothing: a write with a bad setting leaves the filter as it was.
	exec 3<>$PO
	printf 'mode=handle' >&3
	printf 'mode=stack nid=9' >&3 2>/dev/null
	cat <&3 >/tmp/po-kept
	exec 3>&-
	expect_eq "a refused write changed nothing: still mode=handle" "$(grep -c '^ ' /tmp/po-kept)" 0
	# Per reader: an open file filtered by mode=handle does not filter
	# another one read meanwhile.
	exec 4<>$PO
	printf 'mode=handle' >&4
	head -c 16384 $PO >/tmp/po-other
	exec 4>&-
	check "another reader meanwhile still gets stacks" test "$(grep -c '^ ' /tmp/po-other)" -gt 0

	if [ ! -x $PO_FILTER ]; then
		skip "mainline's page_owner_filter" "no $PO_FILTER (linux-source-7.3 not installed)"
	else
		check "page_owner_filter -m handle exits 0" sh -c "$PO_FILTER -m handle >/tmp/po-tool"
		check "page_owner_filter -m handle: records, handle lines and no stacks" sh -c \
			"grep -q '^Page allocated via order' /tmp/po-tool && grep -q '^handle: ' /tmp/po-tool && ! grep -q '^ ' /tmp/po-tool"
		check "page_owner_filter -m stack_handle -n 0 exits 0" sh -c "$PO_FILTER -m stack_handle -n 0 >/tmp/po-tool2"
		check "page_owner_filter -m stack_handle -n 0: stacks and handles match" po_handles_match /tmp/po-tool2
		check "page_owner_filter -n 5 is refused by the kernel (no node 5)" sh -c "! $PO_FILTER -n 5 >/dev/null 2>&1"
	fi
	if [ ! -x $PO_SORT ]; then
		skip "mainline's page_owner_sort" "no $PO_SORT (linux-source-7.3 not installed)"
	else
		check "page_owner_sort on an unfiltered dump exits 0" $PO_SORT /tmp/po-stack /tmp/po-sorted
		check "page_owner_sort: its output counts times and pages" sh -c \
			"grep -qE '^[0-9]+ times, [0-9]+ pages' /tmp/po-sorted"
	fi
	rm -f /tmp/po-*
}

if [ ! -e /sys/kernel/debug/page_owner ]; then
	skip "page_owner records allocations" "kernel built without CONFIG_PAGE_OWNER"
elif ! cmdline_has page_owner=on; then
	skip "page_owner records allocations" "booted without page_owner=on"
else
	check "page_owner=on accepted" sh -c '! dmesg | grep -q "Unknown kernel command line parameters.*page_owner"'
	# Each record starts with this header line (mm/page_owner.c).
	n=$(head -c 65536 /sys/kernel/debug/page_owner | grep -c '^Page allocated via order')
	check "page_owner lists allocated pages ($n in first 64KiB)" test "$n" -gt 0
	page_owner_filter_tests
fi
