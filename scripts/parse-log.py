#!/usr/bin/env python3
"""Judge a guest console log: KTAP results and kernel splats.

    parse-log.py LOG --name NAME [--expect-reports SUITE] [--need-done]
                 [--allow-warning SUITE:FILE:MESSAGE]

Counts every test case (and every --expect line: a console line that
must appear) (a KTAP result line indented once, below a suite)
as passed, failed or skipped, checks that the guest finished, and scans
the whole log for kernel splats: WARNING:, BUG:, Oops, panics, lockdep
and RCU reports.  KASAN reports are expected only inside the suites named
with --expect-reports (KASAN's own KUnit suite provokes them on purpose);
a report anywhere else is a failure.  Likewise a WARNING: is tolerated
only while SUITE runs, when it is raised at FILE and the WARN's own
message (the line just before it, or just after it on UML) matches the
regular expression MESSAGE
(--allow-warning; the stack depot's suite checks that misuse warns): any
other warning, such as a message-less WARN_ON in the same file, fails.  Prints a summary with the offending
lines, writes "passed failed skipped" to build/results/NAME, exits 1 on
any failure.
"""
import argparse
import os
import re
import sys

TS = re.compile(r'^\[\s*\d+\.\d+\]\s?')
RESULT = re.compile(r'^(\s*)(not ok|ok) (\d+)\s*-?\s*(.*)$')
SUBTEST = re.compile(r'^(\s*)# Subtest: (\S+)')
SPLAT = re.compile(
    r'WARNING:|BUG:|BUG at|Oops|Kernel panic|Unable to handle kernel|'
    r'general protection fault|UBSAN:|rcu: INFO:|detected stall|'
    r'INFO: task .* blocked|circular locking|inconsistent lock state|'
    r'possible recursive locking|list_(add|del) corruption|'
    r'stack-protector|Internal error:')
REPORT_EDGE = re.compile(r'^={40,}$')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('log')
    ap.add_argument('--name', required=True)
    ap.add_argument('--expect-reports', action='append', default=[])
    ap.add_argument('--need-done', action='store_true',
                    help='require the guest init to print "KMEMOBS: done"')
    ap.add_argument('--expect', action='append', default=[],
                    help='a console line that must appear (one test case each)')
    ap.add_argument('--allow-warning', action='append', default=[],
                    help='SUITE:FILE:MESSAGE: a WARNING at FILE whose message '
                    'matches MESSAGE is expected in SUITE')
    ap.add_argument('--results', default=None)
    a = ap.parse_args()

    with open(a.log, errors='replace') as f:
        lines = [TS.sub('', l.rstrip('\r\n')) for l in f]

    allowed = [w.split(':', 2) for w in a.allow_warning]
    passed, failed, skipped = [], [], []
    splats = []
    stack = []          # open suites: (indent, name)
    in_report = False
    done = False
    for no, line in enumerate(lines, 1):
        if line.startswith('KMEMOBS: done'):
            done = True
        m = SUBTEST.match(line)
        if m:
            stack.append((len(m.group(1)), m.group(2)))
            continue
        m = RESULT.match(line)
        if m:
            indent, status, desc = len(m.group(1)), m.group(2), m.group(4)
            # Close suites deeper than this result (their own result line).
            while stack and stack[-1][0] > indent:
                stack.pop()
            if stack and stack[-1][0] == indent and desc.split(' ')[0] == stack[-1][1]:
                stack.pop()
                continue
            if indent == 0 or not stack:
                continue            # a top-level suite line
            if indent > stack[0][0]:
                continue            # a parameter of a parameterised case
            suite = stack[0][1]
            case = f'{suite}.{desc}'
            if status == 'not ok':
                failed.append((no, case))
            elif '# SKIP' in desc or '# skip' in desc:
                skipped.append((no, case))
            else:
                passed.append((no, case))
            continue
        suites = {s for _, s in stack}
        if REPORT_EDGE.match(line.strip()):
            if suites & set(a.expect_reports):
                in_report = not in_report
                continue
        if in_report:
            continue
        if SPLAT.search(line):
            # The WARN's message is printed just before the WARNING: line
            # (x86, arm64) or just after it (UML).
            near = lines[max(no - 2, 0):no - 1] + lines[no:no + 1]
            if line.startswith('WARNING:') and any(
                    s in suites and
                    re.search(rf' at (\S*/)?{re.escape(path)}:', line) and
                    any(re.search(msg, n) for n in near)
                    for s, path, msg in allowed):
                continue
            splats.append((no, line))

    for want in a.expect:
        hit = [no for no, l in enumerate(lines, 1) if want in l]
        (passed if hit else failed).append(
            (hit[0] if hit else -1, f'console.{want}'))

    total = len(passed) + len(failed)
    ok = True
    print(f'{a.name}: {len(passed)} passed, {len(failed)} failed, '
          f'{len(skipped)} skipped (log: {a.log})')
    for no, case in failed:
        print(f'  FAIL {case} ' + (f'(line {no})' if no > 0 else '(not in the log)'))
    for no, case in skipped:
        print(f'  skip {case}')
    if failed:
        ok = False
    if total == 0 and not skipped:
        print('  FAIL: no test results in the log')
        ok = False
        failed.append((0, 'no results'))
    if a.need_done and not done:
        print('  FAIL: the guest did not finish (no "KMEMOBS: done": crash or timeout)')
        ok = False
        failed.append((0, 'guest did not finish'))
    if splats:
        print(f'  FAIL: {len(splats)} kernel splat line(s):')
        for no, line in splats[:20]:
            print(f'    {a.log}:{no}: {line}')
        ok = False
        failed.append((0, 'splats'))
    results = a.results or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..', 'build', 'results')
    os.makedirs(results, exist_ok=True)
    with open(os.path.join(results, a.name), 'w') as f:
        # A splat or an unfinished run is one more failure on top of cases.
        f.write(f'{len(passed)} {len(failed)} {len(skipped)}\n')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
