#!/bin/sh
# The sub-range checks of tests/transform-run on the NVIDIA OpenCL platform (PTX from
# skmd-opt --lower=nvptx). For the GPU machine, which has libLLVM-16 and clang-16 but no
# LLVM headers or libclc. Build here first, with the LLVM the GPU machine has:
#   make LLVM_VERSION=16 tools/skmd-opt tests/transform-run/subrange
#   cp /usr/lib/clc/nvptx64--nvidiacl.bc tests/transform-run/
# then carry tools/skmd-opt, tests/transform-run/subrange and
# tests/transform-run/nvptx64--nvidiacl.bc there and run, from the repository root:
#   tests/transform-run/nvptx-check.sh
# Prints PASS/FAIL/SKIP per kernel and split; exit status 0 when nothing failed.
set -e
cd "$(dirname "$0")/../.."
libclc=${LIBCLC:-tests/transform-run/nvptx64--nvidiacl.bc}
clang=${CLANG:-$(command -v clang-16 || command -v clang)}
[ -f "$libclc" ] || { echo "nvptx-check: no libclc at $libclc (set LIBCLC)" >&2; exit 2; }
# NVIDIA's ICD file is missing there: make a vendors folder the loader reads.
vendors=$(mktemp -d)
echo libnvidia-opencl.so.1 >"$vendors/nvidia.icd"
export OCL_ICD_VENDORS="$vendors"
cache=$(mktemp -d)
trap 'rm -rf "$vendors" "$cache"' EXIT
tests/transform-run/subrange --target nvptx --platform NVIDIA --skmd-opt tools/skmd-opt \
  --skmd-opt-args "--libclc $libclc --clang $clang" --cache "$cache" \
  tests/transform/corpus/*.cl
