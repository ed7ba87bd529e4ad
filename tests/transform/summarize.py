#!/usr/bin/python3
"""Compact, hand-checkable summary of `skmd-opt --analyze` JSON (stdin) for the corpus
.expect files: per kernel the verdict, parameters, loop counters and every global access.
Static features are left out (they are counts, not decisions)."""
import json
import sys


def main():
    rec = json.load(sys.stdin)
    out = []
    for k in rec["kernels"]:
        if k["splittable"]:
            out.append("kernel %s: splittable" % k["name"])
        else:
            out.append("kernel %s: NOT splittable: %s" % (k["name"], k["reason"]))
        out.append("  merge %s, writes %s" % (
            "needed" if k["needs_merge"] else "not needed",
            "disjoint by group" if k["writes_disjoint"] else "not known disjoint"))
        for i, p in enumerate(k["params"]):
            line = "  p%d %s: %s" % (i, p["name"], p["kind"])
            if p["kind"] == "scalar":
                if p.get("scalar_bytes"):
                    line += " %sint%d" % ("" if p["signed"] else "u", 8 * p["scalar_bytes"])
            elif p["access"] != "none" or p["kind"] in ("global", "constant", "image"):
                line += " %s" % p["access"]
                if p["elem_size"]:
                    line += " elem %d" % p["elem_size"]
            out.append(line)
        for l in k["loops"]:
            bound = l["bound"] + ("/%d" % l["bound_div"] if l.get("bound_div") else "")
            out.append("  loop %s: from %s step %d while %s %s%s" % (
                l["counter"], l["start"], l["step"], "<" if l["step"] > 0 else ">", bound,
                " (at least once)" if l["at_least_once"] else ""))
        for a in k["accesses"]:
            line = "  %s p%d %dB @ %s" % (a["kind"], a["param"], a["size"],
                                        a["offset"] if a["offset"] is not None else "unknown")
            if "clip" in a:
                line += " if offset <= %s" % a["clip"]
            if a["conditional"]:
                line += " (conditional)"
            out.append(line)
    print("\n".join(out))


if __name__ == "__main__":
    main()
