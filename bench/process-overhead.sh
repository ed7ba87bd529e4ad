#!/bin/bash
# What a whole short process costs under libskmd: each case runs natively and under
# LD_PRELOAD=libskmd.so in turn (native, libskmd, native, ...), timed from outside as a
# whole process (start to exit), after one warm-up run of each.
#   warm: SKMD_CACHE_DIR is one directory that the warm-up filled (kernel compiler cache,
#         profile database);
#   cold: every libskmd run gets a new, empty SKMD_CACHE_DIR.
# The drivers' own caches (PoCL's, NVIDIA's) stay as they are: warm for both columns.
# Prints one line per case and cache:
#   OVERHEAD case=NAME cache=warm|cold runs=N native_ms_min=X native_ms_median=X
#            skmd_ms_min=X skmd_ms_median=X extra_ms_median=X
# Usage: bench/process-overhead.sh [--lib LIBSKMD_SO] [--runs N] [--bin-dir DIR]
#                                  [--cases vector_add,setup_cost] [--caches warm,cold]
#                                  [--native-platform N]
# DIR holds examples/ and bench/callcost/ as built by `make` (default: the repository).
# --native-platform: the native runs use platform N's first device (default: the first
# platform the loader lists, which may be a CPU's; on a GPU machine name the GPU's).
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
lib=$root/libskmd/libskmd.so bin=$root runs=7 cases=vector_add,setup_cost caches=warm,cold
native_platform=
while [ $# -gt 0 ]; do
  case $1 in
    --lib) lib=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --bin-dir) bin=$2; shift 2 ;;
    --cases) cases=$2; shift 2 ;;
    --caches) caches=$2; shift 2 ;;
    --native-platform) native_platform=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "process-overhead.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
lib=$(realpath "$lib")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# The case's command; with a second argument, the native run's (on --native-platform).
command_of() {
  local p=${2:+$native_platform}
  case $1 in
    vector_add) echo "$bin/examples/vector_add/vector_add --size 4096 --reps 2${p:+ --device $p:0}" ;;
    setup_cost) echo "$bin/bench/callcost/setup-cost${p:+ --platform $p}" ;;
    *) echo "process-overhead.sh: unknown case $1" >&2; exit 2 ;;
  esac
}

# Runs "$@" once; prints its wall time in ms; a failed run stops the script.
wall_ms() {
  local t0 t1
  t0=$(date +%s%N)
  "$@" >"$work/out" 2>&1 || { echo "process-overhead.sh: failed: $*" >&2; cat "$work/out" >&2; exit 1; }
  t1=$(date +%s%N)
  echo $(( (t1 - t0) / 1000 ))
}

# min and median (ms, 1 decimal) of the microsecond figures in file $1
stats() {
  sort -n "$1" | awk '{v[NR] = $1} END {
    m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%.1f %.1f\n", v[1] / 1000, m / 1000 }'
}

for c in ${cases//,/ }; do
  cmd=$(command_of "$c")
  native_cmd=$(command_of "$c" native)
  for cache in ${caches//,/ }; do
    : >"$work/native"; : >"$work/skmd"
    mkdir -p "$work/warm"
    for i in $(seq 0 "$runs"); do
      dir=$work/warm
      [ "$cache" = cold ] && dir=$(mktemp -d "$work/cold.XXXXXX")
      n=$(wall_ms $native_cmd)
      s=$(wall_ms env SKMD_CACHE_DIR="$dir" LD_PRELOAD="$lib" $cmd)
      [ "$cache" = cold ] && rm -rf "$dir"
      [ "$i" -eq 0 ] && continue # the warm-up
      echo "$n" >>"$work/native"; echo "$s" >>"$work/skmd"
    done
    read -r nmin nmed < <(stats "$work/native")
    read -r smin smed < <(stats "$work/skmd")
    echo "OVERHEAD case=$c cache=$cache runs=$runs native_ms_min=$nmin" \
         "native_ms_median=$nmed skmd_ms_min=$smin skmd_ms_median=$smed" \
         "extra_ms_median=$(awk -v a="$smed" -v b="$nmed" 'BEGIN {printf "%.1f", a - b}')"
  done
done
