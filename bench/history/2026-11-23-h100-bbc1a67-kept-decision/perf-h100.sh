#!/bin/bash
# H100: where the default's extra time on whole-GPU launches goes: perf profiles (user
# space) of scan_large_arrays and gemm, default (CPU + H100) against the H100 alone.
. .devpack/env.sh
P=$PWD/.devpack/perf; export LD_LIBRARY_PATH=$P/lib
L=$PWD/bench/pack/libskmd/libskmd.so
$P/perf --version
for ex in scan_large_arrays gemm; do
  for col in default one; do
    extra=""; [ $col = one ] && extra="SKMD_DEVICES=1:0"
    env $extra SKMD_PROFILE_DB=/tmp/p.$col.db LD_PRELOAD=$L bench/pack/examples/$ex/$ex --reps 20 >/dev/null 2>&1
    env $extra SKMD_PROFILE_DB=/tmp/p.$col.db LD_PRELOAD=$L $P/perf record -q -e cpu-clock:u -F 20000 -o /tmp/$ex.$col.data \
      bench/pack/examples/$ex/$ex --reps 400 2>&1 | grep RESULT
    pid=$($P/perf script -i /tmp/$ex.$col.data -F pid 2>/dev/null | head -1 | tr -d ' ')
    $P/perf report -i /tmp/$ex.$col.data --tid $pid -n --percentage relative --stdio --sort dso,symbol --percent-limit 0.3 2>/dev/null | grep -v "^#" | grep . | cut -c1-120 | head -60 > $OUT/$ex.$col.txt
    $P/perf report -i /tmp/$ex.$col.data -n --stdio --sort tid 2>/dev/null | grep -v "^#" | grep . | head -30 > $OUT/$ex.$col.tid.txt
    $P/perf report -i /tmp/$ex.$col.data --tid $pid -n --percentage relative --stdio --sort dso 2>/dev/null | grep -v "^#" | grep . | head -12 > $OUT/$ex.$col.dso.txt
  done
done
head -20 $OUT/*.dso.txt
