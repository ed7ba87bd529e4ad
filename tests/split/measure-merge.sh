#!/bin/bash
# tests/split/measure-merge.sh LIBSKMD_SO [SKMD_OPT]: split time of the examples whose
# writes decide whether a split is merged (docs/split.md, "Shares that need no merge"), on
# two PoCL pthread members of one compute unit each: forced shares 0.6/0.4 (a cut in the
# middle of a row of work-groups) and the partitioner's own shares (a fresh profile). One
# line per example and mode: the example's best and median ms over 5 timed runs, and how
# its split launches went (merged, by bounds, by boxes, neither; whole), from the decision
# log (tests/common/decisions.py). Give SKMD_OPT to
# measure a library built elsewhere (its own compiler). Not a test: it prints figures.
set -u
lib=$1 opt=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bins=$(dirname "$0")/../../examples
export POCL_CPU_MAX_CU_NUM=1 POCL_DEVICES="pthread pthread" SKMD_CACHE_DIR="$tmp/cache"
[ -n "$opt" ] && export SKMD_COMPILER=$opt
printf '%-20s %-11s %9s %9s  %s\n' example shares best_ms median_ms "split launches"
for run in matrix_mul:512 gemm:256 syrk:512 jacobi_2d:1024 matrix_transpose:1024 \
           aes_encrypt_decrypt:512; do
    e=${run%:*} size=${run#*:}
    for split in 0.6,0.4 ""; do
        rm -f "$tmp/dec" "$tmp/db"
        out=$(SKMD_SPLIT="$split" SKMD_PROFILE_DB="$tmp/db" SKMD_DECISIONS="$tmp/dec" \
              LD_PRELOAD="$lib" "$bins/$e/$e" --size "$size" --reps 5 2>&1)
        best=$(sed -n 's/.*ms_best=\([0-9.]*\).*/\1/p' <<<"$out")
        median=$(sed -n 's/.*ms_median=\([0-9.]*\).*/\1/p' <<<"$out")
        grep -q '^PASSED' <<<"$out" || best="FAILED"
        # EXPR: how many launches make it true; tag TAG: split launches with that tag.
        n() { /usr/bin/python3 "$(dirname "$0")/../common/decisions.py" "$tmp/dec" count "$1"; }
        tag() { n "r['run'] == 'split' and '$1' in r['tags']"; }
        printf '%-20s %-11s %9s %9s  %s split: %s merged, %s by bounds, %s by boxes, %s whole; %s run whole\n' \
            "$e" "${split:-partitioner}" "$best" "$median" "$(n 'r["run"] != "whole"')" \
            "$(tag merged)" "$(tag bounds)" "$(tag rect)" "$(n 'r["run"] == "one_share"')" \
            "$(n 'r["run"] == "whole"')"
    done
done
