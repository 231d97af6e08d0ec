#!/usr/bin/env python3
"""Read the cover letters in patches/: each posting's
<P>-<name>-0000-cover-letter.patch is where its hand-written subject and
text live; scripts/export.sh regenerates everything else in it (the
shortlog, the diffstat, base-commit:).

  cover-letter.py description FILE  print the subject, a blank line and
                                    the hand-written text: git format-patch
                                    --cover-from-description=subject makes
                                    the same cover letter from it
  cover-letter.py prefix FILE       print the subject prefix ("PATCH",
                                    "PATCH v2", "RFC PATCH")
  cover-letter.py check FILE...     print a line for each cover letter
                                    without a real subject or text (a
                                    placeholder, nothing written), and for
                                    each line of its prose (not indented)
                                    longer than 75 columns

The text ends where git's shortlog begins: author blocks ("Name (N):",
then the subjects indented by two spaces) whose counts add up to the
number of patches in the subject ("[PATCH 00/12]"), then the diffstat.
A cover letter written by hand before its first export may have no
shortlog: then all of it is text.
"""
import email.header
import re
import sys

PLACEHOLDERS = ("*** SUBJECT HERE ***", "*** BLURB HERE ***",
                "*** cover letter to be written ***")
MAX_COLUMNS = 75
AUTHOR = re.compile(r"^\S.* \((\d+)\):$")
SUBJECT = re.compile(r"^\[(?P<prefix>[^\]]*?)(?:\s+(?P<n>\d+)/(?P<total>\d+))?\]\s*(?P<text>.*)$", re.S)


class CoverError(Exception):
    pass


def read(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    head, sep, body = text.partition("\n\n")
    if not sep:
        raise CoverError("no blank line after the mail headers")
    headers = {}
    name = None
    for line in head.split("\n"):
        if line[:1] in (" ", "\t") and name:
            headers[name] += line  # unfold: the line break goes, the blank stays
        elif ":" in line:
            name, value = line.split(":", 1)
            name = name.lower()
            headers[name] = value.strip()
    if "subject" not in headers:
        raise CoverError("no Subject: header")
    subject = str(email.header.make_header(email.header.decode_header(headers["subject"])))
    m = SUBJECT.match(subject)
    if not m:
        raise CoverError(f"the subject does not start with [PATCH n/N]: {subject!r}")
    total = int(m.group("total")) if m.group("total") else None
    return m.group("prefix"), m.group("text").strip(), hand_written(body.split("\n"), total)


def shortlog_end(lines, k, total):
    """Index of the diffstat when git's shortlog starts at lines[k], else None."""
    count, i = 0, k
    while True:
        m = AUTHOR.match(lines[i]) if i < len(lines) else None
        if not m:
            return None
        count += int(m.group(1))
        i += 1
        while i < len(lines) and lines[i].startswith("  "):
            i += 1
        if i >= len(lines) or lines[i] != "":
            return None
        i += 1
        nxt = lines[i] if i < len(lines) else ""
        if total is not None and count >= total:
            break
        if total is None and not AUTHOR.match(nxt):
            break
    if total is not None and count != total:
        return None
    # The diffstat: " path | n +-" lines, or at least its summary line.
    if i < len(lines) and lines[i].startswith(" ") and ("|" in lines[i] or " changed" in lines[i]):
        return i
    return None


def hand_written(lines, total):
    for k, line in enumerate(lines):
        if (k == 0 or lines[k - 1] == "") and AUTHOR.match(line) and \
                shortlog_end(lines, k, total) is not None:
            return "\n".join(lines[:k]).strip("\n")
    if not any(AUTHOR.match(line) or line.startswith("base-commit:") for line in lines):
        # Written by hand before any export: all of it is text, up to a
        # signature ("-- ") if it has one.
        if "-- " in lines:
            lines = lines[:lines.index("-- ")]
        return "\n".join(lines).strip("\n")
    raise CoverError("cannot tell where the hand-written text ends (no shortlog of "
                     f"{total if total is not None else 'the'} patches before a diffstat)")


def main(argv):
    if len(argv) < 3 or argv[1] not in ("description", "prefix", "check"):
        sys.exit(__doc__)
    out = sys.stdout
    if argv[1] == "check":
        bad = 0
        for path in argv[2:]:
            try:
                _, subject, body = read(path)
            except (OSError, CoverError) as e:
                print(f"{path}: {e}")
                bad += 1
                continue
            problems = [f"placeholder {p!r}" for p in PLACEHOLDERS if p in subject or p in body]
            if not subject:
                problems.append("no subject")
            if not body.strip():
                problems.append("no text before the shortlog")
            # Prose wraps as a changelog does; indented lines (tables,
            # examples of output) may be wider.
            for n, line in enumerate(body.split("\n"), 1):
                if len(line) > MAX_COLUMNS and not line[:1].isspace():
                    problems.append(f"text line {n} has {len(line)} columns "
                                    f"(at most {MAX_COLUMNS}): {line[:40]}...")
            for p in problems:
                print(f"{path}: {p}")
            bad += bool(problems)
        return 1 if bad else 0
    if len(argv) != 3:
        sys.exit(__doc__)
    try:
        prefix, subject, body = read(argv[2])
    except (OSError, CoverError) as e:
        sys.exit(f"{argv[2]}: {e}")
    if argv[1] == "prefix":
        out.write(prefix + "\n")
    else:
        out.write(subject + "\n\n" + body + "\n")
    return 0


if __name__ == "__main__":
    sys.stdout.reconfigure(errors="surrogateescape")
    sys.exit(main(sys.argv))
