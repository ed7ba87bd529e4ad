"""Native vs. libskmd timings of the example programs.

Runs every example natively on each real OpenCL device alone (--device P:D), then under
libskmd (LD_PRELOAD) with all devices, once per libskmd column (each column may add its own
environment, e.g. a partitioning policy), and writes:
  runs.csv     one row per run (example, column, size, best and median ms, status)
  results.csv  one row per example: per-device times, fastest single device, ideal combined
               time 1/sum(1/T_i), and per libskmd column its time, speedup and efficiency
  results.md   the same as a Markdown table (with --report, also a table of libskmd's
               decisions per example and column, from its exit report)
  reports/     with --report: EXAMPLE.COLUMN.txt, libskmd's exit report (SKMD_REPORT=1) of
               each libskmd run; decisions.csv, the decisions table; with --balance also
               EXAMPLE.COLUMN.trace.json, the trace of one more, untimed run, its
               split launches' balance (skmd-trace --balance) in the decisions table, and
               EXAMPLE.COLUMN.launch.svg, the timeline of its last split launch
  chart.svg    bars of speed relative to the fastest single device (chart.png too when
               rsvg-convert is installed)
  profiles/    with two or more libskmd columns: LABEL.db, each column's own profile database
               (a copy, taken at the start, of the one they would share)
  log.txt      the output of every run
With --set compute: only the compute-bound examples, each at a size where one GPU spends
several times longer in its kernel than in its transfers (COMPUTE_SET), and by default two
libskmd columns, split (the default mode) and single (SKMD_MODE=single: every launch whole on
the fastest member); every column beside one labelled single gets "LABEL / single" = single's
time / its time, the value of splitting itself, and its geomean.
Standard library only, so it runs on any machine with a python3.
"""
import argparse
import csv
import datetime
import html
import json
import math
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import urllib.parse
from contextlib import closing

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# libskmd's exit report (docs/tools.md, "The report"): a title line, one line per member
# device, the column heads, then one row per kernel: the name in 24 characters, then
# launches, split/launches, shares, time_ms, est_ms, est_err%, moved ("1.5 MiB"), decision.
REPORT_TITLE = "libskmd report:"
REPORT_ROW_RE = re.compile(r"^ +(\d+) +(\d+)/(\d+) +(\S+) +([\d.]+) +(\S+) +(\S+) +([\d.]+ \S+)  (.*)$")
# The compute-bound set (--set compute): example and size (its --size) at which, on one H200,
# the kernel takes at least 3x the transfers; with --quick each runs at its own quick size.
COMPUTE_SET = [("gemm", 3072), ("matrix_mul", 3072), ("syrk", 2048), ("binomial_option", 131072),
               ("nbody", 196608), ("monte_carlo", 16777216)]
# The column the "LABEL / single" ratios divide by (libskmd's single-device mode).
SINGLE = "single"
RESULT_RE = re.compile(r"^RESULT name=(\S+) size=(\S+) ms_best=([\d.]+) ms_median=([\d.]+) status=(\S+)",
                       re.M)


def fail(msg):
    sys.exit("bench: " + msg)


def parse_args():
    p = argparse.ArgumentParser(description="Time the examples natively per device and under libskmd.")
    p.add_argument("--quick", action="store_true", help="small sizes (pass --quick to every example)")
    p.add_argument("--reps", type=int, default=None, help="timed repetitions per run (default 5, 3 with --quick)")
    p.add_argument("--scale", type=float, default=None, help="pass --scale X to every example")
    p.add_argument("--out", default=os.path.join(ROOT, "bench", "out"), help="output folder (default bench/out)")
    p.add_argument("--bin-dir", default=os.path.join(ROOT, "examples"),
                   help="folder holding NAME/NAME programs (default examples/)")
    p.add_argument("--only", default="", help="comma-separated example names to run (default all)")
    p.add_argument("--set", choices=["all", "compute"], default="all",
                   help="compute: the compute-bound examples at sizes where the kernel outweighs "
                        "the transfers on one GPU, columns split and single (SKMD_MODE=single), "
                        "and split / single per example (default all: every example)")
    p.add_argument("--libskmd", default=None,
                   help="path of libskmd.so (default libskmd/libskmd.so; its column is skipped when absent)")
    p.add_argument("--column", action="append", default=[], metavar="'LABEL: VAR=VAL ...'",
                   help="a libskmd column with extra environment assignments (LD_PRELOAD=PATH: "
                        "another build of libskmd); repeatable (default: one column 'libskmd' with none; "
                        "with --set compute, 'split' and 'single')")
    p.add_argument("--no-native", action="store_true", help="skip the per-device native runs")
    p.add_argument("--timeout", type=float, default=120, help="seconds allowed per run (default 120)")
    p.add_argument("--rounds", type=int, default=1,
                   help="run every example's native and libskmd runs this many times, interleaved, "
                        "and keep each one's best (default 1)")
    p.add_argument("--report", action="store_true",
                   help="run libskmd with SKMD_REPORT=1, keep each run's exit report in "
                        "OUT/reports/EXAMPLE.COLUMN.txt and add its decisions to results.md")
    p.add_argument("--balance", action="store_true",
                   help="with --report: after the timed rounds, one more run per example and "
                        "libskmd column with SKMD_TRACE, and how many of its split launches "
                        "finished within 10%% across their devices (tools/skmd-trace --balance)")
    p.add_argument("--setup-nvidia", action="store_true",
                   help="make an ICD vendors folder with NVIDIA's OpenCL plus the installed vendors "
                        "and point OCL_ICD_VENDORS at it")
    p.add_argument("--merge", nargs="+", metavar="DIR", default=None,
                   help="run nothing: one table from the runs.csv of earlier runs' --out folders "
                        "(parts of one bench run with --only, same options), into --out")
    a = p.parse_args()
    if a.reps is None:
        a.reps = 3 if a.quick else 5
    if a.reps < 1:
        fail("--reps must be at least 1")
    return a


def parse_column(spec):
    """'LABEL: VAR=VAL VAR2=VAL2' -> (LABEL, {VAR: VAL, ...})."""
    label, _, rest = spec.partition(":")
    label = label.strip()
    if not label or not re.fullmatch(r"[\w.+-]+", label):
        fail("bad --column '%s': expected 'LABEL: VAR=VAL ...' with a plain label" % spec)
    env = {}
    for item in rest.split():
        var, eq, val = item.partition("=")
        if not eq or not re.fullmatch(r"[A-Za-z_]\w*", var):
            fail("bad assignment '%s' in --column '%s'" % (item, spec))
        env[var] = val
    return label, env


def setup_nvidia(out):
    """The GPU machine has NVIDIA's OpenCL library but no nvidia.icd: make a vendors folder."""
    src = os.environ.get("OCL_ICD_VENDORS") or "/etc/OpenCL/vendors"
    dst = os.path.join(out, "vendors")
    os.makedirs(dst, exist_ok=True)
    if os.path.isdir(src):
        for f in os.listdir(src):
            if f.endswith(".icd") and os.path.abspath(os.path.join(src, f)) != os.path.abspath(os.path.join(dst, f)):
                shutil.copy(os.path.join(src, f), dst)
    with open(os.path.join(dst, "nvidia.icd"), "w") as f:
        f.write("libnvidia-opencl.so.1\n")
    os.environ["OCL_ICD_VENDORS"] = dst
    print("bench: OCL_ICD_VENDORS=%s (%s)" % (dst, " ".join(sorted(os.listdir(dst)))))


def list_devices():
    """[(platform, device, name)] from `clinfo -l`, which honours OCL_ICD_VENDORS."""
    if not shutil.which("clinfo"):
        fail("clinfo is needed to list the devices (Debian: apt-get install clinfo)")
    r = subprocess.run(["clinfo", "-l"], capture_output=True, text=True)
    devices, platform = [], -1
    for line in r.stdout.splitlines():
        m = re.match(r"\s*Platform #(\d+):", line)
        if m:
            platform = int(m.group(1))
            continue
        m = re.match(r".*Device #(\d+):\s*(.*)", line)
        if m and platform >= 0:
            devices.append((platform, int(m.group(1)), m.group(2).strip()))
    return devices


def list_examples(bin_dir, only, which="all"):
    names = sorted(n for n in os.listdir(bin_dir)
                   if os.access(os.path.join(bin_dir, n, n), os.X_OK)
                   and os.path.isfile(os.path.join(bin_dir, n, n)))
    if which == "compute":
        wanted = [n for n, _ in COMPUTE_SET if not only or n in only.split(",")]
        missing = [n for n in wanted if n not in names]
        if missing:
            fail("no built program for: %s (in %s)" % (", ".join(missing), bin_dir))
        if only and len(wanted) < len([n for n in only.split(",") if n]):
            fail("--only names examples outside the compute set (%s)" % ", ".join(n for n, _ in COMPUTE_SET))
        names = wanted
    elif only:
        wanted = [n for n in only.split(",") if n]
        missing = [n for n in wanted if n not in names]
        if missing:
            fail("no built program for: %s (in %s)" % (", ".join(missing), bin_dir))
        names = wanted
    if not names:
        fail("no example programs in %s: build them first (make)" % bin_dir)
    return names


class Runner:
    def __init__(self, args, log):
        self.args, self.log = args, log
        self.output = ""  # the last run's stdout and stderr

    def run(self, prog, extra_args, env_extra, what):
        """One run of one program; returns (size, ms_best, ms_median, status)."""
        cmd = [prog, "--reps", str(self.args.reps)] + extra_args
        if self.args.quick:
            cmd.append("--quick")
        if self.args.scale and "--size" not in extra_args:
            cmd += ["--scale", str(self.args.scale)]
        env = dict(os.environ, **env_extra)
        shown = " ".join("%s=%s" % kv for kv in env_extra.items()) + (" " if env_extra else "") + " ".join(cmd)
        sys.stdout.write("bench: %-44s " % what)
        sys.stdout.flush()
        try:
            r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=self.args.timeout)
            out, rc = r.stdout + r.stderr, r.returncode
        except subprocess.TimeoutExpired as e:
            out = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
            out, rc = out + "\n(timed out after %gs)" % self.args.timeout, "timeout"
        self.log.write("$ %s\n%s\n(exit %s)\n\n" % (shown, out.rstrip(), rc))
        self.output = out
        m = RESULT_RE.search(out)
        if rc == 0 and m and m.group(5) == "PASSED":
            res = (m.group(2), float(m.group(3)), float(m.group(4)), "PASSED")
        else:
            status = "TIMEOUT" if rc == "timeout" else "FAILED"
            res = (m.group(2) if m else "", None, None, status)
        print("%s %s" % (res[3], "%.3f ms" % res[1] if res[1] is not None else ""))
        return res


def size_args(args, example):
    """The example's --size in the compute set (times --scale), unless --quick; else none."""
    size = dict(COMPUTE_SET).get(example) if args.set == "compute" and not args.quick else None
    return ["--size", str(max(1, int(round(size * (args.scale or 1)))))] if size else []


def default_columns(args):
    """The libskmd columns: --column's, else one plain column; in the compute set, split
    (SKMD_MODE=split) unless --column names others, plus single (SKMD_MODE=single) unless a
    column has that label."""
    columns = dict(parse_column(c) for c in args.column)
    if args.set == "compute":
        if not columns:
            columns["split"] = {"SKMD_MODE": "split"}
        columns.setdefault(SINGLE, {"SKMD_MODE": "single"})
    return columns or {"libskmd": {}}


def better(old, new):
    """The run to keep of two rounds: a failure always (it must show), else the faster."""
    if old is None or old[3] != "PASSED":
        return old or new
    if new[3] != "PASSED" or new[1] < old[1]:
        return new
    return old


def extract_report(output):
    """libskmd's exit report in a run's output: (its text, its device lines, its kernel rows as
    dicts), or None when the output holds none (the run died before its exit)."""
    at = output.rfind(REPORT_TITLE)
    if at < 0:
        return None
    lines = output[at:].splitlines()
    text, devices, rows = [lines[0]], [], []
    i = 1
    while i < len(lines) and lines[i].startswith("  device "):
        devices.append(lines[i].strip())
        text.append(lines[i])
        i += 1
    if i < len(lines) and lines[i].startswith("kernel "):
        text.append(lines[i])
        i += 1
    for line in lines[i:]:
        m = REPORT_ROW_RE.match(line[24:]) if len(line) > 24 and line[24] == " " else None
        if not m:
            break
        text.append(line)
        rows.append({"kernel": line[:24].rstrip(), "launches": int(m.group(1)),
                     "split": int(m.group(2)), "time_ms": float(m.group(5)),
                     "shares": m.group(4), "moved": m.group(8), "decision": m.group(9)})
    return "\n".join(text) + "\n", devices, rows


def summarise_report(report):
    """What the decisions table shows of one report: launches split / all, and the shares
    and decision of the kernel with the longest total time (the report lists it first)."""
    if report is None:
        return None
    _, _, rows = report
    kernels = [r for r in rows if r["kernel"] != "(all kernels)"]
    if not kernels:
        return {"split": 0, "launches": 0, "kernel": "", "shares": "", "decision": "no launches"}
    total = next((r for r in rows if r["kernel"] == "(all kernels)"), kernels[0])
    top = kernels[0]
    return {"split": total["split"], "launches": total["launches"], "kernel": top["kernel"],
            "shares": top["shares"], "decision": top["decision"]}


def built_or_packed(path, bin_dir):
    """Where a file of the build may be: in the build, else where bench-pack put it next to
    the packed programs (bin_dir)."""
    return list(dict.fromkeys([os.path.join(ROOT, path),
                               os.path.join(os.path.dirname(os.path.abspath(bin_dir)), path)]))


def fresh(path):
    """path, with what an earlier run left there removed."""
    if os.path.exists(path):
        os.remove(path)
    return path


def run_logged(cmd, log):
    """A helper tool's run, its command and output written to log.txt."""
    r = subprocess.run(cmd, capture_output=True, text=True)
    log.write("$ %s\n%s\n(exit %d)\n\n" % (" ".join(cmd), (r.stdout + r.stderr).rstrip(), r.returncode))
    return r


def trace_balance(skmd_trace, trace, picture, title, log):
    """(split launches, of them within 10%) of a trace file, or None (no trace, or unread);
    draws its last split launch's timeline into picture."""
    if not os.path.isfile(trace):
        return None
    r = run_logged([skmd_trace, "--balance", "--json", trace], log)
    try:
        b = json.loads(r.stdout) if r.returncode == 0 else None
        counts = (int(b["split_launches"]), int(b["balanced_launches"])) if b else None
        last = b["launches"][-1]["launch"] if b and b["launches"] else None
    except (ValueError, KeyError, TypeError, IndexError):
        return None
    if last is not None:
        run_logged([skmd_trace, "--launch", str(last), "--title", "%s: launch %d" % (title, last),
                    "--svg", picture, trace], log)
    return counts


def write_decisions(out, examples, columns, reports, balance=None):
    """reports/decisions.csv and the decisions section of results.md; with balance (from
    --balance), a column of the traced run's split launches within 10%."""
    head = ["example", "column", "split launches", "largest kernel", "its shares", "decision"]
    if balance is not None:
        head.append("balanced (traced run)")
    body = []
    for ex in examples:
        for c in columns:
            s = summarise_report(reports.get((ex, c)))
            if s is None:
                row = [ex, c, "", "", "", "no report (the run ended before libskmd's exit)"]
            else:
                row = [ex, c, "%d/%d" % (s["split"], s["launches"]), s["kernel"], s["shares"],
                       s["decision"]]
            if balance is not None:
                b = balance.get((ex, c))
                row.append("no trace" if b is None else "no split launch" if b[0] == 0 else
                           "%d/%d within 10%%" % (b[1], b[0]))
            body.append(row)
    with open(os.path.join(out, "reports", "decisions.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(head)
        w.writerows(body)
    devices = next((r[1] for r in reports.values() if r and r[1]), [])
    with open(os.path.join(out, "results.md"), "a") as f:
        f.write("\n## Decisions (libskmd's exit report, SKMD_REPORT=1)\n\n")
        f.write("| " + " | ".join(head) + " |\n")
        f.write("|" + "|".join("---" for _ in head) + "|\n")
        for line in body:
            f.write("| " + " | ".join(v.replace("|", "/") for v in line) + " |\n")
        f.write("\nsplit launches: the example's launches shared among several devices / all its "
                "launches. largest kernel: the one with the longest total time; its shares: the "
                "fraction of its work-groups each member device ran, in device order (%s); "
                "decision: why its last launch that ran whole was not split (else the last reason "
                "given). Whole reports: reports/EXAMPLE.COLUMN.txt.%s\n"
                % ("; ".join(devices) if devices else "the reports' device lines",
                   " balanced: of one more, untimed run traced (reports/EXAMPLE.COLUMN.trace.json), "
                   "the split launches whose devices finished within 10% of each other "
                   "(tools/skmd-trace --balance)." if balance is not None else ""))


def fmt_ms(v):
    return "" if v is None else "%.3f" % v


def fmt_ratio(v):
    return "" if v is None else "%.2f" % v


def summarise(examples, devices, columns, runs, rounds):
    """One row per example with the derived figures. spread: the fastest device's slowest
    round over its fastest (None with one round): how far apart the same native run lands."""
    rows = []
    for ex in examples:
        native = {d: runs.get((ex, "native", d)) for d in devices}
        times = {d: r[1] for d, r in native.items() if r and r[1] is not None}
        row = {"example": ex, "native": native, "columns": {}}
        row["size"] = next((r[0] for r in list(native.values()) + [runs.get((ex, c, None)) for c in columns]
                            if r and r[0]), "")
        if times:
            fastest = min(times, key=times.get)
            row["fastest_device"], row["fastest_ms"] = fastest, times[fastest]
            row["ideal_ms"] = 1.0 / sum(1.0 / t for t in times.values())
            own = rounds.get((ex, fastest), [])
            row["spread"] = max(own) / min(own) if len(own) > 1 else None
        else:
            row["fastest_device"] = row["fastest_ms"] = row["ideal_ms"] = row["spread"] = None
        for c in columns:
            r = runs.get((ex, c, None))
            ms = r[1] if r else None
            speedup = row["fastest_ms"] / ms if ms and row["fastest_ms"] else None
            eff = row["ideal_ms"] / ms if ms and row["ideal_ms"] else None
            row["columns"][c] = {"ms": ms, "status": r[3] if r else "", "speedup": speedup, "efficiency": eff}
        single = row["columns"].get(SINGLE, {}).get("ms")
        for c in columns:
            ms = row["columns"][c]["ms"]
            row["columns"][c]["vs_single"] = single / ms if ms and single and c != SINGLE else None
        rows.append(row)
    return rows


def cell(run):
    if run is None:
        return ""
    return fmt_ms(run[1]) if run[1] is not None else run[3]


def write_tables(out, rows, devices, dev_labels, columns):
    """results.csv names devices in full; results.md by P:D, with a list of names below."""
    short = {d: "%d:%d" % d for d in devices}
    tail = ["fastest device", "fastest ms", "ideal ms", "native spread"]
    versus = [c for c in columns if c != SINGLE] if SINGLE in columns else []
    for c in columns:
        tail += ["%s ms" % c, "%s speedup" % c, "%s efficiency" % c]
        if c in versus:
            tail.append("%s / %s" % (c, SINGLE))
    head = ["example", "size"] + ["%s ms" % dev_labels[d] for d in devices] + tail
    md_head = ["example", "size"] + ["%s ms" % short[d] for d in devices] + tail
    body = []
    for r in rows:
        line = [r["example"], r["size"]] + [cell(r["native"][d]) for d in devices]
        line += [short[r["fastest_device"]] if r["fastest_device"] else "", fmt_ms(r["fastest_ms"]),
                 fmt_ms(r["ideal_ms"]), fmt_ratio(r["spread"])]
        for c in columns:
            col = r["columns"][c]
            line += [fmt_ms(col["ms"]) if col["ms"] is not None else col["status"], fmt_ratio(col["speedup"]),
                     fmt_ratio(col["efficiency"])]
            if c in versus:
                line.append(fmt_ratio(col["vs_single"]))
        body.append(line)
    with open(os.path.join(out, "results.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(head)
        w.writerows(body)
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write("| " + " | ".join(md_head) + " |\n")
        f.write("|" + "|".join("---" if i < 2 else "---:" for i in range(len(head))) + "|\n")
        for line in body:
            f.write("| " + " | ".join(line) + " |\n")
        f.write("\nDevices: " + "; ".join(dev_labels[d] for d in devices) + ".\n")
        for c in columns:
            speedups = [r["columns"][c]["speedup"] for r in rows]
            if speedups and all(speedups):
                below = ["%s %.2fx" % (r["example"], r["columns"][c]["speedup"]) for r in rows
                         if r["columns"][c]["speedup"] < 0.98]
                f.write("\n%s: geomean speedup %.2fx over %d examples; below 0.98x: %s.\n" % (
                    c, math.exp(sum(math.log(x) for x in speedups) / len(speedups)), len(speedups),
                    ", ".join(below) or "none"))
        for c in versus:
            ratios = [r["columns"][c]["vs_single"] for r in rows]
            if ratios and all(ratios):
                below = ["%s %.2fx" % (r["example"], r["columns"][c]["vs_single"]) for r in rows
                         if r["columns"][c]["vs_single"] < 0.98]
                f.write("\n%s / %s: geomean %.2fx over %d examples; below 0.98x: %s.\n" % (
                    c, SINGLE, math.exp(sum(math.log(x) for x in ratios) / len(ratios)), len(ratios),
                    ", ".join(below) or "none"))
        f.write("\nTimes are the best of the timed repetitions, end to end (write inputs, kernels, read "
                "outputs). speedup = fastest single device / libskmd; ideal = 1 / sum(1/T_i) over the "
                "devices; efficiency = ideal / libskmd. native spread = the fastest device's slowest round "
                "over its fastest (with --rounds 2 or more): a speedup that far from 1.00x is within "
                "the run-to-run noise.%s\n" % (
                    " LABEL / %s = %s's time / LABEL's: what sharing launches among the devices gains "
                    "over libskmd running each launch whole on its fastest member (SKMD_MODE=single)."
                    % (SINGLE, SINGLE) if versus else ""))


PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#edc948", "#76b7b2", "#9c755f", "#bab0ac"]
SKMD_PALETTE = ["#e15759", "#ff9da7", "#8c2d2d", "#d37295"]


def write_svg(out, rows, devices, dev_labels, columns, title):
    """Grouped bars per example: speed relative to the fastest single device (1 = as fast)."""
    series = [("native " + dev_labels[d][:60], PALETTE[i % len(PALETTE)],
               lambda r, d=d: (r["fastest_ms"] / r["native"][d][1]
                               if r["fastest_ms"] and r["native"][d] and r["native"][d][1] else None))
              for i, d in enumerate(devices)]
    series.append(("ideal combined", "#cccccc",
                   lambda r: r["fastest_ms"] / r["ideal_ms"] if r["ideal_ms"] else None))
    for i, c in enumerate(columns):
        series.append((c if c == "libskmd" else "libskmd " + c, SKMD_PALETTE[i % len(SKMD_PALETTE)], lambda r, c=c: r["columns"][c]["speedup"]))
    values = [[s[2](r) for s in series] for r in rows]
    vmax = max([v for vs in values for v in vs if v is not None] + [1.0])
    step = 0.25 if vmax <= 2.5 else 0.5 if vmax <= 5 else 1.0
    top = max(1.25, math.ceil(vmax * 1.05 / step) * step)
    bar_w, gap = 14, 26
    group_w = bar_w * len(series) + gap
    left, right, plot_h, head_h, foot_h = 60, 20, 300, 50, 110
    legend_h = 18 * len(series) + 10
    width = max(680, left + right + group_w * len(rows))
    height = head_h + plot_h + foot_h + legend_h
    y_of = lambda v: head_h + plot_h - plot_h * min(v, top) / top
    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" '
         'font-size="11">' % (width, height),
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="%d" y="20" font-size="14" font-weight="bold">%s</text>' % (left, html.escape(title)),
         '<text x="%d" y="38" fill="#444">speed relative to the fastest single device '
         '(higher is better; 1 = fastest device alone)</text>' % left]
    for i in range(int(round(top / step)) + 1):
        v = step * i
        y = y_of(v)
        o.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#eee"/>' % (left, y, width - right, y))
        o.append('<text x="%d" y="%.1f" text-anchor="end">%.2f</text>' % (left - 6, y + 4, v))
    y1 = y_of(1.0)
    o.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#333" stroke-dasharray="4,3"/>'
             % (left, y1, width - right, y1))
    for gi, (r, vs) in enumerate(zip(rows, values)):
        x0 = left + gap / 2 + gi * group_w
        for si, v in enumerate(vs):
            x = x0 + si * bar_w
            if v is None:
                o.append('<text x="%.1f" y="%.1f" font-size="9" fill="#c00" transform="rotate(-90 %.1f %.1f)">'
                         'n/a</text>' % (x + 10, y_of(0) - 4, x + 10, y_of(0) - 4))
                continue
            y = y_of(v)
            o.append('<rect x="%.1f" y="%.1f" width="%d" height="%.1f" fill="%s"><title>%s %s: %.2f</title>'
                     '</rect>' % (x, y, bar_w - 2, y_of(0) - y, series[si][1], html.escape(r["example"]),
                                  html.escape(series[si][0]), v))
            if si >= len(devices):  # label the ideal and libskmd bars with their value
                o.append('<text x="%.1f" y="%.1f" font-size="8" text-anchor="middle">%.2f</text>'
                         % (x + bar_w / 2 - 1, y - 2, v))
        cx = x0 + bar_w * len(series) / 2
        ty = head_h + plot_h + 12
        o.append('<text x="%.1f" y="%d" text-anchor="end" transform="rotate(-40 %.1f %d)">%s</text>'
                 % (cx, ty, cx, ty, html.escape(r["example"])))
    o.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#333"/>' % (left, y_of(0), width - right, y_of(0)))
    ly = head_h + plot_h + foot_h
    for si, s in enumerate(series):
        o.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/>' % (left, ly + 18 * si, s[1]))
        o.append('<text x="%d" y="%d">%s</text>' % (left + 18, ly + 18 * si + 10, html.escape(s[0])))
    o.append("</svg>")
    svg = os.path.join(out, "chart.svg")
    with open(svg, "w") as f:
        f.write("\n".join(o) + "\n")
    if shutil.which("rsvg-convert"):
        subprocess.run(["rsvg-convert", "-o", os.path.join(out, "chart.png"), svg], check=False)


def merge_runs(dirs):
    """Earlier runs' runs.csv as one run: examples, columns, device labels, kept runs and
    each native device's rounds, as main() collects them."""
    examples, columns, dev_labels, runs, rounds = [], [], {}, {}, {}
    for d in dirs:
        path = os.path.join(d, "runs.csv")
        if not os.path.isfile(path):
            fail("--merge: no %s" % path)
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                ex, c = row["example"], row["column"]
                best = float(row["ms_best"]) if row["ms_best"] else None
                median = float(row["ms_median"]) if row["ms_median"] else None
                r = (row["size"], best, median, row["status"])
                if ex not in examples:
                    examples.append(ex)
                if c == "native":
                    p, dev = row["device"].split()[0].split(":")
                    key = (int(p), int(dev))
                    dev_labels[key] = row["device"]
                    runs[(ex, c, key)] = better(runs.get((ex, c, key)), r)
                    if best is not None:
                        rounds.setdefault((ex, key), []).append(best)
                else:
                    if c not in columns:
                        columns.append(c)
                    runs[(ex, c, None)] = better(runs.get((ex, c, None)), r)
    return examples, columns, dev_labels, runs, rounds


def main_merge(args):
    examples, columns, dev_labels, runs, rounds = merge_runs(args.merge)
    dev_keys = sorted(dev_labels)
    rows = summarise(examples, dev_keys, columns, runs, rounds)
    write_tables(args.out, rows, dev_keys, dev_labels, columns)
    title = "libskmd examples, merged from %d runs" % len(args.merge)
    write_svg(args.out, rows, dev_keys, dev_labels, columns, title)
    with open(os.path.join(args.out, "results.md")) as f:
        print(f.read())
    return 0 if all(r[3] == "PASSED" for r in runs.values()) else 1


def column_env(lib, env, report):
    """The environment of a libskmd column's run: lib preloaded (a column's own LD_PRELOAD,
    another build, wins), with SKMD_REPORT=1 when report."""
    env = dict({"LD_PRELOAD": os.path.abspath(lib)}, **env)
    # Programs of the sanitizer build refuse a preload ahead of their ASan runtime.
    asan = [o for o in [os.environ.get("ASAN_OPTIONS"), "verify_asan_link_order=0"] if o]
    env.setdefault("ASAN_OPTIONS", ":".join(asan))
    if report:
        env.setdefault("SKMD_REPORT", "1")
    return env


def profile_db_of(env):
    """The profile database libskmd opens in env (libskmd/support/controls.def): SKMD_PROFILE_DB, else
    $SKMD_CACHE_DIR/profile.db, SKMD_CACHE_DIR defaulting to $XDG_CACHE_HOME/skmd, that to
    ~/.cache."""
    if env.get("SKMD_PROFILE_DB"):
        return env["SKMD_PROFILE_DB"]
    cache_dir = env.get("SKMD_CACHE_DIR") or os.path.join(
        env.get("XDG_CACHE_HOME") or os.path.join(env.get("HOME") or "/tmp", ".cache"), "skmd")
    return os.path.join(cache_dir, "profile.db")


def copy_profile_db(src, dst):
    """dst made a copy of the SQLite database src, or left absent (libskmd then starts a new
    one) when src is absent or unreadable; says which, for the column's line."""
    if not os.path.isfile(src):
        return "new: %s does not exist" % src
    try:
        # The backup API reads src's committed state, its -wal included; read-only, so the
        # user's database is left as it was.
        with closing(sqlite3.connect("file:%s?mode=ro" % urllib.parse.quote(os.path.abspath(src)),
                                     uri=True)) as s, closing(sqlite3.connect(dst)) as d:
            s.backup(d)
    except sqlite3.Error as e:
        for f in (dst, dst + "-wal", dst + "-shm", dst + "-journal"):
            if os.path.exists(f):
                os.remove(f)
        print("bench: WARNING: cannot copy the profile database %s (%s): the column starts "
              "without one" % (src, e))
        return "new: the copy of %s failed" % src
    return "a copy of %s" % src


def with_own_profile_dbs(out, columns):
    """columns, each of two or more given a profile database of its own, out/profiles/LABEL.db,
    a copy of the one it would use: what a column learns (tables, guard decisions) must not
    decide the next column's runs. A column's own SKMD_PROFILE_DB wins; one column keeps the
    user's database, which learns across runs."""
    folder = os.path.join(out, "profiles")
    shutil.rmtree(folder, ignore_errors=True)  # an earlier run's columns
    own = {}
    for label, env in columns.items():
        shared = profile_db_of(dict(os.environ, **env))
        if len(columns) < 2 or "SKMD_PROFILE_DB" in env:
            why = "the column's own SKMD_PROFILE_DB" if "SKMD_PROFILE_DB" in env else "learns across runs"
            print("bench: column %s: profile database %s (%s)" % (label, shared, why))
            own[label] = env
            continue
        os.makedirs(folder, exist_ok=True)
        db = os.path.abspath(os.path.join(folder, label + ".db"))
        print("bench: column %s: profile database %s (%s)" % (label, db, copy_profile_db(shared, db)))
        own[label] = dict(env, SKMD_PROFILE_DB=db)
    return own


def main():
    args = parse_args()
    if args.balance and not args.report:
        fail("--balance needs --report (its column is in the decisions table)")
    os.makedirs(args.out, exist_ok=True)
    if args.merge:
        return main_merge(args)
    for stale in ("chart.png",):  # written only when rsvg-convert is there
        if os.path.exists(os.path.join(args.out, stale)):
            os.remove(os.path.join(args.out, stale))
    if args.setup_nvidia:
        setup_nvidia(args.out)
    columns = default_columns(args)
    candidates = [args.libskmd] if args.libskmd else built_or_packed("libskmd/libskmd.so", args.bin_dir)
    lib = next((c for c in candidates if os.path.isfile(c)), None)
    if not lib:
        if args.libskmd:
            fail("--libskmd %s: no such file" % args.libskmd)
        print("bench: libskmd.so not built (looked for %s): native columns only" % ", ".join(candidates))
        columns = {}
    else:
        print("bench: libskmd columns use %s" % lib)
    examples = list_examples(args.bin_dir, args.only, args.set)
    devices = [] if args.no_native else list_devices()
    if not devices and not args.no_native:
        fail("clinfo -l lists no OpenCL device (set OCL_ICD_VENDORS, or --setup-nvidia on the GPU machine)")
    dev_keys = [(p, d) for p, d, _ in devices]
    dev_labels = {(p, d): "%d:%d %s" % (p, d, name) for p, d, name in devices}
    for p, d, name in devices:
        print("bench: device %d:%d %s" % (p, d, name))
    # Copied before any column runs, so that every column starts from the same state.
    columns = with_own_profile_dbs(args.out, columns)

    skmd_trace = next((t for t in built_or_packed("tools/skmd-trace", args.bin_dir)
                       if os.access(t, os.X_OK)), None) if args.balance and columns else None
    if args.balance and columns and not skmd_trace:
        fail("--balance: tools/skmd-trace not built (make tools/skmd-trace)")
    runs, reports, rounds, balance = {}, {}, {}, {}
    if args.report:
        os.makedirs(os.path.join(args.out, "reports"), exist_ok=True)
    with open(os.path.join(args.out, "log.txt"), "w") as log, \
            open(os.path.join(args.out, "runs.csv"), "w", newline="") as rf:
        rw = csv.writer(rf, lineterminator="\n")
        rw.writerow(["example", "column", "device", "size", "ms_best", "ms_median", "status", "round"])
        runner = Runner(args, log)
        for ex in examples:
            prog = os.path.join(args.bin_dir, ex, ex)
            # Rounds interleave the runs, so a slow minute of the machine hits every column alike.
            for rnd in range(1, max(1, args.rounds) + 1):
                for key in dev_keys:
                    r = runner.run(prog, ["--device", "%d:%d" % key] + size_args(args, ex), {},
                                   "%s native %d:%d" % ((ex,) + key))
                    runs[(ex, "native", key)] = better(runs.get((ex, "native", key)), r)
                    if r[1] is not None:
                        rounds.setdefault((ex, key), []).append(r[1])
                    rw.writerow([ex, "native", dev_labels[key], r[0], fmt_ms(r[1]), fmt_ms(r[2]), r[3], rnd])
                for c, env in columns.items():
                    r = runner.run(prog, size_args(args, ex), column_env(lib, env, args.report), "%s %s" % (ex, c))
                    kept = better(runs.get((ex, c, None)), r)
                    runs[(ex, c, None)] = kept
                    if args.report and kept is r:  # the report of the run the tables show
                        reports[(ex, c)] = extract_report(runner.output)
                        with open(os.path.join(args.out, "reports", "%s.%s.txt" % (ex, c)), "w") as f:
                            f.write(reports[(ex, c)][0] if reports[(ex, c)] else
                                    "(no libskmd report in the run's output: see log.txt)\n")
                    rw.writerow([ex, c, "all", r[0], fmt_ms(r[1]), fmt_ms(r[2]), r[3], rnd])
                rf.flush()
            for c, env in columns.items() if skmd_trace else ():
                # Untimed: the trace's own cost stays out of the tables.
                trace = fresh(os.path.join(args.out, "reports", "%s.%s.trace.json" % (ex, c)))
                runner.run(prog, size_args(args, ex), dict(column_env(lib, env, True), SKMD_TRACE=trace),
                           "%s %s traced" % (ex, c))
                picture = fresh(os.path.join(args.out, "reports", "%s.%s.launch.svg" % (ex, c)))
                balance[(ex, c)] = trace_balance(skmd_trace, trace, picture, "%s, %s" % (ex, c), log)

    rows = summarise(examples, dev_keys, list(columns), runs, rounds)
    write_tables(args.out, rows, dev_keys, dev_labels, list(columns))
    if args.report and columns:
        write_decisions(args.out, examples, list(columns), reports, balance if skmd_trace else None)
    title = "libskmd %s, %s%s, best of %d%s" % (
        "compute-bound examples" if args.set == "compute" else "examples",
        datetime.date.today().isoformat(), ", --quick" if args.quick else "", args.reps,
        " x %d rounds" % args.rounds if args.rounds > 1 else "")
    write_svg(args.out, rows, dev_keys, dev_labels, list(columns), title)
    with open(os.path.join(args.out, "results.md")) as f:
        print(f.read())
    print("bench: wrote %s/{results.md,results.csv,runs.csv,chart.svg%s,log.txt%s}"
          % (args.out, ",chart.png" if os.path.exists(os.path.join(args.out, "chart.png")) else "",
             ",reports/" if args.report and columns else ""))
    bad = [k for k, r in runs.items() if r[3] != "PASSED"]
    if bad:
        print("bench: %d run(s) did not pass; see log.txt" % len(bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
