#ifndef LITMUSC_BACKENDS_JCSTRESS_JCSTRESS_H
#define LITMUSC_BACKENDS_JCSTRESS_JCSTRESS_H
/* jcstress test sources (openjdk/jcstress's annotations): one @JCStressTest class per litmus
 * test, which is its own @State.
 *
 *   - each location is a package-private int field (no initialiser when
 *     it starts at 0, so jcstress resets the state in place), reached
 *     through a static final VarHandle in the access's mode;
 *   - one @Actor per thread (backends/java/javagen.h gives the bodies),
 *     and an @Arbiter that copies final memory when the condition or
 *     `locations` observe it;
 *   - the result is jcstress's I..I_Result for 1 to 8 observables, else
 *     a generated nested @Result class;
 *   - the outcome id is jcstress's "v1, v2, ..." over ir_observables()
 *     (README "Outcome ids"); every state of the behaviour set gets an
 *     @Outcome: ACCEPTABLE_INTERESTING where the condition's witness
 *     holds (P for exists and ~exists, not P for forall), ACCEPTABLE
 *     otherwise; anything else falls to the default FORBIDDEN case, or
 *     to ACCEPTABLE when the model flags the test undefined (a race). */
#include "ir/ir.h"
#include "model/model.h"
#include "util/diag.h"

typedef struct jcstress_opts {
    const char *package;    /* e.g. "litmusc.generated" */
    const char *class_name; /* a valid identifier (javagen_class_name) */
    const char *model;      /* model name for the descriptions */
} jcstress_opts;

/* The Java source for T with behaviour set B (computed for T).  malloc'd;
 * NULL + diag (status 2) when T has no Java form. */
char *jcstress_generate(const ir_test *t, const bset *b, const jcstress_opts *o, diag *d);

/* Whether the state's ACCEPTABLE_INTERESTING: the witness of T's
 * condition (P for exists/~exists, not P for forall). */
bool jcstress_interesting(const ir_test *t, bool cond);

#endif
