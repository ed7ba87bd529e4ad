#!/bin/sh
# `make demo`: one unmodified example app, natively on one device, then under libskmd on
# all local devices, with the split log, the report at exit and a timeline picture.
set -e
case "${1-}" in
  "") ;;
  -h|--help) echo "usage: tools/demo.sh (or make demo): runs one example natively, then under"
             echo "libskmd with its log, report and a timeline picture (demo-timeline.svg)."
             exit 0 ;;
  --version) sed -n 's/^#define SKMD_VERSION "\(.*\)"/demo.sh (libskmd) \1/p' \
               "$(dirname "$0")/../libskmd/support/version.h"
             exit 0 ;;
  *) echo "demo.sh: unknown option $1; it takes none (tools/demo.sh --help)" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."
app=examples/matrix_mul/matrix_mul
# With PoCL alone there is one CPU device; two PoCL devices show a split on any machine.
if [ -z "${POCL_DEVICES+x}" ]; then
  export POCL_DEVICES="pthread pthread"
  echo "(POCL_DEVICES unset: using two PoCL CPU devices, POCL_DEVICES=\"$POCL_DEVICES\")"
fi
echo "== the real devices"
clinfo -l
echo
echo "== native run on one device: $app"
$app --scale 0.5 --reps 3
echo
echo "== the same binary under libskmd: one platform, one device"
LD_PRELOAD=$PWD/libskmd/libskmd.so clinfo -l
echo
echo "== under libskmd, the partitioner deciding (SKMD_LOG=info, SKMD_REPORT=1)"
echo "   (it measures each kind of device, identical ones sharing what one measures, then"
echo "    keeps what pays: two PoCL devices on the same cores rarely gain from a split,"
echo "    a CPU + GPU machine does on transfer-heavy launches)"
SKMD_LOG=info SKMD_REPORT=1 LD_PRELOAD=$PWD/libskmd/libskmd.so $app --scale 0.5 --reps 3
echo
echo "== under libskmd, every launch split in equal shares (SKMD_POLICY=equal), traced"
trace=${TMPDIR:-/tmp}/skmd-demo-trace.json
SKMD_POLICY=equal SKMD_LOG=info SKMD_TRACE=$trace LD_PRELOAD=$PWD/libskmd/libskmd.so \
  $app --scale 0.5 --reps 3
echo
tools/skmd-trace --summary "$trace"
tools/skmd-trace --svg demo-timeline.svg "$trace" && echo "timeline picture: demo-timeline.svg"
