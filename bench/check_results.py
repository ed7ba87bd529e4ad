#!/usr/bin/env python3
"""Checks what bench.py wrote (used by `make test-bench`): every example has a row, every
native and libskmd time is a number, and the derived columns follow from the times:
fastest = min T_i, ideal = 1/sum(1/T_i), speedup = fastest/libskmd, efficiency = ideal/libskmd,
native spread = the fastest device's slowest round / its fastest (runs.csv; with 2+ rounds).
Usage: check_results.py OUT_DIR EXAMPLE... ; exits 1 naming the first problem."""
import csv
import os
import sys
import xml.etree.ElementTree as ET


def main(out, examples):
    with open(os.path.join(out, "results.csv")) as f:
        rows = {r["example"]: r for r in csv.DictReader(f)}
    with open(os.path.join(out, "runs.csv")) as f:
        runs = list(csv.DictReader(f))
    problems = []
    for ex in examples:
        r = rows.get(ex)
        if r is None:
            problems.append("%s: no row" % ex)
            continue
        native = [float(v) for k, v in r.items() if k.endswith(" ms") and ":" in k.split()[0]]
        skmd = [k[:-3] for k in r if k.endswith(" ms") and k.split()[0] not in ("fastest", "ideal")
                and ":" not in k.split()[0]]
        own = [float(x["ms_best"]) for x in runs if x["example"] == ex and x["column"] == "native"
               and x["device"].split()[0] == r["fastest device"] and x["ms_best"]]
        want = "%.2f" % (max(own) / min(own)) if len(own) > 1 else ""
        if r["native spread"] != want:
            problems.append("%s: native spread %r, expected %r from runs.csv" % (ex, r["native spread"], want))
        if len(native) < 2 or not skmd:
            problems.append("%s: expected >= 2 native columns and a libskmd column, got %s" % (ex, list(r)))
            continue
        fastest, ideal = min(native), 1.0 / sum(1.0 / t for t in native)
        close = lambda a, b: abs(a - b) <= 0.006 * max(abs(b), 1e-3) + 0.0015
        if not close(float(r["fastest ms"]), fastest) or not close(float(r["ideal ms"]), ideal):
            problems.append("%s: fastest/ideal %s/%s, expected %.3f/%.3f" % (ex, r["fastest ms"], r["ideal ms"],
                                                                            fastest, ideal))
        for c in skmd:
            ms = float(r[c + " ms"])
            # ratios are printed to 0.01, from times printed to 0.001 ms
            ratio_close = lambda got, num: abs(got - num / ms) <= 0.0051 + num / ms * (0.0006 / ms + 0.0006 / num)
            if not ratio_close(float(r[c + " speedup"]), fastest) or \
                    not ratio_close(float(r[c + " efficiency"]), ideal):
                problems.append("%s: %s speedup/efficiency do not follow from the times" % (ex, c))
    ET.parse(os.path.join(out, "chart.svg"))  # raises on malformed SVG
    for p in problems:
        print("check_results: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
