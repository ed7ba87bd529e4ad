#!/bin/sh
# What single OpenCL calls cost the app: call-cost natively on each device (clinfo -l), then
# under libskmd with every device, and in single mode (one member: libskmd's own cost alone).
# Usage: bench/callcost/run.sh CALL_COST LIBSKMD_SO [call-cost options...]
set -e
bin=$1 lib=$(realpath "$2"); shift 2
command -v clinfo >/dev/null || { echo "clinfo is needed to list the devices" >&2; exit 1; }
table() { sed -n 's/^COST case=\([^ ]*\) us_median=\([^ ]*\) .*/\1 \2/p'; }
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
cols=""
for pd in $(clinfo -l | sed -n 's/^Platform #\([0-9]*\).*/p \1/p; s/.*Device #\([0-9]*\).*/d \1/p' | awk '$1 == "p" {p = $2} $1 == "d" {print p ":" $2}'); do
  "$bin" --device "$pd" "$@" | table >"$out/native $pd"; cols="$cols|native $pd"
done
LD_PRELOAD=$lib "$bin" "$@" | table >"$out/libskmd"; cols="$cols|libskmd"
SKMD_MODE=single LD_PRELOAD=$lib "$bin" "$@" | table >"$out/libskmd single"; cols="$cols|libskmd single"
echo "median microseconds per call"
printf "| case %s |\n" "$(echo "$cols" | sed 's/|/ | /g')"
printf "|---%s|\n" "$(echo "$cols" | sed 's/|[^|]*/|---:/g')"
cut -d' ' -f1 "$out/libskmd" | while read -r c; do
  row="| $c "
  IFS='|'; for col in ${cols#|}; do row="$row| $(awk -v c="$c" '$1 == c {print $2}' "$out/$col") "; done; unset IFS
  echo "$row|"
done
