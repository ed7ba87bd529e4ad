#!/bin/bash
# x2: process wall time with the staging made ahead (SKMD_TRANSFER_EARLY=1) and without,
# interleaved: vector_add --quick (no staged transfer at all: the sets made ahead go
# unused) and gemm at its default size (staged transfers to the queue's GPU only).
# (on the machine: OUT set by the device tool)
. .devpack/env.sh
run() { # run EARLY EX ARGS...: wall ms of one process
  local early=$1 ex=$2; shift 2
  local a=$(date +%s%N)
  SKMD_TRANSFER_EARLY=$early SKMD_PROFILE_DB=/tmp/f.$ex.$early.db LD_PRELOAD=$PWD/bench/pack/libskmd/libskmd.so \
    bench/pack/examples/$ex/$ex "$@" > /dev/null || echo "FAILED $ex" >&2
  echo $(( ($(date +%s%N) - a) / 1000000 ))
}
for ex in vector_add gemm; do
  args=(--reps 1); [ $ex = vector_add ] && args+=(--quick)
  run 1 $ex "${args[@]}" > /dev/null; run 0 $ex "${args[@]}" > /dev/null  # warm caches
  for i in $(seq 10); do
    for early in 1 0; do echo "$ex $early $(run $early $ex "${args[@]}")"; done
  done
done | tee $OUT/wall.txt | python3 -c '
import sys, statistics as st, collections
d = collections.defaultdict(list)
for line in sys.stdin:
    ex, e, ms = line.split(); d[(ex, e)].append(int(ms))
for (ex, e), v in sorted(d.items()):
    print("%-10s early=%s n=%d median %d ms, min %d, max %d" % (ex, e, len(v), st.median(v), min(v), max(v)))
'
