# tools/: each tool has its own tools/NAME.mk.
include $(sort $(wildcard tools/*.mk))
