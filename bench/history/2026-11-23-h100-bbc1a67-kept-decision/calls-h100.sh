#!/bin/bash
# H100: what each OpenCL call costs natively, under libskmd with the CPU and the H100
# (default), with the H100 alone (SKMD_DEVICES=1:0), three interleaved rounds.
. .devpack/env.sh
L=$PWD/bench/pack/libskmd/libskmd.so B=bench/pack/bench/callcost/call-cost
for r in 1 2 3; do
  $B --device 1:0 --reps 200 | sed "s/^/native $r /"
  SKMD_PROFILE_DB=/tmp/c1.db LD_PRELOAD=$L $B --reps 200 | sed "s/^/default $r /"
  SKMD_PROFILE_DB=/tmp/c2.db SKMD_DEVICES=1:0 LD_PRELOAD=$L $B --reps 200 | sed "s/^/one $r /"
done > $OUT/calls.txt 2>&1
python3 - $OUT/calls.txt <<'PY'
import sys,collections
d=collections.defaultdict(list)
for l in open(sys.argv[1]):
    p=l.split()
    if len(p)>3 and p[2]=="COST":
        kv=dict(x.split("=",1) for x in p[3:] if "=" in x)
        d[(kv["case"],p[0])].append(float(kv["us_median"]))
cases=sorted(set(c for c,_ in d), key=lambda c: list(k for k,_ in d).index(c))
print("| case | native | default | one |")
for c in cases:
    print("| %s | %s |" % (c, " | ".join("%.1f" % min(d.get((c,col),[float('nan')])) for col in ("native","default","one"))))
PY
