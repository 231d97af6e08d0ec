#!/bin/bash
# Build a target, boot it with the guest tests and judge the console log.
#
#   scripts/test-guest.sh [--baseline] TARGET
set -euo pipefail
. "$(dirname "$0")/lib.sh"

base=
[ "${1:-}" = --baseline ] && { base=--baseline; shift; }
target=$1
kind=patched
[ -n "$base" ] && kind=baseline
name=guest-$(kind_name $kind "$target")

"$TOP/scripts/build-kernel.sh" $base "$target"
"$TOP/scripts/run-guest.sh" $base "$target"
# Concurrency tests need both vCPUs really brought up.
args=(--name "$name" --need-done --expect 'smp: Brought up 1 node, 2 CPUs')
# KASAN's KUnit suite provokes reports on purpose.
[ "$target" = arm64-mte ] && args+=(--expect-reports kasan)
python3 "$TOP/scripts/parse-log.py" "$LOGS/$name.log" "${args[@]}"
