#!/bin/bash
# tests/split/test-split.sh MODE PRELOAD BIN_DIR: the split-launch tests on local PoCL
# devices (MODE: adversarial, examples, moved, fault, events, peer, spread, shapes, reads,
# placed, maps, told). Each run forces uneven shares and checks from the decision log
# (SKMD_DECISIONS) that launches really were split; the debug log only for what has no
# field there (a failed share, gathers, placed writes, reads into the host copy).
set -u
mode=$1 preload=$2 bins=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export POCL_CPU_MAX_CU_NUM=1 SKMD_CACHE_DIR="$tmp/cache"
fail=0
say() { echo "$1 split-$mode: $2"; [ "$1" = PASS ] || fail=1; }

under() { # DEVICES SPLIT CMD...: runs CMD under libskmd, log in $tmp/log, decisions in $tmp/dec
    local devs=$1 split=$2
    shift 2
    rm -f "$tmp/dec"
    POCL_DEVICES="$devs" SKMD_SPLIT="$split" SKMD_LOG="info:$tmp/log" SKMD_DECISIONS="$tmp/dec" \
        LD_PRELOAD="$preload" "$@"
}

# The decision log of the last run (tests/common/decisions.py QUERY ...).
# A failure of its own (a bad line, a bad query) is marked, and fails the test at the end.
dec() { /usr/bin/python3 "$(dirname "$0")/../common/decisions.py" "$tmp/dec" "$@" || touch "$tmp/dec-failed"; }
# Launches run in shares (split, or one member's timed share), and launches run whole.
splits() { dec count 'r["run"] != "whole"'; }
wholes() { dec count 'r["run"] == "whole"'; }

case $mode in
adversarial|fault)
    POCL_DEVICES=pthread "$bins/adversarial" "$tmp/native.bin" >/dev/null ||
        { say FAIL "native run failed"; exit 1; }
    for devs in "pthread pthread" "pthread pthread basic"; do
        rm -f "$tmp/log"
        extra=()
        [ "$mode" = fault ] && extra=(env SKMD_FAULT_MEMBER=1)
        under "$devs" "0.3,0.5,0.2" "${extra[@]}" env SKMD_MIN_SPLIT_WORKGROUPS=2 \
            "$bins/adversarial" "$tmp/split.bin" >/dev/null 2>"$tmp/err" ||
            { say FAIL "[$devs] run failed: $(tail -3 "$tmp/err")"; continue; }
        if ! cmp -s "$tmp/native.bin" "$tmp/split.bin"; then
            say FAIL "[$devs] output differs from the native run"
        elif [ "$mode" = adversarial ] && [ "$(splits)" -ne 16 ]; then
            say FAIL "[$devs] $(splits) of 16 launches split"
        # A log read: the failed share is redone within the launch, no field records it.
        elif [ "$mode" = fault ] && ! grep -q "member 1 .* failed its share" "$tmp/log"; then
            say FAIL "[$devs] the injected fault was not seen"
        else
            say PASS "[$devs] byte-identical, $(splits) launches split"
        fi
    done ;;
examples)
    for devs in "pthread pthread" "pthread pthread basic"; do
        for d in "$bins"/../../examples/*/; do
            b=$d$(basename "$d")
            [ -x "$b" ] || continue
            rm -f "$tmp/log"
            out=$(under "$devs" "0.3,0.5,0.2" "$b" --quick --reps 1 2>&1)
            name=$(basename "$b")
            if ! grep -q '^PASSED' <<<"$out"; then
                say FAIL "[$devs] $name: $(tail -3 <<<"$out")"
            elif [ "$(splits)" -eq 0 ] && [ "$(wholes)" -eq 0 ]; then
                say FAIL "[$devs] $name: no launch logged"
            else
                say PASS "[$devs] $name ($(splits) split, $(wholes) whole)"
            fi
        done
    done ;;
spread)
    # Buffers that split launches read on two members with copies of their own
    # (SKMD_ZERO_COPY=0) take the app's next write into the host copy, from which each
    # member fetches its part; with zero-copy CPU members (the default) they never do.
    # The examples write their inputs again on every repetition and check the results.
    for name in vector_add gemm; do
        b=$bins/../../examples/$name/$name
        for set in "SKMD_ZERO_COPY=0" "SKMD_ZERO_COPY=1"; do
            rm -f "$tmp/log"
            out=$(POCL_DEVICES="pthread pthread" SKMD_SPLIT=0.4,0.6 SKMD_LOG="debug:$tmp/log" \
                  LD_PRELOAD="$preload" env $set "$b" --quick --reps 3 2>&1)
            # A log read: the app's writes are no launch, so no decision record.
            host=$(grep -c 'into the host copy' "$tmp/log" || true)
            if ! grep -q '^PASSED' <<<"$out"; then
                say FAIL "[$set] $name: $(tail -3 <<<"$out")"
            elif [ "$set" = SKMD_ZERO_COPY=0 ] && [ "$host" -eq 0 ]; then
                say FAIL "[$set] $name: no write went to the host copy"
            elif [ "$set" = SKMD_ZERO_COPY=1 ] && [ "$host" -ne 0 ]; then
                say FAIL "[$set] $name: $host writes went to the host copy (zero-copy members)"
            else
                say PASS "[$set] $name: PASSED, $host writes into the host copy"
            fi
        done
    done ;;
reads)
    # The app reads (parts of) a buffer that a split launch wrote on two members: each part
    # comes from the member that holds it (SKMD_ZERO_COPY=0: copies of their own; the
    # trace shows the reads from the member that is not the queue's), none is first gathered
    # on the queue's member; with SKMD_APP_TRANSFERS=driver they are (the old path). Exact
    # either way.
    # Streamed outputs off (they would serve these reads from the host copy), but in the
    # last set, which checks that both together stay exact.
    for set in "SKMD_ZERO_COPY=0" "SKMD_ZERO_COPY=1" "SKMD_ZERO_COPY=0 SKMD_APP_TRANSFERS=driver" \
               "SKMD_ZERO_COPY=0 SKMD_STREAM_OUTPUTS=auto"; do
        for devs in "pthread pthread" "pthread pthread basic"; do
            rm -f "$tmp/log" "$tmp/t.json"
            # Python keeps its objects at exit: no leak checks (the C tests do them).
            out=$(under "$devs" "0.3,0.7" env SKMD_STREAM_OUTPUTS=0 $set PYOPENCL_NO_CACHE=1 SKMD_TRACE="$tmp/t.json" \
                  ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" \
                  /usr/bin/python3 -W ignore tests/split/partial-reads.py 2>&1)
            q=$(sed -n 's/.*executing member: \([0-9]*\).*/\1/p' "$tmp/log" | head -1)
            read -r others gathered < <(/usr/bin/python3 -c '
import json, sys
q = int(sys.argv[2])
ev = [e for e in json.load(open(sys.argv[1]))["traceEvents"]
      if e["ph"] == "X" and e["args"]["launch"] == 0]
print(sum(1 for e in ev if e["cat"] == "transfer_out" and e["args"]["device"] != q),
      sum(e["args"]["bytes"] for e in ev if e["cat"] == "transfer_in" and e["args"]["device"] == q))
' "$tmp/t.json" "${q:-0}")
            what="$others reads from the other member, $gathered bytes gathered on the queue's member $q"
            if [ "$out" != ok ] || [ "$(splits)" -ne 2 ]; then
                say FAIL "[$devs] [$set] $(splits) split: $(tail -3 <<<"$out")"
            elif [ "$set" = SKMD_ZERO_COPY=0 ] && { [ "$others" -eq 0 ] || [ "$gathered" -ne 0 ]; }; then
                say FAIL "[$devs] [$set] $what"
            elif [ "${set#*driver}" != "$set" ] && [ "$gathered" -eq 0 ]; then
                say FAIL "[$devs] [$set] $what: nothing gathered with the driver's reads"
            else
                say PASS "[$devs] [$set] exact; $what"
            fi
        done
    done ;;
maps)
    # The app maps the inputs of split launches to write them and the output to read it
    # (maps.c prints ok: every element, CL_MEM_MAP_COUNT, the events): natively, then with
    # copies of their own on the members (SKMD_ZERO_COPY=0) or a zero-copy member, 2 and 3
    # members, and the driver's own transfers; every launch split. The mapped inputs are on
    # member 0: on 3 members, the two others' parts are gathered into the host copy at once
    # (gather.h) unless a peer copy takes them (SKMD_ZERO_COPY=0 in PoCL's one context).
    out=$("$bins/maps" 2>&1)
    [ "$out" = ok ] || say FAIL "native: $out"
    for set in "SKMD_ZERO_COPY=0" "SKMD_ZERO_COPY=1" "SKMD_ZERO_COPY=0 SKMD_APP_TRANSFERS=driver" \
               "SKMD_ZERO_COPY=0 SKMD_PEER_COPY=0" "SKMD_ZERO_COPY=1 SKMD_GATHER_INPUTS=0"; do
        for devs in "pthread pthread" "pthread pthread basic"; do
            split="0.4,0.6"
            [ "$devs" = "pthread pthread" ] || split="0.3,0.3,0.4"
            rm -f "$tmp/log"
            out=$(under "$devs" "$split" env SKMD_LOG="debug:$tmp/log" $set "$bins/maps" 2>&1)
            n=$(dec count 'r["kernel"] == "combine" and r["run"] == "split"')
            # A log read: gathers have no field in the decision log.
            g=$(grep -c 'gathered [1-9][0-9]* bytes .* for 2 members' "$tmp/log" || true)
            want=0
            [ "$devs" != "pthread pthread" ] && [ "$set" != "SKMD_ZERO_COPY=0" ] &&
                [ "${set#*GATHER_INPUTS=0}" = "$set" ] && [ "${set#*driver}" = "$set" ] && want=1
            if [ "$out" != ok ] || [ "$n" -ne 7 ]; then
                say FAIL "[$devs] [$set] $n of 7 launches split: $(tail -3 <<<"$out")"
            elif [ "$want" = 1 ] && [ "$g" -eq 0 ]; then
                say FAIL "[$devs] [$set] the mapped inputs were not gathered"
            elif [ "$want" = 0 ] && [ "$g" -ne 0 ]; then
                say FAIL "[$devs] [$set] $g gathers where none belongs"
            else
                say PASS "[$devs] [$set] exact, 7 launches split, $g gathers"
            fi
        done
    done ;;
placed)
    # The app writes a launch's inputs before each launch (placed-writes.py): the
    # partitioner's split is recorded as a placement and the next writes go straight to
    # the members that read each part (SKMD_PLACE_WRITES=always: whenever it splits), the
    # launches that follow take the placement's shares; exact every round. With copies of
    # their own (SKMD_ZERO_COPY=0) and zero-copy; SKMD_PLACE_WRITES=0 places nothing. Writes
    # below SKMD_TRANSFER_DIRECT_KIB are not placed: the 256 KB buffers need it lower.
    for set in "SKMD_ZERO_COPY=0 SKMD_TRANSFER_STAGE_CPU=1" "SKMD_ZERO_COPY=1" \
               "SKMD_ZERO_COPY=0 SKMD_PLACE_WRITES=0" "SKMD_ZERO_COPY=0 SKMD_TRANSFER_DIRECT_KIB=2048"; do
        for devs in "pthread pthread" "pthread pthread basic"; do
            rm -rf "$tmp/log" "$tmp/dec" "$tmp/cache"
            # The split must not hang on timings (a loaded machine can make the partitioner
            # run this small kernel whole): a first run fills the profile, its tables are
            # then set equal and kept (SKMD_REFINE=0), so every launch splits.
            placed_run() {
                POCL_DEVICES="$devs" SKMD_LOG="debug:$tmp/log" SKMD_DECISIONS="$tmp/dec" \
                    SKMD_MIN_SPLIT_WORKGROUPS=2 \
                    SKMD_TRANSFER_DIRECT_KIB=64 PYOPENCL_NO_CACHE=1 \
                    ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" env "$@" \
                    LD_PRELOAD="$preload" /usr/bin/python3 -W ignore tests/split/placed-writes.py 2>&1
            }
            placed_run SKMD_PLACE_WRITES=0 >/dev/null
            /usr/bin/python3 -c 'import sqlite3,sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE perf SET rate = 1000, samples = 50")
db.commit()' "$tmp/cache/profile.db"
            rm -f "$tmp/log" "$tmp/dec"
            out=$(placed_run SKMD_PLACE_WRITES=always SKMD_REFINE=0 $set)
            # A log read: the app's placed writes are no launch, so no decision record.
            writes=$(grep -c "bytes placed:" "$tmp/log")
            launches=$(dec count 'r["run"] == "split" and "inputs_placed" in r["tags"]')
            what="$writes placed writes, $launches launches on the placement's shares"
            none=$(grep -oE "PLACE_WRITES=0|DIRECT_KIB=2048" <<<"$set")
            if [ "$out" != ok ]; then
                say FAIL "[$devs] [$set] $(tail -3 <<<"$out")"
            elif [ -n "$none" ] && [ "$writes$launches" != 00 ]; then
                say FAIL "[$devs] [$set] $what"
            elif [ -z "$none" ] && { [ "$writes" -lt 2 ] || [ "$launches" -lt 2 ]; }; then
                say FAIL "[$devs] [$set] $what"
            else
                say PASS "[$devs] [$set] exact; $what"
            fi
        done
    done
    # Under auto, a launch whose output a later kernel reads before the app does is not
    # placed (its own writes would spread what that kernel then gathers): the plan says so
    # for lcg_rounds with the chain, and not without it.
    for flow in chain plain; do
        rm -f "$tmp/log"
        out=$(POCL_DEVICES="pthread pthread" SKMD_LOG="info:$tmp/log" SKMD_TRANSFER_DIRECT_KIB=64 \
                  SKMD_PLACE_WRITES=auto PYOPENCL_NO_CACHE=1 \
                  ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" LD_PRELOAD="$preload" \
                  /usr/bin/python3 -W ignore tests/split/placed-writes.py $flow 2>&1)
        # A log read: why a launch was not placed has no field (placed ones are tagged).
        told=$(grep -c "plan lcg_rounds: placement: none, its outputs feed later kernels" "$tmp/log")
        want=$([ $flow = chain ] && echo 1 || echo 0)
        if [ "$out" != ok ] || [ "$told" != "$want" ]; then
            say FAIL "[auto, $flow] $(tail -3 <<<"$out"); said $told times that lcg_rounds feeds kernels"
        else
            say PASS "[auto, $flow] exact; lcg_rounds's writes $([ $flow = chain ] && echo "not placed: its output feeds a kernel" || echo "judged by the estimate")"
        fi
    done ;;
events)
    # Asynchronous completion, callbacks, profiling span, error status, out-of-order
    # queues, a NULL local size (events.c prints ok); every launch split but the one
    # whose wait list failed. 'basic' devices are
    # left out: PoCL 3.1 hangs when commands wait on the app's user event with one in the
    # context (pocl issue 1177).
    # A first run with leak checks off: PoCL links new kernels with ld, which inherits
    # LD_PRELOAD and would fail on its own leaks under SAN=1; then PoCL's cache has them.
    under "pthread pthread" "0.3,0.7" env SKMD_MIN_SPLIT_WORKGROUPS=2 \
        ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" timeout 120 "$bins/events" \
        >/dev/null 2>&1
    rm -f "$tmp/log"
    out=$(under "pthread pthread" "0.3,0.7" env SKMD_MIN_SPLIT_WORKGROUPS=2 \
          timeout 120 "$bins/events" 2>&1)
    n=$(dec count 'r["kernel"] == "addk" and r["run"] != "whole"')
    if [ "$out" != ok ]; then
        say FAIL "$out"
    elif [ "$n" -ne 9 ]; then
        say FAIL "$n of 9 launches logged split (one with a NULL local size)"
    elif [ "$(dec count 'r["kernel"] == "addk" and r["reason"] == "wait_list_failed"')" != 1 ]; then
        say FAIL "the launch after a failed event was not logged as such"
    else
        say PASS "async completion, callback, profiling span, error status, out-of-order, NULL local size"
    fi ;;
moved)
    # 1-D vadd, 65536 floats, 1024 groups split 30/70. The inputs were written through
    # member 0's copy, so only member 1's 70% of each of the two inputs moves to devices.
    rm -f "$tmp/log"
    out=$(under "pthread pthread" "0.3,0.7" "$bins/moved" 2>&1)
    [ "$out" = ok ] || say FAIL "wrong result: $out"
    ins=$(dec list 'r["moved"]["in"] if r["kernel"] == "vadd" and r["split"] else ""' | grep .)
    in1=$(sed -n 1p <<<"$ins")
    in2=$(sed -n 2p <<<"$ins")
    # member 1 gets groups 307..1023 (717 of 64 floats) of a and b.
    want=$((717 * 64 * 4 * 2))
    if [ -z "$in1" ] || [ -z "$in2" ]; then
        say FAIL "the launches were not split: $(cat "$tmp/dec")"
    elif [ "$in1" -ne "$want" ]; then
        say FAIL "first launch moved $in1 input bytes, expected $want (70% of each input)"
    elif [ "$in2" -ne 0 ]; then
        say FAIL "second launch on unchanged inputs moved $in2 bytes"
    else
        say PASS "first launch moved $in1 bytes (70% of each input), second 0"
    fi ;;
peer)
    # Member-to-member copies. Without zero-copy every member has its own buffer, so bytes
    # one member wrote and another needs go by peer copy (members sharing one context:
    # SKMD_CONTEXTS=platform) or, with SKMD_PEER_COPY=0, through the host copy; the
    # default settings (CPU members zero-copy) need none. chain: 6 launches, each reading
    # its input rotated (member 1's work-groups read what member 0 wrote the launch
    # before), then the app reads through member 0.
    POCL_DEVICES=pthread "$bins/adversarial" "$tmp/native-adversarial.bin" >/dev/null &&
        POCL_DEVICES=pthread "$bins/chain" "$tmp/native-chain.bin" ||
        { say FAIL "native run failed"; exit 1; }
    peers() { dec list 'r["moved"]["peer"] if r["run"] != "whole" else 0' | awk '{s += $1} END {print s + 0}'; }
    for devs in "pthread pthread" "pthread pthread basic"; do
        for set in "SKMD_ZERO_COPY=0" "SKMD_ZERO_COPY=0 SKMD_PEER_COPY=0" "SKMD_PEER_COPY=1"; do
            for prog in chain adversarial; do
                rm -f "$tmp/log" "$tmp/split.bin" "$tmp/trace.json"
                # shellcheck disable=SC2086
                under "$devs" "0.3,0.5,0.2" env SKMD_CONTEXTS=platform $set SKMD_MIN_SPLIT_WORKGROUPS=2 \
                    SKMD_TRACE="$tmp/trace.json" "$bins/$prog" "$tmp/split.bin" \
                    >/dev/null 2>"$tmp/err" ||
                    { say FAIL "[$devs] [$set] $prog: run failed: $(tail -3 "$tmp/err")"; continue; }
                p=$(peers)
                spans=$(grep -o '"kernel":"peer from member [0-9]' "$tmp/trace.json" 2>/dev/null | wc -l)
                # Bytes member 0 wrote, copied straight into member 1's buffer.
                spans01=$(grep -o '"kernel":"peer from member 0","launch":[0-9]*,"device":1,' \
                          "$tmp/trace.json" 2>/dev/null | wc -l)
                if ! cmp -s "$tmp/native-$prog.bin" "$tmp/split.bin"; then
                    say FAIL "[$devs] [$set] $prog: output differs from the native run"
                elif [ "$prog" = chain ] && [ "$(splits)" -ne 6 ]; then
                    say FAIL "[$devs] [$set] chain: $(splits) of 6 launches split"
                elif [ "$set" = SKMD_ZERO_COPY=0 ] && [ "$prog" = chain ] &&
                    { [ "$p" -eq 0 ] || [ "$spans01" -eq 0 ]; }; then
                    say FAIL "[$devs] [$set] chain: no peer copy member 0 -> 1 ($p bytes logged, $spans01 trace spans)"
                elif [ "$set" != SKMD_ZERO_COPY=0 ] && { [ "$p" -ne 0 ] || [ "$spans" -ne 0 ]; }; then
                    say FAIL "[$devs] [$set] $prog: $p bytes by peer copy, $spans spans (want none)"
                else
                    say PASS "[$devs] [$set] $prog: byte-identical, $(splits) split, $p bytes by peer copy in $spans spans"
                fi
            done
        done
    done ;;
shapes)
    # Write footprints and merges (shapes.c): rows2d's shares are whole rows of 32
    # work-groups, planes3d's whole planes of 16, neither merged; the guarded stencil goes
    # by disjoint bounds; swap's bounds overlap, so it is merged. Forced uneven shares on 2
    # and 3 members, then the partitioner's own shares (no SKMD_SPLIT).
    POCL_DEVICES=pthread "$bins/shapes" "$tmp/native.bin" || { say FAIL "native run failed"; exit 1; }
    # KERNEL UNIT: the split lines of KERNEL whose share starts are not multiples of UNIT
    misaligned() { dec list "r['shares'] if r['kernel'] == '$1' and r['run'] != 'whole' else []" |
                   grep -o "'first': [0-9]*" | awk -v u="$2" '$2 % u != 0' | wc -l; }
    # KERNELS [TAG]: launches of those kernels ('a\|b') run in shares ("whole": as one
    # member's share; else a tag of a split: merged, bounds, rect)
    count() {
        dec list "r['kernel'] if r['run'] != 'whole' else ''" >"$tmp/kernels"
        dec list "' '.join(r['tags']) + (' whole' if r['run'] == 'one_share' else '')" |
            paste -d' ' "$tmp/kernels" - | grep "^\($1\) " | grep -c -- "${2:-}" || true
    }
    for run in "pthread pthread|0.3,0.5,0.2" "pthread pthread basic|0.3,0.5,0.2" \
               "pthread pthread|" "pthread pthread basic|"; do
        devs=${run%|*} split=${run#*|} what="[$devs] [${split:-partitioner}]"
        rm -f "$tmp/log" "$tmp/split.bin" "$tmp/db"
        under "$devs" "$split" env SKMD_PROFILE_DB="$tmp/db" "$bins/shapes" "$tmp/split.bin" \
            2>"$tmp/err" || { say FAIL "$what run failed: $(tail -3 "$tmp/err")"; continue; }
        bad=""
        cmp -s "$tmp/native.bin" "$tmp/split.bin" || bad="output differs from the native run"
        for k in rows2d planes3d stencil swap; do
            [ "$(count $k)" -gt 0 ] || bad="$bad; $k never split"
        done
        [ "$(misaligned rows2d 32)" -eq 0 ] || bad="$bad; rows2d shares not whole rows"
        [ "$(misaligned planes3d 16)" -eq 0 ] || bad="$bad; planes3d shares not whole planes"
        [ "$(count 'rows2d\|planes3d\|stencil' merged)" -eq 0 ] || bad="$bad; a merge where none is needed"
        # Every launch split among several members (not given whole to one):
        [ "$(count stencil bounds)" -eq $(($(count stencil) - $(count stencil whole))) ] ||
            bad="$bad; stencil split without its bounds"
        [ "$(count swap merged)" -eq $(($(count swap) - $(count swap whole))) ] ||
            bad="$bad; swap's overlapping bounds were not merged"
        if [ -n "$bad" ]; then
            say FAIL "$what ${bad#; }"
        else
            say PASS "$what byte-identical; split: rows2d $(count rows2d) ($(count rows2d whole) whole), planes3d $(count planes3d), stencil $(count stencil) ($(count stencil bounds) by bounds), swap $(count swap) ($(count swap merged) merged)"
        fi
    done ;;
told)
    # Three programs make the same two one-group kernels under forced shares: each launch
    # runs whole (decision log), and the warning that says why comes once per kernel name.
    out=$(under "pthread pthread" "0.4,0.6" env SKMD_LOG="warn:$tmp/log" "$bins/told" 2>&1)
    w1=$(grep -c 'kernel one_group runs whole on one device, not split as forced' "$tmp/log")
    w2=$(grep -c 'kernel one_group_too runs whole on one device, not split as forced' "$tmp/log")
    if [ "$out" != "told: ok" ] || [ "$(wholes)" -ne 6 ]; then
        say FAIL "6 whole launches expected, $(wholes) seen: $out"
    elif [ "$w1" -ne 1 ] || [ "$w2" -ne 1 ]; then
        say FAIL "the warnings came $w1 and $w2 times, once each expected"
    else
        say PASS "six whole launches from three programs, one warning per kernel name"
    fi ;;
*)
    echo "usage: $0 adversarial|examples|moved|fault|events|peer|spread|shapes|told PRELOAD BIN_DIR" >&2
    exit 2 ;;
esac
[ ! -e "$tmp/dec-failed" ] || say FAIL "tests/common/decisions.py failed (its error is above)"
exit $fail
