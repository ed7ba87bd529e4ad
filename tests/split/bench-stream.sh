#!/bin/bash
# tests/split/bench-stream.sh PRELOAD PROGRAM [ROUNDS] [ARGS...]: read-after-split natively
# and under libskmd with SKMD_STREAM_OUTPUTS=0 and auto, ROUNDS times (default 3) in turn,
# on whatever devices the environment gives (POCL_DEVICES, OCL_ICD_VENDORS). One line per
# run: the setting, then the program's RESULT line.
set -u
preload=$1 prog=$2 rounds=${3:-3}
shift $(($# < 3 ? $# : 3))
for ((r = 1; r <= rounds; r++)); do
    echo "native: $("$prog" "$@" 2>&1 | tail -1)"
    for s in 0 auto; do
        echo "SKMD_STREAM_OUTPUTS=$s: $(SKMD_STREAM_OUTPUTS=$s LD_PRELOAD="$preload" "$prog" "$@" 2>&1 | tail -1)"
    done
done
