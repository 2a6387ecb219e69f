#ifndef LITMUSC_MODEL_ENUM_IMPL_H
#define LITMUSC_MODEL_ENUM_IMPL_H
/* The state of one enum_run and the calls between its two files: the
 * search over paths, rf and co (enum.c), and the values, final state and
 * verdict of one candidate (enum_cand.c).  Internal to those two files. */
#include <stdbool.h>
#include <stdint.h>
#include "model/bset_build.h"
#include "model/enum/enum.h"
#include "model/paths/paths.h"
#include "model/enum/solver.h"
#include "model/outcome.h"

typedef struct enumr {
    const ir_test *t;
    cat_run *run;
    bool gen_co, prune;
    bool cut_loops;         /* drop a candidate past any loop's bound (enum.h) */
    diag *d;
    bool failed;
    int nth;
    tpaths *tp;
    const tpath **cur;
    exec x;
    int evth[EXEC_MAX];         /* exec event -> thread index, -1 for IW */
    int evix[EXEC_MAX];         /* exec event -> index in its path */
    int reads[EXEC_MAX];
    int nreads;
    exec_set candw[EXEC_MAX];   /* per read event: writes it may read from */
    int src[EXEC_MAX];          /* per read event: its write */
    exec_set chosen;            /* read events whose src is set */
    ir_val **vals;              /* per thread: read-slot values */
    uint64_t *known;            /* per thread: settled slots */
    uint64_t *used;             /* per thread: slots on the current path */
    exec_set locw[EXEC_MAX];    /* per location: its writes (IW included) */
    int nlocs;
    outcome out;                /* observables, the state, the behaviour set, the observer */
    bool *loc_obs;              /* location observed: its final write is chosen */
    int fw[EXEC_MAX];           /* per observed location: final write */
    bool symbolic;              /* the current rf candidate needs the solver */
    sv_ctx *sv;
    cat_verdict verdict;        /* of the current candidate (symbolic case) */
    bset *b;
    uint64_t flags;             /* named flags raised by consistent candidates */
    model_meter *meter;         /* the run's budget: candidates (rf, co) and time */
} enumr;

/* Mark the run failed (the diag says why); returns false.  Both files stop
 * the search this way, so it lives here rather than in either. */
static inline bool enum_fail(enumr *e)
{
    e->failed = true;
    return false;
}

/* enum_cand.c */
/* Settle every read (of the first UPTO) whose write's value is known;
 * repeat to a fixpoint. */
void enum_propagate(enumr *e, int upto);
/* Path assumptions that can be decided now all hold. */
bool enum_conds_ok(enumr *e);
/* Every read slot of the current paths is settled. */
bool enum_all_known(enumr *e);
/* Fill the values of every event of the candidate (for the model). */
void enum_fill_values(enumr *e);
/* One complete candidate: rf, co (or final writes) are set.  False stops
 * the search (an error). */
bool enum_candidate(enumr *e);

#endif
