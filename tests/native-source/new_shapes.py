#!/usr/bin/python3
"""tests/native-source/new_shapes.py DECISIONS [forced]: one kernel launched at 8 sizes in turn, under
libskmd on the source route (SKMD_SHARE_BUILD=source, no forced shares). Each size is a
new launch shape, and the source route builds the program once per shape. The program's
first 4 shapes are built when first launched, so those launches may split; the later
shapes are built in the background, so their first launch runs whole without waiting;
a later launch of the last shape finds its build done and may split again. Every output
must be exact. Reads libskmd's decision log (SKMD_DECISIONS=DECISIONS) to tell which
launches could split; prints PASS or FAIL lines, exits 1 on a failure.

With `forced` (run under SKMD_SPLIT): 70 sizes, each launched once. Forced shares build a
shape at its first launch, but only a program's first 64 shapes: those launches split, the
later ones run without the source members (whole on two), so an app whose sizes never
repeat is not held for a build at every launch."""
import json
import sys
import time

import numpy as np
import pyopencl as cl

# The reason code of a launch run whole because its shape's build is not in: fewer than
# two members can take a share.
NOT_READY = "no_member"
SRC = """
__kernel void scale(__global const uint *in, __global uint *out, int reps)
{
    size_t i = get_global_id(0);
    uint v = in[i];
    for (int r = 0; r < reps; r++)
        v = v * 1664525u + 1013904223u;
    out[i] = v + (uint)get_global_size(0) + (uint)get_group_id(0);
}
"""
LOCAL = 64


def expected(a, n, reps):
    v = a[:n].astype(np.uint64)
    for _ in range(reps):
        v = (v * 1664525 + 1013904223) & 0xFFFFFFFF
    groups = np.arange(n, dtype=np.uint64) // LOCAL
    return ((v + n + groups) & 0xFFFFFFFF).astype(np.uint32)


def launches(path):
    """The decision log's records of scale's launches."""
    try:
        with open(path) as f:
            rs = [json.loads(line) for line in f]
    except FileNotFoundError:
        return []
    return [r for r in rs if r["kernel"] == "scale"]


def waited(r):
    """The launch ran with its shape's build in: split, or whole for another reason."""
    return r["reason"] != NOT_READY


class Runner:
    """Launches scale at a size on seeded input and checks the output; failures kept."""

    def __init__(self, ctx, q, prog, reps, largest):
        self.q, self.prog, self.reps, self.fails = q, prog, reps, []
        self.a = np.random.default_rng(7).integers(0, 2**32, largest, dtype=np.uint32)
        mf = cl.mem_flags
        self.din = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=self.a)
        self.dout = cl.Buffer(ctx, mf.READ_WRITE, self.a.nbytes)

    def run(self, n):
        self.prog.scale(self.q, (n,), (LOCAL,), self.din, self.dout, np.int32(self.reps))
        out = np.empty(n, dtype=np.uint32)
        cl.enqueue_copy(self.q, out, self.dout)
        self.q.finish()
        if not np.array_equal(out, expected(self.a, n, self.reps)):
            self.fails.append("size %d: output differs" % n)


def forced(log, ctx, q, prog):
    """70 shapes under forced shares: the first 64 split, the rest whole, all exact."""
    shapes = 70
    sizes = [LOCAL * 4 * k for k in range(1, shapes + 1)]
    runner = Runner(ctx, q, prog, 5, max(sizes))
    for n in sizes:
        runner.run(n)
    fails = runner.fails
    rs = launches(log)
    split = [r["run"] == "split" for r in rs]
    if len(rs) != shapes:
        fails.append("%d decision records for %d launches" % (len(rs), shapes))
    elif not all(split[:64]) or any(split[64:]):
        fails.append("split launches: %s" % "".join("s" if x else "." for x in split))
    for f in fails:
        print("FAIL native-source-shapes-forced: " + f)
    if not fails:
        print("PASS native-source-shapes-forced: 70 shapes exact; the first 64 built and "
              "split as forced, the later ones whole without a build")
    return 1 if fails else 0


def main():
    log = sys.argv[1]
    ctx = cl.Context(cl.get_platforms()[0].get_devices()[:1])
    q = cl.CommandQueue(ctx)
    prog = cl.Program(ctx, SRC).build()
    if sys.argv[2:] == ["forced"]:
        return forced(log, ctx, q, prog)
    reps = 50
    sizes = [LOCAL * 32 * k for k in range(1, 9)]
    runner = Runner(ctx, q, prog, reps, max(sizes))
    run, fails = runner.run, runner.fails

    for n in sizes:
        run(n)
    first = launches(log)
    # The last shape again until its background build is in (PoCL builds take seconds).
    deadline = time.time() + 90
    later = []
    while time.time() < deadline:
        run(sizes[-1])
        later = launches(log)[len(first):]
        if later and waited(later[-1]):
            break
        time.sleep(0.2)
    if len(first) != len(sizes):
        fails.append("%d decision records for %d launches" % (len(first), len(sizes)))
    else:
        went = [waited(r) for r in first]
        runs = ["%s (%s)" % (r["run"], r["reason"]) for r in first]
        if not all(went[:4]):
            fails.append("a first-4 shape ran without the source members: %s" % runs[:4])
        if any(went[4:]):
            fails.append("a later shape's first launch waited for its build: %s" % runs[4:])
    if not later or not waited(later[-1]):
        fails.append("the last shape's background build never came in (90 s)")
    for f in fails:
        print("FAIL native-source-shapes: " + f)
    if not fails:
        print("PASS native-source-shapes: 8 shapes exact; the first 4 built at their first "
              "launch, the next 4 in the background (first launches whole, not waiting); "
              "the last shape's launch %d on could take shares" % (len(first) + len(later)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
