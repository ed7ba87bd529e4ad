#!/bin/bash
# H100: call graphs of the app thread, scan_large_arrays, default against the H100 alone.
. .devpack/env.sh
P=$PWD/.devpack/perf; export LD_LIBRARY_PATH=$P/lib
L=$PWD/bench/pack/libskmd/libskmd.so
for ex in scan_large_arrays gemm; do
  for col in default one; do
    extra=""; [ $col = one ] && extra="SKMD_DEVICES=1:0"
    env $extra SKMD_PROFILE_DB=/tmp/p.$col.db LD_PRELOAD=$L bench/pack/examples/$ex/$ex --reps 20 >/dev/null 2>&1
    env $extra SKMD_PROFILE_DB=/tmp/p.$col.db LD_PRELOAD=$L $P/perf record -q -e cpu-clock:u -F 10000 \
      --call-graph dwarf,32768 -o /tmp/$ex.$col.data bench/pack/examples/$ex/$ex --reps 300 2>&1 | grep RESULT
    pid=$($P/perf script -i /tmp/$ex.$col.data -F pid 2>/dev/null | head -1 | tr -d ' ')
    $P/perf report -i /tmp/$ex.$col.data --tid $pid --children -n --percentage relative --stdio --sort symbol \
      -g none --percent-limit 1.5 2>/dev/null | grep -v "^#" | grep . | cut -c1-150 | head -70 > $OUT/$ex.$col.children.txt
    $P/perf report -i /tmp/$ex.$col.data --tid $pid --no-children -n --percentage relative --stdio --sort symbol \
      -S pthread_mutex_lock,__vdso_clock_gettime,pthread_mutex_unlock -g caller,0.5,callee,function,percent --percent-limit 0.5 2>/dev/null | grep -v "^#" | grep . | cut -c1-150 | head -120 > $OUT/$ex.$col.locks.txt
  done
done
cd $OUT && tar czf perfg.tgz *.txt && rm -f *.txt
