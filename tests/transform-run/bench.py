#!/usr/bin/python3
"""Transform time per corpus file (skmd-opt --compile --target pocl into a cold cache, and
a warm second call) against PoCL's own clBuildProgram of the same source (its kernel cache
off, so it really compiles). Usage: bench.py SKMD_OPT FILE.cl..."""
import os
import subprocess
import sys
import tempfile
import time

os.environ["POCL_KERNEL_CACHE"] = "0"
import pyopencl as cl  # noqa: E402  (after POCL_KERNEL_CACHE is set)


def best_of(n, fn):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times) * 1000.0


def main():
    opt, files = sys.argv[1], sys.argv[2:]
    ctx = cl.Context(devices=[cl.get_platforms()[0].get_devices()[0]])
    print("%-24s %12s %12s %14s %8s" % ("file", "skmd-opt ms", "cached ms", "clBuild ms", "ratio"))
    for path in files:
        src = open(path).read()
        with tempfile.TemporaryDirectory() as cache:
            def cold():
                sub = tempfile.mkdtemp(dir=cache)
                subprocess.run([opt, "--compile", "--cache", sub, "--target", "pocl", path],
                               check=True, stdout=subprocess.DEVNULL)
            t_cold = best_of(3, cold)
            warm_dir = os.path.join(cache, "warm")
            cold_args = [opt, "--compile", "--cache", warm_dir, "--target", "pocl", path]
            subprocess.run(cold_args, check=True, stdout=subprocess.DEVNULL)
            t_warm = best_of(3, lambda: subprocess.run(cold_args, check=True,
                                                       stdout=subprocess.DEVNULL))
        t_build = best_of(3, lambda: cl.Program(ctx, src).build())
        print("%-24s %12.1f %12.1f %14.1f %8.2f" % (os.path.basename(path), t_cold, t_warm,
                                                     t_build, t_cold / t_build))


if __name__ == "__main__":
    main()
