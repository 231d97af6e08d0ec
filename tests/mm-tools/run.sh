#!/bin/bash
# Tests of tools/vm/alloc_diff and tools/vm/page_owner_fold (the tools
# step of make check): build both from a kernel tree with -Werror, run
# them on the guest captures and hand-written inputs of data/, compare
# what they print and their exit status with expected/, and check a few
# properties the outputs must have whatever their layout (the tmpfs
# workload's shmem pages grow, the folded counts add up to the input's).
#
#   tests/mm-tools/run.sh TREE OUTDIR
#
# TREE is a kernel tree with the tools (in tools/vm/, or tools/mm/ where
# later kernels moved them); the binaries and every output go to OUTDIR.
# Prints "ok NAME" or "FAIL NAME" (with what differed) per case, then
# "tools: P passed, F failed, S skipped"; exits non-zero if a case failed.
# UPDATE=1 copies the outputs into expected/ first (review the diff).
set -uo pipefail
export LC_ALL=C

[ $# -eq 2 ] || { echo "usage: $0 TREE OUTDIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
tree=$1
mkdir -p "$2" || exit 2
out=$(cd "$2" && pwd)
data=$here/data
exp=$here/expected
passed=0 failed=0 skipped=0

# judge NAME FINDINGS: the case passes when there are no findings.  While
# $unbuilt names a tool that did not compile, every case fails for that.
unbuilt=
judge() {
	if [ -n "$unbuilt" ]; then
		echo "FAIL $1"
		echo "    $unbuilt did not build"
		failed=$((failed + 1))
	elif [ -z "$2" ]; then
		echo "ok $1"
		passed=$((passed + 1))
	else
		echo "FAIL $1"
		sed 's/^/    /' <<<"$2" | head -n 30
		failed=$((failed + 1))
	fi
}

# build TOOL: compile TREE's TOOL.c into OUTDIR/TOOL.
build() {
	local src='' d
	rm -f "$out/$1"
	for d in tools/vm tools/mm; do
		[ -f "$tree/$d/$1.c" ] && src=$tree/$d/$1.c && break
	done
	unbuilt=
	if [ -z "$src" ]; then
		judge "build-$1" "no tools/vm/$1.c in $tree"
	elif gcc -Wall -Wextra -Werror -O2 -o "$out/$1" "$src" >"$out/build-$1.log" 2>&1; then
		judge "build-$1" ""
	else
		judge "build-$1" "$(cat "$out/build-$1.log")"
	fi
	[ -x "$out/$1" ] || unbuilt=$1
}

# run NAME STATUS TOOL ARGS...: run TOOL in data/ (so that messages name
# files as data/ does), with standard input as given.  It must exit with
# STATUS and print expected/NAME.out on standard output and
# expected/NAME.err on standard error (nothing if there is no such file).
run() {
	local name=$1 want=$2 tool=$3 rc f findings=
	shift 3
	(cd "$data" && "$out/$tool" "$@") >"$out/$name.out" 2>"$out/$name.err"
	rc=$?
	if [ -n "${UPDATE:-}" ]; then
		cp "$out/$name.out" "$exp/$name.out"
		rm -f "$exp/$name.err"
		[ ! -s "$out/$name.err" ] || cp "$out/$name.err" "$exp/$name.err"
	fi
	[ "$rc" = "$want" ] || findings="exit status $rc, want $want"$'\n'
	for f in out err; do
		if [ -f "$exp/$name.$f" ]; then
			findings+=$(diff -u "$exp/$name.$f" "$out/$name.$f" | tail -n +3)$'\n'
		elif [ $f = out ]; then
			findings+="no expected/$name.out"$'\n'
		else
			findings+=$(diff -u /dev/null "$out/$name.$f" | tail -n +3)$'\n'
		fi
	done
	judge "$name" "$(sed '/^$/d' <<<"$findings")"
}

# diff_lines FILE: the site lines of alloc_diff's output, as
# "SECTION MARK D-BYTES D-CALLS SITE" (SECTION 1: by bytes, 2: by calls;
# MARK "=" for a site in both captures; the blanks of SITE made "|").
diff_lines() {
	awk '/^# .*site \(sorted by/ { s++; next }
	     /^#/ || !NF { next }
	     { mark = substr($0, 1, 1); if (mark == " ") mark = "="
	       $0 = substr($0, 2); site = $5
	       for (i = 6; i <= NF; i++) site = site "|" $i
	       print s, mark, $1, $2, site }' "$1"
}

# AWK_BYTES: an awk function, bytes("+9.08MiB") = 9.08 * 2^20.
AWK_BYTES='function bytes(s,   sign, u, m) {
	sign = s ~ /^-/ ? -1 : 1
	sub(/^[-+]/, "", s)
	u = s
	sub(/^[0-9.]+/, "", u)
	m = u == "B" ? 1 : u == "KiB" ? 2^10 : u == "MiB" ? 2^20 : u == "GiB" ? 2^30 : u == "TiB" ? 2^40 : u == "PiB" ? 2^50 : -1
	return m < 0 ? "bad" : sign * (s + 0) * m
}'

# --- alloc_diff -----------------------------------------------------------

build alloc_diff
run diff-workload 0 alloc_diff allocations-boot.txt allocations-workload.txt
run diff-workload-n5 0 alloc_diff -n 5 allocations-boot.txt allocations-workload.txt
run diff-freed 0 alloc_diff allocations-workload.txt allocations-freed.noheader.txt
run diff-edge 0 alloc_diff edge-old.txt edge-new.txt
run diff-edge-n3 0 alloc_diff -n 3 edge-old.txt edge-new.txt
run diff-bad-version 2 alloc_diff edge-old.txt bad-version.txt
run diff-bad-size 2 alloc_diff bad-size.txt edge-new.txt
run diff-bad-calls 2 alloc_diff edge-old.txt bad-calls.txt
run diff-bad-site 2 alloc_diff edge-old.txt bad-site.txt
run diff-no-file 2 alloc_diff edge-old.txt no-such-file.txt
run diff-usage 2 alloc_diff edge-old.txt
run diff-help 0 alloc_diff -h

# The 8 MiB written to tmpfs: shmem_alloc_folio() grew most, by at least
# 8 MiB in 2048 pages, and is first in both lists.
judge diff-shmem-grows "$(diff_lines "$out/diff-workload.out" | awk "$AWK_BYTES"'
	$1 == 1 && !b++ && ($5 !~ /func:shmem_alloc_folio$/ || bytes($3) < 8 * 2^20) { print "first by bytes: " $0 }
	$1 == 2 && !c++ && ($5 !~ /func:shmem_alloc_folio$/ || $4 + 0 < 2048) { print "first by calls: " $0 }
	END { if (!b || !c) print "no sites" }')"
# Removing the files gave the pages back: shmem_alloc_folio() is last.
judge diff-freed-shrinks "$(diff_lines "$out/diff-freed.out" | awk "$AWK_BYTES"'
	$1 == 1 { last = $0; d = $3; site = $5 }
	END { if (site !~ /func:shmem_alloc_folio$/ || bytes(d) > -8 * 2^20) print "last by bytes: " last }')"
# The summary's change in calls is the sum of the lines'; each list has
# every changed site once; the first is sorted by bytes, the second by
# calls, largest first.
for name in diff-workload diff-freed diff-edge; do
	f=$out/$name.out
	judge "$name-consistent" "$( (head -n 1 "$f"; diff_lines "$f") | awk "$AWK_BYTES"'
		NR == 1 { n = $4; total = $NF + 0; next }
		{ count[$1]++; sum[$1] += $4; seen[$1 " " $5]++ }
		$1 == 1 { v = bytes($3); if (count[1] > 1 && v > prev1) print "not sorted by bytes: " $0; prev1 = v }
		$1 == 2 { v = $4 + 0; if (count[2] > 1 && v > prev2) print "not sorted by calls: " $0; prev2 = v }
		END {
			for (s = 1; s <= 2; s++) {
				if (count[s] != n) print "list " s ": " count[s] " sites, summary says " n
				if (sum[s] != total) print "list " s ": calls add up to " sum[s] ", summary says " total
			}
			for (k in seen) if (seen[k] > 1) print "twice: " k
		}')"
done
# A capture without the header line reads the same.
tail -n +2 "$data/allocations-boot.txt" >"$out/boot-noheader.txt"
"$out/alloc_diff" "$out/boot-noheader.txt" "$data/allocations-workload.txt" >"$out/diff-noheader.out" 2>&1
judge diff-noheader "$(diff -u "$out/diff-workload.out" "$out/diff-noheader.out" | tail -n +3)"
# Swapping the captures swaps '+' and '-' and negates every change.
(cd "$data" && "$out/alloc_diff" edge-new.txt edge-old.txt) >"$out/diff-reverse.out" 2>&1
judge diff-reverse "$(diff <(diff_lines "$out/diff-edge.out" | awk '$1 == 1 {
		m = $2 == "+" ? "-" : $2 == "-" ? "+" : "="; d = $4 == "0" ? "0" : $4 ~ /^-/ ? "+" substr($4, 2) : "-" substr($4, 2)
		b = $3 == "0B" ? "0B" : $3 ~ /^-/ ? "+" substr($3, 2) : "-" substr($3, 2)
		$1 = ""; $2 = m; $3 = b; $4 = d; print }' | sort) \
	<(diff_lines "$out/diff-reverse.out" | awk '$1 == 1 { $1 = ""; print }' | sort))"

# --- page_owner_fold ------------------------------------------------------

build page_owner_fold
run fold-workload 0 page_owner_fold page_owner_stacks-workload.txt
run fold-workload-top5 0 page_owner_fold -t 5 page_owner_stacks-workload.txt
run fold-edge 0 page_owner_fold stacks-edge.txt
run fold-edge-top3 0 page_owner_fold -t 3 stacks-edge.txt
run fold-no-count 2 page_owner_fold stacks-no-count.txt
run fold-no-count-eof 2 page_owner_fold stacks-no-count-eof.txt
run fold-bad-count 2 page_owner_fold stacks-bad-count.txt
run fold-help 0 page_owner_fold -h

# The folded counts add up to the input's nr_base_pages, every line is
# "FRAME;...;FRAME COUNT" without offsets or blanks in frames, and no
# stack is printed twice.
for pair in workload:page_owner_stacks-workload.txt edge:stacks-edge.txt; do
	name=${pair%%:*} input=$data/${pair#*:}
	want=$(tr -d '\r' <"$input" | awk '$1 == "nr_base_pages:" { s += $2 } END { print s + 0 }')
	judge "fold-$name-adds-up" "$(awk -v want="$want" '
		!/^[^ ;]+(;[^ ;]+)* [0-9]+$/ || /\+0x/ { print "bad line " NR ": " $0 }
		{ s += $NF; if (seen[$1]++) print "twice: " $1 }
		END { if (s != want) print "counts add up to " s ", nr_base_pages to " want }' "$out/fold-$name.out")"
done
# Stacks that differ only in offsets were merged: fewer lines than stacks.
stacks=$(grep -c '^nr_base_pages:' "$data/page_owner_stacks-workload.txt")
lines=$(wc -l <"$out/fold-workload.out")
judge fold-merged "$([ "$lines" -lt "$stacks" ] || echo "$lines lines for $stacks stacks")"
# The tmpfs workload's 8 MiB: at least 2048 pages under shmem_alloc_folio.
judge fold-shmem "$(awk '/;shmem_alloc_folio;/ { s += $NF } END { if (s < 2048) print "shmem_alloc_folio holds " s + 0 " pages" }' "$out/fold-workload.out")"
# -t 0 lists every stack by pages, largest first, with the total.
"$out/page_owner_fold" -t 0 "$data/page_owner_stacks-workload.txt" >"$out/fold-top-all.out" 2>&1
judge fold-top-all "$(awk -v n="$lines" '
	NR == 1 { if ($2 != n || $4 != n) print "header: " $0; total = $6; next }
	/ pages \(/ { k++; s += $1; if (k > 1 && $1 + 0 > prev) print "not sorted: " $0; prev = $1 + 0 }
	END { if (k != n || s != total) print k " stacks, " s " pages; want " n ", " total }' "$out/fold-top-all.out")"
# Standard input reads as a file does.
"$out/page_owner_fold" <"$data/page_owner_stacks-workload.txt" >"$out/fold-stdin.out" 2>&1
judge fold-stdin "$(diff -u "$out/fold-workload.out" "$out/fold-stdin.out" | tail -n +3)"

# The format the tools parse is the one the kernel prints and the
# Documentation defines: the header line of lib/alloc_tag.c appears as is
# in Documentation/mm/allocation-profiling.rst, in the guest test that
# checks the kernel's output, and in the captures.
unbuilt=
hdr=$(sed -n 's/^[[:space:]]*"\(# allocations v[0-9]*:.*\)\\n"$/\1/p' "$tree/lib/alloc_tag.c" 2>/dev/null)
if [ -z "$hdr" ]; then
	judge format-header "no ALLOCATIONS_HEADER line found in $tree/lib/alloc_tag.c"
else
	judge format-header "$(
		grep -qxF "  $hdr" "$tree/Documentation/mm/allocation-profiling.rst" ||
			echo "not in Documentation/mm/allocation-profiling.rst: $hdr"
		grep -qF "HEADER=\"$hdr\"" "$here/../guest/50-alloc-profiling.sh" ||
			echo "not the header tests/guest/50-alloc-profiling.sh expects: $hdr"
		for f in "$data"/allocations-boot.txt "$data"/allocations-workload.txt; do
			[ "$(head -n 1 "$f")" = "$hdr" ] || echo "${f##*/}: first line is not $hdr"
		done)"
fi

echo "tools: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
