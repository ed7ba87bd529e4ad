# tools/: each tool has its own tools/NAME.mk.
include $(sort $(filter-out tools/module.mk,$(wildcard tools/*.mk)))
