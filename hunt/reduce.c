/* Placeholder until the reducer lands: it refuses. */
#include "hunt/bug.h"

char *hunt_reduce(const char *text, hunt_pred pred, void *ctx, hunt_reduce_stats *st, diag *d)
{
    (void)text, (void)pred, (void)ctx, (void)st;
    diag_fail(d, "hunt: reduction is not built yet");
    return NULL;
}
