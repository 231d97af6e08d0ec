# Allocation context capture (debugfs allocations.ctx): the workflow of
# Documentation/mm/allocation-profiling.rst on a real site (tmpfs pages:
# find the site in /proc/allocations, capture, read, free, disable), bad
# commands, a module unloaded while its site captures, and capture
# switched on and off while both CPUs allocate and free at the site and a
# reader reads.  Splats fail the boot (the runner judges the console).

CTX=/sys/kernel/debug/allocations.ctx
AL=/proc/allocations
HOLDER=/sys/kernel/debug/alloc_prof_holder

# ctx_cmd CMD: write one command; fails like the write.
ctx_cmd() {
	echo "$1" > $CTX
}

# site_of FUNC: "FILE LINE" of the first /proc/allocations line of FUNC.
site_of() {
	awk -v f="func:$1" '$NF == f { split($3, a, ":"); print a[1], a[2]; exit }' $AL
}

# by_comm FILE LINE COMM [LISTING]: the number of that site's contexts
# made by COMM, in LISTING (default: a read of $CTX).
by_comm() {
	awk -v s="$1:$2" -v c="    comm: $3" '
		/^ *[0-9.]+[KMGTP]?i?B / { on = ($3 == s); next }
		on && $0 == c { n++ }
		END { print n + 0 }' "${4:-$CTX}"
}

# captured FILE LINE: the captured:N count of that site's line, or
# "none" when the site is not listed.
captured() {
	awk -v s="$1:$2" '$3 == s && /captured:/ {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^captured:/) { sub(/captured:/, "", $i); print $i; found = 1; exit }
	} END { if (!found) print "none" }' $CTX
}

if [ ! -e $CTX ]; then
	skip "allocations.ctx" "no $CTX (CONFIG_MEM_ALLOC_PROFILING_CONTEXT off, or nomem_profiling)"
	return 0 2>/dev/null || exit 0
fi

# --- The workflow on the tmpfs page site ---------------------------------
mkdir -p /tmp/ctx
# A first file makes the site appear in /proc/allocations.
dd if=/dev/zero of=/tmp/ctx/warm bs=4096 count=1 2>/dev/null
set -- $(site_of shmem_alloc_folio)
FILE=$1 LINE=$2
if [ -z "$FILE" ]; then
	fail "the tmpfs folio site is in /proc/allocations" "$(grep shmem $AL | head -5)"
else
	pass "the tmpfs folio site is in /proc/allocations ($FILE:$LINE)"
fi
head -1 $CTX > /tmp/ctx-head.txt
check "the header says v1 and counts contexts" \
	grep -q '^# allocations.ctx v1: contexts [0-9]*/[0-9]* ' /tmp/ctx-head.txt
check "enable by file and line" ctx_cmd "file $FILE line $LINE enable"
expect_eq "the site is listed with no context yet" "$(captured $FILE $LINE)" 0
dd if=/dev/zero of=/tmp/ctx/data bs=4096 count=16 2>/dev/null
# Other files of /tmp (the tests' own) get contexts too: count dd's.
expect_eq "16 pages written by dd: 16 contexts made by dd" "$(by_comm $FILE $LINE dd)" 16
# A reader resumes where its last read() stopped, however small the reads
# (each read() ends in the middle of a context here): no context is lost
# or listed twice.  The listings are written by cat, not dd: dd's own
# tmpfs pages would be contexts made by dd.
dd if=$CTX bs=1 2>/dev/null | cat > /tmp/ctx-bs1.txt
dd if=$CTX bs=100 2>/dev/null | cat > /tmp/ctx-bs100.txt
expect_eq "read 1 byte at a time: 16 contexts made by dd" \
	"$(by_comm $FILE $LINE dd /tmp/ctx-bs1.txt)" 16
expect_eq "read 100 bytes at a time: 16 contexts made by dd" \
	"$(by_comm $FILE $LINE dd /tmp/ctx-bs100.txt)" 16
check "read 1 byte at a time: each context has its five fields" awk '
	/^    size: / { n++ } /^    type: / { t++ } /^    pid: / { p++ }
	/^    comm: / { c++ } /^    ts: / { s++ }
	END { exit !(n && n == t && n == p && n == c && n == s) }' /tmp/ctx-bs1.txt
cat $CTX > /tmp/ctx.txt
awk -v s="$FILE:$LINE" '$3 == s { on = 1; next } /^ *[0-9.]+[KMG]?i?B / { on = 0 } on' /tmp/ctx.txt > /tmp/ctx-site.txt
check "a context made by dd" grep -q '^    comm: dd$' /tmp/ctx-site.txt
check "its size is a page or more" grep -Eq '^    size: (4096|8192|16384|32768|65536)$' /tmp/ctx-site.txt
check "its type is page" grep -q '^    type: page$' /tmp/ctx-site.txt
check "its pid and tgid" grep -Eq '^    (pid|tgid): [0-9]+$' /tmp/ctx-site.txt
check "its call stack goes through the tmpfs write path" \
	grep -Eq '^         shmem_(write_begin|get_folio|get_folio_gfp|getpage_gfp)[.a-z0-9_]*\+0x' /tmp/ctx-site.txt
check "its call stack ends in the write syscall" \
	grep -Eq '^         (ksys_write|vfs_write|__x64_sys_write|__arm64_sys_write)\+0x' /tmp/ctx-site.txt
rm /tmp/ctx/data
expect_eq "the file removed: no context made by dd left" "$(by_comm $FILE $LINE dd)" 0
dd if=/dev/zero of=/tmp/ctx/data bs=4096 count=4 2>/dev/null
check "disable with contexts live" ctx_cmd "file $FILE line $LINE disable"
expect_eq "the site is no longer listed" "$(captured $FILE $LINE)" none
check "the header counts no context" grep -q '^# allocations.ctx v1: contexts 0/' $CTX
rm -f /tmp/ctx/data

# --- Bad commands: refused with EINVAL, nothing changes -------------------
for bad in "bogus" "file $FILE enable line" "line 3 enable" \
	"func no_such_function_anywhere enable" "max -1" \
	"file $FILE line $LINE enable please"; do
	if ctx_cmd "$bad" 2>/tmp/ctx-err.txt; then
		fail "refused: '$bad'" "the write succeeded"
	elif grep -q 'Invalid argument' /tmp/ctx-err.txt; then
		pass "refused with EINVAL: '$bad'"
	else
		fail "refused with EINVAL: '$bad'" "$(cat /tmp/ctx-err.txt)"
	fi
done
expect_eq "no site captures after the bad commands" "$(captured $FILE $LINE)" none

# --- A module unloaded while its site captures ---------------------------
if [ -e /lib/modules/alloc_prof_test.ko ] && [ -e /lib/modules/alloc_prof_holder.ko ]; then
	insmod /lib/modules/alloc_prof_holder.ko
	insmod /lib/modules/alloc_prof_test.ko nr=2
	echo free > $HOLDER 2>/dev/null
	check "enable by module" ctx_cmd "module alloc_prof_test enable"
	check "the module's site is listed" grep -q 'module:alloc_prof_test func:alloc_prof_test_alloc captured:0' $CTX
	# Instances unloaded earlier with memory live are kept, and match
	# too: the loaded one's sites, one line per function, must go.
	before=$(grep -c 'module:alloc_prof_test ' $CTX)
	funcs=$(grep 'module:alloc_prof_test ' $CTX | sed 's/.* func:\([^ ]*\) .*/\1/' | sort -u | wc -l)
	rmmod alloc_prof_test
	after=$(grep -c 'module:alloc_prof_test ' $CTX)
	expect_eq "unloaded with nothing live: its $funcs sites are gone" "$after" $((before - funcs))
	# Only kept instances are left, if any (the x86_64 guest's
	# 50-alloc-profiling.sh leaves some).
	if [ "$after" -gt 0 ]; then
		check "disable by module (the kept instances)" ctx_cmd "module alloc_prof_test disable"
	else
		expect_eq "no instance left: disable by module selects nothing" \
			"$(ctx_cmd 'module alloc_prof_test disable' 2>&1 | grep -c 'Invalid argument')" 1
	fi
	rmmod alloc_prof_holder
else
	skip "module cases" "no alloc_prof_test/alloc_prof_holder module in this guest"
fi

# --- Capture on and off while both CPUs allocate and a reader reads ------
set -- $(site_of shmem_alloc_inode)
IFILE=$1 ILINE=$2
# worker N: files created, written and removed in a loop.
worker() {
	i=0
	while [ ! -e /tmp/ctx/stop ]; do
		dd if=/dev/zero of=/tmp/ctx/w$1-$i bs=4096 count=3 2>/dev/null
		[ $((i % 4)) = 3 ] && rm -f /tmp/ctx/w$1-*
		i=$((i + 1))
	done
	rm -f /tmp/ctx/w$1-*
}
# The readers: whole reads, and small ones that keep a position in a
# site across the sites' enable and disable.
reader() {
	while [ ! -e /tmp/ctx/stop ]; do
		cat $CTX > /dev/null
		dd if=$CTX bs=64 2>/dev/null > /dev/null
	done
}
rm -f /tmp/ctx/stop
worker 0 & w0=$!
worker 1 & w1=$!
reader & r=$!
ok=0 rounds=30
for i in $(seq $rounds); do
	ctx_cmd "file $FILE line $LINE enable" && ok=$((ok + 1))
	[ -n "$IFILE" ] && ctx_cmd "file $IFILE line $ILINE enable"
	[ $((i % 3)) = 0 ] && ctx_cmd "max $((i * 4))"
	ctx_cmd "file $FILE line $LINE disable" && ok=$((ok + 1))
	[ -n "$IFILE" ] && ctx_cmd "file $IFILE line $ILINE disable"
done
ctx_cmd "max 8192"
touch /tmp/ctx/stop
wait $w0 $w1 $r
expect_eq "$rounds enable/disable rounds under load" "$ok" $((rounds * 2))
head -1 $CTX > /tmp/ctx-head.txt
check "after the stress: no context, no site" grep -q '^# allocations.ctx v1: contexts 0/8192 (0 bytes), sites 0,' /tmp/ctx-head.txt
rm -rf /tmp/ctx

# --- Readers are bounded -------------------------------------------------
# Each open file keeps a cursor that the kernel steps past with interrupts
# off: 64 may be open at once, a 65th gets EBUSY, and closing one frees a
# place.
pids=
for i in $(seq 64); do
	sleep 60 < $CTX &
	pids="$pids $!"
done
sleep 1
if head -1 $CTX > /tmp/ctx-busy.txt 2>&1; then
	fail "a 65th reader gets EBUSY" "$(cat /tmp/ctx-busy.txt)"
else
	check "a 65th reader gets EBUSY" grep -q 'busy' /tmp/ctx-busy.txt
fi
kill $pids 2>/dev/null
wait $pids 2>/dev/null
check "after the 64 close, a reader opens again" \
	grep -q '^# allocations.ctx v1: contexts 0/8192 (0 bytes), sites 0,' $CTX
