#!/bin/bash
# The tools step: the series' user-space helpers tools/vm/alloc_diff and
# tools/vm/page_owner_fold compile with -Werror and give the expected
# output on the guest captures and edge cases of tests/mm-tools/ (see its
# README.md; tests/mm-tools/run.sh does the work).
#
#   scripts/check-tools.sh
#
# The tools come from build/linux, or from the tree MM_TOOLS_TREE names
# (a worktree with tools commits not yet in the series, say).  Binaries
# and outputs go to build/mm-tools/, the full log to build/logs/tools.log,
# the counts to build/results/tools.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

tree=${MM_TOOLS_TREE:-$TREE}
[ -d "$tree/tools" ] || die "no kernel tree at $tree (make tree)"
tree=$(cd "$tree" && pwd)
log=$LOGS/tools.log

phase "tools/vm helpers of ${tree#"$TOP"/} on tests/mm-tools"
bash "$TOP/tests/mm-tools/run.sh" "$tree" "$BUILD/mm-tools" >"$log" 2>&1
# Only what failed, as the other steps do; every case is in the log.
grep -v '^ok ' "$log" | sed 's/^FAIL /  FAIL /; /^tools: /d'
read -r passed failed skipped < <(sed -n \
	's/^tools: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p' "$log")
if [ -z "${passed:-}" ]; then
	echo "  FAIL tests/mm-tools/run.sh did not finish (see ${log#"$TOP"/})"
	passed=0 failed=1 skipped=0
fi

echo "tools: $passed passed, $failed failed, $skipped skipped"
mkdir -p "$BUILD/results"
echo "$passed $failed $skipped" >"$BUILD/results/tools"
[ "$failed" = 0 ]
