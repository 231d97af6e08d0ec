#!/bin/bash
# Build one target's kernel out of tree, with ccache.
#
#   scripts/build-kernel.sh [--baseline | --kind KIND] TARGET [make args...]
#
# The patched kernel is built from build/linux into build/out/TARGET; with
# --baseline, the unpatched base from build/baseline/linux into
# build/baseline/out/TARGET (same fragments; see tree_dir in lib.sh).  The
# .config is tinyconfig (or the target's BASECONF, defconfig) plus
# configs/<fragment>.config for each of the
# target's fragments; a requested option that does not survive
# olddefconfig is an error.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/targets.sh"

kind=patched
while [ $# -gt 0 ]; do
	case $1 in
	--baseline) kind=baseline ;;
	--kind) kind=$2; shift ;;
	*) break ;;
	esac
	shift
done
[ $# -ge 1 ] || die "usage: $0 [--baseline | --kind KIND] TARGET [make args]"
target=$1
shift
target_env "$target"
tree=$(tree_dir $kind)
out=$(out_dir $kind "$target")
name=$(kind_name $kind "$target")
log=$LOGS/build-$name.log
[ -d "$tree" ] || die "no tree at $tree (make tree)"
mkdir -p "$out"

export CCACHE_BASEDIR=$TOP CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=time_macros
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026"
export KBUILD_BUILD_USER=kmemobs KBUILD_BUILD_HOST=build
ccache -M 8G >/dev/null 2>&1 || true
if [ -n "$LLVM" ]; then
	MK=(make -C "$tree" O="$out" ARCH="$ARCH" LLVM=1 CC="ccache clang" -j"$(nproc)")
else
	MK=(make -C "$tree" O="$out" ARCH="$ARCH" CROSS_COMPILE="$CROSS"
	    CC="ccache ${CROSS}gcc" -j"$(nproc)")
fi

[ -z "$W1" ] || MK+=(W=1)

# ccache (CCACHE_BASEDIR) hands the compiler each source by its path
# relative to $out (../../linux/mm/slub.c), which the kernel's own
# -fmacro-prefix-map=$(srctree)/= does not strip: strip that prefix too,
# so that __FILE__ (the lines of /proc/allocations, WARN()s) reads as in
# a build without ccache (mm/slub.c).
MK+=(KCPPFLAGS="-fmacro-prefix-map=$(realpath -m --relative-to="$out" "$tree")/=")

# Re-generate the config when it is missing or a fragment changed.
frag_files=()
# A line's own fragment (mainline/configs/ for 7.3) before the common
# one of the same name in configs/.
for f in $FRAGS; do
	if [ -f "$CONFIGS/$f.config" ]; then
		frag_files+=("$CONFIGS/$f.config")
	else
		frag_files+=("$TOP/configs/$f.config")
	fi
done
# A bisect tree moves from commit to commit: its symbols come and go with
# the series' Kconfig files, so the config is made again when they change
# (else an option the series adds later would stay at its default).
stamp=$( (echo "$BASECONF"; cat "${frag_files[@]}"
	[ "$kind" != bisect ] || git -C "$tree" ls-files -s -- ':(glob)**/Kconfig*') | sha1sum | cut -c1-12)
if [ ! -f "$out/.config" ] || [ "$(cat "$out/.fragments" 2>/dev/null)" != "$stamp" ]; then
	phase "configure $name: $BASECONF + $FRAGS"
	run_logged "$LOGS/config-$name.log" "${MK[@]}" "$BASECONF"
	run_logged "$LOGS/config-$name.log" \
		"$tree/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "${frag_files[@]}"
	run_logged "$LOGS/config-$name.log" "${MK[@]}" olddefconfig
	bad=0
	# The last fragment that sets a symbol wins (slab.config turns
	# base.config's SLUB into SLAB): read them backwards.
	declare -A seen=()
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) sym=${line%%=*} ;;
		"# CONFIG_"*" is not set") sym=${line#\# }; sym=${sym%% *}; line="$sym=n" ;;
		*) continue ;;
		esac
		[ -z "${seen[$sym]:-}" ] || continue
		seen[$sym]=1
		want=${line#*=}
		# The base and prefixes of the series lack the series' symbols.
		if [ $kind != patched ] &&
		   ! grep -rqsE --include='Kconfig*' "^[[:space:]]*(menu)?config ${sym#CONFIG_}\$" "$tree"; then
			continue
		fi
		got=$(grep -E "^$sym=|^# $sym is not set" "$out/.config" || true)
		case $got in
		"$sym=$want") ;;
		"# $sym is not set") [ "$want" = n ] || { echo "config: $sym=$want requested, not set" >&2; bad=1; } ;;
		*) [ "$want" = n ] && [ -z "$got" ] || { echo "config: $sym=$want requested, got '${got:-nothing}'" >&2; bad=1; } ;;
		esac
	done < <(cat "${frag_files[@]}" | tac)
	[ $bad = 0 ] || die "configuration of $target is not what configs/ asks for"
	echo "$stamp" >"$out/.fragments"
fi

phase "build $name ($(git -C "$tree" describe --always --tags 2>/dev/null)), log in ${log#"$TOP"/}"
run_logged "$log" "${MK[@]}" "$@"
if [ $# -gt 0 ]; then
	phase "built $name: $*"
else
	phase "built ${out#"$TOP"/}/$IMAGE"
fi
