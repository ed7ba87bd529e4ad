"""pyopencl's own modules, unchanged, on whatever OpenCL device it finds first: array
(arithmetic, reductions, take/where, dot), elementwise, reduction, scan and clrandom,
each checked against numpy.  Prints "PASS name" or "FAIL name: why" per check, and
"DIGEST name hex" for results that must be the same bytes on every run of the same
device kind (clrandom's counter-based generators, integer scans): the corpus compares
those with the native run.  Exits 1 if any check failed.  Sizes are not multiples of
any work-group size and large enough (hundreds of work-groups) for launches to split."""
import hashlib
import sys

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
import pyopencl.clrandom as clrandom
from pyopencl.elementwise import ElementwiseKernel
from pyopencl.reduction import ReductionKernel
from pyopencl.scan import ExclusiveScanKernel, GenericScanKernel, InclusiveScanKernel

N = 200_003
failures = 0


def check(name, fn):
    global failures
    try:
        fn()
        print(f"PASS {name}", flush=True)
    except Exception as e:  # a check's failure, whatever raised it, is reported by name
        failures += 1
        print(f"FAIL {name}: {type(e).__name__}: {str(e)[:300]}", flush=True)


def digest(name, arr):
    print(f"DIGEST {name} {hashlib.sha256(np.ascontiguousarray(arr).tobytes()).hexdigest()[:16]}")


def main():
    device = cl.get_platforms()[0].get_devices()[0]
    print(f"# device: {device.name}")
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    rng = np.random.default_rng(2024)
    a = rng.random(N, dtype=np.float32)
    b = rng.random(N, dtype=np.float32) + 0.5
    ints = rng.integers(-1000, 1000, N).astype(np.int32)

    def array_arithmetic():
        da, db = cla.to_device(queue, a), cla.to_device(queue, b)
        np.testing.assert_allclose((da * 3 - db / 2 + 1).get(), a * 3 - b / 2 + 1, rtol=1e-6)
        np.testing.assert_allclose(cla.maximum(da, db).get(), np.maximum(a, b))
        np.testing.assert_allclose((da ** 2).get(), a ** 2, rtol=1e-6)
        di = cla.to_device(queue, ints)
        np.testing.assert_array_equal((di * 7 + 3).get(), ints * 7 + 3)
        np.testing.assert_array_equal(cla.if_positive(di, di, -di).get(), np.abs(ints))

    def array_reductions():
        da, db = cla.to_device(queue, a), cla.to_device(queue, b)
        di = cla.to_device(queue, ints)
        np.testing.assert_allclose(cla.sum(da).get(), a.sum(dtype=np.float64), rtol=1e-4)
        np.testing.assert_allclose(cla.dot(da, db).get(), np.dot(a.astype(np.float64), b), rtol=1e-4)
        assert cla.min(di).get() == ints.min() and cla.max(di).get() == ints.max()
        assert cla.sum(di).get() == ints.sum()
        assert cla.subset_max(cla.arange(queue, 0, N, 7, dtype=np.int32), di).get() == ints[::7].max()

    def array_indexing():
        di = cla.to_device(queue, ints)
        idx = rng.integers(0, N, 50_001).astype(np.int32)
        np.testing.assert_array_equal(cla.take(di, cla.to_device(queue, idx)).get(), ints[idx])
        np.testing.assert_array_equal(di[1000:150_000].get(), ints[1000:150_000])
        np.testing.assert_array_equal(cla.arange(queue, 0, N, 1, dtype=np.int32).get(), np.arange(N, dtype=np.int32))
        cond = cla.to_device(queue, (ints > 0).astype(np.int32))
        np.testing.assert_array_equal(cla.if_positive(cond, di, cla.zeros_like(di)).get(), np.where(ints > 0, ints, 0))

    def elementwise():
        k = ElementwiseKernel(ctx, "float s, __global const float *x, __global const float *y, __global float *z",
                              "z[i] = s * x[i] + y[i] * y[i]", "saxpy_sq")
        da, db = cla.to_device(queue, a), cla.to_device(queue, b)
        dz = cla.empty_like(da)
        k(np.float32(2.5), da, db, dz)
        np.testing.assert_allclose(dz.get(), 2.5 * a + b * b, rtol=1e-6)
        # an elementwise kernel with a range and a slice
        k2 = ElementwiseKernel(ctx, "__global int *v", "v[i] = 3 * i - v[i]", "tri")
        di = cla.to_device(queue, ints)
        k2(di, range=slice(5, N - 5, 2))
        want = ints.copy()
        want[5:N - 5:2] = 3 * np.arange(5, N - 5, 2) - ints[5:N - 5:2]
        np.testing.assert_array_equal(di.get(), want)

    def reduction():
        rk = ReductionKernel(ctx, np.float32, neutral="0", reduce_expr="a+b", map_expr="x[i]*y[i]",
                             arguments="__global const float *x, __global const float *y")
        got = rk(cla.to_device(queue, a), cla.to_device(queue, b)).get()
        np.testing.assert_allclose(got, np.dot(a.astype(np.float64), b), rtol=1e-4)
        mx = ReductionKernel(ctx, np.int32, neutral="-2147483647", reduce_expr="max(a,b)",
                             map_expr="x[i] < 0 ? -x[i] : x[i]", arguments="__global const int *x")
        assert mx(cla.to_device(queue, ints)).get() == np.abs(ints).max()

    def scans():
        inc = InclusiveScanKernel(ctx, np.int32, "a+b", neutral="0")
        d = cla.to_device(queue, ints)
        inc(d)
        got = d.get()
        np.testing.assert_array_equal(got, np.cumsum(ints, dtype=np.int32))
        digest("inclusive_scan", got)
        exc = ExclusiveScanKernel(ctx, np.int32, "a+b", neutral="0")
        d = cla.to_device(queue, ints)
        exc(d)
        np.testing.assert_array_equal(d.get(), np.concatenate(([0], np.cumsum(ints)[:-1])).astype(np.int32))
        # stream compaction of the positive elements (a generic scan writing scattered output)
        gs = GenericScanKernel(
            ctx, np.int32, arguments="__global const int *x, __global int *out, __global int *count",
            input_expr="(x[i] > 0) ? 1 : 0", scan_expr="a+b", neutral="0",
            output_statement="if (prev_item != item) out[item - 1] = x[i]; if (i + 1 == N) *count = item;")
        dx = cla.to_device(queue, ints)
        dout = cla.zeros_like(dx)
        dcount = cla.zeros(queue, 1, np.int32)
        gs(dx, dout, dcount)
        pos = ints[ints > 0]
        n = int(dcount.get()[0])
        assert n == pos.size, (n, pos.size)
        np.testing.assert_array_equal(dout.get()[:n], pos)

    def random():
        for name, gen in (("philox", clrandom.PhiloxGenerator(ctx, seed=1234)),
                          ("threefry", clrandom.ThreefryGenerator(ctx, seed=99))):
            u = gen.uniform(queue, N, np.float32, a=2.0, b=5.0).get()
            assert u.min() >= 2.0 and u.max() < 5.0, (u.min(), u.max())
            assert abs(u.mean() - 3.5) < 0.02, u.mean()
            digest(f"clrandom_{name}_uniform", u)
            g = gen.normal(queue, N, np.float32, mu=1.0, sigma=2.0).get()
            assert abs(g.mean() - 1.0) < 0.05 and abs(g.std() - 2.0) < 0.05, (g.mean(), g.std())
            digest(f"clrandom_{name}_normal", g)
            i = gen.uniform(queue, N, np.int32, a=0, b=1000).get()
            assert i.min() >= 0 and i.max() < 1000 and abs(i.mean() - 499.5) < 5, (i.min(), i.max(), i.mean())
            digest(f"clrandom_{name}_int", i)
        # the same seed again: the same numbers
        r1 = clrandom.PhiloxGenerator(ctx, seed=7).uniform(queue, 10_001, np.float32).get()
        r2 = clrandom.PhiloxGenerator(ctx, seed=7).uniform(queue, 10_001, np.float32).get()
        np.testing.assert_array_equal(r1, r2)

    check("array arithmetic", array_arithmetic)
    check("array reductions", array_reductions)
    check("array indexing", array_indexing)
    check("elementwise", elementwise)
    check("reduction", reduction)
    check("scans", scans)
    check("clrandom", random)
    queue.finish()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
