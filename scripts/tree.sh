#!/bin/bash
# Re-create build/linux: the Debian linux-source-6.1 tarball as one base
# commit (tag "base"), with the postings in patches/ applied by git am in
# the order of their file names (cover letters skipped).  The last commit
# of each posting gets the lightweight tag posting/<P>-<name>, the last of
# all the tag series-applied (see lib.sh for the layout).
#
#   scripts/tree.sh           create the tree if missing, else do nothing
#   scripts/tree.sh --force   throw the tree away and re-create it
#   scripts/tree.sh --sync    as without options, but re-create the tree
#                             when patches/ changed since it was made and
#                             it holds no commits of its own since
#
# build/baseline/linux, the unpatched base for baseline builds, is a git
# worktree of the same repository checked out at the base tag.
#
# The base commit has fixed author, committer and dates, so the same
# package version always gives the same commit id on every machine: the
# cover letter's base-commit: line identifies the package version.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

force= sync= dest=$TREE
case ${1:-} in
"") ;;
--force) force=1 ;;
--sync) sync=1 ;;
*) die "usage: $0 [--force | --sync]" ;;
esac

[ -f "$SRC_TARBALL" ] || die "$SRC_TARBALL missing: run scripts/install-deps.sh"
ver=$(pkg_version)
stamp=$(patches_stamp)
mapfile -t files < <(patch_files)
problems=$(layout_problems --order)
[ -z "$problems" ] || die "patches/ does not follow the postings layout (scripts/lib.sh):
$problems"
recorded=$(sed -n "s/^$SRC_PKG //p" "$PATCHES/BASE" 2>/dev/null || true)

# ensure_baseline TREE: the baseline tree is a worktree of TREE at base.
ensure_baseline() {
	local wt
	wt=$(tree_dir baseline)
	if [ "$(git -C "$wt" rev-parse HEAD 2>/dev/null)" != \
	     "$(git -C "$1" rev-parse 'base^{commit}')" ]; then
		rm -rf "$wt"
		git -C "$1" worktree prune
		git -C "$1" worktree add -q --detach "$wt" base
	fi
}

if [ -d "$dest/.git" ] && [ -z "$force" ]; then
	have=$(git -C "$dest" tag -l --format='%(contents:subject)' base)
	made_from=$(git -C "$dest" config kmemobs.patches || true)
	if [ -n "$sync" ] && [ "$made_from" != "$stamp" ]; then
		if [ "$(git -C "$dest" rev-parse HEAD)" = "$(git -C "$dest" rev-parse -q --verify series-applied)" ] &&
		   [ -z "$(git -C "$dest" status --porcelain --untracked-files=no)" ]; then
			echo "tree: patches/ changed since ${dest#"$TOP"/} was made: re-creating"
			have=
		else
			echo "tree: note: ${dest#"$TOP"/} has work of its own beyond patches/; using it as it is"
		fi
	fi
	if [ "$have" = "$SRC_PKG $ver" ]; then
		ensure_baseline "$dest"
		echo "tree: ${dest#"$TOP"/} exists (base $have); --force re-creates it"
		exit 0
	fi
	echo "tree: ${dest#"$TOP"/} has base '$have', package is $ver: re-creating"
fi

rm -rf "$dest"
mkdir -p "$dest"
phase "extract $SRC_PKG $ver into ${dest#"$TOP"/}"
tar -xf "$SRC_TARBALL" -C "$dest" --strip-components=1

phase "base commit"
export GIT_AUTHOR_NAME="Debian linux-source" GIT_AUTHOR_EMAIL="linux-source@debian.invalid"
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
export GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z"
cd "$dest"
git init -q -b series
git config core.autocrlf false
git config gc.auto 0
# The tarball ships its own .gitignore files: add everything that is in it.
git add -A -f .
git commit -q -m "$SRC_PKG $ver" -m "Unmodified contents of Debian's $SRC_TARBALL."
git tag -a base -m "$SRC_PKG $ver"
unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE
git config user.name >/dev/null || git config user.name "kmemobs developer"
git config user.email >/dev/null || git config user.email "dev@kmemobs.invalid"

ensure_baseline "$dest"

n=0 postings=0 cur=
for p in "${files[@]}"; do
	post=$(posting_of "$p")
	if [ "$post" != "$cur" ]; then
		[ -z "$cur" ] || { git tag "posting/$cur"; postings=$((postings + 1)); }
		cur=$post
	fi
	is_cover "$p" && continue
	if ! git am -q --keep-cr "$p" >"$LOGS/git-am.log" 2>&1; then
		git am --abort >/dev/null 2>&1 || true
		grep -v -E '^(hint:|When you have|If you prefer|To restore)' "$LOGS/git-am.log" >&2
		# Keep the half-made tree for inspection, out of the way of the
		# next run, which must not take it for a complete one.
		cd "$TOP"
		rm -rf "$dest.failed"
		mv "$dest" "$dest.failed"
		git -C "$dest.failed" worktree prune
		die "patch ${p#"$TOP"/} (posting $post) does not apply to $SRC_PKG $ver (the series was exported against ${recorded:-an unknown version}); the partial tree is in ${dest#"$TOP"/}.failed"
	fi
	n=$((n + 1))
done
[ -z "$cur" ] || { git tag "posting/$cur"; postings=$((postings + 1)); }
git tag -f series-applied >/dev/null
git config kmemobs.patches "$stamp"
phase "done: base $(git rev-parse --short base) ($SRC_PKG $ver) + $n patches in $postings postings"
