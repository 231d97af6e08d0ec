# Memory allocation profiling: /proc/allocations lists, per allocation
# call site, the bytes and the number of allocations made there and not
# yet freed.  The module cases allocate from one known site
# (alloc_prof_test, tests/modules) and leave the pages to another module
# (alloc_prof_holder), so that the allocating module can be unloaded while
# its pages are live.  Booted with nomem_profiling, the file holds one line
# saying so and nothing is counted; booted with fail_alloc_tag_init=, the
# file is not there and nothing is counted either.

AL=/proc/allocations
HOLDER=/sys/kernel/debug/alloc_prof_holder
HOLDER_MOD=/lib/modules/alloc_prof_holder.ko
TEST_MOD=/lib/modules/alloc_prof_test.ko
SITE="module:alloc_prof_test func:alloc_prof_test_alloc"
OFF_LINE="# memory allocation profiling is off (nomem_profiling)"
OFF_DMESG="alloc_tag: profiling off (nomem_profiling): no page_ext storage"
UNLOAD_MSG="alloc_tag: alloc_prof_test: unloaded with"
COUNTERS=/sys/module/alloc_prof_test/parameters/counters
PROFILING=/sys/module/alloc_prof_test/parameters/profiling
# The error's name with CONFIG_SYMBOLIC_ERRNAME, its number without.
FAIL_DMESG='alloc_tag: cannot register the allocation tags \((-ENOMEM|-12)\): profiling off$'

# awk: bytes(SIZE) turns a printed size ("512B", "4.00KiB", "153MiB") into
# bytes: the lower bound of what it stands for, the kernel truncates.
AWK_BYTES='
function bytes(s,   m) {
	m = 1
	if (s ~ /KiB$/) m = 1024
	else if (s ~ /MiB$/) m = 1024 * 1024
	else if (s ~ /GiB$/) m = 1024 * 1024 * 1024
	else if (s ~ /TiB$/) m = 1024 * 1024 * 1024 * 1024
	else if (s ~ /PiB$/) m = 1024 * 1024 * 1024 * 1024 * 1024
	sub(/[KMGTP]?i?B$/, "", s)
	return s * m
}'

# well_formed FILE: every line is
#   printf("%8s %8llu %s:%u ", size, calls, file, line)
#   ["module:NAME "] "func:NAME\n"
# with a size of three significant digits and a binary unit, no space
# ("512B", "4.00KiB", "12.3MiB", "153MiB"), and calls > 0; and there is at
# least one line.  Prints the offending lines and fails otherwise.
well_formed() {
	awk '
		function bad(why) {
			if (++nbad <= 20)
				printf "line %d: %s: \"%s\"\n", NR, why, $0
		}
		function size_ok(s,   v) {
			if (s ~ /^(0|[1-9][0-9]*)B$/) {
				v = s; sub(/B$/, "", v)
				return v + 0 < 1024
			}
			if (s ~ /^[1-9]\.[0-9][0-9](KiB|MiB|GiB|TiB|PiB)$/)
				return 1
			if (s ~ /^[1-9][0-9]\.[0-9](KiB|MiB|GiB|TiB|PiB)$/)
				return 1
			if (s ~ /^[1-9][0-9][0-9][0-9]?(KiB|MiB|GiB|TiB)$/) {
				v = s; sub(/[KMGT]iB$/, "", v)
				return v + 0 < 1024
			}
			return s ~ /^[1-9][0-9][0-9]+PiB$/
		}
		{
			n++
			if (NF == 4) {
				mod = ""; fn = $4
			} else if (NF == 5) {
				mod = $4; fn = $5
			} else {
				bad("not 4 or 5 fields")
				next
			}
			want = sprintf("%8s %8s %s ", $1, $2, $3)
			if (mod != "")
				want = want mod " "
			want = want fn
			if (!size_ok($1))
				bad("bad size")
			else if ($2 !~ /^[1-9][0-9]*$/)
				bad("bad number of calls")
			else if ($3 !~ /^[^ :]+:[1-9][0-9]*$/)
				bad("bad file:line")
			else if (mod != "" && mod !~ /^module:[A-Za-z0-9_-]+$/)
				bad("bad module:NAME")
			else if (fn !~ /^func:[A-Za-z_][A-Za-z0-9_]*$/)
				bad("bad func:NAME")
			else if ($0 != want)
				bad("not laid out as \"%8s %8llu %s:%u \"")
		}
		END {
			if (!n)
				print "no line"
			if (nbad > 20)
				printf "... %d bad lines in all\n", nbad
			exit !n || nbad
		}' "$1"
}

# site FILE: "SIZE CALLS" of the lines for alloc_prof_test_alloc, one per
# line (more than one when an unloaded instance keeps its tags).
site() {
	grep -F " $SITE" "$1" | awk '{ print $1, $2 }'
}

# unload_msgs: the number of "unloaded with ... live" lines for
# alloc_prof_test in the kernel log.
unload_msgs() {
	dmesg | grep -cF "$UNLOAD_MSG"
}

# counter_bytes: the bytes of the lines of alloc_tag_module_load(), which
# allocates the modules' tag counters (and a small array of them).
counter_bytes() {
	awk "$AWK_BYTES"' / func:alloc_tag_module_load$/ { s += bytes($1) }
		END { print s + 0 }' $AL
}

# must DESC CMD...: check DESC CMD..., and fail when the case failed (for
# the steps the rest of the cases need).
must() {
	_must=$T_FAILED
	check "$@"
	[ "$T_FAILED" = "$_must" ]
}

# holder_fails_write VALUE: writing VALUE to the holder's file fails.
holder_fails_write() {
	! printf '%s' "$1" >$HOLDER 2>/dev/null
}

alloc_prof_format_tests() {
	check "/proc/allocations is 0400" sh -c "ls -l $AL | grep -q '^-r--------'"
	cat $AL >/tmp/al.txt
	check "/proc/allocations is well formed ($(wc -l </tmp/al.txt) sites)" well_formed /tmp/al.txt

	# The largest site, the way sort -h picks it.  BusyBox's sort has no
	# -h: then awk picks it by the same rule (the unit first, then the
	# number), and the case checks that this rule is the order of the
	# bytes the sizes stand for.
	if echo 1K | sort -h >/dev/null 2>&1; then
		how="sort -hr"
		sort -hr /tmp/al.txt | head -n 1 >/tmp/al-top.txt
	else
		how="awk (busybox sort has no -h)"
		awk '
			function unit(s) {
				if (s ~ /KiB$/) return 1
				if (s ~ /MiB$/) return 2
				if (s ~ /GiB$/) return 3
				if (s ~ /TiB$/) return 4
				if (s ~ /PiB$/) return 5
				return 0
			}
			{
				u = unit($1); v = $1; sub(/[KMGTP]?i?B$/, "", v)
				if (NR == 1 || u > bu || (u == bu && v + 0 > bv + 0)) {
					bu = u; bv = v; top = $0
				}
			}
			END { print top }' /tmp/al.txt >/tmp/al-top.txt
	fi
	top=$(cat /tmp/al-top.txt)
	check "the largest site by $how is well formed: $top" well_formed /tmp/al-top.txt
	check "the largest site by $how holds the most bytes" awk "$AWK_BYTES"'
		NR == FNR { top = bytes($1); next }
		bytes($1) > top { print "larger:", $0; bad = 1 }
		END { exit bad }' /tmp/al-top.txt /tmp/al.txt

	alloc_prof_sum_tests
	alloc_prof_allocator_tests
}

# Slab objects, per-CPU areas and vmalloc areas are charged to their call
# sites: sites that hold memory after every boot.
#   alloc_slab_obj_exts: the slabs' object extension vectors (kmalloc'd);
#   alloc_kmem_cache_cpus: SLUB's per-CPU data of each cache (alloc_percpu);
#   kmem_cache_alloc of the kmem_cache cache (create_cache: a slab object).
# sysrq-m prints show_mem(), which ends with the ten largest sites.
alloc_prof_allocator_tests() {
	for f in alloc_slab_obj_exts alloc_kmem_cache_cpus create_cache; do
		check "a site in $f holds memory" grep -q " func:$f\$" /tmp/al.txt
	done
	awk '/ func:alloc_kmem_cache_cpus$/ { print "percpu site:", $0 }' /tmp/al.txt

	if [ ! -w /proc/sysrq-trigger ]; then
		skip "sysrq-m lists the largest sites" "no /proc/sysrq-trigger (CONFIG_MAGIC_SYSRQ)"
		return
	fi
	n=$(dmesg | wc -l)
	echo m >/proc/sysrq-trigger
	dmesg | tail -n +$((n + 1)) >/tmp/al-sysrq.txt
	check "sysrq-m: show_mem() prints 'alloc_tag: largest allocation sites:'" \
		grep -q 'alloc_tag: largest allocation sites:$' /tmp/al-sysrq.txt
	sed -n 's/^\[[ 0-9.]*\] alloc_tag: \( *[0-9.]*[KMGTP]\{0,1\}i\{0,1\}B .*\)$/\1/p' \
		/tmp/al-sysrq.txt >/tmp/al-sysrq-sites.txt
	cat /tmp/al-sysrq-sites.txt
	expect_eq "sysrq-m: ten sites" "$(wc -l </tmp/al-sysrq-sites.txt)" 10
	check "sysrq-m: the sites are in the format of $AL" well_formed /tmp/al-sysrq-sites.txt
	check "sysrq-m: largest first" awk "$AWK_BYTES"'
		NR > 1 && bytes($1) > prev { exit 1 } { prev = bytes($1) }' /tmp/al-sysrq-sites.txt
}

# The sum of all sites against the pages in use: what is allocated, less
# the pages on the per-CPU free lists (MemFree counts them as used).
#
# Measured on the x86_64 guest of make check (1 GiB, page_owner=on), with
# this suite alone and after all the others: the sites add up to 0.92 of
# the pages in use (43.0 of 46.6 MiB).  What no tag holds is the memory
# allocated before page_ext existed: the pages dmesg counts as marked
# untracked (752, 2.9 MiB), and about 180 pages more, which it does not
# count: only the first page of an early block is marked (the others have
# no reference count), but the rest of an early high-order block is in use
# too (early slabs, up to order 3: Slab in /proc/meminfo is ~600 KiB above
# the alloc_slab_page sites).  The sizes, truncated to three significant
# digits, under-report by less than 1% (at most 57 pages here), and the
# pages in use moved by up to 64 pages while the files were read.  Hence,
# in KiB, with EARLY the pages dmesg counts:
#   tagged <= used + 1 MiB: the tags never hold more than is allocated;
#     1 MiB (256 pages, 4 times what moved) for the reads;
#   used - tagged <= 4 * EARLY + used / 100 + 2 MiB: the early pages, the
#     truncation, and 512 pages for the rest of the early blocks and the
#     reads (~240 measured).
# A regression that leaves any real user of memory uncharged (the slab
# pages: 7 MiB, the stack depot: 16 MiB, the page cache) goes past that.
# Slab objects and per-CPU areas are charged to their sites as well as the
# pages that hold them to the allocators' own sites (alloc_slab_page,
# pcpu_alloc_pages): the upper bound leaves those two out.
alloc_prof_sum_tests() {
	early=$(dmesg | sed -n 's/.*alloc_tag: \([0-9]*\) pages allocated before page_ext marked untracked$/\1/p' | tail -n 1)
	if [ -z "$early" ]; then
		fail "dmesg: alloc_tag: N pages allocated before page_ext marked untracked" "no such line"
		return
	fi
	pass "dmesg: $early pages allocated before page_ext marked untracked"

	# Fold the per-CPU vmstat deltas into MemFree first.
	[ -w /proc/sys/vm/stat_refresh ] && echo 1 >/proc/sys/vm/stat_refresh
	cat $AL >/tmp/al-sum.txt
	pcp=$(awk '/^ *count:/ { s += $2 } END { print s + 0 }' /proc/zoneinfo)
	used=$(awk -v pcp="$pcp" '/^MemTotal:/ { t = $2 } /^MemFree:/ { f = $2 }
		END { print t - f - pcp * 4 }' /proc/meminfo)
	tagged=$(awk "$AWK_BYTES"' { s += bytes($1) } END { printf "%d\n", s / 1024 }' /tmp/al-sum.txt)
	# Without the allocators' own pages (slabs, per-CPU chunks), whose
	# objects are charged to their own sites: no memory counted twice.
	once=$(awk "$AWK_BYTES"' !/ func:(alloc_slab_page|pcpu_alloc_pages)$/ { s += bytes($1) }
		END { printf "%d\n", s / 1024 }' /tmp/al-sum.txt)
	ratio=$(awk -v a="$once" -v b="$used" 'BEGIN { printf "%.3f\n", a / b }')
	short=$((used - tagged))
	max=$((4 * early + used / 100 + 2048))
	check "the sites, less slab and per-CPU chunk pages, hold ${once} KiB, no more than the ${used} KiB in use (ratio $ratio) + 1 MiB" \
		test "$once" -le $((used + 1024))
	# All lines, overlapping ones included: at most the early pages short
	# of what is in use (below zero when the overlap exceeds them).
	check "in use less all lines: ${short} KiB, at most the early pages + 1% + 2 MiB ($max KiB)" \
		test "$short" -le "$max"
}

alloc_prof_module_tests() {
	if [ ! -e $HOLDER_MOD ] || [ ! -e $TEST_MOD ]; then
		skip "alloc_prof_test module cases" "no alloc_prof_test/alloc_prof_holder module in this guest"
		return
	fi
	expect_eq "no alloc_prof_test_alloc line before the module loads" "$(site $AL)" ""
	must "insmod alloc_prof_holder" insmod $HOLDER_MOD || return
	expect_eq "the holder holds nothing" "$(cat $HOLDER)" 0
	for v in frees "free 1" xfree; do
		check "holder write '$v' fails" holder_fails_write "$v"
	done

	n0=$(unload_msgs)
	c0=$(counter_bytes)
	must "insmod alloc_prof_test nr=16" insmod $TEST_MOD nr=16 || return
	expect_eq "the holder holds 16 allocations" "$(cat $HOLDER)" 16
	expect_eq "profiling is on for alloc_prof_test" "$(cat $PROFILING)" Y
	expect_eq "alloc_prof_test's tags have counters" "$(cat $COUNTERS)" Y
	# Its counters: 16 bytes per tag and possible CPU (it has a few tags),
	# not a chunk of 1024 tags (16 KiB per CPU).
	c1=$(counter_bytes)
	check "alloc_prof_test's tag counters take $((c1 - c0)) bytes: more than 0, less than 4 KiB" \
		test $((c1 - c0)) -gt 0 -a $((c1 - c0)) -lt 4096
	expect_eq "16 order-0 pages: alloc_prof_test_alloc shows 64.0KiB in 16 calls" \
		"$(site $AL)" "64.0KiB 16"
	check "rmmod alloc_prof_test with its pages live" rmmod alloc_prof_test
	expect_eq "the unload printed one line" "$(unload_msgs)" $((n0 + 1))
	check "it reads: 65536 bytes in 16 allocations live" sh -c \
		"dmesg | grep -qF '$UNLOAD_MSG 65536 bytes in 16 allocations live; its memory is kept for their tags'"
	expect_eq "after rmmod the line stays, same counts" "$(site $AL)" "64.0KiB 16"
	check "it still reads module:alloc_prof_test" grep -qF " $SITE" $AL
	echo free >$HOLDER
	expect_eq "the holder freed everything" "$(cat $HOLDER)" 0
	expect_eq "the pages freed: the line is gone" "$(site $AL)" ""
	check "rmmod alloc_prof_holder" rmmod alloc_prof_holder

	# Order 2, and a second instance of the module while the first one's
	# tags are kept: each has its own line.  Unloading the holder frees
	# what it holds.
	must "insmod alloc_prof_holder again" insmod $HOLDER_MOD || return
	must "insmod alloc_prof_test nr=4 order=2" insmod $TEST_MOD nr=4 order=2 || return
	expect_eq "4 order-2 blocks: 64.0KiB in 4 calls" "$(site $AL)" "64.0KiB 4"
	n0=$(unload_msgs)
	check "rmmod alloc_prof_test with its blocks live" rmmod alloc_prof_test
	expect_eq "the unload printed one line" "$(unload_msgs)" $((n0 + 1))
	check "it reads: 65536 bytes in 4 allocations live" sh -c \
		"dmesg | grep -qF '$UNLOAD_MSG 65536 bytes in 4 allocations live; its memory is kept for their tags'"
	expect_eq "after rmmod the line stays, same counts" "$(site $AL)" "64.0KiB 4"
	must "insmod alloc_prof_test nr=3 again" insmod $TEST_MOD nr=3 || return
	expect_eq "the old and the new instance each have their line" \
		"$(site $AL | sort | tr '\n' ,)" "12.0KiB 3,64.0KiB 4,"
	check "rmmod alloc_prof_test (second instance)" rmmod alloc_prof_test
	expect_eq "the holder holds 7 allocations" "$(cat $HOLDER)" 7
	check "rmmod alloc_prof_holder with 7 allocations held" rmmod alloc_prof_holder
	expect_eq "the holder's exit freed them: no line left" "$(site $AL)" ""
	cat $AL >/tmp/al-end.txt
	check "/proc/allocations is still well formed" well_formed /tmp/al-end.txt
}

# Booted with nomem_profiling: one line, nothing counted.
alloc_prof_off_tests() {
	check "/proc/allocations is 0400" sh -c "ls -l $AL | grep -q '^-r--------'"
	cat $AL >/tmp/al.txt
	expect_eq "/proc/allocations is the one off line" "$(cat /tmp/al.txt)" "$OFF_LINE"
	expect_eq "... and one line only" "$(wc -l </tmp/al.txt)" 1
	check "dmesg: $OFF_DMESG" sh -c "dmesg | grep -qF '$OFF_DMESG'"
	check "no early pages marked untracked" sh -c \
		"! dmesg | grep -q 'pages allocated before page_ext marked untracked'"

	if [ ! -e $HOLDER_MOD ] || [ ! -e $TEST_MOD ]; then
		skip "alloc_prof_test module cases" "no alloc_prof_test/alloc_prof_holder module in this guest"
		return
	fi
	n0=$(unload_msgs)
	must "insmod alloc_prof_holder" insmod $HOLDER_MOD || return
	must "insmod alloc_prof_test nr=16" insmod $TEST_MOD nr=16 || return
	expect_eq "the holder holds 16 allocations" "$(cat $HOLDER)" 16
	expect_eq "profiling is off for alloc_prof_test" "$(cat $PROFILING)" N
	expect_eq "profiling off: alloc_prof_test's tags got no counters" "$(cat $COUNTERS)" N
	expect_eq "with the modules' pages live: still the one off line" "$(cat $AL)" "$OFF_LINE"
	check "rmmod alloc_prof_test" rmmod alloc_prof_test
	expect_eq "nothing was counted: the unload printed nothing" "$(unload_msgs)" "$n0"
	echo free >$HOLDER
	expect_eq "the holder freed everything" "$(cat $HOLDER)" 0
	check "rmmod alloc_prof_holder" rmmod alloc_prof_holder
	expect_eq "after the modules: still the one off line" "$(cat $AL)" "$OFF_LINE"
}

# Booted with fail_alloc_tag_init= (fault injection): alloc_tag_init()
# failed, so profiling must be off, with one message, and modules loaded
# later must get no counters and not be charged (with the key left on,
# their first allocation dereferenced a NULL counter).
alloc_prof_failed_init_tests() {
	expect_eq "dmesg: one 'cannot register the allocation tags (-ENOMEM): profiling off'" \
		"$(dmesg | grep -cE "$FAIL_DMESG")" 1
	check "no /proc/allocations" test ! -e $AL
	if [ ! -e $HOLDER_MOD ] || [ ! -e $TEST_MOD ]; then
		skip "alloc_prof_test module cases" "no alloc_prof_test/alloc_prof_holder module in this guest"
		return
	fi
	n0=$(unload_msgs)
	must "insmod alloc_prof_holder" insmod $HOLDER_MOD || return
	must "insmod alloc_prof_test nr=16 order=1" insmod $TEST_MOD nr=16 order=1 || return
	expect_eq "the holder holds 16 allocations" "$(cat $HOLDER)" 16
	expect_eq "profiling is off for alloc_prof_test" "$(cat $PROFILING)" N
	expect_eq "alloc_prof_test's tags got no counters" "$(cat $COUNTERS)" N
	check "rmmod alloc_prof_test" rmmod alloc_prof_test
	expect_eq "nothing was counted: the unload printed nothing" "$(unload_msgs)" "$n0"
	echo free >$HOLDER
	expect_eq "the holder freed everything" "$(cat $HOLDER)" 0
	check "rmmod alloc_prof_holder" rmmod alloc_prof_holder
}

if grep -q ' fail_alloc_tag_init=' /proc/cmdline; then
	alloc_prof_failed_init_tests
elif [ ! -e $AL ]; then
	skip "alloc-profiling" "kernel built without CONFIG_MEM_ALLOC_PROFILING"
elif cmdline_has nomem_profiling; then
	alloc_prof_off_tests
else
	alloc_prof_format_tests
	alloc_prof_module_tests
fi
