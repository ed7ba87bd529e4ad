"""Kernel patterns seen in public OpenCL programs that are hard to split: each case builds
its own kernels, launches them on seeded inputs and keeps every buffer's bytes. Run
natively and under libskmd with forced splits (run.sh, compare.py), the buffers must be
equal byte for byte. The kernels are written here from the pattern alone (what makes them
hard), not taken from any program. OpenCL through ctypes (clmini.py): numpy is the only
module it needs.

Usage: patterns.py OUT_DIR [CASE ...]   writes OUT_DIR/results.json and one .bin per buffer
       patterns.py --list"""
import hashlib
import json
import os
import sys

import numpy as np

import clmini

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


class Program:
    """Kernels of one built program, as attributes: p.rows."""

    def __init__(self, dev, prog):
        self._dev, self._prog = dev, prog

    def __getattr__(self, name):
        k = self._dev.kernel(self._prog, name)
        setattr(self, name, k)
        return k


class Run:
    """One case: buffers made from arrays (their element type kept), launches, the bytes."""

    def __init__(self, dev):
        self.dev = dev
        self.buffers = {}
        self.rng = np.random.default_rng(7)

    def build(self, src, options=""):
        return Program(self.dev, self.dev.program(src, options))

    def buf(self, name, array):
        b = self.dev.buffer(array)
        self.buffers[name] = (b, array.dtype.str)
        return b

    def launch(self, kernel, gsize, lsize, *args, offset=None):
        self.dev.launch(kernel, gsize, lsize, args, offset)

    def save(self, out_dir, case_name):
        out = {}
        for name, (b, dtype) in self.buffers.items():
            data = self.dev.read(b)
            with open(os.path.join(out_dir, "%s.%s.bin" % (case_name, name)), "wb") as f:
                f.write(data.tobytes())
            out[name] = {"sha": hashlib.sha256(data.tobytes()).hexdigest()[:16], "dtype": dtype}
        return out


@case
def separable_convolution(r):
    """Rows then columns: 2-D, a __local tile with a halo, reqd_work_group_size, the global
    pointers moved by baseY * pitch + baseX where baseX is negative for the first column of
    work-groups (computed in size_t, narrowed to int)."""
    src = """
    #define R 8
    #define RX 16
    #define RY 4
    #define STEPS 4
    #define HALO 1
    __kernel __attribute__((reqd_work_group_size(RX, RY, 1)))
    void rows(__global float *dst, __global const float *src, __constant float *taps,
              int w, int h, int pitch) {
        __local float t[RY][(STEPS + 2 * HALO) * RX];
        const int baseX = (get_group_id(0) * STEPS - HALO) * RX + get_local_id(0);
        const int baseY = get_group_id(1) * RY + get_local_id(1);
        src += baseY * pitch + baseX;
        dst += baseY * pitch + baseX;
        for (int i = HALO; i < HALO + STEPS; i++)
            t[get_local_id(1)][get_local_id(0) + i * RX] = src[i * RX];
        for (int i = 0; i < HALO; i++)
            t[get_local_id(1)][get_local_id(0) + i * RX] = baseX + i * RX >= 0 ? src[i * RX] : 0;
        for (int i = HALO + STEPS; i < STEPS + 2 * HALO; i++)
            t[get_local_id(1)][get_local_id(0) + i * RX] = w - baseX > i * RX ? src[i * RX] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int i = HALO; i < HALO + STEPS; i++) {
            float s = 0;
            for (int j = -R; j <= R; j++)
                s += taps[R - j] * t[get_local_id(1)][get_local_id(0) + i * RX + j];
            dst[i * RX] = s;
        }
    }
    #define CX 16
    #define CY 8
    __kernel __attribute__((reqd_work_group_size(CX, CY, 1)))
    void columns(__global float *dst, __global const float *src, __constant float *taps,
                 int w, int h, int pitch) {
        __local float t[CX][(STEPS + 2 * HALO) * CY + 1];
        const int baseX = get_group_id(0) * CX + get_local_id(0);
        const int baseY = (get_group_id(1) * STEPS - HALO) * CY + get_local_id(1);
        src += baseY * pitch + baseX;
        dst += baseY * pitch + baseX;
        for (int i = HALO; i < HALO + STEPS; i++)
            t[get_local_id(0)][get_local_id(1) + i * CY] = src[i * CY * pitch];
        for (int i = 0; i < HALO; i++)
            t[get_local_id(0)][get_local_id(1) + i * CY] = baseY + i * CY >= 0 ? src[i * CY * pitch] : 0;
        for (int i = HALO + STEPS; i < STEPS + 2 * HALO; i++)
            t[get_local_id(0)][get_local_id(1) + i * CY] = h - baseY > i * CY ? src[i * CY * pitch] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int i = HALO; i < HALO + STEPS; i++) {
            float s = 0;
            for (int j = -R; j <= R; j++)
                s += taps[R - j] * t[get_local_id(0)][get_local_id(1) + i * CY + j];
            dst[i * CY * pitch] = s;
        }
    }"""
    p = r.build(src)
    w, h = 512, 256
    img = r.rng.random(w * h, dtype=np.float32)
    taps = r.rng.random(17, dtype=np.float32)
    a = r.buf("image", img)
    tmp = r.buf("rows_out", np.zeros(w * h, np.float32))
    out = r.buf("columns_out", np.zeros(w * h, np.float32))
    t = r.buf("taps", taps)
    n = (np.int32(w), np.int32(h), np.int32(w))
    r.launch(p.rows, (w // 4, h), (16, 4), tmp, a, t, *n)
    r.launch(p.columns, (w, h // 4), (16, 8), out, tmp, t, *n)


@case
def block_compressor(r):
    """A texture-block compressor: 1-D, one work-group of 16 per 4x4 block, uint2 outputs,
    a scalar group offset (the app launches the image in slices), __constant tables,
    __local staging of the block."""
    src = """
    __constant uint weights[4] = {0u, 2u, 1u, 3u};
    __constant float lum[3] = {0.299f, 0.587f, 0.114f};
    __kernel void compress(__global const uint *pixels, __global uint2 *blocks,
                           int group_offset, int blocks_per_row) {
        __local uint px[16];
        __local float l[16];
        const int b = get_group_id(0) + group_offset;
        const int i = get_local_id(0);
        const int bx = b % blocks_per_row, by = b / blocks_per_row;
        const int x = bx * 4 + (i & 3), y = by * 4 + (i >> 2);
        uint c = pixels[y * blocks_per_row * 4 + x];
        px[i] = c;
        l[i] = lum[0] * (c & 255) + lum[1] * ((c >> 8) & 255) + lum[2] * ((c >> 16) & 255);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (i == 0) {
            int lo = 0, hi = 0;
            for (int k = 1; k < 16; k++) {
                if (l[k] < l[lo]) lo = k;
                if (l[k] > l[hi]) hi = k;
            }
            uint bits = 0;
            for (int k = 0; k < 16; k++) {
                float f = (l[k] - l[lo]) / (l[hi] - l[lo] + 1e-6f);
                bits |= weights[min(3, (int)(f * 4.0f))] << (2 * k);
            }
            blocks[b] = (uint2)(px[hi] & 0xffffffu | (px[lo] & 0xffu) << 24, bits);
        }
    }"""
    p = r.build(src)
    w, h = 128, 128
    pixels = r.buf("pixels", r.rng.integers(0, 2**32, w * h, dtype=np.uint32))
    blocks = r.buf("blocks", np.zeros(2 * (w // 4) * (h // 4), np.uint32))
    per_slice = (w // 4) * (h // 4) // 2
    for s in range(2):  # two slices, as apps do for large images
        r.launch(p.compress, (per_slice * 16,), (16,), pixels, blocks,
                 np.int32(s * per_slice), np.int32(w // 4))


@case
def viterbi_step(r):
    """A Viterbi step per time t: one work-group per state, a local max-reduction over the
    previous states, the best path written at [t * n + state], probabilities ping-ponged."""
    src = """
    __kernel void viterbi(__global const float *prev, __global float *next,
                       __global const float *trans, __global const float *emit,
                       __global int *path, int n, int t, int obs,
                       __local float *best, __local int *arg) {
        const int j = get_group_id(0), l = get_local_id(0), L = get_local_size(0);
        float b = -INFINITY; int a = 0;
        for (int i = l; i < n; i += L) {
            float v = prev[i] + trans[i * n + j];
            if (v > b) { b = v; a = i; }
        }
        best[l] = b; arg[l] = a;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int s = L / 2; s > 0; s >>= 1) {
            if (l < s && (best[l + s] > best[l] || (best[l + s] == best[l] && arg[l + s] < arg[l]))) {
                best[l] = best[l + s]; arg[l] = arg[l + s];
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (l == 0) {
            next[j] = best[0] + emit[obs * n + j];
            path[t * n + j] = arg[0];
        }
    }"""
    p = r.build(src)
    n, steps = 256, 6
    a = r.buf("p0", np.log(r.rng.random(n, dtype=np.float32) + 1e-3).astype(np.float32))
    b = r.buf("p1", np.zeros(n, np.float32))
    trans = r.buf("trans", np.log(r.rng.random(n * n, dtype=np.float32) + 1e-3).astype(np.float32))
    emit = r.buf("emit", np.log(r.rng.random(4 * n, dtype=np.float32) + 1e-3).astype(np.float32))
    path = r.buf("path", np.zeros(steps * n, np.int32))
    loc = clmini.Local(64 * 4)
    for t in range(steps):
        src_b, dst_b = (a, b) if t % 2 == 0 else (b, a)
        r.launch(p.viterbi, (n * 64,), (64,), src_b, dst_b, trans, emit, path, np.int32(n),
                 np.int32(t), np.int32(t % 4), loc, clmini.Local(64 * 4))


@case
def matvec_local_reduction(r):
    """y = A x with one work-group per row: strided partial sums, a __local tree reduction,
    the first work-item writes y[row]; then the transposed product with one work-item per
    column (a 2-D launch over the column index only)."""
    src = """
    __kernel void rows(__global const float *A, __global const float *x, __global float *y,
                       uint n, __local float *part) {
        const uint row = get_group_id(0), l = get_local_id(0), L = get_local_size(0);
        float s = 0.0f;
        for (uint c = l; c < n; c += L)
            s += A[row * n + c] * x[c];
        part[l] = s;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = L / 2; k > 0; k >>= 1) {
            if (l < k) part[l] += part[l + k];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (l == 0) y[row] = part[0];
    }
    __kernel void cols(__global const float *A, __global const float *x, __global float *y,
                       uint n) {
        const uint c = get_global_id(0);
        float s = 0.0f;
        for (uint i = 0; i < n; i++)
            s += A[i * n + c] * x[i];
        y[c] = s;
    }"""
    p = r.build(src)
    n = 384
    A = r.buf("A", r.rng.random(n * n, dtype=np.float32))
    x = r.buf("x", r.rng.random(n, dtype=np.float32))
    y = r.buf("y", np.zeros(n, np.float32))
    yt = r.buf("yt", np.zeros(n, np.float32))
    r.launch(p.rows, (n * 32,), (32,), A, x, y, np.uint32(n), clmini.Local(32 * 4))
    r.launch(p.cols, (n,), (16,), A, x, yt, np.uint32(n))


@case
def warp_sync_reduction(r):
    """A reduction whose last steps rely on work-items running in lockstep (a volatile
    __local pointer, no barrier below 64), as GPU samples write it; each group adds
    2 * local size elements and writes its sum at its group id."""
    src = """
    __kernel void reduce(__global const int *in, __global int *out, uint n,
                         __local volatile int *s) {
        const uint l = get_local_id(0), L = get_local_size(0);
        const uint i = get_group_id(0) * (L * 2) + l;
        int v = i < n ? in[i] : 0;
        if (i + L < n) v += in[i + L];
        s[l] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = L / 2; k > 32; k >>= 1) {
            if (l < k) s[l] = v = v + s[l + k];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (l < 32) {
            s[l] = v = v + s[l + 32];
            s[l] = v = v + s[l + 16];
            s[l] = v = v + s[l + 8];
            s[l] = v = v + s[l + 4];
            s[l] = v = v + s[l + 2];
            s[l] = v = v + s[l + 1];
        }
        if (l == 0) out[get_group_id(0)] = s[0];
    }"""
    p = r.build(src)
    n = 128 * 2 * 96
    data = r.buf("in", r.rng.integers(-1000, 1000, n, dtype=np.int32))
    out = r.buf("sums", np.zeros(96, np.int32))
    r.launch(p.reduce, (96 * 128,), (128,), data, out, np.uint32(n), clmini.Local(128 * 4))


@case
def radix_sort_pass(r):
    """One pass of a multi-kernel radix sort: per-group digit counts in __local memory (local
    atomics), an exclusive scan of the counts by one work-group (a __local scan), then a
    stable scatter per group that ranks each key by a __local scan of its digit flags."""
    src = """
    #define RADIX 16
    __kernel void count(__global const uint *keys, __global uint *counts, uint shift,
                        uint groups) {
        __local uint c[RADIX];
        const uint l = get_local_id(0), g = get_group_id(0);
        if (l < RADIX) c[l] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        atomic_inc(&c[(keys[get_global_id(0)] >> shift) & (RADIX - 1)]);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < RADIX) counts[l * groups + g] = c[l];
    }
    __kernel void scan(__global uint *counts, uint total, __local uint *t) {
        const uint l = get_local_id(0), L = get_local_size(0);
        const uint per = (total + L - 1) / L;
        uint s = 0;
        for (uint k = 0; k < per; k++) {
            uint i = l * per + k;
            if (i < total) s += counts[i];
        }
        t[l] = s;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint d = 1; d < L; d <<= 1) {
            uint v = l >= d ? t[l - d] : 0;
            barrier(CLK_LOCAL_MEM_FENCE);
            t[l] += v;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        uint run = l ? t[l - 1] : 0;
        for (uint k = 0; k < per; k++) {
            uint i = l * per + k;
            if (i < total) { uint c = counts[i]; counts[i] = run; run += c; }
        }
    }
    __kernel void scatter(__global const uint *keys, __global uint *out,
                          __global const uint *offsets, uint shift, uint groups,
                          __local uint *flags) {
        const uint l = get_local_id(0), L = get_local_size(0), g = get_group_id(0);
        const uint key = keys[get_global_id(0)], d = (key >> shift) & (RADIX - 1);
        uint rank = 0;
        for (uint digit = 0; digit < RADIX; digit++) {
            flags[l] = d == digit;
            barrier(CLK_LOCAL_MEM_FENCE);
            for (uint s = 1; s < L; s <<= 1) {
                uint v = l >= s ? flags[l - s] : 0;
                barrier(CLK_LOCAL_MEM_FENCE);
                flags[l] += v;
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            if (d == digit) rank = flags[l] - 1;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        out[offsets[d * groups + g] + rank] = key;
    }"""
    p = r.build(src)
    L, groups = 64, 64
    n = L * groups
    keys = r.buf("keys", r.rng.integers(0, 2**16, n, dtype=np.uint32))
    tmp = r.buf("tmp", np.zeros(n, np.uint32))
    counts = r.buf("counts", np.zeros(16 * groups, np.uint32))
    src_b, dst_b = keys, tmp
    for shift in (0, 4, 8, 12):
        r.launch(p.count, (n,), (L,), src_b, counts, np.uint32(shift), np.uint32(groups))
        r.launch(p.scan, (64,), (64,), counts, np.uint32(16 * groups), clmini.Local(64 * 4))
        r.launch(p.scatter, (n,), (L,), src_b, dst_b, counts, np.uint32(shift),
                 np.uint32(groups), clmini.Local(L * 4))
        src_b, dst_b = dst_b, src_b


@case
def offset_launch_2d(r):
    """A 2-D launch with a global work offset and a transposing tile in __local memory with
    one column of padding; the output is written at (x, y) swapped, the offset region only."""
    src = """
    #define T 16
    __kernel void transpose(__global float *out, __global const float *in, int w, int h) {
        __local float tile[T][T + 1];
        const int x = get_global_id(0), y = get_global_id(1);
        tile[get_local_id(1)][get_local_id(0)] = in[y * w + x];
        barrier(CLK_LOCAL_MEM_FENCE);
        const int ox = get_group_id(1) * T + get_local_id(0) + get_global_offset(1);
        const int oy = get_group_id(0) * T + get_local_id(1) + get_global_offset(0);
        out[oy * h + ox] = tile[get_local_id(0)][get_local_id(1)];
    }"""
    p = r.build(src)
    w, h = 256, 192
    a = r.buf("in", r.rng.random(w * h, dtype=np.float32))
    b = r.buf("out", np.zeros(w * h, np.float32))
    r.launch(p.transpose, (w - 32, h - 32), (16, 16), b, a, np.int32(w), np.int32(h),
             offset=(16, 32))


@case
def negative_stride(r):
    """Reversal and a signed, narrowed index: each group writes its block backwards from the
    end of the buffer, and reads a window that starts before its own elements."""
    src = """
    __kernel void reverse(__global const short *in, __global short *out, int n) {
        const int i = get_global_id(0);
        const int back = n - 1 - i;
        const int before = (int)(get_group_id(0) * get_local_size(0)) - 3 + (int)get_local_id(0);
        short v = in[i];
        if (before >= 0) v += in[before];
        out[back] = v;
    }"""
    p = r.build(src)
    n = 64 * 200
    a = r.buf("in", r.rng.integers(-300, 300, n, dtype=np.int16))
    b = r.buf("out", np.zeros(n, np.int16))
    r.launch(p.reverse, (n,), (64,), a, b, np.int32(n))


@case
def struct_copy(r):
    """A struct read whole from global into private memory (one block copy out of global
    memory), its fields written back one by one."""
    src = """
    typedef struct { uint w[6]; float scale; int tag; } item_t;
    __kernel void shuffle_items(__global const item_t *in, __global item_t *out, __global float *sum) {
        const size_t i = get_global_id(0);
        item_t it = in[i];
        uint acc = 0;
        for (int k = 0; k < 6; k++)
            acc ^= it.w[k] << k;
        for (int k = 0; k < 6; k++)
            out[i].w[k] = it.w[5 - k];
        out[i].scale = it.scale * 0.5f;
        out[i].tag = (int)acc;
        sum[i] = (float)(acc & 0xffff) * it.scale;
    }"""
    p = r.build(src)
    n = 64 * 40
    items = r.rng.integers(0, 2**31, n * 8, dtype=np.uint32)
    items.view(np.float32)[6::8] = r.rng.random(n, dtype=np.float32)
    a = r.buf("in", items)
    b = r.buf("out", np.zeros(n * 8, np.uint32))
    c = r.buf("sum", np.zeros(n, np.float32))
    r.launch(p.shuffle_items, (n,), (64,), a, b, c)


@case
def stream_compaction(r):
    """Stream compaction after a scan: each work-item writes its element at the place its
    inclusive count gives, out[item - 1], when its flag is set (a store whose address comes
    from data the kernel only reads, so it is split and merged); the running count is kept
    in __local memory per group, as scan libraries write it."""
    src = """
    __kernel void compact(__global const int *x, __global const int *scanned,
                          __global int *out, __global int *count, uint n) {
        __local int items[128];
        const uint i = get_global_id(0), l = get_local_id(0);
        items[l] = i < n ? scanned[i] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        int prev = l ? items[l - 1] : (i ? scanned[i - 1] : 0);
        int item = items[l];
        if (i < n && prev != item)
            out[item - 1] = x[i];
        if (i + 1 == n)
            *count = item;
    }"""
    p = r.build(src)
    n = 128 * 400 - 5
    x = r.rng.integers(-1000, 1000, n, dtype=np.int32)
    scanned = np.cumsum(x > 0).astype(np.int32)
    a = r.buf("x", x)
    b = r.buf("scanned", scanned)
    out = r.buf("out", np.zeros(n, np.int32))
    cnt = r.buf("count", np.zeros(1, np.int32))
    r.launch(p.compact, (128 * 400,), (128,), a, b, out, cnt, np.uint32(n))


@case
def select_source(r):
    """Each element from one of two buffers chosen by a third (an array library's "where"),
    in a grid-stride loop: the compiler loads through a select of the two pointers. The
    second buffer is filled by clEnqueueFillBuffer just before, on the app's device."""
    src = """
    __kernel void pick(__global int *out, __global const int *cond, __global const int *a,
                       __global const int *b, long n) {
        for (long i = get_local_size(0) * get_group_id(0) + get_local_id(0); i < n;
             i += get_global_size(0))
            out[i] = cond[i] > 0 ? a[i] : b[i];
    }"""
    p = r.build(src)
    n = 64 * 300 + 17
    vals = r.rng.integers(-1000, 1000, n, dtype=np.int32)
    out = r.buf("out", np.zeros(n, np.int32))
    cond = r.buf("cond", (vals > 0).astype(np.int32))
    a = r.buf("a", vals)
    b = r.buf("b", np.full(n, 7, np.int32))
    r.dev.fill(b, 0)
    r.launch(p.pick, (64 * 100,), (64,), out, cond, a, b, np.int64(n))


@case
def pyramid_steps(r):
    """A dynamic-programming pyramid over a row of cells: each group takes a tile with a halo
    of `steps` cells per side into __local memory and advances it `steps` rows, each cell
    taking the least of its three upper neighbours plus its cost; the tile shrinks by one
    cell per side per step. The flag saying a cell was computed is declared without a value
    and set at every step of a loop with barriers; it alone guards the kernel's one global
    store (compilers see an undefined value on the loop's entry edge)."""
    src = """
    __kernel void advance(__global const int *cost, __global const int *src,
                          __global int *dst, int cols, int steps,
                          __local int *cur, __local int *next) {
        const int L = get_local_size(0), l = get_local_id(0);
        const int x = get_group_id(0) * (L - 2 * steps) - steps + l;
        cur[l] = (x >= 0 && x < cols) ? src[x] : (1 << 28);
        barrier(CLK_LOCAL_MEM_FENCE);
        bool done;
        for (int s = 0; s < steps; s++) {
            done = false;
            if (l > s && l < L - 1 - s && x >= 0 && x < cols) {
                done = true;
                next[l] = min(min(cur[l - 1], cur[l]), cur[l + 1]) + cost[s * cols + x];
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (s == steps - 1)
                break;
            if (done)
                cur[l] = next[l];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (done)
            dst[x] = next[l];
    }"""
    p = r.build(src)
    cols, L = 1000, 64
    cost = r.buf("cost", r.rng.integers(0, 10, cols * 8, dtype=np.int32))
    row = r.buf("row", r.rng.integers(0, 10, cols, dtype=np.int32))
    out = [r.buf("out%d" % i, np.full(cols, -1, np.int32)) for i in range(2)]
    for steps, dst in ((1, out[0]), (3, out[1])):
        groups = -(-cols // (L - 2 * steps))
        r.launch(p.advance, (groups * L,), (L,), cost, row, dst, np.int32(cols),
                 np.int32(steps), clmini.Local(L * 4), clmini.Local(L * 4))


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "--list":
        print("\n".join(CASES))
        return 0
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    names = sys.argv[2:] or list(CASES)
    dev = clmini.Device()
    results = {}
    for name in names:
        r = Run(dev)
        try:
            CASES[name](r)
            dev.finish()
            results[name] = r.save(out_dir, name)
        except clmini.CLError as e:  # one case's failure is reported, the others still run
            results[name] = {"error": str(e)}
        dev.release()
    dev.close()
    with open(os.path.join(out_dir, "results.json"), "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
