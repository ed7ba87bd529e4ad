#!/usr/bin/env python3
"""Checks what bench.py wrote (used by `make test-bench`): every example has a row, every
native and libskmd time is a number, and the derived columns follow from the times:
fastest = min T_i, ideal = 1/sum(1/T_i), speedup = fastest/libskmd, efficiency = ideal/libskmd,
native spread = the fastest device's slowest round / its fastest (runs.csv; with 2+ rounds);
with a libskmd column labelled single, every other column's "LABEL / single" = single ms /
LABEL ms, and its geomean line in results.md.
Usage: check_results.py OUT_DIR EXAMPLE... ; exits 1 naming the first problem."""
import csv
import math
import os
import re
import sys
import xml.etree.ElementTree as ET


def check_versus_geomeans(out, rows):
    """results.md's "LABEL / single: geomean G over N examples" lines against the times."""
    with open(os.path.join(out, "results.md")) as f:
        md = f.read()
    problems = []
    for col in sorted({k for r in rows for k in r if k.endswith(" / single")}):
        label = col[:-len(" / single")]
        m = re.search(r"^%s / single: geomean ([\d.]+)x over (\d+) examples" % re.escape(label), md, re.M)
        if not m:
            problems.append("results.md: no '%s' geomean line" % col)
            continue
        logs = [math.log(float(r["single ms"]) / float(r[label + " ms"])) for r in rows]
        want = math.exp(sum(logs) / len(logs))
        if int(m.group(2)) != len(rows) or abs(float(m.group(1)) - want) > 0.0051 + 0.002 * want:
            problems.append("results.md: %s geomean %sx over %s, expected %.2fx over %d"
                            % (col, m.group(1), m.group(2), want, len(rows)))
    return problems


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
        versus = [k for k in r if k.endswith(" / single")]
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
            if "single" in skmd and c != "single":
                if "%s / single" % c not in r:
                    problems.append("%s: no '%s / single' column beside the single column" % (ex, c))
                elif not ratio_close(float(r["%s / single" % c]), float(r["single ms"])):
                    problems.append("%s: %s / single %s does not follow from the times" % (ex, c, r["%s / single" % c]))
        if versus and "single" not in skmd:
            problems.append("%s: %s without a single column" % (ex, versus))
    problems += check_versus_geomeans(out, list(rows.values()))
    ET.parse(os.path.join(out, "chart.svg"))  # raises on malformed SVG
    for p in problems:
        print("check_results: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
