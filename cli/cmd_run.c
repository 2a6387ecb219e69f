/* Placeholder until this command is written: refuses with exit status 3. */
#include <stdio.h>
#include "cli/cli.h"

int cmd_run(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "litmusc: cmd_run is not available in this build\n");
    return EXIT_INTERNAL;
}
