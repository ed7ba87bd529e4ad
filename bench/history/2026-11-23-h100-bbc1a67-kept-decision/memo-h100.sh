#!/bin/bash
# H100: the kept decision (new, bbc1a67) against 27a04c4 (old) and the H100 alone (one),
# interleaved processes; then the launch call's cost under each.
. .devpack/env.sh
NEW=$PWD/bench/pack/new/libskmd.so OLD=$PWD/bench/pack/libskmd/libskmd.so
bench/interleaved.sh --device 1:0 --libskmd $OLD --bin-dir bench/pack/examples --rounds 6 --reps 8 \
  --column "old:" --column "new: LD_PRELOAD=$NEW" --column "one: SKMD_DEVICES=1:0" \
  scan_large_arrays aes_encrypt_decrypt jacobi_2d gemm binomial_option matrix_transpose > $OUT/memo.txt 2>&1
tail -22 $OUT/memo.txt
B=bench/pack/bench/callcost/call-cost
for r in 1 2; do
  for c in old new; do
    L=$OLD; [ $c = new ] && L=$NEW
    SKMD_PROFILE_DB=/tmp/cc.$c.db LD_PRELOAD=$L $B --reps 200 | grep -E "launch|chain4" | sed "s/^/$c $r /"
  done
done | tee $OUT/calls.txt
