#!/bin/bash
# make bench-ctx: what allocation context capture (allocations.ctx) costs.
# The x86_64-bench-prof kernel (profiling on, capture built in) against
# the same kernel built without capture (x86_64-bench-prof-noctx), booted
# alternately ROUNDS times each under QEMU -icount (guest instructions per
# operation; the median of the rounds: the page allocator's cases vary
# with the state of the free lists), the kmalloc and page allocator cases
# of kmem_bench:
#   - sites that do not capture: every case, capture built in vs not;
#   - a captured allocation: kmalloc-64-ctx and pgalloc-ctx (capture on
#     at the case's call site) against kmalloc-64 and pgalloc in the
#     same boot.
# Writes build/bench/ctx-results.txt.
#
#   ROUNDS=3 OPS=200000 bench/bench-ctx.sh
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

OPS=${OPS:-200000}
ROUNDS=${ROUNDS:-3}
out=$BUILD/bench
mkdir -p "$out"
"$TOP/scripts/install-deps.sh" x86_64
"$TOP/scripts/tree.sh" --sync

samples=$out/ctx-samples.txt
: >"$samples"
for t in x86_64-bench-prof x86_64-bench-prof-noctx; do
	"$TOP/scripts/build-kernel.sh" "$t"
	build_modules patched "$t" "$TOP/bench/modules" "$out/mod-patched-$t"
done
for r in $(seq 1 "$ROUNDS"); do
	for t in x86_64-bench-prof x86_64-bench-prof-noctx; do
		mod=$out/mod-patched-$t
		GUEST_TAG=bench-ctx-$r "$TOP/scripts/run-guest.sh" --mode bench --smp 1 \
			--qemu "-icount shift=0,align=off" \
			--append "kmemobs.bench_ops=$OPS kmemobs.bench_only=kmalloc,pgalloc" \
			--file "$mod/kmem_bench.ko:/lib/modules/kmem_bench.ko" \
			"$t" >/dev/null
		log=$LOGS/guest-$(kind_name patched "$t")-bench-ctx-$r.log
		grep -q 'kmem_bench: done' "$log" || { tail -n 30 "$log"; die "kmem_bench did not complete in $log"; }
		sed -nE "s/.*kmem_bench: case=([^ ]*) .*ns_per_op=([0-9.]*).*/$t \1 \2/p" "$log" >>"$samples"
		phase "round $r/$ROUNDS $t"
	done
done

python3 - "$samples" "$out/ctx-results.txt" "$OPS" "$ROUNDS" <<'PY'
import statistics, sys
from collections import defaultdict
samples, dest, ops, rounds = sys.argv[1:]
raw = defaultdict(list)
for line in open(samples):
    t, case, n = line.split()
    raw[(t, case)].append(float(n))
v = {k: statistics.median(x) for k, x in raw.items()}
on, off = 'x86_64-bench-prof', 'x86_64-bench-prof-noctx'
cases = list(dict.fromkeys(c for (t, c) in v if t == off))
lines = [f'make bench-ctx: {rounds} rounds, {ops} ops per case, QEMU TCG x86_64 -icount, '
         'guest instructions per operation (median of the rounds)',
         'sites that do not capture: capture built in vs not',
         f'{"case":<16} {"built in":>9} {"not built":>9} {"ratio":>6} {"diff":>6}']
for c in cases:
    a, b = v.get((on, c)), v[(off, c)]
    if a is None:
        continue
    lines.append(f'{c:<16} {a:9.1f} {b:9.1f} {a / b:6.3f} {a - b:+6.1f}')
lines += ['a captured allocation (capture on at the case\'s call site) vs the same case '
          'with capture off, same boot',
          f'{"case":<16} {"captured":>9} {"off":>9} {"ratio":>6} {"diff":>7}']
for c in ('kmalloc-64', 'pgalloc'):
    a, b = v.get((on, c + '-ctx')), v.get((on, c))
    if a is not None and b is not None:
        lines.append(f'{c + "-ctx":<16} {a:9.1f} {b:9.1f} {a / b:6.2f} {a - b:+7.1f}')
open(dest, 'w').write('\n'.join(lines) + '\n')
print('\n'.join(lines))
PY
echo "results: ${out#"$TOP"/}/ctx-results.txt"
