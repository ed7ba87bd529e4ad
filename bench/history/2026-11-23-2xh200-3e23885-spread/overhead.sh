#!/bin/bash
# Whole-launch overhead: scan_large_arrays and reduction natively and under variants.
. .devpack/env.sh
L=bench/pack/libskmd/libskmd.so
for ex in scan_large_arrays reduction; do
  B=bench/pack/examples/$ex/$ex
  rm -f /tmp/o*.db
  for i in 1 2 3; do
    $B --device 1:0 --scale 2 --reps 10 | grep RESULT | sed "s/^/$ex native /"
    SKMD_PROFILE_DB=/tmp/o1.db LD_PRELOAD=$L $B --scale 2 --reps 10 | grep RESULT | sed "s/^/$ex skmd /"
    SKMD_PROFILE_DB=/tmp/o2.db SKMD_APP_TRANSFERS=driver LD_PRELOAD=$L $B --scale 2 --reps 10 | grep RESULT | sed "s/^/$ex driver /"
    SKMD_PROFILE_DB=/tmp/o3.db SKMD_DEVICES=1:0 LD_PRELOAD=$L $B --scale 2 --reps 10 | grep RESULT | sed "s/^/$ex gpu0only /"
    SKMD_PROFILE_DB=/tmp/o4.db SKMD_MODE=passthrough SKMD_DEVICES=1:0 LD_PRELOAD=$L $B --scale 2 --reps 10 | grep RESULT | sed "s/^/$ex passthrough /"
  done
done
