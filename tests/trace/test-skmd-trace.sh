#!/bin/bash
# tests/trace: skmd-trace draws a three-device trace (one lane per device, well-formed SVG,
# a PNG), sums it up per kernel and device, and rejects bad input with a clear message.
# usage: test-skmd-trace.sh SKMD_TRACE_TOOL MAKE_TRACE WORKDIR
set -u
tool=$1 make_trace=$2 work=$3
fail=0
check() { local what=$1; shift; if ! "$@"; then echo "FAIL skmd-trace: $what"; fail=1; fi; }
rm -rf "$work" && mkdir -p "$work"

SKMD_TRACE=$work/three.json "$make_trace" 3 5 || { echo "FAIL skmd-trace: no trace made"; exit 1; }
check "svg" "$tool" --svg "$work/three.svg" --title 'three <devices> & "quotes"' "$work/three.json"
check "svg is not what it should be" /usr/bin/python3 tests/trace/check-svg.py "$work/three.svg" \
  'GPU 0: Tesla \ fast' 'GPU 1: slower' 'CPU: pthread'
check "one launch" "$tool" --svg "$work/one.svg" --launch 2 "$work/three.json"
check "svg of one launch" /usr/bin/python3 tests/trace/check-svg.py "$work/one.svg" \
  'GPU 0: Tesla \ fast' 'GPU 1: slower' 'CPU: pthread'
# --rows: one row per launch (make-trace numbers them from 0; 0, no launch, is left out)
check "rows" "$tool" --rows --svg "$work/rows.svg" "$work/three.json"
check "rows are not one per launch" /usr/bin/python3 -c '
import sys, xml.dom.minidom
doc = xml.dom.minidom.parse(sys.argv[1])
rows = [g for g in doc.getElementsByTagName("g") if g.getAttribute("class") == "row"]
assert [int(g.getAttribute("data-launch")) for g in rows] == [1, 2, 3, 4], rows
for g in rows:
    spans = [r for r in g.getElementsByTagName("rect") if r.getAttribute("class").startswith("span")]
    assert spans and all(float(r.getAttribute("width")) > 0 for r in spans), g.getAttribute("data-launch")
' "$work/rows.svg"
check "png" "$tool" --png "$work/three.png" "$work/three.json"
check "png is not a PNG" bash -c "head -c 8 '$work/three.png' | od -An -c | grep -q 'P   N   G'"

# summary: per kernel and device; make-trace gives device d (d+1)/6 of 1024 work-groups
out=$("$tool" --summary "$work/three.json")
check "summary header: $out" grep -q "^trace: 50 spans on 3 lanes" <<<"$out"
check "summary of GPU 0: $out" grep -qE '^saxpy "v2" +GPU 0: Tesla \\ fast +5 +855 ' <<<"$out"
check "summary of the CPU: $out" grep -qE '^saxpy "v2" +CPU: pthread +5 +2560 ' <<<"$out"

# bad input: a message that names the file and the problem, exit 1, no crash
printf '{"traceEvents": [ {"ph": "X", ' > "$work/cut.json"
err=$("$tool" "$work/cut.json" 2>&1); rc=$?
check "cut JSON: rc $rc" test $rc -eq 1
check "cut JSON message: $err" grep -q "cut.json is not valid JSON: line 1 column" <<<"$err"
echo '{"other": 1}' > "$work/other.json"
err=$("$tool" "$work/other.json" 2>&1)
check "not a trace message: $err" grep -q 'no "traceEvents" array' <<<"$err"
err=$("$tool" "$work/missing.json" 2>&1)
check "missing file message: $err" grep -q "cannot open .*missing.json" <<<"$err"
err=$("$tool" --launch 999 "$work/three.json" 2>&1)
check "empty launch message: $err" grep -q "no complete .* of that launch" <<<"$err"
err=$("$tool" --width 5 "$work/three.json" 2>&1)
check "bad width message: $err" grep -q "from 400 to 20000" <<<"$err"
check "--help" bash -c "'$tool' --help | grep -q '^usage: skmd-trace'"
[ $fail = 0 ] && echo "PASS test-skmd-trace"
exit $fail
