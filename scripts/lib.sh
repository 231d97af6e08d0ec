# Common helpers sourced by the scripts in this directory.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# The two lines of postings, each on its own base (KMEMOBS_LINE picks one;
# the scripts default to 6.1):
#   6.1  Debian's linux-source-6.1 (installed, /usr/src): patches/,
#        configs/, tests/guest/, tests/modules/; built in build/
#   7.3  Debian's linux-source-7.3 (mainline; unpacked from trixie-backports
#        by install-deps.sh mainline into build/host/, nothing installed):
#        mainline/patches/, mainline/configs/, mainline/tests/guest/,
#        mainline/tests/modules/; built in build/7.3/
# Every path below follows the line; a script that serves both needs no
# other change.
LINE=${KMEMOBS_LINE:-6.1}
case $LINE in
6.1)
	LINE_DIR=$TOP
	BUILD=$TOP/build
	SRC_PKG=linux-source-6.1
	DEFAULT_TARBALL=/usr/src/linux-source-6.1.tar.xz
	;;
7.3)
	LINE_DIR=$TOP/mainline
	BUILD=$TOP/build/7.3
	SRC_PKG=linux-source-7.3
	DEFAULT_TARBALL=$TOP/build/host/linux-source-7.3/usr/src/linux-source-7.3.tar.xz
	;;
*)
	echo "error: KMEMOBS_LINE=$LINE: the lines are 6.1 and 7.3" >&2
	exit 1
	;;
esac
export KMEMOBS_LINE=$LINE
PATCHES=$LINE_DIR/patches
CONFIGS=$LINE_DIR/configs
GUEST_TESTS=$LINE_DIR/tests/guest
GUEST_MODULES=$LINE_DIR/tests/modules
TREE=$BUILD/linux
LOGS=$BUILD/logs
# KMEMOBS_SRC_TARBALL and KMEMOBS_SRC_VERSION stand in for the package
# in tests/postings/run.sh, which makes trees from a tarball of its own.
SRC_TARBALL=${KMEMOBS_SRC_TARBALL:-$DEFAULT_TARBALL}
mkdir -p "$LOGS"

# The series in patches/ is a sequence of postings, each one git
# format-patch output of its own (scripts/export.sh):
#   patches/<P>-<name>-0000-cover-letter.patch  its cover letter
#   patches/<P>-<name>-NNNN-<slug>.patch        its patches, from 0001
# <P> is a number, written with as many digits in every posting; <name>
# is lower-case letters, digits and "_" (no "-": it ends at "-NNNN-").
# Sorted by name in the C locale the files are in applying order.  In
# build/linux the last commit of each posting carries the lightweight tag
# posting/<P>-<name> (scripts/tree.sh makes them, scripts/export.sh reads
# them).
POSTING_RE='[0-9]+-[a-z0-9_]+'
POSTING_FILE_RE="^($POSTING_RE)-([0-9]{4})-(.+)\.patch\$"

# patch_files: $PATCHES/*.patch in applying order, one path a line.
patch_files() {
	local f
	for f in "$PATCHES"/*.patch; do
		if [ -e "$f" ]; then printf '%s\n' "$f"; fi
	done | LC_ALL=C sort
}

# is_cover FILE: FILE is a posting's cover letter.
is_cover() {
	case ${1##*/} in *-0000-cover-letter.patch) return 0 ;; esac
	return 1
}

# posting_of FILE: the posting FILE belongs to (<P>-<name>); fails for a
# name outside the layout.
posting_of() {
	[[ ${1##*/} =~ $POSTING_FILE_RE ]] || return 1
	echo "${BASH_REMATCH[1]}"
}

# layout_problems [--order]: one line for each way patches/*.patch
# departs from the layout above; nothing when it holds.  --order: only
# what leaves the applying order or the postings unknown (a name outside
# the layout, numbers of other widths or used twice), not a missing cover
# letter or a gap in the numbering.
layout_problems() {
	local f name post num p width='' first='' cur='' want=0 all=1
	[ "${1:-}" != --order ] || all=
	local -A owner=()
	while IFS= read -r f; do
		name=${f##*/}
		if ! [[ $name =~ $POSTING_FILE_RE ]]; then
			echo "$name: not <P>-<name>-NNNN-<slug>.patch"
			continue
		fi
		post=${BASH_REMATCH[1]} num=$((10#${BASH_REMATCH[2]}))
		if [ "$post" != "$cur" ]; then
			[ -z "$all" ] || [ -z "$cur" ] || [ "$want" -gt 1 ] || echo "$cur: no patch after its cover letter"
			cur=$post want=0 p=${post%%-*}
			[ -n "$width" ] || width=${#p} first=$post
			[ "${#p}" = "$width" ] ||
				echo "$post: its number has ${#p} digits, $first's $width: with other widths the postings sort out of order"
			[ -z "${owner[$((10#$p))]:-}" ] || echo "$post: posting ${owner[$((10#$p))]} has the same number"
			owner[$((10#$p))]=$post
		fi
		[ -z "$all" ] && continue
		if [ "$want" = 0 ] && [ "$num" != 0 ]; then
			echo "$post: no cover letter ($post-0000-cover-letter.patch)"
		elif [ "$num" != "$want" ]; then
			echo "$name: numbered $(printf %04d "$num") where $(printf %04d "$want") was next"
		fi
		if [ "$num" = 0 ] && ! is_cover "$f"; then
			echo "$name: 0000 is the posting's cover letter, $post-0000-cover-letter.patch"
		elif [ "$num" != 0 ] && is_cover "$f"; then
			echo "$name: a cover letter is numbered 0000"
		fi
		want=$((num + 1))
	done < <(patch_files)
	[ -z "$all" ] || [ -z "$cur" ] || [ "$want" -gt 1 ] || echo "$cur: no patch after its cover letter"
	return 0
}

# patches_stamp: what build/linux was made from: the names and contents of
# patches/*.patch but the cover letters, whose text does not reach the
# tree (editing one must not re-create it).  tree.sh --sync compares it
# with the git config kmemobs.patches of build/linux.
patches_stamp() {
	local f
	patch_files | while IFS= read -r f; do
		is_cover "$f" && continue
		printf '%s\n' "${f##*/}"
		cat "$f"
	done | sha1sum | cut -c1-16
}

# posting_tags: the posting/* tags of build/linux, sorted by name (the
# order the postings apply in).
posting_tags() {
	git -C "$TREE" tag -l 'posting/*' | LC_ALL=C sort
}

# Trees and their kernel build directories.  KIND is patched (build/linux,
# the series), baseline (the unpatched base) or bisect (make bisect).  Every
# tree is build/<...>/linux and every output directory two levels below
# build/<...>, so the relative path from output to source is always
# ../../linux and ccache (CCACHE_BASEDIR) shares objects between the trees.
tree_dir() {
	case $1 in
	patched) echo "$TREE" ;;
	*) echo "$BUILD/$1/linux" ;;
	esac
}

# statsonly_tree: the "statsonly" kind for make bench-kasan and make
# bench-scs: 6.1's keep-forever depot with the statistics file and the
# KASAN_HW_TAGS build fix, i.e. the base with posting 0 (the fix) and
# bench/baseline/*.patch (the statistics, bench-only, not part of the
# series) applied.  A worktree of build/linux, re-made when those patches
# change.
statsonly_patches() {
	ls "$PATCHES"/0-*-0[0-9][0-9][0-9]-*.patch | grep -v -- -0000-cover-letter
	ls "$TOP"/bench/baseline/*.patch
}
statsonly_tree() {
	local wt stamp
	wt=$(tree_dir statsonly)
	stamp=$(statsonly_patches | xargs cat | sha1sum | cut -c1-16)
	if [ ! -e "$wt/.git" ] || [ "$(cat "$wt.stamp" 2>/dev/null)" != "$stamp" ]; then
		rm -rf "$wt" "$wt.stamp"
		git -C "$TREE" worktree prune
		git -C "$TREE" worktree add -q --detach "$wt" base
		git -C "$wt" -c user.name=kmemobs-bench -c user.email=bench@kmemobs.invalid \
			am -q --keep-cr $(statsonly_patches) ||
			die "posting 0 and bench/baseline/*.patch do not apply to the base"
		echo "$stamp" >"$wt.stamp"
	fi
}

# statsonly_in_series: whether the statsonly tree can be made (its
# patches are in bench/baseline/).
statsonly_in_series() {
	compgen -G "$TOP/bench/baseline/*.patch" >/dev/null
}

# arm64_bench_prepare: what make bench-kasan and make bench-scs need
# first: their packages, build/linux, the statsonly tree, build/bench.
arm64_bench_prepare() {
	mkdir -p "$BUILD/bench"
	"$TOP/scripts/install-deps.sh" x86_64 arm64
	"$TOP/scripts/tree.sh" --sync
	statsonly_tree
}

out_dir() { # out_dir KIND TARGET
	case $1 in
	patched) echo "$BUILD/out/$2" ;;
	*) echo "$BUILD/$1/out/$2" ;;
	esac
}

# kind_name KIND TARGET: name for logs and results (x86_64, baseline-x86_64).
kind_name() {
	case $1 in
	patched) echo "$2" ;;
	*) echo "$1-$2" ;;
	esac
}

# Seconds since the calling script started.
_T0=${_T0:-$(date +%s)}
export _T0

# phase "message": one progress line with the elapsed time.
phase() {
	printf '[%4ds] == %s\n' $(($(date +%s) - _T0)) "$*"
}

# judge WHAT FINDINGS: one check of a step, which passes when it found
# nothing; counts into the caller's passed and failed, and prints what it
# found.
judge() {
	if [ -z "$2" ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "  FAIL $1"
		sed 's/^/    /' <<<"$2" | head -n 30
	fi
}

die() {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

# pkg_version: version of the installed linux-source package.
pkg_version() {
	if [ -n "${KMEMOBS_SRC_VERSION:-}" ]; then
		echo "$KMEMOBS_SRC_VERSION"
	elif [ "$LINE" = 6.1 ]; then
		dpkg-query -W -f='${Version}' "$SRC_PKG" 2>/dev/null
	else
		# Unpacked, not installed: install-deps.sh wrote its version.
		cat "$TOP/build/host/$SRC_PKG.version" 2>/dev/null
	fi
}

# run_logged LOG CMD...: run CMD with all output in LOG; on failure show
# the tail of the log and fail.
run_logged() {
	local log=$1
	shift
	if ! "$@" >"$log" 2>&1; then
		printf 'error: "%s" failed; see %s\n' "$*" "${log#"$TOP"/}" >&2
		if grep -q 'error:' "$log"; then
			grep -m 10 -B 2 'error:' "$log" >&2
		else
			tail -n 30 "$log" >&2
		fi
		return 1
	fi
}

# Depot misuse warnings (double put, stale handle), for parse-log.py
# --allow-warning on the 7.3 line: only these messages, only from
# lib/stackdepot.c, only while the stackdepot suite runs.  The 6.1 line's
# suite makes none (stack_depot_test_quiet()).
DEPOT_WARNINGS='stackdepot:lib/stackdepot.c:^stack_depot_(put|fetch): (handle [0-9a-f]+ (names no stored stack trace|has no reference to drop)|stale or corrupt handle)'

# build_modules KIND TARGET SRCDIR DEST: build the out-of-tree modules in
# SRCDIR (its *.c, *.h and Kbuild, copied to DEST) against the KIND kernel
# of TARGET, which must be built.  The Kbuild file picks the modules that
# fit the kernel's config.  The log is named after SRCDIR's path in the
# repository (tests/modules: modules-tests-modules-TARGET.log).
build_modules() {
	local kind=$1 target=$2 src=$3 dest=$4 name
	name=${src#"$TOP"/}
	name=${name//\//-}
	rm -rf "$dest"
	mkdir -p "$dest"
	cp "$src"/*.c "$src"/Kbuild "$dest/"
	cp "$src"/*.h "$dest/" 2>/dev/null || true
	phase "build the modules of ${src#"$TOP"/} against the $(kind_name "$kind" "$target") kernel"
	(
		. "$TOP/scripts/targets.sh"
		target_env "$target"
		run_logged "$LOGS/modules-$name-$(kind_name "$kind" "$target").log" \
			make -C "$(tree_dir "$kind")" O="$(out_dir "$kind" "$target")" \
			ARCH="$ARCH" CROSS_COMPILE="$CROSS" CC="ccache ${CROSS}gcc" \
			M="$dest" modules
	)
}

# guest_extra_boots KIND TARGET: the boots scripts/test-guest.sh makes of
# TARGET's kernel after the main one, by tag: each has its own log, verdict
# and result, guest-<kind_name>-<tag> (make check adds them to the step).
#   nomem   booted with nomem_profiling, the alloc-profiling and alloc-ctx suites only
#   hugetlb 7 GiB, a CPU with 1 GiB pages and two of them reserved at
#           boot, the hugetlb suite only
#   failinit alloc_tag_init() made to fail (fault injection), and
#           stack_depot_max_size= after the main boot's bound, the
#           alloc-profiling and stackdepot suites only
#   paused  the KUnit case that pauses profiling (alloc_tag.test_paused)
#           only, no guest suite
#   bootopt sysctl.vm.mem_profiling=: a bad value, then nomem_profiling,
#           then 0,compressed (paused from boot), the alloc-profiling
#           suite only
#   depotcap stack_depot_max_pools=64 and no built-in KUnit suite, the
#           depot-cap suite only (its module's KUnit suite fills the depot)
#   full    (7.3 line) stack_depot_max_size=1M, the depot-full suite only
#   compressed (7.3 line) the pages' tags in the page flags, SLUB's KUnit
#           suite and the alloc-profiling suite only
guest_extra_boots() {
	if [ "$LINE" = 6.1 ] && [ "$1" != baseline ] && [ "$2" = x86_64 ]; then
		echo nomem hugetlb failinit paused bootopt depotcap
	elif [ "$LINE" = 6.1 ] && [ "$1" != baseline ] && [ "$2" = x86_64-frames8 ]; then
		# The cap parameters' guest checks; the filling module's cases
		# skip below 16 frames (they save 16-frame traces).
		echo depotcap
	elif [ "$LINE" = 7.3 ] && [ "$1" != baseline ] && [ "$2" = x86_64 ]; then
		echo full compressed
	fi
}
