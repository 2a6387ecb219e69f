#ifndef LITMUSC_MODEL_OUTCOME_H
#define LITMUSC_MODEL_OUTCOME_H
/* What both engines, candidate enumeration (model/enum/) and JLS04
 * (model/jls04/), do with a final state: which values make it (the
 * observables herd prints, then those only the filter needs), the filter,
 * the condition, the state into the behaviour set, and the execution to an
 * observer (races, pictures).  Internal to model/. */
#include <stdbool.h>
#include <stdint.h>
#include "model/bset_build.h"
#include "model/exec.h"
#include "model/model.h"

typedef struct outcome {
    const ir_test *t;
    ir_obs *obs;                /* nall observables: the nobs printed ones first */
    int nobs, nall;
    int *obs_th, *obs_reg;      /* per IR_OBS_REG observable: thread index and its
                                   final_regs index (-1: none, the value is 0) */
    ir_val *state;              /* nall values: the state the engine fills in */
    bset_acc acc;
    model_exec_fn fn;           /* NULL, or told of every execution recorded */
    void *ctx;
    uint64_t nexec;             /* executions told so far */
} outcome;

/* Start O for T into B (B's observables set); FN as model_run_observed. */
void outcome_init(outcome *o, const ir_test *t, bset *b, model_exec_fn fn, void *ctx);
/* Whether T's filter keeps o->state (herd filters before the model runs). */
static inline bool outcome_kept(const outcome *o)
{
    return !o->t->filter || ir_cond_holds(o->t, o->t->filter, o->obs, o->state, o->nall);
}
/* o->state, COUNT consistent executions of it, into the behaviour set;
 * returns whether the condition's proposition holds in it. */
static inline bool outcome_add(outcome *o, uint64_t count)
{
    bool c = ir_cond_holds(o->t, o->t->cond, o->obs, o->state, o->nall);
    bset_acc_add(&o->acc, o->state, c, count);
    return c;
}
/* Tell the observer, if any, of X, whose state is o->state.  False when it
 * stops the run (D as it left it). */
bool outcome_tell(outcome *o, const exec *x, bool cond, bool undef, diag *d);
/* Sort the behaviour set's states and release O. */
void outcome_finish(outcome *o);

#endif
