#ifndef LITMUSC_MODEL_JLS04_H
#define LITMUSC_MODEL_JLS04_H
/* JLS04: the Java memory model of the Java Language Specification, third
 * edition (2004), chapter 17.4 (Manson, Pugh, Adve, POPL 2005), as jMT
 * (Panneke and Wehrheim, arXiv:2604.15978, section 4) makes it executable.
 * A multi-execution model: an execution is allowed only if a justification
 * sequence of committed events exists for it, so no cat file can say it.
 * Internal to model/: model.c runs it when --model jls04 is asked for.
 *
 * What it accepts: Java tests whose accesses are plain (get/set) or
 * volatile (getVolatile/setVolatile), every access of a location in one
 * of the two (a JLS04 field is volatile or it is not).  Opaque, acquire
 * and release modes, fences and read-modify-writes came with the
 * VarHandle API of Java 9 and have no JLS04 meaning: bad input (status 2).
 * Locks, thread start and join, final fields and external actions are not
 * in herd's Java syntax, so JLS condition 9 never applies. */
#include <stdbool.h>
#include "model/model.h"

/* Limits (README, "JLS04"); past one the run stops with status 3 and
 * says which, rather than give a verdict from a partial search. */
#define JLS04_MAX_EVENTS 64         /* distinct events over all executions, initial writes included */
#define JLS04_MAX_EXECS 50000       /* well-formed executions of the test */
#define JLS04_MAX_STEPS 4000000ULL  /* (state, frame) pairs the search looks at, over all targets */
#define JLS04_MAX_SYNC_PAIRS 64     /* volatile write/read pairs of one location */

/* Fill B (observables, states, counts, notes) with the final states of
 * the executions JLS04 allows; FN, when not NULL, is told of each one
 * (model_run_observed).  Each well-formed execution is a candidate of
 * METER's budget, and the justification search looks at its clock.
 * False + diag: bad input (status 2), a limit or the budget (status 3),
 * or FN stopped the run. */
bool jls04_run(const ir_test *t, model_exec_fn fn, void *ctx, model_meter *meter, bset *b, diag *d);

#endif
