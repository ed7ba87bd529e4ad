#!/bin/bash
# tests/install: `make install` into a staging DESTDIR puts the library, the tools, the docs
# and the vendors file where they belong; the installed skmd-run finds the installed
# library; `make uninstall` removes them. Then `make install PREFIX=scratch`: every tool,
# its man page and libskmd.pc are installed, and the installed tools and pkg-config
# answer.
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

# A scratch PREFIX: the installed tools run from there.
prefix=$stage/prefix
make --no-print-directory -s install PREFIX="$prefix" ICD_DIR="$prefix/vendors" "$@" >/dev/null ||
  { echo "FAIL install: make install PREFIX=$prefix failed"; exit 1; }
tools="skmd-run skmd-info skmd-trace skmd-profile skmd-opt"
for t in $tools; do
  check "bin/$t not installed" test -x "$prefix/bin/$t"
  page=$prefix/share/man/man1/$t.1
  check "$t.1 not installed" test -f "$page"
  check "$t.1 is not a man page with a synopsis" grep -q '^\.SH SYNOPSIS' "$page"
  check "$t.1 names no $t" grep -q "^$t \\\\- " "$page"
  out=$("$prefix/bin/$t" --version 2>&1); rc=$?
  check "installed $t --version: exit $rc: $out" test $rc = 0
  check "installed $t --version: '$out'" grep -qx "$t (libskmd) [0-9][0-9.]*" <<<"$out"
  "$prefix/bin/$t" --help >"$stage/help" 2>&1; rc=$?
  check "installed $t --help: exit $rc" test $rc = 0
  check "installed $t --help prints no usage line" grep -qi '^usage' "$stage/help"
done
check "man -l cannot read skmd-run.1" man -l "$prefix/share/man/man1/skmd-run.1" >/dev/null 2>&1
pc=$prefix/lib/pkgconfig/libskmd.pc
check "libskmd.pc not installed" test -f "$pc"
out=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs libskmd 2>&1); rc=$?
check "pkg-config --cflags --libs libskmd: exit $rc: $out" test $rc = 0
check "pkg-config --libs does not name the installed library: $out" \
  grep -q -- "-L$prefix/lib -lskmd" <<<"$out"
out=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --variable=preload libskmd)
check "pkg-config preload variable: $out" test "$out" = "$prefix/lib/libskmd.so"
out=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --modversion libskmd)
check "pkg-config version '$out' is not the tools'" \
  grep -q "(libskmd) $out\$" <<<"$("$prefix/bin/skmd-run" --version)"
make --no-print-directory -s uninstall PREFIX="$prefix" ICD_DIR="$prefix/vendors" "$@" >/dev/null
check "uninstall left files: $(find "$prefix" -type f)" test -z "$(find "$prefix" -type f)"
rm -rf "$stage"
[ $fail = 0 ] && echo "PASS test-install"
exit $fail
