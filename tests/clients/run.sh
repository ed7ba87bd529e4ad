#!/bin/bash
# Real clients, unchanged, under libskmd on two PoCL CPU devices: pyopencl's own kernels
# (checked against numpy) and clinfo (no errors, one platform with one device).
# Usage: run.sh pyopencl|clinfo   Env: PRELOAD_SKMD (the LD_PRELOAD value for libskmd).
set -u
cd "$(dirname "$0")/../.."
export POCL_DEVICES="pthread pthread" POCL_CPU_MAX_CU_NUM=1
# Programs not built with ASan: their own leaks are not ours (a no-op outside SAN builds).
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"   # the last setting wins
out="${O:-}tests/clients/out"
rm -rf "$out/$1" && mkdir -p "$out/$1"
case "$1" in
pyopencl)
  # pyopencl caches binaries on disk: a cache from a native run must not stand in.
  export PYOPENCL_NO_CACHE=1 PYOPENCL_CTX=0
  LD_PRELOAD="$PRELOAD_SKMD" timeout 300 /usr/bin/python3 tests/clients/pyopencl_checks.py \
    > "$out/$1/stdout" 2> "$out/$1/stderr"; rc=$?
  sed 's/^/  /' "$out/$1/stdout"
  if [ $rc = 0 ] && ! grep -q '^FAIL' "$out/$1/stdout" && [ "$(grep -c '^PASS' "$out/$1/stdout")" = 6 ]; then
    echo "PASS clients pyopencl under libskmd"
  else
    echo "FAIL clients pyopencl under libskmd (rc $rc), see $out/$1/"; tail -n 5 "$out/$1/stderr"; exit 1
  fi ;;
clinfo)
  LD_PRELOAD="$PRELOAD_SKMD" timeout 120 clinfo > "$out/$1/stdout" 2> "$out/$1/stderr"; rc=$?
  fail=""
  [ $rc = 0 ] || fail="exit status $rc"
  grep -Eq '^Number of platforms +1$' "$out/$1/stdout" || fail="$fail; not one platform"
  grep -Eq '^Number of devices +1$' "$out/$1/stdout" || fail="$fail; not one device"
  # clinfo shows a failed query as "<... error ...>" or "Invalid ..." in place of a value.
  errors=$(grep -Ei '<[^>]*error|CL_INVALID|CL_OUT_OF' "$out/$1/stdout")
  [ -z "$errors" ] || fail="$fail; failed queries: $(head -3 <<<"$errors" | tr -s ' ' | tr '\n' '|')"
  if [ -z "$fail" ]; then echo "PASS clients clinfo under libskmd"
  else echo "FAIL clients clinfo under libskmd: ${fail#; }, see $out/$1/"; exit 1; fi ;;
*) echo "usage: $0 pyopencl|clinfo" >&2; exit 2 ;;
esac
