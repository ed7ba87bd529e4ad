#!/usr/bin/python3
"""tests/common/decisions.py FILE QUERY [ARG]: what the tests read of libskmd's decision log
(SKMD_DECISIONS=FILE, one JSON object per launch; docs/tools.md, "The decision log").

Queries:
  check          every line is one JSON object with the documented keys, the shares of each
                 launch contiguous from 0 and summing to its work-groups; prints the count
  shares         one line per launch its shares ran (split, or one member's timed share),
                 e.g. "m0=0+64 m1=64+192"
  kinds          one letter per launch: S split, W whole (one share, or whole on a member
                 for a reason of the plan's: PLAN_WHOLE below)
  decisions      one line per launch the plan decided (not the guard's samples and
                 retries): its shares, a whole launch as "mQ=0+N"
  count EXPR     how many launches r make the Python expression EXPR true
  list EXPR      EXPR of every launch, one line each
"""
import json
import signal
import sys

# The reasons the plan gives for a launch it keeps whole.
PLAN_WHOLE = {"forced", "partitioner", "estimate_whole", "estimate_no_split", "no_speed",
              "guard", "single_mode", "policy_equal"}
KEYS = ["pid", "launch", "kernel", "work_dim", "global", "local", "groups", "workgroups",
        "split", "run", "members", "up", "shares", "decision", "reason", "kept", "guard", "tags",
        "estimate", "wall_ms", "moved"]


def records(path):
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return []
    return [json.loads(line) for line in lines]


def share_text(r):
    return " ".join("m%d=%d+%d" % (s["member"], s["first"], s["count"]) for s in r["shares"])


def plan_whole(r):
    return r["run"] == "whole" and r["reason"] in PLAN_WHOLE


def check(path):
    with open(path) as f:
        lines = f.read().splitlines()
    for n, line in enumerate(lines, 1):
        r = json.loads(line)
        assert isinstance(r, dict), "line %d: not an object" % n
        missing = [k for k in KEYS if k not in r]
        assert not missing, "line %d: no %s" % (n, missing)
        assert r["run"] in ("split", "one_share", "whole"), "line %d: run %r" % (n, r["run"])
        assert r["split"] == (r["run"] == "split"), "line %d: split vs run" % n
        assert isinstance(r["reason"], str) and r["reason"].replace("_", "").isalpha(), \
            "line %d: reason %r" % (n, r["reason"])
        assert isinstance(r["decision"], str) and r["decision"], "line %d: no words" % n
        assert len(r["global"]) == r["work_dim"], "line %d: global" % n
        members = [s["member"] for s in r["shares"]]
        assert members == sorted(set(members)), "line %d: members %r" % (n, members)
        assert all(0 <= m < r["members"] for m in members), "line %d: members" % n
        assert all(m in r["up"] for m in members), "line %d: a member not up ran" % n
        assert (len(members) > 1) == r["split"], "line %d: shares vs split" % n
        if r["workgroups"] is not None:
            at = 0
            for s in r["shares"]:
                assert s["first"] == at, "line %d: shares not contiguous" % n
                at += s["count"]
            assert at == r["workgroups"], "line %d: shares sum %d, not %d" % (
                n, at, r["workgroups"])
            prod = 1
            for g in r["groups"]:
                prod *= g
            assert prod == r["workgroups"], "line %d: groups" % n
        for k in ("in", "out", "peer"):
            assert isinstance(r["moved"][k], int) and r["moved"][k] >= 0, "line %d: moved" % n
    print(len(lines))


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head -1` is fine
    path, query = sys.argv[1], sys.argv[2]
    if query == "check":
        check(path)
        return
    rs = records(path)
    if query == "shares":
        for r in rs:
            if r["run"] != "whole":
                print(share_text(r))
    elif query == "kinds":
        print("".join("S" if r["run"] == "split" else "W" for r in rs
                      if r["run"] != "whole" or plan_whole(r)))
    elif query == "decisions":
        for r in rs:
            if r["guard"] in ("retry", "whole_sample", "other_split"):
                continue
            if r["run"] != "whole":
                print(share_text(r))
            elif plan_whole(r):
                print("m%d=0+%s" % (r["shares"][0]["member"], r["workgroups"]))
    elif query == "count":
        print(sum(1 for r in rs if eval(sys.argv[3], {"plan_whole": plan_whole}, {"r": r})))
    elif query == "list":
        for r in rs:
            print(eval(sys.argv[3], {"share_text": share_text}, {"r": r}))
    else:
        sys.exit("decisions.py: unknown query " + query)


if __name__ == "__main__":
    main()
