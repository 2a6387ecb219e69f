#ifndef LITMUSC_MODEL_SOLVER_H
#define LITMUSC_MODEL_SOLVER_H
/* Values that substitution cannot settle (a read whose value depends, via
 * a cycle of reads-from, on itself) go to z3: the candidate survives iff
 * its equations and path assumptions are satisfiable, and each distinct
 * way the final condition can tell solutions apart is one outcome. */
#include <stdbool.h>
#include <stdint.h>
#include "model/paths/values.h"
#include "util/diag.h"

/* A value: expression E of thread TH's pool, or the constant C when TH < 0. */
typedef struct sv_term { int th; int e; ir_val c; } sv_term;

typedef struct sv_problem {
    int nthreads;
    const vpool *pools;         /* per thread */
    ir_val **vals;              /* per thread read-slot values; unknown ones are filled in */
    const uint64_t *known;      /* per thread: slots already settled */
    const uint64_t *used;       /* per thread: slots that exist */
    /* read slot (th, slot) equals term */
    const int *eq_th, *eq_slot;
    const sv_term *eq_val;
    int neq;
    const sv_term *cond;        /* must be non-zero (nonzero[i]) or zero */
    const bool *nonzero;
    int ncond;
    const sv_term *obs;         /* observables the condition may test */
    int nobs;
    /* What the condition can tell apart: obs[atom_obs[i]] == atom_val[i],
     * and obs[pair_a[i]] == obs[pair_b[i]]. */
    const int *atom_obs;
    const ir_val *atom_val;
    int natoms;
    const int *pair_a, *pair_b;
    int npairs;
} sv_problem;

typedef struct sv_ctx sv_ctx;
sv_ctx *sv_new(void);
void sv_free(sv_ctx *s);

/* Call CB once per distinguishable solution (at most LIMIT), with P->vals
 * completed.  Returns the number of solutions, or -1 + diag on a solver
 * failure. */
typedef bool (*sv_callback)(void *ctx);
int sv_solve_all(sv_ctx *s, const sv_problem *p, int limit, sv_callback cb, void *ctx, diag *d);

#endif
