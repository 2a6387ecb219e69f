#ifndef LITMUSC_MODEL_ENUM_H
#define LITMUSC_MODEL_ENUM_H
/* Candidate executions, internal to model/.
 *
 * Stage 1 (enum_paths.c): each thread's loop-free SSA is run symbolically
 * into paths.  A path is the list of its memory and fence events, whose
 * values are expressions over the thread's read slots (values.h), the
 * branch and CAS outcomes it assumes, and the final value of every source
 * register.
 *
 * Stage 2 (enum.c, the search; enum_cand.c, one candidate's values and
 * verdict): for each combination of one path per thread, reads are given a
 * same-location write (rf), values are propagated by substitution (the
 * solver takes what substitution cannot settle), coherence orders and
 * final writes are chosen, and each candidate goes to the cat model. */
#include <stdbool.h>
#include <stdint.h>
#include "ir/ir.h"
#include "model/exec.h"
#include "model/values.h"
#include "util/diag.h"

typedef struct tev {
    unsigned kind;              /* EV_R, EV_W, EV_F; EV_R|EV_W for a C/Java RMW */
    int loc;                    /* -1 for fences */
    ir_mode mode;
    ir_fence_kind fence;
    ir_rmw_op rmw_op;
    bool is_rmw;
    int rslot;                  /* EV_R: read slot of the value read */
    int wval;                   /* EV_W: expression of the value written */
    int partner;                /* x86 locked RMW: index of the other half, else -1 */
    uint64_t addr_deps, data_deps, ctrl_deps;  /* read slots */
    const ir_instr *instr;
} tev;

typedef struct tcond {
    int e;                      /* expression */
    bool nonzero;               /* the path assumes e != 0 (else e == 0) */
} tcond;

typedef struct tpath {
    tev *ev;
    int nev;
    int nslots;                 /* reads on this path */
    int *slot_ev;               /* read slot -> index in ev */
    tcond *cond;
    int ncond;
    int *final;                 /* per thread final_regs[i]: its expression */
} tpath;

typedef struct tpaths {
    vpool pool;                 /* expressions of every path of the thread */
    tpath *p;
    int np;
} tpaths;

/* Paths of TH, at most ENUM_MAX_PATHS. */
#define ENUM_MAX_PATHS 4096
bool enum_thread_paths(const ir_test *t, const ir_thread *th, tpaths *out, diag *d);
void tpaths_free(tpaths *tp);

/* Events 0..T->nlocs-1 of X (already zeroed): the initial write of each
 * location, laid out as exec.h says, whichever model builds the execution. */
void enum_initial_writes(exec *x, const ir_test *t);

#include "model/cat.h"
#include "model/model.h"

/* Enumerate the candidates of T under CM into B (B->obs etc. filled).
 * PRUNE: the model is known to reject every candidate that breaks
 * per-location coherence or RMW atomicity, so those are never built.
 * OBS, when not NULL, is told of every consistent candidate.  FLAGS: bit i
 * = cat_model_flag_name(cm, i) raised by a consistent candidate. */
typedef struct enum_observer {
    model_exec_fn fn;       /* called on every consistent candidate */
    void *ctx;
} enum_observer;
bool enum_run(const ir_test *t, const cat_model *cm, bool prune, const enum_observer *obs, bset *b,
              uint64_t *flags, diag *d);

#endif
