#!/bin/bash
# The postings machinery on a tree of a few files: scripts/tree.sh,
# scripts/export.sh, the layout check of scripts/lib.sh,
# scripts/cover-letter.py and scripts/self-churn.py, run from a copy of
# scripts/ in a temporary directory with a source tarball of its own
# (KMEMOBS_SRC_TARBALL), so that neither patches/ nor build/ of this
# repository is touched.  Prints "ok"/"FAIL" per check, then
# "postings: N passed, N failed"; exits non-zero on a failure.
#
#   tests/postings/run.sh        (the series step of make check runs it)
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

# check NAME CMD...: CMD succeeds.  Its output is kept in $work/last for
# the checks after it ("has PATTERN $work/last").
check() {
	local name=$1 rc=0
	shift
	"$@" >"$work/out" 2>&1 || rc=1
	if [ $rc = 0 ]; then
		passed=$((passed + 1))
		echo "ok   $name"
	else
		failed=$((failed + 1))
		echo "FAIL $name"
		sed 's/^/    /' "$work/out" | head -n 20
	fi
	cp "$work/out" "$work/last"
}
fails() { ! "$@"; }
has() { grep -q -- "$1" "$2"; } # has PATTERN FILE
# The identity of the commits and cover letters, whatever git's config.
export GIT_AUTHOR_NAME="Postings Test" GIT_AUTHOR_EMAIL=test@kmemobs.invalid
export GIT_COMMITTER_NAME="Postings Test" GIT_COMMITTER_EMAIL=test@kmemobs.invalid

# A source "package": three files.
mkdir -p "$work/pkg/linux-source-6.1/lib" "$work/pkg/linux-source-6.1/mm"
for f in lib/stackdepot.c mm/page_owner.c lib/alloc_tag.c; do
	seq 1 40 | sed "s|.*|/* $f, line & of the base */|" >"$work/pkg/linux-source-6.1/$f"
done
tar -cJf "$work/src.tar.xz" -C "$work/pkg" linux-source-6.1
export KMEMOBS_SRC_TARBALL=$work/src.tar.xz KMEMOBS_SRC_VERSION=6.1.0-1test
top=$work/top
mkdir -p "$top/patches"
cp -r "$src/scripts" "$top/"
tree=$top/build/linux
T() { git -C "$tree" "$@"; }
commit() { # commit FILE LINE TEXT SUBJECT
	sed -i "$2s|.*|$3|" "$tree/$1"
	T commit -q -a -m "$4" -m "Why: $4."
}
layout() { (. "$top/scripts/lib.sh" && layout_problems --all); }
empty() { [ ! -s "$1" ]; }

check "tree.sh makes a base-only tree from no patches" "$top/scripts/tree.sh"
commit lib/stackdepot.c 3 'static int depot_evictable_records_count;' 'lib/stackdepot: count evictable records'
commit lib/stackdepot.c 5 'void stack_depot_put(depot_stack_handle_t handle);' 'lib/stackdepot: add stack_depot_put()'
T tag posting/1-stackdepot
commit mm/page_owner.c 7 'static long page_owner_stack_pages_total;' 'mm, page_owner: count the pages of each stack'
T tag posting/2-page_owner
commit lib/alloc_tag.c 9 'struct alloc_tag { long bytes, calls; };' 'lib: add allocation tags'
check "export.sh refuses a commit after the last posting tag" fails "$top/scripts/export.sh"
check "... and says how to make a posting" has 'git tag posting/<number>-<name> HEAD' "$work/last"
T tag posting/3-alloc_profiling
check "export.sh writes three postings" "$top/scripts/export.sh"
check "... warning about their missing cover letters" has 'posting 3-alloc_profiling has no cover letter yet' "$work/last"
(cd "$top/patches" && ls) >"$work/names"
check "... in the layout, in applying order" diff -u - "$work/names" <<'EOF'
1-stackdepot-0000-cover-letter.patch
1-stackdepot-0001-lib-stackdepot-count-evictable-records.patch
1-stackdepot-0002-lib-stackdepot-add-stack_depot_put.patch
2-page_owner-0000-cover-letter.patch
2-page_owner-0001-mm-page_owner-count-the-pages-of-each-stack.patch
3-alloc_profiling-0000-cover-letter.patch
3-alloc_profiling-0001-lib-add-allocation-tags.patch
BASE
EOF
layout >"$work/layout"
check "layout_problems finds nothing" empty "$work/layout"
check "the first cover letter names the base" has '^base-commit: ' "$top/patches/1-stackdepot-0000-cover-letter.patch"
check "the third lists the three patches before it" \
	test "$(grep -c '^prerequisite-patch-id: ' "$top/patches/3-alloc_profiling-0000-cover-letter.patch")" = 3
check "cover-letter.py rejects the placeholders" \
	fails python3 "$top/scripts/cover-letter.py" check "$top"/patches/*-0000-cover-letter.patch
check "... of every posting" test "$(grep -c 'cover letter to be written' "$work/last")" = 3

# Hand-written subjects and texts survive the next exports.
for p in "$top"/patches/*-0000-cover-letter.patch; do
	python3 - "$p" <<'EOF'
import sys
path = sys.argv[1]
name = path.rsplit("/", 1)[1].split("-0000-")[0]
s = open(path, encoding="utf-8").read()
s = s.replace("*** SUBJECT HERE ***", f"{name}: the subject, long enough to be folded by git when it writes the header")
s = s.replace("*** cover letter to be written ***", f"Text of {name}, café.\n\n  Indented (2):\n    not a shortlog")
if name.startswith("2-"):
    s = s.replace("[PATCH]", "[PATCH v2]").replace("[PATCH 0/1]", "[PATCH v2 0/1]")
open(path, "w", encoding="utf-8").write(s)
EOF
done
check "cover-letter.py accepts the written ones" python3 "$top/scripts/cover-letter.py" check "$top"/patches/*-0000-cover-letter.patch
# Prose wider than 75 columns is refused; an indented line (a table) may be.
long=$(printf 'word %.0s' $(seq 16))
sed "s/^Text of 1-stackdepot, café\.\$/&\n$long/" "$top/patches/1-stackdepot-0000-cover-letter.patch" >"$work/wide.patch"
sed "s/^Text of 1-stackdepot, café\.\$/&\n  $long/" "$top/patches/1-stackdepot-0000-cover-letter.patch" >"$work/table.patch"
check "cover-letter.py refuses a prose line of 80 columns" \
	fails python3 "$top/scripts/cover-letter.py" check "$work/wide.patch"
check "... and says so" has 'text line 2 has 80 columns (at most 75)' "$work/last"
check "... but takes it indented" python3 "$top/scripts/cover-letter.py" check "$work/table.patch"
cp -r "$top/patches" "$work/written"
check "export.sh again" "$top/scripts/export.sh"
check "... keeps the texts" diff <(python3 "$top/scripts/cover-letter.py" description "$work/written/1-stackdepot-0000-cover-letter.patch") \
	<(python3 "$top/scripts/cover-letter.py" description "$top/patches/1-stackdepot-0000-cover-letter.patch")
rm -r "$work/written"
cp -r "$top/patches" "$work/written"
check "export.sh once more" "$top/scripts/export.sh"
check "... changes nothing (cover letters kept byte for byte)" diff -r "$work/written" "$top/patches"
check "... and a posting's subject prefix stays on its patches" has '^Subject: \[PATCH v2 1/1\] mm, page_owner' "$top/patches/2-page_owner-0001-mm-page_owner-count-the-pages-of-each-stack.patch"

# A tree made again from patches/ has the same postings.
check "tree.sh --force" "$top/scripts/tree.sh" --force
check "... tags each posting's last commit" test "$(T rev-list --count posting/1-stackdepot..posting/2-page_owner)" = 1
check "... and the series" test "$(T rev-parse series-applied)" = "$(T rev-parse posting/3-alloc_profiling)"
check "... and exports to the same files" "$top/scripts/export.sh"
check "... byte for byte" diff -r "$work/written" "$top/patches"

# Editing a cover letter does not make tree.sh --sync re-create the tree.
sed -i 's/^Text of 1-stackdepot, café\.$/Text of 1-stackdepot, edited./' "$top/patches/1-stackdepot-0000-cover-letter.patch"
check "tree.sh --sync after a cover letter edit" "$top/scripts/tree.sh" --sync
check "... keeps the tree" has 'exists' "$work/last"

# A rebase leaves the tags behind: export finds their commits by subject.
T -c core.editor=true rebase -q -x 'git commit -q --amend --no-edit --date=now' base >/dev/null 2>&1
check "export.sh after a rebase" "$top/scripts/export.sh"
check "... moves the tags" test "$(T rev-parse posting/3-alloc_profiling)" = "$(T rev-parse HEAD)"

# The layout check.
mv "$top/patches/2-page_owner-0001-mm-page_owner-count-the-pages-of-each-stack.patch" "$top/patches/2-page_owner-0002-x.patch"
cp "$top/patches/1-stackdepot-0001-lib-stackdepot-count-evictable-records.patch" "$top/patches/0001-flat.patch"
cp "$top/patches/1-stackdepot-0001-lib-stackdepot-count-evictable-records.patch" "$top/patches/10-wide-0001-x.patch"
layout >"$work/layout"
check "layout_problems finds a gap" has '2-page_owner-0002-x.patch: numbered 0002 where 0001 was next' "$work/layout"
check "... a name outside the layout" has '0001-flat.patch: not <P>-<name>-NNNN-<slug>.patch' "$work/layout"
check "... a number of another width" has '10-wide: its number has 2 digits' "$work/layout"
check "... a posting without a cover letter" has '10-wide: no cover letter' "$work/layout"
check "tree.sh refuses it" fails "$top/scripts/tree.sh" --force

# Self-churn: a line added and removed again by a later patch.
mkdir "$work/churn"
for i in 1 2; do
	{
		printf 'From: a <a@b>\nSubject: [PATCH %s/2] x\n\n---\ndiff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n@@ -1 +1 @@\n' "$i"
		if [ "$i" = 1 ]; then
			printf '+int a_line_added_in_patch_one;\n+int a_line_that_stays_for_good;\n'
		else
			printf -- '-int a_line_added_in_patch_one;\n+int x;\n'
		fi
	} >"$work/churn/1-x-000$i-x.patch"
done
check "self-churn.py counts a line taken back" fails python3 "$top/scripts/self-churn.py" --max 2.0 "$work"/churn/*.patch
check "... as 1 of 2 added lines" has 'self-churn: 1 of 2 added lines (50.00%)' "$work/last"
check "... and passes a bound above it" python3 "$top/scripts/self-churn.py" --max 60 "$work"/churn/*.patch

echo "postings: $passed passed, $failed failed"
[ "$failed" = 0 ]
