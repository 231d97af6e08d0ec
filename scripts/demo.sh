#!/bin/bash
# make demo: install what is needed, build the patched x86_64 kernel, boot
# it under QEMU and show what the series gives.  Full logs in build/logs/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

phase "install packages (log: build/logs/install-deps.log)"
"$TOP/scripts/install-deps.sh" >"$LOGS/install-deps.log" 2>&1 ||
	{ tail -n 20 "$LOGS/install-deps.log"; die "install-deps failed"; }
phase "base tree + series"
"$TOP/scripts/tree.sh" --sync
"$TOP/scripts/build-kernel.sh" x86_64
GUEST_TAG=demo "$TOP/scripts/run-guest.sh" --mode demo x86_64 >/dev/null
log=$LOGS/guest-x86_64-demo.log

echo
echo "### series applied to $(git -C "$TREE" tag -l --format='%(contents:subject)' base)"
git -C "$TREE" log --reverse --format='  %s' base..HEAD
# The guest's own output: everything init printed, without kernel messages.
sed -n '/^KMEMOBS: userspace up/,/^KMEMOBS: done/p' "$log" |
	grep -av -e '^KMEMOBS:' -e '^\[ *[0-9]*\.[0-9]*\]' | tr -d '\r'
echo
grep -aq '^KMEMOBS: done' "$log" || die "the guest did not finish: see ${log#"$TOP"/}"
phase "demo done (console log: ${log#"$TOP"/})"
