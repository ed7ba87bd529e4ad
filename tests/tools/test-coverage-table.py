"""tests/tools/test-coverage-table.py: the tabulating half of tools/coverage/coverage.py
(kernel names from source, the record's verdicts, the reason each kernel gets, the
Markdown table and its counts), on made-up inputs: no compiler, no driver."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tools", "coverage"))
import coverage  # noqa: E402

failures = 0


def expect(name, got, want):
    global failures
    if got == want:
        print("PASS coverage-table %s" % name)
    else:
        failures += 1
        print("FAIL coverage-table %s:\n  got  %r\n  want %r" % (name, got, want))


src = """
// __kernel void commented_out(int x) {}
/* kernel void also_commented(void) {} */
__kernel void first(__global int *a) { }
kernel __attribute__((reqd_work_group_size(64, 1, 1))) void second(global float *b) { }
static void helper(void) { }
__kernel
void third(int n) { }
__kernel void first(__global int *a);
"""
expect("kernel names: comments skipped, attributes and line breaks taken, no repeats",
       coverage.kernel_names(src), ["first", "second", "third"])

record = """skmd-record 1
kernel first
splittable 1 0 
merge 0 disjoint 1 groupfree 1
end
kernel second
splittable 0 12 global atomic_add
end
kernel third
splittable 0 0 image argument
end
"""
parsed = coverage.parse_record(record)
expect("record: verdicts in order, the reason given its line",
       parsed, [("first", True, ""), ("second", False, "global atomic_add at line 12"),
                ("third", False, "image argument")])

expect("compiled and built: the record decides",
       coverage.classify(["x"], record=parsed),
       [("first", True, ""), ("second", False, "global atomic_add at line 12"),
        ("third", False, "image argument")])
expect("compile failure: every kernel of the source, with skmd-opt's message",
       coverage.classify(["a", "b"], compile_error="helper is called but never defined"),
       [("a", False, "compile failure: helper is called but never defined"),
        ("b", False, "compile failure: helper is called but never defined")])
expect("compile failure of a source whose kernels the scan cannot name",
       coverage.classify([], compile_error="clang: boom"),
       [("(none)", False, "compile failure: clang: boom")])
log = "Error(s) while linking: \nCannot find symbol foo in kernel library\nDevice x failed\n"
expect("build failure: every kernel, even a splittable one, with the log's first real line",
       coverage.classify(["x"], record=parsed[:2], build_log=log),
       [("first", False, "PoCL build failure: Cannot find symbol foo in kernel library"),
        ("second", False, "PoCL build failure: Cannot find symbol foo in kernel library")])
expect("build failure with an empty log says so",
       coverage.classify(["x"], record=parsed[:1], build_log="  \n"),
       [("first", False, "PoCL build failure: (empty build log)")])

rows = [("first", "a.cl", "repo", True, ""),
        ("second", "a.cl", "repo", False, "global atomic_add at line 12"),
        ("third", "b.cl", "pyopencl", False, "global atomic_add at line 3"),
        ("fourth", "b.cl", "pyopencl", False, "a|b")]
md = coverage.markdown(rows).splitlines()
expect("counts at the top", md[4], "**1 of 4 kernels split-ready** (3 not).")
expect("per corpus", [l for l in md if l.startswith("| repo ") or l.startswith("| pyopencl ")],
       ["| pyopencl | 2 | 0 |", "| repo | 2 | 1 |"])
expect("reasons counted without their line numbers, most frequent first",
       [l for l in md if l.startswith("| global atomic_add") or l.startswith("| a\\|b")],
       ["| global atomic_add | 2 |", "| a\\|b | 1 |"])
expect("one row per kernel, pipes escaped",
       md[-4:], ["| first | a.cl | yes |  |", "| second | a.cl | no | global atomic_add at line 12 |",
                 "| third | b.cl | no | global atomic_add at line 3 |",
                 "| fourth | b.cl | no | a\\|b |"])
sys.exit(1 if failures else 0)
