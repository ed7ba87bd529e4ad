# tests/: each suite lives in tests/NAME/ with its own module.mk.
include $(sort $(wildcard tests/*/module.mk))
