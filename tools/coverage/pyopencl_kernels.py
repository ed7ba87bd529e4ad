"""Makes pyopencl generate and build its own kernels (array arithmetic, elementwise,
reductions, scans, random numbers, indexing, sorting), one small call each, so that a run
under libskmd with tools/coverage/capture.sh as its compiler keeps every program source
pyopencl builds. Run with /usr/bin/python3 (Debian's python3-pyopencl)."""
import os
import sys

os.environ.setdefault("PYOPENCL_NO_CACHE", "1")  # build every program: a cache hit skips it
import numpy as np
import pyopencl as cl
import pyopencl.array as cla
import pyopencl.clmath as clmath
import pyopencl.clrandom as clrandom
from pyopencl.elementwise import ElementwiseKernel
from pyopencl.reduction import ReductionKernel
from pyopencl.scan import ExclusiveScanKernel, GenericScanKernel, InclusiveScanKernel


def main():
    ctx = cl.create_some_context(interactive=False)
    q = cl.CommandQueue(ctx)
    n = 4096
    a = cla.to_device(q, np.arange(n, dtype=np.float32))
    b = cla.to_device(q, np.linspace(1, 2, n).astype(np.float32))
    i = cla.to_device(q, (np.arange(n) % 97).astype(np.int32))
    steps = [
        ("axpbyz", lambda: 2 * a + 3 * b),
        ("multiply", lambda: a * b),
        ("divide", lambda: a / b),
        ("power", lambda: a ** 2),
        ("scalar add", lambda: a + 1),
        ("astype", lambda: a.astype(np.float64) if "cl_khr_fp64" in q.device.extensions
         else a.astype(np.int32)),
        ("fill", lambda: cla.zeros(q, n, np.float32).fill(3)),
        ("arange", lambda: cla.arange(q, 0, n, 1, dtype=np.int32)),
        ("clmath sin", lambda: clmath.sin(a)),
        ("clmath sqrt", lambda: clmath.sqrt(b)),
        ("comparison", lambda: a < b),
        ("where", lambda: cla.if_positive(a - 100, a, b)),
        ("maximum", lambda: cla.maximum(a, b)),
        ("sum", lambda: cla.sum(a).get()),
        ("dot", lambda: cla.dot(a, b).get()),
        ("max", lambda: cla.max(i).get()),
        ("min", lambda: cla.min(b).get()),
        ("take", lambda: cla.take(a, i)),
        ("reverse", lambda: a.reverse()),
        ("getitem slice", lambda: a[10:200].copy()),
        ("setitem", lambda: a.__setitem__(slice(0, 100), 0)),
        ("cumsum", lambda: cla.cumsum(i)),
        ("random uniform", lambda: clrandom.rand(q, n, np.float32)),
        ("random philox", lambda: clrandom.PhiloxGenerator(ctx).normal(q, n, np.float32)),
        ("random threefry", lambda: clrandom.ThreefryGenerator(ctx).uniform(q, n, np.float32)),
        ("elementwise", lambda: ElementwiseKernel(
            ctx, "float *x, float *y, float *z", "z[i] = x[i] * y[i] + 1.0f", "cov_ew")(a, b, a)),
        ("reduction", lambda: ReductionKernel(
            ctx, np.float32, neutral="0", reduce_expr="a+b", map_expr="x[i]*x[i]",
            arguments="__global float *x")(a).get()),
        ("inclusive scan", lambda: InclusiveScanKernel(ctx, np.int32, "a+b", "0")(i.copy())),
        ("exclusive scan", lambda: ExclusiveScanKernel(ctx, np.int32, "a+b", "0")(i.copy())),
        ("generic scan", lambda: GenericScanKernel(
            ctx, np.int32, arguments="__global int *ary, __global int *out",
            input_expr="(ary[i] > 50) ? 1 : 0", scan_expr="a+b", neutral="0",
            output_statement="out[i] = item;")(i, cla.empty_like(i))),
    ]
    failed = 0
    for name, step in steps:
        try:
            step()
        except Exception as e:  # one failing generator must not hide the others
            failed += 1
            print("pyopencl_kernels: %s: %s" % (name, str(e).splitlines()[0] if str(e) else e),
                  file=sys.stderr)
    q.finish()
    return 1 if failed == len(steps) else 0


if __name__ == "__main__":
    sys.exit(main())
