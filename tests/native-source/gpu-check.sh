#!/bin/bash
# tests/native-source/gpu-check.sh: shares from the app's source on the NVIDIA machine
# (not run by CI). Build here with the LLVM the GPU machine's PoCL links:
#   make LLVM_VERSION=16 -j2
# then carry the build outputs (libskmd/libskmd.so, tools/skmd-opt, tests/split/adversarial,
# examples/*/*) and run, from the repository root:
#   tests/native-source/gpu-check.sh
# 1. the split adversarial set on the GPUs only (SKMD_DEVICES=gpu; needs 2 GPUs) and on
#    CPU + GPUs, every NVIDIA member on the source route (SKMD_SHARE_BUILD=auto): the
#    dumped buffers byte-identical to a native run on GPU 0 (its kernels are exact in
#    float, so every device writes the same bytes);
# 2. every example --quick on CPU + GPUs: PASSED, with its split launches counted.
# How launches ran is read from the decision log (tests/common/decisions.py); source
# builds from the debug log (the decision log does not say how a share was built).
# Prints PASS/FAIL lines; exit status 0 when nothing failed.
set -u
cd "$(dirname "$0")/../.."
vendors=$(mktemp -d) nv=$(mktemp -d) tmp=$(mktemp -d)
trap 'rm -rf "$vendors" "$nv" "$tmp"' EXIT
# NVIDIA's ICD file is missing there: make the vendors folders the loader reads.
echo libnvidia-opencl.so.1 >"$vendors/nvidia.icd"
echo libnvidia-opencl.so.1 >"$nv/nvidia.icd"
cp /etc/OpenCL/vendors/pocl.icd "$vendors/"
export SKMD_CACHE_DIR="$tmp/cache" SKMD_SHARE_BUILD=${SKMD_SHARE_BUILD:-auto}
preload=$PWD/libskmd/libskmd.so
fail=0
say() { local r=$1; shift; echo "$r gpu-check: $*"; [ "$r" = PASS ] || fail=1; }
# EXPR: how many launches of the last run make it true (its decision log).
dec() { python3 tests/common/decisions.py "$tmp/dec" count "$1"; }

OCL_ICD_VENDORS=$nv tests/split/adversarial "$tmp/native.bin" >/dev/null ||
    { say FAIL "native run on the GPU failed"; exit 1; }
for devices in gpu ""; do
    rm -f "$tmp/log" "$tmp/dec"
    OCL_ICD_VENDORS=$vendors SKMD_DEVICES=$devices SKMD_MIN_SPLIT_WORKGROUPS=2 \
        SKMD_LOG="debug:$tmp/log" SKMD_DECISIONS="$tmp/dec" LD_PRELOAD=$preload \
        tests/split/adversarial "$tmp/split.bin" >/dev/null 2>"$tmp/err" ||
        { say FAIL "[${devices:-all}] run failed: $(tail -3 "$tmp/err")"; continue; }
    splits=$(dec 'r["run"] == "split"')
    builds=$(grep -c 'source build for shares' "$tmp/log")
    if [ "$splits" -eq 0 ] && [ "$(dec 'r["reason"] == "one_member"')" -gt 0 ]; then
        echo "SKIP gpu-check: [${devices:-all}] one member device"
    elif ! cmp -s "$tmp/native.bin" "$tmp/split.bin"; then
        say FAIL "[${devices:-all}] adversarial output differs from the native GPU run"
    elif [ "$splits" -eq 0 ] || [ "$builds" -eq 0 ]; then
        say FAIL "[${devices:-all}] $splits launches split, $builds source builds"
    else
        say PASS "[${devices:-all}] adversarial byte-identical, $splits of 16 split," \
            "$builds source builds"
    fi
    grep -E 'no shares|cannot build' "$tmp/log" | sort | uniq -c | head -5
done
for d in examples/*/; do
    b=$d$(basename "$d")
    [ -x "$b" ] || continue
    rm -f "$tmp/log" "$tmp/dec"
    out=$(OCL_ICD_VENDORS=$vendors SKMD_LOG="debug:$tmp/log" SKMD_DECISIONS="$tmp/dec" \
        LD_PRELOAD=$preload \
        "$b" --quick --reps 1 2>&1)
    if grep -q '^PASSED' <<<"$out"; then
        say PASS "$(basename "$b"): $(dec 'r["run"] == "split"') split," \
            "$(dec 'r["run"] == "whole"') whole, $(grep -c 'source build' "$tmp/log")" \
            "source builds"
    else
        say FAIL "$(basename "$b"): $(tail -3 <<<"$out")"
    fi
done
exit $fail
