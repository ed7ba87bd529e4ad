#!/bin/bash
# tests/transparency/run.sh PRELOAD BIN COMPILER: transparency.c natively (one PoCL
# device), then under libskmd on two and three PoCL devices (one of them 'basic') with
# forced uneven splits; each run must print "ok", and under libskmd launches must really
# have been split (from the decision log, SKMD_DECISIONS). Any section's name as a 4th
# argument runs it alone.
set -u
here=$(cd "$(dirname "$0")" && pwd)
preload=$1 bin=$2 compiler=$3 only=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export POCL_CPU_MAX_CU_NUM=1 SKMD_CACHE_DIR="$tmp/cache" SKMD_COMPILER="$compiler"
fail=0
say() { echo "$1 transparency: $2"; [ "$1" = PASS ] || fail=1; }

out=$(POCL_DEVICES=pthread timeout 300 "$bin" $only 2>&1)
if [ "$out" = ok ]; then say PASS "native"; else say FAIL "native: $(tail -5 <<<"$out")"; fi

# A first run with leak checks off: PoCL links new kernels with ld, which inherits
# LD_PRELOAD and would fail on its own leaks under SAN=1; then PoCL's cache has them.
POCL_DEVICES="pthread pthread basic" SKMD_SPLIT=0.3,0.3,0.4 LD_PRELOAD="$preload" \
    ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" timeout 300 "$bin" profiling \
    >/dev/null 2>&1
for run in "pthread pthread|0.5,0.5" "pthread pthread|0.3,0.7" \
           "pthread pthread basic|0.3,0.3,0.4"; do
    devs=${run%|*} split=${run#*|}
    rm -f "$tmp/decisions"
    out=$(POCL_DEVICES="$devs" SKMD_SPLIT="$split" SKMD_MIN_SPLIT_WORKGROUPS=2 \
          SKMD_DECISIONS="$tmp/decisions" LD_PRELOAD="$preload" timeout 300 "$bin" $only 2>&1)
    splits() { /usr/bin/python3 "$here/../common/decisions.py" "$tmp/decisions" count "r['split'] and r['kernel'] == '$1'"; }
    n=$(splits addk)
    # programs made from a binary (section binaries) or linked (links) split as built ones
    programs_split="addb $(splits addb) addl $(splits addl)"
    if [ "$out" != ok ]; then
        say FAIL "[$devs] [$split]: $(tail -8 <<<"$out")"
    elif [ "${n:-0}" -eq 0 ]; then
        say FAIL "[$devs] [$split]: no launch was split"
    elif [ -z "$only" ] && [ "$programs_split" != "addb 2 addl 2" ]; then
        say FAIL "[$devs] [$split]: a program from a binary or a link was not split (split launches: $programs_split)"
    else
        say PASS "[$devs] [$split]: $n launches split"
    fi
done
exit $fail
