#!/usr/bin/python3
"""Checks an SVG drawn by skmd-trace: well-formed XML, one lane per device with its name,
spans of every kind, a time axis.
usage: check-svg.py SVG LANE-NAME..."""
import sys
import xml.dom.minidom

path, names = sys.argv[1], sys.argv[2:]
doc = xml.dom.minidom.parse(path)
assert doc.documentElement.tagName == "svg"
groups = doc.getElementsByTagName("g")
lanes = [g for g in groups if g.getAttribute("class") == "lane"]
assert len(lanes) == len(names), f"{len(lanes)} lanes, expected {len(names)}"
for lane, name in zip(lanes, names):
    label = [t for t in lane.getElementsByTagName("text") if t.getAttribute("class") == "lane-name"]
    assert label and label[0].firstChild.data == name, (label and label[0].firstChild.data, name)
kinds = set()
for rect in doc.getElementsByTagName("rect"):
    cls = rect.getAttribute("class").split()
    if cls[:1] == ["span"]:
        kinds.add(cls[1])
        assert float(rect.getAttribute("width")) > 0
assert kinds == {"transfer_in", "kernel", "transfer_out", "merge"}, kinds
axis = [g for g in groups if g.getAttribute("class") == "axis"]
assert axis and len(axis[0].getElementsByTagName("text")) >= 3, "no time axis"
print(f"check-svg: {len(lanes)} lanes, spans of kinds {sorted(kinds)}, well-formed")
