#!/bin/bash
# make bisect: build the tree after each patch of the series, for every
# guest target, so that any prefix of the series is a working kernel.
# Slow (one incremental build per patch and target); not part of CI.
#
#   FROM=N scripts/bisect-check.sh [TARGET...]  (default: x86_64 arm64-mte)
#
# FROM=N starts at the Nth patch (earlier prefixes were checked before).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(x86_64 arm64-mte)
wt=$(tree_dir bisect)
if [ ! -e "$wt/.git" ]; then
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$wt" base
fi
mapfile -t commits < <(git -C "$TREE" rev-list --reverse base..HEAD)
bad=0 i=0
for c in "${commits[@]}"; do
	i=$((i + 1))
	[ "$i" -ge "${FROM:-1}" ] || continue
	git -C "$wt" checkout -q --detach "$c"
	subj=$(git -C "$wt" log -1 --format=%s)
	for t in "${targets[@]}"; do
		if "$TOP/scripts/build-kernel.sh" --kind bisect "$t" >/dev/null 2>&1; then
			echo "ok   $i/${#commits[@]} $t: $subj"
		else
			echo "FAIL $i/${#commits[@]} $t: $subj (log: build/logs/build-bisect-$t.log)"
			bad=$((bad + 1))
		fi
	done
done
n=$(( (${#commits[@]} - ${FROM:-1} + 1) * ${#targets[@]} ))
echo "bisect: $((n - bad)) passed, $bad failed"
[ $bad = 0 ]
