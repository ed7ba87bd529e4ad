#!/usr/bin/python3
"""Checks skmd-opt's NVPTX lowering against NVIDIA's own PTX for the same kernels, without a
GPU: both PTX programs run in ptx_sim.py (one work-item at a time, up to the first
barrier) on the same inputs, ordinary and special, and must store the same bits.
Usage: [SKMD_OPT_ARGS="..."] nvptx-sim-check.py SKMD_OPT NATIVE_DIR
NATIVE_DIR holds NVIDIA's PTX of the corpus files (NAME.cl.native, as nvptx-check.sh
--dump-native writes them on the GPU machine); kernels without one are skipped."""
import os
import random
import struct
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptx_sim  # noqa: E402

CORPUS = 'tests/transform/corpus'
HIDDEN = 8  # the partition-ready ABI's hidden ulong parameters
BASE = 0x10000000


def f32(x):
    return struct.pack('<f', x)


SPECIAL_FLOATS = [0.0, -0.0, 1e-40, -1e-45, 1.0, -1.0, 0.5, 1e30, -1e30, 3.4e38,
                  float('inf'), float('-inf'), float('nan'), 88.7, -103.0, 1e-7]


def float_inputs(n, rng, specials):
    vals = [rng.random() for _ in range(n)]
    if specials:
        for i in range(0, n, 7):
            vals[i] = SPECIAL_FLOATS[(i // 7) % len(SPECIAL_FLOATS)]
    return b''.join(f32(v) for v in vals)


def random_bytes(n, rng):
    return bytes(rng.randrange(256) for _ in range(n))


# (corpus file, kernel, global size, local size, [buffer bytes, or None for a scalar],
#  scalars: arg index -> bytes, inputs: arg index -> function(rng) giving a buffer's bytes)
CASES = [
    ('blackscholes', 'blackscholes', 512, 64, [512 * 4] * 5 + [None, None],
     {5: f32(0.02), 6: f32(0.30)},
     {0: lambda r: float_inputs(512, r, True), 1: lambda r: float_inputs(512, r, True),
      2: lambda r: float_inputs(512, r, True)}),
    ('binomial_option', 'binomial_option', 256, 32, [8 * 4, 8 * 4, 132 * 4], {},
     {0: lambda r: float_inputs(8, r, False)}),
    # random 16-bit patterns: NaNs with payloads, infinities, denormals included
    ('half_storage', 'halves', 128, 16, [1024 * 2] * 3, {},
     {0: lambda r: random_bytes(2048, r)}),
    ('half_storage', 'some_halves', 64, 8, [256 * 2] * 2, {},
     {0: lambda r: random_bytes(512, r)}),
]


def run(kernel, params, size, local, buffers, scalars, inputs, hidden):
    """Every work-item's stores, as {(work-item, buffer, offset): (bits, bytes)}."""
    out = {}
    for gid in range(size):
        memory, args = {}, {}
        for i, (_, name) in enumerate(params[:len(buffers)]):
            if buffers[i] is None:
                args[name] = int.from_bytes(scalars[i], 'little')
            else:
                memory[BASE * (i + 1)] = bytearray(inputs.get(i, bytes(buffers[i])))
                args[name] = BASE * (i + 1)
        groups = size // local
        if hidden:
            extra = [0, groups, 1, 1, 0, 0, 0, 1]
            for (_, name), v in zip(params[len(buffers):], extra):
                args[name] = v
        specials = {'%tid.x': gid % local, '%ntid.x': local, '%ctaid.x': gid // local,
                    '%nctaid.x': groups, '%tid.y': 0, '%tid.z': 0, '%ntid.y': 1,
                    '%ntid.z': 1, '%ctaid.y': 0, '%ctaid.z': 0, '%nctaid.y': 1,
                    '%nctaid.z': 1}
        specials.update({'%%envreg%d' % k: 0 for k in range(32)})
        for a, v, n in kernel.run(args, specials, memory):
            out[(gid, a // BASE - 1, a % BASE)] = (v, n)
    return out


def main():
    opt, native_dir = sys.argv[1], sys.argv[2]
    rng_seed = 2026
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, kname, size, local, buffers, scalars, makers in CASES:
            native = os.path.join(native_dir, name + '.cl.native')
            if not os.path.exists(native):
                print('SKIP %s %s: no %s' % (name, kname, native))
                continue
            ptx = os.path.join(tmp, name + '.ptx')  # compiled once per case: cheap enough
            subprocess.run([opt, '--partition-ready', '--lower=nvptx', '-o', ptx] +
                           os.environ.get('SKMD_OPT_ARGS', '').split() +
                           [os.path.join(CORPUS, name + '.cl')], check=True)
            theirs = ptx_sim.Kernel(open(native, errors='replace').read(), kname)
            ours = ptx_sim.Kernel(open(ptx).read(), kname)
            sc = {i: v for i, v in scalars.items()}
            inputs = {i: m(random.Random(rng_seed + i)) for i, m in makers.items()}
            try:
                a = run(theirs, theirs.params, size, local, buffers, sc, inputs, False)
                b = run(ours, ours.params, size, local, buffers, sc, inputs, True)
            except NotImplementedError as e:
                print('SKIP %s %s: the simulator lacks %s' % (name, kname, e))
                continue
            diffs = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
            if diffs:
                failed += 1
                k = diffs[0]
                print('FAIL %s %s: %d of %d stores differ; first: work-item %d, argument %d, '
                      'byte %d: NVIDIA %s, skmd-opt %s' % (name, kname, len(diffs), len(a), k[0],
                                                          k[1], k[2],
                                       a.get(k) and hex(a[k][0]), b.get(k) and hex(b[k][0])))
            else:
                print('PASS %s %s: %d stores identical' % (name, kname, len(a)))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
