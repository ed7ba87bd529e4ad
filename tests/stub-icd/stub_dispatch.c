/* The dispatch table: each file fills in what it implements; every other entry point
 * stops the process with its name, so a test never runs on into a NULL call. */
#include "stub.h"

#include <stdio.h>
#include <stdlib.h>

cl_icd_dispatch stub_dispatch;

void stub_fill_platform(cl_icd_dispatch *t);
void stub_fill_context(cl_icd_dispatch *t);
void stub_fill_event(cl_icd_dispatch *t);
void stub_fill_memory(cl_icd_dispatch *t);
void stub_fill_program(cl_icd_dispatch *t);
void stub_fill_launch(cl_icd_dispatch *t);
void stub_fill_dispatch(void);

static _Noreturn void unimplemented(const char *name)
{
  stub_log("%s UNIMPLEMENTED", name);
  fprintf(stderr, "libskmdstub: %s is not implemented by the stub ICD\n", name);
  abort();
}

/* stub_slots.def (made from CL/cl_icd.h at build time) names every slot of the table. */
#define STUB_SLOT(name) static void unimplemented_##name(void) { unimplemented(#name); }
#include "stub_slots.def"
#undef STUB_SLOT

void stub_fill_dispatch(void)
{
  stub_fill_platform(&stub_dispatch);
  stub_fill_context(&stub_dispatch);
  stub_fill_event(&stub_dispatch);
  stub_fill_memory(&stub_dispatch);
  stub_fill_program(&stub_dispatch);
  stub_fill_launch(&stub_dispatch);
#define STUB_SLOT(name) \
  if (!stub_dispatch.name) stub_dispatch.name = (cl_api_##name)(void (*)(void))unimplemented_##name;
#include "stub_slots.def"
#undef STUB_SLOT
}
