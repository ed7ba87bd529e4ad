#!/bin/bash
# replay.sh BINDIR NAME...: runs each harness BINDIR/fuzz_NAME once over every file of
# tests/fuzz/corpus/NAME/ (no fuzzing), then each known crasher of
# tests/fuzz/known-crashers.txt, which must still fail until its bug is fixed.
set -u
here=$(dirname "$0")
bindir=$1; shift
fail=0
# The ndrange harness drives PoCL: one CPU device, one compute unit.
env_for() {
  case $1 in
    ndrange) echo "POCL_DEVICES=pthread POCL_CPU_MAX_CU_NUM=1 ASAN_OPTIONS=detect_leaks=0" ;;
    *) echo "" ;;
  esac
}
for name in "$@"; do
  corpus=$here/corpus/$name
  files=("$corpus"/*)
  if [ ! -e "${files[0]}" ]; then echo "FAIL fuzz-replay $name: empty corpus $corpus"; fail=1; continue; fi
  if out=$(env $(env_for "$name") "$bindir/fuzz_$name" -runs=0 "$corpus" 2>&1); then
    echo "PASS fuzz-replay $name (${#files[@]} inputs)"
  else
    echo "FAIL fuzz-replay $name"; echo "$out" | tail -30; fail=1
  fi
done
# Known crashers: "NAME FILE" a line; each must still make its harness fail.
if [ -f "$here/known-crashers.txt" ]; then
  while read -r name file _; do
    case $name in ''|'#'*) continue ;; esac
    # -timeout: a hang is a failure too
    # (braces: the shell's own "Aborted" line goes to /dev/null too)
    if { env $(env_for "$name") timeout 120 "$bindir/fuzz_$name" -timeout=4 \
        "$here/$file"; } >/dev/null 2>&1; then
      echo "FAIL fuzz-replay: known crasher $file no longer crashes: the bug is fixed, move it into corpus/$name/"
      fail=1
    else
      echo "XFAIL fuzz-replay $name $file (known crash, expected until fixed)"
    fi
  done < "$here/known-crashers.txt"
fi
exit $fail
