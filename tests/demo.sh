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

if [ -r /sys/kernel/debug/page_owner ]; then
	section "page_owner: first record of /sys/kernel/debug/page_owner"
	awk 'NR > 1 && /^Page allocated/ { exit } { print }' /sys/kernel/debug/page_owner
fi
