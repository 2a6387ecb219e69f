/* The end of `emit --target java|jcstress`: one file to stdout, or the
 * whole set written (nothing when any file fails) and its paths listed. */
#include <stdio.h>
#include "backends/java/javaout.h"
#include "cli/cli.h"

int cli_emit_set(javaout_set *set, bool to_stdout)
{
    diag d = {0};
    if (to_stdout) {
        fputs(set->data[0], stdout);
        return EXIT_OK;
    }
    if (!javaout_write(set, &d))
        return cli_report(&d);
    for (int i = 0; i < set->n; i++)
        printf("%s\n", set->paths[i]);
    return EXIT_OK;
}
