"""Compares one libskmd run of patterns.py with native runs, and counts from libskmd's
trace how many launches of each case's kernels ran on more than one device.

Usage: compare.py NATIVE_DIR[,NATIVE_DIR2...] SKMD_DIR TRACE.json CONFIG RESULTS.jsonl [may-run-whole]
With one native run every buffer must be byte-identical to it. With several (one per kind
of member device, e.g. a CPU's and a GPU's), each element must be what one of them wrote:
on mixed devices an element is what the device that computed it writes natively.
Appends one JSON line per case to RESULTS.jsonl; prints PASS/FAIL lines; exit 1 on any
case that passed natively and differs or fails under libskmd, or when no launch at all
was split (a forced split that splits nothing proves nothing) unless may-run-whole
(the default policy may keep every launch whole)."""
import collections
import json
import os
import sys

import numpy as np


def split_launches(trace_path):
    """{kernel: [launches on two or more devices, launches]} from the trace's kernel spans."""
    try:
        with open(trace_path) as f:
            trace = json.load(f)
    except (OSError, ValueError):
        return {}
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    devices, kernel = collections.defaultdict(set), {}
    whole = collections.Counter()
    for e in events:
        if e.get("cat") != "kernel":
            continue
        a = e.get("args", {})
        if a.get("launch", 0) == 0:  # run whole on the app's queue
            whole[a.get("kernel")] += 1
            continue
        devices[a["launch"]].add(a.get("device"))
        kernel[a["launch"]] = a.get("kernel")
    out = collections.defaultdict(lambda: [0, 0])
    for launch, devs in devices.items():
        out[kernel[launch]][0] += len(devs) > 1
        out[kernel[launch]][1] += 1
    for k, n in whole.items():
        out[k][1] += n
    return out


def load(run_dir):
    try:
        with open(os.path.join(run_dir, "results.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def differs(case, name, info, natives, native_dirs, skmd_dir):
    """Whether buffer `name` of the libskmd run is not what the native runs allow."""
    if len(natives) == 1:
        return natives[0][case].get(name) != info
    dtype = np.dtype(info["dtype"])
    read = lambda d: np.fromfile(os.path.join(d, "%s.%s.bin" % (case, name)), dtype=np.uint8)
    got = read(skmd_dir).view(dtype.str[0] + "u" + str(dtype.itemsize) if dtype.itemsize in (1, 2, 4, 8) else "u1")
    ok = np.zeros(got.shape, bool)
    for d in native_dirs:
        ok |= read(d).view(got.dtype) == got
    return not ok.all()


def main():
    native_arg, skmd_dir, trace_path, config, results_path = sys.argv[1:6]
    must_split = sys.argv[6:7] != ["may-run-whole"]
    native_dirs = native_arg.split(",")
    natives = [load(d) for d in native_dirs]
    native = natives[0]
    skmd = load(skmd_dir)
    splits = split_launches(trace_path)
    failed = 0
    total_split = 0
    with open(results_path, "a") as out:
        for case, want in sorted(native.items()):
            got = skmd.get(case, {"error": "no result (the run crashed or hung)"})
            native_ok = all("error" not in n.get(case, {"error": 1}) for n in natives)
            if "error" in got or not native_ok:
                diff = []
            else:
                diff = sorted(b for b in want if b not in got or
                              differs(case, b, got[b], natives, native_dirs, skmd_dir))
            same = "error" not in got and not diff
            status = "PASS" if same or not native_ok else "FAIL"
            out.write(json.dumps({"case": case, "config": config, "native_ok": native_ok,
                                  "status": status, "differs": diff,
                                  "error": got.get("error")}) + "\n")
            if status == "FAIL":
                failed += 1
                print("FAIL patterns %s [%s]: %s" % (case, config,
                      got.get("error") or "buffers differ from native: " + ", ".join(diff)))
    for k, (n, total) in sorted(splits.items()):
        total_split += n
    summary = " ".join("%s %d/%d" % (k, n, t) for k, (n, t) in sorted(splits.items()))
    if total_split == 0 and must_split:
        print("FAIL patterns [%s]: no launch was split" % config)
        failed += 1
    if not failed:
        print("PASS patterns [%s]: %d cases byte-identical; split launches: %s"
              % (config, len(native), summary))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
