#!/bin/bash
# The piglit gate itself: libskmd without a real loader (SKMD_OPENCL_LIBRARY pointing
# nowhere) breaks two tests that pass natively; the gate must fail and name both, pass
# once the known-differences file lists them, and call a listed difference that does not
# show stale.
#   test-gate.sh "LD_PRELOAD value"
set -u
preload=${1:?usage: test-gate.sh "LD_PRELOAD value"}
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
printf 'custom@run simple kernel\napi@clgetplatformids\n' > "$dir/subset"
gate() { tests/conformance/piglit-conformance.py --preload "$preload" --devices pthread \
           --subset "$dir/subset" --timeout 60 "$@" 2>&1; }
fail=0

out=$(gate --skmd-env SKMD_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1); rc=$?
if [ $rc = 1 ] && [ "$(grep -c '^FAIL ' <<<"$out")" = 2 ]; then echo "PASS gate: two new regressions fail it"
else echo "FAIL gate: broken libskmd gave exit $rc: $(tail -3 <<<"$out")"; fail=1; fi

printf 'custom@run simple kernel | pthread | no loader\napi@clgetplatformids | * | no loader\n' > "$dir/known"
out=$(gate --skmd-env SKMD_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1 --known "$dir/known" --markdown "$dir/t.md"); rc=$?
if [ $rc = 0 ] && [ "$(grep -c '^known ' <<<"$out")" = 2 ] && grep -q 'known: no loader' "$dir/t.md"; then
    echo "PASS gate: known differences pass it and show in the table"
else echo "FAIL gate: known differences gave exit $rc: $(tail -3 <<<"$out")"; fail=1; fi

out=$(gate --known "$dir/known"); rc=$?
if [ $rc = 0 ] && [ "$(grep -c '^stale ' <<<"$out")" = 2 ]; then echo "PASS gate: working libskmd, listed differences reported stale"
else echo "FAIL gate: working libskmd gave exit $rc: $(tail -3 <<<"$out")"; fail=1; fi
exit $fail
