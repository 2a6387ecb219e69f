/* Placeholder until repro.c generation lands: it refuses. */
#include "hunt/bug.h"

char *hunt_repro_text(const fe_test *ft, const ir_test *t, const char *forbidden, diag *d)
{
    (void)ft, (void)t, (void)forbidden;
    diag_fail(d, "hunt: repro.c is not built yet");
    return NULL;
}
