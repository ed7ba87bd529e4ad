#!/bin/bash
# bench/run.sh --merge: two parts' runs.csv (one example each, two native devices, one
# libskmd column, two rounds) make one table with both examples, the fastest device's
# best round, the native spread and the geomean of the column's speedups.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/a" "$tmp/b"
head='example,column,device,size,ms_best,ms_median,status,round'
cat >"$tmp/a/runs.csv" <<CSV
$head
alpha,native,0:0 cpu,64,8.000,8.100,PASSED,1
alpha,native,1:0 gpu,64,2.000,2.100,PASSED,1
alpha,skmd,all,64,1.100,1.200,PASSED,1
alpha,native,0:0 cpu,64,9.000,9.100,PASSED,2
alpha,native,1:0 gpu,64,2.500,2.600,PASSED,2
alpha,skmd,all,64,1.000,1.100,PASSED,2
CSV
cat >"$tmp/b/runs.csv" <<CSV
$head
beta,native,0:0 cpu,32,4.000,4.100,PASSED,1
beta,native,1:0 gpu,32,1.000,1.100,PASSED,1
beta,skmd,all,32,2.000,2.100,PASSED,1
CSV
out=$(bench/run.sh --merge "$tmp/a" "$tmp/b" --out "$tmp/out" 2>&1)
fail=0
bad() { echo "FAIL test-bench-merge: $1"; fail=1; }
# alpha: fastest 1:0 at 2.000 (spread 2.5/2 = 1.25), skmd best 1.000: 2.00x; beta: 0.50x.
grep -q '^| alpha | 64 | 8.000 | 2.000 | 1:0 | 2.000 | 1.600 | 1.25 | 1.000 | 2.00 |' <<<"$out" ||
    bad "alpha's row: $(grep alpha <<<"$out")"
grep -q '^| beta | 32 | 4.000 | 1.000 | 1:0 | 1.000 | 0.800 |  | 2.000 | 0.50 |' <<<"$out" ||
    bad "beta's row: $(grep beta <<<"$out")"
grep -q '^skmd: geomean speedup 1.00x over 2 examples; below 0.98x: beta 0.50x.$' <<<"$out" ||
    bad "geomean line: $(grep geomean <<<"$out")"
[ -s "$tmp/out/results.csv" ] && [ -s "$tmp/out/chart.svg" ] || bad "results.csv or chart.svg missing"
bench/run.sh --merge "$tmp/none" --out "$tmp/out2" >/dev/null 2>&1 && bad "a folder without runs.csv was merged"
[ $fail = 0 ] && echo "PASS test-bench-merge"
exit $fail
