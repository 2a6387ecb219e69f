/* cli_load_test: a litmus file to verified IR (frontend, then lowering). */
#include <stddef.h>
#include "cli/cli.h"
#include "frontend/frontend.h"
#include "ir/lower.h"

ir_test *cli_load_test(const char *path, diag *d)
{
    fe_test *ft = fe_parse_file(path, d);
    if (!ft)
        return NULL;
    ir_test *t = ir_lower(ft, d);
    fe_test_free(ft);
    return t;
}
