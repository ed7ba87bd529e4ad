#!/bin/bash
# tests/transform/test-clstd.sh PRELOAD CLSTD: the OpenCL C version and extensions of split
# programs. clstd's kernels (#ifdef cl_khr_fp16, half storage, -cl-std=CL2.0 and CL3.0, no
# -cl-std) run natively on one PoCL device, then under libskmd on 2 and 3 devices with
# forced uneven shares: byte-identical output, and every launch split (a split program
# that fails to build on a member would leave its launches whole).
set -u
preload=$1 bin=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export POCL_CPU_MAX_CU_NUM=1 SKMD_CACHE_DIR="$tmp/cache"
fail=0
say() { echo "$1 transform-clstd: $2"; [ "$1" = PASS ] || fail=1; }

POCL_DEVICES=pthread "$bin" "$tmp/native.bin" 2>"$tmp/err" ||
    { say FAIL "native run failed: $(tail -3 "$tmp/err")"; exit 1; }
for devs in "pthread pthread" "pthread pthread basic"; do
    rm -f "$tmp/log" "$tmp/dec"
    POCL_DEVICES="$devs" SKMD_SPLIT="0.3,0.5,0.2" SKMD_MIN_SPLIT_WORKGROUPS=2 \
        SKMD_LOG="info:$tmp/log" SKMD_DECISIONS="$tmp/dec" LD_PRELOAD="$preload" \
        "$bin" "$tmp/split.bin" 2>"$tmp/err" ||
        { say FAIL "[$devs] run failed: $(tail -3 "$tmp/err")"; continue; }
    splits=$(/usr/bin/python3 "$(dirname "$0")/../common/decisions.py" "$tmp/dec" count \
        'r["run"] == "split"')
    if ! cmp -s "$tmp/native.bin" "$tmp/split.bin"; then
        say FAIL "[$devs] output differs from the native run: $(cmp "$tmp/native.bin" "$tmp/split.bin")"
    # A log read: the build failure's own message, which the FAIL line shows.
    elif grep -q 'could not build libskmd.s split version\|not splittable' "$tmp/log"; then
        say FAIL "[$devs] $(grep -m1 'could not build libskmd.s split version\|not splittable' "$tmp/log")"
    elif [ "$splits" -ne 4 ]; then
        say FAIL "[$devs] $splits of 4 launches split"
    else
        say PASS "[$devs] byte-identical, 4 launches split"
    fi
done
exit $fail
