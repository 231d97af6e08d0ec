#!/bin/sh
# make demo, guest side: show what the series gives on the demo kernels
# (configs/demo.config: no test suite ran before this).  Each section has
# a title and a one-line "look at" caption; sections whose interface the
# kernel lacks are left out (the arm64 MTE kernel has no page_owner or
# profiling; the x86_64 one has no KASAN).
section() {
	echo
	echo "### $1"
	echo "    look at: $2"
}

# GNU sort where the guest has it (x86_64); busybox's may lack -h.
SORT=sort
[ -x /usr/bin/sort ] && SORT=/usr/bin/sort
DEPOT=/sys/kernel/debug/stackdepot/stats
AL=/proc/allocations
PO=/sys/kernel/debug/page_owner_stacks
RING=/sys/kernel/debug/kasan_ring_test


section "kernel" "no test suite is built in; kmemobs.mode= and panic= on the command line are the demo's own"
uname -sr
echo "CPUs online: $(grep -c '^processor' /proc/cpuinfo)"
echo "command line: $(cat /proc/cmdline)"
dmesg | sed -n 's/^\[[ 0-9.]*\] \(kasan: KernelAddressSanitizer.*\)/\1/p'

# A workload first, so that every later section shows a kernel that did
# something: an 8 MiB tmpfs file and 200 empty files, with a capture of
# /proc/allocations before and after.
[ -r $AL ] && cat $AL >/tmp/al-before.txt
mkdir -p /tmp/demo
dd if=/dev/zero of=/tmp/demo/file bs=1M count=8 2>/dev/null
i=0
while [ $i -lt 200 ]; do : >/tmp/demo/f$i; i=$((i + 1)); done
[ -r $AL ] && cat $AL >/tmp/al-after.txt

if [ -r $AL ]; then
	section "allocation profiling: the call sites holding the most memory (sort -hr /proc/allocations | head)" \
		"bytes held now, live allocations, the allocating line; the header names the format"
	head -n 1 $AL
	$SORT -hr $AL | head -n 12
	echo "call sites listed: $(grep -vc '^#' $AL)"

	section "allocation profiling: helpers are charged to their callers" \
		"tmpfs inodes under shmem_alloc_inode (alloc_inode_sb()), no line for kstrdup() itself"
	grep -E ' func:(shmem_alloc_inode|__kernfs_new_node)$' $AL
	grep -E 'func:(kstrdup|kstrdup_const|kmemdup)$' $AL ||
		echo "(no line names kstrdup/kmemdup: their memory is on their callers' lines)"

	if [ -x /bin/alloc_diff ]; then
		section "allocation profiling: what a workload leaves behind (tools/vm/alloc_diff)" \
			"the 8 MiB file is ~2048 folios at shmem_alloc_folio; 200 files are ~200 inodes and dentries"
		echo "captures before and after writing an 8 MiB tmpfs file and creating 200 empty ones:"
		echo "# alloc_diff -n 5 before after"
		alloc_diff -n 5 /tmp/al-before.txt /tmp/al-after.txt
	fi

	CTX=/sys/kernel/debug/allocations.ctx
	if [ -w $CTX ]; then
		section "allocation contexts: who made a site's allocations (/sys/kernel/debug/allocations.ctx)" \
			"capture turned on for the tmpfs folio line found above; each allocation made there since: size, task, time, call stack"
		set -- $(awk '$NF == "func:shmem_alloc_folio" { split($3, a, ":"); print a[1], a[2]; exit }' $AL)
		echo "# cd /sys/kernel/debug; echo \"file $1 line $2 enable\" > allocations.ctx"
		echo "file $1 line $2 enable" >$CTX
		dd if=/dev/zero of=/tmp/demo/ctx bs=4k count=4 2>/dev/null
		echo "# dd if=/dev/zero of=/tmp/demo/ctx bs=4k count=4; cat allocations.ctx"
		# The header, the site's line and the first context dd made.
		cat $CTX >/tmp/ctx.txt
		head -n 2 /tmp/ctx.txt
		awk '/^    size: / { if (dd) exit; blk = "" }
		     /^    (size|type|pid|tgid|comm|ts|call stack)|^         / {
			blk = blk $0 "\n"; if ($0 == "    comm: dd") dd = 1 }
		     END { if (dd) printf "%s", blk }' /tmp/ctx.txt
		echo "(contexts listed: $(grep -c '^    comm: ' /tmp/ctx.txt), made by dd: $(grep -c '^    comm: dd$' /tmp/ctx.txt))"
		echo "# echo \"file $1 line $2 disable\" > allocations.ctx; head -n 1 allocations.ctx"
		echo "file $1 line $2 disable" >$CTX
		head -n 1 $CTX

		if [ -e /sys/kernel/debug/unwind_deferred ] && [ -x /bin/unwind_chain ]; then
			section "allocation contexts with user stacks (deferred user-space unwinding)" \
				"unwind_chain (tests/tools, frame pointers) writes a tmpfs page from main -> chain_one -> ... -> chain_five; its context shows the user stack, resolved here against the program's symbols"
			echo "# echo \"file $1 line $2 enable\" > allocations.ctx; unwind_chain tmpfs /tmp/demo/uw; cat allocations.ctx"
			echo "file $1 line $2 enable" >$CTX
			unwind_chain tmpfs /tmp/demo/uw
			cat $CTX >/tmp/ctx.txt
			awk '/^    size: / { if (mine) exit; blk = "" }
			     /^    (size|comm|call stack|user stack)|^         / {
				blk = blk $0 "\n"; if ($0 == "    comm: unwind_chain") mine = 1 }
			     END { if (mine) printf "%s", blk }' /tmp/ctx.txt >/tmp/uw-ctx.txt
			# The kernel stack's middle frames, then the user stack.
			awk '/^    call stack:/ { n = 0; print; next } /^         [^0]/ { if (++n <= 3) print; else if (n == 4) print "         ..."; next } { print }' /tmp/uw-ctx.txt
			echo "# the user stack's addresses against unwind_chain's symbol table (nm -n, on the host):"
			. /tests/resolve-user.sh
			awk '/^    user stack:/ { on = 1; next } on && /^         0x/ { print $1 }' /tmp/uw-ctx.txt >/tmp/uw-addr.txt
			resolve_user /tests/unwind_chain.syms </tmp/uw-addr.txt | paste /tmp/uw-addr.txt - |
				awk '{ printf "  %-10s %s\n", $1, $2 }'
			echo "file $1 line $2 disable" >$CTX
			rm -f /tmp/demo/uw
			echo "# cat /sys/kernel/debug/unwind_deferred"
			cat /sys/kernel/debug/unwind_deferred
		fi
	fi

	if [ -w /proc/sysrq-trigger ]; then
		section "allocation profiling: the largest sites in an OOM report (sysrq-m runs show_mem())" \
			"the same ten lines an out-of-memory kill prints after Mem-Info"
		n=$(dmesg | wc -l)
		echo m >/proc/sysrq-trigger
		dmesg | tail -n +$((n + 1)) | sed -e 's/^\[[ 0-9.]*\] //' |
			sed -n '/largest allocation sites/,$p' | head -n 11
	fi

	if [ -w /proc/sys/vm/mem_profiling ]; then
		section "allocation profiling: pause and resume (sysctl vm.mem_profiling)" \
			"while paused, /proc/allocations says so instead of showing counts that drift"
		echo "vm.mem_profiling = $(cat /proc/sys/vm/mem_profiling)"
		echo 0 >/proc/sys/vm/mem_profiling
		echo "after 'echo 0 > /proc/sys/vm/mem_profiling': $(cat /proc/sys/vm/mem_profiling); $AL begins:"
		sed -n 2p $AL
		echo 1 >/proc/sys/vm/mem_profiling
		echo "after 'echo 1': $(cat /proc/sys/vm/mem_profiling)"
	fi
fi

if [ -r /sys/kernel/debug/page_owner ]; then
	section "page_owner: who allocated a page of the file dd just wrote (/sys/kernel/debug/page_owner)" \
		"6.1's record, unchanged: pid, comm and the allocating stack, kept once in the stack depot"
	# Through cat: 6.1's page_owner fails a read whose buffer is shorter
	# than the next record (-ENOMEM), and busybox awk reads into what is
	# left of its buffer.
	cat /sys/kernel/debug/page_owner |
		awk '/^Page allocated/ { if (ok) exit; rec = ""; dd = /\(dd\)/ }
		     { rec = rec $0 "\n"; if (dd && /shmem_write_begin/ && rec !~ /slab/) ok = 1 }
		     END { if (ok) printf "%s", rec }'
fi

if [ -r $PO ]; then
	section "page_owner: the stacks holding the most pages (/sys/kernel/debug/page_owner_stacks)" \
		"each stack, then how many base pages it holds now; the tmpfs writes lead"
	# One line per stack: its count, then its frames; the top three in
	# full, as the file prints them.
	awk '/^nr_base_pages: / { print $2 "\t" st; st = ""; next }
	     /./ { st = st $0 "|" }' $PO | sort -rn | head -n 3 |
		awk -F '\t' '{ n = split($2, f, "|"); for (i = 1; i < n; i++) print f[i];
			      print "nr_base_pages: " $1; print "" }'
	echo "stacks listed: $(grep -c '^nr_base_pages:' $PO)," \
	     "pages counted: $(awk '/^nr_base_pages:/ { s += $2 } END { print s }' $PO)"
	echo 100 >/sys/kernel/debug/page_owner_threshold
	echo "after 'echo 100 > /sys/kernel/debug/page_owner_threshold':" \
	     "$(grep -c '^nr_base_pages:' $PO) stacks listed"
	echo 0 >/sys/kernel/debug/page_owner_threshold

	if [ -x /bin/page_owner_fold ]; then
		section "page_owner: the same stacks folded for flame graphs (tools/vm/page_owner_fold)" \
			"one line per stack, root first, then its page count: the input of flamegraph.pl"
		echo "# page_owner_fold -t 2 $PO"
		page_owner_fold -t 2 $PO
		echo "# page_owner_fold $PO | sort -k2 -nr | head -n 3"
		page_owner_fold $PO | $SORT -t' ' -k2 -nr | head -n 3 | cut -c 1-200
	fi
fi

rm -rf /tmp/demo

if [ -r $DEPOT ] && [ ! -e /lib/modules/kasan_ring_test.ko ]; then
	section "stack depot: after boot and the workload above (/sys/kernel/debug/stackdepot/stats)" \
		"page_owner's stacks are persistent records; refcounted ones come from KASAN's tag modes (the arm64 guest)"
	cat $DEPOT
fi

if [ -r $DEPOT ] && insmod /lib/modules/kasan_ring_test.ko 2>/dev/null; then
	ring=32768
	section "stack depot under KASAN hardware tags: after boot (/sys/kernel/debug/stackdepot/stats)" \
		"records_refcounted: the stacks of KASAN's stack ring entries, one reference per entry"
	cat $DEPOT | tee /tmp/depot-boot

	section "stack depot: after $ring kmalloc/kfree pairs, each from a new call stack (kasan_ring_test)" \
		"new_records grew by 2 x $ring, evictions nearly as much: records_refcounted stays <= $ring ring entries"
	echo "churn $ring" >$RING
	cat $DEPOT >/tmp/depot-churn
	echo "                       after boot   after churn"
	for n in saves new_records evictions records_refcounted pools pool_bytes; do
		printf '%-20s %12s %13s\n' "$n:" "$(sed -n "s/^$n: //p" /tmp/depot-boot)" \
			"$(sed -n "s/^$n: //p" /tmp/depot-churn)"
	done

	section "KASAN: a use-after-free whose stacks survived ring churn" \
		"the alloc and free stacks are the object's own (kasan_ring_uaf_alloc, kasan_ring_uaf_free)"
	ev0=$(sed -n 's/^evictions: //p' $DEPOT)
	n=$(dmesg | wc -l)
	echo "# echo 'uaf 8192' > $RING: kmalloc(512) and kfree(), 8192 pairs from new stacks, then a read of the freed object"
	echo "uaf 8192" >$RING
	ev1=$(sed -n 's/^evictions: //p' $DEPOT)
	echo "the depot evicted $((ev1 - ev0)) stacks meanwhile; the report:"
	dmesg | tail -n +$((n + 1)) | sed -e 's/^\[[ 0-9.]*\] //' |
		sed -n '/^BUG: KASAN/,/^The buggy address belongs/p' | grep -v '^The buggy' |
		awk '/^Call trace:/ { skip = 1; print "(the call trace of the bad read, left out here)"; next }
		     skip && /^$/ { skip = 0 } !skip'
	rmmod kasan_ring_test
	echo "bad puts: $(sed -n 's/^bad_puts: //p' $DEPOT), stale fetches: $(sed -n 's/^stale_fetches: //p' $DEPOT)"
fi

if [ -e /sys/kernel/debug/allocations.ctx ]; then
	section "allocation context capture (allocations.ctx)" "who made each live allocation of one site"
	cat /sys/kernel/debug/allocations.ctx | head -n 40
fi
