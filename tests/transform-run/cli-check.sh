#!/bin/sh
# skmd-opt's command line: help, bad usage, malformed OpenCL C (clang's diagnostics and
# status 1, no crash), IR in and out, the partition-ready ABI in the IR, the cache (a second
# identical call hits; another option misses), concurrent compiles of one entry.
# Usage: cli-check.sh SKMD_OPT
set -u
opt=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # check NAME COMMAND...: the command must succeed
  name=$1; shift
  if "$@" >"$tmp/out" 2>"$tmp/err"; then echo "PASS skmd-opt $name"; else
    echo "FAIL skmd-opt $name"; head -5 "$tmp/err"; fail=1; fi
}
status_is() { # status_is WANT COMMAND...
  want=$1; shift
  "$@" >/dev/null 2>&1; [ $? -eq "$want" ]
}
corpus=tests/transform/corpus
check "--help" "$opt" --help
check "bad flag is status 2" status_is 2 "$opt" --no-such-flag x.cl
check "missing input is status 1" status_is 1 "$opt" "$tmp/none.cl"
printf '__kernel void k(__global int *p) { p[0] = undeclared; }\n' >"$tmp/bad.cl"
check "malformed source is status 1" status_is 1 "$opt" --partition-ready "$tmp/bad.cl"
"$opt" --partition-ready "$tmp/bad.cl" 2>"$tmp/diag" >/dev/null
check "clang's diagnostic passed through" grep -q "undeclared" "$tmp/diag"
check "unterminated quote in options is status 1" status_is 1 "$opt" --options '-D "X' $corpus/vec_1d.cl
printf '__kernel void k(__global int *p) { p[0] = f(3); }\nint f(int n) { return n ? f(n - 1) : 0; }\n' >"$tmp/rec.cl"
printf 'int f(int n);\n' | cat - "$tmp/rec.cl" >"$tmp/rec2.cl"
check "recursion is refused" status_is 1 "$opt" --partition-ready "$tmp/rec2.cl"
# A helper only declared (its body in another program): refused with its name, not left
# as an undefined symbol for the driver's link to reject.
printf 'float helper(float v);\n__kernel void k(__global float *p) { p[0] = helper(p[1]); }\n' >"$tmp/undef.cl"
check "an undefined helper is status 1" status_is 1 "$opt" --partition-ready "$tmp/undef.cl"
"$opt" --partition-ready "$tmp/undef.cl" 2>"$tmp/diag" >/dev/null
check "an undefined helper is named" grep -q "helper is called but never defined" "$tmp/diag"
# The merge kernel has __local variables of its own: PoCL makes a kernel's function-scope
# __local globals per work-group only when their names start with the kernel's name, so a
# shared one raced between the merge's work-groups (a compaction lost whole groups).
"$opt" --merge -o "$tmp/merge.ll" $corpus/halo_tile.cl 2>/dev/null
check "the merge kernel has __local variables of its own" \
  grep -q '^@halo_rows__skmd_merge\.[A-Za-z_]* = internal addrspace(3) global' "$tmp/merge.ll"
check "the merge kernel uses no other kernel's __local variables" \
  sh -c "sed -n '/^define.*__skmd_merge(/,/^}/p' '$tmp/merge.ll' | grep -q '@halo_rows\\.' && exit 1 || exit 0"
# Floating-point elements through a typedef (SKMD_VERIFY's tolerance on mixed devices:
# a driver names the typedef, or nothing).
# A struct written only with floats counts as floats; one with an int field does not.
cat >"$tmp/ft.cl" <<'EOF'
typedef float real;
typedef struct { float v, x; } pair;
typedef struct { float a; int n; } mixed;
__kernel void k(__global real *a, __global double2 *b, __global int *c, __global pair *p,
                __global mixed *m)
{ a[0] = 1; b[0] = 2; c[0] = 3; p[0].v = 4; p[0].x = 5; m[0].a = 6; m[0].n = 7; }
EOF
"$opt" --analyze "$tmp/ft.cl" >"$tmp/ft.json" 2>/dev/null
check "float elements through a typedef and a struct of floats in the record" /usr/bin/python3 -c "
import json, sys
p = json.load(open(sys.argv[1]))['kernels'][0]['params']
sys.exit([x.get('float_bits', 0) for x in p] != [32, 64, 0, 32, 0])" "$tmp/ft.json"
check "IR out" "$opt" -o "$tmp/v.ll" $corpus/vec_1d.cl
check "IR in, partition-ready" "$opt" --partition-ready -o "$tmp/pr.ll" "$tmp/v.ll"
check "8 hidden ulong parameters" grep -q 'i64 %skmd_group_start, i64 %skmd_num_groups_0, i64 %skmd_num_groups_1, i64 %skmd_num_groups_2, i64 %skmd_global_offset_0, i64 %skmd_global_offset_1, i64 %skmd_global_offset_2, i64 %skmd_work_dim)' "$tmp/pr.ll"
check "no get_global_id left" sh -c "! grep -q 'call.*get_global_id' '$tmp/pr.ll'"
check "build options reach clang" "$opt" --options "-DSCALE=2 -cl-fast-relaxed-math -cl-nv-verbose" "$corpus/vec_1d.cl"
check "--kernel selects" "$opt" --partition-ready --kernel inner -o "$tmp/one.ll" $corpus/helper_fn.cl
check "--kernel leaves the others" sh -c "grep -q 'define.*@outer(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef align 4 %1)' '$tmp/one.ll'"
check "unknown --kernel is status 1" status_is 1 "$opt" --partition-ready --kernel nope $corpus/vec_1d.cl
check "PTX out" "$opt" --partition-ready --lower=nvptx -o "$tmp/k.ptx" $corpus/vec_1d.cl
check "PTX has the kernel with 12 params" grep -q 'saxpy_param_11' "$tmp/k.ptx"
check "get_work_dim on NVPTX comes from the hidden parameter" "$opt" --partition-ready --lower=nvptx -o "$tmp/g.ptx" $corpus/group_ids.cl
check "no get_work_dim call left in the PTX" sh -c "! grep -q get_work_dim '$tmp/g.ptx'"
d1=$("$opt" --compile --cache "$tmp/c" --target pocl $corpus/vec_1d.cl)
check "compile writes kernels.bc" test -s "$d1/kernels.bc"
touch "$d1/marker"
d2=$("$opt" --compile --cache "$tmp/c" --target pocl $corpus/vec_1d.cl)
check "second compile hits the cache" test -e "$d2/marker"
d3=$("$opt" --compile --cache "$tmp/c" --target pocl --options -DX=1 $corpus/vec_1d.cl)
check "other options miss the cache" test "$d3" != "$d1"
for i in 1 2 3; do "$opt" --compile --cache "$tmp/race" --target pocl $corpus/grid_2d.cl >"$tmp/race$i" & done
wait
check "concurrent compiles agree" sh -c "cmp -s '$tmp/race1' '$tmp/race2' && cmp -s '$tmp/race1' '$tmp/race3' && test -s \"\$(cat '$tmp/race1')/kernels.bc\""
check "no temporary directories left" sh -c "! ls -A '$tmp/race' | grep -q '^.tmp-'"

# The language of the target member: exactly its extensions, its default OpenCL C version.
printf '#ifdef cl_khr_fp16\n#pragma OPENCL EXTENSION cl_khr_fp16 : enable\nkernel void k(global half *p) { p[0] = (half)1; }\n#else\nkernel void k(global int *p) { p[0] = 2; }\n#endif\n' >"$tmp/fp16.cl"
check "clang's default enables cl_khr_fp16" sh -c "'$opt' '$tmp/fp16.cl' | grep -q 'store half'"
check "--extensions without it takes the other branch" sh -c "'$opt' --extensions 'cl_khr_fp64 cl_khr_spir' '$tmp/fp16.cl' | grep -q 'store i32 2'"
printf 'kernel void k(global int *p) { p[0] = __OPENCL_C_VERSION__; }\n' >"$tmp/ver.cl"
check "OpenCL C 1.2 without --default-std" sh -c "'$opt' '$tmp/ver.cl' | grep -q 'store i32 120'"
check "--default-std CL3.0" sh -c "'$opt' --default-std CL3.0 '$tmp/ver.cl' | grep -q 'store i32 300'"
check "the app's -cl-std wins" sh -c "'$opt' --default-std CL3.0 --options -cl-std=CL2.0 '$tmp/ver.cl' | grep -q 'store i32 200'"
e1=$("$opt" --compile --cache "$tmp/c" --target pocl --extensions cl_khr_fp64 "$tmp/fp16.cl")
e2=$("$opt" --compile --cache "$tmp/c" --target pocl --extensions cl_khr_fp16 "$tmp/fp16.cl")
check "other extensions miss the cache" test "$e1" != "$e2"

# NVPTX floating point (docs/transform.md): NVIDIA's choices by default.
printf 'kernel void k(global float *a) { size_t i = get_global_id(0);\n float v = a[i] * a[i+1];\n a[i] = sqrt(v + 1.0f) / a[i+2]; }\n' >"$tmp/fp.cl"
"$opt" --partition-ready --lower=nvptx -o "$tmp/fp.ptx" "$tmp/fp.cl"
check "mul and add across statements: fma" grep -q 'fma.rn.f32' "$tmp/fp.ptx"
check "float divide: div.full.f32" grep -q 'div.full.f32' "$tmp/fp.ptx"
check "float sqrt: sqrt.approx.f32" grep -q 'sqrt.approx.f32' "$tmp/fp.ptx"
"$opt" --options -cl-fp32-correctly-rounded-divide-sqrt --partition-ready --lower=nvptx \
  -o "$tmp/fp-rn.ptx" "$tmp/fp.cl"
check "-cl-fp32-correctly-rounded-divide-sqrt: div.rn and sqrt.rn" sh -c "grep -q 'div.rn.f32' '$tmp/fp-rn.ptx' && grep -q 'sqrt.rn.f32' '$tmp/fp-rn.ptx'"
"$opt" --nvptx-fp strict --partition-ready --lower=nvptx -o "$tmp/fp-strict.ptx" "$tmp/fp.cl"
check "--nvptx-fp strict: no fma across statements" sh -c "! grep -q 'fma' '$tmp/fp-strict.ptx'"
check "bad --nvptx-fp is status 2" status_is 2 "$opt" --nvptx-fp fast "$tmp/fp.cl"
"$opt" --options -cl-denorms-are-zero --partition-ready --lower=nvptx -o "$tmp/fp-ftz.ptx" \
  "$tmp/fp.cl" 2>/dev/null
check "-cl-denorms-are-zero: fma, div and sqrt .ftz" sh -c "grep -q 'fma.rn.ftz.f32' '$tmp/fp-ftz.ptx' && grep -q 'div.full.ftz.f32' '$tmp/fp-ftz.ptx' && grep -q 'sqrt.approx.ftz.f32' '$tmp/fp-ftz.ptx'"
# half storage (nvptx_half.c): every conversion by the hardware, per rounding mode; to
# nearest from a double as NVIDIA does it: toward zero to float (round to odd), then to half
"$opt" --partition-ready --lower=nvptx -o "$tmp/h.ptx" $corpus/half_rounding.cl
for cvt in cvt.f32.f16 cvt.rn.f16.f32 cvt.rz.f16.f32 cvt.rp.f16.f32 cvt.rm.f16.f32 \
           cvt.rz.f32.f64 cvt.rz.f16.f64 cvt.rp.f16.f64 cvt.rm.f16.f64; do
  check "half storage: $cvt" grep -q "$cvt" "$tmp/h.ptx"
done
check "half storage: no cvt.rn.f16.f64 (a NaN would become 0x7e00)" sh -c "! grep -q 'cvt.rn.f16.f64' '$tmp/h.ptx'"
"$opt" --options -cl-denorms-are-zero --partition-ready --lower=nvptx -o "$tmp/h-ftz.ptx" \
  $corpus/half_rounding.cl 2>/dev/null
check "half storage under -cl-denorms-are-zero: cvt.rz.ftz.f16.f32" grep -q 'cvt.rz.ftz.f16.f32' "$tmp/h-ftz.ptx"
# a half copied through float (vstorea_half3(vloada_half3(...))) is converted, not folded
# into a copy of its bits: NVIDIA's cvt gives a NaN as 0x7fff
"$opt" --partition-ready --lower=nvptx -o "$tmp/hs.ptx" $corpus/half_storage.cl
check "half storage: 12 stores, 12 cvt.rn.f16.f32" sh -c "[ \$(grep -c 'cvt.rn.f16.f32' '$tmp/hs.ptx') -eq 12 ]"
"$opt" --nvptx-fp strict --partition-ready --lower=nvptx -o "$tmp/h-strict.ptx" $corpus/half_rounding.cl
check "--nvptx-fp strict: libclc's half stores" sh -c "! grep -q 'cvt.rz.f16' '$tmp/h-strict.ptx'"
# exp, log, pown, sqrt as NVIDIA's compiler emits them (nvptx_nvidia_math.c)
"$opt" --partition-ready --lower=nvptx -o "$tmp/bs.ptx" $corpus/blackscholes.cl
check "exp: fma.rm, cvt.sat and ex2.approx.ftz" sh -c "grep -q 'fma.rm.f32' '$tmp/bs.ptx' && grep -q 'cvt.sat.f32.f32' '$tmp/bs.ptx' && grep -q 'ex2.approx.ftz.f32' '$tmp/bs.ptx'"
check "log: NVIDIA's polynomial, not libclc's table" sh -c "grep -q '0f3E1039F6' '$tmp/bs.ptx' && ! grep -q 'LOG_' '$tmp/bs.ptx'"
check "sqrt: sqrt.approx.f32 without libclc's NaN for x < 0" sh -c "grep -q 'sqrt.approx.f32' '$tmp/bs.ptx' && ! grep -q '0f7FC00000' '$tmp/bs.ptx'"
"$opt" --partition-ready --lower=nvptx -o "$tmp/bo.ptx" $corpus/binomial_option.cl
check "pown: rcp.approx.ftz and mul.rn, no libclc table" sh -c "grep -q 'rcp.approx.ftz.f32' '$tmp/bo.ptx' && grep -q 'mul.rn.f32' '$tmp/bo.ptx' && ! grep -q 'EXP_TBL' '$tmp/bo.ptx'"
"$opt" --nvptx-fp strict --partition-ready --lower=nvptx -o "$tmp/bs-strict.ptx" $corpus/blackscholes.cl
check "--nvptx-fp strict: libclc's exp and log" sh -c "! grep -q 'fma.rm.f32' '$tmp/bs-strict.ptx'"
# Where NVIDIA's assembler is installed, the PTX of kernels with math, vectors, halves,
# local memory, get_work_dim and merge kernels must assemble.
ptxas=$(command -v ptxas || ls /usr/local/cuda*/bin/ptxas 2>/dev/null | head -1)
if [ -n "$ptxas" ]; then
  for n in blackscholes binomial_option vector_types half_storage group_ids local_reduce \
      matrix_mul scatter half_rounding math_builtins; do
    f=$corpus/$n.cl
    "$opt" --partition-ready --merge --lower=nvptx -o "$tmp/a.ptx" "$f" 2>/dev/null || continue
    check "ptxas assembles $(basename "$f")" "$ptxas" -arch=sm_90 "$tmp/a.ptx" -o /dev/null
  done
else
  echo "SKIP skmd-opt ptxas checks (no ptxas)"
fi
exit $fail
