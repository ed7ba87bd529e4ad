# profiledb/: the persistent profile store (SQLite), plain C, no OpenCL.
PROFILEDB_SRCS := $(wildcard profiledb/*.c)
PROFILEDB_LIB := $(O)profiledb/libskmdprofiledb.a
# What a program linking the library adds to its link line.
PROFILEDB_LDLIBS := -lsqlite3
ALL_TARGETS += $(PROFILEDB_LIB)
CLEAN_FILES += $(PROFILEDB_LIB)

$(PROFILEDB_LIB): $(PROFILEDB_SRCS:%.c=$(O)%.o)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^
