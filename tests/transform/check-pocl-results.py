#!/usr/bin/python3
"""Reads skmd-opt --lower=pocl's LLVM IR on stdin: no call of a builtin (a mangled _Z name)
may take or return a vector wider than 256 bits (PoCL's SPIR wrapper passes those wrongly
on x86-64), and the builtins must still be called, on 256-bit pieces. Argument: how many
builtins at least. Prints one PASS or FAIL line; exit status 1 on FAIL."""
import re
import sys

BITS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64, "half": 16, "float": 32, "double": 64}
CALL = re.compile(r"call (?:spir_func )?.*?@(_Z\w+)\(")
VECTOR = re.compile(r"<(\d+) x (\w+)>")

wide, pieces = [], set()
for line in sys.stdin:
    call = CALL.search(line)
    if not call:
        continue
    name = call.group(1)
    for lanes, elem in VECTOR.findall(line):
        bits = int(lanes) * BITS.get(elem, 0)
        if bits > 256:
            wide.append(f"{name} passes <{lanes} x {elem}>")
        elif bits == 256:
            pieces.add(name)
want = int(sys.argv[1]) if len(sys.argv) > 1 else 1
if wide:
    print("FAIL pocl results: " + "; ".join(sorted(set(wide))[:5]))
    sys.exit(1)
if len(pieces) < want:
    print(f"FAIL pocl results: {len(pieces)} builtins called on 256-bit pieces, "
          f"expected at least {want}: {sorted(pieces)}")
    sys.exit(1)
print(f"PASS pocl results: no builtin call passes a vector wider than 256 bits, "
      f"{len(pieces)} builtins on 256-bit pieces")
