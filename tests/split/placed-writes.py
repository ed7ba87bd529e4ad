#!/usr/bin/python3
"""The app writes a launch's inputs, launches, reads the result, over and over (new data
each round, whole writes, a write of part of a buffer, a write through a sub-buffer, a
blocking write with an event, a non-blocking write with a wait list): under
SKMD_PLACE_WRITES the writes go straight to the members that read each part. With the
argument `chain` a second kernel reads the first one's output and the app reads only the
second one's (the first one's writes are then not placed under `auto`). Every result must
be exactly what the kernels compute. Prints 'ok' or the first mismatch."""
import sys
import numpy as np
import pyopencl as cl

N = 1 << 16
ROUNDS = 8
src = """
__kernel void lcg_rounds(__global const uint *a, __global const uint *b, __global uint *out) {
    size_t i = get_global_id(0);
    uint x = a[i];
    for (int j = 0; j < 64; j++)
        x = x * 1664525u + b[i];
    out[i] = x;
}
__kernel void invert(__global const uint *in, __global uint *out) {
    size_t i = get_global_id(0);
    out[i] = ~in[i];
}"""
chain = sys.argv[1:] == ["chain"]


def mix(a, b):
    x = a.astype(np.uint32).copy()
    for _ in range(64):
        x = x * np.uint32(1664525) + b
    return x


ctx = cl.Context(cl.get_platforms()[0].get_devices())
q = cl.CommandQueue(ctx)
prog = cl.Program(ctx, src).build()
kern, invert = prog.lcg_rounds, prog.invert
mf = cl.mem_flags
a_buf = cl.Buffer(ctx, mf.READ_ONLY, 4 * N)
b_buf = cl.Buffer(ctx, mf.READ_ONLY, 4 * N)
out = cl.Buffer(ctx, mf.READ_WRITE, 4 * N)
inverted = cl.Buffer(ctx, mf.WRITE_ONLY, 4 * N)
rng = np.random.default_rng(7)
a = rng.integers(0, 2**32, N, dtype=np.uint32)
b = rng.integers(0, 2**32, N, dtype=np.uint32)
for r in range(ROUNDS):
    if r % 4 == 2:  # part of a, across the shares' boundary
        first, count = N // 3, N // 3
        a[first:first + count] = rng.integers(0, 2**32, count, dtype=np.uint32)
        cl.enqueue_copy(q, a_buf, a[first:first + count], dst_offset=4 * first,
                        is_blocking=False)
    elif r % 4 == 3:  # through a sub-buffer of b, blocking, with an event
        first, count = N // 2 - 4096, 8192
        b[first:first + count] = rng.integers(0, 2**32, count, dtype=np.uint32)
        sub = b_buf.get_sub_region(4 * first, 4 * count)
        ev = cl.enqueue_copy(q, sub, b[first:first + count], is_blocking=True)
        ev.wait()
    else:
        a = rng.integers(0, 2**32, N, dtype=np.uint32)
        b = rng.integers(0, 2**32, N, dtype=np.uint32)
        wait = [cl.enqueue_marker(q)] if r == 5 else None
        cl.enqueue_copy(q, a_buf, a, is_blocking=False, wait_for=wait)
        cl.enqueue_copy(q, b_buf, b, is_blocking=False)
    kern(q, (N,), (64,), a_buf, b_buf, out)
    if chain:
        invert(q, (N,), (64,), out, inverted)
    got = np.empty(N, dtype=np.uint32)
    cl.enqueue_copy(q, got, inverted if chain else out)
    want = ~mix(a, b) if chain else mix(a, b)
    if not np.array_equal(got, want):
        bad = int(np.nonzero(got != want)[0][0])
        sys.exit("round %d: element %d is %d, expected %d" % (r, bad, got[bad], want[bad]))
print("ok")
