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
