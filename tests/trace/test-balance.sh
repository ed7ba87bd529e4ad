#!/bin/bash
# tests/trace: skmd-trace --balance. A hand-made trace with known finish times (balanced and
# unbalanced launches, a merge, a one-device launch and spans of no launch), then real
# traces of gemm under libskmd on two PoCL devices, with forced uneven (10%/90%) and even
# shares: the tool's figures must be the spans', and uneven shares run in turn unbalanced.
# usage: test-balance.sh SKMD_TRACE_TOOL PRELOAD GEMM_BIN WORKDIR
set -u
tool=$1 preload=$2 gemm=$3 work=$4
fail=0
check() { local what=$1; shift; if ! "$@"; then echo "FAIL test-trace-balance: $what"; fail=1; fi; }
rm -rf "$work" && mkdir -p "$work"
hand=tests/trace/balance-trace.json

# Text: launch 1 finishes at 1.000 and 0.960 ms (4%), launch 2 at 0.300 and 1.000 (70%).
out=$("$tool" --balance "$hand")
check "headline: $out" grep -q '^balance: 4 split launches, 2 finished within 10% of each other (not counted: launches on one device 1, spans of no launch 2)$' <<<"$out"
check "launch 1: $out" grep -qE '^ +1 vadd +1\.000 +0\.000 +4\.0 yes +GPU 0: fast 1\.000 \(50%\); CPU 0: pthread 0\.960 \(50%\)$' <<<"$out"
check "launch 2: $out" grep -qE '^ +2 vadd +1\.000 +0\.000 +70\.0 no +GPU 0: fast 0\.300 \(10%\); CPU 0: pthread 1\.000 \(90%\)$' <<<"$out"
check "one-device launch 3 is listed: $out" bash -c '! grep -qE "^ +3 " <<<"$1"' _ "$out"
check "vadd row: $out" grep -qE '^vadd +2 +1 +37\.0 +70\.0 +2$' <<<"$out"
check "sgemm row: $out" grep -qE '^sgemm +2 +1 +8\.[23] +12\.5 +4$' <<<"$out"
check "all kernels row: $out" grep -qE '^\(all kernels\) +4 +2 +8\.[23] +70\.0 +2$' <<<"$out"
check "no summary with --balance: $out" bash -c '! grep -q "^trace: " <<<"$1"' _ "$out"
# launch 4 spreads 12.5% exactly: at the limit counts as balanced
out=$("$tool" --balance --within 12.5 "$hand")
check "--within 12.5: $out" grep -q '^balance: 4 split launches, 3 finished within 12.5%' <<<"$out"

# JSON: the same figures, machine-readable.
"$tool" --balance --json "$hand" >"$work/hand.json" || check "--json exits non-zero" false
check "hand-made --json" /usr/bin/python3 - "$work/hand.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
def near(x, y): return abs(x - y) < 1e-4
assert (b["split_launches"], b["balanced_launches"], b["one_device_launches"],
        b["unattributed_spans"]) == (4, 2, 1, 2), b
assert [L["launch"] for L in b["launches"]] == [1, 2, 4, 5], b["launches"]
L4 = b["launches"][2]
# launch 4: the CPU's merge (after every share) ends the launch but is not its finish
assert near(L4["duration_ms"], 0.9) and near(L4["merge_ms"], 0.2), L4
assert near(L4["spread"], 0.1 / 0.8) and not L4["balanced"], L4
assert {d["device"]: d["finish_ms"] for d in L4["devices"]} == \
    {"GPU 0: fast": 0.8, "CPU 0: pthread": 0.7, 'GPU 1: "slow"': 0.75}, L4
# launch 5: GPU 1's transfer lengthens the launch but GPU 1 ran no share
L5 = b["launches"][3]
assert len(L5["devices"]) == 2 and near(L5["duration_ms"], 0.6) and near(L5["spread"], 0.02 / 0.5), L5
k = {x["kernel"]: x for x in b["kernels"]}
assert near(k["vadd"]["median_spread"], 0.37) and k["vadd"]["worst_launch"] == 2, k
assert near(k["sgemm"]["median_spread"], (0.125 + 0.04) / 2), k
assert near(b["worst_spread"], 0.7) and b["worst_launch"] == 2, b
PY

# Bad input: clear messages, exit 2.
err=$("$tool" --balance --within 0 "$hand" 2>&1); rc=$?
check "--within 0: rc $rc, $err" test $rc -eq 2 -a -n "$(grep 'above 0, up to 100' <<<"$err")"
err=$("$tool" --json "$hand" 2>&1); rc=$?
check "--json alone: rc $rc, $err" test $rc -eq 2 -a -n "$(grep 'goes with --balance' <<<"$err")"
err=$("$tool" --json --balance --summary "$hand" 2>&1); rc=$?
check "--json --summary: rc $rc, $err" test $rc -eq 2 -a -n "$(grep 'without --summary' <<<"$err")"
out=$("$tool" --balance --launch 3 "$hand"); rc=$?
check "one-device launch alone: rc $rc, $out" test $rc -eq 0 -a "$out" = \
    "balance: 0 split launches, 0 finished within 10% of each other (not counted: launches on one device 1, spans of no launch 0)"

# Real traces: gemm under libskmd on two PoCL devices of one compute unit each (4 launches:
# a warm-up that also builds the kernels, then 3 timed).
# - "pthread pthread", shares 10%/90% and 50%/50%: PoCL's pthread devices share one pool of
#   worker threads, so the shares take turns on one core in an order PoCL picks, and which
#   finishes first is not known in advance. What must hold: the forced shares are seen, and
#   the tool's finish times and spreads are those of the trace's spans.
# - "pthread basic", shares 10%/90%, zero-copy off: with a basic member libskmd runs the
#   shares in turn, the first member's 10% first, so every launch is far from balanced; the
#   inputs move, and their transfer spans must carry their launch.
export POCL_CPU_MAX_CU_NUM=1 SKMD_CACHE_DIR="$work/cache"
run_gemm() { # DEVICES SPLIT NAME [VAR=VALUE...]: trace $work/NAME.json, balance NAME-balance.json
    local devices=$1 split=$2 name=$3
    shift 3
    if ! env POCL_DEVICES="$devices" SKMD_SPLIT="$split" SKMD_TRACE="$work/$name.json" "$@" \
        LD_PRELOAD="$preload" "$gemm" --size 256 --reps 3 >"$work/gemm.out" 2>&1 ||
        ! grep -q '^PASSED' "$work/gemm.out"; then
        echo "FAIL test-trace-balance: gemm [$devices] $split $*: $(tail -3 "$work/gemm.out")"
        exit 1
    fi
    "$tool" --balance "$work/$name.json" >"$work/$name.txt" &&
        "$tool" --balance --json "$work/$name.json" >"$work/$name-balance.json" ||
        check "--balance on the $name trace" false
}
run_gemm "pthread pthread" 0.1,0.9 uneven
run_gemm "pthread pthread" 0.5,0.5 even
run_gemm "pthread basic" 0.1,0.9 in-turn SKMD_ZERO_COPY=0
check "real traces" /usr/bin/python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
def spans(name):
    return [e for e in json.load(open("%s/%s.json" % (w, name)))["traceEvents"] if e["ph"] == "X"]
def recompute(name):
    """finish (ms from the launch's first span) per device lane, per split launch"""
    by_launch = {}
    for e in spans(name):
        by_launch.setdefault(e["args"]["launch"], []).append(e)
    out = {}
    for launch, ev in by_launch.items():
        start = min(e["ts"] for e in ev)
        lanes = {e["tid"] for e in ev if e["cat"] == "kernel"}
        if len(lanes) > 1:
            out[launch] = {t: max(e["ts"] + e["dur"] for e in ev
                                  if e["tid"] == t and e["cat"] != "merge") / 1000 - start / 1000
                           for t in lanes}
    return out
summary = []
for name, want in (("uneven", 0.1), ("even", 0.5), ("in-turn", 0.1)):
    b = json.load(open("%s/%s-balance.json" % (w, name)))
    finishes = recompute(name)
    assert b["split_launches"] == 4 == len(finishes), (name, b["split_launches"], len(finishes))
    for L in b["launches"]:
        groups = [d["work_groups"] for d in L["devices"]]
        assert len(groups) == 2 and abs(groups[0] / sum(groups) - want) < 0.02, (name, L)
        mine = sorted(finishes[L["launch"]].values())
        theirs = sorted(d["finish_ms"] for d in L["devices"])
        assert all(abs(x - y) < 1e-3 for x, y in zip(mine, theirs)), (name, mine, theirs)
        assert abs(L["spread"] - (mine[-1] - mine[0]) / mine[-1]) < 1e-4, (name, L)
        assert L["balanced"] == (L["spread"] <= 0.1), L
    summary.append("%s %.1f%%" % (name, 100 * b["median_spread"]))
# 10% of the work, then 90%: every launch after the warm-up far from balanced.
in_turn = json.load(open(w + "/in-turn-balance.json"))
spreads = [L["spread"] for L in in_turn["launches"]]
assert min(spreads[1:]) > 0.5, spreads
# The shares' input transfers are tied to their launch; those without a name of their own
# (not peer copies) get the kernel's and the share's.
launches = {e["args"]["launch"] for e in spans("in-turn") if e["cat"] == "kernel"}
ins = [e for e in spans("in-turn") if e["cat"] == "transfer_in" and e["args"]["kernel"] == "gemm"]
assert ins, "no transfer_in span of gemm with SKMD_ZERO_COPY=0"
for e in ins:
    assert e["args"]["launch"] in launches and e["name"].startswith("in gemm "), e
print("test-trace-balance: median spread %s; %d input transfers tied to their launch"
      % (", ".join(summary), len(ins)))
PY
check "in-turn text says unbalanced: $(cat "$work/in-turn.txt")" \
    test "$(grep -cE '^ +[234] gemm +[0-9.]+ +[0-9.]+ +[0-9.]+ no ' "$work/in-turn.txt")" = 3
# Launches run whole on the app's own queue (one device): libskmd does not wait for them,
# yet each one has its kernel span (ended by its event), with its launch number and its
# work-groups, and counts as a launch on one device.
run_gemm "pthread" "" whole
check "whole launches traced" /usr/bin/python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
ev = [e for e in json.load(open(w + "/whole.json"))["traceEvents"] if e["ph"] == "X" and e["cat"] == "kernel"]
assert [e["args"]["launch"] for e in ev] == [1, 2, 3, 4], ev
assert all(e["args"]["work_groups"] == (256 // 32) * (256 // 8) and e["dur"] > 0 for e in ev), ev
b = json.load(open(w + "/whole-balance.json"))
assert b["split_launches"] == 0 and b["one_device_launches"] == 4, b
PY
[ $fail = 0 ] && echo "PASS test-trace-balance"
exit $fail
