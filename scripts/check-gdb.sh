#!/bin/bash
# make check-wide, step gdb: the series' GDB commands against the kernel
# itself, on an ARCH=um kernel built by kunit.py with debug info, GDB
# scripts and page_owner into build/out/kunit-um-gdb: lx-stack-depot-lookup
# (scripts/gdb/linux/stackdepot.py) against stack_depot_fetch()
# (tests/gdb/stackdepot.gdb), lx-dump-page-owner (page_owner.py) against
# the pages __set_page_owner() records (tests/gdb/page_owner.gdb); each
# script says what it compares.  Records "passed failed skipped" in
# build/results/gdb: one case per comparison.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$BUILD/out/kunit-um-gdb
mkdir -p "$BUILD/results"
export CCACHE_BASEDIR=$TOP CCACHE_NOHASHDIR=1
phase "build ARCH=um with debug info and GDB scripts, log in ${LOGS#"$TOP"/}/build-kunit-um-gdb.log"
(cd "$TREE" && python3 tools/testing/kunit/kunit.py build \
	--kunitconfig="$TOP/configs/kunit/series.kunitconfig" \
	--build_dir="$out" --jobs="$(nproc)" --make_options CC="ccache gcc" \
	--kconfig_add CONFIG_DEBUG_KERNEL=y --kconfig_add CONFIG_DEBUG_INFO_DWARF4=y \
	--kconfig_add CONFIG_GDB_SCRIPTS=y --kconfig_add CONFIG_PAGE_OWNER=y) >"$LOGS/build-kunit-um-gdb.log" 2>&1 ||
	{ tail -n 20 "$LOGS/build-kunit-um-gdb.log"; echo "0 1 0" >"$BUILD/results/gdb"; exit 1; }
# run_gdb NAME: tests/gdb/NAME.gdb under GDB; adds its "gdb-NAME: N
# checked, M ok" to the totals, or a failure when it prints no result.
total=0 good=0
run_gdb() {
	local log=$LOGS/gdb-$1.log rc=0 line checked ok
	phase "run tests/gdb/$1.gdb under GDB, log in ${log#"$TOP"/}"
	(cd "$out" && timeout 900 gdb -q -batch -x "$TOP/tests/gdb/$1.gdb" ./linux) >"$log" 2>&1 || rc=$?
	line=$(grep "^gdb-$1: " "$log" | tail -n 1 || true)
	checked=$(sed -n 's/^gdb-[a-z_]*: \([0-9]*\) checked.*/\1/p' <<<"$line")
	ok=$(sed -n 's/.* checked, \([0-9]*\) ok.*/\1/p' <<<"$line")
	if [ -z "$line" ] || [ "${checked:-0}" = 0 ]; then
		echo "gdb $1: no result (gdb exit $rc); last lines:"
		tail -n 20 "$log"
		total=$((total + 1))
		return
	fi
	echo "gdb: $line"
	grep -E 'MISMATCH' "$log" | sed 's/^/  /' || true
	total=$((total + checked)) good=$((good + ok))
}
run_gdb stackdepot
run_gdb page_owner
echo "$good $((total - good)) 0" >"$BUILD/results/gdb"
[ "$good" = "$total" ]
