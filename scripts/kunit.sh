#!/bin/bash
# Run the series' KUnit suites on ARCH=um with tools/testing/kunit/kunit.py
# and record the counts in build/results/kunit-um.
#
#   scripts/kunit.sh [--baseline] [kunit.py run options...]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kind=patched
if [ "${1:-}" = --baseline ]; then
	kind=baseline
	shift
fi
tree=$(tree_dir $kind)
out=$(out_dir $kind kunit-um)
name=$(kind_name $kind kunit-um)
log=$LOGS/$name.log
mkdir -p "$out" "$BUILD/results"
export CCACHE_BASEDIR=$TOP CCACHE_NOHASHDIR=1

phase "kunit.py run on ARCH=um ($kind), log in ${log#"$TOP"/}"
rc=0
(cd "$tree" && python3 tools/testing/kunit/kunit.py run \
	--kunitconfig="$CONFIGS/kunit/series.kunitconfig" \
	--build_dir="$out" --jobs="$(nproc)" --timeout=600 \
	--make_options CC="ccache gcc" \
	--kernel_args stack_depot_max_size=8M "$@") >"$log" 2>&1 || rc=$?

# kunit.py ends with "Testing complete. Ran N tests: passed: P, failed: F,
# crashed: C, skipped: S, errors: E" (fields with a zero count are left out).
summary=$(grep -a 'Testing complete' "$log" | tail -n 1 || true)
count() { sed -n "s/.*$1: \([0-9]*\).*/\1/p" <<<"$summary"; }
p=$(count passed) f=$(count failed) c=$(count crashed) s=$(count skipped) e=$(count errors)
p=${p:-0} f=$((${f:-0} + ${c:-0} + ${e:-0})) s=${s:-0}
if [ -z "$summary" ] || { [ $rc != 0 ] && [ "$f" = 0 ]; }; then
	f=$((f + 1))
	echo "kunit-um: kunit.py failed (rc=$rc) before reporting; last lines:"
	tail -n 25 "$log"
fi
grep -a -E '\[(FAILED|SKIPPED)\]' "$log" | sed 's/^/  /' || true
# kunit.py judges the results only: the kernel's own log must be free of
# splats too.  The 6.1 line's depot suite warns about none of its
# deliberate misuse (stack_depot_test_quiet()).
DEPOT_ALLOW=()
[ "$LINE" = 7.3 ] && DEPOT_ALLOW=(--allow-warning "$DEPOT_WARNINGS")
if [ -f "$out/test.log" ] &&
   ! python3 "$TOP/scripts/parse-log.py" "$out/test.log" --name "$name-console" \
	${DEPOT_ALLOW[@]+"${DEPOT_ALLOW[@]}"} \
	--results "$BUILD/out" >"$LOGS/$name-console.txt"; then
	f=$((f + 1))
	echo "$name: the UML kernel's console ($out/test.log) is not clean:"
	grep -v '^  skip' "$LOGS/$name-console.txt"
fi
echo "$name: $p passed, $f failed, $s skipped (log: ${log#"$TOP"/})"
echo "$p $f $s" >"$BUILD/results/$name"
[ "$f" = 0 ]
