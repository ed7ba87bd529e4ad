#!/bin/bash
# tests/patterns/gpu-check.sh: the kernel patterns on the NVIDIA machine (not run by CI).
# Native runs on the CPU (PoCL) and on GPU 0, then under libskmd with forced splits over
# the GPUs alone (byte-identical to GPU 0's native run: identical devices compute alike)
# and over CPU + GPUs (each element what the CPU or a GPU writes natively), the GPUs on
# the source route. Build here with the LLVM of that machine's PoCL
# (make LLVM_VERSION=16 libskmd/libskmd.so tools/skmd-opt), carry libskmd/libskmd.so and
# tools/skmd-opt, run from the repository root: tests/patterns/gpu-check.sh OUT_DIR
# Needs python3 with numpy. Prints PASS/FAIL lines; exit status 0 when nothing failed.
set -u
cd "$(dirname "$0")/../.."
out=${1:-/tmp/patterns-gpu}
rm -rf "$out" && mkdir -p "$out"
all=$out/vendors
mkdir -p "$all"
echo libnvidia-opencl.so.1 >"$all/nvidia.icd"   # that machine has no nvidia.icd
cp /etc/OpenCL/vendors/pocl.icd "$all/"
export SKMD_CACHE_DIR="$out/cache" SKMD_PROFILE_DB="$out/profile.db"
py=${PYTHON:-python3}
preload=$PWD/libskmd/libskmd.so
ngpu=$(OCL_ICD_VENDORS=$all clinfo -l 2>/dev/null | sed -n '/NVIDIA/,$p' | grep -c 'Device #')
# The native runs pick their platform by name: a loader may list PoCL's first whatever
# OCL_ICD_VENDORS says.
OCL_ICD_VENDORS=$all PATTERNS_PLATFORM=NVIDIA $py tests/patterns/patterns.py "$out/native-gpu" \
  2>"$out/native-gpu.err" &&
  OCL_ICD_VENDORS=$all PATTERNS_PLATFORM=Portable $py tests/patterns/patterns.py \
  "$out/native-cpu" 2>"$out/native-cpu.err" ||
  { echo "FAIL patterns-gpu: a native run failed"; tail -3 "$out"/native-*.err; exit 1; }

# name | SKMD_DEVICES | natives to compare with | controls
# (The ir route on NVIDIA needs libclc's nvptx64 bitcode carried there: see
# tests/transform-run/nvptx-check.sh.)
configs=("gpus equal|gpu|native-gpu|SKMD_POLICY=equal"
         "cpu+gpus equal|||SKMD_POLICY=equal"
         "cpu+gpus default policy|||")
if [ "$ngpu" -ge 2 ]; then
  configs+=("gpus uneven|gpu|native-gpu|SKMD_SPLIT=0.3,0.7")
  configs+=("cpu+gpus uneven|||SKMD_SPLIT=0.1,0.5,0.4")
else
  configs+=("cpu+gpu uneven|||SKMD_SPLIT=0.3,0.7")
fi
fail=0
for c in "${configs[@]}"; do
  IFS='|' read -r name devices natives controls <<< "$c"
  [ -n "$natives" ] || natives="native-gpu,native-cpu"
  [ "$devices" = gpu ] && [ "$ngpu" -lt 2 ] && continue
  tag=${name//[^a-z0-9]/_}
  env $controls OCL_ICD_VENDORS=$all SKMD_DEVICES=$devices SKMD_TRACE="$out/$tag.trace.json" \
    SKMD_REPORT=1 LD_PRELOAD=$preload timeout 300 $py tests/patterns/patterns.py "$out/$tag" \
    2>"$out/$tag.err"
  refs=$(tr ',' '\n' <<<"$natives" | sed "s|^|$out/|" | paste -sd,)
  $py tests/patterns/compare.py "$refs" "$out/$tag" "$out/$tag.trace.json" "$name" \
    "$out/results.jsonl" $([ -z "$controls" ] && echo may-run-whole) ||
    { fail=1; tail -n 3 "$out/$tag.err"; }
done
exit $fail
