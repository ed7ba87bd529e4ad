#!/usr/bin/env python3
"""Checks the user and design pages: README.md, docs/*.md, bench/README.md, bench/RESULTS.md.

- every relative Markdown link resolves to a file or folder of the tree, and a link's
  #anchor to a heading of the page it names;
- every path of the tree a page names in prose (but build outputs git ignores) (docs/..., bench/..., tests/..., tools/...,
  libskmd/..., examples/..., ending in .md, .sh, .py, .c, .h, .def, .txt) exists;
- README.md and docs/ hold no commit hash, no date and no bench/history path (those belong
  in bench/RESULTS.md, whose history table may name commits);
- README.md stays a short page (at most 150 lines).
Usage: check-docs.py [ROOT]; exits 1 with one line per problem."""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), "..", ".."))
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
PATH = re.compile(r"(?<![\w/.-])((?:docs|bench|tests|tools|libskmd|examples|partitioner|profiledb|transform)"
                  r"/[\w./-]*\.(?:md|sh|py|c|h|def|txt))\b")
HASH = re.compile(r"\b[0-9a-f]{7,40}\b")
DATE = re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b")
README_MAX_LINES = 150


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path):
    out, fence = set(), False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                fence = not fence
            elif not fence and line.startswith("#"):
                out.add(slug(line.lstrip("#")))
            out.update(re.findall(r'<a (?:id|name)="([^"]+)"', line))
    return out


def build_output(path):
    """A path git ignores is something the build or a run writes (a table, a binary)."""
    try:
        return subprocess.run(["git", "-C", ROOT, "check-ignore", "-q", path]).returncode == 0
    except OSError:
        return False


def pages():
    yield "README.md"
    for name in sorted(os.listdir(os.path.join(ROOT, "docs"))):
        if name.endswith(".md"):
            yield "docs/" + name
    for name in ("bench/README.md", "bench/RESULTS.md"):
        if os.path.exists(os.path.join(ROOT, name)):
            yield name


def main():
    problems = []
    for page in pages():
        full = os.path.join(ROOT, page)
        here = os.path.dirname(full)
        strict = page == "README.md" or page.startswith("docs/")
        with open(full, encoding="utf-8") as f:
            lines = f.read().split("\n")
        if page == "README.md" and len(lines) > README_MAX_LINES + 1:
            problems.append("%s: %d lines, at most %d" % (page, len(lines) - 1, README_MAX_LINES))
        for n, line in enumerate(lines, 1):
            where = "%s:%d" % (page, n)
            for target in LINK.findall(line):
                if re.match(r"^[a-z]+:", target):
                    continue
                path, _, anchor = target.partition("#")
                dest = os.path.normpath(os.path.join(here, path)) if path else full
                if not os.path.exists(dest):
                    problems.append("%s: broken link %s" % (where, target))
                elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                    problems.append("%s: no heading #%s in %s" % (where, anchor, path or page))
            for path in PATH.findall(line):
                if "*" in path or re.search(r"/[A-Z]+[./]", path) or path.startswith("bench/history"):
                    continue  # a pattern (tests/api/NAME.c), or reported below
                if not os.path.exists(os.path.join(ROOT, path)) and not build_output(path):
                    problems.append("%s: names %s, which does not exist" % (where, path))
            if not strict:
                continue
            if "bench/history" in line:
                problems.append("%s: bench/history (the figures go to bench/RESULTS.md)" % where)
            for h in HASH.findall(line):
                if re.search(r"[a-f]", h) and re.search(r"\d", h):
                    problems.append("%s: commit hash %s (commits belong in bench/RESULTS.md)" % (where, h))
            for d in DATE.findall(line):
                problems.append("%s: date %s (dated figures belong in bench/RESULTS.md)" % (where, d))
    for p in problems:
        print(p)
    if problems:
        print("FAIL test-docs: %d problem(s)" % len(problems))
        return 1
    print("PASS test-docs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
