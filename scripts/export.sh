#!/bin/bash
# Export the series (build/linux: base..HEAD) into patches/ as git
# format-patch output with a cover letter whose text is cover-letter.txt
# (first paragraph: subject; the rest: body).  patches/BASE records the
# package version the series was exported against.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -d "$TREE/.git" ] || die "no tree at build/linux (make tree)"
cd "$TREE"
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
	die "build/linux has uncommitted changes: commit them first"
n=$(git rev-list --count base..HEAD)
[ "$n" -gt 0 ] || die "no commits on top of base"

git config branch.series.description "$(cat "$TOP/cover-letter.txt")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git format-patch -q --zero-commit --cover-letter --cover-from-description=subject \
	--base=base -o "$tmp" base..HEAD
rm -f "$TOP"/patches/*.patch
mkdir -p "$TOP/patches"
mv "$tmp"/*.patch "$TOP/patches/"
echo "$SRC_PKG $(git tag -l --format='%(contents:subject)' base | sed "s/^$SRC_PKG //")" \
	>"$TOP/patches/BASE"
# The tree now is what patches/ holds (see tree.sh --sync).
git tag -f series-applied >/dev/null
git config kmemobs.patches "$(cat "$TOP"/patches/*.patch | sha1sum | cut -c1-16)"
echo "export: $n patches + cover letter in patches/ (base: $(cat "$TOP/patches/BASE"))"
git -C "$TOP" status --short patches/
