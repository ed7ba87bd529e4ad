#!/bin/bash
# bench/run.sh --balance on two PoCL devices: the traced run's split launches are counted
# from its trace (forced halves: every launch split) and its last one drawn, a column run
# whole has none (and no picture), and --balance without --report is refused.
# usage: test-balance.sh PRELOAD EXAMPLES_DIR WORKDIR
set -u
preload=${1// /:} bin=$2 work=$3
fail=0
bad() { echo "FAIL test-bench-balance: $1"; fail=1; }
rm -rf "$work" && mkdir -p "$work"
export POCL_DEVICES="pthread pthread" POCL_CPU_MAX_CU_NUM=1
out=$(bench/run.sh --quick --reps 1 --no-native --bin-dir "$bin" --only vector_add --report --balance \
      --column "halves: LD_PRELOAD=$preload SKMD_SPLIT=0.5,0.5" \
      --column "whole: LD_PRELOAD=$preload SKMD_SPLIT=1,0" --out "$work/out" 2>&1)
row() { grep "^| vector_add | $1 |" <<<"$out"; }
# vector_add --quick launches twice: both split, each counted in or out of 10%.
[[ "$(row halves)" =~ \|\ [0-2]/2\ within\ 10%\ \|$ ]] || bad "halves: $(row halves)"
[[ "$(row whole)" =~ \|\ no\ split\ launch\ \|$ ]] || bad "whole: $(row whole)"
[ -s "$work/out/reports/vector_add.halves.trace.json" ] || bad "no trace kept of the halves column"
grep -q "<svg" "$work/out/reports/vector_add.halves.launch.svg" 2>/dev/null ||
    bad "no timeline of the halves column's last split launch"
[ ! -e "$work/out/reports/vector_add.whole.launch.svg" ] || bad "a timeline for a column that split nothing"
grep -q "balanced (traced run)" "$work/out/reports/decisions.csv" || bad "decisions.csv has no balance column"
bench/run.sh --balance --out "$work/refused" >"$work/refused.txt" 2>&1 &&
    bad "--balance without --report was taken"
grep -q -- "--balance needs --report" "$work/refused.txt" || bad "refusal: $(cat "$work/refused.txt")"
[ $fail = 0 ] && echo "PASS test-bench-balance"
exit $fail
