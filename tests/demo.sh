#!/bin/sh
# Demo mode: what a new user sees on the patched kernel.  Each feature of
# the series adds its section here.
section() {
	echo
	echo "### $*"
}

# GNU sort where the guest has it (x86_64); busybox's may lack -h.
SORT=sort
[ -x /usr/bin/sort ] && SORT=/usr/bin/sort

section "kernel"
uname -sr
echo "CPUs online: $(grep -c '^processor' /proc/cpuinfo)"
echo "command line: $(cat /proc/cmdline)"

section "debugfs (/sys/kernel/debug)"
ls /sys/kernel/debug | tr '\n' ' '
echo

if [ -r /sys/kernel/debug/stackdepot/stats ]; then
	section "stack depot: /sys/kernel/debug/stackdepot/stats"
	cat /sys/kernel/debug/stackdepot/stats
fi

if dmesg | grep -q '# Subtest: stackdepot'; then
	section "stack depot: its KUnit suite, run at boot (dmesg)"
	dmesg | sed -n '/# Subtest: stackdepot/,/ok [0-9]* stackdepot/p' |
		sed -e 's/^\[ *[0-9.]*\] //' | grep -E '^ *(ok|not ok|# )'
fi

if [ -r /sys/kernel/debug/page_owner ]; then
	section "page_owner: first record of /sys/kernel/debug/page_owner"
	awk 'NR > 1 && /^Page allocated/ { exit } { print }' /sys/kernel/debug/page_owner
fi

if [ -r /sys/kernel/debug/page_owner_stacks ]; then
	PO=/sys/kernel/debug/page_owner_stacks
	section "page_owner: the stacks holding the most pages (/sys/kernel/debug/page_owner_stacks)"
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
fi

if [ -r /proc/allocations ]; then
	AL=/proc/allocations
	section "allocation profiling: the call sites holding the most memory (sort -hr /proc/allocations | head)"
	head -n 1 $AL
	$SORT -hr $AL | head -n 12
	echo "call sites listed: $(grep -vc '^#' $AL)"
	if dmesg | grep -q '# Subtest: alloc_tag'; then
		echo "its KUnit suite, run at boot: $(dmesg | sed -n 's/.*# alloc_tag: //p')"
	fi

	section "allocation profiling: each line names the caller of a helper"
	echo "tmpfs inodes (alloc_inode_sb() in <linux/fs.h>), duplicated strings (kstrdup()):"
	grep -E ' func:(shmem_alloc_inode|kernfs_new_node|__kernfs_new_node)$' $AL
	grep -E 'func:(kstrdup|kstrdup_const|kmemdup)$' $AL || echo "(no line names kstrdup/kmemdup: charged to their callers)"

	if [ -x /bin/alloc_diff ]; then
		section "allocation profiling: what a workload leaves behind (tools/vm/alloc_diff)"
		cat $AL >/tmp/al-before.txt
		mkdir -p /tmp/demo
		dd if=/dev/zero of=/tmp/demo/file bs=1M count=8 2>/dev/null
		i=0
		while [ $i -lt 200 ]; do : >/tmp/demo/f$i; i=$((i + 1)); done
		cat $AL >/tmp/al-after.txt
		echo "after writing an 8 MiB tmpfs file and creating 200 empty ones:"
		echo "# alloc_diff -n 5 before after"
		alloc_diff -n 5 /tmp/al-before.txt /tmp/al-after.txt
		rm -rf /tmp/demo
	fi

	if [ -w /proc/sys/vm/mem_profiling ]; then
		section "allocation profiling: pause and resume (sysctl vm.mem_profiling)"
		echo "vm.mem_profiling = $(cat /proc/sys/vm/mem_profiling)"
		echo 0 >/proc/sys/vm/mem_profiling
		echo "after 'echo 0 > /proc/sys/vm/mem_profiling': $(cat /proc/sys/vm/mem_profiling); $AL says:"
		sed -n 2p $AL
		echo 1 >/proc/sys/vm/mem_profiling
		echo "after 'echo 1': $(cat /proc/sys/vm/mem_profiling)"
	fi
fi

if [ -x /bin/page_owner_fold ] && [ -r /sys/kernel/debug/page_owner_stacks ]; then
	section "page_owner: the top stacks, and folded for flame graphs (tools/vm/page_owner_fold)"
	echo "# page_owner_fold -t 2 /sys/kernel/debug/page_owner_stacks"
	page_owner_fold -t 2 /sys/kernel/debug/page_owner_stacks
	echo "# page_owner_fold /sys/kernel/debug/page_owner_stacks | sort -k2 -nr | head -n 3"
	page_owner_fold /sys/kernel/debug/page_owner_stacks | $SORT -t' ' -k2 -nr | head -n 3 |
		cut -c 1-200
fi
