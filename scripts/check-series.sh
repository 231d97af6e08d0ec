#!/bin/bash
# Checks on the series itself:
#  - scripts/checkpatch.pl --strict on every patch: no error, warning or
#    check;
#  - scripts/kernel-doc -none on every C file and header the series
#    touches: no warning that the file does not have in the base;
#  - a W=1 build of the touched directories for each guest target,
#    patched and baseline: no warning or compiler error the baseline does
#    not have;
#  - every 6.1 user of the stack depot compiles (x86_64-users with gcc,
#    x86_64-kmsan with clang; objects only).
# Counts go to build/results/series.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/targets.sh"

passed=0 failed=0

cd "$TREE" || die "no tree (make tree)"

phase "checkpatch --strict on patches/"
for p in "$TOP"/patches/0*.patch; do
	case $p in */0000-cover-letter.patch) continue ;; esac
	judge "checkpatch ${p##*/}" "$(./scripts/checkpatch.pl --strict --no-tree -q "$p" 2>&1)"
done

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

# w1 TREE OUT DIRS...: W=1 warnings and compiler errors of DIRS, without
# line numbers.  -k: a file that fails to build (the base does not build
# with KASAN_HW_TAGS) must not hide the warnings of the files after it,
# and an error the base does not have fails the check like a warning.
w1() {
	local tree=$1 out=$2
	shift 2
	local a
	for a in "$@"; do
		# Warnings show only when a file is compiled: drop the objects
		# (ccache replays the compiler's messages, so this stays cheap).
		[ -d "$out/$a" ] && find "$out/$a" -name '*.o' -delete
		make -C "$tree" O="$out" ARCH="$ARCH" CROSS_COMPILE="$CROSS" \
			CC="ccache ${CROSS}gcc" -j"$(nproc)" -k W=1 "$a/" 2>&1
	done | grep -E '(warning|error):' |
		sed -E -e "s|$tree/||g" -e 's#(\.\./)+linux/##g' \
			-e 's/:[0-9]+(:[0-9]+)?:/:/' | sort -u
}

if [ ${#dirs[@]} -gt 0 ]; then
	for target in x86_64 arm64-mte; do
		target_env "$target"
		mine=() # directories that exist for this architecture
		for d in "${dirs[@]}"; do
			case $d in arch/*) [ "${d#arch/}" != "${d#arch/"${ARCH%_64}"}" ] || continue ;; esac
			mine+=("$d")
		done
		[ ${#mine[@]} -gt 0 ] || continue
		phase "W=1 build of ${mine[*]} for $target (patched and baseline)"
		"$TOP/scripts/build-kernel.sh" "$target" prepare >/dev/null &&
			"$TOP/scripts/build-kernel.sh" --baseline "$target" prepare >/dev/null ||
			{ judge "W=1 $target" "the kernel does not configure"; continue; }
		judge "W=1 $target: new warnings or errors" \
			"$(comm -23 <(w1 "$TREE" "$(out_dir patched $target)" "${mine[@]}") \
				<(w1 "$(tree_dir baseline)" "$(out_dir baseline $target)" "${mine[@]}"))"
	done
fi

# Every 6.1 user of the stack depot still builds: compile their objects in
# configurations that enable them (compile only, no link or boot).
DEPOT_USERS="lib/stackdepot.o mm/kasan/ mm/kmemleak.o mm/page_owner.o mm/slub.o
	lib/ref_tracker.o drivers/gpu/drm/drm_mm.o drivers/gpu/drm/drm_modeset_lock.o
	drivers/gpu/drm/display/drm_dp_mst_topology.o
	drivers/gpu/drm/i915/intel_runtime_pm.o"
KMSAN_USERS="lib/stackdepot.o mm/kmsan/"
for t in x86_64-users x86_64-kmsan; do
	objs=$DEPOT_USERS
	[ $t = x86_64-kmsan ] && objs=$KMSAN_USERS
	phase "depot users build: $t ($(echo $objs | wc -w) objects)"
	# shellcheck disable=SC2086
	if "$TOP/scripts/build-kernel.sh" "$t" $objs >/dev/null 2>"$LOGS/users-$t.err"; then
		judge "depot users build $t" ""
	else
		judge "depot users build $t" "$(grep -E 'error|config:' "$LOGS/users-$t.err" "$LOGS/build-$t.log" 2>/dev/null | head -n 20)"
	fi
done

echo "series: $passed passed, $failed failed"
mkdir -p "$BUILD/results"
echo "$passed $failed 0" >"$BUILD/results/series"
[ "$failed" = 0 ]
