#!/usr/bin/env python3
"""The command-line outputs the README and the tutorials quote are what the command prints today.

Every fenced block whose first line is `$ zero-planner ...` (continued with a trailing backslash)
is run from a scratch folder that sees the source tree's docs/ and tests/; each line quoted after
the command must appear in the command's output, in the same order ("..." stands for lines left
out; a date matches any date, as a calibration records the day it ran, and a bundled data file
matches wherever it was found). A command's -o/--out file
goes to the scratch folder, so nothing in the tree is written, and a later block may read it
(tutorial 6 opens the session its calibrate wrote). `screenshot`
commands are left to the docs-screenshots target and tst_docs, which compare the pictures.

Usage: check_doc_outputs.py ZERO_PLANNER SOURCE_DIR FILE.md...
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile


def quoted_blocks(path):
    """(line number, command words, expected lines) of each `$ zero-planner` block in a file."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("```") and i + 1 < len(lines) and lines[i + 1].startswith("$ zero-planner"):
            start = i + 2
            command = lines[i + 1][2:]
            j = i + 2
            while command.endswith("\\") and j < len(lines):
                command = command[:-1] + " " + lines[j].strip()
                j += 1
            expected = []
            while j < len(lines) and not lines[j].startswith("```"):
                expected.append(lines[j].rstrip())
                j += 1
            yield start, shlex.split(command), expected
            i = j
        i += 1


def redirect_outputs(words):
    """The words with every -o/--out FILE that names a folder (docs/images/...) written to the
    scratch folder instead; a bare file name is written there already."""
    out = list(words)
    for k, w in enumerate(out[:-1]):
        if w in ("-o", "--out") and os.path.dirname(out[k + 1]):
            out[k + 1] = os.path.basename(out[k + 1])
    return out


DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
BUNDLED = re.compile(r"/\S*/(tests/data/)")


def normalized(line):
    """A line as compared: trailing blanks dropped, a date (a calibration's day) as DATE, a bundled
    data file by its path in the tree (validate prints where it found it)."""
    return BUNDLED.sub(r"\1", DATE.sub("DATE", line.rstrip()))


def check(binary, path, scratch):
    failures = []
    for line_no, words, expected in quoted_blocks(path):
        if len(words) > 1 and words[1] == "screenshot":
            continue
        run = subprocess.run([binary] + redirect_outputs(words[1:]), cwd=scratch, capture_output=True, text=True,
                             env=dict(os.environ, QT_QPA_PLATFORM="offscreen"), timeout=300)
        actual = [normalized(l) for l in (run.stdout + run.stderr).split("\n")]
        at = 0
        for want in expected:
            if want.strip() in ("...", ""):
                continue
            want = normalized(want)
            while at < len(actual) and actual[at] != want:
                at += 1
            if at == len(actual):
                failures.append(f"{path}:{line_no}: `{' '.join(words)}` no longer prints, in this order:\n    {want}")
                break
            at += 1
    return failures


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    binary, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    failures, blocks = [], 0
    with tempfile.TemporaryDirectory(prefix="zp-doc-outputs-") as scratch:
        for name in ("docs", "tests"):
            os.symlink(os.path.join(source, name), os.path.join(scratch, name))
        for md in sys.argv[3:]:
            path = os.path.join(source, md)
            blocks += sum(1 for _ in quoted_blocks(path))
            failures += check(binary, path, scratch)
    for f in failures:
        print(f)
    print(f"{blocks} quoted command blocks, {len(failures)} out of date")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
