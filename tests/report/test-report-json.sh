#!/bin/bash
# tests/report: SKMD_REPORT=json (one JSON object on stderr or in SKMD_REPORT_FILE) and the
# exit summary line without SKMD_REPORT (warn level only when the splits lost time).
# usage: test-report-json.sh TEST_REPORT WORKDIR
set -u
bin=$1 work=$2
fail=0
say_fail() { echo "FAIL test-report: $*"; fail=1; }
rm -rf "$work" && mkdir -p "$work"

# JSON on stderr: exactly one line, the object, with the documented keys
SKMD_REPORT=json "$bin" --at-exit 2>"$work/err.json" >/dev/null
[ "$(wc -l <"$work/err.json")" = 1 ] || say_fail "SKMD_REPORT=json: not one line: $(cat "$work/err.json")"
check_json() { # FILE: the at-exit report's keys and figures
    /usr/bin/python3 - "$1" <<'PY' || say_fail "SKMD_REPORT=json in $1: $(cat "$1")"
import json, sys
r = json.load(open(sys.argv[1]))
for key in ("summary", "devices", "kernel_count", "launches", "split_launches", "shares",
            "time_ms", "est_ms", "est_err", "bytes_moved", "split_time_ms",
            "est_single_device_ms", "est_saved_ms", "kernels"):
    assert key in r, key
assert r["launches"] == 1 and r["split_launches"] == 1 and r["kernel_count"] == 1
assert [d["name"] for d in r["devices"]] == ["GPU 0: fast", "CPU: pthread"]
k = r["kernels"][0]
assert k["kernel"] == "at_exit_kernel" and k["decision"] == "split by the partitioner"
assert k["shares"] == [0.3, 0.7] and k["bytes_moved"] == 1024
assert abs(k["est_saved_ms"] - 1.5) < 1e-9 and abs(k["est_single_device_ms"] - 4.0) < 1e-9
assert r["summary"].startswith("1 launch of 1 kernel, 1 split over 2 devices")
PY
}
check_json "$work/err.json"

# JSON in SKMD_REPORT_FILE, nothing on stderr
err=$(SKMD_REPORT=json SKMD_REPORT_FILE="$work/report.json" "$bin" --at-exit 2>&1 >/dev/null)
[ -z "$err" ] || say_fail "SKMD_REPORT_FILE: stderr not empty: $err"
check_json "$work/report.json"

# SKMD_REPORT=1: the summary line first, then the table
out=$(SKMD_REPORT=1 "$bin" --at-exit 2>&1 >/dev/null)
grep -q '^libskmd: 1 launch of 1 kernel, 1 split over 2 devices, 1.0 KiB moved; .* 1.5 ms saved$' \
    <<<"$(head -1 <<<"$out")" || say_fail "SKMD_REPORT=1: no summary line first: $out"

# Without SKMD_REPORT: splits that lost time give one warn line, ones that saved none
out=$("$bin" --lost 2>&1 >/dev/null)
[ "$(wc -l <<<"$out")" = 1 ] && grep -q '^libskmd: warn: 4 launches .* 56.0 ms lost' <<<"$out" ||
    say_fail "lost time: not one warn line: $out"
out=$(SKMD_LOG=info "$bin" --at-exit 2>&1 >/dev/null)
grep -q '^libskmd: info: 1 launch .* saved$' <<<"$out" || say_fail "SKMD_LOG=info: no summary: $out"
exit $fail
