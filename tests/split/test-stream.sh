#!/bin/bash
# tests/split/test-stream.sh PRELOAD BIN_DIR: streamed outputs (libskmd/launch/stream_out.h) on
# local PoCL devices. tests/split/stream.c's reads after split launches are byte-identical
# to a native run under SKMD_STREAM_OUTPUTS=auto, 1 and 0, on two and three devices; with
# auto the shares' outputs were streamed and reads served from the host copy, also
# without zero-copy members, staged in chunks, and in pieces; the learning streams exactly
# the launches whose output the app reads back; the streamed copies are "transfer_out"
# spans of the trace, tied to their launch.
set -u
preload=$1 bins=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export POCL_CPU_MAX_CU_NUM=1 SKMD_CACHE_DIR="$tmp/cache" SKMD_MIN_SPLIT_WORKGROUPS=2
fail=0
say() { echo "$1 split-stream: $2"; [ "$1" = PASS ] || fail=1; }

under() { # DEVICES SPLIT STREAM CMD...: CMD under libskmd, log in $tmp/log, decisions in $tmp/dec
    local devs=$1 split=$2 stream=$3
    shift 3
    rm -f "$tmp/log" "$tmp/dec"
    POCL_DEVICES="$devs" SKMD_SPLIT="$split" SKMD_STREAM_OUTPUTS="$stream" \
        SKMD_LOG="debug:$tmp/log" SKMD_DECISIONS="$tmp/dec" LD_PRELOAD="$preload" "$@"
}
# Lines of the debug log matching PATTERN: streams, reads served from the host copy and
# pieces have no field in the decision log.
count() { grep -c "$1" "$tmp/log" || true; }
# The decision log of the last run (tests/common/decisions.py QUERY ...).
# A failure of its own (a bad line, a bad query) is marked, and fails the test at the end.
dec() { /usr/bin/python3 "$(dirname "$0")/../common/decisions.py" "$tmp/dec" "$@" || touch "$tmp/dec-failed"; }

for what in all iterate; do
    POCL_DEVICES=pthread "$bins/stream" $what "$tmp/native-$what.bin" ||
        { say FAIL "native run of '$what' failed"; exit 1; }
done

# Byte-identical in every setting; the launches split (decision log), the mechanism seen
# in the debug log.
for devs in "pthread pthread" "pthread pthread basic"; do
    split=0.3,0.7
    [ "$devs" = "pthread pthread" ] || split=0.3,0.5,0.2
    for stream in auto 1 0; do
        under "$devs" "$split" "$stream" "$bins/stream" all "$tmp/all.bin" 2>"$tmp/err" ||
            { say FAIL "[$devs, $stream] run failed: $(tail -3 "$tmp/err")"; continue; }
        splits=$(dec count 'r["run"] == "split"')
        streamed=$(count 'streamed .* of member')
        served=$(count 'served from the host copy')
        if ! cmp -s "$tmp/native-all.bin" "$tmp/all.bin"; then
            say FAIL "[$devs, $stream] output differs from the native run"
        elif [ "$splits" -lt 14 ]; then
            say FAIL "[$devs, $stream] only $splits launches split"
        elif [ "$stream" != 0 ] && { [ "$streamed" -eq 0 ] || [ "$served" -eq 0 ]; }; then
            say FAIL "[$devs, $stream] $streamed streams, $served reads served from the host copy"
        elif [ "$stream" = 0 ] && [ "$((streamed + served))" -ne 0 ]; then
            say FAIL "[$devs, 0] $streamed streams, $served reads served (none expected)"
        else
            say PASS "[$devs, $stream] byte-identical, $splits launches split, $streamed streams, $served reads served from the host copy"
        fi
    done
done

# As on GPU members: no zero-copy member (every share's output is copied), staged through
# the engine in 64 KiB chunks, and shares in 3 pieces.
for set in "SKMD_ZERO_COPY=0" \
    "SKMD_ZERO_COPY=0 SKMD_TRANSFER_STAGE_CPU=1 SKMD_TRANSFER_DIRECT_KIB=0 SKMD_TRANSFER_CHUNK_KIB=64" \
    "SKMD_PIECES=3"; do
    under "pthread pthread" 0.3,0.7 auto env $set "$bins/stream" all "$tmp/all.bin" 2>"$tmp/err" ||
        { say FAIL "[$set] run failed: $(tail -3 "$tmp/err")"; continue; }
    streamed1=$(count 'streamed .* of member 1 ')
    if ! cmp -s "$tmp/native-all.bin" "$tmp/all.bin"; then
        say FAIL "[$set] output differs from the native run"
    elif [ "$set" != SKMD_PIECES=3 ] && [ "$streamed1" -eq 0 ]; then
        say FAIL "[$set] member 1 (a copy of its own) streamed nothing"
    elif [ "$set" = SKMD_PIECES=3 ] && [ "$(count 'in 3 pieces: done')" -eq 0 ]; then
        say FAIL "[$set] no share ran in pieces"
    else
        say PASS "[$set] byte-identical, $(count 'streamed .* of member') streams ($streamed1 of member 1), $(count 'served from the host copy') reads served"
    fi
done

# Learning: of 8 ping-pong launches with no read between them only the first two stream
# (the buffers were fresh); of 8 each followed by a read of its output, all but the first
# (its buffer was the previous round's unread data). Member 0's copies are counted: one
# per streamed launch.
for stream in auto 1 0; do
    want=9
    [ $stream = 1 ] && want=16
    [ $stream = 0 ] && want=0
    under "pthread pthread" 0.3,0.7 "$stream" "$bins/stream" iterate "$tmp/it.bin" 2>"$tmp/err" ||
        { say FAIL "[iterate, $stream] run failed: $(tail -3 "$tmp/err")"; continue; }
    got=$(count 'streamed .* of member 0 ')
    if ! cmp -s "$tmp/native-iterate.bin" "$tmp/it.bin"; then
        say FAIL "[iterate, $stream] output differs from the native run"
    elif [ "$got" -ne "$want" ]; then
        say FAIL "[iterate, $stream] $got of 16 launches streamed, expected $want"
    else
        say PASS "[iterate, $stream] byte-identical, $got of 16 launches streamed"
    fi
done

# The trace: member 0's streamed copies are transfer_out spans of their launches.
POCL_DEVICES="pthread pthread" SKMD_SPLIT=0.3,0.7 SKMD_TRACE="$tmp/trace.json" \
    LD_PRELOAD="$preload" "$bins/stream" iterate "$tmp/it.bin" 2>"$tmp/err" ||
    say FAIL "[trace] run failed: $(tail -3 "$tmp/err")"
spans=$(/usr/bin/python3 - "$tmp/trace.json" <<'PY'
import json, sys
events = json.load(open(sys.argv[1]))["traceEvents"]
print(sum(1 for e in events if e.get("cat") == "transfer_out" and
          e.get("args", {}).get("device") == 0 and e["args"].get("launch", 0) > 0 and
          e["args"].get("bytes", 0) > 0))
PY
)
if [ "${spans:-0}" -lt 9 ]; then
    say FAIL "[trace] ${spans:-no} transfer_out spans of member 0 in launches, expected 9 or more"
else
    say PASS "[trace] $spans transfer_out spans of member 0 tied to launches"
fi
[ ! -e "$tmp/dec-failed" ] || say FAIL "tests/common/decisions.py failed (its error is above)"
exit $fail
