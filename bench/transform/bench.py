#!/usr/bin/python3
"""Transform time per program: what skmd-opt does for a split (front end, analysis,
partition-ready and merge kernels, lowering for PoCL: `skmd-opt --compile --target pocl`
into an empty cache) against PoCL's own clBuildProgram of the same source and options
(POCL_KERNEL_CACHE=0, so PoCL compiles every time). Median of --runs runs, wall clock and
CPU time (this machine may be shared: CPU time is what the work costs, wall what a caller
waits). skmd-opt's --timings say where its time goes.

Programs: every tests/transform/corpus/*.cl given on the command line (no build options),
and with --examples DIR every example program under DIR, whose source and options are
captured by running it once under libskmd with capture-source.sh as its compiler.

Usage: bench.py --skmd-opt PATH [--examples DIR --libskmd PATH] [--runs N] [--markdown]
                FILE.cl...
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

# PoCL's kernel cache off, and pyopencl's own binary cache too (with it, "building" the
# same source again only reloads a binary).
os.environ["POCL_KERNEL_CACHE"] = "0"
os.environ["PYOPENCL_NO_CACHE"] = "1"
import pyopencl as cl  # noqa: E402  (after the environment is set)

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS_FRONTEND = ("frontend",)
STEPS_PASSES = ("inline", "cleanup", "analyze", "partition_ready", "merge", "lower")


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def parse_timings(stderr):
    """skmd-opt --timings' line: {step: ms}."""
    for line in stderr.splitlines():
        if line.startswith("skmd-opt timings ms:"):
            return {k: float(v) for k, v in
                    (w.split("=") for w in line.split(":", 1)[1].split())}
    return {}


def language_args(dev):
    """What libskmd passes skmd-opt for this device (libskmd/cl/member_extensions.c)."""
    try:
        features = " ".join(f.name for f in dev.get_info(cl.device_info.OPENCL_C_FEATURES))
    except (cl.Error, AttributeError):
        features = ""
    default = "CL3.0" if dev.version.startswith("OpenCL 3.") else "CL1.2"
    return ["--default-std", default, "--extensions", dev.extensions.strip(),
            "--features", features]


def time_skmd_opt(opt, path, options, runs, scratch, language):
    """Medians over runs of a cold compile: wall ms, CPU ms, clang ms, passes ms; and the
    median wall ms of a cache hit."""
    walls, cpus, fronts, passes = [], [], [], []
    for i in range(runs):
        cache = tempfile.mkdtemp(dir=scratch)
        cmd = [opt, "--timings", "--compile", "--cache", cache, "--target", "pocl",
               "--options", options] + language + [path]
        c0, t0 = children_cpu(), time.perf_counter()
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        t1, c1 = time.perf_counter(), children_cpu()
        if p.returncode != 0:
            return None, p.stderr.strip().splitlines()[-1:] or ["failed"]
        steps = parse_timings(p.stderr)
        walls.append((t1 - t0) * 1e3)
        cpus.append((c1 - c0) * 1e3)
        fronts.append(sum(steps.get(s, 0.0) for s in STEPS_FRONTEND))
        passes.append(sum(steps.get(s, 0.0) for s in STEPS_PASSES))
    hits = []
    for i in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        hits.append((time.perf_counter() - t0) * 1e3)
    med = statistics.median
    return (med(walls), med(cpus), med(fronts), med(passes), med(hits)), None


def time_pocl_build(ctx, source, options, runs):
    """Medians over runs of clBuildProgram: wall ms, CPU ms (this process, every thread)."""
    walls, cpus = [], []
    for i in range(runs):
        prog = cl.Program(ctx, source)
        c0, t0 = time.process_time(), time.perf_counter()
        prog.build(options=options)
        t1, c1 = time.perf_counter(), time.process_time()
        walls.append((t1 - t0) * 1e3)
        cpus.append((c1 - c0) * 1e3)
    return statistics.median(walls), statistics.median(cpus)


def capture_examples(bin_dir, libskmd, opt, scratch):
    """(name, source path, options) of each example, taken from a run under libskmd."""
    found = []
    for name in sorted(os.listdir(bin_dir)):
        exe = os.path.join(bin_dir, name, name)
        if not os.access(exe, os.X_OK):
            continue
        prefix = os.path.join(scratch, "example-" + name)
        env = dict(os.environ, LD_PRELOAD=os.path.abspath(libskmd),
                   SKMD_COMPILER=os.path.join(HERE, "capture-source.sh"),
                   SKMD_REAL_OPT=os.path.abspath(opt), SKMD_CAPTURE=prefix,
                   SKMD_CACHE_DIR=os.path.join(scratch, "skmd-cache"))
        subprocess.run([exe, "--quick", "--reps", "1"], env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=120)
        if not os.path.exists(prefix + ".cl"):
            print("bench-transform: %s: no source captured (skipped)" % name, file=sys.stderr)
            continue
        options = open(prefix + ".options").read() if os.path.exists(prefix + ".options") \
            else ""
        found.append(("example " + name, prefix + ".cl", options))
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--skmd-opt", required=True)
    ap.add_argument("--examples", help="the examples' build directory (examples/)")
    ap.add_argument("--libskmd", default="libskmd/libskmd.so")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--markdown", action="store_true", help="a Markdown table")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    if a.runs < 1:
        ap.error("--runs must be at least 1")

    ctx = cl.Context(devices=[cl.get_platforms()[0].get_devices()[0]])
    dev = ctx.devices[0]
    # PoCL's first build in a process also loads its LLVM and kernel library: not counted.
    cl.Program(ctx, "kernel void warm_up(global int *a) { a[0] = 1; }").build()
    with tempfile.TemporaryDirectory() as scratch:
        cases = [(os.path.basename(f), f, "") for f in a.files]
        if a.examples:
            cases += capture_examples(a.examples, a.libskmd, a.skmd_opt, scratch)
        cols = ("program", "skmd-opt ms", "CPU ms", "clang ms", "passes ms", "hit ms",
                "clBuild ms", "CPU ms", "wall ratio", "CPU ratio")
        if a.markdown:
            print("| " + " | ".join(cols) + " |")
            print("|" + "---|" * len(cols))
        else:
            print("%-30s %11s %8s %8s %9s %7s %10s %8s %10s %9s" % cols)
        ratios_wall, ratios_cpu = [], []
        for name, path, options in cases:
            res, why = time_skmd_opt(a.skmd_opt, path, options, a.runs, scratch,
                                     language_args(dev))
            if res is None:
                print("%-30s skmd-opt failed: %s" % (name, why[0]))
                continue
            source = open(path).read()
            b_wall, b_cpu = time_pocl_build(ctx, source, options, a.runs)
            row = (name,) + res + (b_wall, b_cpu, res[0] / b_wall, res[1] / b_cpu)
            ratios_wall.append(row[-2])
            ratios_cpu.append(row[-1])
            if a.markdown:
                print("| %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f |"
                      % row)
            else:
                print("%-30s %11.1f %8.1f %8.1f %9.1f %7.1f %10.1f %8.1f %10.2f %9.2f" % row)
            sys.stdout.flush()
        if ratios_wall:
            print("%smedian ratio over %d programs: wall %.2f, CPU %.2f (device: %s, %d runs "
                  "each)" % ("\n" if a.markdown else "", len(ratios_wall),
                             statistics.median(ratios_wall), statistics.median(ratios_cpu),
                             dev.name.strip(), a.runs))


if __name__ == "__main__":
    main()
