# The tag-based KASAN modes (arm64 guests) keep each stack ring entry's
# stack trace in the depot with a reference and drop it when the entry is
# overwritten: however many distinct stacks go through the ring, the depot
# holds at most one refcounted record per ring entry, and its pools stop
# growing.  The module kasan_ring_test (tests/modules) makes kmalloc/kfree
# pairs from stacks that no earlier pair used.

MOD=/lib/modules/kasan_ring_test.ko
CTL=/sys/kernel/debug/kasan_ring_test
stats=/sys/kernel/debug/stackdepot/stats

# snap NAME: the depot's counters, in /tmp/depot-NAME.
snap() {
	cat "$stats" >"/tmp/depot-$1"
}
# field SNAP NAME: the value of "NAME: value" in a snapshot.
field() {
	sed -n "s/^$2: //p" "/tmp/depot-$1"
}

if [ ! -e "$MOD" ]; then
	skip "kasan stack ring" "no kasan_ring_test module (not a tag-based KASAN kernel)"
elif [ ! -r "$stats" ]; then
	skip "kasan stack ring" "kernel without depot statistics"
elif ! insmod "$MOD"; then
	fail "insmod kasan_ring_test"
else
	# The ring's size: 6.1's default unless the command line sets one.
	ring=32768
	for w in $(cat /proc/cmdline); do
		case $w in kasan.stack_ring_size=*) ring=${w#*=} ;; esac
	done

	snap boot
	check "write error: 'churn 0' is rejected" sh -c "! echo 'churn 0' >$CTL"
	check "write error: 'churn x' is rejected" sh -c "! echo 'churn x' >$CTL"

	# Round 1: as many pairs as the ring has entries, so 2x ring
	# entries written, each with a stack never seen before.
	t0=$(date +%s)
	echo "churn $ring" >"$CTL"
	snap round1
	t1=$(date +%s)
	echo "    # round 1: $ring pairs in $((t1 - t0)) s"
	new=$(($(field round1 new_records) - $(field boot new_records)))
	ev=$(($(field round1 evictions) - $(field boot evictions)))
	ref1=$(field round1 records_refcounted)
	check "round 1 stored a record per new stack ($new >= $((2 * ring)))" \
		test "$new" -ge $((2 * ring))
	check "refcounted records ($ref1) <= ring entries ($ring)" \
		test "$ref1" -le "$ring"
	check "round 1 evicted what the ring let go ($ev >= $((new - ring)))" \
		test "$ev" -ge $((new - ring))
	expect_eq "no bad puts" "$(field round1 bad_puts)" "$(field boot bad_puts)"
	expect_eq "no stale fetches" "$(field round1 stale_fetches)" \
		"$(field boot stale_fetches)"

	# Rounds 2 and 3: as many fresh stacks again.  The depot reuses the
	# slots the rounds before evicted, so its pools stay about where
	# round 1 left them.  Slots evicted within the last grace period wait
	# for the next one, so the pools drift up with the longest grace
	# period seen (under TCG, a tenth of a second or more: thousands of
	# evictions; 7337 slots at most in the runs seen).  A depot that kept
	# every trace would store 2 * ring new records per round; the evicting
	# one must grow by less than a fifth of that over rounds 2 and 3.
	echo "churn $ring" >"$CTL"
	snap round2
	echo "churn $ring" >"$CTL"
	snap round3
	p0=$(field boot pools)
	p1=$(field round1 pools)
	p2=$(field round2 pools)
	p3=$(field round3 pools)
	echo "    # pools: boot $p0, after round 1 $p1, round 2 $p2, round 3 $p3"
	ref3=$(field round3 records_refcounted)
	check "refcounted records after round 3 ($ref3) <= ring entries ($ring)" \
		test "$ref3" -le "$ring"
	# Records have the size of their trace: count the growth in records
	# of the average size of the refcounted ones.
	avg=$(($(field round3 refcounted_bytes) / (ref3 > 0 ? ref3 : 1)))
	check "refcounted records average $avg bytes (>= 56)" test "$avg" -ge 56
	grown=$(((p3 - p1) * 16384 / (avg > 0 ? avg : 1)))
	check "rounds 2 and 3 added room for $grown records, < $((4 * ring / 5)) (a fifth of keep-forever)" \
		test "$grown" -lt $((4 * ring / 5))
	expect_eq "no bad puts after round 3" "$(field round3 bad_puts)" \
		"$(field boot bad_puts)"

	# A use-after-free of a fresh object: the report still shows where it
	# was allocated and freed.
	dmesg -c >/dev/null
	echo uaf >"$CTL"
	dmesg >/tmp/uaf-report
	check "use-after-free reported" grep -q 'BUG: KASAN: use-after-free' /tmp/uaf-report
	check "report shows the alloc stack" awk '
		/Allocated by task/ { s = 1; next }
		/by task/ { s = 0 }
		s && /kasan_ring_uaf_alloc/ { ok = 1 }
		END { exit !ok }' /tmp/uaf-report
	check "report shows the free stack" awk '
		/Freed by task/ { s = 1; next }
		/by task/ || /^.*=====/ { s = 0 }
		s && /kasan_ring_uaf_free/ { ok = 1 }
		END { exit !ok }' /tmp/uaf-report
	snap end
	expect_eq "no stale fetches while reporting" "$(field end stale_fetches)" \
		"$(field boot stale_fetches)"
	check "rmmod kasan_ring_test" rmmod kasan_ring_test
fi
