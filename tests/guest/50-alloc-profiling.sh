# Memory allocation profiling: /proc/allocations lists, per allocation
# call site, the bytes and the number of allocations made there and not
# yet freed.  The module cases allocate from one known site
# (alloc_prof_test, tests/modules) and leave the pages to another module
# (alloc_prof_holder), so that the allocating module can be unloaded while
# its pages are live.  Booted with nomem_profiling, the file holds its
# header and one line saying so and nothing is counted; booted with
# fail_alloc_tag_init=, the file is not there and nothing is counted either.

AL=/proc/allocations
AI=/proc/allocinfo
AI_HEADER="allocinfo - version: 2.0
#     <size>  <calls> <tag info>"
HOLDER=/sys/kernel/debug/alloc_prof_holder
HOLDER_MOD=/lib/modules/alloc_prof_holder.ko
TEST_MOD=/lib/modules/alloc_prof_test.ko
SITE="module:alloc_prof_test func:alloc_prof_test_alloc"
KEPT="module:alloc_prof_test state:unloaded func:alloc_prof_test_alloc"
HEADER="# allocations v1: <size> <calls> <file>:<line> [module:<name>] [state:unloaded] func:<function>"
OFF_LINE="# memory allocation profiling is off (nomem_profiling)"
OFF_TEXT="$HEADER
$OFF_LINE"
OFF_DMESG="alloc_tag: profiling off (nomem_profiling): no page_ext storage"
# Where the kernel keeps the tags of pages ("mm: keep the allocation tag
# of a page in spare page flags"): the index in spare page flags where the
# configuration leaves room, page_ext otherwise.
FLAGS_DMESG="alloc_tag: page tags in page flags: "
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

# well_formed FILE: every line but the comments (starting with "#") is
#   printf("%8s %8llu %s:%u ", size, calls, file, line)
#   ["module:NAME " ["state:unloaded "]] "func:NAME\n"
# with a size of three significant digits and a binary unit, no space
# ("512B", "4.00KiB", "12.3MiB", "153MiB"), and calls > 0; and there is at
# least one such line.  Prints the offending lines and fails otherwise.
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
		/^#/ { next }
		{
			n++
			st = ""
			if (NF == 4) {
				mod = ""; fn = $4
			} else if (NF == 5) {
				mod = $4; fn = $5
			} else if (NF == 6) {
				mod = $4; st = $5; fn = $6
			} else {
				bad("not 4, 5 or 6 fields")
				next
			}
			want = sprintf("%8s %8s %s ", $1, $2, $3)
			if (mod != "")
				want = want mod " "
			if (st != "")
				want = want st " "
			want = want fn
			if (!size_ok($1))
				bad("bad size")
			else if ($2 !~ /^[1-9][0-9]*$/)
				bad("bad number of calls")
			else if ($3 !~ /^[^ :]+:[1-9][0-9]*$/)
				bad("bad file:line")
			else if (mod != "" && mod !~ /^module:[A-Za-z0-9_-]+$/)
				bad("bad module:NAME")
			else if (st != "" && st != "state:unloaded")
				bad("bad state:unloaded")
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

# allocinfo_well_formed FILE: FILE is /proc/allocinfo in mainline's format
# version 2.0: the two header lines, then for every tag
#   printf("%12lli %8llu %s:%u ", bytes, calls, file, line)
#   ["[" module "] "] "func:" function [" accurate:no"] " \n"
# (bytes may be negative, calls not), and at least one line with bytes.
allocinfo_well_formed() {
	awk -v h1="allocinfo - version: 2.0" -v h2="#     <size>  <calls> <tag info>" '
		function bad(why) {
			if (++nbad <= 20)
				printf "line %d: %s: \"%s\"\n", NR, why, $0
		}
		NR == 1 { if ($0 != h1) bad("not the first header line"); next }
		NR == 2 { if ($0 != h2) bad("not the second header line"); next }
		{
			n++
			if ($0 !~ /^ *-?[0-9]+ +[0-9]+ [^ :]+:[0-9]+ (\[[A-Za-z0-9_-]+\] )?func:[A-Za-z_][A-Za-z0-9_.]*( accurate:no)? $/)
				bad("not \"<bytes> <calls> <file>:<line> [[<module>] ]func:<function> [accurate:no ]\"")
			else if (substr($0, 1, 22) != sprintf("%12s %8s ", $1, $2))
				bad("not laid out as \"%12lli %8llu \"")
			else if ($1 + 0 > 0)
				used++
		}
		END {
			if (NR < 2)
				print "no header"
			if (!used)
				print "no line with bytes"
			if (nbad > 20)
				printf "... %d bad lines in all\n", nbad
			exit NR < 2 || !used || nbad
		}' "$1"
}

# ai_site: "BYTES CALLS" of the /proc/allocinfo lines of
# alloc_prof_test_alloc, one per module instance, sorted; with "nonzero",
# only the lines with bytes.
ai_site() {
	awk -v nz="$1" '/ \[alloc_prof_test\] func:alloc_prof_test_alloc $/ &&
		(nz == "" || $1 != 0) { print $1, $2 }' $AI | sort | tr '\n' ,
}

# site FILE: "SIZE CALLS" of the lines for alloc_prof_test_alloc, one per
# line (more than one when an unloaded instance keeps its tags).
site() {
	grep -E " module:alloc_prof_test (state:unloaded )?func:alloc_prof_test_alloc\$" "$1" |
		awk '{ print $1, $2 }'
}

# kept FILE: "SIZE CALLS" of the kept (unloaded) instances' line.
kept() {
	grep -F " $KEPT" "$1" | awk '{ print $1, $2 }'
}

# unique_sites FILE: no two site lines share file:line, module, state and
# function (everything but the two counts).
unique_sites() {
	awk '!/^#/ { $1 = ""; $2 = ""; if (seen[$0]++) { print "twice:", $0; bad = 1 } }
		END { exit bad }' "$1"
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
	expect_eq "the first line names the format and its fields" "$(head -n 1 /tmp/al.txt)" "$HEADER"
	expect_eq "no other comment line" "$(grep -c '^#' /tmp/al.txt)" 1
	check "/proc/allocations is well formed ($(wc -l </tmp/al.txt) lines)" well_formed /tmp/al.txt
	check "no two lines for one site (file:line, module, state, function)" unique_sites /tmp/al.txt
	# The kernel orders the lines by file, line, function and module.
	check "the lines are sorted by file:line" awk '
		!/^#/ { split($3, a, ":")
			if (n++ && (a[1] < f || (a[1] == f && a[2] + 0 < l))) {
				print "out of order:", $0; exit 1 }
			f = a[1]; l = a[2] + 0 }' /tmp/al.txt
	alloc_prof_sort_tests

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
			/^#/ { next }
			{
				u = unit($1); v = $1; sub(/[KMGTP]?i?B$/, "", v)
				if (!seen++ || u > bu || (u == bu && v + 0 > bv + 0)) {
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

	alloc_prof_allocinfo_tests
	alloc_prof_allocinfo_ioctl_tests
	alloc_prof_sum_tests
	alloc_prof_allocator_tests
	alloc_prof_percpu_tests
}

# /proc/allocinfo: mainline's format, a line for every tag, the same
# counts as /proc/allocations, and the documented one-liner.
alloc_prof_allocinfo_tests() {
	check "$AI is 0400" sh -c "ls -l $AI | grep -q '^-r--------'"
	cat $AI >/tmp/ai.txt
	check "$AI is in mainline's format 1.0 ($(wc -l </tmp/ai.txt) lines)" \
		allocinfo_well_formed /tmp/ai.txt
	expect_eq "$AI has no comment line but its column line" "$(grep -c '^#' /tmp/ai.txt)" 1
	# Every site of /proc/allocations has lines here, in bytes at least
	# its truncated size (both read while the system allocates: 1 MiB
	# of slack each way).
	check "each /proc/allocations site is in $AI with about its bytes" awk "$AWK_BYTES"'
		FNR == NR {
			if (FNR > 2) {
				sub(/ accurate:no $/, " ")
				ai[$3 " " (NF == 5 ? $4 " " : "") $NF] += $1
			}
			next
		}
		/^#/ { next }
		{
			mod = ""
			for (i = 4; i < NF; i++)
				if ($i ~ /^module:/) mod = "[" substr($i, 8) "] "
			k = $3 " " mod $NF
			if (!(k in ai)) { print "not in allocinfo:", $0; bad = 1; next }
			d = ai[k] - bytes($1)
			if (d < -1048576 || d > 1048576 + bytes($1) / 100) {
				print "allocinfo has", ai[k], "bytes for:", $0; bad = 1 }
		}
		END { exit bad }' /tmp/ai.txt /tmp/al.txt
	sort -rn /tmp/ai.txt | head -n 1 >/tmp/ai-top.txt
	echo "sort -rn $AI | head -n 1: $(cat /tmp/ai-top.txt)"
	check "sort -rn $AI: the first line holds the most bytes" awk '
		NR == FNR { top = $1; next }
		FNR > 2 && $1 + 0 > top + 0 { print "larger:", $0; bad = 1 }
		END { exit bad }' /tmp/ai-top.txt /tmp/ai.txt
}

# Mainline's selftest of the /proc/allocinfo ioctl()s, built from 7.3's
# source against 7.3's header (scripts/initramfs.sh): its four filter
# cases (file, function, size, line) each compare the ioctl()s' sites with
# the file's lines, so all four must pass, none skipped.  And which lines
# say accurate:no: a few of vmlinux (SLUB's bootstrap, whose objects
# predate the caches their vectors come from), never a module's.
AIT=/bin/allocinfo_ioctl_test-73
alloc_prof_allocinfo_ioctl_tests() {
	local n
	if [ ! -x $AIT ]; then
		skip "mainline's allocinfo_ioctl_test" "not in this guest (x86_64 only)"
	else
		$AIT >/tmp/ait.txt 2>&1
		expect_eq "allocinfo_ioctl_test exits 0" "$?" 0
		for t in filename function size lineno; do
			check "allocinfo_ioctl_test: test_${t}_filter passes" \
				grep -qE "^ok [0-9]+ test_${t}_filter\$" /tmp/ait.txt
		done
		check "allocinfo_ioctl_test: 4 passed, none failed or skipped" \
			grep -qE "^# Totals: pass:4 fail:0 xfail:0 xpass:0 skip:0 error:0" /tmp/ait.txt
		# Its own output, as diagnostics (its "ok" lines are not ours).
		sed 's/^/    # /' /tmp/ait.txt
	fi
	# Bad and edge input to the ioctl()s (tests/tools/allocinfo_bad.c).
	if [ -x /bin/allocinfo_bad ]; then
		expect_eq "ioctl()s: bad mask and min > max EINVAL, past the end ENOENT, unknown command ENOTTY" \
			"$(/bin/allocinfo_bad | tr '\n' ,)" \
			"content_id ok,get_at_bad_mask EINVAL,get_at_min_gt_max EINVAL,get_at_far ENOENT,get_at_0 ok,get_next ok,unknown_cmd ENOTTY,"
	fi
	grep ' accurate:no $' $AI >/tmp/ai-inaccurate.txt
	n=$(grep -c . /tmp/ai-inaccurate.txt)
	echo "$AI: $n lines accurate:no"
	sed 's/^/    # /' /tmp/ai-inaccurate.txt | head -n 20
	# Modules are loaded after slab and page_ext are set up, and get a
	# page tag index when one is free (always, in these guests).
	expect_eq "no module's line reads accurate:no" \
		"$(grep -c '\] func:' /tmp/ai-inaccurate.txt)" 0
}

# sort -hr with GNU coreutils (the x86_64 guests carry its sort as
# /usr/bin/sort; busybox's has no -h): the header sorts last, the first
# line holds the most bytes.
alloc_prof_sort_tests() {
	if [ ! -x /usr/bin/sort ] || ! /usr/bin/sort --version 2>/dev/null | grep -q coreutils; then
		skip "coreutils sort -hr /proc/allocations" "no coreutils sort in this guest"
		return
	fi
	/usr/bin/sort -hr /tmp/al.txt >/tmp/al-sorted.txt
	expect_eq "coreutils sort -hr: the header line sorts last" \
		"$(tail -n 1 /tmp/al-sorted.txt)" "$HEADER"
	check "coreutils sort -hr: sizes never grow down the list" awk "$AWK_BYTES"'
		/^#/ { next }
		NR > 1 && bytes($1) > prev { print "larger than the line before:", $0; exit 1 }
		{ prev = bytes($1) }' /tmp/al-sorted.txt
	echo "sort -hr $AL | head -n 5:"
	head -n 5 /tmp/al-sorted.txt
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

# Per-CPU areas keep their tags in an xarray per chunk: memory for the
# areas allocated, not for the chunk's size.  /sys/kernel/debug/percpu_stats
# (CONFIG_PERCPU_STATS) prints per chunk the areas charged (tagged_areas)
# and the bytes of the xarray's nodes (tag_bytes), and the areas left
# uncharged for want of a node (tags_lost).  A chunk's charged areas are
# some of its allocations (nr_alloc also counts what was allocated before
# the first early initcall, uncharged).  tests/pcpu-tags.sh adds them up
# and says what a vector per chunk, as before, took.  Measured: the x86_64
# guest (CONFIG_BASE_SMALL: 192-byte nodes of 16 slots) has 64 areas
# charged, their tags in 4416 bytes, against 90112 bytes of vectors;
# x86_64 defconfig (576-byte nodes of 64 slots) 232 areas in 32256 bytes
# (139 per area), against 90112.  The cases hold them below what the
# vectors took, and to what makes the memory follow the areas: no more
# than two nodes per area (its leaf and as much again above), with the
# node size the slab cache of xarray nodes reports (576 bytes if none).
PCPU_STATS=/sys/kernel/debug/percpu_stats
alloc_prof_percpu_tests() {
	if [ ! -r $PCPU_STATS ]; then
		skip "per-CPU tags: memory for the charged areas" "no $PCPU_STATS (CONFIG_PERCPU_STATS)"
		return
	fi
	. /tests/pcpu-tags.sh
	cat $PCPU_STATS >/tmp/pcpu-stats.txt
	expect_eq "per-CPU tags: no area left uncharged for want of memory (tags_lost)" \
		"$(awk '$1 == "tags_lost" { print $3 }' /tmp/pcpu-stats.txt)" 0
	pcpu_tags /tmp/pcpu-stats.txt >/tmp/pcpu-tags.txt
	cat /tmp/pcpu-tags.txt
	for k in chunks areas tag_bytes vector_bytes bad; do
		eval "$k=$(sed -n "s/^percpu-tags: .*\<$k=\([0-9]*\).*/\1/p" /tmp/pcpu-tags.txt)"
	done
	echo "per-CPU tags: ${areas:-?} areas charged in ${chunks:-?} chunks; their tags take ${tag_bytes:-?} bytes, a vector per chunk took ${vector_bytes:-?}"
	expect_eq "per-CPU tags: no chunk has more areas charged than allocated" "${bad:-?}" 0
	check "per-CPU tags: areas are charged (${areas:-none})" [ "${areas:-0}" -gt 0 ]
	node=$(cat /sys/kernel/slab/radix_tree_node/object_size 2>/dev/null ||
		awk '$1 == "radix_tree_node" { print $4 }' /proc/slabinfo 2>/dev/null)
	node=${node:-576}
	check "per-CPU tags: at most two ${node}-byte nodes per charged area" \
		[ "${tag_bytes:-1}" -le $((2 * node * ${areas:-0})) ]
	check "per-CPU tags: less than the vectors per chunk took" \
		[ "${tag_bytes:-1}" -lt "${vector_bytes:-0}" ]
}

# A per-CPU area's tag store that fails for want of an xarray node, after
# the store linked the nodes it got before that: those nodes, with no
# entry below them, are pruned at once (percpu_stats' tags_pruned counts
# the prunes), so that no chunk keeps a node without an entry
# (tag_empty_nodes).  Fault injection (failslab, for the writing task
# only) lets each store have one radix_tree_node and fails the next: a
# store that needs two nodes (a new 16 KiB region of a chunk: a node for
# the region and a leaf) fails half way.  Each of 64 4-KiB areas is
# allocated with a budget of one node.  The guest boots with
# slub_debug=A,radix_tree_node: the cache's failslab mark, read-only at
# run time.
FAILSLAB=/sys/kernel/debug/failslab
PCPU_PARAM=/sys/module/alloc_prof_test/parameters/percpu
alloc_prof_pcpu_fault_tests() {
	if [ ! -d $FAILSLAB ] || [ ! -r $PCPU_STATS ] ||
	   [ "$(cat /sys/kernel/slab/radix_tree_node/failslab 2>/dev/null)" != 1 ]; then
		skip "per-CPU tag stores failing half way leave no empty node" \
			"no failslab, no failslab mark on radix_tree_node or no $PCPU_STATS"
		return
	fi
	if [ ! -e $HOLDER_MOD ] || [ ! -e $TEST_MOD ]; then
		skip "per-CPU tag stores failing half way leave no empty node" \
			"no alloc_prof_test/alloc_prof_holder module in this guest"
		return
	fi
	must "insmod alloc_prof_holder (per-CPU faults)" insmod $HOLDER_MOD || return
	must "insmod alloc_prof_test nr=0 (per-CPU faults)" insmod $TEST_MOD nr=0 || return
	node=$(cat /sys/kernel/slab/radix_tree_node/object_size)
	pcpu_field() { awk -v k="$1" '$1 == k { print $3 }' $PCPU_STATS; }
	lost0=$(pcpu_field tags_lost)
	pruned0=$(pcpu_field tags_pruned)
	echo Y >$FAILSLAB/cache-filter
	echo Y >$FAILSLAB/task-filter
	echo N >$FAILSLAB/ignore-gfp-wait
	echo 0 >$FAILSLAB/verbose
	echo 1 >$FAILSLAB/interval
	echo 100 >$FAILSLAB/probability
	echo -1 >$FAILSLAB/times
	i=0
	while [ $i -lt 64 ]; do
		echo $((node + 1)) >$FAILSLAB/space
		sh -c "echo 1 >/proc/self/make-it-fail && echo 1 >$PCPU_PARAM" || break
		i=$((i + 1))
	done
	echo 0 >$FAILSLAB/probability
	expect_eq "64 per-CPU areas allocated under fault injection" "$(cat $PCPU_PARAM)" 64
	lost=$(($(pcpu_field tags_lost) - lost0))
	pruned=$(($(pcpu_field tags_pruned) - pruned0))
	echo "per-CPU faults: $lost tag stores failed, $pruned left nodes that were pruned"
	check "some tag stores failed for want of a node ($lost)" test "$lost" -gt 0
	check "some failed half way and were pruned ($pruned)" test "$pruned" -gt 0
	expect_eq "no chunk has a node without an entry below it" \
		"$(awk '$1 == "tag_empty_nodes" { s += $3 } END { print s + 0 }' $PCPU_STATS)" 0
	echo 0 >$PCPU_PARAM
	expect_eq "the areas freed: still no node without an entry" \
		"$(awk '$1 == "tag_empty_nodes" { s += $3 } END { print s + 0 }' $PCPU_STATS)" 0
	check "rmmod alloc_prof_test (per-CPU faults)" rmmod alloc_prof_test
	check "rmmod alloc_prof_holder (per-CPU faults)" rmmod alloc_prof_holder
}

# The sum of all sites against the pages in use: what is allocated, less
# the pages on the per-CPU free lists (MemFree counts them as used).
#
# Measured on the x86_64 guest of make check (1 GiB, page_owner=on), with
# page tags in page_ext (before the series kept them in page flags, where
# no page is early: EARLY is 0 and the sites hold 0.96-0.97 of the pages
# in use), with this suite alone and after all the others: 0.92 of
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
# pages that hold them to the allocators' own sites (SLUB's
# alloc_slab_page, SLAB's kmem_getpages, pcpu_alloc_pages): the upper bound
# leaves those out.
alloc_prof_sum_tests() {
	early=$(dmesg | sed -n 's/.*alloc_tag: \([0-9]*\) pages allocated before page_ext marked untracked$/\1/p' | tail -n 1)
	if dmesg | grep -qF "$FLAGS_DMESG"; then
		# Tags in page flags: indexed before the first page is
		# handed out, no page goes uncharged for being early.
		if [ -n "$early" ]; then
			fail "dmesg: page tags in page flags, no early pages" "$early marked untracked"
			return
		fi
		early=0
		pass "dmesg: page tags in page flags, no early pages"
	elif [ -z "$early" ]; then
		fail "dmesg: alloc_tag: N pages allocated before page_ext marked untracked" "no such line"
		return
	else
		pass "dmesg: $early pages allocated before page_ext marked untracked"
	fi

	# Fold the per-CPU vmstat deltas into MemFree first.
	[ -w /proc/sys/vm/stat_refresh ] && echo 1 >/proc/sys/vm/stat_refresh
	cat $AL >/tmp/al-sum.txt
	pcp=$(awk '/^ *count:/ { s += $2 } END { print s + 0 }' /proc/zoneinfo)
	used=$(awk -v pcp="$pcp" '/^MemTotal:/ { t = $2 } /^MemFree:/ { f = $2 }
		END { print t - f - pcp * 4 }' /proc/meminfo)
	tagged=$(awk "$AWK_BYTES"' { s += bytes($1) } END { printf "%d\n", s / 1024 }' /tmp/al-sum.txt)
	# Without the allocators' own pages (slabs: SLUB's alloc_slab_page(),
	# SLAB's kmem_getpages(); per-CPU chunks), whose objects are charged
	# to their own sites: no memory counted twice.
	once=$(awk "$AWK_BYTES"' !/ func:(alloc_slab_page|kmem_getpages|pcpu_alloc_pages)$/ { s += bytes($1) }
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
	expect_eq "$AI: exactly 65536 bytes in 16 calls, [alloc_prof_test]" "$(ai_site)" "65536 16,"
	check "rmmod alloc_prof_test with its pages live" rmmod alloc_prof_test
	expect_eq "the unload printed one line" "$(unload_msgs)" $((n0 + 1))
	check "it reads: 65536 bytes in 16 allocations live" sh -c \
		"dmesg | grep -qF '$UNLOAD_MSG 65536 bytes in 16 allocations live; its memory is kept for their tags'"
	expect_eq "after rmmod the line stays, same counts" "$(site $AL)" "64.0KiB 16"
	expect_eq "it reads module:alloc_prof_test state:unloaded" "$(kept $AL)" "64.0KiB 16"
	expect_eq "$AI: after rmmod, the unloaded module's line is gone" "$(ai_site)" ""
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
	expect_eq "the old instance's line is the one marked state:unloaded" "$(kept $AL)" "64.0KiB 4"
	expect_eq "$AI: the loaded instance's 3 pages only, not the unloaded one's" \
		"$(ai_site nonzero)" "12288 3,"
	cat $AI >/tmp/ai-two.txt
	check "$AI is well formed with an unloaded instance" allocinfo_well_formed /tmp/ai-two.txt
	cat $AL >/tmp/al-two.txt
	check "no two lines for one site with both instances" unique_sites /tmp/al-two.txt
	check "rmmod alloc_prof_test (second instance)" rmmod alloc_prof_test
	expect_eq "the holder holds 7 allocations" "$(cat $HOLDER)" 7
	expect_eq "both instances unloaded: one state:unloaded line, their sum" \
		"$(site $AL)" "76.0KiB 7"
	check "rmmod alloc_prof_holder with 7 allocations held" rmmod alloc_prof_holder
	expect_eq "the holder's exit freed them: no line left" "$(site $AL)" ""
	cat $AL >/tmp/al-end.txt
	check "/proc/allocations is still well formed" well_formed /tmp/al-end.txt
}

# Page tag indices in page flags are reused: a module unloaded with
# nothing live frees its indices, and loading it again gets the same ones
# (the lowest free), however many times it is loaded (without reuse each
# load took new ones, until none was left and the pages of later modules
# went uncounted).
IDX=/sys/module/alloc_prof_test/parameters/page_idx
alloc_prof_index_tests() {
	if ! dmesg | grep -qF "$FLAGS_DMESG"; then
		skip "page tag indices are reused" "page tags in page_ext"
		return
	fi
	if [ ! -e $HOLDER_MOD ] || [ ! -e $TEST_MOD ]; then
		skip "page tag indices are reused" "no alloc_prof_test/alloc_prof_holder module in this guest"
		return
	fi
	must "insmod alloc_prof_holder (indices)" insmod $HOLDER_MOD || return
	must "insmod alloc_prof_test nr=0" insmod $TEST_MOD nr=0 || return
	first=$(cat $IDX)
	check "alloc_prof_test's tag has a page tag index ($first)" test "$first" -gt 0
	rmmod alloc_prof_test
	i=0
	idx=$first
	while [ $i -lt 20 ] && [ "$idx" = "$first" ]; do
		insmod $TEST_MOD nr=0 || break
		idx=$(cat $IDX)
		rmmod alloc_prof_test || break
		i=$((i + 1))
	done
	expect_eq "20 loads and unloads with nothing live: the same index every time" \
		"$i $idx" "20 $first"
	check "rmmod alloc_prof_holder (indices)" rmmod alloc_prof_holder
}

# The helpers that allocate for their callers are charged to the callers:
# no line names a converted helper; a module's kstrdup() is charged to the
# module's line; tmpfs inodes (alloc_inode_sb()) to mm/shmem.c.
CONVERTED='alloc_inode_sb|kstrdup|kstrdup_const|kstrndup|kmemdup|kmemdup_nul|memdup_user|vmemdup_user|strndup_user|memdup_user_nul|memdup_array_user|vmemdup_array_user|__pte_alloc_one_kernel|pte_alloc_one_kernel|__pte_alloc_one|pte_alloc_one|pmd_alloc_one|__pud_alloc_one|pud_alloc_one|p4d_alloc_one|__page_frag_cache_refill|page_frag_alloc_align|page_frag_alloc|acpi_os_allocate|acpi_os_allocate_zeroed|acpi_os_acquire_object|alloc_dr|devm_kmalloc|devm_krealloc|devm_kstrdup|devm_kmemdup|devm_kvasprintf'
alloc_prof_caller_tests() {
	cat $AL >/tmp/al-callers.txt
	check "no line is charged inside a converted helper" awk -v re="^func:($CONVERTED)\$" '
		!/^#/ && $NF ~ re { print "helper line:", $0; bad = 1 } END { exit bad }' /tmp/al-callers.txt
	check "no line under include/ names a converted helper" awk -v re="^func:($CONVERTED)\$" '
		!/^#/ && $3 ~ /^include\// && $NF ~ re { print $0; bad = 1 } END { exit bad }' /tmp/al-callers.txt
	# For the audit of helpers still charged to themselves: every line of
	# a header's inline function.
	echo "# lines under include/ (inline helpers not converted):"
	awk '!/^#/ && $3 ~ /^include\// { print "#  " $0 }' /tmp/al-callers.txt
	echo "# lines of helpers' own files (helpers left charged to themselves):"
	awk '!/^#/ && $3 ~ /^(mm\/util|lib\/kasprintf|drivers\/base\/devres|net\/core\/skbuff|drivers\/gpu\/drm\/drm_managed)\.c:/ {
		print "#  " $0 }' /tmp/al-callers.txt
	if [ -x /usr/bin/sort ]; then
		echo "# the 40 largest lines:"
		/usr/bin/sort -hr /tmp/al-callers.txt | head -n 40 | sed 's/^/#  /'
	fi

	# 300 tmpfs files: 300 inodes live, each charged where tmpfs allocates it.
	mkdir -p /tmp/inodes
	i=0
	while [ $i -lt 300 ]; do
		: >/tmp/inodes/f$i
		i=$((i + 1))
	done
	cat $AL >/tmp/al-inodes.txt
	calls=$(awk '$3 ~ /^mm\/shmem\.c:/ && $NF == "func:shmem_alloc_inode" { s += $2 } END { print s + 0 }' /tmp/al-inodes.txt)
	check "300 tmpfs files: mm/shmem.c func:shmem_alloc_inode holds $calls inodes, at least 300" \
		test "$calls" -ge 300
	rm -rf /tmp/inodes

	if [ ! -e $HOLDER_MOD ] || [ ! -e $TEST_MOD ]; then
		skip "kstrdup() in a module is charged to the module" "no alloc_prof_test/alloc_prof_holder module in this guest"
		return
	fi
	must "insmod alloc_prof_holder (strdups)" insmod $HOLDER_MOD || return
	if must "insmod alloc_prof_test nr=0 strdups=8" insmod $TEST_MOD nr=0 strdups=8; then
		expect_eq "8 kstrdup() calls charged to the module's line, func:alloc_prof_test_strdup" \
			"$(awk '/ module:alloc_prof_test func:alloc_prof_test_strdup$/ { print $2 }' $AL)" 8
		check "rmmod alloc_prof_test (strdups)" rmmod alloc_prof_test
		expect_eq "the strings freed at unload: the line is gone" \
			"$(grep -c ' func:alloc_prof_test_strdup$' $AL)" 0
	fi
	check "rmmod alloc_prof_holder (strdups)" rmmod alloc_prof_holder
}

SYS=/proc/sys/vm/mem_profiling
PAUSED_LINE="# profiling paused (vm.mem_profiling = 0): new allocations are not counted"

# sys_write VALUE: write VALUE to vm.mem_profiling in one write(); prints
# dd's error (with the errno's text: busybox's printf gives none) and
# fails if the write fails.
sys_write() {
	_err=$(printf '%s' "$1" | dd of=$SYS conv=notrunc 2>&1) && return 0
	echo "$_err" | grep -v 'records'
	return 1
}

# sys_refused VALUE TEXT: writing VALUE fails with the errno's TEXT.
sys_refused() {
	_out=$(sys_write "$1") && { echo "the write succeeded"; return 1; }
	case $_out in *"$2"*) return 0 ;; esac
	echo "$_out"
	return 1
}

# Pause and resume (vm.mem_profiling) with the holder module: memory
# charged before a pause is uncharged when freed during it, memory
# allocated while paused is not charged and its free later subtracts
# nothing (no DEBUG warning: the console judge fails the run on one), and
# the counts never go below zero (a later allocation counts exactly).
# Last of the suite: the first switch quiets the DEBUG checks for the
# rest of the boot.
alloc_prof_sysctl_tests() {
	if ! check "vm.mem_profiling exists, mode 0644" sh -c "ls -l $SYS | grep -q '^-rw-r--r--'"; then
		return
	fi
	expect_eq "vm.mem_profiling reads 1 at boot" "$(cat $SYS)" 1
	for v in 2 -1 abc 1x 0x; do
		check "writing '$v' fails with EINVAL" sys_refused "$v" "Invalid argument"
	done
	expect_eq "after the bad writes it still reads 1" "$(cat $SYS)" 1
	check "writing 1 while on succeeds" sys_write 1
	if [ ! -e $HOLDER_MOD ] || [ ! -e $TEST_MOD ]; then
		skip "pause and resume with the test modules" "no alloc_prof_test/alloc_prof_holder module in this guest"
		return
	fi
	must "insmod alloc_prof_holder (sysctl)" insmod $HOLDER_MOD || return
	must "insmod alloc_prof_test nr=8 (on)" insmod $TEST_MOD nr=8 || return
	expect_eq "on: 8 pages charged" "$(site $AL)" "32.0KiB 8"
	check "rmmod alloc_prof_test, its pages live" rmmod alloc_prof_test
	expect_eq "its kept line" "$(kept $AL)" "32.0KiB 8"

	must "pause: write 0" sys_write 0 || return
	expect_eq "paused: reads 0" "$(cat $SYS)" 0
	expect_eq "paused: the second line of $AL says so" "$(sed -n 2p $AL)" "$PAUSED_LINE"
	must "insmod alloc_prof_test nr=4 while paused" insmod $TEST_MOD nr=4 || return
	expect_eq "paused: alloc_prof_test sees profiling off" "$(cat $PROFILING)" N
	expect_eq "paused: its tags still got counters" "$(cat $COUNTERS)" Y
	expect_eq "paused: the 4 new pages are not charged, the kept line is unchanged" \
		"$(site $AL)" "32.0KiB 8"
	echo free >$HOLDER
	expect_eq "the holder freed its 12 pages" "$(cat $HOLDER)" 0
	expect_eq "paused: freeing the 8 charged pages uncharged them, the line is gone" \
		"$(site $AL)" ""
	# A count that a wrong uncharge drove below zero does not print
	# (allocations_print() skips it) but keeps its module at unload: each
	# rmmod below is of an instance that holds nothing, and must print no
	# "unloaded with" line.
	n0=$(unload_msgs)
	check "rmmod alloc_prof_test (nothing charged to it)" rmmod alloc_prof_test
	expect_eq "paused: that unload kept nothing" "$(unload_msgs)" "$n0"
	must "insmod alloc_prof_test nr=4 while paused, again" insmod $TEST_MOD nr=4 || return

	must "resume: write 1" sys_write 1 || return
	expect_eq "resumed: reads 1" "$(cat $SYS)" 1
	expect_eq "resumed: no comment line but the header" "$(grep -c '^#' $AL)" 1
	expect_eq "resumed: the 4 pages allocated while paused are still not charged" "$(site $AL)" ""
	echo free >$HOLDER
	expect_eq "resumed: freeing them subtracted nothing (no line)" "$(site $AL)" ""
	check "rmmod alloc_prof_test" rmmod alloc_prof_test
	expect_eq "resumed: the instance loaded while paused was unloaded with nothing live" \
		"$(unload_msgs)" "$n0"
	must "insmod alloc_prof_test nr=2 (on)" insmod $TEST_MOD nr=2 || return
	expect_eq "no count went below zero: 2 new pages read exactly 8.00KiB 2" \
		"$(site $AL)" "8.00KiB 2"
	# Charged while on, freed while paused, then unloaded: the unload
	# reads the instance's own counters, which must be exactly zero.
	must "pause again: write 0" sys_write 0 || return
	echo free >$HOLDER
	check "rmmod alloc_prof_test" rmmod alloc_prof_test
	expect_eq "paused: the 2 pages charged while on were uncharged exactly, unloaded with nothing live" \
		"$(unload_msgs)" "$n0"
	must "resume again: write 1" sys_write 1 || return
	check "rmmod alloc_prof_holder (sysctl)" rmmod alloc_prof_holder
	cat $AL >/tmp/al-sysctl.txt
	check "/proc/allocations is well formed after a pause" well_formed /tmp/al-sysctl.txt
}

# Booted with nomem_profiling or after a failed init: vm.mem_profiling
# reads 0 and refuses 1 with EOPNOTSUPP and a line saying why.
alloc_prof_sysctl_off_tests() {
	why=$1
	expect_eq "vm.mem_profiling reads 0" "$(cat $SYS)" 0
	check "writing 1 fails with EOPNOTSUPP" sys_refused 1 "not supported"
	check "dmesg: vm.mem_profiling: cannot turn profiling on: $why" sh -c \
		"dmesg | grep -qF 'vm.mem_profiling: cannot turn profiling on: $why'"
	expect_eq "it still reads 0" "$(cat $SYS)" 0
	check "writing 0 succeeds" sys_write 0
	check "writing 2 fails with EINVAL" sys_refused 2 "Invalid argument"
}

# Booted with "sysctl.vm.mem_profiling=2 nomem_profiling
# sysctl.vm.mem_profiling=0,compressed" (the bootopt boot): the bad value
# is refused with a message, the last valid option wins, so profiling is
# available but paused from boot; vm.mem_profiling=1 turns it on.  The
# copy that do_sysctl_args() writes to vm.mem_profiling after boot
# changes nothing and logs nothing.
alloc_prof_boot_paused_tests() {
	expect_eq "dmesg: the bad value refused once" \
		"$(dmesg | grep -cF 'sysctl.vm.mem_profiling=2: expected 0, 1 or never, optionally followed by ,compressed')" 1
	expect_eq "dmesg: one malformed early option (the bad value)" \
		"$(dmesg | grep -cF "Malformed early option 'sysctl.vm.mem_profiling'")" 1
	check "dmesg: do_sysctl_args() set the parameters without an error" sh -c \
		"! dmesg | grep -F 'sysctl parameter' | grep -F mem_profiling"
	check "not off: no 'profiling off' line in dmesg" sh -c \
		"! dmesg | grep -qF 'alloc_tag: profiling off ('"
	expect_eq "vm.mem_profiling reads 0 from boot" "$(cat $SYS)" 0
	# The x86_64 guest keeps page tags in the page flags.
	if dmesg | grep -qF "$FLAGS_DMESG"; then
		expect_eq "vm.mem_profiling_compressed reads 1 (tags in page flags)" \
			"$(cat /proc/sys/vm/mem_profiling_compressed)" 1
		check "no warning that compressed tags do not fit" sh -c \
			"! dmesg | grep -qF 'compressed tags need more spare page flags'"
	else
		expect_eq "vm.mem_profiling_compressed reads 0 (tags in page_ext)" \
			"$(cat /proc/sys/vm/mem_profiling_compressed)" 0
		check "dmesg: compressed tags do not fit" sh -c \
			"dmesg | grep -qF 'compressed tags need more spare page flags'"
	fi
	check "vm.mem_profiling_compressed is read-only" sh -c \
		"ls -l /proc/sys/vm/mem_profiling_compressed | grep -q '^-r--r--r--'"
	expect_eq "paused: the second line of $AL says so" "$(sed -n 2p $AL)" "$PAUSED_LINE"
	if [ ! -e $HOLDER_MOD ] || [ ! -e $TEST_MOD ]; then
		skip "alloc_prof_test module cases" "no alloc_prof_test/alloc_prof_holder module in this guest"
		return
	fi
	n0=$(unload_msgs)
	must "insmod alloc_prof_holder (boot paused)" insmod $HOLDER_MOD || return
	must "insmod alloc_prof_test nr=4 (boot paused)" insmod $TEST_MOD nr=4 || return
	expect_eq "paused from boot: alloc_prof_test sees profiling off" "$(cat $PROFILING)" N
	expect_eq "paused from boot: its tags got counters" "$(cat $COUNTERS)" Y
	expect_eq "paused from boot: its 4 pages are not charged" "$(site $AL)" ""
	must "turn on: write 1" sys_write 1 || return
	expect_eq "on: reads 1" "$(cat $SYS)" 1
	expect_eq "on: no comment line but the header" "$(grep -c '^#' $AL)" 1
	echo free >$HOLDER
	check "rmmod alloc_prof_test" rmmod alloc_prof_test
	expect_eq "the pages allocated while paused were uncharged by nothing" "$(unload_msgs)" "$n0"
	must "insmod alloc_prof_test nr=2 (on)" insmod $TEST_MOD nr=2 || return
	expect_eq "on: 2 new pages read exactly 8.00KiB 2" "$(site $AL)" "8.00KiB 2"
	echo free >$HOLDER
	check "rmmod alloc_prof_test" rmmod alloc_prof_test
	check "rmmod alloc_prof_holder" rmmod alloc_prof_holder
}

# Booted with nomem_profiling: one line, nothing counted.
alloc_prof_off_tests() {
	check "/proc/allocations is 0400" sh -c "ls -l $AL | grep -q '^-r--------'"
	cat $AL >/tmp/al.txt
	expect_eq "/proc/allocations is the header and the off line" "$(cat /tmp/al.txt)" "$OFF_TEXT"
	expect_eq "... and two lines only" "$(wc -l </tmp/al.txt)" 2
	check "$AI is 0400" sh -c "ls -l $AI | grep -q '^-r--------'"
	expect_eq "$AI is its two header lines" "$(cat $AI)" "$AI_HEADER"
	# With tags in page flags there is no page_ext storage to skip.
	check "dmesg: $OFF_DMESG (or tags in page flags)" sh -c \
		"dmesg | grep -qF '$OFF_DMESG' || dmesg | grep -qF '$FLAGS_DMESG'"
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
	expect_eq "with the modules' pages live: still the header and the off line" "$(cat $AL)" "$OFF_TEXT"
	check "rmmod alloc_prof_test" rmmod alloc_prof_test
	expect_eq "nothing was counted: the unload printed nothing" "$(unload_msgs)" "$n0"
	echo free >$HOLDER
	expect_eq "the holder freed everything" "$(cat $HOLDER)" 0
	check "rmmod alloc_prof_holder" rmmod alloc_prof_holder
	expect_eq "after the modules: still the header and the off line" "$(cat $AL)" "$OFF_TEXT"
	expect_eq "after the modules: $AI is still its two header lines" "$(cat $AI)" "$AI_HEADER"
}

# Booted with fail_alloc_tag_init= (fault injection): alloc_tag_init()
# failed, so profiling must be off, with one message, and modules loaded
# later must get no counters and not be charged (with the key left on,
# their first allocation dereferenced a NULL counter).
alloc_prof_failed_init_tests() {
	expect_eq "dmesg: one 'cannot register the allocation tags (-ENOMEM): profiling off'" \
		"$(dmesg | grep -cE "$FAIL_DMESG")" 1
	check "no /proc/allocations" test ! -e $AL
	check "no $AI" test ! -e $AI
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
	alloc_prof_sysctl_off_tests "the tags were not registered"
elif [ ! -e $AL ]; then
	skip "alloc-profiling" "kernel built without CONFIG_MEM_ALLOC_PROFILING"
elif [ "$(uname -m)" = aarch64 ]; then
	# arm64-sw-tags has profiling for 52-alloc-ctx.sh, without the DEBUG
	# checks (KASAN's suite frees twice on purpose) whose messages this
	# suite expects, and loses early dmesg lines to KASAN's reports.
	skip "alloc-profiling" "written for the x86_64 guest (DEBUG checks, early dmesg)"
elif cmdline_has sysctl.vm.mem_profiling=0,compressed; then
	alloc_prof_boot_paused_tests
elif cmdline_has nomem_profiling; then
	alloc_prof_off_tests
	alloc_prof_sysctl_off_tests "booted with nomem_profiling"
else
	alloc_prof_format_tests
	alloc_prof_caller_tests
	alloc_prof_module_tests
	alloc_prof_index_tests
	alloc_prof_pcpu_fault_tests
	alloc_prof_sysctl_tests
fi
