/* Placeholder until the frontend lands. */
#include <stddef.h>
#include "cli/cli.h"

ir_test *cli_load_test(const char *path, diag *d)
{
    diag_error(d, path, 0, 0, "the frontend is not available in this build");
    return NULL;
}
