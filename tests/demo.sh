#!/bin/sh
# Demo mode: what a new user sees on the patched kernel.  Each feature of
# the series adds its section here.
section() {
	echo
	echo "### $*"
}

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
	section "allocation profiling: the call sites holding the most memory (sort -hr /proc/allocations | head)"
	# busybox's sort has no -h: order by the size turned into bytes.
	awk '{ s = $1; m = 1
	       if (s ~ /KiB$/) m = 1024; else if (s ~ /MiB$/) m = 1048576
	       else if (s ~ /GiB$/) m = 1073741824
	       sub(/[KMG]?i?B$/, "", s); print s * m "\t" $0 }' /proc/allocations |
		sort -rn | head -n 10 | cut -f 2-
	echo "call sites listed: $(grep -vc '^#' /proc/allocations)"
	if dmesg | grep -q '# Subtest: alloc_tag'; then
		echo "its KUnit suite, run at boot: $(dmesg | sed -n 's/.*# alloc_tag: //p')"
	fi
fi
