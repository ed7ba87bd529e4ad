"""Compares one libskmd run of patterns.py with the native run, and counts from libskmd's
trace how many launches of each case's kernels ran on more than one device.

Usage: compare.py NATIVE.json SKMD.json TRACE.json CONFIG RESULTS.jsonl
Appends one JSON line per case to RESULTS.jsonl; prints PASS/FAIL lines; exit 1 on any
case that passed natively and differs or fails under libskmd, or when no launch at all
was split (a forced split that splits nothing proves nothing)."""
import collections
import json
import sys


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


def main():
    native_path, skmd_path, trace_path, config, results_path = sys.argv[1:6]
    native = json.load(open(native_path))
    try:
        skmd = json.load(open(skmd_path))
    except (OSError, ValueError):
        skmd = {}
    splits = split_launches(trace_path)
    failed = 0
    total_split = 0
    with open(results_path, "a") as out:
        for case, want in sorted(native.items()):
            got = skmd.get(case, {"error": "no result (the run crashed or hung)"})
            native_ok = "error" not in want
            same = got == want
            status = "PASS" if same or not native_ok else "FAIL"
            diff = sorted(b for b in set(want) | set(got) if want.get(b) != got.get(b))
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
    if total_split == 0:
        print("FAIL patterns [%s]: no launch was split" % config)
        failed += 1
    if not failed:
        print("PASS patterns [%s]: %d cases byte-identical; split launches: %s"
              % (config, len(native), summary))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
