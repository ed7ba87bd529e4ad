#!/bin/bash
# clinfo under libskmd: one platform, one device, no query errors; SKMD_DEVICES picks the
# members; with no real device, one clear message and no platform.
#   test-clinfo.sh "LD_PRELOAD value"
set -u
preload=$1
export POCL_CPU_MAX_CU_NUM=1
fail=0
run() { env LD_PRELOAD="$preload" "$@" 2>&1; }

for devs in "pthread" "pthread pthread basic"; do
    out=$(POCL_DEVICES="$devs" run timeout 120 clinfo)
    np=$(grep -c '^  Platform Name' <<<"$out")
    nd=$(sed -n 's/^Number of devices *//p' <<<"$out" | head -1)
    errs=$(grep -E 'Invalid|error|<[a-zA-Z]+:' <<<"$out" | grep -v 'Error Correction' | head -3)
    if [ "$np" != 2 ] || [ "$nd" != 1 ] || [ -n "$errs" ] || ! grep -q 'Platform Name *SKMD' <<<"$out"; then
        echo "FAIL clinfo POCL_DEVICES='$devs': platforms=$np/2 devices=$nd $errs"; fail=1
    else
        echo "PASS clinfo POCL_DEVICES='$devs': one SKMD platform, one device, no errors"
    fi
done

name() { POCL_DEVICES="pthread basic" SKMD_DEVICES="$1" run clinfo -l | grep "Device #"; }  # (clinfo --prop overflows a buffer of its own under ASan)
check_sel() { # SPEC WANT_REGEX NOT_REGEX
    local got; got=$(name "$1")
    if grep -qE "$2" <<<"$got" && ! grep -qE "$3" <<<"$got"; then echo "PASS SKMD_DEVICES='$1'"
    else echo "FAIL SKMD_DEVICES='$1': $got"; fail=1; fi
}
check_sel 'basic' '\(basic-[^+]*\)$' 'pthread'
check_sel '!basic' '\(pthread-[^+]*\)$' 'basic'
check_sel '0:1' '\((basic|pthread)-[^+]*\)$' ' \+ '
# Both: their names together pass 63 bytes, so the name counts them by kind.
check_sel 'cpu' '\(2 CPUs\)$' 'NOMATCH'

# SKMD_DEVICES that selects nothing: one line, naming the devices there are
out=$(POCL_DEVICES=pthread SKMD_DEVICES=gpu run clinfo)
if grep -q 'Number of platforms *0' <<<"$out" && [ "$(grep -c '^libskmd' <<<"$out")" = 1 ] &&
   grep -q '^libskmd: error: SKMD_DEVICES=gpu selects none of the devices.*0 = 0:0 cpu "pthread' <<<"$out"; then
    echo "PASS no device: no platform, one message naming the devices"
else echo "FAIL no device: $(grep '^libskmd' <<<"$out" | head -3)"; fail=1; fi

out=$(SKMD_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1 run clinfo)
if grep -q 'Number of platforms *0' <<<"$out" && [ "$(grep -c 'no OpenCL platform available' <<<"$out")" = 1 ]; then
    echo "PASS no loader: no platform, one message"
else echo "FAIL no loader: $(head -3 <<<"$out")"; fail=1; fi
exit $fail
