#ifndef LITMUSC_MODEL_ENUM_ENUM_H
#define LITMUSC_MODEL_ENUM_ENUM_H
/* Candidate executions, internal to model/ (model.c runs them for every
 * cat model).  From the thread paths (model/paths/paths.h): for each
 * combination of one path per thread (enum.c, the search; enum_cand.c,
 * one candidate's values and verdict), reads are given a same-location
 * write (rf), values are propagated by substitution (the solver takes what
 * substitution cannot settle), coherence orders and final writes are
 * chosen, and each candidate goes to the cat model. */
#include <stdbool.h>
#include <stdint.h>
#include "ir/ir.h"
#include "model/budget.h"
#include "model/cat/cat.h"
#include "model/model.h"
#include "util/diag.h"

/* Enumerate the candidates of T under CM into B (B->obs etc. filled).
 * PRUNE: the model is known to reject every candidate that breaks
 * per-location coherence or RMW atomicity, so those are never built.
 * CUT_LOOPS: a candidate past any loop's bound is dropped (model.h's
 * model_set_cut_loops); else only one past a spin loop's.
 * OBS, when not NULL, is told of every consistent candidate.  FLAGS: bit i
 * = cat_model_flag_name(cm, i) raised by a consistent candidate. */
typedef struct enum_observer {
    model_exec_fn fn;       /* called on every consistent candidate */
    void *ctx;
} enum_observer;
/* METER: the run's budget (model/budget.h), counted per candidate and by
 * the model's own `with`s. */
bool enum_run(const ir_test *t, const cat_model *cm, bool prune, bool cut_loops, const enum_observer *obs,
              model_meter *meter, bset *b, uint64_t *flags, diag *d);

#endif
