# tests/common/: helpers the test programs share, linked into each that uses them.
#   check.{h,c}    counted CHECK of the unit tests, and their final report
#   cl_test.{h,c}  the OpenCL test apps' CL_CHECK, set-up, buffers, kernels, dumps
# Included (sorted) before the suites that name these variables.
TEST_CHECK_OBJ := $(O)tests/common/check.o
CL_TEST_OBJS := $(O)tests/common/cl_test.o $(O)libskmd/support/error_names.o
