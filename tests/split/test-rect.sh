#!/bin/bash
# tests/split/test-rect.sh PRELOAD BIN_DIR: shares whose writes are boxes (rect.c) on 2, 3
# and 5 PoCL devices with forced uneven shares: the outputs are byte-identical to a native
# one-device run; every transpose launch split among several members (the guarded one
# too) is committed by boxes (the decision log's tag "rect") and none is merged; the
# transpose under a data condition and the kernel whose rows overlap between shares are
# merged.
set -u
preload=$1 bins=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export POCL_CPU_MAX_CU_NUM=1 SKMD_CACHE_DIR="$tmp/cache" SKMD_MIN_SPLIT_WORKGROUPS=2
fail=0
say() { echo "$1 split-rect: $2"; [ "$1" = PASS ] || fail=1; }

POCL_DEVICES=pthread "$bins/rect" "$tmp/native.bin" || { say FAIL "native run failed"; exit 1; }
# The decision log of the last run (tests/common/decisions.py QUERY ...).
# A failure of its own (a bad line, a bad query) is marked, and fails the test at the end.
dec() { /usr/bin/python3 "$(dirname "$0")/../common/decisions.py" "$tmp/dec" "$@" || touch "$tmp/dec-failed"; }
# KERNEL|all [TAG]: launches of KERNEL (all: of any kernel) split among several members
# (with TAG among the record's tags: rect, merged, bounds)
count() {
    local e="r['run'] == 'split'"
    [ "$1" = all ] || e="$e and r['kernel'] == '$1'"
    [ -z "${2:-}" ] || e="$e and '$2' in r['tags']"
    dec count "$e"
}
# DEVICES|SPLIT|CONTROLS: with zero-copy members (their boxes are in the host copy
# already), with copies of their own in one real context (a rectangular peer copy) and in
# contexts of their own (a rectangular read into the host copy, then a rectangular write).
for run in "pthread pthread|0.3,0.7|" "pthread pthread basic|0.3,0.5,0.2|" \
           "pthread pthread pthread pthread basic|0.15,0.3,0.1,0.25,0.2|" \
           "pthread pthread|0.6,0.4|SKMD_ZERO_COPY=0" \
           "pthread pthread|0.6,0.4|SKMD_ZERO_COPY=0 SKMD_CONTEXTS=device"; do
    IFS='|' read -r devs split controls <<<"$run"
    what="[$devs] [$split]${controls:+ [$controls]}"
    rm -f "$tmp/dec" "$tmp/split.bin"
    env $controls POCL_DEVICES="$devs" SKMD_SPLIT="$split" SKMD_DECISIONS="$tmp/dec" \
        LD_PRELOAD="$preload" "$bins/rect" "$tmp/split.bin" 2>"$tmp/err" ||
        { say FAIL "$what run failed: $(tail -3 "$tmp/err")"; continue; }
    bad=""
    cmp -s "$tmp/native.bin" "$tmp/split.bin" || bad="output differs from the native run"
    for k in t2d t2d_char t2d_float4 t1d t3d t2d_guard; do
        n=$(count $k)
        [ "$n" -eq 2 ] || bad="$bad; $k split $n of 2 times"
        [ "$(count $k rect)" -eq "$n" ] || bad="$bad; $k not committed by boxes"
        [ "$(count $k merged)" -eq 0 ] || bad="$bad; $k merged"
    done
    [ "$(count t2d_data merged)" -eq 2 ] || bad="$bad; data-dependent gaps not merged"
    [ "$(count overlap merged)" -eq 2 ] || bad="$bad; overlapping rows not merged"
    [ "$(count overlap rect)" -eq 0 ] || bad="$bad; overlapping rows committed as boxes"
    if [ -n "$bad" ]; then
        say FAIL "$what ${bad#; }"
    else
        say PASS "$what byte-identical; by boxes: $(count all rect), merged: $(count all merged)"
    fi
done
[ ! -e "$tmp/dec-failed" ] || say FAIL "tests/common/decisions.py failed (its error is above)"
exit $fail
