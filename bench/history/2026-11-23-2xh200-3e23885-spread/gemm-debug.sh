#!/bin/bash
# Why the placement estimate proposes gemm's placement in one process and not the next:
# two processes on one database, debug log. x2 machine.
. .devpack/env.sh
rm -f /tmp/g.db
for i in 1 2; do
  SKMD_MODE=split SKMD_PLACE_WRITES=auto SKMD_PROFILE_DB=/tmp/g.db SKMD_LOG=debug:$OUT/g$i.log \
    LD_PRELOAD=bench/pack/libskmd/libskmd.so bench/pack/examples/gemm/gemm --scale 2 --reps 6
done
grep -h "app's writes\|placement\|host's" $OUT/g1.log $OUT/g2.log | head -60
