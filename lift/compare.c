/* Compare the compiled test's final states with the source's: each
 * compiled observable is a global, named P<n>_<reg> for the source's
 * register n:reg and as the location for [x]. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lift/lift.h"
#include "model/model.h"
#include "util/mem.h"

/* The index in CB's observables of the source observable O, or -1. */
static int compiled_index(const ir_test *s, const ir_obs *o, const ir_test *c, const bset *cb)
{
    char name[160];
    if (o->kind == IR_OBS_REG)
        snprintf(name, sizeof name, "P%d_%s", o->thread, o->reg);
    else
        snprintf(name, sizeof name, "%s", s->locs[o->loc].name);
    for (int k = 0; k < cb->nobs; k++) {
        const ir_obs *q = &cb->obs[k];
        if (q->kind == IR_OBS_MEM && !strcmp(c->locs[q->loc].name, name))
            return k;
    }
    return -1;
}

int lift_compare(const ir_test *s, const bset *sb, const ir_test *c, const bset *cb, int **bad, bool *same)
{
    int *map = xcalloc((size_t)(sb->nobs ? sb->nobs : 1), sizeof *map);
    for (int k = 0; k < sb->nobs; k++)
        map[k] = compiled_index(s, &sb->obs[k], c, cb);
    ir_val *vals = xcalloc((size_t)(sb->nobs ? sb->nobs : 1), sizeof *vals);
    int nbad = 0;
    *bad = xcalloc((size_t)(cb->nstates ? cb->nstates : 1), sizeof **bad);
    bool seen_all = true;
    for (int i = 0; i < cb->nstates; i++) {
        for (int k = 0; k < sb->nobs; k++) {
            vals[k] = map[k] >= 0 ? cb->states[i].vals[map[k]] : 0;
            /* an int32_t global holds the C int's 32 bits: 0xffffffff is -1 */
            const ir_loc *l = map[k] >= 0 ? &c->locs[cb->obs[map[k]].loc] : NULL;
            if (l && l->ctype && !strcmp(l->ctype, "int32_t"))
                vals[k] = (ir_val)(int32_t)(uint32_t)vals[k];
        }
        if (bset_find(sb, vals) < 0)
            (*bad)[nbad++] = i;
    }
    /* Equal when no compiled state is new and as many states remain. */
    seen_all = nbad == 0 && cb->nstates == sb->nstates;
    *same = seen_all;
    free(map);
    free(vals);
    return nbad;
}
