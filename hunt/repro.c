/* repro.c for a compiler bug tracker: one self-contained C file, the
 * test's translation unit as cc-check compiles it (lift/tu.c) and the
 * stress driver (driver.c) after it, so that compiling it with the
 * reported compiler and flags (and -pthread) and running it shows how
 * often the forbidden state appears, with nothing of litmusc around. */
#include <stdlib.h>
#include <string.h>
#include "hunt/internal.h"
#include "lift/lift.h"

char *hunt_repro_text(const fe_test *ft, const ir_test *t, const char *forbidden, diag *d)
{
    hunt_obs *obs = NULL;
    int nobs = 0;
    if (!hunt_state_obs(t, forbidden, &obs, &nobs, d))
        return NULL;
    char *tu = lift_tu_text(ft, t, d);
    if (!tu) {
        hunt_obs_free(obs, nobs);
        return NULL;
    }
    strbuf b = {0};
    sb_printf(&b, "/* %s: the compiled test shows %s, a state the source forbids.\n"
                  " * Build with the reported compiler and flags, and -pthread: CC FLAGS -pthread repro.c -o repro\n"
                  " * Run: ./repro [SECONDS [ROUNDS [1: stop at the first sighting]]] (default 5 s); it prints\n"
                  " * every final state it saw with its count, then how often the forbidden one showed. */\n",
              t->name, forbidden);
    char *drv = hunt_driver_text(t, "", obs, nobs, tu);
    sb_add(&b, drv);
    free(drv);
    free(tu);
    hunt_obs_free(obs, nobs);
    return sb_take(&b);
}
