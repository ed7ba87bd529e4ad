#!/bin/bash
# tests/threads/test-threads.sh SECONDS PRELOAD BIN COMPILER: the threads test under libskmd on two
# PoCL devices with uneven shares; passes when every result was right and launches were
# really split (from the log).
set -u
seconds=$1 preload=$2 bin=$3 compiler=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$(POCL_DEVICES="pthread pthread" POCL_CPU_MAX_CU_NUM=1 SKMD_CACHE_DIR="$tmp/cache" SKMD_COMPILER="$compiler" \
      SKMD_SPLIT=0.3,0.7 SKMD_MIN_SPLIT_WORKGROUPS=2 SKMD_LOG="info:$tmp/log" \
      THREADS_TEST_SECONDS="$seconds" LD_PRELOAD="$preload" \
      timeout $((seconds + 120)) "$bin" 2>&1)
rc=$?
splits=$(grep -c ': split ' "$tmp/log" 2>/dev/null)
if [ $rc -ne 0 ] || ! grep -q '^ok ' <<<"$out"; then
    echo "FAIL threads (${seconds}s): rc $rc: $(tail -5 <<<"$out")"
    exit 1
elif [ "${splits:-0}" -eq 0 ]; then
    echo "FAIL threads (${seconds}s): no launch was split"
    exit 1
fi
echo "PASS threads (${seconds}s): $(grep '^ok ' <<<"$out" | cut -d' ' -f2) rounds of 10 threads, $splits split launches"
