#!/bin/bash
# Runs tests/device's programs (module.mk says what each checks) on POCL_DEVICES="pthread
# pthread" and "pthread pthread basic" (subdevices also on one member), under libskmd;
# memflags natively too. Env: O (build prefix), PRELOAD_SKMD (LD_PRELOAD value).
set -u
cd "$(dirname "$0")/../.."
bin="${O}tests/device"
out="$bin/out"                      # kept, so that a failure can be read
rm -rf "$out" && mkdir -p "$out"
failures=0
pass() { echo "PASS device $1"; }
fail() { echo "FAIL device $1"; failures=$((failures + 1)); }
skmd() { LD_PRELOAD="$PRELOAD_SKMD" timeout 120 "$@"; }

for devices in "pthread pthread" "pthread pthread basic" "pthread"; do
  export POCL_DEVICES="$devices"
  tag="${devices// /-}"
  if [ "$devices" != "pthread" ]; then
    # Natively, only the driver's verdicts are of interest: no leak check there (under
    # SAN=1, LeakSanitizer's tracer crashes at PoCL's exit on two pthread devices).
    if ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
         timeout 120 "$bin/memflags" > "$out/memflags.$tag.native" 2>&1 &&
       skmd "$bin/memflags" > "$out/memflags.$tag.skmd" 2>&1; then
      pass "memflags [$devices]"
    else
      fail "memflags [$devices] (see $out/memflags.$tag.*)"
    fi
    if SKMD_SHOW_REAL=1 skmd "$bin/devinfo" > "$out/devinfo.$tag" 2>&1; then
      pass "devinfo [$devices]"
    else
      fail "devinfo [$devices] (see $out/devinfo.$tag)"
    fi
    # The exit line comes exactly when no OpenCL call reached libskmd.
    skmd "$bin/nocall" > /dev/null 2> "$out/nocall.$tag.none"
    skmd "$bin/nocall" call > /dev/null 2> "$out/nocall.$tag.call"
    if grep -q "libskmd: warn: bypassed" "$out/nocall.$tag.none" &&
       ! grep -q "bypassed" "$out/nocall.$tag.call"; then
      pass "nocall [$devices]"
    else
      fail "nocall [$devices] (see $out/nocall.$tag.*)"
    fi
  fi
  # Sub-devices: told the members' compute units by a native run; shares forced equal so
  # that a sub-device of several members splits, and its launch lines must name only
  # its members (on three members: 0 and 1, never 2).
  # The decision log (tests/common/decisions.py) says how each launch ran.
  units=$(timeout 60 "$bin/subdevices" --units)
  dec="$out/subdevices.$tag.jsonl"
  if SKMD_POLICY=equal SKMD_LOG=info SKMD_DECISIONS="$dec" skmd "$bin/subdevices" $units \
       > "$out/subdevices.$tag" 2> "$out/subdevices.$tag.err"; then
    splits=$(/usr/bin/python3 tests/common/decisions.py "$dec" count \
               'r["kernel"] == "scale" and r["run"] == "split"')
    on2=$(/usr/bin/python3 tests/common/decisions.py "$dec" count \
            'r["kernel"] == "scale" and r["run"] != "whole" and 2 in [s["member"] for s in r["shares"]]')
    if [ "$(echo $units | wc -w)" = 3 ] && { [ "$splits" = 0 ] || [ "$on2" != 0 ]; }; then
      fail "subdevices [$devices]: a sub-device's launch not split over its own members"
    else
      pass "subdevices [$devices] ($splits split launches)"
    fi
  else
    fail "subdevices [$devices] (see $out/subdevices.$tag*)"
    tail -n 5 "$out/subdevices.$tag.err"
  fi
done
exit $((failures != 0))
