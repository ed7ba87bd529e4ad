#!/bin/bash
# tests/threads/test-threads.sh SECONDS PRELOAD BIN COMPILER: the threads test under
# libskmd (COMPILER: its skmd-opt) on two PoCL devices with uneven shares; passes when every result was right and launches were
# really split, and the decision log that the threads' launches wrote at once holds one
# whole JSON line per launch (SKMD_DECISIONS, tests/common/decisions.py check).
set -u
seconds=$1 preload=$2 bin=$3 compiler=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # SECONDS: the test under libskmd, output on stdout
    POCL_DEVICES="pthread pthread" POCL_CPU_MAX_CU_NUM=1 SKMD_CACHE_DIR="$tmp/cache" \
        SKMD_COMPILER="$compiler" SKMD_SPLIT=0.3,0.7 SKMD_MIN_SPLIT_WORKGROUPS=2 \
        SKMD_LOG="info:$tmp/log" SKMD_DECISIONS="$tmp/dec" THREADS_TEST_SECONDS="$1" LD_PRELOAD="$preload" \
        timeout $((${1%.*} + 120)) "$bin" 2>&1
}
# A short first run with leak checks off: PoCL links new kernels with ld, which inherits
# LD_PRELOAD and would fail on its own leaks under SAN=1; then PoCL's cache has them.
ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" run 0.2 >/dev/null
rm -f "$tmp/log" "$tmp/dec"
out=$(run "$seconds")
rc=$?
dec() { /usr/bin/python3 "$(dirname "$0")/../common/decisions.py" "$tmp/dec" "$@"; }
lines=$(dec check 2>&1)
splits=$(dec count 'r["split"]' 2>/dev/null)
if [ $rc -ne 0 ] || ! grep -q '^ok ' <<<"$out"; then
    report=$(grep -m1 -A40 'WARNING: ThreadSanitizer' <<<"$out")
    echo "FAIL threads (${seconds}s${SKMD_CONTEXTS:+, SKMD_CONTEXTS=$SKMD_CONTEXTS}): rc $rc: ${report:-$(tail -5 <<<"$out")}"
    exit 1
elif ! [ "$lines" -gt 0 ] 2>/dev/null; then
    echo "FAIL threads (${seconds}s): the decision log: $(tail -3 <<<"$lines")"
    exit 1
elif [ "${splits:-0}" -eq 0 ]; then
    echo "FAIL threads (${seconds}s): no launch was split"
    exit 1
fi
echo "PASS threads (${seconds}s${SKMD_CONTEXTS:+, SKMD_CONTEXTS=$SKMD_CONTEXTS}): $(grep '^ok ' <<<"$out" | cut -d' ' -f2) rounds of 10 threads, $splits split launches of $lines in the decision log"
