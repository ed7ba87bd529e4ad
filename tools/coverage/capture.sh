#!/bin/sh
# tools/coverage/capture.sh: stands in for skmd-opt as libskmd's SKMD_COMPILER while
# coverage.py runs a program under libskmd: keeps every program source and its build
# options ($SKMD_CAPTURE_DIR/N.cl and N.options, one pair per compile), then runs the real
# compiler ($SKMD_REAL_OPT). libskmd calls: SRC --compile ... --options OPTS
base=$(mktemp "$SKMD_CAPTURE_DIR/prog-XXXXXX") || exit 1
cp "$1" "$base.cl"
: >"$base.options"
prev=
for a; do
  [ "$prev" = --options ] && printf '%s' "$a" >"$base.options"
  prev=$a
done
rm -f "$base"
exec "$SKMD_REAL_OPT" "$@"
