#!/bin/bash
# Build the guest initramfs for a target: static busybox, tests/ (as
# /tests), the benchmarks' guest scripts bench/guest/*.sh (as /bench) and
# any extra files (benchmark modules), packed with the kernel's
# gen_init_cpio (no root needed for device nodes).
#
#   scripts/initramfs.sh TARGET OUT.cpio [HOSTFILE:GUESTPATH ...]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/targets.sh"

[ $# -ge 2 ] || die "usage: $0 TARGET OUT.cpio [HOSTFILE:GUESTPATH...]"
target=$1 out=$2
shift 2
target_env "$target"
case $ARCH in
# um: the x86_64 host's own binaries run in a UML guest.
x86_64 | um) bb=/bin/busybox ;;
arm64) bb=$TOP/build/host/busybox-arm64 ;;
esac
[ -x "$bb" ] || die "$bb missing: run scripts/install-deps.sh"
gen=$BUILD/host/gen_init_cpio
if [ ! -x "$gen" ] || [ "$TREE/usr/gen_init_cpio.c" -nt "$gen" ]; then
	mkdir -p "$BUILD/host"
	gcc -O2 -o "$gen" "$TREE/usr/gen_init_cpio.c"
fi

# The guest tests' own static helpers (tests/tools), the benchmarks'
# workload program (bench/guest/workload.c) and the series' tools
# (tools/vm/alloc_diff, page_owner_fold, for the demo and the guest tests),
# built with the host's static libc: x86_64 guests only (the arm64 cross
# compiler comes without a libc; the tests that use a helper skip where it
# is missing).
tools=() syms=()
[ "$ARCH" = x86_64 ] && for src in "$TOP"/tests/tools/*.c "$TOP"/bench/guest/*.c "$TREE"/tools/vm/alloc_diff.c \
	"$TREE"/tools/vm/page_owner_fold.c; do
	[ -f "$src" ] || continue
	name=${src##*/}
	bin=$BUILD/host/${name%.c}-$ARCH
	# A "// build-flags: ..." line replaces -O2 (unwind_chain: frame
	# pointers, no PIE); such a tool's code symbols go beside the tests
	# (/tests/NAME.syms, "ADDRESS TYPE NAME" sorted by address).
	flags=$(sed -n 's|^// build-flags: ||p' "$src")
	if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ]; then
		mkdir -p "$BUILD/host"
		gcc -static ${flags:--O2} -Wall -o "$bin" "$src"
		[ -z "$flags" ] || nm -n "$bin" | awk '$2 ~ /^[Tt]$/' >"$bin.syms"
	fi
	tools+=("$bin")
	[ -z "$flags" ] || syms+=("$bin.syms")
done

# Mainline's own tools, unchanged, from Debian's linux-source-7.3
# (install-deps.sh mainline): page_owner_filter (per-reader filters) and
# page_owner_sort for 10-page-owner.sh; the allocinfo ioctl selftest, built
# against 7.3's own <linux/alloc_tag.h>, for 50-alloc-profiling.sh.  Taken
# out of the tarball once into build/host/mainline-tools/.
mtar=$TOP/build/host/linux-source-7.3/usr/src/linux-source-7.3.tar.xz
mdir=$TOP/build/host/mainline-tools
mst=$mdir/tools/testing/selftests
if [ "$ARCH" = x86_64 ] && [ -f "$mtar" ]; then
	if [ ! -f "$mst/alloc_tag/allocinfo_ioctl_test.c" ] || [ "$mtar" -nt "$mst/alloc_tag/allocinfo_ioctl_test.c" ]; then
		mkdir -p "$mdir"
		tar -xJf "$mtar" -C "$mdir" --strip-components=1 --wildcards \
			'*/tools/mm/page_owner_filter.c' '*/tools/mm/page_owner_sort.c' \
			'*/tools/testing/selftests/kselftest.h' \
			'*/tools/testing/selftests/alloc_tag/allocinfo_ioctl_test.c' \
			'*/include/uapi/linux/alloc_tag.h'
		mkdir -p "$mdir/uapi-alloc_tag/linux"
		cp "$mdir/include/uapi/linux/alloc_tag.h" "$mdir/uapi-alloc_tag/linux/"
		touch "$mst/alloc_tag/allocinfo_ioctl_test.c"
	fi
	bin=$BUILD/host/allocinfo_ioctl_test-73-$ARCH
	if [ ! -x "$bin" ] || [ "$mst/alloc_tag/allocinfo_ioctl_test.c" -nt "$bin" ]; then
		mkdir -p "$BUILD/host"
		gcc -static -O2 -w -I "$mdir/uapi-alloc_tag" -o "$bin.tmp" \
			"$mst/alloc_tag/allocinfo_ioctl_test.c" && mv "$bin.tmp" "$bin"
	fi
	[ -x "$bin" ] && tools+=("$bin")
	mkdir -p "$BUILD/host"
	for name in page_owner_filter page_owner_sort; do
		bin=$BUILD/host/$name-73-$ARCH
		if [ ! -x "$bin" ] || [ "$mdir/tools/mm/$name.c" -nt "$bin" ]; then
			gcc -static -O2 -w -o "$bin.tmp" "$mdir/tools/mm/$name.c" && mv "$bin.tmp" "$bin"
		fi
		[ -x "$bin" ] && tools+=("$bin")
	done
fi

# GNU sort for the x86_64 guests, with the two libraries it needs: the
# guest tests check that sort -hr orders /proc/allocations, and busybox's
# sort may lack -h.
gnu=()
if [ "$ARCH" = x86_64 ] && [ -x /usr/bin/sort ]; then
	gnu=(/usr/bin/sort)
	while read -r lib; do
		gnu+=("$lib")
	done < <(ldd /usr/bin/sort | sed -n 's/^[^/]*\(\/[^ ]*\) (0x.*$/\1/p')
fi

# stress-ng and its libraries for the soak (GUEST_SOAK=1, tests/guest/
# 90-soak.sh): x86_64 guests, from the host's package (install-deps.sh
# soak).
if [ -n "${GUEST_SOAK:-}" ] && [ "$ARCH" = x86_64 ]; then
	[ -x /usr/bin/stress-ng ] || die "/usr/bin/stress-ng missing: run scripts/install-deps.sh soak"
	gnu+=(/usr/bin/stress-ng)
	while read -r lib; do
		gnu+=("$lib")
	done < <(ldd /usr/bin/stress-ng | sed -n 's/^[^/]*\(\/[^ ]*\) (0x.*$/\1/p')
fi

# arm64: Debian's arm64 stress-ng unpacked with its libraries under
# build/host/arm64-soak (install-deps.sh soak-arm64).  The guest gets the
# program, the loader and every library it needs (DT_NEEDED, followed
# through each library's own), as GUESTPATH HOSTFILE lines.
sysroot=()
if [ -n "${GUEST_SOAK:-}" ] && [ "$ARCH" = arm64 ]; then
	sr=$BUILD/host/arm64-soak
	[ -f "$sr/.complete" ] || die "$sr missing: run scripts/install-deps.sh soak-arm64"
	sysroot=("/usr/bin/stress-ng $sr/usr/bin/stress-ng")
	interp=$(readelf -l "$sr/usr/bin/stress-ng" | sed -n 's/.*interpreter: \(.*\)]$/\1/p')
	[ -e "$sr$interp" ] || die "the arm64 stress-ng's loader $interp is missing from $sr"
	sysroot+=("$interp $(readlink -f "$sr$interp")")
	todo=("$sr/usr/bin/stress-ng") seen=" "
	while [ ${#todo[@]} -gt 0 ]; do
		elf=${todo[0]}
		todo=("${todo[@]:1}")
		for so in $(readelf -d "$elf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
			case $seen in *" $so "*) continue ;; esac
			seen+="$so "
			found=
			for d in /lib/aarch64-linux-gnu /usr/lib/aarch64-linux-gnu; do
				[ -e "$sr$d/$so" ] || continue
				found=$d/$so
				break
			done
			[ -n "$found" ] || die "$so, which the arm64 stress-ng needs, is not in $sr"
			sysroot+=("$found $(readlink -f "$sr$found")")
			todo+=("$(readlink -f "$sr$found")")
		done
	done
fi

list=$(mktemp)
trap 'rm -f "$list"' EXIT
{
	for d in /bin /sbin /dev /proc /sys /tmp /tests /tests/guest /bench /lib /lib/modules; do
		echo "dir $d 755 0 0"
	done
	echo "nod /dev/console 600 0 0 c 5 1"
	echo "file /bin/busybox $bb 755 0 0"
	echo "slink /bin/sh busybox 777 0 0"
	echo "file /init $TOP/tests/init 755 0 0"
	# The line's own scripts (mainline/tests/*.sh for 7.3: its demo)
	# in place of the common ones of the same name.
	for f in "$TOP"/tests/*.sh; do
		[ -f "$LINE_DIR/tests/${f##*/}" ] && f=$LINE_DIR/tests/${f##*/}
		echo "file /tests/${f##*/} $f 644 0 0"
	done
	[ "$LINE_DIR" = "$TOP" ] || for f in "$LINE_DIR"/tests/*.sh; do
		[ -f "$TOP/tests/${f##*/}" ] || echo "file /tests/${f##*/} $f 644 0 0"
	done
	for f in "$GUEST_TESTS"/*.sh; do
		echo "file /tests/guest/${f##*/} $f 644 0 0"
	done
	for f in "$TOP"/bench/guest/*.sh; do
		echo "file /bench/${f##*/} $f 644 0 0"
	done
	# The libraries at the paths the loader looks them up by.
	for f in ${gnu[@]+"${gnu[@]}"} ${sysroot[@]+"${sysroot[@]%% *}"}; do
		d=${f%/*}
		while [ -n "$d" ] && [ "$d" != /lib ]; do
			echo "dir $d 755 0 0"
			d=${d%/*}
		done
	done | sort -u | awk '{ print length($2), $0 }' | sort -n | cut -d' ' -f2-
	for f in ${gnu[@]+"${gnu[@]}"}; do
		echo "file $f $(readlink -f "$f") 755 0 0"
	done | sort -u
	for f in ${sysroot[@]+"${sysroot[@]}"}; do
		echo "file $f 755 0 0"
	done
	for bin in ${tools[@]+"${tools[@]}"}; do
		name=${bin##*/}
		echo "file /bin/${name%-"$ARCH"} $bin 755 0 0"
	done
	for f in ${syms[@]+"${syms[@]}"}; do
		name=${f##*/}
		echo "file /tests/${name%-"$ARCH".syms}.syms $f 644 0 0"
	done
	# Directories of extra files that the list above lacks.
	for extra in "$@"; do
		d=${extra#*:}
		d=${d%/*}
		case " /lib/modules /tests /bench /bin " in *" $d "*) continue ;; esac
		echo "dir $d 755 0 0"
	done | sort -u
	for extra in "$@"; do
		echo "file ${extra#*:} ${extra%%:*} 644 0 0"
	done
} >"$list"
"$gen" "$list" >"$out"
