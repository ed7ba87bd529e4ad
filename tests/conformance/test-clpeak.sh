#!/bin/bash
# clpeak, unchanged, under libskmd: kernel launch latency, transfer bandwidth and global
# memory bandwidth (the quick ones: seconds on a CPU device) on 1 and 3 PoCL members. Each
# run must exit 0, run on the SKMD device, print every figure as a positive number and no
# error. Latency is also measured natively, for comparison.
#   test-clpeak.sh "LD_PRELOAD value"
set -u
preload=${1:?usage: test-clpeak.sh "LD_PRELOAD value"}
command -v clpeak >/dev/null || { echo "FAIL clpeak: not installed (Debian package clpeak)"; exit 1; }
export POCL_CPU_MAX_CU_NUM=1
fail=0
errfile=$(mktemp)
trap 'rm -f "$errfile"' EXIT

# "    Kernel launch latency : 5.75 us" and "      float4  : 24.57" -> "name=value" lines
figures() { sed -nE 's/^ +([A-Za-z][A-Za-z0-9 ()-]*[A-Za-z0-9)]) +: +([0-9.]+).*$/\1=\2/p' <<<"$1"; }

check() { # POCL_DEVICES  clpeak test option  the figures it must print (comma list)  [native]
    local devs=$1 opt=$2 want=$3 native="" skmd rc name
    [ "${4:-}" = native ] && native=$(POCL_DEVICES="$devs" timeout 120 clpeak -p 0 -d 0 "$opt" 2>&1)
    # clpeak prints "  float   : " before it measures and the figure after: a libskmd
    # warning on stderr in between would split the line, so figures come from stdout.
    skmd=$(POCL_DEVICES="$devs" LD_PRELOAD="$preload" timeout 120 clpeak -p 0 -d 0 "$opt" \
           2>"$errfile"); rc=$?
    local what="clpeak $opt POCL_DEVICES='$devs'" all; all="$skmd"$'\n'"$(cat "$errfile")"
    if [ $rc != 0 ]; then echo "FAIL $what: exit $rc: $(tail -3 <<<"$all")"; fail=1; return; fi
    if ! grep -q 'Device: SKMD' <<<"$skmd"; then echo "FAIL $what: not on the SKMD device"; fail=1; return; fi
    if grep -qiE 'error|fail|exception' <<<"$all"; then
        echo "FAIL $what: $(grep -iE 'error|fail|exception' <<<"$all" | head -2)"; fail=1; return
    fi
    local got; got=$(figures "$skmd")
    local IFS=,
    for name in $want; do
        local v; v=$(sed -n "s/^$name=//p" <<<"$got" | head -1)
        if [ -z "$v" ] || ! awk -v v="$v" 'BEGIN { exit !(v > 0) }'; then
            echo "FAIL $what: no positive '$name' figure"; fail=1; return
        fi
    done
    unset IFS
    echo "PASS $what: $(paste -sd, <<<"$got" | sed 's/,/, /g')${native:+ (native: $(figures "$native" | paste -sd, | sed 's/,/, /g'))}"
}

check "pthread" --kernel-latency "Kernel launch latency" native
check "pthread pthread basic" --kernel-latency "Kernel launch latency" native
check "pthread pthread basic" --global-bandwidth "float,float2,float4,float8,float16"
check "pthread pthread basic" --transfer-bandwidth "enqueueWriteBuffer,enqueueReadBuffer,enqueueMapBuffer(for read)"
exit $fail
