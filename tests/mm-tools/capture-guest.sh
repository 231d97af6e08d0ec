# Guest side of the captures in data/: /proc/allocations before and after
# a workload (8 MiB written to a tmpfs file, 300 small files created) and
# after the files are removed again, and page_owner_stacks after the
# workload.  Each capture is printed between markers with its md5sum and
# line count; extract.sh takes them out of the console log.  Run it as a
# guest suite of its own (see README.md).
dmesg -n 1

capture() { # capture NAME FILE
	cat "$2" >/tmp/cap.$1
	echo "CAPTURE-BEGIN $1"
	cat /tmp/cap.$1
	echo "CAPTURE-END $1 $(md5sum </tmp/cap.$1 | cut -d' ' -f1) $(wc -l </tmp/cap.$1)"
	rm -f /tmp/cap.$1
}

capture allocations-1 /proc/allocations
dd if=/dev/zero of=/tmp/big bs=1M count=8 2>/dev/null
mkdir -p /tmp/many
i=0
while [ $i -lt 300 ]; do
	echo "file $i" >/tmp/many/f$i
	i=$((i + 1))
done
sync
capture allocations-2 /proc/allocations
capture page_owner_stacks /sys/kernel/debug/page_owner_stacks
rm -rf /tmp/big /tmp/many
capture allocations-3 /proc/allocations
pass "captures printed"
