#!/usr/bin/env python3
"""tests/layers/check-layers.py OBJ_ROOT LAYER...: libskmd's one-way rule (docs/layers.md).

LAYER... are libskmd's folders from the top layer down. A file may include headers of,
and call functions of, only its own layer or a lower one. Fails on:
  - a source, header or .def list under libskmd/ outside a layer folder;
  - an upward include: a file of layer X including a header of a higher layer;
  - an upward call: an object of layer X (OBJ_ROOT/libskmd/X/*.o) taking a symbol that
    an object of a higher layer defines (nm: its undefined symbols against the others'
    defined ones).
"""
import os
import re
import subprocess
import sys

# Upward edges not yet taken away: (from file, to file, symbol or header). Each one is a
# known debt; the check fails when one is gone too, so that this list stays exact.
ALLOWED = set()

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def main():
    obj_root, layers = sys.argv[1], sys.argv[2:]
    rank = {l: len(layers) - i for i, l in enumerate(layers)}
    lib = 'libskmd'
    problems, found = [], set()

    layer_of = {}  # 'support/log.h' -> 'support'
    for entry in sorted(os.listdir(lib)):
        path = os.path.join(lib, entry)
        if os.path.isdir(path):
            if entry not in rank:
                problems.append(f'{path}/: a folder that is no layer ({" ".join(layers)})')
                continue
            for f in sorted(os.listdir(path)):
                if f.endswith(('.c', '.h', '.def')):
                    layer_of[f'{entry}/{f}'] = entry
        elif entry.endswith(('.c', '.h', '.def')):
            problems.append(f'{path}: outside the layer folders')

    def edge(src, dst, what):
        a, b = layer_of[src], layer_of[dst]
        if rank[b] > rank[a]:
            key = (src, dst, what)
            found.add(key)
            if key not in ALLOWED:
                problems.append(f'libskmd/{src} ({a}) -> libskmd/{dst} ({b}): {what}')

    # Includes: "layer/x.h" from the include root, or a bare name of the same folder.
    for src, layer in sorted(layer_of.items()):
        text = open(os.path.join(lib, src), encoding='utf-8').read()
        for name in INCLUDE.findall(text):
            if name in layer_of:
                dst = name
            elif f'{layer}/{name}' in layer_of:
                dst = f'{layer}/{name}'
            else:
                continue  # outside libskmd (../../transform/record.h)
            edge(src, dst, 'includes ' + dst)

    # Calls: who defines what among libskmd's objects.
    defined, wanted = {}, {}
    for src in sorted(layer_of):
        if not src.endswith('.c'):
            continue
        obj = os.path.join(obj_root, lib, src[:-2] + '.o')
        if not os.path.exists(obj):
            problems.append(f'{obj}: not built (build libskmd first)')
            continue
        out = subprocess.run(['nm', obj], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in 'TDBRVW':
                defined[parts[2]] = src
            elif len(parts) == 2 and parts[0] == 'U':
                wanted.setdefault(src, set()).add(parts[1])
    for src, syms in sorted(wanted.items()):
        for sym in sorted(syms):
            dst = defined.get(sym)
            if dst and dst != src:
                edge(src, dst, 'calls ' + sym)

    for key in sorted(ALLOWED - found):
        problems.append('allowed but no longer found (take it off the list): %s -> %s: %s' % key)
    if problems:
        print('test-layers: FAILED, upward edges in libskmd/ (docs/layers.md):')
        for p in problems:
            print('  ' + p)
        return 1
    print(f'test-layers: ok ({len(layer_of)} files in {len(layers)} layers, '
          f'{len(ALLOWED)} known upward edges allowed)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
