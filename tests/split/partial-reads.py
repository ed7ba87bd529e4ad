#!/usr/bin/python3
"""Reads of part of a buffer after a split launch: each read (at odd offsets, across the
shares' boundaries, through a sub-buffer, blocking and not) must give exactly what the
kernel wrote. Prints 'ok' or the first mismatch."""
import sys
import numpy as np
import pyopencl as cl

N = 1 << 16
src = """
__kernel void fill(__global uint *out, uint k) {
    size_t i = get_global_id(0);
    out[i] = (uint)i * 2654435761u + k;
}"""
ctx = cl.Context(cl.get_platforms()[0].get_devices())
q = cl.CommandQueue(ctx)
kern = cl.Program(ctx, src).build().fill
buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * N)
for k in (1, 7):
    kern(q, (N,), (64,), buf, np.uint32(k))
    want = (np.arange(N, dtype=np.uint64) * 2654435761 + k).astype(np.uint32)
    for first, count, blocking in ((0, N, True), (37, 1000, True), (N // 3 - 5, 11, False),
                                   (N - 17, 17, True), (N // 2, N // 2, False)):
        got = np.zeros(count, dtype=np.uint32)
        cl.enqueue_copy(q, got, buf, src_offset=4 * first, is_blocking=blocking)
        q.finish()
        if not np.array_equal(got, want[first:first + count]):
            bad = int(np.nonzero(got != want[first:first + count])[0][0])
            sys.exit("read of %d elements at %d: element %d is %d, expected %d"
                     % (count, first, first + bad, got[bad], want[first + bad]))
    sub = buf.get_sub_region(4 * 4096, 4 * 8192)
    got = np.zeros(8192, dtype=np.uint32)
    cl.enqueue_copy(q, got, sub)
    if not np.array_equal(got, want[4096:4096 + 8192]):
        sys.exit("sub-buffer read differs")
print("ok")
