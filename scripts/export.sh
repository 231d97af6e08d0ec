#!/bin/bash
# Export the series (build/linux: base..HEAD) into patches/ as one git
# format-patch output per posting (layout: scripts/lib.sh).
#
# The posting/<P>-<name> tags of build/linux, sorted by name, mark where
# each posting ends: a posting is the commits after the previous tag (or
# base) up to and including its own.  Commits after the last tag are an
# error: tag them (a new posting) or move the last tag onto HEAD.  A tag
# left on a commit that a rebase replaced is moved to the commit of
# base..HEAD with the same subject, when there is exactly one.
#
# Each posting's cover letter keeps the subject (with its prefix, such as
# "PATCH v2") and the text of its patches/<P>-<name>-0000-cover-letter.patch,
# the one place that text lives: edit it there.  Everything after the text
# is regenerated: shortlog, diffstat and, from git format-patch --base=base,
# "base-commit:" (the base commit, which names the package version, see
# tree.sh) followed, from the second posting on, by one
# "prerequisite-patch-id:" line for each patch of the postings before it.
# A posting without a cover letter yet gets a placeholder text (make
# series fails on it).  A cover letter that changed only in its Date: is
# kept as it was, so exporting twice changes nothing.
#
# Everything is written to a temporary directory first; patches/*.patch
# is replaced only once every posting exported.  patches/BASE records the
# package version the series was exported against.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -d "$TREE/.git" ] || die "no tree at build/linux (make tree)"
cd "$TREE"
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
	die "build/linux has uncommitted changes: commit them first"
for d in rebase-merge rebase-apply; do
	[ ! -e "$(git rev-parse --git-path "$d")" ] || die "build/linux is in the middle of a rebase or git am: finish it first"
done
n=$(git rev-list --count base..HEAD)
[ "$n" -gt 0 ] || die "no commits on top of base"

# The postings: their tags, names and last commits.
mapfile -t tags < <(posting_tags)
[ ${#tags[@]} -gt 0 ] || die "build/linux has no posting/* tag: tag the last commit of each posting,
  git tag posting/1-<name> <commit>   (see the layout in scripts/lib.sh)"
names=() commits=() moves=()
width=
for t in "${tags[@]}"; do
	name=${t#posting/}
	[[ $name =~ ^$POSTING_RE$ ]] || die "tag $t: a posting tag is posting/<number>-<name>, the name of lower-case letters, digits and _"
	num=${name%%-*}
	[ -n "$width" ] || width=${#num}
	[ ${#num} = "$width" ] || die "tag $t: its number has ${#num} digits, ${tags[0]}'s $width: the postings would sort out of order"
	for o in "${names[@]}"; do
		[ "$((10#${o%%-*}))" != "$((10#$num))" ] || die "tags posting/$o and $t have the same number"
	done
	c=$(git rev-parse "$t^{commit}")
	if ! git merge-base --is-ancestor "$c" HEAD || git merge-base --is-ancestor "$c" base; then
		# Left behind by a rebase: find its commit again by the subject.
		subj=$(git log -1 --format=%s "$c")
		mapfile -t same < <(git log --format='%H %s' base..HEAD |
			SUBJ=$subj awk 'substr($0, 42) == ENVIRON["SUBJ"] { print $1 }')
		[ ${#same[@]} = 1 ] || die "tag $t is on $(git rev-parse --short "$c") (\"$subj\"), which is not in base..HEAD, and ${#same[@]} commits there have its subject:
  git tag -f $t <the last commit of the posting>"
		moves+=("$t ${same[0]}")
		echo "export: $t moves to $(git rev-parse --short "${same[0]}") (\"$subj\"): its commit is no longer in base..HEAD"
		c=${same[0]}
	fi
	if [ ${#commits[@]} -gt 0 ]; then
		prev=${commits[-1]}
		if [ "$c" = "$prev" ] || ! git merge-base --is-ancestor "$prev" "$c"; then
			die "tag $t holds no commit after posting/${names[-1]}: each posting tag must come after the one before it"
		fi
	fi
	names+=("$name")
	commits+=("$c")
done
rest=$(git rev-list --count "${commits[-1]}..HEAD")
[ "$rest" = 0 ] || die "$rest commits after the last posting (posting/${names[-1]}) belong to no posting:
  git tag -f posting/${names[-1]} HEAD          to add them to that posting, or
  git tag posting/<number>-<name> HEAD   to make them a new posting (it sorts after posting/${names[-1]})"

tmp=$(mktemp -d "$BUILD/export.XXXXXX")
branch=kmemobs-export-$$
trap 'rm -rf "$tmp"; git branch -q -D "$branch" 2>/dev/null || true' EXIT
mkdir "$tmp/out"
prev=base
for i in "${!names[@]}"; do
	name=${names[$i]}
	old=$PATCHES/$name-0000-cover-letter.patch
	if [ -f "$old" ]; then
		desc=$(python3 "$TOP/scripts/cover-letter.py" description "$old") ||
			die "cannot read the subject and text of ${old#"$TOP"/}"
		prefix=$(python3 "$TOP/scripts/cover-letter.py" prefix "$old")
	else
		echo "export: warning: posting $name has no cover letter yet: ${old#"$TOP"/} gets a placeholder; write its subject and text there" >&2
		desc=$'*** SUBJECT HERE ***\n\n*** cover letter to be written ***'
		prefix=PATCH
	fi
	# git takes the subject and text of a cover letter from the
	# description of the branch it exports: a branch of its own here.
	git branch -q -f "$branch" "${commits[$i]}"
	git -c "branch.$branch.description=$desc" format-patch -q --zero-commit \
		--cover-letter --cover-from-description=subject --subject-prefix="$prefix" \
		--base=base -o "$tmp/$name" "$prev..$branch"
	for f in "$tmp/$name"/*.patch; do
		mv "$f" "$tmp/out/$name-${f##*/}"
	done
	new=$tmp/out/$name-0000-cover-letter.patch
	if [ -f "$old" ] && cmp -s <(sed '1,/^$/{/^Date: /d}' "$old") <(sed '1,/^$/{/^Date: /d}' "$new"); then
		cp "$old" "$new"
	fi
	echo "export: $name: $(git rev-list --count "$prev..${commits[$i]}") patches ($(git log -1 --format=%s "${commits[$i]}"))"
	prev=${commits[$i]}
done

# Cover letters of postings that are gone.
while IFS= read -r f; do
	is_cover "$f" || [ "${f##*/}" = 0000-cover-letter.patch ] || continue
	[ -f "$tmp/out/${f##*/}" ] ||
		echo "export: warning: ${f#"$TOP"/} belongs to no posting now: its text is dropped (git show HEAD:${f#"$TOP"/} has it)" >&2
done < <(patch_files)

mkdir -p "$PATCHES"
rm -f "$PATCHES"/*.patch
mv "$tmp"/out/*.patch "$PATCHES/"
echo "$SRC_PKG $(git tag -l --format='%(contents:subject)' base | sed "s/^$SRC_PKG //")" \
	>"$PATCHES/BASE"
# The tree now is what patches/ holds (see tree.sh --sync).
for m in "${moves[@]}"; do
	git tag -f "${m% *}" "${m#* }" >/dev/null
done
git tag -f series-applied >/dev/null
git config kmemobs.patches "$(patches_stamp)"
echo "export: $n patches in ${#names[@]} postings in ${PATCHES#"$TOP"/}/ (base: $(cat "$PATCHES/BASE"))"
git -C "$TOP" status --short "$PATCHES/" 2>/dev/null || true
