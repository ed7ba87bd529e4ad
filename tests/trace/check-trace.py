#!/usr/bin/python3
"""Checks a trace written by make-trace: valid JSON, the right number of spans, one named
track per device, the fields the tools rely on.
usage: check-trace.py TRACE DEVICES LAUNCHES"""
import json
import sys

path, devices, launches = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(path) as f:
    doc = json.load(f)
events = doc["traceEvents"]
spans = [e for e in events if e["ph"] == "X"]
expected = 3 * devices * launches + launches
assert len(spans) == expected, f"{len(spans)} spans, expected {expected}"
names = {e["tid"]: e["args"]["name"] for e in events
         if e["ph"] == "M" and e["name"] == "thread_name"}
assert sorted(names) == list(range(1, devices + 1)), f"tracks {sorted(names)}"
assert names[1] == "GPU 0: Tesla \\ fast", names[1]
for s in spans:
    assert s["cat"] in ("transfer_in", "kernel", "transfer_out", "merge"), s
    assert s["dur"] >= 0 and s["ts"] >= 0, s
    assert s["args"]["kernel"] == 'saxpy "v2"', s
    assert s["tid"] == s["args"]["device"] + 1, s
    for key in ("work_groups", "bytes", "launch"):
        assert isinstance(s["args"][key], int), (key, s)
kernels = [s for s in spans if s["cat"] == "kernel"]
assert abs(sum(s["args"]["share"] for s in kernels) - launches) < 1e-3
assert min(s["ts"] for s in spans) == 0
print(f"check-trace: {len(spans)} spans on {devices} tracks, valid")
