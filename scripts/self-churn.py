#!/usr/bin/env python3
"""Self-churn of a patch series: how much of what its patches add a later
patch of the same series removes again.

  self-churn.py [--max PCT] [--top N] PATCH...

PATCHes in applying order (cover letters are skipped).  A line counts when
it is an added or removed line of a diff that is at least 12 characters
long once trimmed (so braces, blank lines and bare returns do not); a
removed line is churn when an earlier patch added the same trimmed text
and no earlier removal has already matched that addition.  The share is
churn over the added lines counted.  Prints the N patches with the most
churn (default 5) and the total; with --max, exits 1 when the share is PCT
percent or more.
"""
import argparse
import collections
import os
import re
import sys

MIN_LEN = 12
COVER_SUBJECT = re.compile(r"^Subject: \[[^\]]*?\b0+/\d+\]", re.M)


def is_cover_letter(path, text):
    if os.path.basename(path).endswith("0000-cover-letter.patch"):
        return True
    head = text.split("\n\n", 1)[0]
    return bool(COVER_SUBJECT.search(head))


def diff_lines(text):
    """(added, removed): the trimmed +/- lines of the patch's diffs that count."""
    added, removed = [], []
    in_diff = False
    for line in text.split("\n"):
        if line.startswith("diff --git "):
            in_diff = True
            continue
        if not in_diff or line.startswith(("+++", "---")):
            continue
        sign, content = line[:1], line[1:].strip()
        if len(content) < MIN_LEN:
            continue
        if sign == "+":
            added.append(content)
        elif sign == "-":
            removed.append(content)
    return added, removed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max", type=float, help="fail at this share (percent) or more")
    ap.add_argument("--top", type=int, default=5)
    ap.add_argument("patches", nargs="+")
    args = ap.parse_args()

    live = collections.Counter()  # lines added so far and not yet removed again
    churn = added_total = 0
    per_patch = []
    for path in args.patches:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        if is_cover_letter(path, text):
            continue
        added, removed = diff_lines(text)
        mine = 0
        for line in removed:
            if live[line]:
                live[line] -= 1
                mine += 1
        live.update(added)
        churn += mine
        added_total += len(added)
        per_patch.append((mine, os.path.basename(path)))

    for mine, name in sorted(per_patch, key=lambda p: -p[0])[:args.top]:
        if mine:
            print(f"  {mine:5d} {name}")
    share = 100.0 * churn / added_total if added_total else 0.0
    print(f"self-churn: {churn} of {added_total} added lines ({share:.2f}%) are removed again by a later patch")
    if args.max is not None and share >= args.max:
        print(f"self-churn: {share:.2f}% is not below {args.max:g}%")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
