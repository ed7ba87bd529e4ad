#!/bin/bash
# tests/native-source/test-native-source.sh MODE PRELOAD SPLIT_BIN_DIR [OWN_BIN_DIR]: split
# launches whose shares all run from the app's own source (SKMD_SHARE_BUILD=source) on
# local PoCL devices, under forced uneven shares (MODE: adversarial, examples, fault;
# from OWN_BIN_DIR: ids, every work-item function byte-identical; unsafe, a source the
# prelude cannot take runs whole; stub, the auto route on the stub ICD; shapes, new launch
# shapes past a program's first 4 built in the background, not on the launch's path). Besides the
# outputs, the decision log says which launches split or ran whole, and the debug log must
# show every member building the source for its shares (so the ir route cannot pass for
# it; the decision log does not say how a share was built).
set -u
mode=$1 preload=$2 bins=$3 own=${4:-}
unsafe_bin=$own/unsafe ids_bin=$own/ids
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export POCL_CPU_MAX_CU_NUM=1 SKMD_CACHE_DIR="$tmp/cache" SKMD_SHARE_BUILD=source
fail=0
say() { local r=$1; shift; echo "$r native-source-$mode: $*"; [ "$r" = PASS ] || fail=1; }

under() { # DEVICES CMD...: runs CMD under libskmd, log in $tmp/log, decisions in $tmp/dec
    local devs=$1
    shift
    rm -f "$tmp/dec"
    POCL_DEVICES="$devs" SKMD_SPLIT="0.3,0.5,0.2" SKMD_LOG="debug:$tmp/log" \
        SKMD_DECISIONS="$tmp/dec" LD_PRELOAD="$preload" "$@"
}

# The decision log of the last run (tests/common/decisions.py QUERY ...).
# A failure of its own (a bad line, a bad query) is marked, and fails the test at the end.
dec() { /usr/bin/python3 "$(dirname "$0")/../common/decisions.py" "$tmp/dec" "$@" || touch "$tmp/dec-failed"; }
# Launches split over several members, and launches run whole on the queue's member.
splits() { dec count 'r["run"] == "split"'; }
wholes() { dec count 'r["run"] == "whole"'; }

# Which of members 0..N-1 never built the source for a share ("" when all did).
missing_builds() {
    local n=$1 m
    for ((m = 0; m < n; m++)); do
        grep -q "member $m (.*): source build for shares" "$tmp/log" || echo -n "$m "
    done
}

case $mode in
adversarial|fault)
    POCL_DEVICES=pthread "$bins/adversarial" "$tmp/native.bin" >/dev/null ||
        { say FAIL "native run failed"; exit 1; }
    devlist=("pthread pthread" "pthread pthread basic")
    [ "$mode" = fault ] && devlist=("pthread pthread basic")
    for devs in "${devlist[@]}"; do
        rm -f "$tmp/log"
        n=$(wc -w <<<"$devs")
        extra=()
        [ "$mode" = fault ] && extra=(env SKMD_FAULT_MEMBER=1)
        under "$devs" "${extra[@]}" env SKMD_MIN_SPLIT_WORKGROUPS=2 \
            "$bins/adversarial" "$tmp/split.bin" >/dev/null 2>"$tmp/err" ||
            { say FAIL "[$devs] run failed: $(tail -3 "$tmp/err")"; continue; }
        if ! cmp -s "$tmp/native.bin" "$tmp/split.bin"; then
            say FAIL "[$devs] output differs from the native run"
        elif [ "$mode" = adversarial ] && [ "$(splits)" -ne 16 ]; then
            say FAIL "[$devs] $(splits) of 16 launches split"
        elif [ -n "$(missing_builds "$n")" ]; then
            say FAIL "[$devs] members $(missing_builds "$n")did not build the source"
        # A log read: the failed share is redone within the launch, no field records it.
        elif [ "$mode" = fault ] && ! grep -q "member 1 .* failed its share" "$tmp/log"; then
            say FAIL "[$devs] the injected fault was not seen"
        else
            say PASS "[$devs] byte-identical, $(splits) launches split, shares from source ($(
                grep -c 'source build for shares' "$tmp/log") builds)"
        fi
    done ;;
examples)
    for devs in "pthread pthread" "pthread pthread basic"; do
        n=$(wc -w <<<"$devs")
        for d in "$bins"/../../examples/*/; do
            b=$d$(basename "$d")
            [ -x "$b" ] || continue
            rm -f "$tmp/log"
            out=$(under "$devs" "$b" --quick --reps 1 2>&1)
            name=$(basename "$b")
            if ! grep -q '^PASSED' <<<"$out"; then
                say FAIL "[$devs] $name: $(tail -3 <<<"$out")"
            elif [ "$(dec count 1)" -eq 0 ]; then
                say FAIL "[$devs] $name: no launch in the decision log"
            elif [ "$(splits)" -gt 0 ] && [ -n "$(missing_builds "$n")" ]; then
                say FAIL "[$devs] $name: members $(missing_builds "$n")did not build the source"
            else
                say PASS "[$devs] $name ($(splits) split from source, $(wholes) whole)"
            fi
        done
    done ;;
ids)
    # Every work-item function, per work-item, for dimensions 0..3 (ids.c).
    POCL_DEVICES=pthread "$ids_bin" "$tmp/native.bin" >/dev/null ||
        { say FAIL "native run failed"; exit 1; }
    for devs in "pthread pthread" "pthread pthread basic"; do
        rm -f "$tmp/log"
        under "$devs" env SKMD_MIN_SPLIT_WORKGROUPS=2 "$ids_bin" "$tmp/split.bin" \
            >/dev/null 2>"$tmp/err" ||
            { say FAIL "[$devs] run failed: $(tail -3 "$tmp/err")"; continue; }
        if ! cmp -s "$tmp/native.bin" "$tmp/split.bin"; then
            say FAIL "[$devs] work-item ids differ from the native run"
        elif [ "$(splits)" -ne 3 ]; then
            say FAIL "[$devs] $(splits) of 3 launches split"
        elif [ -n "$(missing_builds "$(wc -w <<<"$devs")")" ]; then
            say FAIL "[$devs] some members did not build the source"
        else
            say PASS "[$devs] every work-item function byte-identical in 3 split launches"
        fi
    done ;;
stub)
    # The default route choice (auto) on a driver that is not PoCL: the stub ICD's 3
    # devices each take a share from the source, as boxes placed by the global offset.
    stub=$own/../stub-icd
    export OCL_ICD_VENDORS=$PWD/$stub/vendors
    rm -f "$tmp/log"
    out=$(SKMD_SHARE_BUILD=auto SKMD_STUB_DEVICES=3 SKMD_STUB_TYPES=cpu,gpu,gpu \
        SKMD_STUB_LOG="$tmp/stub.log" under "pthread" "$stub/stub_app" 2>&1)
    launches=$(grep -c '^clEnqueueNDRangeKernel dev=[012] .*name=add_one .*-> CL_SUCCESS' \
        "$tmp/stub.log")
    if ! grep -q '^PASSED$' <<<"$out"; then
        say FAIL "stub app: $(tail -3 <<<"$out")"
    elif [ "$(dec count '(r["kernel"] == "add_one" and
                           {0, 1, 2} <= {s["member"] for s in r["shares"]})')" -eq 0 ]; then
        say FAIL "add_one was not split over the 3 stub devices"
    elif [ -n "$(missing_builds 3)" ] || [ "$launches" -ne 3 ] ||
        ! grep -q '^clBuildProgram .*-D__SKMD_O0=0 ' "$tmp/stub.log" ||
        ! grep -q '^clEnqueueNDRangeKernel dev=2 .*name=add_one .*offset=[1-9]' "$tmp/stub.log"
    then
        say FAIL "the stub devices did not run add_one from the source ($launches launches)"
    else
        say PASS "stub devices (not PoCL) took the source route: right results," \
            "$launches offset launches of add_one"
    fi ;;
unsafe)
    # A source that tests a prelude name: on the source route no member takes a share
    # (the launch runs whole, right); on the ir route (auto on PoCL) it is split.
    for how in source auto; do
        rm -f "$tmp/log"
        out=$(SKMD_SHARE_BUILD=$how under "pthread pthread" "$unsafe_bin" 2>&1)
        ids=$(dec list 'r["run"] if r["kernel"] == "ids" else ""' | grep . | tr '\n' ' ')
        if [ "$out" != ok ]; then
            say FAIL "[$how] wrong result: $out"
        # A log read: why the source was refused (the prelude name) has no field.
        elif [ $how = source ] && ! grep -q "gets no shares.*get_num_groups" "$tmp/log"; then
            say FAIL "[$how] the refused source was not logged"
        elif [ $how = source ] && [ "$ids" != "whole " ]; then
            say FAIL "[$how] the launch was not run whole"
        elif [ $how = auto ] && [ "$(splits)" -ne 1 ]; then
            say FAIL "[$how] the launch was not split on the ir route"
        else
            say PASS "[$how] right result, ids: $ids"
        fi
    done ;;
shapes)
    # One kernel at 8 sizes, the partitioner's own shares: the first 4 shapes are built
    # at their first launch, later ones in the background; then 70 sizes under forced
    # shares, built up to 64 (new_shapes.py says more).
    # Python keeps its objects at exit: no leak checks (ASan's other checks stay on).
    PYOPENCL_NO_CACHE=1 POCL_DEVICES="pthread pthread" SKMD_DECISIONS="$tmp/dec" \
        ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" LD_PRELOAD="$preload" /usr/bin/python3 "$(dirname "$0")/new_shapes.py" "$tmp/dec" 2>"$tmp/err"
    [ $? -eq 0 ] || { fail=1; tail -3 "$tmp/err"; }
    # Forced shares: 70 sizes, builds for the first 64 shapes only.
    rm -f "$tmp/dec"
    PYOPENCL_NO_CACHE=1 POCL_DEVICES="pthread pthread" SKMD_DECISIONS="$tmp/dec" \
        SKMD_SPLIT=0.5,0.5 SKMD_MIN_SPLIT_WORKGROUPS=2 \
        ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" LD_PRELOAD="$preload" /usr/bin/python3 "$(dirname "$0")/new_shapes.py" "$tmp/dec" forced 2>"$tmp/err"
    [ $? -eq 0 ] || { fail=1; tail -3 "$tmp/err"; } ;;
*)
    echo "usage: $0 adversarial|examples|fault|ids|shapes|stub|unsafe PRELOAD" \
        "SPLIT_BIN_DIR [OWN_BIN_DIR]" >&2
    exit 2 ;;
esac
[ ! -e "$tmp/dec-failed" ] || say FAIL "tests/common/decisions.py failed (its error is above)"
exit $fail
