# tools/skmd-info: what libskmd sees (virtual device, members, links, profile, cache).
# libskmd's objects are linked in (see tools/skmd-info.c for why); clGetPlatformIDs is
# exported so that libskmd sees itself as the process's OpenCL, as under LD_PRELOAD.
SKMD_INFO := $(O)tools/skmd-info
ALL_TARGETS += $(SKMD_INFO)
CLEAN_FILES += $(SKMD_INFO)

$(O)tools/skmd-info.o: CPPFLAGS += -Ilibskmd -Iprofiledb -DCL_USE_DEPRECATED_OPENCL_1_2_APIS
$(SKMD_INFO): $(O)tools/skmd-info.o $(LIBSKMD_OBJS) $(O)transform/libskmdrecord.a \
  $(O)partitioner/libskmdpart.a $(PROFILEDB_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ -Wl,--export-dynamic-symbol=clGetPlatformIDs \
	  $(PROFILEDB_LDLIBS) -lm -ldl -lpthread
