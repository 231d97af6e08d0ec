#!/bin/bash
# Install the Debian 12 packages a command of this repository needs, and
# nothing else.  It says what it is about to change before it changes it;
# apt's own output goes to build/logs/install-deps.log.
#
#   scripts/install-deps.sh [--dry-run] WHAT...
#
# WHAT names what the command builds and boots:
#   x86_64  kernel build tools, the Debian kernel source, x86_64 QEMU,
#           busybox for the guests
#   arm64   the arm64 cross compiler, an arm64 QEMU with correct MTE
#           (8.0 or later, from bookworm-backports), and an arm64 busybox
#           unpacked under build/host/ (nothing is installed for arm64)
#   clang   clang, lld and llvm (the KMSAN build of make check)
#   gdb     GDB (the gdb step of make check-wide)
#   soak    stress-ng, which the x86_64 soak guest runs (make check-wide
#           soak-x86_64)
#   soak-arm64  Debian's arm64 stress-ng and the libraries it needs,
#           downloaded with a private package list and unpacked under
#           build/host/arm64-soak/ (nothing is installed for arm64; make
#           check-wide soak-arm64-sw-tags)
#   mainline  the base of the 7.3 line: Debian's linux-source-7.3 from
#           trixie-backports, downloaded with a private package list (the
#           machine's apt sources are not changed) and unpacked under
#           build/host/linux-source-7.3/ (nothing is installed)
#
# It runs as root or through sudo.  KMEMOBS_NO_INSTALL=1 skips it (for a
# machine set up by hand, or not Debian 12).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
log=$top/build/logs/install-deps.log
say() { echo "install-deps: $*"; }
die() { say "$*" >&2; exit 1; }

dry=
[ "${1:-}" = --dry-run ] && { dry=1; shift; }
[ $# -gt 0 ] || die "usage: $0 [--dry-run] x86_64|arm64|clang..."
if [ -n "${KMEMOBS_NO_INSTALL:-}" ]; then
	say "KMEMOBS_NO_INSTALL is set: installing nothing"
	exit 0
fi

# The packages are Debian 12's, and the backports suite is bookworm's.
ID= VERSION_CODENAME= PRETTY_NAME=
# shellcheck disable=SC1091
[ -r /etc/os-release ] && . /etc/os-release
if [ "$ID" != debian ] || [ "$VERSION_CODENAME" != bookworm ]; then
	die "this installer knows Debian 12 (bookworm); this machine is" \
	    "'${PRETTY_NAME:-unknown}'. Install the equivalents of the packages" \
	    "docs/testing.md lists (Packages) yourself and run with KMEMOBS_NO_INSTALL=1."
fi
[ "$(dpkg --print-architecture)" = amd64 ] || die "the build host must be amd64"

SUDO=
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || die "not root and no sudo: run it as root"
	SUDO=sudo
fi

pkgs=() arm64= need_qemu_arm= mainline= soak64=
for what in "$@"; do
	case $what in
	x86_64) pkgs+=(linux-source-6.1 build-essential bc flex bison libelf-dev libssl-dev
		       cpio ccache kmod rsync xz-utils python3 git perl busybox-static
		       qemu-system-x86) ;;
	arm64) pkgs+=(gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu); arm64=1 ;;
	clang) pkgs+=(clang lld llvm) ;;
	gdb) pkgs+=(gdb) ;;
	soak) pkgs+=(stress-ng) ;;
	soak-arm64) soak64=1 ;;
	sparc64) pkgs+=(gcc-sparc64-linux-gnu) ;;
	mainline) mainline=1 ;;
	*) die "unknown '$what' (x86_64, arm64, clang, gdb, soak, soak-arm64, sparc64 or mainline)" ;;
	esac
done

installed() {
	dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q '^install ok installed'
}
missing=()
for p in "${pkgs[@]}"; do
	installed "$p" || missing+=("$p")
done

# QEMU for arm64 must be 8.0 or later: bookworm's 7.2 emulates MTE with
# the allocation tags of a page collapsed to one tag for even and one for
# odd granules, so every KASAN_HW_TAGS kernel reports false tag mismatches
# during kmem_cache_init().  qemu-system-x86 and -arm share
# qemu-system-common, so both come from the same suite.
QEMU_MIN=8
qemu_major() {
	{ dpkg-query -W -f='${Version}' "$1" 2>/dev/null || true; } |
		sed -n 's/^[0-9]*://; s/^\([0-9]*\)\..*/\1/p'
}
if [ -n "$arm64" ]; then
	for q in qemu-system-x86 qemu-system-arm; do
		v=$(qemu_major $q)
		[ -n "$v" ] && [ "$v" -ge $QEMU_MIN ] || need_qemu_arm=1
	done
fi

# Both QEMUs then come from backports below, not x86's from bookworm.
if [ -n "$need_qemu_arm" ]; then
	rest=()
	for p in ${missing[@]+"${missing[@]}"}; do
		[ "$p" = qemu-system-x86 ] || rest+=("$p")
	done
	missing=(${rest[@]+"${rest[@]}"})
fi

# bookworm-backports, if QEMU must come from there and no source names
# it: the archive's location is taken from the machine's own source for
# bookworm (deb822 .sources files or one-line .list files), never named
# here.
bpo=/etc/apt/sources.list.d/kmemobs-backports.sources
srcfiles=()
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
	[ -r "$f" ] && srcfiles+=("$f")
done
has_suite() {
	awk -v s="$1" '
		/^[ \t]*#/ { next }
		/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == s) f = 1 }
		/^deb[ \t]/ { for (i = 2; i <= NF; i++) if ($i == s) f = 1 }
		END { exit !f }' /dev/null ${srcfiles[@]+"${srcfiles[@]}"}
}
# archive_of: "URI<TAB>Signed-By<TAB>file" of the first enabled source
# for bookworm's main component.
archive_of() {
	local f
	for f in ${srcfiles[@]+"${srcfiles[@]}"}; do
		awk -v file="$f" '
			function flush() {
				if (uri != "" && suite && main && !found) {
					print uri "\t" key "\t" file; found = 1
				}
				uri = ""; key = ""; suite = 0; main = 0
			}
			/^[ \t]*#/ { next }
			/^[ \t]*$/ { flush(); next }
			/^URIs:/ { uri = $2 }
			/^Signed-By:/ { key = $2 }
			/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == "bookworm") suite = 1 }
			/^Components:/ { for (i = 2; i <= NF; i++) if ($i == "main") main = 1 }
			/^deb[ \t]/ {
				line = $0; key = ""
				if (match(line, /signed-by=[^] \t]*/))
					key = substr(line, RSTART + 10, RLENGTH - 10)
				sub(/\[[^]]*\]/, "", line); n = split(line, w, /[ \t]+/)
				if (w[3] == "bookworm") for (i = 4; i <= n; i++)
					if (w[i] == "main" && !found) { print w[2] "\t" key "\t" file; found = 1 }
			}
			END { flush() }' "$f"
	done | head -n 1
}
add_bpo=
if [ -n "$need_qemu_arm" ] && ! has_suite bookworm-backports; then
	IFS=$'\t' read -r uri key from < <(archive_of) || true
	[ -n "${uri:-}" ] || die "QEMU >= $QEMU_MIN comes from bookworm-backports, and no" \
		"configured apt source for bookworm/main says where the archive is: add" \
		"bookworm-backports to your apt sources and run again"
	add_bpo=1
fi

# The plan, then the changes.
plan=0
if [ ${#missing[@]} -ne 0 ]; then
	say "will install (apt-get install): ${missing[*]}"
	plan=1
fi
if [ -n "$add_bpo" ]; then
	say "will add the apt source $bpo: suite bookworm-backports of $uri" \
	    "(the archive of your bookworm source in $from)"
	plan=1
fi
if [ -n "$need_qemu_arm" ]; then
	say "will install qemu-system-x86 and qemu-system-arm from bookworm-backports" \
	    "(arm64 guests need QEMU >= $QEMU_MIN for MTE)"
	plan=1
fi
bb64=$top/build/host/busybox-arm64
if [ -n "$arm64" ] && [ ! -x "$bb64" ]; then
	say "will unpack Debian's arm64 busybox-static into ${bb64#"$top"/}" \
	    "(downloaded with a private package list; no foreign architecture is added)"
	plan=1
fi
sroot=$top/build/host/arm64-soak
if [ -n "$soak64" ] && [ ! -f "$sroot/.complete" ]; then
	say "will unpack Debian's arm64 stress-ng and its libraries into ${sroot#"$top"/}" \
	    "(downloaded with a private package list; no foreign architecture is added)"
	plan=1
fi
# The mainline base: its package is trixie's (backports), a suite this
# Debian 12 machine has no source for.
SRC73=linux-source-7.3 SRC73_SUITE=trixie-backports
src73=$top/build/host/$SRC73
if [ -n "$mainline" ] && [ ! -f "$src73/usr/src/$SRC73.tar.xz" ]; then
	say "will unpack Debian's $SRC73 ($SRC73_SUITE) into ${src73#"$top"/}" \
	    "(downloaded with a private package list; no apt source is added)"
	plan=1
fi
if [ $plan = 0 ]; then
	say "everything needed for '$*' is present"
	exit 0
fi
[ -z "$dry" ] || exit 0

mkdir -p "$(dirname "$log")"
export DEBIAN_FRONTEND=noninteractive
run() {
	"$@" >>"$log" 2>&1 || { tail -n 20 "$log" >&2; die "failed: $* (log: ${log#"$top"/})"; }
}
if [ -n "$add_bpo" ]; then
	{
		echo "# Added by kmemobs' scripts/install-deps.sh: QEMU >= $QEMU_MIN for arm64 MTE guests."
		echo "Types: deb"
		echo "URIs: $uri"
		echo "Suites: bookworm-backports"
		echo "Components: main"
		[ -z "$key" ] || echo "Signed-By: $key"
	} | run $SUDO tee "$bpo"
fi
if [ ${#missing[@]} -ne 0 ] || [ -n "$need_qemu_arm" ]; then
	say "apt-get update"
	run $SUDO apt-get update -q
fi
if [ ${#missing[@]} -ne 0 ]; then
	say "apt-get install ${#missing[@]} packages"
	run $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if [ -n "$need_qemu_arm" ]; then
	say "apt-get install -t bookworm-backports qemu-system-x86 qemu-system-arm"
	run $SUDO apt-get install -y -q --no-install-recommends \
		-t bookworm-backports qemu-system-x86 qemu-system-arm
fi

# busybox-static is not Multi-Arch, so its arm64 build cannot be installed
# beside the amd64 one.  Fetch it with a package list of our own (the
# machine's sources, arm64 only) and unpack its binary.
if [ -n "$arm64" ] && [ ! -x "$bb64" ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	mkdir -p "$tmp/lists/partial" "$tmp/cache/archives/partial"
	chmod -R a+rwx "$tmp"
	apt=(apt-get -q -o Dir::State::Lists="$tmp/lists" -o Dir::Cache="$tmp/cache"
	     -o APT::Architecture=arm64 -o APT::Architectures::=arm64)
	say "downloading busybox-static for arm64"
	run $SUDO "${apt[@]}" update
	(cd "$tmp" && run $SUDO "${apt[@]}" download busybox-static)
	dpkg-deb -x "$tmp"/busybox-static_*_arm64.deb "$tmp/x"
	mkdir -p "$(dirname "$bb64")"
	cp "$tmp/x/bin/busybox" "$bb64"
	say "unpacked the arm64 busybox to ${bb64#"$top"/}"
fi
# stress-ng for the arm64 soak guest: the package and every package it
# depends on, from the machine's sources with a private arm64-only list,
# unpacked into one directory the guest's initramfs takes the program and
# the libraries it loads from (scripts/initramfs.sh).
if [ -n "$soak64" ] && [ ! -f "$sroot/.complete" ]; then
	ts=$(mktemp -d)
	mkdir -p "$ts/lists/partial" "$ts/cache/archives/partial" "$ts/debs"
	chmod -R a+rwx "$ts"
	opts=(-q -o Dir::State::Lists="$ts/lists" -o Dir::Cache="$ts/cache"
	      -o APT::Architecture=arm64 -o APT::Architectures::=arm64)
	say "downloading stress-ng and its dependencies for arm64"
	run $SUDO apt-get "${opts[@]}" update
	deps=$(apt-cache "${opts[@]}" depends --recurse --no-recommends --no-suggests \
		--no-conflicts --no-breaks --no-replaces --no-enhances stress-ng |
		grep -v '^[ <]' | sort -u) || die "apt-cache depends stress-ng (arm64) failed"
	# shellcheck disable=SC2086
	(cd "$ts/debs" && run $SUDO apt-get "${opts[@]}" download $deps)
	rm -rf "$sroot"
	mkdir -p "$sroot"
	for deb in "$ts"/debs/*.deb; do
		dpkg-deb -x "$deb" "$sroot"
	done
	rm -rf "$ts"
	[ -x "$sroot/usr/bin/stress-ng" ] || die "the arm64 stress-ng package holds no usr/bin/stress-ng"
	touch "$sroot/.complete"
	say "unpacked the arm64 stress-ng to ${sroot#"$top"/}"
fi
# linux-source-7.3: a private list of the archive's trixie-backports
# suite (the archive's location and key from the machine's bookworm
# source), downloaded and unpacked, never installed.
if [ -n "$mainline" ] && [ ! -f "$src73/usr/src/$SRC73.tar.xz" ]; then
	IFS=$'\t' read -r uri key from < <(archive_of) || true
	[ -n "${uri:-}" ] || die "no configured apt source for bookworm/main says where the" \
		"Debian archive is, to fetch $SRC73 from $SRC73_SUITE"
	[ -n "${key:-}" ] || key=/usr/share/keyrings/debian-archive-keyring.gpg
	t73=$(mktemp -d)
	mkdir -p "$t73/lists/partial" "$t73/cache/archives/partial" "$t73/parts"
	chmod -R a+rwx "$t73"
	printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
		"$uri" "$SRC73_SUITE" "$key" >"$t73/parts/mainline.sources"
	apt73=(apt-get -q -o Dir::State::Lists="$t73/lists" -o Dir::Cache="$t73/cache"
	       -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$t73/parts"
	       -o Debug::NoLocking=1)
	say "downloading $SRC73 from $SRC73_SUITE ($uri)"
	run "${apt73[@]}" update
	(cd "$t73" && run "${apt73[@]}" download "$SRC73")
	rm -rf "$src73"
	mkdir -p "$src73"
	dpkg-deb -x "$t73"/"$SRC73"_*_all.deb "$src73"
	dpkg-deb -f "$t73"/"$SRC73"_*_all.deb Version >"$top/build/host/$SRC73.version"
	rm -rf "$t73"
	say "unpacked $SRC73 $(cat "$top/build/host/$SRC73.version") to ${src73#"$top"/}"
fi
say "done"
