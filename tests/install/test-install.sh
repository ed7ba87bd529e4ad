#!/bin/bash
# tests/install: `make install` into a staging DESTDIR puts the library, the tools, the docs
# and the vendors file where they belong; the installed skmd-run finds the installed
# library; `make uninstall` removes them.
# usage: test-install.sh STAGE [make variables...]
set -u
stage=$1; shift
fail=0
check() { local what=$1; shift; if ! "$@"; then echo "FAIL install: $what"; fail=1; fi; }
rm -rf "$stage"
make --no-print-directory -s install PREFIX=/opt/skmd DESTDIR="$stage" "$@" >/dev/null || { echo "FAIL install: make install failed"; exit 1; }
root=$stage/opt/skmd
for f in lib/libskmd.so bin/skmd-run bin/skmd-trace share/doc/libskmd/controls.md; do
  check "$f missing" test -f "$root/$f"
done
check "skmd-run not executable" test -x "$root/bin/skmd-run"
check "vendors file" test "$(cat "$stage/etc/OpenCL/vendors/skmd.icd" 2>/dev/null)" = /opt/skmd/lib/libskmd.so
out=$("$root/bin/skmd-run" --dry-run -- true 2>&1)
check "installed skmd-run does not preload the installed library: $out" \
  grep -qx "LD_PRELOAD=$(realpath "$root/lib/libskmd.so")" <<<"$out"
make --no-print-directory -s uninstall PREFIX=/opt/skmd DESTDIR="$stage" "$@" >/dev/null
check "uninstall left files: $(find "$stage" -type f)" test -z "$(find "$stage" -type f)"
rm -rf "$stage"
[ $fail = 0 ] && echo "PASS test-install"
exit $fail
