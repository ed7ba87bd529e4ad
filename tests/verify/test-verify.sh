#!/bin/bash
# tests/verify/test-verify.sh PRELOAD VERIFY_BINS SPLIT_BINS: SKMD_VERIFY on local PoCL
# devices under forced uneven shares. Correct splits (verify_app.c, and the adversarial
# set of tests/split) verify with 0 mismatches; a split broken on purpose
# (SKMD_FAULT_CORRUPT=1: member 1's share output has one byte flipped) is caught, the
# mismatch naming the kernel, the buffer argument and member 1's share. The assertions
# read the JSON lines of SKMD_VERIFY_FILE (docs/verify.md).
set -u
preload=$1 bins=$2 split_bins=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export POCL_CPU_MAX_CU_NUM=1 SKMD_CACHE_DIR="$tmp/cache"
fail=0
say() { echo "$1 verify: $2"; [ "$1" = PASS ] || fail=1; }

# NAME DEVICES SPLIT CMD...: CMD under libskmd with SKMD_VERIFY; $tmp/NAME.{jsonl,out,err}.
under() {
    local name=$1 devs=$2 split=$3
    shift 3
    POCL_DEVICES="$devs" SKMD_SPLIT="$split" SKMD_VERIFY=1 \
        SKMD_VERIFY_FILE="$tmp/$name.jsonl" LD_PRELOAD="$preload" "$@" \
        >"$tmp/$name.out" 2>"$tmp/$name.err"
}

# NAME clean MIN | NAME caught KERNEL:ARG...: asserts on $tmp/NAME.jsonl; prints what held.
check() {
    python3 - "$tmp/$1.jsonl" "${@:2}" <<'PY'
import json, sys
path, mode, args = sys.argv[1], sys.argv[2], sys.argv[3:]
try:
    lines = [json.loads(l) for l in open(path)]
except (OSError, ValueError) as e:
    sys.exit("no readable JSON lines: %s" % e)
launches = [l for l in lines if l["event"] == "launch"]
sums = [l for l in lines if l["event"] == "summary"]
if len(sums) != 1:
    sys.exit("%d summary lines" % len(sums))
s = sums[0]
if s["verified"] != len([l for l in launches if l["result"] != "not verified"]):
    sys.exit("summary %s does not count the launch lines" % s)
if mode == "clean":
    bad = [l for l in launches if l["result"] != "ok"]
    if bad:
        sys.exit("not ok: %s" % bad[0])
    if s["mismatches"] != 0 or s["not_verified"] != 0 or s["verified"] < int(args[0]):
        sys.exit("summary %s (want >= %s verified, 0 mismatches)" % (s, args[0]))
    kernels = sorted({l["kernel"] for l in launches})
    print("%d verified (%s), 0 mismatches" % (s["verified"], " ".join(kernels)))
else:
    for want in args:
        kernel, arg = want.split(":")
        hits = [l for l in launches if l["result"] == "mismatch" and l["kernel"] == kernel
                and l["arg"] == int(arg)]
        if not hits:
            sys.exit("no mismatch of %s argument %s" % (kernel, arg))
        h = hits[0]
        share = h["by_share"]
        if not share or share["member"] != 1:
            sys.exit("%s: the difference is not put on member 1's share: %s" % (kernel, h))
        if not any(x == share for x in h["shares"]) or share["first"] == 0:
            sys.exit("%s: by_share %s is not member 1's share of %s" % (kernel, share,
                                                                     h["shares"]))
    if s["mismatches"] < len(args):
        sys.exit("summary %s" % s)
    print("%d of %d launches mismatch, each on member 1's share (%s)" %
          (s["mismatches"], s["verified"], " ".join(args)))
PY
}

# 1. Correct splits: 0 mismatches, every split launch verified.
for devs in "pthread pthread:0.3,0.7" "pthread pthread basic:0.3,0.5,0.2"; do
    name=app-${devs%%:*}
    name=${name// /-}
    if ! under "$name" "${devs%%:*}" "${devs#*:}" "$bins/verify_app" ||
        ! grep -q '^PASSED' "$tmp/$name.out"; then
        say FAIL "[${devs%%:*}] verify_app: $(tail -3 "$tmp/$name.out" "$tmp/$name.err")"
    elif ! out=$(check "$name" clean 6 2>&1); then
        say FAIL "[${devs%%:*}] verify_app: $out"
    elif ! grep -q '^libskmd verify: 6 split launches verified, 0 with a mismatch, 0 not verified$' \
        "$tmp/$name.err"; then
        say FAIL "[${devs%%:*}] verify_app: no summary line at exit"
    else
        say PASS "[${devs%%:*}] verify_app: $out"
    fi
done

# The adversarial set (offsets, 3-D, merges, in place, aliased arguments, sub-buffers):
# verified, and its dumped buffers still those of a native run.
POCL_DEVICES=pthread "$split_bins/adversarial" "$tmp/native.bin" >/dev/null ||
    say FAIL "adversarial: native run failed"
if ! under adv "pthread pthread" 0.3,0.7 env SKMD_MIN_SPLIT_WORKGROUPS=2 \
    "$split_bins/adversarial" "$tmp/split.bin"; then
    say FAIL "adversarial: run failed: $(tail -3 "$tmp/adv.err")"
elif ! out=$(check adv clean 16 2>&1); then
    say FAIL "adversarial: $out"
elif ! cmp -s "$tmp/native.bin" "$tmp/split.bin"; then
    say FAIL "adversarial: output differs from the native run"
else
    say PASS "adversarial: $out, byte-identical to native"
fi

# 2. A split broken on purpose: caught, naming kernel, buffer and member 1's share; the
# app keeps the split's (wrong) results.
under corrupt "pthread pthread" 0.3,0.7 env SKMD_FAULT_CORRUPT=1 "$bins/verify_app"
if grep -q '^PASSED' "$tmp/corrupt.out"; then
    say FAIL "corrupt: the app saw right results: the split's output was not the app's"
elif ! out=$(check corrupt caught scale:1 bump:0 rows:1 2>&1); then
    say FAIL "corrupt: $out"
elif ! grep -q "error: verify: launch [0-9]* scale: buffer argument 1 .* written by member 1's share" \
    "$tmp/corrupt.err"; then
    say FAIL "corrupt: no error line naming scale's buffer argument 1: $(head -3 "$tmp/corrupt.err")"
else
    say PASS "corrupt: $out"
fi
exit $fail
