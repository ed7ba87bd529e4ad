#!/bin/bash
# x2: default sizes, finish offsets kept in the profile database (skmd, 7fa1091) beside
# offsets kept in memory only (prev, b27a06f's code), both with --balance; bench.py gives each
# column its own profile database.
# (on the machine: OUT set by the device tool; bench/pack/prev holds b27a06f's libskmd.so)
. .devpack/env.sh
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv > $OUT/gpus.txt 2>&1
timeout 560 bench/run.sh --bin-dir bench/pack/examples --setup-nvidia --report --balance --rounds 2 --timeout 40 \
  --reps 8 --column "skmd:SKMD_MODE=split" --column "prev:SKMD_MODE=split LD_PRELOAD=$PWD/bench/pack/prev/libskmd.so" \
  --out $OUT/d1 > $OUT/d1.log 2>&1; echo rc=$?
tail -48 $OUT/d1/results.md
for t in $OUT/d1/reports/{binomial_option,syrk}.*.trace.json; do echo "== $t"; bench/pack/tools/skmd-trace --balance $t | tail -14; done
cd $OUT && tar czf d.tgz d1 d1.log gpus.txt && rm -rf d1
