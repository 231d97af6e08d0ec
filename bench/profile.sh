#!/bin/bash
# make bench's instruction profile of one workload: where a kernel spends
# the guest instructions of one bench/guest/workload.c loop, by function,
# per operation.  QEMU runs the guest without TB chaining (-d nochain) and
# logs every translation block it enters (-d exec) between the workload's
# "profile start" and "profile end" markers only (turned on and off through
# the QEMU monitor); each block's instructions are counted in the kernel's
# disassembly, up to its first branch.  Two profiles side by side say which
# functions a patch made dearer:
#
#   bench/profile.sh [--baseline | --kind KIND] TARGET CASE [APPEND...]
#   bench/profile.sh --diff A.txt B.txt
#
# Writes build/bench/profile-<kernel>-<CASE>[-TAG].txt (PROFILE_TAG names
# runs with different APPEND): "instructions-per-op function", sorted.
# The guest runs under -icount, as make bench's; the window includes the
# second the workload sleeps before its loop (idle and timer ticks, the
# same for every kernel).  Counts are approximate where code was patched
# at boot (alternatives) or an interrupt cut a block short.  Needs about
# 100 MB of log per 10 million instructions.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

if [ "${1:-}" = --diff ]; then
	[ $# = 3 ] || die "usage: $0 --diff A.txt B.txt"
	exec python3 - "$2" "$3" <<'PY'
import signal, sys
signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under | head
def load(p):
    d = {}
    for line in open(p):
        if line.startswith('#'):
            continue
        n, f = line.split(None, 1)
        d[f.strip()] = float(n)
    return d
a, b = load(sys.argv[1]), load(sys.argv[2])
ta, tb = sum(a.values()), sum(b.values())
print(f'# total per op: {ta:.0f} -> {tb:.0f} ({tb - ta:+.0f}, {tb / ta:.4f})')
rows = sorted(set(a) | set(b), key=lambda f: -abs(b.get(f, 0) - a.get(f, 0)))
for f in rows[:40]:
    d = b.get(f, 0) - a.get(f, 0)
    if abs(d) < 0.5:
        break
    print(f'{d:+10.1f} {a.get(f, 0):10.1f} {b.get(f, 0):10.1f} {f}')
PY
fi

kindarg=() kind=patched
case ${1:-} in
--baseline) kindarg=(--baseline) kind=baseline; shift ;;
--kind) kindarg=(--kind "$2") kind=$2; shift 2 ;;
esac
[ $# -ge 2 ] || die "usage: $0 [--baseline | --kind KIND] TARGET CASE [APPEND...]"
target=$1 case=$2
shift 2
vmlinux=$(out_dir "$kind" "$target")/vmlinux
[ -f "$vmlinux" ] || die "$vmlinux missing: scripts/build-kernel.sh ${kindarg[*]} $target"
name=$(kind_name "$kind" "$target")-$case${PROFILE_TAG:+-$PROFILE_TAG}
out=$BUILD/bench
mkdir -p "$out"
qlog=$out/qemu-exec.log sock=$out/qemu-monitor.sock
rm -f "$qlog" "$sock"
tag=profile-$case${PROFILE_TAG:+-$PROFILE_TAG}
console=$LOGS/guest-$(kind_name "$kind" "$target")-$tag.log
rm -f "$console"

phase "profile $case on $(kind_name "$kind" "$target")"
GUEST_TAG=$tag "$TOP/scripts/run-guest.sh" "${kindarg[@]}" --mode bench --smp 1 \
	--qemu "-icount shift=0,align=off -d nochain -D $qlog -monitor unix:$sock,server,nowait" \
	--append "kmemobs.workload=1 kmemobs.workload_only=$case kmemobs.workload_profile $*" \
	"$target" >/dev/null &
guest=$!
# Turn the execution log on at the start marker, off at the end marker.
python3 - "$console" "$sock" <<'PY'
import os, socket, sys, time
console, sock = sys.argv[1:]
def monitor(cmd):
    s = socket.socket(socket.AF_UNIX)
    s.connect(sock)
    s.sendall((cmd + '\n').encode())
    time.sleep(0.2)
    s.close()
state = 'wait'
deadline = time.time() + 900
while time.time() < deadline:
    text = open(console, errors='replace').read() if os.path.exists(console) else ''
    if state == 'wait' and 'workload_bench: profile start' in text:
        monitor('log exec,nochain')
        state = 'on'
    elif state == 'on' and 'workload_bench: profile end' in text:
        monitor('log nochain')
        sys.exit(0)
    elif 'KMEMOBS: done' in text:
        sys.exit('the workload ended without its markers')
    time.sleep(0.1)
sys.exit('no profile markers in time')
PY
wait $guest
ops=$(sed -nE 's/.*workload_bench: case=[^ ]* ops=([0-9]+).*/\1/p' "$console" | tail -n 1)
[ -n "$ops" ] || die "no workload result in $console"
objdump -d --no-show-raw-insn "$vmlinux" >"$out/vmlinux.dis"
python3 - "$qlog" "$out/vmlinux.dis" "$ops" "$out/profile-$name.txt" "$name" <<'PY'
import bisect, collections, re, sys
qlog, dis, ops, dest, name = sys.argv[1:]
ops = int(ops)
# Instruction addresses, whether each ends a block, and function starts.
addrs, ends, funcs = [], [], []
fre = re.compile(r'^([0-9a-f]{16}) <(.*)>:$')
ire = re.compile(r'^([0-9a-f]{16}):\t(\S+)')
# A string instruction with a rep prefix ends its block too: TCG runs each
# iteration as one block (one instruction, as -icount counts it).
stop = re.compile(r'^(j|call|ret|iret|sysret|syscall|sysenter|hlt|ud2|int|lret|lcall|ljmp|rep)')
# The names of one function in both kernels: 6.1's kmalloc() is the
# series' kmalloc_noprof(); GCC's clones (.constprop.0, .isra.0) count as
# their function.
def canon(f):
    f = re.sub(r'\.(constprop|isra|part|cold)\.\d+', '', f)
    return re.sub(r'_noprof$', '', f)
for line in open(dis):
    m = ire.match(line)
    if m:
        addrs.append(int(m.group(1), 16))
        ends.append(bool(stop.match(m.group(2))))
        continue
    m = fre.match(line)
    if m:
        funcs.append((int(m.group(1), 16), canon(m.group(2))))
fstarts = [a for a, _ in funcs]
execs = collections.Counter()
tre = re.compile(r'^Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/')
for line in open(qlog, errors='replace'):
    m = tre.match(line)
    if m:
        execs[int(m.group(1), 16)] += 1
per = collections.Counter()
for pc, n in execs.items():
    i = bisect.bisect_left(addrs, pc)
    if i == len(addrs) or addrs[i] != pc:
        per['(user space or not in vmlinux)'] += n * 4
        continue
    k = 1
    while not ends[i] and k < 512 and i + 1 < len(addrs):
        i += 1
        k += 1
    f = bisect.bisect_right(fstarts, pc) - 1
    per[funcs[f][1] if f >= 0 else '?'] += n * k
total = sum(per.values())
with open(dest, 'w') as o:
    o.write(f'# {name}: {total / ops:.0f} instructions per operation ({ops} operations; '
            f'user space counted as 4 per block)\n')
    for f, n in per.most_common():
        o.write(f'{n / ops:10.1f} {f}\n')
print(f'{name}: {total / ops:.0f} instructions per operation; top functions:')
for f, n in per.most_common(12):
    print(f'{n / ops:10.1f} {f}')
PY
rm -f "$qlog"
echo "profile: ${out#"$TOP"/}/profile-$name.txt"
