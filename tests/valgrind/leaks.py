#!/usr/bin/python3
"""leaks.py LOG: reads a valgrind memcheck log and prints "TOTAL OURS RECORDS ERRORS":
bytes definitely lost (direct), those whose allocation stack passes through libskmd
(a frame in libskmd/ or transform/ sources, or in libskmd.so), how many such records,
and memcheck's error count."""
import re
import sys

total = ours = records = 0
errors = "?"
cur = None  # [bytes, owned]
for line in open(sys.argv[1], errors="replace"):
    body = re.sub(r"^==\d+== ?", "", line.rstrip("\n"))
    m = re.match(r"([\d,]+) (?:\(([\d,]+) direct.*\) )?bytes in [\d,]+ blocks are definitely lost", body)
    if m:
        cur = [int((m.group(2) or m.group(1)).replace(",", "")), False]
        total += cur[0]
        continue
    if cur is not None:
        if body.strip() == "":
            if cur[1]:
                ours += cur[0]
                records += 1
            cur = None
        elif re.search(r"/libskmd/|/transform/|libskmd\.so", body):
            cur[1] = True
    m = re.search(r"ERROR SUMMARY: ([\d,]+) errors", body)
    if m:
        errors = m.group(1).replace(",", "")
print(total, ours, records, errors)
