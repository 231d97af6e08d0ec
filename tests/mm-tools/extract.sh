#!/bin/bash
# Take the captures of capture-guest.sh out of a guest console log into
# data/, checking each against the md5sum and line count the guest printed.
#
#   tests/mm-tools/extract.sh LOG [DATADIR]
#
# A capture of /proc/allocations keeps the header line the kernel prints
# first, or gets it prepended if the kernel had none (the series prints
# it since "lib/alloc_tag: one line per call site in /proc/allocations,
# with a header"), except allocations-3, whose header line is taken out:
# alloc_diff must read captures without one too.
set -euo pipefail
log=$1
data=${2:-$(dirname "$0")/data}
HEADER='# allocations v1: <size> <calls> <file>:<line> [module:<name>] [state:unloaded] func:<function>'

# extract NAME: the capture's lines, console carriage returns removed.
extract() {
	tr -d '\r' <"$log" | awk -v n="$1" '
		$0 == "CAPTURE-BEGIN " n { on = 1; next }
		on && index($0, "CAPTURE-END " n " ") == 1 { end = $0; on = 0; next }
		on { print }
		END { if (end == "") exit 1; print end > "/dev/stderr" }'
}

# NAME:FILE:HEADER, HEADER "keep" (or prepend), "strip" or "-" (not
# /proc/allocations: as it is).
for spec in allocations-1:allocations-boot.txt:keep \
	    allocations-2:allocations-workload.txt:keep \
	    allocations-3:allocations-freed.noheader.txt:strip \
	    page_owner_stacks:page_owner_stacks-workload.txt:-; do
	IFS=: read -r name file header <<<"$spec"
	tmp=$(mktemp)
	end=$(extract "$name" 2>&1 >"$tmp") || { rm -f "$tmp"; echo "extract: no complete $name in $log" >&2; exit 1; }
	got="CAPTURE-END $name $(md5sum <"$tmp" | cut -d' ' -f1) $(wc -l <"$tmp")"
	if [ "$got" != "$end" ]; then
		rm -f "$tmp"
		echo "extract: $name damaged on the console: guest said '$end', got '$got'" >&2
		exit 1
	fi
	if [ "$header" = strip ]; then
		grep -v '^# allocations v' "$tmp"
	elif [ "$header" = - ] || head -n 1 "$tmp" | grep -q '^# allocations v'; then
		cat "$tmp"
	else
		echo "$HEADER"
		cat "$tmp"
	fi >"$data/$file"
	rm -f "$tmp"
	echo "$data/$file: $(wc -l <"$data/$file") lines"
done
