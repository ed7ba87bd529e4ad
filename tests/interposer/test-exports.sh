#!/bin/bash
# Every entry point of api.def is exported by libskmd.so under its OPENCL_x.y version,
# and under the same version as the system's ICD loader exports it.
#   test-exports.sh LIBSKMD_SO API_DEF
set -u
lib=$1 def=$2
loader=$(ldconfig -p | awk '/libOpenCL.so.1 /{print $NF; exit}')
fail=0 n=0
ours=$(objdump -T "$lib")
theirs=$( [ -n "$loader" ] && objdump -T "$loader")
while read -r name ver; do
    n=$((n + 1))
    want="OPENCL_${ver/_/.}"
    if ! grep -qE "[[:space:]]$want[[:space:]]+$name\$" <<<"$ours"; then
        echo "FAIL exports: $name not exported as $want"; fail=1
    fi
    if [ -n "$theirs" ] && grep -qE "[[:space:]]$name\$" <<<"$theirs" &&
       ! grep -qE "[[:space:]]$want[[:space:]]+$name\$" <<<"$theirs"; then
        echo "FAIL exports: the loader exports $name under another version than $want"; fail=1
    fi
done < <(sed -n 's/^SKMD_API([^,]*, \(cl[A-Za-z0-9]*\), .*, \([0-9]_[0-9]\))$/\1 \2/p' "$def")
extra=$(grep -cE "DF .text.*[[:space:]]cl[A-Z]" <<<"$ours")
[ "$extra" -eq "$n" ] || { echo "FAIL exports: $extra cl* symbols exported, api.def has $n"; fail=1; }
[ "$n" -gt 100 ] || { echo "FAIL exports: only $n entry points parsed from $def"; fail=1; }
[ $fail = 0 ] && echo "PASS exports: $n entry points, versions as the ICD loader's"
exit $fail
