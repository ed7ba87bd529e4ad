#!/bin/bash
# SKMD_SHOW_REAL=1: clinfo lists the SKMD platform first, then the real ones, each real
# device exactly as natively and with no query error; an example run on a real device
# passes and goes straight to the driver (libskmd logs no launch), while the same run
# on the SKMD device still goes through libskmd.
#   test-show-real.sh "LD_PRELOAD value" EXAMPLE_BINARY
set -u
preload=$1 example=$2
export POCL_DEVICES="pthread pthread" POCL_CPU_MAX_CU_NUM=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
say() { echo "$1 show-real: $2"; [ "$1" = PASS ] || fail=1; }
under() { env SKMD_SHOW_REAL=1 LD_PRELOAD="$preload" "$@"; }

under timeout 120 clinfo > "$tmp/clinfo" 2>&1; rc=$?
np=$(sed -n 's/^Number of platforms *//p' "$tmp/clinfo")
first=$(grep -m1 '^  Platform Name' "$tmp/clinfo" | sed 's/^  Platform Name *//')
errs=$(grep -E 'Invalid|error|<[a-zA-Z]+:' "$tmp/clinfo" | grep -v 'Error Correction' | head -3)
if [ $rc = 0 ] && [ "$np" = 2 ] && [ "$first" = SKMD ] && [ -z "$errs" ]; then
    say PASS "clinfo: SKMD first, then the real platform, no errors"
else
    say FAIL "clinfo: rc=$rc platforms=$np first='$first' $errs"
fi

# The real platform's devices, as `clinfo -l` shows them, natively and under libskmd.
clinfo -l | sed -n '/^Platform #0/,$p' | tail -n +2 > "$tmp/native-l"
under clinfo -l | sed -n '/^Platform #1/,$p' | tail -n +2 > "$tmp/skmd-l"
if [ -s "$tmp/native-l" ] && cmp -s "$tmp/native-l" "$tmp/skmd-l"; then
    say PASS "clinfo -l: the real platform's devices as natively"
else
    say FAIL "clinfo -l: the real devices differ: $(diff "$tmp/native-l" "$tmp/skmd-l" | head -4 | tr '\n' '|')"
fi

# Device 1:1 is the second real PoCL device; 0:0 the SKMD device.
out=$(under env SKMD_LOG="info:$tmp/log-real" timeout 120 "$example" --quick --reps 1 --device 1:1 2>&1)
launches=$(grep -c ': info: launch ' "$tmp/log-real" 2>/dev/null)
if grep -q '^PASSED' <<<"$out" && [ "${launches:-0}" = 0 ]; then
    say PASS "$(basename "$example") on real device 1:1 passes, straight to the driver"
else
    say FAIL "$(basename "$example") on real device 1:1: ${launches:-0} libskmd launches; $(tail -2 <<<"$out")"
fi
out=$(under env SKMD_LOG="info:$tmp/log-skmd" timeout 120 "$example" --quick --reps 1 --device 0:0 2>&1)
launches=$(grep -c ': info: launch ' "$tmp/log-skmd" 2>/dev/null)
if grep -q '^PASSED' <<<"$out" && [ "${launches:-0}" -ge 1 ]; then
    say PASS "$(basename "$example") on the SKMD device 0:0 passes through libskmd"
else
    say FAIL "$(basename "$example") on the SKMD device 0:0: ${launches:-0} libskmd launches; $(tail -2 <<<"$out")"
fi
exit $fail
