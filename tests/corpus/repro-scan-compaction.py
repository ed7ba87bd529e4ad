"""Reproduction (found by tests/corpus, pyopencl "scans", intermittent): pyopencl GenericScanKernel stream
compaction, whose scan_final_update writes out[item - 1] (a data-dependent place) and which libskmd splits, gives
wrong elements under a forced split. Prints the wrong output indices per try (expected: none).
  POCL_DEVICES="pthread pthread" POCL_CPU_MAX_CU_NUM=1 PYOPENCL_NO_CACHE=1 PYOPENCL_CTX=0 SKMD_MIN_SPLIT_WORKGROUPS=2 \\
  SKMD_SPLIT=0.2,0.8 LD_PRELOAD=$PWD/libskmd/libskmd.so /usr/bin/python3 tests/corpus/repro-scan-compaction.py"""
import numpy as np, pyopencl as cl, pyopencl.array as cla
from pyopencl.scan import GenericScanKernel
ctx = cl.create_some_context(); q = cl.CommandQueue(ctx)
N = 200_003
ints = np.random.default_rng(2024).integers(-1000, 1000, N).astype(np.int32)
gs = GenericScanKernel(ctx, np.int32, arguments="__global const int *x, __global int *out, __global int *count",
    input_expr="(x[i] > 0) ? 1 : 0", scan_expr="a+b", neutral="0",
    output_statement="if (prev_item != item) out[item - 1] = x[i]; if (i + 1 == N) *count = item;")
bad = 0
for t in range(5):
    dx = cla.to_device(q, ints); dout = cla.zeros_like(dx); dc = cla.zeros(q, 1, np.int32)
    gs(dx, dout, dc)
    pos = ints[ints > 0]; n = int(dc.get()[0]); got = dout.get()[:n]
    wrong = np.nonzero(got != pos)[0] if n == pos.size else "count"
    print("try", t, "count", n, pos.size, "wrong at", wrong[:10] if not isinstance(wrong, str) else wrong)
