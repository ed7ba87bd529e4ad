#!/bin/sh
# Stands in for skmd-opt as libskmd's SKMD_COMPILER while bench.py runs an example: keeps
# the program source and build options the example gave clBuildProgram
# ($SKMD_CAPTURE.cl, $SKMD_CAPTURE.options), then runs the real compiler ($SKMD_REAL_OPT)
# so that the example goes on as usual. libskmd calls: SRC --compile ... --options OPTS
cp "$1" "$SKMD_CAPTURE.cl"
prev=
for a; do
  [ "$prev" = --options ] && printf '%s' "$a" >"$SKMD_CAPTURE.options"
  prev=$a
done
exec "$SKMD_REAL_OPT" "$@"
