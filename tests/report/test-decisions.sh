#!/bin/bash
# tests/report/test-decisions.sh PRELOAD BUILD_DIR: the decision log (SKMD_DECISIONS=FILE,
# docs/tools.md) of vector_add on two PoCL devices: one valid JSON object per line, one line
# per launch (as many as the report counts), the documented keys, shares summing to the
# work-groups; the reason codes of a forced split, of a forced whole launch and of a launch
# too small to split; lines appended by a second process; an unwritable file warned about.
set -u
preload=$1 build=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export POCL_CPU_MAX_CU_NUM=1 SKMD_CACHE_DIR="$tmp/cache" SKMD_PROFILE_DB="$tmp/profile.db"
unset SKMD_SPLIT SKMD_POLICY SKMD_MODE SKMD_PROFILE_SWEEP SKMD_DECISIONS
vadd=$build/examples/vector_add/vector_add
fail=0
say() { echo "$1 decisions: $2"; [ "$1" = PASS ] || fail=1; }
dec() { /usr/bin/python3 "$(dirname "$0")/../common/decisions.py" "$tmp/dec" "$@"; }
run() { # ENV...: vector_add under libskmd, decisions appended to $tmp/dec
    env POCL_DEVICES="pthread pthread" SKMD_DECISIONS="$tmp/dec" SKMD_REPORT=json \
        SKMD_REPORT_FILE="$tmp/report.json" LD_PRELOAD="$preload" "$@" "$vadd" --quick --reps 3 2>&1
}
# The report's count of launches, the number the log must have lines for.
launches() { /usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["launches"])' "$tmp/report.json"; }

# A forced split: every launch split in halves, reason "forced".
rm -f "$tmp/dec"
out=$(run SKMD_SPLIT=0.5,0.5)
lines=$(dec check 2>&1)
n=$(launches)
if ! grep -q '^PASSED' <<<"$out"; then
    say FAIL "forced split: $(tail -3 <<<"$out")"
elif [ "$lines" != "$n" ]; then
    say FAIL "forced split: $lines lines for $n launches: $lines"
elif [ "$(dec count 'r["split"] and r["reason"] == "forced" and r["decision"] == "split" and r["workgroups"] == 256 and r["members"] == 2 and r["kernel"] == "vector_add" and r["global"] == [65536] and r["local"] == [256] and r["shares"][1]["kernel_ms"] is not None and r["moved"]["in"] > 0')" != "$n" ] ||
     [ "$(dec shares | sort -u)" != "m0=0+128 m1=128+128" ] ||
     [ "$(dec list 'r["launch"]' | paste -sd' ')" != "$(seq 1 "$n" | paste -sd' ')" ]; then
    say FAIL "forced split: $(head -2 "$tmp/dec")"
else
    say PASS "SKMD_SPLIT=0.5,0.5: $n lines for $n launches, each split m0=0+128 m1=128+128, reason forced"
fi

# Forced whole on member 1 of 2 (SKMD_SPLIT=0,1): one share on member 1, reason "forced",
# the words the plan gives.
rm -f "$tmp/dec"
out=$(run SKMD_SPLIT=0,1)
lines=$(dec check 2>&1)
n=$(launches)
if ! grep -q '^PASSED' <<<"$out" || [ "$lines" != "$n" ]; then
    say FAIL "forced whole: $lines lines for $n launches: $(tail -3 <<<"$out")"
elif [ "$(dec count 'not r["split"] and r["reason"] == "forced" and r["shares"] == [{"member": 1, "first": 0, "count": 256, "kernel_ms": r["shares"][0]["kernel_ms"]}] and r["decision"] == "SKMD_SPLIT gives device 1 every work-group"')" != "$n" ]; then
    say FAIL "forced whole: $(head -2 "$tmp/dec")"
else
    say PASS "SKMD_SPLIT=0,1: every launch whole on member 1 (m1=0+256), reason forced"
fi

# Too few work-groups to split: whole on the queue's member, reason "too_few_groups".
rm -f "$tmp/dec"
out=$(run SKMD_MIN_SPLIT_WORKGROUPS=100000)
lines=$(dec check 2>&1)
n=$(launches)
if ! grep -q '^PASSED' <<<"$out" || [ "$lines" != "$n" ]; then
    say FAIL "kept whole: $lines lines for $n launches: $(tail -3 <<<"$out")"
elif [ "$(dec count 'r["run"] == "whole" and r["reason"] == "too_few_groups" and r["shares"][0]["member"] == 0 and r["shares"][0]["count"] == 256 and r["estimate"] is None and "SKMD_MIN_SPLIT_WORKGROUPS" in r["decision"]')" != "$n" ]; then
    say FAIL "kept whole: $(head -2 "$tmp/dec")"
else
    say PASS "a kernel kept whole (too few work-groups): $n lines whole on member 0, reason too_few_groups"
fi

# A second process appends; its lines carry its own pid and count from launch 1.
run SKMD_SPLIT=0.5,0.5 >/dev/null
lines=$(dec check 2>&1)
pids=$(dec list 'r["pid"]' | sort -u | wc -l)
ones=$(dec count 'r["launch"] == 1')
if [ "$lines" != $((2 * n)) ] || [ "$pids" != 2 ] || [ "$ones" != 2 ]; then
    say FAIL "two processes: $lines lines, $pids pids, $ones first launches (expected $((2 * n)), 2, 2)"
else
    say PASS "a second process appends its $n lines under its own pid"
fi

# A file that cannot be opened: said once, the app runs as before.
out=$(POCL_DEVICES="pthread pthread" SKMD_DECISIONS="$tmp/none/dec" LD_PRELOAD="$preload" \
      "$vadd" --quick --reps 2 2>&1)
if ! grep -q '^PASSED' <<<"$out" || [ "$(grep -c "SKMD_DECISIONS=$tmp/none/dec: " <<<"$out")" != 1 ]; then
    say FAIL "unwritable file: $(tail -3 <<<"$out")"
else
    say PASS "an unwritable SKMD_DECISIONS is warned about once; the app PASSED"
fi
exit $fail
