#!/bin/bash
# tests/install: libskmd used as an installed ICD, without LD_PRELOAD. `make install` into
# a scratch PREFIX (no DESTDIR, so that skmd.icd names the library where it really is),
# then with OCL_ICD_VENDORS naming only the installed vendors directory the loader sees
# the SKMD platform alone, and an unmodified example PASSes with its launches split over
# two PoCL devices (libskmd reaching PoCL through SKMD_REAL_VENDORS, /etc/OpenCL/vendors).
# usage: test-icd-route.sh SCRATCH BUILD_PREFIX [make variables...]
set -u
scratch=$1; build=$2; shift 2
fail=0
bad() { echo "FAIL test-icd-route: $*"; fail=1; }
rm -rf "$scratch"
make --no-print-directory -s install PREFIX="$scratch/usr/local" \
  ICD_DIR="$scratch/etc/OpenCL/vendors" "$@" >/dev/null || { echo "FAIL test-icd-route: make install failed"; exit 1; }
vendors=$scratch/etc/OpenCL/vendors
[ "$(ls "$vendors")" = skmd.icd ] || bad "the vendors directory holds $(ls "$vendors"), want skmd.icd alone"
export OCL_ICD_VENDORS=$vendors POCL_DEVICES="pthread pthread" POCL_CPU_MAX_CU_NUM=1
unset LD_PRELOAD
# Under SAN=1 the installed library is built with ASan: clinfo (not built with it) needs
# the ASan runtime loaded first. The examples of that build already have it.
asan=
[ -n "$build" ] && asan=$(${CC:-cc} -print-file-name=libasan.so)
platforms=$(LD_PRELOAD=$asan clinfo -l 2>&1)
[ "$(grep -c '^Platform' <<<"$platforms")" = 1 ] && grep -q '^Platform #0: SKMD$' <<<"$platforms" \
  || bad "clinfo -l does not show the SKMD platform alone: $platforms"
# (equal shares: the partitioner may rightly give a small launch to one device)
out=$(SKMD_REPORT=1 SKMD_POLICY=equal "${build}examples/vector_add/vector_add" --quick 2>&1)
grep -q '^PASSED' <<<"$out" || bad "vector_add did not pass through the ICD route: $out"
grep -q '^libskmd report: .* on 2 devices' <<<"$out" || bad "vector_add did not run on the SKMD platform: $out"
grep -Eq '^vector_add +[0-9]+ +[1-9][0-9]*/' <<<"$out" || bad "no vector_add launch was split: $out"
# skmd-info on the ICD route lists the real devices, never the SKMD platform itself
out=$(LD_PRELOAD=$asan "$scratch/usr/local/bin/skmd-info" --json 2>&1)
/usr/bin/python3 -c '
import json, sys
m = json.loads(sys.stdin.read())["members"]
assert len(m) == 2 and all(x["platform"] != "SKMD" for x in m), m
' <<<"$out" || bad "skmd-info on the ICD route shows SKMD inside SKMD: $out"
# A vendors setting that names no driver gets a clear error, not a hang or a crash.
out=$(LD_PRELOAD=$asan SKMD_REAL_VENDORS=$scratch/none clinfo -l 2>&1)
grep -q 'SKMD_REAL_VENDORS' <<<"$out" || bad "no driver in SKMD_REAL_VENDORS is not explained: $out"
rm -rf "$scratch"
[ $fail = 0 ] && echo "PASS test-icd-route"
exit $fail
