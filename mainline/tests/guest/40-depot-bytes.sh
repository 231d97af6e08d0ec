# The stack depot's size after boot and after churning the KASAN stack
# ring with a workload of many distinct allocation stacks: printed as
# "# depot after boot: ..." and "# depot after churn: ..." lines, which
# mainline/bench/depot-bytes.sh collects from patched and unpatched 7.3.

f=/sys/kernel/debug/stackdepot/stats
show() {
	echo "    # depot $1: $(grep -E '^(pools|refcounted_[a-z_]+|persistent_[a-z]+|freelist_size): ' $f | tr '\n' ' ')"
}
if [ ! -r $f ]; then
	skip "depot bytes" "no stackdepot/stats"
else
	show "after boot"
	frees0=$(sed -n 's/^refcounted_frees: //p' $f)
	# Many call paths allocate: a file tree in tmpfs, its listing, every
	# process's maps, sysfs and procfs walks, pipes and forks.
	i=0
	while [ $i -lt 3 ]; do
		mkdir -p /tmp/churn/$i
		j=0
		while [ $j -lt 100 ]; do echo $j >/tmp/churn/$i/f$j; j=$((j + 1)); done
		ls -lR /sys/kernel /sys/devices >/dev/null 2>&1
		cat /proc/[0-9]*/maps /proc/[0-9]*/status >/dev/null 2>&1
		find /proc/sys -type f 2>/dev/null | head -n 300 | xargs cat >/dev/null 2>&1
		dd if=/dev/zero bs=4k count=256 2>/dev/null | cat | wc -c >/dev/null
		rm -rf /tmp/churn/$i
		i=$((i + 1))
	done
	show "after churn"
	frees1=$(sed -n 's/^refcounted_frees: //p' $f)
	# The tag-based KASAN modes drop the traces of overwritten ring
	# entries (page_owner keeps a reference to each of its traces).
	if dmesg | grep -q 'KernelAddressSanitizer initialized (.*tags'; then
		check "the churn evicted refcounted records ($frees0 -> $frees1)" test "$frees1" -gt "$frees0"
	fi
fi
