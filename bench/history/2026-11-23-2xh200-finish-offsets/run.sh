#!/bin/bash
# x2: default sizes, a profile database per column, finish offsets (skmd) beside HEAD 2cc8e3a (base), both with --balance.
# (on the machine: OUT set by the device tool; bench/pack/base holds 2cc8e3a's libskmd.so)
timeout 560 bench/run.sh --bin-dir bench/pack/examples --setup-nvidia --report --balance --rounds 2 --timeout 40 \
  --reps 8 --column "skmd:SKMD_MODE=split SKMD_PROFILE_DB=/tmp/skmd-a.db" --column "base:SKMD_MODE=split SKMD_PROFILE_DB=/tmp/skmd-b.db LD_PRELOAD=$PWD/bench/pack/base/libskmd.so" \
  --out $OUT/s1 > $OUT/s1.log 2>&1; echo rc=$?
tail -48 $OUT/s1/results.md
cd $OUT && tar czf c.tgz s1 s1.log && rm -rf s1
