#!/bin/bash
# tests/transfer/test-paths.sh PRELOAD SKMD_OPT MOVED_BIN: runs tests/split's moved program
# (vadd split 30/70 on two PoCL devices) under libskmd and checks, from the transfer
# engine's totals at exit, which path carried the bytes: by default member 1's bytes are
# zero-copy and nothing is staged; with SKMD_ZERO_COPY=0 SKMD_TRANSFER_STAGE_CPU=1
# SKMD_PEER_COPY=0 and small chunks everything that moves is staged, in more than one chunk,
# and nothing is zero-copy; and that the staging buffers were made ahead, not by the
# transfers (SKMD_TRANSFER_EARLY).
set -u
preload=$1 opt=$2 moved=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# totals ENV...: prints "staged chunks direct zero_copy" of one run. A log read: the
# engine's totals by path have no field in the decision log (it has bytes per launch).
totals() {
    env POCL_DEVICES="pthread pthread" POCL_CPU_MAX_CU_NUM=1 SKMD_SPLIT=0.3,0.7 \
        SKMD_COMPILER="$opt" SKMD_CACHE_DIR="$tmp/cache" SKMD_LOG="info:$tmp/log" "$@" \
        LD_PRELOAD="$preload" "$moved" >/dev/null 2>&1 || echo "run failed" >&2
    sed -n 's/.*transfer engine: \([0-9]*\) bytes staged in \([0-9]*\) chunks, \([0-9]*\) direct, \([0-9]*\) zero-copy.*/\1 \2 \3 \4/p' "$tmp/log" | tail -1
    rm -f "$tmp/log"
}

read -r staged chunks direct zc <<<"$(totals)"
if [ -z "${zc:-}" ] || [ "$zc" -eq 0 ] || [ "$staged" -ne 0 ]; then
    echo "FAIL transfer-paths: default: staged ${staged:-?} zero-copy ${zc:-?} (want 0 and > 0)"
    fail=1
else
    echo "PASS transfer-paths: default: $zc bytes zero-copy, $direct direct, none staged"
fi

# Peer copies off: member-to-member bytes go through the engine (two staged transfers).
read -r staged chunks direct zc <<<"$(totals SKMD_ZERO_COPY=0 SKMD_TRANSFER_STAGE_CPU=1 \
    SKMD_TRANSFER_DIRECT_KIB=0 SKMD_TRANSFER_CHUNK_KIB=64 SKMD_PEER_COPY=0)"
if [ -z "${zc:-}" ] || [ "$staged" -eq 0 ] || [ "$chunks" -lt 2 ] || [ "$zc" -ne 0 ]; then
    echo "FAIL transfer-paths: staged: staged ${staged:-?} in ${chunks:-?} chunks, zero-copy ${zc:-?}"
    fail=1
else
    echo "PASS transfer-paths: staged: $staged bytes in $chunks chunks, no zero-copy"
fi
# Staging buffers made ahead: the context's thread makes both directions' of each member
# (SKMD_TRANSFER_EARLY=1, the default), so no staged transfer makes its own; with 0 the
# first transfer of each member and direction does.
# A log read: staging buffers are no launch's, so no decision record says when they were made.
staging() { # staging EARLY: "AHEAD ON_FIRST_USE" counts of the log's lines
    env POCL_DEVICES="pthread pthread" POCL_CPU_MAX_CU_NUM=1 SKMD_SPLIT=0.3,0.7 \
        SKMD_COMPILER="$opt" SKMD_CACHE_DIR="$tmp/cache" SKMD_LOG="debug:$tmp/log" \
        SKMD_ZERO_COPY=0 SKMD_TRANSFER_STAGE_CPU=1 SKMD_TRANSFER_DIRECT_KIB=0 \
        SKMD_TRANSFER_CHUNK_KIB=64 SKMD_PEER_COPY=0 SKMD_TRANSFER_EARLY="$1" \
        LD_PRELOAD="$preload" "$moved" >/dev/null 2>&1 || echo "run failed" >&2
    echo "$(grep -c 'staging buffers of member .* made ahead' "$tmp/log")" \
         "$(grep -c 'staging buffers of member .* made on first use' "$tmp/log")"
    rm -f "$tmp/log"
}
read -r ahead first <<<"$(staging 1)"
read -r ahead0 first0 <<<"$(staging 0)"
if [ "$ahead" != 4 ] || [ "$first" != 0 ] || [ "$ahead0" != 0 ] || [ "$first0" -lt 2 ]; then
    echo "FAIL transfer-paths: staging made ahead $ahead, on first use $first (want 4 and 0);" \
         "with SKMD_TRANSFER_EARLY=0: $ahead0 and $first0 (want 0 and 2 or more)"
    fail=1
else
    echo "PASS transfer-paths: staging of both members made ahead in both directions, none on" \
         "first use ($first0 on first use with SKMD_TRANSFER_EARLY=0)"
fi
exit $fail
