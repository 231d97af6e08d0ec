# The soak (make check-wide soak-TARGET): Debian's stress-ng runs its
# memory-heavy stressors for kmemobs.soak=SECONDS while readers loop over
# every interface of the series, vm.mem_profiling is switched off and on,
# and capture is switched on and off on busy sites with the cap lowered
# and raised.  Passes when every stressor ran (its operations are printed),
# capture released every context when disabled, the sites the load grew
# are back near their start after a cache drop, the depot's refcounted
# records are back under the KASAN stack ring's bound, and (judged by the
# runner on the console) nothing warned from boot to power-off.  Without
# kmemobs.soak on the command line (every other boot) it skips.

secs=$(sed -n 's/.*kmemobs\.soak=\([0-9][0-9]*\).*/\1/p' /proc/cmdline)
AI=/proc/allocinfo
CTX=/sys/kernel/debug/allocations.ctx
SYS=/proc/sys/vm/mem_profiling
STATS=/sys/kernel/debug/stackdepot/stats
if [ -z "$secs" ]; then
	skip "soak" "booted without kmemobs.soak=SECONDS"
	return 0 2>/dev/null || exit 0
fi
STRESS=/usr/bin/stress-ng
if ! $STRESS --version >/tmp/soak-version 2>&1; then
	fail "stress-ng runs in the guest" "$(cat /tmp/soak-version)"
	return 0 2>/dev/null || exit 0
fi
pass "$(cat /tmp/soak-version)"

# snapshot FILE: "BYTES SITE" per line of /proc/allocinfo (a site that
# turns accurate:no meanwhile stays the same site).
snapshot() {
	awk '!/^(allocinfo|#)/ { sub(/ accurate:no $/, " "); b = $1; $1 = ""; $2 = ""
		sub(/^ +/, ""); print b, $0 }' $AI >"$1"
}

# site_of FUNC: "FILE LINE" of the first allocinfo line of FUNC.
site_of() {
	awk -v f="func:$1" '{ sub(/ accurate:no $/, " ") }
		$NF == f { split($3, a, ":"); print a[1], a[2]; exit }' $AI
}

# ctx_contexts: the live contexts the allocations.ctx header counts.
ctx_contexts() {
	head -n 1 $CTX | sed -n 's/^# allocations.ctx v1: contexts \([0-9]*\)\/.*/\1/p'
}

# depot FIELD: a field of the depot's statistics, 0 without them.
depot() {
	sed -n "s/^$1: //p" $STATS 2>/dev/null | grep . || echo 0
}

mkdir -p /tmp/soak
cd /tmp/soak || exit 1
# A tmpfs file makes the tmpfs folio site appear; sites to capture on:
# tmpfs folios, VMAs and slab pages, each as busy as the load makes it.
dd if=/dev/zero of=/tmp/soak/warm bs=4096 count=4 2>/dev/null
sites=
for f in shmem_alloc_folio vm_area_alloc alloc_slab_page; do
	s=$(site_of $f)
	[ -n "$s" ] && sites="$sites $(echo "$s" | tr ' ' ':')"
done
sync
echo 3 >/proc/sys/vm/drop_caches
snapshot /tmp/soak-start
evictions0=$(depot evictions) records0=$(depot new_records)

rm -f /tmp/soak-stop
# Readers: every interface, in a loop, until the load ends.
(
	n=0
	while [ ! -e /tmp/soak-stop ]; do
		for f in /proc/allocations $AI $CTX /sys/kernel/debug/page_owner_stacks/show_stacks \
			$STATS; do
			[ -r $f ] && cat $f >/dev/null 2>&1
		done
		n=$((n + 1))
	done
	echo $n >/tmp/soak-reads
) &
# vm.mem_profiling off for a second every five, then on again.
(
	n=0
	while [ ! -e /tmp/soak-stop ]; do
		sleep 4
		echo 0 >$SYS && n=$((n + 1))
		sleep 1
		echo 1 >$SYS
	done
	echo 1 >$SYS
	echo $n >/tmp/soak-pauses
) &
# Capture on and off on the busy sites, the cap lowered and raised.
if [ -e $CTX ] && [ -n "$sites" ]; then
	(
		n=0 i=0
		while [ ! -e /tmp/soak-stop ]; do
			i=$((i + 1))
			for s in $sites; do
				echo "file ${s%:*} line ${s#*:} enable" >$CTX && n=$((n + 1))
			done
			echo "max $((64 + (i % 4) * 1024))" >$CTX
			sleep 2
			# The most contexts live at once, sampled before each disable.
			c=$(ctx_contexts)
			[ "${c:-0}" -le "$(cat /tmp/soak-ctx-peak 2>/dev/null || echo 0)" ] ||
				echo "$c" >/tmp/soak-ctx-peak
			for s in $sites; do
				echo "file ${s%:*} line ${s#*:} disable" >$CTX
			done
			sleep 1
		done
		echo "max 8192" >$CTX
		echo $n >/tmp/soak-captures
	) &
fi

# The load: root runs all but exec, which stress-ng runs only as an
# unprivileged user.  Sizes keep the 1 GiB guest out of the OOM killer.
mkdir -p /etc
grep -q '^nobody:' /etc/passwd 2>/dev/null || echo 'nobody:x:65534:65534:nobody:/tmp:/bin/sh' >>/etc/passwd
grep -q '^nogroup:' /etc/group 2>/dev/null || echo 'nogroup:x:65534:' >>/etc/group
chmod 1777 /tmp/soak
su -s /bin/sh nobody -c "cd /tmp/soak && $STRESS --exec 1 --timeout ${secs}s --metrics-brief" \
	>/tmp/soak-exec.out 2>&1 &
exec_pid=$!
# Small sizes: under TCG a stressor must finish its operations in time
# (mmap's operation touches, protects and unmaps every page it maps: at
# 4 MiB the KASAN arm64 kernel finished none in three minutes).
$STRESS --temp-path /tmp/soak --timeout "${secs}s" --metrics-brief \
	--vm 1 --vm-bytes 8M --malloc 1 --malloc-bytes 4M --mmap 1 --mmap-bytes 256K \
	--brk 1 --fork 1 --clone 1 --clone-max 64 --pthread 1 --pthread-max 16 --pipe 1 --dentry 1 \
	--memfd 1 --memfd-bytes 4M --memfd-fds 16 --madvise 1 --zombie 1 \
	>/tmp/soak-root.out 2>&1 &
root_pid=$!
# The peak: the sites halfway through the load.
sleep $((secs / 2))
snapshot /tmp/soak-peak
refcounted_peak=$(depot records_refcounted)
wait $root_pid
rc=$?
wait $exec_pid
rc_exec=$?
touch /tmp/soak-stop
wait
cd /

sed 's/^/    # /' /tmp/soak-root.out /tmp/soak-exec.out | grep -E 'stress-ng: (info|metrc|fail|error)' | head -n 40
expect_eq "stress-ng's stressors completed (root)" "$rc" 0
expect_eq "stress-ng's exec stressor completed (as nobody)" "$rc_exec" 0
# clone counts no operation on the test kernels (tinyconfig: no
# CONFIG_NAMESPACES) and is not asserted; pthread clones threads.
for s in vm malloc mmap brk fork clone pthread pipe dentry memfd madvise zombie exec; do
	ops=$(cat /tmp/soak-root.out /tmp/soak-exec.out |
		awk -v s="$s" '$2 == "metrc:" && $4 == s { print $5; exit }')
	if [ $s = clone ] && [ "${ops:-0}" = 0 ]; then
		skip "stressor clone ran (0 bogo ops)" "clone counts no operation on this kernel"
		continue
	fi
	check "stressor $s ran (${ops:-no} bogo ops)" test "${ops:-0}" -gt 0
done
echo "    # depot: $(($(depot new_records) - records0)) records made and $(($(depot evictions) - evictions0)) evicted during the load, $refcounted_peak refcounted at its middle"
reads=$(cat /tmp/soak-reads 2>/dev/null)
check "the readers read every interface (${reads:-0} rounds)" test "${reads:-0}" -gt 0
pauses=$(cat /tmp/soak-pauses 2>/dev/null)
check "vm.mem_profiling was switched off and on (${pauses:-0} times)" test "${pauses:-0}" -gt 0
expect_eq "vm.mem_profiling is on after the soak" "$(cat $SYS)" 1
if [ -e $CTX ] && [ -n "$sites" ]; then
	caps=$(cat /tmp/soak-captures 2>/dev/null)
	echo "    # contexts: at most $(cat /tmp/soak-ctx-peak 2>/dev/null || echo 0) live at once (sampled before each disable)"
	check "capture was enabled on$sites (${caps:-0} times)" test "${caps:-0}" -gt 0
	expect_eq "every context released after the last disable" "$(ctx_contexts)" 0
else
	skip "capture on busy sites" "no $CTX or no busy site found"
fi

# Back to the start: the load's files are gone, caches dropped, and
# every site the load grew by 2 MiB or more is back within 1 MiB or a
# tenth of its growth, whichever is more, of its start.
rm -rf /tmp/soak
sync
echo 3 >/proc/sys/vm/drop_caches
# SLUB keeps empty slabs on its partial lists: give them back.
for f in /sys/kernel/slab/*/shrink; do
	[ -w "$f" ] && echo 1 >"$f"
done
sleep 2
echo 3 >/proc/sys/vm/drop_caches
snapshot /tmp/soak-end
# "START PEAK SITE" for every site at the peak (START 0 if it is new).
awk 'FNR == NR { b = $1; $1 = ""; sub(/^ +/, ""); start[$0] = b; next }
	{ b = $1; $1 = ""; sub(/^ +/, ""); print ($0 in start ? start[$0] : 0), b, $0 }' \
	/tmp/soak-start /tmp/soak-peak >/tmp/soak-sp
grown=0 back=0 notback=
while read -r start peak site; do
	[ $((peak - start)) -ge 2097152 ] || continue
	grown=$((grown + 1))
	end=$(awk -v s="$site" '{ b = $1; $1 = ""; sub(/^ +/, "") } $0 == s { print b; f = 1; exit } END { if (!f) print 0 }' /tmp/soak-end)
	slack=$(((peak - start) / 10))
	[ $slack -ge 1048576 ] || slack=1048576
	echo "    # $site: $start -> $peak -> $end bytes"
	if [ "$end" -le $((start + slack)) ]; then
		back=$((back + 1))
	else
		notback="$notback $site"
	fi
done </tmp/soak-sp
check "the load grew sites by 2 MiB or more ($grown)" test "$grown" -gt 0
expect_eq "every site the load grew is back near its start ($back of $grown)" "$notback" ""

# KASAN's tag modes drop a ring entry's trace when it is overwritten:
# after the load, the refcounted records the depot holds are bounded by
# the ring (and page_owner's own references).
if dmesg | grep -q 'KernelAddressSanitizer initialized (.*tags' && [ -r $STATS ]; then
	in_use=$(sed -n 's/^records_refcounted: //p' $STATS)
	ring=$(cat /sys/module/kasan/parameters/stack_ring_size 2>/dev/null || echo 32768)
	owner=$(grep -c '^nr_base_pages: ' /sys/kernel/debug/page_owner_stacks/show_stacks 2>/dev/null || echo 0)
	check "refcounted records ($in_use) within the ring ($ring) and page_owner's stacks ($owner)" \
		test "${in_use:-0}" -le $((ring + owner))
fi
