/* Placeholder until this command is written: refuses with exit status 3. */
#include <stdio.h>
#include "cli/cli.h"

int emit_jcstress(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "litmusc: emit_jcstress is not available in this build\n");
    return EXIT_INTERNAL;
}
