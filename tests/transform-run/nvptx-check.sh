#!/bin/bash
# The sub-range checks of tests/transform-run on the NVIDIA OpenCL platform (PTX from
# skmd-opt --lower=nvptx), for the GPU machine, which has libLLVM-16 and clang-16 but no
# LLVM headers or libclc. Build here first, with the LLVM the GPU machine has:
#   make LLVM_VERSION=16 tools/skmd-opt tests/transform-run/subrange
#   cp /usr/lib/clc/nvptx64--nvidiacl.bc tests/transform-run/
# then carry tools/skmd-opt, tests/transform-run/subrange and
# tests/transform-run/nvptx64--nvidiacl.bc there and run, from the repository root:
#   tests/transform-run/nvptx-check.sh [OUT_DIR]
# Three lowerings are checked, each against NVIDIA's own build of the same source:
#   nvidia     the default (floating point as NVIDIA's OpenCL compiler: fma contraction,
#              div.full.f32, sqrt.approx.f32, NVIDIA's exp, log, pown and half
#              conversions; libclc's other math)
#   strict     --nvptx-fp strict (LLVM's correctly rounded div/sqrt, no contraction
#              across statements)
#   libdevice  the default plus --libdevice (NVIDIA's libdevice.10.bc for exp2, sin, pow...;
#              found under /usr/local/cuda*, or LIBDEVICE=PATH; skipped when absent)
# Prints PASS/FAIL/SKIP per kernel and split of the default, the first differing element of
# each failure with both values, then per lowering the count of failures and which kernels
# failed, and per corpus file the floating-point instructions of NVIDIA's own PTX next to
# skmd-opt's (div, sqrt, rcp, ex2, lg2, fma...). OUT_DIR (default a temporary folder) gets
# NVIDIA's PTX (NAME.cl.native) and skmd-opt's (NAME.cl.VARIANT.ptx). Exit status 0 when
# the default lowering had no failure.
set -u
cd "$(dirname "$0")/../.."
libclc=${LIBCLC:-tests/transform-run/nvptx64--nvidiacl.bc}
clang=${CLANG:-$(command -v clang-16 || command -v clang)}
libdevice=${LIBDEVICE:-$(ls /usr/local/cuda*/nvvm/libdevice/libdevice.10.bc \
  /usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc 2>/dev/null | head -1)}
[ -f "$libclc" ] || { echo "nvptx-check: no libclc at $libclc (set LIBCLC)" >&2; exit 2; }
out=${1:-$(mktemp -d)}
mkdir -p "$out/native"
# NVIDIA's ICD file is missing there: make a vendors folder the loader reads.
vendors=$(mktemp -d)
echo libnvidia-opencl.so.1 >"$vendors/nvidia.icd"
export OCL_ICD_VENDORS="$vendors"
work=$(mktemp -d)
trap 'rm -rf "$vendors" "$work"' EXIT
corpus=(tests/transform/corpus/*.cl)

variants=(nvidia strict)
[ -n "$libdevice" ] && [ -f "$libdevice" ] && variants+=(libdevice)
status=0
for v in "${variants[@]}"; do
    args="--libclc $libclc --clang $clang"
    [ "$v" = strict ] && args="$args --nvptx-fp strict"
    [ "$v" = libdevice ] && args="$args --libdevice $libdevice"
    dump=()
    [ "$v" = nvidia ] && dump=(--dump-native "$out/native")
    timeout 100 tests/transform-run/subrange --target nvptx --platform NVIDIA \
        --skmd-opt tools/skmd-opt --skmd-opt-args "$args" --cache "$work/cache-$v" \
        "${dump[@]}" "${corpus[@]}" >"$work/$v.log" 2>&1
    rc=$?
    if [ "$v" = nvidia ]; then
        # each failure's first differing element once, then the verdicts
        grep -E '^  (sequential|separate):' "$work/$v.log" | sort -u
        grep -E '^(PASS|FAIL|SKIP)' "$work/$v.log"
        [ $rc -eq 0 ] || status=1
    fi
    fails=$(grep -c '^FAIL' "$work/$v.log")
    passes=$(grep -c '^PASS' "$work/$v.log")
    failed=$(grep '^FAIL' "$work/$v.log" | awk '{print $2 ":" $3}' | sed 's|.*/||' | sort -u |
             tr '\n' ' ')
    echo "== lowering $v: $passes passed, $fails failed${failed:+: $failed}"
    [ $rc -eq 124 ] && echo "== lowering $v: stopped after 100 s"
    for f in "${corpus[@]}"; do
        tools/skmd-opt $args --partition-ready --lower=nvptx -o "$out/$(basename "$f").$v.ptx" \
            "$f" 2>/dev/null
    done
done

# The floating-point instructions of each PTX, as "name=count" words.
fp_ops() {
    grep -oE '\b(div|sqrt|rsqrt|rcp|ex2|lg2|sin|cos|tanh|fma|mad)\.[a-z0-9.]*f(32|64)\b' "$1" |
        sort | uniq -c | awk '{printf "%s=%s ", $2, $1}'
}
echo "== floating-point instructions: NVIDIA's PTX | skmd-opt's (default lowering)"
for f in "${corpus[@]}"; do
    b=$(basename "$f")
    [ -s "$out/native/$b.native" ] || continue
    theirs=$(fp_ops "$out/native/$b.native")
    ours=$([ -s "$out/$b.nvidia.ptx" ] && fp_ops "$out/$b.nvidia.ptx")
    [ -n "$theirs$ours" ] && echo "$b: $theirs| $ours"
done
echo "PTX in $out"
exit $status
