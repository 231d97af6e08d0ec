#!/bin/sh
# make demo, guest side, for the 7.3 line: the arm64 KASAN software-tags
# kernel of make check, booted with only the KUnit case that reads a freed
# object and overwrites the whole stack ring before the report prints
# (kunit.filter_glob=kasan.stack_ring_report_keeps_stacks).  Each section
# has a title and a one-line "look at" caption.
section() {
	echo
	echo "### $1"
	echo "    look at: $2"
}
log() { dmesg | sed 's/^\[[ 0-9.]*\] //'; }
# The kernel prints to the console from a thread of its own: let it finish
# the KUnit case's report before this output starts.
sleep 3

section "kernel" "mainline 7.3 with the 7.3 line's postings, KASAN software tags, page_owner=on"
uname -sr
echo "CPUs online: $(cat /sys/devices/system/cpu/online)"
log | grep -m 1 'KernelAddressSanitizer'

section "KASAN: a report printed after all 32768 stack ring entries were overwritten" \
	"the alloc and free stacks are the freed object's own (stack_ring_victim_alloc, stack_ring_victim_free); unpatched 7.3 prints neither here and warns in depot_fetch_stack()"
log | sed -n '/BUG: KASAN: .*stack_ring_report_keeps_stacks/,/^The buggy address belongs/p' |
	grep -v -e '^ *dump_stack' -e '^ *print_report' -e '^ *kasan_report' -e '^ *__hwasan' -e '^Hardware name' |
	head -n 40
log | grep -m 1 -E '(not )?ok [0-9]+ stack_ring_report_keeps_stacks'
if log | grep -q 'WARNING:'; then
	echo "kernel warnings:"
	log | grep -A 3 'WARNING:'
fi

f=/sys/kernel/debug/stackdepot/stats
section "stack depot: mainline's statistics ($f)" \
	"refcounted_frees: the traces the ring's overwritten entries let go of; refcounted_in_use: what the ring and page_owner hold now"
cat $f

d=/sys/kernel/debug/page_owner_stacks
section "page_owner: the stack holding the most pages ($d/show_stacks)" \
	"page_owner counts its pages in the depot record's reference count, which the postings leave as it is"
awk '/^nr_base_pages: / { if ($2 > max) { max = $2; top = s } s = ""; next } { s = s $0 "\n" }
	END { printf "%snr_base_pages: %d\n", top, max }' $d/show_stacks | tail -n 12
