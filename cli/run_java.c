/* Placeholder until this command is written: refuses with exit status 3. */
#include <stdio.h>
#include "cli/cli.h"

int run_java(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "litmusc: run_java is not available in this build\n");
    return EXIT_INTERNAL;
}
