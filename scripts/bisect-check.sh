#!/bin/bash
# make bisect: build the tree after each patch of the series, posting by
# posting, for every target given, so that any prefix of the series is a
# kernel that builds.  Slow (one incremental build per patch and target);
# not part of make check: make check-wide runs it for x86_64
# (its step bisect-x86_64).
#
#   scripts/bisect-check.sh [--posting NAME]... [TARGET...]
#                                   (default targets: x86_64 arm64-mte)
#
# --posting NAME (such as 2-page_owner; repeatable) checks only that
# posting's patches.  FROM=N starts at the Nth patch of the whole series
# (earlier prefixes were checked before), TO=N stops after the Nth.  The
# postings are those of build/linux's posting/* tags (scripts/lib.sh).
# Each line names the patch's place in the series and in its posting:
#
#   ok   3/87 [1-stackdepot 3/33] x86_64: lib/stackdepot: add stack_depot_save_flags()
#
# Each target's counts go to build/results/bisect-TARGET ("passed failed
# skipped"), which make check-wide sums up.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

only=()
while [ $# -gt 0 ]; do
	case $1 in
	--posting)
		[ $# -ge 2 ] || die "usage: $0 [--posting NAME]... [TARGET...]"
		only+=("${2#posting/}")
		shift 2
		;;
	-*) die "usage: $0 [--posting NAME]... [TARGET...]" ;;
	*) break ;;
	esac
done
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(x86_64 arm64-mte)
[ -d "$TREE/.git" ] || die "no tree at build/linux (make tree)"

# The bisect tree: a worktree of build/linux, made again when build/linux
# was (a worktree of the old repository has no git directory any more).
wt=$(tree_dir bisect)
common=$(git -C "$wt" rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)
if [ -z "$common" ] || [ "$(realpath "$common")" != "$(realpath "$TREE/.git")" ]; then
	rm -rf "$wt"
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$wt" base
fi

# Each commit's posting and its place there: "1-stackdepot 3/33".
declare -A where=()
prev=base
while IFS= read -r t; do
	git -C "$TREE" merge-base --is-ancestor "$t" HEAD || continue
	mapfile -t cs < <(git -C "$TREE" rev-list --reverse "$prev..$t")
	for j in "${!cs[@]}"; do
		where[${cs[$j]}]="${t#posting/} $((j + 1))/${#cs[@]}"
	done
	prev=$t
done < <(posting_tags)
for p in "${only[@]}"; do
	git -C "$TREE" rev-parse -q --verify "refs/tags/posting/$p" >/dev/null ||
		die "no posting $p: build/linux has $(posting_tags | sed 's|^posting/||' | tr '\n' ' ')"
done

mapfile -t commits < <(git -C "$TREE" rev-list --reverse base..HEAD)
declare -A ok=() bad=()
for t in "${targets[@]}"; do ok[$t]=0 bad[$t]=0; done
i=0
for c in "${commits[@]}"; do
	i=$((i + 1))
	[ "$i" -ge "${FROM:-1}" ] || continue
	[ "$i" -le "${TO:-$i}" ] || break
	w=${where[$c]:-no posting}
	if [ ${#only[@]} -gt 0 ]; then
		mine=
		for p in "${only[@]}"; do [ "$p" != "${w% *}" ] || mine=1; done
		[ -n "$mine" ] || continue
	fi
	git -C "$wt" checkout -q --detach "$c"
	subj=$(git -C "$wt" log -1 --format=%s)
	for t in "${targets[@]}"; do
		if "$TOP/scripts/build-kernel.sh" --kind bisect "$t" >/dev/null 2>&1; then
			echo "ok   $i/${#commits[@]} [$w] $t: $subj"
			ok[$t]=$((${ok[$t]} + 1))
		else
			echo "FAIL $i/${#commits[@]} [$w] $t: $subj (log: build/logs/build-bisect-$t.log)"
			bad[$t]=$((${bad[$t]} + 1))
		fi
	done
done
mkdir -p "$BUILD/results"
P=0 F=0
for t in "${targets[@]}"; do
	echo "${ok[$t]} ${bad[$t]} 0" >"$BUILD/results/bisect-$t"
	P=$((P + ${ok[$t]})) F=$((F + ${bad[$t]}))
done
echo "bisect: $P passed, $F failed"
[ "$F" = 0 ]
