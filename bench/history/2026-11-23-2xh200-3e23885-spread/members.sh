#!/bin/bash
# Whole launches: does the set of members cost time? Native vs libskmd over member sets.
. .devpack/env.sh
L=bench/pack/libskmd/libskmd.so
for ex in scan_large_arrays vector_add blackscholes quasi_random_sequence matrix_transpose; do
  B=bench/pack/examples/$ex/$ex
  rm -f /tmp/o*.db
  for i in 1 2; do
    $B --device 1:0 --scale 2 --reps 8 | grep RESULT | sed "s/^/$ex native /"
    SKMD_PROFILE_DB=/tmp/o1.db LD_PRELOAD=$L $B --scale 2 --reps 8 | grep RESULT | sed "s/^/$ex all3 /"
    SKMD_PROFILE_DB=/tmp/o2.db SKMD_PINNED_HOST_COPY=0 LD_PRELOAD=$L $B --scale 2 --reps 8 | grep RESULT | sed "s/^/$ex all3-nopinned /"
    SKMD_PROFILE_DB=/tmp/o3.db SKMD_DEVICES=gpu LD_PRELOAD=$L $B --scale 2 --reps 8 | grep RESULT | sed "s/^/$ex 2gpu /"
    SKMD_PROFILE_DB=/tmp/o4.db SKMD_DEVICES=1:0,0:0 LD_PRELOAD=$L $B --scale 2 --reps 8 | grep RESULT | sed "s/^/$ex cpu+gpu /"
    SKMD_PROFILE_DB=/tmp/o5.db SKMD_DEVICES=1:0 LD_PRELOAD=$L $B --scale 2 --reps 8 | grep RESULT | sed "s/^/$ex gpu0 /"
  done
done
SKMD_PROFILE_DB=/tmp/o1.db SKMD_LOG=debug:$OUT/scan-all3.log LD_PRELOAD=$L bench/pack/examples/scan_large_arrays/scan_large_arrays --scale 2 --reps 8 >/dev/null
SKMD_PROFILE_DB=/tmp/o5.db SKMD_LOG=debug:$OUT/scan-gpu0.log LD_PRELOAD=$L bench/pack/examples/scan_large_arrays/scan_large_arrays --scale 2 --reps 8 >/dev/null
SKMD_MODE=passthrough SKMD_DEVICES=1:0 SKMD_LOG=debug:$OUT/pass.log LD_PRELOAD=$L bench/pack/examples/reduction/reduction --scale 2 --reps 2
