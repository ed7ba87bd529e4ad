#!/bin/bash
# tests/controls: skmd-run sets the SKMD_* variables from its flags, preloads the library it
# finds next to itself (or --lib), passes the program's arguments untouched, and rejects bad
# flags with a message naming the problem.
# usage: test-skmd-run.sh SKMD_RUN EMPTY_SO WORKDIR
set -u
run=$1 empty=$2 work=$3
fail=0
check() { # check DESCRIPTION COMMAND...: the command must succeed
  local what=$1; shift
  if ! "$@"; then echo "FAIL skmd-run: $what"; fail=1; fi
}
rm -rf "$work" && mkdir -p "$work/bin"

out=$("$run" --lib "$empty" --devices gpu,cpu --mode=single --split 0.3,0.7 --report \
  --no-show-real --log info --trace "$work/t.json" --min-split-workgroups 4 -- env)
for want in SKMD_DEVICES=gpu,cpu SKMD_MODE=single SKMD_SPLIT=0.3,0.7 SKMD_REPORT=1 \
  SKMD_SHOW_REAL=0 SKMD_LOG=info "SKMD_TRACE=$work/t.json" SKMD_MIN_SPLIT_WORKGROUPS=4; do
  check "env lacks $want" grep -qx -- "$want" <<<"$out"
done
check "LD_PRELOAD is not the --lib library" grep -qx -- "LD_PRELOAD=$empty" <<<"$out"

# an earlier LD_PRELOAD is kept, after ours
# (the sanitizer build of skmd-run must accept a preload ahead of its runtime)
out=$(ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD=$empty "$run" --lib "$empty" env)
check "earlier LD_PRELOAD lost" grep -qx -- "LD_PRELOAD=$empty:$empty" <<<"$out"

# the program's own arguments, even ones that look like flags, are passed untouched
out=$("$run" --lib "$empty" -- printf '%s|' --mode 'two words' --report)
check "arguments changed: $out" test "$out" = "--mode|two words|--report|"
out=$("$run" --lib "$empty" printf '%s|' --report)
check "arguments after the program changed: $out" test "$out" = "--report|"

# the library is found next to the tool (a copy of skmd-run with a libskmd.so beside it)
cp "$run" "$work/bin/skmd-run" && cp "$empty" "$work/bin/libskmd.so"
out=$("$work/bin/skmd-run" --dry-run -- true)
check "libskmd.so next to the tool not found: $out" grep -qx -- "LD_PRELOAD=$(realpath "$work/bin/libskmd.so")" <<<"$out"
rm "$work/bin/libskmd.so"
err=$("$work/bin/skmd-run" true 2>&1); rc=$?
check "no library: rc $rc, $err" test $rc -ne 0
check "no library: unclear message: $err" grep -q "cannot find libskmd.so.*--lib" <<<"$err"

# bad flags: an error that names what is wrong, and nothing is run
err=$("$run" --lib "$empty" --mode fastest -- touch "$work/ran" 2>&1); rc=$?
check "bad --mode accepted" test $rc -eq 2
check "bad --mode message: $err" grep -q "mode fastest: not one of: split, single, passthrough" <<<"$err"
check "bad --mode still ran the program" test ! -e "$work/ran"
err=$("$run" --lib "$empty" --devcies gpu env 2>&1); rc=$?
check "misspelt flag accepted" test $rc -eq 2
check "misspelt flag message: $err" grep -q "unknown option --devcies; did you mean --devices?" <<<"$err"
err=$("$run" --lib "$empty" --verify=maybe env 2>&1)
check "bad bool message: $err" grep -q "verify maybe: not a yes/no value" <<<"$err"
# SKMD_REPORT is a choice of 0, 1 and json: the flag alone means 1, --no-report 0
out=$("$run" --lib "$empty" --report=json -- env)
check "--report=json: $out" grep -q "^SKMD_REPORT=json$" <<<"$out"
out=$("$run" --lib "$empty" --no-report -- env)
check "--no-report: $out" grep -q "^SKMD_REPORT=0$" <<<"$out"
err=$("$run" --lib "$empty" --trace 2>&1)
check "missing value message: $err" grep -q "needs a value\|no program" <<<"$err"
err=$("$run" --lib "$empty" -- /nonexistent/app 2>&1); rc=$?
check "missing program: rc $rc, $err" test $rc -eq 127
check "missing program message: $err" grep -q "cannot run /nonexistent/app" <<<"$err"

# --help and --controls list every control of controls.def
help=$("$run" --help) && controls=$("$run" --controls)
for var in $(grep -oE '^SKMD_(CONTROL\([a-z]+, |CHOICE\()[a-z_]+' libskmd/support/controls.def |
             sed 's/.*[(, ]//'); do
  flag="--${var//_/-}"
  check "--help lacks $flag" grep -q -- "$flag " <<<"$help"
  check "--controls lacks $flag" grep -q -- "^$flag " <<<"$controls"
done
[ $fail = 0 ] && echo "PASS test-skmd-run"
exit $fail
