#!/bin/bash
# Checks on the series itself:
#  - patches/ follows the postings layout (scripts/lib.sh): names,
#    numbering, a cover letter for each posting;
#  - every posting's cover letter has a subject and text of its own, no
#    placeholder (scripts/cover-letter.py check);
#  - self-churn (scripts/self-churn.py): of the lines the series adds,
#    less than SELF_CHURN_MAX percent (2.0) are removed again by a later
#    patch: a posting shows its final design once;
#  - the postings machinery itself (tree.sh, export.sh and the checks
#    above) on a tree of a few files: tests/postings/run.sh;
#  - scripts/checkpatch.pl --strict on every patch of every posting: no
#    error, warning or check;
#  - scripts/kernel-doc -none on every C file and header the series
#    touches: no warning that the file does not have in the base;
#  - a W=1 build of the touched directories for each guest target: no
#    warning or compiler error the unpatched base does not have (the
#    base's are listed in tests/base-warnings/; the base is built only
#    when a warning is not in the list);
#  - every 6.1 user of the stack depot compiles (x86_64-users with gcc;
#    objects only; with --users x86_64-kmsan, for make check-wide, the
#    KMSAN ones with clang).
# Counts go to build/results/series.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/targets.sh"

SELF_CHURN_MAX=${SELF_CHURN_MAX:-2.0}
passed=0 failed=0
mkdir -p "$BUILD/results"
mapfile -t patches < <(patch_files)

# depot_users TARGET...: every 6.1 user of the stack depot still builds:
# compile their objects in configurations that enable them (compile only,
# no link or boot).
DEPOT_USERS="lib/stackdepot.o mm/kasan/ mm/kmemleak.o mm/page_owner.o mm/slub.o
	lib/ref_tracker.o drivers/gpu/drm/drm_mm.o drivers/gpu/drm/drm_modeset_lock.o
	drivers/gpu/drm/display/drm_dp_mst_topology.o
	drivers/gpu/drm/i915/intel_runtime_pm.o"
KMSAN_USERS="lib/stackdepot.o mm/kmsan/"
depot_users() {
	local t objs
	for t in "$@"; do
		objs=$DEPOT_USERS
		[ "$t" = x86_64-kmsan ] && objs=$KMSAN_USERS
		phase "depot users build: $t ($(echo $objs | wc -w) objects)"
		# shellcheck disable=SC2086
		if "$TOP/scripts/build-kernel.sh" "$t" $objs >/dev/null 2>"$LOGS/users-$t.err"; then
			judge "depot users build $t" ""
		else
			judge "depot users build $t" "$(grep -E 'error|config:' "$LOGS/users-$t.err" "$LOGS/build-$t.log" 2>/dev/null | head -n 20)"
		fi
	done
}

# scripts/check-series.sh --users TARGET...: only the depot users' build
# of TARGETs, counted in build/results/users.
if [ "${1:-}" = --users ]; then
	shift
	depot_users "$@"
	echo "users: $passed passed, $failed failed"
	echo "$passed $failed 0" >"$BUILD/results/users"
	exit $((failed != 0))
fi

phase "layout of patches/: postings, numbering, cover letters"
judge "postings layout" "$(layout_problems --all)"

phase "cover letters: a subject and text of their own"
for p in "${patches[@]}"; do
	is_cover "$p" || continue
	judge "cover letter ${p##*/}" "$(cd "$TOP" && python3 scripts/cover-letter.py check "${p#"$TOP"/}" 2>&1)"
done

if [ ${#patches[@]} -gt 0 ]; then
	phase "self-churn: lines a later patch removes again (below $SELF_CHURN_MAX%)"
	churn=$(python3 "$TOP/scripts/self-churn.py" --max "$SELF_CHURN_MAX" "${patches[@]}" 2>&1)
	rc=$?
	grep -m 1 '^self-churn:' <<<"$churn" | sed 's/^/  /'
	if [ $rc = 0 ]; then
		judge "self-churn below $SELF_CHURN_MAX%" ""
	else
		judge "self-churn below $SELF_CHURN_MAX%" "$churn"
	fi
fi

# The machinery serves both lines: its own test runs once, with 6.1's.
if [ "$LINE" = 6.1 ]; then
	phase "the postings scripts on a small tree (tests/postings/run.sh)"
	judge "tests/postings/run.sh" "$("$TOP/tests/postings/run.sh" 2>&1 | grep -A 20 '^FAIL')"
fi

cd "$TREE" || die "no tree (make tree)"

# checkpatch asks "does MAINTAINERS need updating?" of every patch that
# adds a file without touching MAINTAINERS, whether or not an entry
# already covers the file.  The series adds an entry (a mailing list, no
# person) where a new file has none, in the patch that adds the first of
# its files, so the question is replaced by the real check below: every
# file the series adds has an entry other than THE REST.
# The base is a tarball without history, in which checkpatch finds no
# commit that a Fixes: tag or a changelog names (UNKNOWN_COMMIT_ID): the
# ids both lines name are mainline's, checked when they were written.
CHECKPATCH_IGNORE=FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID
phase "checkpatch --strict on every patch of every posting"
for p in "${patches[@]}"; do
	is_cover "$p" && continue
	judge "checkpatch ${p##*/}" "$(./scripts/checkpatch.pl --strict --no-tree -q --ignore "$CHECKPATCH_IGNORE" "$p" 2>&1)"
done

phase "MAINTAINERS: every file the series adds has an entry"
unlisted=
while read -r f; do
	case $f in tools/testing/* | */Makefile | */Kconfig* | */.gitignore) continue ;; esac
	# The entries that match F:/N: lines, without THE REST's fallback.
	e=$(./scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats \
		--no-tree --sections -f "$f" 2>/dev/null |
		grep -v -e '^THE REST$' -e '^$' -e $'^[A-Z]:\t' | grep -c .)
	[ "$e" -gt 0 ] || unlisted+="$f"$'\n'
done < <(git diff --name-only --diff-filter=A base..HEAD)
judge "new files have a MAINTAINERS entry" "$unlisted"

phase "kernel-doc -none on touched sources (no warning the base file lacks)"
# kdoc TREE FILE: kernel-doc warnings without line numbers.
kdoc() {
	[ -f "$1/$2" ] || return 0
	(cd "$1" && ./scripts/kernel-doc -none "$2" 2>&1) | sed -E 's/:[0-9]+:/:/' | sort -u
}
mapfile -t files < <(git diff --name-only --diff-filter=AM base..HEAD -- '*.c' '*.h')
for f in "${files[@]}"; do
	judge "kernel-doc $f" "$(comm -23 <(kdoc "$TREE" "$f") <(kdoc "$(tree_dir baseline)" "$f"))"
done

# Directories with a Makefile that the series touches.
dirs=()
for f in $(git diff --name-only base..HEAD -- '*.c' '*.h'); do
	d=${f%/*}
	case $d in include/* | arch/*/include/* | tools/* | Documentation/* | scripts/*) continue ;; esac
	while [ ! -f "$d/Makefile" ] && [ "$d" != "${d%/*}" ]; do d=${d%/*}; done
	[ -f "$d/Makefile" ] && dirs+=("$d")
done
# Headers only: build the directories that include them most (mm/ and lib/).
[ ${#dirs[@]} -eq 0 ] && [ ${#files[@]} -gt 0 ] && dirs=(mm lib)
mapfile -t dirs < <(printf '%s\n' "${dirs[@]}" | sort -u)

# w1 KIND TARGET DIRS...: W=1 warnings and compiler errors of DIRS in
# TARGET's KIND build, without line numbers.  The guest targets build
# with W=1 (targets.sh), so this is the same compile as their kernel's
# and the guest step later reuses the objects.  The objects of DIRS are
# deleted first so that every warning is printed again (ccache replays
# the compiler's messages, so a second run stays cheap).  -k: a file
# that fails to build (the base does not build with KASAN_HW_TAGS) must
# not hide the warnings of the files after it, and an error the base
# does not have fails the check like a warning.
w1() {
	local kind=$1 target=$2
	shift 2
	local out tree a
	out=$(out_dir "$kind" "$target")
	tree=$(tree_dir "$kind")
	for a in "$@"; do
		[ -d "$out/$a" ] && find "$out/$a" -name '*.o' -delete
	done
	"$TOP/scripts/build-kernel.sh" --kind "$kind" "$target" -k "${@/%//}" >/dev/null 2>&1
	grep -E '(warning|error):' "$LOGS/build-$(kind_name "$kind" "$target").log" |
		sed -E -e "s|$tree/||g" -e 's#(\.\./)+linux/##g' \
			-e 's/:[0-9]+(:[0-9]+)?:/:/' | sort -u
}

# The base's W=1 warnings do not change unless the configuration, the
# directories, the base or the compiler do: tests/base-warnings/ keeps
# them, headed by a key naming all four, so that make check builds the
# unpatched base only when the patched build has a warning the list
# lacks (or the key no longer matches).  A baseline build writes its list
# to build/results/, to be copied there when the key changed.
w1_key() { # w1_key TARGET DIRS...
	local t=$1
	shift
	echo "# $t; $(cat "$(out_dir patched "$t")/.fragments"); $(git -C "$(tree_dir baseline)" describe --always --tags 2>/dev/null); $("${CROSS}gcc" --version | head -n 1); $*"
}

if [ ${#dirs[@]} -gt 0 ]; then
	# The line's guests built at W=1 (targets.sh).
	w1_targets="x86_64 arm64-mte"
	[ "$LINE" = 7.3 ] && w1_targets="x86_64 arm64-sw-tags"
	for target in $w1_targets; do
		target_env "$target"
		mine=() # directories that exist for this architecture
		for d in "${dirs[@]}"; do
			case $d in
			arch/"${ARCH%_64}" | arch/"${ARCH%_64}"/*) ;;
			arch/*) continue ;;
			esac
			mine+=("$d")
		done
		[ ${#mine[@]} -gt 0 ] || continue
		phase "W=1 build of ${mine[*]} for $target"
		"$TOP/scripts/build-kernel.sh" "$target" prepare >/dev/null ||
			{ judge "W=1 $target" "the kernel does not configure"; continue; }
		w1 patched "$target" "${mine[@]}" >"$BUILD/results/w1-$target.txt"
		key=$(w1_key "$target" "${mine[@]}")
		list=$LINE_DIR/tests/base-warnings/w1-$target.txt
		new=
		if [ -f "$list" ] && [ "$(head -n 1 "$list")" = "$key" ]; then
			new=$(comm -23 "$BUILD/results/w1-$target.txt" <(tail -n +2 "$list"))
			[ -z "$new" ] || phase "W=1 $target: $(echo "$new" | wc -l) warnings not in ${list#"$TOP"/}: build the base to compare"
		else
			phase "W=1 $target: ${list#"$TOP"/} is missing or for another configuration: build the base"
			new=unknown
		fi
		if [ -n "$new" ]; then
			if "$TOP/scripts/build-kernel.sh" --baseline "$target" prepare >/dev/null; then
				{ echo "$key"; w1 baseline "$target" "${mine[@]}"; } >"$BUILD/results/w1-base-$target.txt"
				new=$(comm -23 "$BUILD/results/w1-$target.txt" <(tail -n +2 "$BUILD/results/w1-base-$target.txt"))
				if [ ! -f "$list" ]; then
					phase "W=1 $target: no ${list#"$TOP"/}; build/results/w1-base-$target.txt has the base's warnings: copy it there"
				elif ! cmp -s "$list" "$BUILD/results/w1-base-$target.txt"; then
					phase "W=1 $target: the base's warnings differ from ${list#"$TOP"/}; build/results/w1-base-$target.txt has them"
				fi
			else
				new="the unpatched base does not configure"
			fi
		fi
		judge "W=1 $target: new warnings or errors" "$new"
	done
fi

# make check builds the gcc users; make check-wide the clang ones
# (scripts/check.sh kmsan-users): clang's prepare alone costs minutes on
# a fresh machine.
[ "$LINE" = 6.1 ] && depot_users x86_64-users

echo "series: $passed passed, $failed failed"
mkdir -p "$BUILD/results"
echo "$passed $failed 0" >"$BUILD/results/series"
[ "$failed" = 0 ]
