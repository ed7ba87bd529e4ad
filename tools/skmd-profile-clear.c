/* skmd-profile clear: deletes every row of the profile database, keeps the file. */
#include "skmd-profile-common.h"

#include <stdio.h>

static const char clear_help[] =
    "usage: skmd-profile [--db PATH] clear\n"
    "Deletes every profile, link calibration and logged decision (the file stays).\n";

int cmd_clear(struct skmd_pdb *db, int argc, char **argv)
{
    int usage = no_arguments(clear_help, argc, argv);
    if (usage >= 0)
        return usage;
    int status = skmd_pdb_clear(db);
    if (status != SKMD_PDB_OK) {
        fprintf(stderr, "skmd-profile clear: %s\n", skmd_pdb_strstatus(status));
        return 1;
    }
    printf("cleared %s\n", skmd_pdb_path(db));
    return 0;
}
