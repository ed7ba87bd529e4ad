/* libskmd/device/member_names.c: gives the report and the trace the member devices' names.
 *
 * Kept apart from report.c and trace.c so that those stay free of libskmd's state (their
 * unit tests link them alone). */
#include <stdio.h>

#include "support/object.h"
#include "support/report.h"
#include "support/trace.h"

/* The type first, as a lane label reads; numbered within the type ("CPU 0", "CPU 1")
 * since several members may share one name. */
static const char *type_word(cl_device_type type)
{
    if (type & CL_DEVICE_TYPE_GPU)
        return "GPU";
    if (type & CL_DEVICE_TYPE_CPU)
        return "CPU";
    if (type & CL_DEVICE_TYPE_ACCELERATOR)
        return "accelerator";
    return "device";
}

void skmd_name_members(void)
{
    char label[300];
    for (int i = 0; i < skmd_state.nmembers; i++) {
        const struct skmd_member *m = &skmd_state.members[i];
        int same_type_before = 0;
        for (int j = 0; j < i; j++)
            same_type_before += type_word(skmd_state.members[j].type) == type_word(m->type);
        snprintf(label, sizeof label, "%s %d: %s", type_word(m->type), same_type_before,
                 m->name[0] ? m->name : "(no name)");
        skmd_report_name_device(i, label);
        skmd_trace_name_device(i, label);
    }
}
