"""pyopencl, unchanged, on whatever OpenCL it finds: array arithmetic, a ReductionKernel, an
inclusive and a generic scan, an ElementwiseKernel and a user kernel, each checked against
numpy.  Prints "PASS name" or "FAIL name: why" per check; exits 1 if any failed."""
import sys

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
from pyopencl.elementwise import ElementwiseKernel
from pyopencl.reduction import ReductionKernel
from pyopencl.scan import GenericScanKernel, InclusiveScanKernel

N = 100_003  # not a multiple of any work-group size
failures = 0


def check(name, fn):
    global failures
    try:
        fn()
        print(f"PASS {name}")
    except Exception as e:  # a check's failure, whatever raised it, is reported by name
        failures += 1
        print(f"FAIL {name}: {type(e).__name__}: {e}")


def main():
    platforms = cl.get_platforms()
    device = platforms[0].get_devices()[0]
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    rng = np.random.default_rng(1234)
    a = rng.random(N, dtype=np.float32)
    b = rng.random(N, dtype=np.float32)
    ints = rng.integers(-50, 50, N).astype(np.int32)

    def arithmetic():
        da, db = cla.to_device(queue, a), cla.to_device(queue, b)
        np.testing.assert_allclose((2 * da + db * db - da / (db + 1)).get(), 2 * a + b * b - a / (b + 1), rtol=1e-5)
        np.testing.assert_allclose(cla.sum(da).get(), a.sum(dtype=np.float64), rtol=1e-4)
        assert cla.max(cla.to_device(queue, ints)).get() == ints.max()

    def reduction():
        dot = ReductionKernel(ctx, np.float32, neutral="0", reduce_expr="a+b",
                              map_expr="x[i]*y[i]", arguments="__global const float *x, __global const float *y")
        got = dot(cla.to_device(queue, a), cla.to_device(queue, b)).get()
        np.testing.assert_allclose(got, np.dot(a.astype(np.float64), b), rtol=1e-4)

    def inclusive_scan():
        scan = InclusiveScanKernel(ctx, np.int32, "a+b", neutral="0")
        d = cla.to_device(queue, ints)
        scan(d)
        np.testing.assert_array_equal(d.get(), np.cumsum(ints, dtype=np.int32))

    def generic_scan():
        # exclusive prefix sum of the positive elements, written out by a generic scan
        scan = GenericScanKernel(
            ctx, np.int32, arguments="__global const int *x, __global int *out",
            input_expr="(x[i] > 0) ? x[i] : 0", scan_expr="a+b", neutral="0",
            output_statement="out[i] = prev_item;")
        dx = cla.to_device(queue, ints)
        dout = cla.empty_like(dx)
        scan(dx, dout)
        pos = np.where(ints > 0, ints, 0)
        np.testing.assert_array_equal(dout.get(), np.concatenate(([0], np.cumsum(pos)[:-1])).astype(np.int32))

    def elementwise():
        lin = ElementwiseKernel(ctx, "float k, __global const float *x, __global const float *y, __global float *z",
                                "z[i] = k * x[i] + sin(y[i])", "lin")
        da, db = cla.to_device(queue, a), cla.to_device(queue, b)
        dz = cla.empty_like(da)
        lin(np.float32(3.0), da, db, dz)
        np.testing.assert_allclose(dz.get(), 3.0 * a + np.sin(b), rtol=1e-5, atol=1e-6)

    def user_kernel():
        prg = cl.Program(ctx, """
            kernel void blur(global const float *in, global float *out, int n) {
              int i = get_global_id(0);
              if (i >= n) return;
              float l = i > 0 ? in[i - 1] : in[i], r = i < n - 1 ? in[i + 1] : in[i];
              out[i] = (l + in[i] + r) / 3.0f;
            }""").build()
        mf = cl.mem_flags
        din = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
        dout = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)
        global_size = (N + 63) // 64 * 64
        prg.blur(queue, (global_size,), (64,), din, dout, np.int32(N))
        out = np.empty_like(a)
        cl.enqueue_copy(queue, out, dout)
        padded = np.concatenate(([a[0]], a, [a[-1]]))
        np.testing.assert_allclose(out, (padded[:-2] + padded[1:-1] + padded[2:]) / 3, rtol=1e-5)

    check("array arithmetic", arithmetic)
    check("ReductionKernel (dot product)", reduction)
    check("InclusiveScanKernel", inclusive_scan)
    check("GenericScanKernel", generic_scan)
    check("ElementwiseKernel", elementwise)
    check("user kernel", user_kernel)
    queue.finish()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
