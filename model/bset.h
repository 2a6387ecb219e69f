#ifndef LITMUSC_MODEL_BSET_H
#define LITMUSC_MODEL_BSET_H
/* Behaviour sets: the final states a memory model allows for a test
 * (model_run fills one), and herd7's words and block for them. */
#include <stdbool.h>
#include <stdint.h>
#include "ir/ir.h"
#include "util/mem.h"

/* One allowed final state. */
typedef struct bset_state {
    ir_val *vals;           /* one per bset.obs[] */
    bool cond;              /* the condition's proposition P holds in this state */
} bset_state;

typedef struct bset {
    ir_obs *obs;            /* observables in herd's printed order */
    int nobs;
    bset_state *states;     /* distinct states, in herd's printed order (after filter) */
    int nstates;
    uint64_t pos, neg;      /* consistent executions where P holds / fails (herd's T, F) */
    bool undef;             /* some consistent execution was flagged undefined */
    char **flags;           /* names of flags raised (e.g. "*undef*", "race"), herd order */
    int nflags;
    bool symbolic;          /* some values were settled by the solver rather than by substitution */
    bool cutoff;            /* a consistent execution ran a loop past its unrolling bound and
                               was dropped; herd's verdict says "Loop".  For a spin loop no
                               outcome is lost (see IR_CUT) */
    /* With model_set_cut_loops: the first loop that is no spin loop and that a
     * consistent execution ran past its bound (line 0: none).  Outcomes may be
     * missing, as herd7 warns. */
    int lossy_line, lossy_col, lossy_bound;
    char *race;             /* "line L: `src` and line M: `src`" for a data race, or NULL */
    uint64_t candidates;    /* candidate executions examined (for benchmarks) */
    int events;             /* events of the largest candidate, IW included (for benchmarks) */
    char *notes;            /* comment lines ("(* ... *)\n") a model adds for `model --notes`
                               (jls04: a justification of each witness state), or NULL */
} bset;

void bset_free(bset *b);

/* Index of the state with these values (one per b->obs), or -1. */
int bset_find(const bset *b, const ir_val *vals);
/* herd's verdict line: "Ok", "No" or "Undef". */
const char *bset_verdict(const ir_test *t, const bset *b);
/* herd's observation word: "Never", "Sometimes" or "Always". */
const char *bset_observation(const ir_test *t, const bset *b);
/* herd7's whole output block for T (ends with an empty line); TIME in seconds. */
void bset_format_herd(strbuf *out, const ir_test *t, const bset *b, double time);

#endif
