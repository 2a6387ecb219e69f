/* The final states of both engines (outcome.h): one setup of the
 * observables, one way to tell an observer. */
#include <stdlib.h>
#include "model/outcome.h"
#include "util/mem.h"

void outcome_init(outcome *o, const ir_test *t, bset *b, model_exec_fn fn, void *ctx)
{
    *o = (outcome){.t = t, .fn = fn, .ctx = ctx};
    /* Observables: the printed ones, then those only the filter uses. */
    int nobs = 0, nf = 0;
    ir_obs *obs = ir_observables(t, &nobs);
    ir_obs *fobs = t->filter ? ir_filter_observables(t, &nf) : NULL;
    o->nobs = nobs;
    o->nall = nobs + nf;
    size_t n = (size_t)(o->nall ? o->nall : 1);
    o->obs = xcalloc(n, sizeof *o->obs);
    for (int i = 0; i < nobs; i++)
        o->obs[i] = obs[i];
    for (int i = 0; i < nf; i++)
        o->obs[nobs + i] = fobs[i];
    bset_acc_init(&o->acc, b, obs, nobs);
    free(obs);
    free(fobs);
    o->obs_th = xcalloc(n, sizeof *o->obs_th);
    o->obs_reg = xcalloc(n, sizeof *o->obs_reg);
    for (int i = 0; i < o->nall; i++) {
        o->obs_th[i] = o->obs_reg[i] = -1;
        if (o->obs[i].kind == IR_OBS_REG) {
            int th = ir_find_thread(t, o->obs[i].thread);
            o->obs_th[i] = th;
            if (th >= 0)
                o->obs_reg[i] = ir_thread_find_reg(&t->threads[th], o->obs[i].reg);
        }
    }
    o->state = xcalloc(n, sizeof *o->state);
}

bool outcome_tell(outcome *o, const exec *x, bool cond, bool undef, diag *d)
{
    if (!o->fn)
        return true;
    model_exec_info info = {++o->nexec, o->state, cond, undef};
    return o->fn(o->ctx, x, &info, d);
}

void outcome_finish(outcome *o)
{
    bset_acc_finish(&o->acc);
    free(o->obs);
    free(o->obs_th);
    free(o->obs_reg);
    free(o->state);
}
