#!/bin/bash
# The stub ICD's tests.  Part 1 checks the stub itself (natively, no libskmd); part 2 runs
# the same program under libskmd with the stub as the only vendor and checks, from the
# stub's log, which real calls each application call became.  Counts calls by name and
# device between the app's marker lines, so details that may change do not break it.
# Env: O (build prefix), PRELOAD_SKMD (the LD_PRELOAD value that loads libskmd).
set -u
cd "$(dirname "$0")/../.."
app="${O}tests/stub-icd/stub_app"
export OCL_ICD_VENDORS="$PWD/${O}tests/stub-icd/vendors"
# The checks count each device's calls (lose@N) and the real calls between the app's
# markers: staging buffers made ahead on a thread of their own would fall anywhere.
export SKMD_TRANSFER_EARLY=0
tmp="${O}tests/stub-icd/run-logs"   # kept, so that a failure's log can be read
rm -rf "$tmp" && mkdir -p "$tmp"
failures=0
log="$tmp/stub.log"

pass() { echo "PASS stub-icd: $1"; }
fail() { echo "FAIL stub-icd: $1"; failures=$((failures + 1)); }
check() { if eval "$2"; then pass "$1"; else fail "$1"; echo "  log: $log_copy"; fi; }
# known_gap NAME TEST: a check of behaviour libskmd does not have yet (named in README's
# status). It prints XFAIL while the gap is there and fails once it is closed, so the line
# is then turned back into a check.
known_gap() { if eval "$2"; then fail "$1 (known gap now closed: make it a check)"; else echo "XFAIL stub-icd: $1"; fi; }

# run NAME [VAR=value...]: runs the app with a fresh log; keeps stdout in $out, rc in $rc.
run() {
  local name=$1; shift
  rm -f "$log"
  out=$(env SKMD_STUB_LOG="$log" "$@" "$app" 2>"$tmp/err"); rc=$?
  log_copy="$tmp/$name.log"
  cp "$log" "$log_copy" 2>/dev/null || : > "$log_copy"
}
# count PATTERN [FROM_MARK [TO_MARK]]: log lines matching PATTERN (an ERE) between markers.
count() {
  awk -v pat="$1" -v from="${2:-}" -v to="${3:-}" '
    BEGIN { on = (from == "") }
    from != "" && $0 == "app-mark " from { on = 1; next }
    to != "" && $0 == "app-mark " to { on = 0 }
    on && $0 ~ pat { n++ }
    END { print n + 0 }' "$log_copy"
}
all_freed() { grep -q '^stub-exit live context=0 queue=0 mem=0 program=0 kernel=0 event=0 sampler=0$' "$log_copy"; }

# --- Part 1: the stub alone --------------------------------------------------------------
run native SKMD_STUB_DEVICES=3 SKMD_STUB_TYPES=cpu,gpu,gpu
check "native app sees the stub's 3 devices and correct results" \
  '[ $rc = 0 ] && grep -q "^platforms=1 devices=3$" <<<"$out" && grep -q "^PASSED$" <<<"$out"'
check "native build logged once per device" \
  '[ $(count "^clBuildProgram .* dev=0 ") = 1 ] && [ $(count "^clBuildProgram .* dev=1 ") = 1 ] && [ $(count "^clBuildProgram .* dev=2 ") = 1 ]'
check "native launches logged on the queue's device" \
  '[ $(count "^clEnqueueNDRangeKernel dev=0 ") = 2 ] && [ $(count "^clEnqueueNDRangeKernel") = 2 ]'
check "native releases leave no live object" all_freed

run fail-launch SKMD_STUB_DEVICES=2 SKMD_STUB_FAIL=0:launch
check "SKMD_STUB_FAIL=0:launch makes launches on device 0 fail" \
  '[ $rc != 0 ] && grep -q "clEnqueueNDRangeKernel.*failed: -5" "$tmp/err" && [ $(count "-> CL_OUT_OF_RESOURCES$") = 1 ]'
run fail-build SKMD_STUB_DEVICES=2 SKMD_STUB_FAIL=1:build
check "SKMD_STUB_FAIL=1:build makes the build fail" \
  '[ $rc != 0 ] && grep -q "clBuildProgram.*failed: -11" "$tmp/err" && [ $(count "^clBuildProgram .* dev=1 .* -> failed") = 1 ]'
run bad-lose SKMD_STUB_DEVICES=2 SKMD_STUB_FAIL=0:lose
check "SKMD_STUB_FAIL=0:lose without @N is named in a clear error" \
  '[ $rc != 0 ] && grep -q "libskmdstub: bad SKMD_STUB_FAIL" "$tmp/err"'
run lose-native SKMD_STUB_DEVICES=2 SKMD_STUB_FAIL=0:lose@1
check "SKMD_STUB_FAIL=0:lose@1: device 0 disappears after one call" \
  '[ $rc != 0 ] && [ $(count "^stub-lost dev=0 after 1 calls$") = 1 ] && [ $(count "^clEnqueueWriteBuffer dev=0 ") = 1 ]'
run bad-types SKMD_STUB_DEVICES=2 SKMD_STUB_TYPES=gpu,fpga
check "a bad SKMD_STUB_TYPES is named in a clear error" \
  '[ $rc != 0 ] && grep -q "libskmdstub: bad SKMD_STUB_TYPES" "$tmp/err"'

# --- Part 2: under libskmd -------------------------------------------------------------
if [ -z "${PRELOAD_SKMD:-}" ]; then
  fail "PRELOAD_SKMD is not set: the checks under libskmd cannot run"
  exit 1
fi
export LD_PRELOAD="$PRELOAD_SKMD"
# These checks count whole (unsplit) launches: keep the stub devices (not PoCL) off the
# source route of split launches, which would give each of them a share.
export SKMD_SHARE_BUILD=ir
# The first GPU is device 1, so "the first device" and "the first GPU" differ.
run skmd SKMD_STUB_DEVICES=3 SKMD_STUB_TYPES=cpu,gpu,gpu
check "under libskmd the app sees one device and correct results" \
  '[ $rc = 0 ] && grep -q "^platforms=1 devices=1$" <<<"$out" && grep -q "^PASSED$" <<<"$out"'
check "libskmd asks the stub for its devices" '[ $(count "^clGetDeviceIDs .* -> 3 ") -ge 1 ]'
check "clCreateBuffer creates no real buffer (made lazily, on first use)" \
  '[ $(count "^clCreateBuffer" create-buffer buffer-created) = 0 ]'
check "a program with no launch worth splitting is built on the executing member (the first GPU) alone" \
  '[ $(count "^clBuildProgram .* dev=1 .* -> ok") -ge 1 ] && [ $(count "^clBuildProgram .* dev=[02] ") = 0 ] &&
   [ $(count "^clCreateContext devs=([0-9],)*[02]") = 0 ]'
check "one app launch is one real launch, on the first GPU (device 1)" \
  '[ $(count "^clEnqueueNDRangeKernel" launch-add launched-add) = 1 ] && [ $(count "^clEnqueueNDRangeKernel dev=1 " launch-add launched-add) = 1 ] &&
   [ $(count "^clEnqueueNDRangeKernel" launch-fill read-fill) = 1 ] && [ $(count "^clEnqueueNDRangeKernel dev=1 " launch-fill read-fill) = 1 ]'
check "no real launch fails" '[ $(count "^clEnqueueNDRangeKernel.*-> CL_OUT_OF_RESOURCES") = 0 ]'
check "releasing the app's objects releases every real object" \
  '[ $(count "^clReleaseMemObject .* freed" release released) -ge 1 ] && [ $(count "^clReleaseContext .* freed" release released) -ge 1 ] && all_freed'

run skmd-eager SKMD_STUB_DEVICES=3 SKMD_STUB_TYPES=cpu,gpu,gpu SKMD_BRING_UP=context
check "SKMD_BRING_UP=context: the program is built on every member device, results correct" \
  '[ $rc = 0 ] && grep -q "^PASSED$" <<<"$out" && [ $(count "^clBuildProgram .* dev=0 .* -> ok") -ge 1 ] && [ $(count "^clBuildProgram .* dev=1 .* -> ok") -ge 1 ] && [ $(count "^clBuildProgram .* dev=2 .* -> ok") -ge 1 ]'

run skmd-one SKMD_STUB_DEVICES=1 SKMD_STUB_TYPES=gpu
check "under libskmd with one real device: correct, nothing left alive" \
  '[ $rc = 0 ] && grep -q "^PASSED$" <<<"$out" && [ $(count "^clEnqueueNDRangeKernel dev=0 ") = 2 ] && all_freed'

run skmd-cpus SKMD_STUB_DEVICES=2 SKMD_STUB_TYPES=cpu,cpu
check "under libskmd with no GPU: the launch still runs on one device" \
  '[ $rc = 0 ] && grep -q "^PASSED$" <<<"$out" && [ $(count "^clEnqueueNDRangeKernel" launch-add launched-add) = 1 ]'

# A driver whose clWaitForEvents succeeds on a failed user event (NVIDIA's does; the CTS's
# events/userevents found it): the app's wait on a launch behind a user event set to an
# error is still CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (-14) under libskmd.
run skmd-failed-gate SKMD_STUB_DEVICES=2 SKMD_STUB_WAIT_IGNORES_ERRORS=1 STUB_APP_FAILED_GATE=1
check "a wait on a launch behind a failed user event is an error, whatever the driver's wait says" \
  '[ $rc = 0 ] && grep -q "^failed gate: wait -14$" <<<"$out"'

# --- Member faults under libskmd (SKMD_STUB_FAIL), 3 members, split and single mode ------
# Member 0 (the stub's first device, a GPU) is the one libskmd runs whole launches on. The
# stub's kernels are never analysed, so every launch runs whole: split and single mode
# take the same path here, and both are run so that a change in either shows. Every run
# with a fault the app survives must print what the run without faults printed.
run clean SKMD_STUB_DEVICES=3
clean_out=$out
# app_ok: the app finished with correct results, its output as without faults, and every
# real object libskmd made (queues left on lost members included) was released.
app_ok() { [ $rc = 0 ] && grep -q "^PASSED$" <<<"$out" && [ "$out" = "$clean_out" ] && all_freed; }
# said TEXT: libskmd's log (SKMD_LOG=warn, the default) has a line with TEXT (an ERE).
said() { grep -Eq "^libskmd: (warn|error): .*$1" "$tmp/err"; }
# after_loss PATTERN: stub log lines matching PATTERN after the stub's device was lost.
after_loss() { awk -v pat="$1" '/^stub-lost/ { on = 1; next } on && $0 ~ pat { n++ } END { print n + 0 }' "$log_copy"; }
for mode in split single; do
  # A member that fails, but is not the one that runs the work, changes nothing.
  for what in launch alloc transfer; do
    run "idle-$what-$mode" SKMD_MODE=$mode SKMD_STUB_DEVICES=3 SKMD_STUB_FAIL=1:$what
    check "$mode: member 1 told to fail $what, unused: results correct, no real call fails" \
      'app_ok && [ $(count "-> (CL_OUT_OF_RESOURCES|CL_MEM_OBJECT_ALLOCATION_FAILURE)$") = 0 ]'
  done

  # 1. One member fails to build: the others have the program, its kernels run there
  # (every member builds at once: with a context of its own, member 1 would otherwise
  # build only when a launch could use it).
  run "fail-build-$mode" SKMD_MODE=$mode SKMD_STUB_DEVICES=3 SKMD_STUB_FAIL=1:build \
    SKMD_BRING_UP=context
  check "$mode: member 1 fails to build: the app's build succeeds, the log names member 1 and its build log" \
    'app_ok && said "member 1 \(stub cpu 1\) failed to build the program: stub: device was told to fail" &&
     grep -A1 "^=== stub cpu 1 ===$" "$tmp/err" | grep -q "told to fail" &&
     [ $(count "^clBuildProgram .* dev=1 .* -> failed") -ge 1 ]'
  run "fail-build-0-$mode" SKMD_MODE=$mode SKMD_STUB_DEVICES=3 SKMD_STUB_FAIL=0:build
  check "$mode: member 0 (the executing one) fails to build: its launches move to a member that has the program" \
    'app_ok && said "member 0 \(stub gpu 0\) failed to build the program" &&
     [ $(count "^clEnqueueNDRangeKernel dev=0 ") = 0 ] && [ $(count "^clEnqueueNDRangeKernel dev=[12] .*-> CL_SUCCESS$") = 2 ]'
  # ... also where each member has a context and a real program of its own (as every GPU
  # has): the failed member's real program has no device built, and the app's kernels are
  # made without it.
  for f in 1 0; do
    run "fail-build-own-context-$f-$mode" SKMD_MODE=$mode SKMD_CONTEXTS=device \
      SKMD_STUB_DEVICES=3 SKMD_STUB_FAIL=$f:build
    check "$mode: member $f fails to build in a context of its own: the kernels are made, its work runs on the others" \
      "app_ok && [ \$(count '^clEnqueueNDRangeKernel dev=$f ') = 0 ] &&
       [ \$(count '^clEnqueueNDRangeKernel .*-> CL_SUCCESS$') -ge 2 ]"
  done
  run "fail-build-all-$mode" SKMD_MODE=$mode SKMD_STUB_DEVICES=3 SKMD_STUB_FAIL=0:build,1:build,2:build
  check "$mode: no member builds: the app gets CL_BUILD_PROGRAM_FAILURE and every member's log" \
    '[ $rc = 1 ] && grep -q "clBuildProgram failed: -11" "$tmp/err" &&
     [ $(grep -c "told to fail" "$tmp/err") = 3 ]'

  # 2. The member that runs the work fails launches: each is redone on another member.
  run "fail-launch-$mode" SKMD_MODE=$mode SKMD_STUB_DEVICES=3 SKMD_STUB_FAIL=0:launch
  check "$mode: member 0 fails launches: the launch is redone on another member, the log says so" \
    'app_ok && [ $(count "^clEnqueueNDRangeKernel dev=0 .*-> CL_OUT_OF_RESOURCES$" launch-add) = 1 ] &&
     [ $(count "^clEnqueueNDRangeKernel dev=[12] .*-> CL_SUCCESS$" launch-add launched-add) = 1 ] &&
     said "member 0 \(stub gpu 0\) failed a launch of add_one" &&
     said "launch of add_one: member 0 \(stub gpu 0\) could not run it; redone whole on member 1"'
  # ... and the member it moves to loses its device as the launch runs (its event ends in
  # error): the launch goes on to the third member.
  run "fail-launch-event-$mode" SKMD_MODE=$mode SKMD_STUB_DEVICES=3 SKMD_STUB_FAIL=0:launch,1:lose@1
  check "$mode: the redone launch's event ends in error on member 1: redone again on member 2" \
    'app_ok && [ $(count "^clEnqueueNDRangeKernel dev=1 .*-> event CL_OUT_OF_RESOURCES$") = 1 ] &&
     [ $(count "^clEnqueueNDRangeKernel dev=2 .*-> CL_SUCCESS$") = 2 ] &&
     said "member 1 \(stub cpu 1\) failed a launch of add_one"'

  # 3. The member that runs the work cannot allocate: its buffer lives elsewhere.
  run "fail-alloc-$mode" SKMD_MODE=$mode SKMD_STUB_DEVICES=3 SKMD_STUB_FAIL=0:alloc
  check "$mode: member 0 fails allocations: the buffer works through the host copy and the others" \
    'app_ok && [ $(count "^clEnqueueWriteBuffer -> CL_MEM_OBJECT_ALLOCATION_FAILURE$" create-buffer) = 1 ] &&
     said "member 0 \(stub gpu 0\) cannot allocate buffer" && [ $(count "^clEnqueueNDRangeKernel dev=[12] .*-> CL_SUCCESS$") = 2 ]'

  # ... also when the buffer is made with the app's bytes (CL_MEM_COPY_HOST_PTR): the
  # stub's clCreateBuffer then fails, libskmd keeps the bytes in its host copy.
  run "fail-alloc-copy-$mode" SKMD_MODE=$mode SKMD_STUB_DEVICES=3 SKMD_STUB_FAIL=0:alloc STUB_APP_COPY_HOST_PTR=1
  check "$mode: member 0 fails allocations, buffer made with COPY_HOST_PTR: the app's clCreateBuffer succeeds, results exact" \
    'app_ok && [ $(count "^clCreateBuffer .*-> CL_MEM_OBJECT_ALLOCATION_FAILURE$" create-buffer buffer-created) = 1 ] &&
     said "member 0 \(stub gpu 0\) cannot allocate buffer"'
  run "fail-alloc-all-$mode" SKMD_MODE=$mode SKMD_STUB_DEVICES=3 SKMD_STUB_FAIL=0:alloc,1:alloc,2:alloc
  check "$mode: no member can allocate: clCreateBuffer and the write succeed (host copy), the launch gets CL_MEM_OBJECT_ALLOCATION_FAILURE" \
    '[ $rc = 1 ] && grep -q "clEnqueueNDRangeKernel.*failed: -4" "$tmp/err" &&
     said "launch of add_one: no member is left that can run it \(a buffer no member can allocate\)"'

  # 4. The member that runs the work fails transfers: taken for lost, the queue moves on
  # (the app's bytes are still in its hands).
  run "fail-transfer-$mode" SKMD_MODE=$mode SKMD_STUB_DEVICES=3 SKMD_STUB_FAIL=0:transfer
  check "$mode: member 0 fails transfers: marked lost, the app's queue moves to member 1" \
    'app_ok && [ $(count "^clEnqueueWriteBuffer -> CL_OUT_OF_RESOURCES$" create-buffer) = 1 ] &&
     said "member 0 \(stub gpu 0\) lost: .*CL_OUT_OF_RESOURCES" && said "a queue of lost member 0 .* now runs on member 1"'

  # 5. A member that disappears between calls (lose@N: after N calls, every call fails).
  run "lose-idle-$mode" SKMD_MODE=$mode SKMD_STUB_DEVICES=3 SKMD_STUB_FAIL=1:lose@0
  check "$mode: an unused member disappears: nothing changes" 'app_ok'
  run "lose-first-$mode" SKMD_MODE=$mode SKMD_STUB_DEVICES=3 SKMD_STUB_FAIL=0:lose@0 SKMD_REPORT=1
  check "$mode: member 0 disappears at its first command: lost (log and report), never used again, results exact" \
    'app_ok && said "member 0 \(stub gpu 0\) lost" && [ $(grep -c "member 0 (stub gpu 0) lost" "$tmp/err") = 1 ] &&
     grep -q "device 0: stub gpu 0 (lost)" "$tmp/err" &&
     [ $(after_loss "^clEnqueue[A-Za-z]* dev=0 |^clBuildProgram .* dev=0 .*-> ok") = 0 ]'
  # Its data had been copied elsewhere (member 0 ran no kernel, member 1 did): it survives,
  # whether the loss shows on a transfer (lose@5) or a command of the app's queue (lose@6).
  for n in 5 6; do
    run "lose-kept-$n-$mode" SKMD_MODE=$mode SKMD_STUB_DEVICES=3 SKMD_STUB_FAIL=0:launch,0:lose@$n
    check "$mode: member 0 disappears after its data was copied to member 1 (lose@$n): results exact" \
      'app_ok && grep -q "^stub-lost dev=0" "$log_copy" && said "member 0 \(stub gpu 0\) lost" &&
       [ $(after_loss "^clEnqueue[A-Za-z]* dev=0 ") = 0 ]'
  done
  # Its data was on it alone: the command that needs it fails with CL_OUT_OF_RESOURCES, the
  # log names the buffer; no crash, no hang.
  run "lose-data-$mode" SKMD_MODE=$mode SKMD_STUB_DEVICES=3 SKMD_STUB_FAIL=0:lose@3
  check "$mode: member 0 disappears holding the only copy: the read fails with CL_OUT_OF_RESOURCES, the log names the buffer" \
    '[ $rc = 1 ] && grep -q "clEnqueueReadBuffer.*failed: -5" "$tmp/err" &&
     said "buffer 0x[0-9a-f]+ \(4096 bytes\): bytes 0\.\.4096 were current only on lost member 0"'

  # 6. Each member with a real context of its own (as every GPU has): the app's queue of a
  # lost member moves to a member of another context, its earlier events waited for on
  # the host.
  run "lose-first-own-context-$mode" SKMD_MODE=$mode SKMD_CONTEXTS=device SKMD_STUB_DEVICES=3 \
    SKMD_STUB_FAIL=0:lose@0
  check "$mode: member 0 with a context of its own disappears at its first command: its queue moves to member 1, results exact" \
    'app_ok && said "a queue of lost member 0 .* now runs on member 1" &&
     [ $(after_loss "^clEnqueue[A-Za-z]* dev=0 ") = 0 ]'
  run "lose-kept-own-context-$mode" SKMD_MODE=$mode SKMD_CONTEXTS=device SKMD_STUB_DEVICES=3 \
    SKMD_STUB_FAIL=0:launch,0:lose@6
  check "$mode: member 0 with a context of its own disappears after its data was copied: results exact" \
    'app_ok && grep -q "^stub-lost dev=0" "$log_copy" && [ $(after_loss "^clEnqueue[A-Za-z]* dev=0 ") = 0 ]'
done

# 7. Members of two real platforms (the stub's GPU and a PoCL CPU, as NVIDIA's GPUs and
# PoCL's CPU on a GPU machine): the lost GPU's queue moves to the other platform's member.
if [ -f /etc/OpenCL/vendors/pocl.icd ]; then
  mixed="$tmp/mixed-vendors"
  mkdir -p "$mixed" && cp "$OCL_ICD_VENDORS"/*.icd /etc/OpenCL/vendors/pocl.icd "$mixed/"
  run lose-first-other-platform OCL_ICD_VENDORS="$mixed" POCL_DEVICES=pthread \
    SKMD_STUB_DEVICES=1 SKMD_STUB_FAIL=0:lose@0
  check "the stub GPU disappears beside a PoCL member: its queue moves to the other platform, results exact" \
    'app_ok && said "a queue of lost member 0 \(stub gpu 0\) now runs on member 1 \(pthread"'
fi

[ $failures = 0 ] && echo "stub-icd: all checks passed" || echo "stub-icd: $failures check(s) failed"
exit $((failures != 0))
