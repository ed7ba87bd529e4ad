#!/bin/bash
# H100: old against new again, the examples that moved, 8 interleaved rounds.
. .devpack/env.sh
NEW=$PWD/bench/pack/new/libskmd.so OLD=$PWD/bench/pack/libskmd/libskmd.so
bench/interleaved.sh --device 1:0 --libskmd $OLD --bin-dir bench/pack/examples --rounds 8 --reps 8 \
  --column "old:" --column "new: LD_PRELOAD=$NEW" gemm scan_large_arrays matrix_transpose > $OUT/memo2.txt 2>&1
tail -11 $OUT/memo2.txt
