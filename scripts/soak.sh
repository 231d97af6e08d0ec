#!/bin/bash
# The soak (make check-wide soak-x86_64, soak-arm64-sw-tags): TARGET's
# test kernel booted with stress-ng in its initramfs and
# kmemobs.soak=SOAK_SECS (default 180), so that tests/guest/90-soak.sh
# loads it while readers, vm.mem_profiling switches and capture run
# beside the load (see that file), then judged
# as every guest boot is: any warning, lockdep, RCU or KASAN report from
# boot to power-off fails it.  The KUnit suites do not run (they run in
# make check's boot of the same kernel).
#
#   SOAK_SECS=180 scripts/soak.sh TARGET
#
# Verdict in build/logs/guest-TARGET-soak.verdict, counts in
# build/results/guest-TARGET-soak.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

target=$1
secs=${SOAK_SECS:-180}
# x86_64 guests run the host's stress-ng; arm64 guests Debian's arm64
# build of it, unpacked under build/host (install-deps.sh soak-arm64).
case $target in
x86_64*) deps=soak ;;
arm64*) deps="arm64 soak-arm64" ;;
*) die "soak: no stress-ng for $target's guest (x86_64 and arm64 targets)" ;;
esac
# shellcheck disable=SC2086
"$TOP/scripts/install-deps.sh" $deps || die "install-deps $deps failed"
"$TOP/scripts/build-kernel.sh" "$target"
name=guest-$(kind_name patched "$target")-soak
# Boot, the load and the checks after it; TCG runs the DEBUG kernel
# several times slower than the hardware it emulates.
GUEST_SOAK=1 GUEST_TAG=soak GUEST_LIMIT=$((secs + 600)) "$TOP/scripts/run-guest.sh" \
	--append "kmemobs.soak=$secs kunit.filter_glob=none" --tests boot,soak "$target"
rc=0
python3 "$TOP/scripts/parse-log.py" "$LOGS/$name.log" --name "$name" --results "$BUILD/results" \
	--need-done --expect 'smp: Brought up 1 node, 2 CPUs' >"$LOGS/$name.verdict" || rc=$?
cat "$LOGS/$name.verdict"
exit $rc
