#!/bin/bash
# Build what users build and judge it: TARGET (x86_64-defconfig,
# arm64-defconfig, arm64-defconfig-sw-tags: defconfig plus the series'
# options, configs/wide.config) builds completely, vmlinux and modules,
# with no warning that the unpatched base built from the same config
# lacks.  The base is built only when the patched build warns at all.
# Both are built from clean output directories (make clean first), so
# that every warning is in the log even when the objects were up to date
# (ccache replays the compiler's output, so this costs little);
# the log is kept as build/logs/build-TARGET.full.log, as later builds of
# the target (modules_install) write its usual log.
#
#   scripts/check-build.sh TARGET
#
# Counts go to build/results/build-TARGET; logs to build/logs/.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

target=$1
passed=0 failed=0

# warnings LOG: the warning lines of a build log, without line numbers
# and build paths, sorted.
warnings() {
	grep -E 'warning:|WARNING:' "$1" | sed -E 's|/work/[^ ]*/linux/||g; s/:[0-9]+:[0-9]+:/:/; s/:[0-9]+:/:/' | sort -u
}

t0=$(date +%s)
# build KIND: a full build of TARGET's KIND kernel; its log in FULL_LOG.
build() {
	local name=$target
	[ "$1" = baseline ] && name=baseline-$target
	local rc=0
	if [ -f "$(out_dir "$1" "$target")/.config" ]; then
		"$TOP/scripts/build-kernel.sh" --kind "$1" "$target" clean || rc=$?
	fi
	[ $rc != 0 ] || "$TOP/scripts/build-kernel.sh" --kind "$1" "$target" all || rc=$?
	cp "$LOGS/build-$name.log" "$LOGS/build-$name.full.log"
	FULL_LOG=$LOGS/build-$name.full.log
	return $rc
}

build patched
rc=$?
judge "$target builds (vmlinux, modules)" \
	"$([ $rc = 0 ] || echo "build failed: see build/logs/build-$target.log")"
if [ $rc = 0 ]; then
	phase "$target built in $(($(date +%s) - t0))s"
	new=$(warnings "$FULL_LOG")
	if [ -n "$new" ]; then
		phase "$target warns: build the unpatched base from the same config"
		if build baseline; then
			new=$(comm -23 <(echo "$new") <(warnings "$FULL_LOG"))
		else
			new="$new
(the baseline did not build: every warning counts)"
		fi
	fi
	judge "$target: no warning the unpatched base lacks" "$new"
fi

echo "build-$target: $passed passed, $failed failed"
mkdir -p "$BUILD/results"
echo "$passed $failed 0" >"$BUILD/results/build-$target"
[ "$failed" = 0 ]
