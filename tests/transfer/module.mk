# tests/transfer/: the transfer engine (libskmd/transfer.c) linked directly, on 2 and 3
# local PoCL devices, with small chunks (many chunk boundaries) and with chunks large enough
# that the host copies are shared among threads.
TRANSFER_TEST := $(O)tests/transfer/test-transfer
ALL_TARGETS += $(TRANSFER_TEST)
CLEAN_FILES += $(TRANSFER_TEST)

$(O)tests/transfer/test-transfer.o: CPPFLAGS += -Ilibskmd -DCL_USE_DEPRECATED_OPENCL_1_2_APIS \
  -DCL_USE_DEPRECATED_OPENCL_2_0_APIS
$(TRANSFER_TEST): $(O)tests/transfer/test-transfer.o $(O)libskmd/transfer.o \
  $(O)libskmd/config.o $(O)libskmd/log.o
	$(CC) $(LDFLAGS) -o $@ $^ -ldl -lpthread

TEST_TARGETS += test-transfer
.PHONY: test-transfer
test-transfer: $(TRANSFER_TEST)
	@env $(SKMD_SAN_ENV) POCL_DEVICES="pthread pthread" POCL_CPU_MAX_CU_NUM=1 \
	  SKMD_TRANSFER_CHUNK_KIB=64 SKMD_TRANSFER_DIRECT_KIB=16 SKMD_TRANSFER_STAGING=2 \
	  $(TRANSFER_TEST)
	@env $(SKMD_SAN_ENV) POCL_DEVICES="pthread pthread basic" POCL_CPU_MAX_CU_NUM=1 \
	  SKMD_TRANSFER_CHUNK_KIB=4096 SKMD_TRANSFER_DIRECT_KIB=1024 SKMD_TRANSFER_STAGING=3 \
	  SKMD_TRANSFER_THREADS=3 $(TRANSFER_TEST)
