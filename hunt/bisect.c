/* Placeholder until bisection lands: it refuses. */
#include <string.h>
#include "hunt/bug.h"

bool hunt_bisect(const char *cc, const char *cflags, const char *text, hunt_pred pred, void *ctx,
                 hunt_bisect_result *r, diag *d)
{
    (void)cc, (void)cflags, (void)text, (void)pred, (void)ctx;
    memset(r, 0, sizeof *r);
    return diag_fail(d, "hunt: bisection is not built yet");
}

void hunt_bisect_free(hunt_bisect_result *r)
{
    (void)r;
}
