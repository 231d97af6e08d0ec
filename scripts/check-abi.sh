#!/bin/bash
# 6.1's ABI with the series applied and allocation profiling not
# configured: the patched and the unpatched base built from one
# configuration (x86_64-abi: configs/abi.config, with MODVERSIONS), their
# vmlinux.symvers compared.  Fails on a symbol the base exports that the
# patched kernel does not, or exports with another CRC (a changed
# prototype, or a changed structure the prototype reaches) or another
# license (EXPORT_SYMBOL_GPL for EXPORT_SYMBOL) or namespace.  Symbols
# the series adds are listed, not counted against it.
#
#   scripts/check-abi.sh [TARGET]        (default x86_64-abi)
#
# Counts go to build/results/abi; the comparison to build/logs/abi.txt.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

target=${1:-x86_64-abi}
passed=0 failed=0
report=$LOGS/abi.txt

for kind in patched baseline; do
	phase "build $target ($kind): vmlinux and its exports"
	if ! "$TOP/scripts/build-kernel.sh" --kind $kind "$target" vmlinux >/dev/null; then
		judge "$target ($kind) builds" "build failed: see build/logs/build-$(kind_name $kind "$target").log"
		echo "abi: $passed passed, $failed failed"
		echo "$passed $failed 0" >"$BUILD/results/abi"
		exit 1
	fi
done

new=$(out_dir patched "$target")/vmlinux.symvers
old=$(out_dir baseline "$target")/vmlinux.symvers
# Each line: CRC, symbol, module, export type, namespace.
python3 - "$old" "$new" >"$report" <<'EOF'
import sys

def load(path):
    syms = {}
    for line in open(path):
        f = line.rstrip('\n').split('\t')
        syms[f[1]] = (f[0], f[3], f[4] if len(f) > 4 else '')
    return syms

old, new = load(sys.argv[1]), load(sys.argv[2])
gone = sorted(s for s in old if s not in new)
changed = sorted(s for s in old if s in new and old[s] != new[s])
added = sorted(s for s in new if s not in old)
print(f'exported: base {len(old)}, patched {len(new)}')
for s in gone:
    print(f'GONE {s} ({old[s][1]})')
for s in changed:
    print(f'CHANGED {s}: ' + ', '.join(f'{n} {a} -> {b}' for n, a, b in
          zip(('crc', 'type', 'namespace'), old[s], new[s]) if a != b))
for s in added:
    print(f'added {s} ({new[s][1]})')
EOF
head -n 1 "$report" | sed 's/^/  /'
judge "every symbol the base exports is still exported" "$(grep '^GONE' "$report" | head -n 40)"
judge "with the base's CRC, license and namespace" "$(grep '^CHANGED' "$report" | head -n 40)"
echo "  $(grep -c '^added' "$report") symbols added (build/logs/abi.txt)"

echo "abi: $passed passed, $failed failed"
echo "$passed $failed 0" >"$BUILD/results/abi"
[ "$failed" = 0 ]
