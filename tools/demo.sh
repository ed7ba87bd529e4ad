#!/bin/sh
# `make demo`: run an example natively, then under libskmd on all local devices.
set -e
cd "$(dirname "$0")/.."
app=examples/vector_add/vector_add
echo "== native run on one device"
$app --reps 3
if [ -f libskmd/libskmd.so ]; then
  echo "== the same binary under libskmd (LD_PRELOAD=libskmd/libskmd.so)"
  SKMD_REPORT=1 LD_PRELOAD=$PWD/libskmd/libskmd.so $app --reps 3
else
  echo "libskmd/libskmd.so is not built yet"
fi
