#!/bin/bash
# tests/transfer/test-pieces.sh PRELOAD BIN EXAMPLES: shares run in pieces (SKMD_PIECES)
# and the app's transfers through the engine (SKMD_APP_TRANSFERS) on local PoCL devices.
# tests/transfer/pieces checks every result itself, the examples too; this script checks
# how launches ran (split, one share, whole; bytes moved in) from the decision log, and
# from the debug log that the shares really ran in the pieces asked for and which path
# moved the bytes (the transfer engine's totals): pieces and paths have no field there.
set -u
preload=$1 bin=$2 examples=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export POCL_CPU_MAX_CU_NUM=1 SKMD_CACHE_DIR="$tmp/cache" SKMD_MIN_SPLIT_WORKGROUPS=2
fail=0
say() { echo "$1 pieces: $2"; [ "$1" = PASS ] || fail=1; }

run() { # NAME DEVICES SPLIT ENV...: runs the program, log in $tmp/log, decisions in $tmp/dec
    local name=$1 devs=$2 split=$3
    shift 3
    rm -f "$tmp/log" "$tmp/dec"
    out=$(env POCL_DEVICES="$devs" SKMD_SPLIT="$split" SKMD_LOG="debug:$tmp/log" \
          SKMD_DECISIONS="$tmp/dec" "$@" LD_PRELOAD="$preload" "$bin" 2>&1)
    if [ "$out" != ok ]; then
        say FAIL "[$name] $(tail -3 <<<"$out")"
        return 1
    fi
}
# Lines of the debug log matching PATTERN: the pieces' own lines ("... in 3 pieces: done").
count() { grep -c "$1" "$tmp/log" || true; }
# The decision log of the last run (tests/common/decisions.py QUERY ...).
# A failure of its own (a bad line, a bad query) is marked, and fails the test at the end.
dec() { /usr/bin/python3 "$(dirname "$0")/../common/decisions.py" "$tmp/dec" "$@" || touch "$tmp/dec-failed"; }

# Forced pieces, members with private copies (every piece moves bytes), direct and staged.
for set in "SKMD_ZERO_COPY=0" \
           "SKMD_ZERO_COPY=0 SKMD_TRANSFER_STAGE_CPU=1 SKMD_TRANSFER_DIRECT_KIB=0 SKMD_TRANSFER_CHUNK_KIB=64"; do
    # shellcheck disable=SC2086
    run "3 pieces, $set" "pthread pthread" "0.3,0.7" SKMD_PIECES=3 $set || continue
    n=$(count 'in 3 pieces: done')
    # vadd twice, stencil, inplace 3 times, rows: 7 launches of 2 shares in 3 pieces.
    if [ "$n" -lt 14 ]; then
        say FAIL "[3 pieces, $set] $n shares ran in 3 pieces, expected 14 or more"
    else
        say PASS "[3 pieces, $set] exact; $n shares in 3 pieces"
    fi
done

# More pieces than groups: the 8-group launch's shares (2 and 6 groups) run one group a piece.
if run "64 pieces" "pthread pthread" "0.3,0.7" SKMD_PIECES=64 SKMD_ZERO_COPY=0; then
    if [ "$(count 'share of 2 work-groups on member 0 in 2 pieces: done')" -ne 1 ] ||
       [ "$(count 'share of 6 work-groups on member 1 in 6 pieces: done')" -ne 1 ]; then
        say FAIL "[64 pieces] the 8-group launch's shares were not cut one group a piece"
    else
        say PASS "[64 pieces] exact; piece count clamped to the share's groups"
    fi
fi

# Three members, one of them 'basic' (shares in turn on the app's thread), zero-copy on.
if run "3 members" "pthread pthread basic" "0.3,0.5,0.2" SKMD_PIECES=5; then
    n=$(count 'in 5 pieces: done')
    [ "$n" -ge 21 ] && say PASS "[3 members] exact; $n shares in 5 pieces" ||
        say FAIL "[3 members] $n shares ran in 5 pieces, expected 21 or more"
fi

# A member failing at its middle piece, after its first pieces ran: redone elsewhere.
if run "fault" "pthread pthread" "0.3,0.7" SKMD_PIECES=4 SKMD_ZERO_COPY=0 SKMD_FAULT_MEMBER=1; then
    # Log reads: a failed piece and share have no field in the decision log.
    if [ "$(count 'on member 1 in 4 pieces: failed')" -lt 1 ] ||
       [ "$(count 'member 1 .* failed its share')" -lt 1 ]; then
        say FAIL "[fault] no share of member 1 failed in the middle of its pieces"
    else
        say PASS "[fault] exact after member 1 failed at its middle piece"
    fi
fi

# A launch the plan gives whole to the queue's member, run as one share in pieces.
if run "whole" "pthread pthread" "1,0" SKMD_PIECES=3 SKMD_ZERO_COPY=0; then
    n=$(dec count 'r["run"] == "one_share" and r["shares"][0]["member"] == 0')
    p=$(count 'on member 0 in 3 pieces: done')
    [ "$n" -ge 8 ] && [ "$p" -ge 7 ] && say PASS "[whole] exact; $n whole launches, $p in pieces" ||
        say FAIL "[whole] $n launches whole as one share, $p in 3 pieces (want 8 and 7)"
fi

# The app's reads, writes and COPY_HOST_PTR data through the engine, staged in 64 KiB
# chunks (on a GPU member this is the default for large ones), in single and split mode.
# The engine's totals at exit (a log read: the decision log has bytes per launch, not paths).
staged() { sed -n 's/.*transfer engine: \([0-9]*\) bytes staged.*/\1/p' "$tmp/log"; }
for mode in single split; do
    if run "app transfers, $mode" "pthread pthread" "" SKMD_MODE=$mode SKMD_APP_TRANSFERS=engine \
        SKMD_TRANSFER_STAGE_CPU=1 SKMD_TRANSFER_DIRECT_KIB=0 SKMD_TRANSFER_CHUNK_KIB=64; then
        # pieces writes 5 buffers of 1 MiB or less and reads back as much: >= 8 MiB.
        s=$(staged)
        [ "${s:-0}" -ge 8388608 ] && say PASS "[app transfers, $mode] exact; $s bytes staged" ||
            say FAIL "[app transfers, $mode] only ${s:-0} bytes staged"
    fi
    for ex in vector_add matrix_transpose blackscholes; do
        rm -f "$tmp/log"
        out=$(env POCL_DEVICES="pthread pthread" SKMD_MODE=$mode SKMD_APP_TRANSFERS=engine \
              SKMD_TRANSFER_STAGE_CPU=1 SKMD_TRANSFER_DIRECT_KIB=0 SKMD_TRANSFER_CHUNK_KIB=64 \
              SKMD_LOG="info:$tmp/log" LD_PRELOAD="$preload" \
              "$examples/$ex/$ex" --quick --reps 2 2>&1)
        s=$(staged)
        if ! grep -q '^PASSED' <<<"$out"; then
            say FAIL "[app transfers, $mode] $ex: $(tail -3 <<<"$out")"
        elif [ "${s:-0}" -eq 0 ] && [ "$ex" != blackscholes ]; then
            say FAIL "[app transfers, $mode] $ex: nothing staged"
        else
            say PASS "[app transfers, $mode] $ex PASSED; ${s:-0} bytes staged"
        fi
    done
done

# SKMD_APP_TRANSFERS=host: the app's writes land in the host copy, so in single mode every
# launch finds its inputs off the member and runs as one share in pieces; in split mode
# each member receives its share's bytes. Examples too (blackscholes: COPY_HOST_PTR data).
if run "host, single" "pthread pthread" "" SKMD_MODE=single SKMD_APP_TRANSFERS=host \
    SKMD_TRANSFER_DIRECT_KIB=0 SKMD_PIECES=3 SKMD_ZERO_COPY=0; then
    # The profile of the runs before may pick either member for the whole launch.
    n=$(dec count 'r["run"] == "one_share" and r["moved"]["in"] > 0')
    p=$(count 'on member [01] in 3 pieces: done')
    [ "$n" -ge 3 ] && [ "$p" -ge 8 ] && [ "$(dec count 'r["run"] == "whole"')" -eq 0 ] &&
        say PASS "[host, single] exact; $p launches as one share in pieces, $n moving inputs" ||
        say FAIL "[host, single] $p launches in pieces, $n moving inputs (want 8 and 3, none whole)"
fi
if run "host, split" "pthread pthread" "0.3,0.7" SKMD_APP_TRANSFERS=host \
    SKMD_TRANSFER_DIRECT_KIB=0 SKMD_PIECES=3 SKMD_ZERO_COPY=0; then
    say PASS "[host, split] exact; $(count 'in 3 pieces: done') shares in pieces"
fi
for mode in single split; do
    for ex in vector_add matrix_transpose blackscholes; do
        out=$(env POCL_DEVICES="pthread pthread" SKMD_MODE=$mode SKMD_APP_TRANSFERS=host \
              SKMD_TRANSFER_DIRECT_KIB=0 SKMD_PIECES=3 LD_PRELOAD="$preload" \
              "$examples/$ex/$ex" --quick --reps 2 2>&1)
        grep -q '^PASSED' <<<"$out" && say PASS "[host, $mode] $ex PASSED" ||
            say FAIL "[host, $mode] $ex: $(tail -3 <<<"$out")"
    done
done

# By default CPU members never run pieces (their transfers are memcpy or nothing).
if run "default" "pthread pthread" "0.3,0.7"; then
    [ "$(count ' pieces: ')" -eq 0 ] && say PASS "[default] exact; no pieces on CPU members" ||
        say FAIL "[default] CPU members ran shares in pieces"
    [ "$(staged)" = 0 ] && say PASS "[default] nothing staged for CPU members" ||
        say FAIL "[default] $(staged) bytes staged for CPU members"
fi
[ ! -e "$tmp/dec-failed" ] || say FAIL "tests/common/decisions.py failed (its error is above)"
exit $fail
