#!/bin/bash
# x2: twice the default sizes at f3aea3e, one column, two interleaved rounds (no --balance:
# it does not fit in one call).
# (on the machine: OUT set by the device tool)
. .devpack/env.sh
timeout 570 bench/run.sh --bin-dir bench/pack/examples --setup-nvidia --report --rounds 2 --timeout 40 \
  --reps 6 --scale 2 --column "skmd:SKMD_MODE=split" --out $OUT/i1 > $OUT/i1.log 2>&1; echo rc=$?
grep -E "geomean|below" $OUT/i1/results.md | head -3
grep -E "^\| [a-z_]+ \| [0-9]" $OUT/i1/results.md | cut -d'|' -f2,9-13
cd $OUT && tar czf i.tgz i1 i1.log && rm -rf i1
