#!/bin/bash
# tests/transform/test-build-warning.sh PRELOAD CLSTD SKMD_OPT: when members cannot build the
# split program, libskmd warns ONCE per program, naming the program (a source hash and its
# first kernels), the members, what failed and the first line of the build log. The
# compiler stands in for skmd-opt: it compiles as usual, then hands libskmd an entry whose
# kernels.bc calls a function nothing defines (what PoCL's link rejects).
set -u
preload=$1 bin=$2 opt=$(readlink -f "$3")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export POCL_CPU_MAX_CU_NUM=1 SKMD_CACHE_DIR="$tmp/cache"
fail=0
say() { echo "$1 transform-build-warning: $2"; [ "$1" = PASS ] || fail=1; }

printf 'float skmd_test_missing(float v);\nkernel void k(global float *p) { p[0] = skmd_test_missing(p[1]); }\n' >"$tmp/bad.cl"
clang=$(sed -n 's/.*default \(\/[^ )]*clang[^ )]*\).*/\1/p' <("$opt" --help) | head -1)
"${clang:-clang}" -x cl -cl-std=CL1.2 -emit-llvm -c -target spir64-unknown-unknown \
    -Xclang -finclude-default-header -o "$tmp/bad.bc" "$tmp/bad.cl" ||
    { say FAIL "cannot make the bad bitcode"; exit 1; }
cat >"$tmp/opt.sh" <<EOS
#!/bin/sh
d=\$("$opt" "\$@") || exit \$?
n="$tmp/entries/\$(basename "\$d")"
mkdir -p "$tmp/entries" && rm -rf "\$n" && cp -r "\$d" "\$n" && cp "$tmp/bad.bc" "\$n/kernels.bc"
echo "\$n"
EOS
chmod +x "$tmp/opt.sh"
POCL_DEVICES="pthread pthread" SKMD_COMPILER="$tmp/opt.sh" SKMD_LOG="info:$tmp/log" \
    LD_PRELOAD="$preload" "$bin" "$tmp/out.bin" 2>"$tmp/err" ||
    { say FAIL "run failed: $(tail -3 "$tmp/err")"; exit 1; }
# clstd builds 3 programs: one warning each, every one complete.
warnings=$(grep -c "could not build libskmd's split version" "$tmp/log")
[ "$warnings" -eq 3 ] && say PASS "one warning per program" ||
    say FAIL "$warnings warnings for 3 programs"
while IFS= read -r w; do
    [[ $w =~ program\ [0-9a-f]{8}\ \(kernels\ [A-Za-z_] ]] ||
        { say FAIL "no program name: $w"; continue; }
    [[ $w == *"members 0 ("*", 1 ("* ]] || { say FAIL "members not named: $w"; continue; }
    [[ $w == *"all its kernels run whole there"* ]] || { say FAIL "no consequence: $w"; continue; }
    [[ $w == *"build log: "*skmd_test_missing* ]] || { say FAIL "no build log: $w"; continue; }
    say PASS "${w#*WARN*: }"
done < <(grep "could not build libskmd's split version" "$tmp/log")
exit $fail
