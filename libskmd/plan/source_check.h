/* libskmd/plan/source_check.h: whether the app's OpenCL C source can take the prelude of
 * share_source.c: the prelude redefines get_group_id, get_num_groups, get_global_size,
 * get_global_offset and get_global_linear_id as macros, so the source (and its -D
 * options) must only CALL them, never define, #undef, test or declare them, and must not
 * use the prelude's own __skmd_/__SKMD_ names. Pure C. */
#ifndef SKMD_SOURCE_CHECK_H
#define SKMD_SOURCE_CHECK_H

#include <stddef.h>

/* 0 when safe; else -1 and the reason (with the line) in why. Comments and string or
 * character literals are skipped. */
int skmd_source_check(const char *source, const char *options, char *why, size_t why_size);

#endif
