#!/bin/bash
# Runs each API program natively and under libskmd, on POCL_DEVICES=pthread and on
# "pthread pthread basic", and requires: both runs succeed and print the same thing on
# stdout (stderr is kept beside, not compared).
# Usage: run.sh NAME...   Env: O (build prefix), PRELOAD_SKMD (LD_PRELOAD value for libskmd).
set -u
cd "$(dirname "$0")/../.."
out="${O}tests/api/out"             # kept, so that a failure can be read
rm -rf "$out" && mkdir -p "$out"
export POCL_CPU_MAX_CU_NUM=1
failures=0
for name in "$@"; do
  bin="${O}tests/api/$name"
  for devices in "pthread" "pthread pthread basic"; do
    tag="$name.${devices// /-}"
    POCL_DEVICES="$devices" timeout 60 "$bin" > "$out/$tag.native" 2> "$out/$tag.native.err"; native_rc=$?
    POCL_DEVICES="$devices" LD_PRELOAD="$PRELOAD_SKMD" timeout 60 "$bin" > "$out/$tag.skmd" 2> "$out/$tag.skmd.err"; skmd_rc=$?
    if [ $native_rc != 0 ]; then
      echo "FAIL api $name [$devices]: native run failed (rc $native_rc), see $out/$tag.native"
      tail -n 3 "$out/$tag.native" "$out/$tag.native.err"; failures=$((failures + 1))
    elif [ $skmd_rc != 0 ]; then
      echo "FAIL api $name [$devices]: run under libskmd failed (rc $skmd_rc), see $out/$tag.skmd"
      tail -n 3 "$out/$tag.skmd" "$out/$tag.skmd.err"; failures=$((failures + 1))
    elif ! diff -u "$out/$tag.native" "$out/$tag.skmd" > "$out/$tag.diff"; then
      echo "FAIL api $name [$devices]: output differs under libskmd ($out/$tag.diff):"
      head -20 "$out/$tag.diff"; failures=$((failures + 1))
    else
      echo "PASS api $name [$devices]"
    fi
  done
done
exit $((failures != 0))
