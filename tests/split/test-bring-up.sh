#!/bin/bash
# tests/split/test-bring-up.sh PRELOAD BUILD_DIR: members brought up only when a launch
# could use them (libskmd/cl/bring_up.h), on three PoCL devices with a real context each
# (SKMD_CONTEXTS=device, as every GPU has): read from the JSON report (each device's "up",
# "bring_up_ms") and the decision log.
#   - a short program (vector_add, 4096 items) never brings the others up;
#   - gemm on an empty database, SKMD_BRING_UP=wait: launch 1 whole and timed, the others
#     up at launch 2, which is split; a second process has them up from launch 1 (the rate
#     is in the database);
#   - the same in the background (the default): launch 2 starts the bring-up and runs
#     whole; every member is up by the exit;
#   - forced shares bring every member up at the first launch;
#   - SKMD_BRING_UP=context: every member up from the start, no bring-up later;
#   - a threshold no kernel reaches keeps gemm on one member, results exact.
set -u
preload=$1 build=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export POCL_DEVICES="pthread pthread pthread" POCL_CPU_MAX_CU_NUM=1 SKMD_CONTEXTS=device
unset SKMD_SPLIT SKMD_POLICY SKMD_MODE SKMD_PROFILE_SWEEP SKMD_DECISIONS SKMD_BRING_UP \
  SKMD_BRING_UP_US
fail=0
say() { echo "$1 bring-up: $2"; [ "$1" = PASS ] || fail=1; }
# run NAME EXAMPLE ARGS... (env before): the example under libskmd; its report, decisions
# and output kept under $tmp/NAME.*
run() {
    local name=$1 example=$2; shift 2
    rm -f "$tmp/$name.dec"
    env SKMD_DECISIONS="$tmp/$name.dec" SKMD_REPORT=json SKMD_REPORT_FILE="$tmp/$name.json" \
        LD_PRELOAD="$preload" "$build/examples/$example/$example" "$@" > "$tmp/$name.out" 2>&1
}
# up NAME: the report's "up" per device, e.g. "1 0 0", then bring_up_ms > 0 (1 or 0)
up() {
    /usr/bin/python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))
print(" ".join("1" if d["up"] else "0" for d in r["devices"]), int(r["bring_up_ms"] > 0))' \
        "$tmp/$1.json" 2>/dev/null
}
dec() { local f=$1; shift; /usr/bin/python3 "$(dirname "$0")/../common/decisions.py" "$tmp/$f.dec" "$@" 2>/dev/null; }
kinds() { dec "$1" kinds; }
# up_at NAME: the members up at each launch, e.g. "0 012 012"
up_at() { dec "$1" list '"".join(map(str, r["up"]))' | paste -sd' '; }
passed() { grep -q '^PASSED' "$tmp/$1.out"; }

export SKMD_CACHE_DIR="$tmp/cache" SKMD_PROFILE_DB="$tmp/short.db"
run short vector_add --size 4096 --reps 2
if passed short && [ "$(up short)" = "1 0 0 0" ]; then
    say PASS "a short program: the executing member alone up, no bring-up"
else
    say FAIL "a short program: up $(up short); $(tail -2 "$tmp/short.out")"
fi

export SKMD_PROFILE_DB="$tmp/gemm.db" SKMD_BRING_UP=wait
run gemm1 gemm --size 256 --reps 3
k=$(kinds gemm1) u=$(up_at gemm1)
if passed gemm1 && [ "$(up gemm1)" = "1 1 1 1" ] && [[ $k == WS* ]] && [[ $u == "0 012"* ]] &&
   [ "$(dec gemm1 check)" = 4 ]; then
    say PASS "gemm, empty database, SKMD_BRING_UP=wait: launch 1 whole and timed, every member up and split at launch 2 ($k; up $u)"
else
    say FAIL "gemm, empty database: up $(up gemm1), launches $k, up at each $u; $(tail -2 "$tmp/gemm1.out")"
fi
run gemm2 gemm --size 256 --reps 3
# Whether launch 1 splits is the guard's word (it may sample whole): every member is up.
k=$(kinds gemm2) u=$(up_at gemm2)
if passed gemm2 && [ "$(up gemm2)" = "1 1 1 1" ] && [[ $u == "012 "* ]]; then
    say PASS "gemm, its rate in the database: every member up at launch 1 ($k; up $u)"
else
    say FAIL "gemm, second process: up $(up gemm2), launches $k, up at each $u; $(tail -2 "$tmp/gemm2.out")"
fi
unset SKMD_BRING_UP

export SKMD_PROFILE_DB="$tmp/background.db"
run background gemm --size 256 --reps 8
k=$(kinds background) u=$(up_at background)
if passed background && [ "$(up background)" = "1 1 1 1" ] && [[ $k == WW* ]] && [[ $u == "0 "* ]]; then
    say PASS "gemm, empty database, in the background: launches 1 and 2 whole, every member up by the exit ($k; up $u)"
else
    say FAIL "gemm in the background: up $(up background), launches $k, up at each $u; $(tail -2 "$tmp/background.out")"
fi

export SKMD_PROFILE_DB="$tmp/forced.db"
SKMD_SPLIT=0.3,0.4,0.3 run forced vector_add --size 4096 --reps 2
k=$(kinds forced)
if passed forced && [ "$(up forced)" = "1 1 1 1" ] && [[ $k =~ ^S+$ ]]; then
    say PASS "forced shares: every member up at the first launch, every launch split ($k)"
else
    say FAIL "forced shares: up $(up forced), launches $k; $(tail -2 "$tmp/forced.out")"
fi

export SKMD_PROFILE_DB="$tmp/eager.db"
SKMD_BRING_UP=context run eager vector_add --size 4096 --reps 2
if passed eager && [ "$(up eager)" = "1 1 1 0" ]; then
    say PASS "SKMD_BRING_UP=context: every member up from clCreateContext, no bring-up later"
else
    say FAIL "SKMD_BRING_UP=context: up $(up eager); $(tail -2 "$tmp/eager.out")"
fi

export SKMD_PROFILE_DB="$tmp/never.db"
SKMD_BRING_UP_US=1000000000 run never gemm --size 256 --reps 3
k=$(kinds never)
if passed never && [ "$(up never)" = "1 0 0 0" ] && [[ ! $k =~ S ]]; then
    say PASS "a threshold no launch reaches: gemm on the executing member alone ($k), results exact"
else
    say FAIL "SKMD_BRING_UP_US=1000000000: up $(up never), launches $k; $(tail -2 "$tmp/never.out")"
fi
exit $fail
