#!/bin/bash
# Kernel patterns of public OpenCL programs (patterns.py) natively on one PoCL device, then
# under libskmd on two and three PoCL devices with forced shares, both share routes (ir:
# the partition-ready kernel; source: the app's source built by the member, the route of
# NVIDIA members) and without zero-copy (every member's copy is its own, as on a GPU, so
# every footprint moves bytes). Every buffer must be byte-identical to the native run.
# Usage: run.sh LIBSKMD_PRELOAD OUT_DIR
set -u
cd "$(dirname "$0")/../.."
preload=$1 out=$2
rm -rf "$out" && mkdir -p "$out"
export POCL_CPU_MAX_CU_NUM=1
export XDG_CACHE_HOME="$out/cache" SKMD_PROFILE_DB="$out/profile.db"
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"   # python's own leaks are not ours
py=/usr/bin/python3
POCL_DEVICES=pthread timeout 300 $py tests/patterns/patterns.py "$out/native" \
  2> "$out/native.stderr" || { echo "FAIL patterns: the native run failed"; tail -5 "$out/native.stderr"; exit 1; }

# name | POCL_DEVICES | libskmd's controls
configs=(
  "2 equal|pthread pthread|SKMD_POLICY=equal"
  "2 uneven, no zero-copy|pthread pthread|SKMD_SPLIT=0.2,0.8 SKMD_ZERO_COPY=0"
  "2 uneven, source route|pthread pthread|SKMD_SPLIT=0.7,0.3 SKMD_SHARE_BUILD=source SKMD_ZERO_COPY=0"
  "3 equal, source route|pthread pthread basic|SKMD_POLICY=equal SKMD_SHARE_BUILD=source"
  "3 uneven, no zero-copy|pthread pthread basic|SKMD_SPLIT=0.5,0.2,0.3 SKMD_ZERO_COPY=0"
  "3 uneven, contexts of their own|pthread pthread basic|SKMD_SPLIT=0.3,0.4,0.3 SKMD_CONTEXTS=device SKMD_ZERO_COPY=0"
)
rc=0
for c in "${configs[@]}"; do
  IFS='|' read -r name devices controls <<< "$c"
  tag=${name//[^a-z0-9]/_}
  env $controls POCL_DEVICES="$devices" SKMD_TRACE="$out/$tag.trace.json" LD_PRELOAD="$preload" \
    timeout 300 $py tests/patterns/patterns.py "$out/$tag" 2> "$out/$tag.stderr"
  $py tests/patterns/compare.py "$out/native" "$out/$tag" "$out/$tag.trace.json" \
    "$name" "$out/results.jsonl" || { rc=1; tail -n 5 "$out/$tag.stderr"; }
done
exit $rc
