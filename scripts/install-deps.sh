#!/bin/bash
# Install every Debian package this repository needs (idempotent).
# Runs as root (CI, fresh machines) or through sudo when available.
set -euo pipefail

SUDO=
if [ "$(id -u)" != 0 ]; then
	SUDO=sudo
fi

PKGS=(
	linux-source-6.1
	build-essential gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu
	bc flex bison libelf-dev libssl-dev cpio ccache kmod rsync xz-utils
	python3 git perl
	busybox-static
	clang lld llvm
)

missing=()
for p in "${PKGS[@]}"; do
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed'; then
		missing+=("$p")
	fi
done

export DEBIAN_FRONTEND=noninteractive
updated=
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	$SUDO dpkg --add-architecture arm64
fi

# QEMU comes from bookworm-backports.  Bookworm's QEMU 7.2 emulates MTE
# with the allocation tags of a page collapsed to one tag for even and one
# for odd granules (the tag address is computed from the page address), so
# every KASAN_HW_TAGS kernel reports false tag mismatches during
# kmem_cache_init().  QEMU 8.0 and later get the tag address right.
QEMU_MIN=8
bpo=/etc/apt/sources.list.d/kmemobs-backports.sources
if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
	echo "install-deps: adding bookworm-backports (for QEMU >= $QEMU_MIN) in $bpo"
	$SUDO tee "$bpo" >/dev/null <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi
qemu_major() {
	# Not installed: empty (dpkg-query fails; pipefail must not stop us).
	{ dpkg-query -W -f='${Version}' "$1" 2>/dev/null || true; } |
		sed -n 's/^[0-9]*://; s/^\([0-9]*\)\..*/\1/p'
}
need_qemu=
for q in qemu-system-x86 qemu-system-arm; do
	v=$(qemu_major $q)
	[ -n "$v" ] && [ "$v" -ge $QEMU_MIN ] || need_qemu=1
done

if [ ${#missing[@]} -ne 0 ] || [ -n "$need_qemu" ]; then
	echo "install-deps: installing ${missing[*]} ${need_qemu:+qemu-system-x86 qemu-system-arm (backports)}"
	[ -n "$updated" ] || $SUDO apt-get update -qq
	updated=1
	if [ ${#missing[@]} -ne 0 ]; then
		$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
	fi
	if [ -n "$need_qemu" ]; then
		$SUDO apt-get install -y -qq --no-install-recommends \
			-t bookworm-backports qemu-system-x86 qemu-system-arm
	fi
else
	echo "install-deps: all packages present"
fi

# busybox-static is not Multi-Arch: the arm64 build cannot be installed
# beside the amd64 one.  Unpack its binary under build/host/ instead.
top=$(cd "$(dirname "$0")/.." && pwd)
bb64=$top/build/host/busybox-arm64
if [ ! -x "$bb64" ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	[ -n "$updated" ] || $SUDO apt-get update -qq
	(cd "$tmp" && apt-get download -qq busybox-static:arm64)
	dpkg-deb -x "$tmp"/busybox-static_*_arm64.deb "$tmp/x"
	mkdir -p "$(dirname "$bb64")"
	cp "$tmp/x/bin/busybox" "$bb64"
	echo "install-deps: unpacked arm64 busybox to ${bb64#"$top"/}"
fi
