/* tools/skmd-profile-common.c: the argument checks that skmd-profile's commands share. */
#include "skmd-profile-common.h"

#include <stdio.h>
#include <string.h>

int wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return 1;
    return 0;
}

int no_arguments(const char *help, int argc, char **argv)
{
    if (wants_help(argc, argv)) {
        fputs(help, stdout);
        return 0;
    }
    return argc > 1 ? unexpected_argument(argv[0], argv[1]) : -1;
}

int unexpected_argument(const char *command, const char *arg)
{
    fprintf(stderr, "skmd-profile %s: unexpected argument '%s' (skmd-profile %s --help)\n",
            command, arg, command);
    return EXIT_USAGE;
}
