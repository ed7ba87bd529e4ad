# libskmd/: the interposer library, libskmd.so, exporting every OpenCL entry point. Its
# sources lie in one folder per layer (docs/layers.md); includes name a header by its
# layer, "support/log.h", from the include root libskmd/.
LIBSKMD_LAYERS := api cl launch plan mem xfer device support
LIBSKMD_SRCS := $(filter-out %/gen-%.c,$(foreach l,$(LIBSKMD_LAYERS),$(wildcard libskmd/$(l)/*.c)))
LIBSKMD_OBJS := $(patsubst %.c,$(O)%.o,$(LIBSKMD_SRCS))
LIBSKMD_SO := $(O)libskmd/libskmd.so
LIBSKMD_MAP := $(O)libskmd/libskmd.map
ALL_TARGETS += $(LIBSKMD_SO)
CLEAN_FILES += $(LIBSKMD_SO) $(LIBSKMD_MAP)

# Deprecated entry points are part of the API libskmd must export: no warnings for them.
$(LIBSKMD_OBJS): CPPFLAGS += -Ilibskmd -DCL_USE_DEPRECATED_OPENCL_1_0_APIS \
  -DCL_USE_DEPRECATED_OPENCL_1_1_APIS -DCL_USE_DEPRECATED_OPENCL_1_2_APIS \
  -DCL_USE_DEPRECATED_OPENCL_2_0_APIS -DCL_USE_DEPRECATED_OPENCL_2_1_APIS \
  -DCL_USE_DEPRECATED_OPENCL_2_2_APIS
$(LIBSKMD_OBJS): libskmd/device/api.def

# The linker version script: OPENCL_1.0 ... OPENCL_3.0 nodes as the ICD loaders export
# them, expanded from api.def by the C preprocessor.
$(LIBSKMD_MAP): libskmd/libskmd.map.in libskmd/device/api.def
	@mkdir -p $(dir $@)
	$(CC) -E -P -x c -Ilibskmd $< | sed -e 's/ *;/;/g' -e '/^ *$$/d' > $@

# -Bsymbolic-functions: the ICD dispatch table must hold libskmd's own functions even when
# an ICD loader's same-named exports come first in the process (libskmd as an ICD).
# plan*.c feed the partitioner from the profile database (SQLite).
LIBSKMD_LIBS := $(O)transform/libskmdrecord.a $(O)partitioner/libskmdpart.a \
  $(O)profiledb/libskmdprofiledb.a
$(LIBSKMD_SO): $(LIBSKMD_OBJS) $(LIBSKMD_MAP) $(LIBSKMD_LIBS)
	$(CC) -shared -o $@ $(LIBSKMD_OBJS) -Wl,--version-script=$(LIBSKMD_MAP) \
	  $(LIBSKMD_LIBS) -Wl,-z,defs -Wl,-Bsymbolic-functions $(LDFLAGS) -lsqlite3 -lm -ldl \
	  -lpthread

# Regenerates api.def from the installed Khronos headers (checked in; run after a
# header update and review the diff).
.PHONY: regen-api-list
regen-api-list:
	/usr/bin/python3 tools/gen-api-list.py > libskmd/device/api.def
