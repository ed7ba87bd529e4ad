#!/bin/bash
# x2: staging made ahead (SKMD_TRANSFER_EARLY) against on first use: the first launch of
# syrk and binomial_option, traced, processes alternating; then the default-size bench,
# f3aea3e (skmd) beside b27a06f's code (prev), with --balance.
# (on the machine: OUT set by the device tool; bench/pack/prev holds b27a06f's libskmd.so)
. .devpack/env.sh
mkdir -p $OUT/e /tmp/e
for ex in syrk binomial_option gemm; do
  for i in 1 2 3; do
    for early in 1 0; do
      t=/tmp/e/$ex.$early.$i.json
      a=$(date +%s%N)
      s=$(env SKMD_TRANSFER_EARLY=$early SKMD_PROFILE_DB=/tmp/e/$ex.$early.db SKMD_TRACE=$t \
        LD_PRELOAD=$PWD/bench/pack/libskmd/libskmd.so bench/pack/examples/$ex/$ex --reps 3 | grep -o "ms_best=[0-9.]*")
      s="$s process $(( ($(date +%s%N) - a) / 1000000 )) ms"
      l1=$(bench/pack/tools/skmd-trace --balance $t 2>/dev/null | awk '$1 == 1' | head -1)
      first=$(python3 -c '
import json,sys
ev=json.load(open(sys.argv[1])); ev=ev["traceEvents"] if isinstance(ev,dict) else ev
xs=[e for e in ev if e.get("ph")=="X" and e.get("args",{}).get("launch")==1]
if xs:
  t0=min(e["ts"] for e in xs); print("launch1 %.3f ms" % ((max(e["ts"]+e["dur"] for e in xs)-t0)/1000))
' $t)
      echo "$ex early=$early run=$i $s | $first | $l1" | tee -a $OUT/e/first.txt
    done
  done
done
timeout 380 bench/run.sh --bin-dir bench/pack/examples --setup-nvidia --report --balance --rounds 2 --timeout 40 \
  --reps 8 --column "skmd:SKMD_MODE=split" --column "prev:SKMD_MODE=split LD_PRELOAD=$PWD/bench/pack/prev/libskmd.so" \
  --out $OUT/e1 > $OUT/e1.log 2>&1; echo rc=$?
grep -E "geomean|below" $OUT/e1/results.md | head -4
grep -E "^\| (binomial_option|syrk) " $OUT/e1/reports/decisions.md 2>/dev/null $OUT/e1/results.md | tail -4
cd $OUT && tar czf e.tgz e e1 e1.log && rm -rf e e1
