#!/bin/bash
# tests/trace: skmd-trace --decisions. A hand-written decision log with known figures (two
# processes appending to one file out of launch order, a split launch without an estimate,
# one with an untimed share, whole and one-share launches, a blank line), then real logs of
# gemm under libskmd on two PoCL devices, two processes with forced 50%/50% shares and one
# with the partitioner's, all in one file: the counts must be the log's lines, and the
# figures those the log's records give.
# usage: test-decisions.sh SKMD_TRACE_TOOL PRELOAD GEMM_BIN WORKDIR
set -u
tool=$1 preload=$2 gemm=$3 work=$4
fail=0
check() { local what=$1; shift; if ! "$@"; then echo "FAIL test-trace-decisions: $what"; fail=1; fi; }
rm -rf "$work" && mkdir -p "$work"
hand=tests/trace/decisions-log.jsonl

# Text: one row per kernel, in the order of their first line.
out=$("$tool" --decisions "$hand")
check "headline: $out" grep -q '^decisions: 12 launches of 3 kernels in 2 processes, 9 split$' <<<"$out"
check "vadd row: $out" grep -qE '^vadd +9 +8 +4 +1\.10 +0\.40 +0\.90 +0\.50 +3 of 8  launch 4 \(split #3, pid 200\)$' <<<"$out"
check "fill row: $out" grep -qE '^fill +1 +0 +0 +- +- +- +- +0 of 0  -$' <<<"$out"
out=$("$tool" --decisions "$hand" --within 4)
check "--within 4: $out" grep -qE '^vadd .* 0 of 8  never \(pid 100\)$' <<<"$out"

# JSON: the same figures, machine-readable.
"$tool" --decisions "$hand" --json >"$work/hand.json" || check "--json exits non-zero" false
"$tool" --decisions "$hand" --json --within 50 >"$work/hand-50.json" || check "--within 50" false
check "hand-written --json" /usr/bin/python3 - "$work" <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/hand.json"))
def near(x, y): return abs(x - y) < 1e-6
assert (d["launches"], d["split_launches"], d["processes"]) == (12, 9, 2), d
assert near(d["within"], 0.1), d
k = {x["kernel"]: x for x in d["kernels"]}
assert [x["kernel"] for x in d["kernels"]] == ["vadd", "gemm", "fill"], d["kernels"]
v = k["vadd"]
assert (v["launches"], v["split_launches"], v["estimated_launches"]) == (9, 8, 4), v
# wall / estimate: 16/8, 12/10, 8/20, 10/10 (pid 100's launches 1, 3, 4, 6): the median of
# 0.4 1.0 1.2 2.0, and 0.4 the furthest from 1 (by 2.5 times, 2.0 by 2)
w = v["wall_ratio"]
assert w["launches"] == 4 and near(w["median"], 1.1) and near(w["worst"], 0.4), w
assert (w["worst_pid"], w["worst_launch"]) == (100, 4), w
# slowest share / estimate: 10/8, 9/10, 10/20 (launch 6 has an untimed share)
s = v["kernel_ratio"]
assert s["launches"] == 3 and near(s["median"], 0.9) and near(s["worst"], 0.5), s
# within 10%: pid 100's launches 3 and 5; pid 200's launch 4 (10/9: 10% exactly counts).
# pid 200 takes three split launches to get there (launches 1, 3, 4), pid 100 two.
assert v["within_launches"] == 3, v
assert v["first_within"] == {"pid": 200, "launch": 4, "split_number": 3}, v["first_within"]
assert v["per_process"] == [
    {"pid": 100, "split_launches": 5, "within_launches": 2,
     "first_within": {"launch": 3, "split_number": 2}},
    {"pid": 200, "split_launches": 3, "within_launches": 1,
     "first_within": {"launch": 4, "split_number": 3}}], v["per_process"]
g = k["gemm"]
assert (g["launches"], g["split_launches"], g["processes"], g["within_launches"]) == (2, 1, 2, 1), g
assert near(g["wall_ratio"]["median"], 1.25) and near(g["kernel_ratio"]["worst"], 1.0), g
assert g["first_within"] == {"pid": 200, "launch": 2, "split_number": 1}, g
f = k["fill"]
assert f["split_launches"] == 0 and f["wall_ratio"] is None and f["kernel_ratio"] is None, f
assert f["first_within"] is None, f
# --within 50: pid 100's launch 1 spreads 50% exactly, pid 200's 20%: both at once
d = json.load(open(sys.argv[1] + "/hand-50.json"))
v = d["kernels"][0]
assert near(d["within"], 0.5) and v["within_launches"] == 7, v
assert v["first_within"]["split_number"] == 1, v
PY

# Bad input: clear messages, exit 1 (the log) or 2 (the command line).
printf '%s\n' "$(head -1 "$hand")" '{"pid":1,"launch":2' >"$work/cut.jsonl"
err=$("$tool" --decisions "$work/cut.jsonl" 2>&1); rc=$?
check "a cut line: rc $rc, $err" test $rc -eq 1 -a -n "$(grep 'cut.jsonl line 2 is not JSON: column' <<<"$err")"
printf '{"traceEvents":[]}\n' >"$work/trace.jsonl"
err=$("$tool" --decisions "$work/trace.jsonl" 2>&1); rc=$?
check "a trace: rc $rc, $err" test $rc -eq 1 -a -n "$(grep 'line 1 is not a record of a decision log' <<<"$err")"
err=$("$tool" --decisions "$work/none.jsonl" 2>&1); rc=$?
check "no file: rc $rc, $err" test $rc -eq 1 -a -n "$(grep 'cannot open' <<<"$err")"
err=$("$tool" --decisions "$hand" --svg "$work/x.svg" 2>&1); rc=$?
check "--svg: rc $rc, $err" test $rc -eq 2 -a -n "$(grep 'goes with --json and --within only' <<<"$err")"
err=$("$tool" --decisions "$hand" t.json 2>&1); rc=$?
check "and a trace: rc $rc, $err" test $rc -eq 2 -a -n "$(grep 'not a trace' <<<"$err")"
: >"$work/empty.jsonl"
out=$("$tool" --decisions "$work/empty.jsonl" --json); rc=$?
check "empty log: rc $rc, $out" /usr/bin/python3 -c '
import json, sys
assert json.loads(sys.argv[1]) == {"within": 0.1, "launches": 0, "split_launches": 0,
                                   "processes": 0, "kernels": []}' "$out"

# Real logs: gemm (4 launches each) on two PoCL devices of one compute unit each, three
# processes appending to one log: two with forced 50%/50% shares (no estimate: the
# partitioner is not asked), one with the partitioner's shares.
export POCL_CPU_MAX_CU_NUM=1 POCL_DEVICES="pthread pthread" SKMD_CACHE_DIR="$work/cache"
log=$work/gemm.jsonl
for split in 0.5,0.5 0.5,0.5 ""; do
    if ! env SKMD_SPLIT="$split" SKMD_DECISIONS="$log" LD_PRELOAD="$preload" \
        "$gemm" --size 256 --reps 3 >"$work/gemm.out" 2>&1 || ! grep -q '^PASSED' "$work/gemm.out"; then
        echo "FAIL test-trace-decisions: gemm SKMD_SPLIT=$split: $(tail -3 "$work/gemm.out")"
        exit 1
    fi
done
check "the real log is a decision log" eval '/usr/bin/python3 tests/common/decisions.py "$log" check >/dev/null'
"$tool" --decisions "$log" >"$work/gemm.txt" && "$tool" --decisions "$log" --json >"$work/gemm.json" ||
    check "--decisions on the real log" false
check "real log" /usr/bin/python3 - "$log" "$work/gemm.json" <<'PY'
import json, statistics, sys
log = [json.loads(line) for line in open(sys.argv[1])]
d = json.load(open(sys.argv[2]))
assert len(log) == 12 == d["launches"], (len(log), d["launches"])
pids = sorted({r["pid"] for r in log})
assert d["processes"] == len(pids) == 3, d
split = [r for r in log if r["split"]]
assert d["split_launches"] == len(split) >= 8, (d["split_launches"], len(split))
assert [k["kernel"] for k in d["kernels"]] == ["gemm"], d["kernels"]
k = d["kernels"][0]
assert (k["launches"], k["split_launches"], k["processes"]) == (12, len(split), 3), k
# forced shares: split, halves, no estimate
forced = [r for r in log if r["reason"] == "forced"]
assert len(forced) == 8 and all(r["split"] and r["estimate"] is None for r in forced), forced
assert all(abs(s["count"] / r["workgroups"] - 0.5) < 0.02 for r in forced for s in r["shares"])
def spread(r):
    ms = [s["kernel_ms"] for s in r["shares"]]
    return None if None in ms else (max(ms) - min(ms)) / max(ms)
within = [r for r in split if spread(r) is not None and spread(r) <= 0.1]
assert k["within_launches"] == len(within), (k, len(within))
assert [p["pid"] for p in k["per_process"]] == pids, k["per_process"]
for p in k["per_process"]:
    mine = sorted((r for r in split if r["pid"] == p["pid"]), key=lambda r: r["launch"])
    assert p["split_launches"] == len(mine), (p, len(mine))
    firsts = [(r["launch"], n) for n, r in enumerate(mine, 1) if r in within]
    want = {"launch": firsts[0][0], "split_number": firsts[0][1]} if firsts else \
        {"launch": None, "split_number": None}
    assert p["first_within"] == want, (p, want)
# the ratios: the partitioner's split launches, with their estimate
est = [r for r in split if r["estimate"] and r["estimate"]["split_ms"]]
assert k["estimated_launches"] == len(est), (k, len(est))
if est:
    wall = [r["wall_ms"] / r["estimate"]["split_ms"] for r in est]
    assert abs(k["wall_ratio"]["median"] - statistics.median(wall)) < 1e-4, (k, wall)
    worst = max(wall, key=lambda x: max(x, 1 / x))
    assert abs(k["wall_ratio"]["worst"] - worst) < 1e-5, (k, wall)
else:
    assert k["wall_ratio"] is None and k["kernel_ratio"] is None, k
print("test-trace-decisions: real log of %d launches, %d split, %d within 10%%, %d estimated"
      % (len(log), len(split), len(within), len(est)))
PY
check "real log's text: $(cat "$work/gemm.txt")" grep -qE "^gemm +12 +[0-9]+ " "$work/gemm.txt"
[ $fail = 0 ] && echo "PASS test-trace-decisions"
exit $fail
