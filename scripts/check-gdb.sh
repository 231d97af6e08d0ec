#!/bin/bash
# make check-wide, step gdb: the series' GDB command lx-stack-depot-lookup
# (scripts/gdb/linux/stackdepot.py) against the kernel's own
# stack_depot_fetch(), on an ARCH=um kernel built by kunit.py with debug
# info and GDB scripts into build/out/kunit-um-gdb (tests/gdb/stackdepot.gdb
# says what is compared).  Records "passed failed skipped" in
# build/results/gdb: one case per fetch compared.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$BUILD/out/kunit-um-gdb
log=$LOGS/gdb-stackdepot.log
mkdir -p "$BUILD/results"
export CCACHE_BASEDIR=$TOP CCACHE_NOHASHDIR=1
phase "build ARCH=um with debug info and GDB scripts, log in ${LOGS#"$TOP"/}/build-kunit-um-gdb.log"
(cd "$TREE" && python3 tools/testing/kunit/kunit.py build \
	--kunitconfig="$TOP/configs/kunit/series.kunitconfig" \
	--build_dir="$out" --jobs="$(nproc)" --make_options CC="ccache gcc" \
	--kconfig_add CONFIG_DEBUG_KERNEL=y --kconfig_add CONFIG_DEBUG_INFO_DWARF4=y \
	--kconfig_add CONFIG_GDB_SCRIPTS=y) >"$LOGS/build-kunit-um-gdb.log" 2>&1 ||
	{ tail -n 20 "$LOGS/build-kunit-um-gdb.log"; echo "0 1 0" >"$BUILD/results/gdb"; exit 1; }
phase "run the stackdepot KUnit suite under GDB, log in ${log#"$TOP"/}"
rc=0
(cd "$out" && timeout 900 gdb -q -batch -x "$TOP/tests/gdb/stackdepot.gdb" ./linux) >"$log" 2>&1 || rc=$?
line=$(grep '^gdb-stackdepot: ' "$log" | tail -n 1 || true)
checked=$(sed -n 's/^gdb-stackdepot: \([0-9]*\) checked.*/\1/p' <<<"$line")
ok=$(sed -n 's/.* checked, \([0-9]*\) ok.*/\1/p' <<<"$line")
if [ -z "$line" ] || [ "${checked:-0}" = 0 ]; then
	echo "gdb: no result (gdb exit $rc); last lines:"
	tail -n 20 "$log"
	echo "0 1 0" >"$BUILD/results/gdb"
	exit 1
fi
echo "gdb: $line"
grep -E 'MISMATCH' "$log" | sed 's/^/  /' || true
echo "$ok $((checked - ok)) 0" >"$BUILD/results/gdb"
[ "$ok" = "$checked" ]
