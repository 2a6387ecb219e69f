#ifndef LITMUSC_MODEL_PATHS_PATHS_H
#define LITMUSC_MODEL_PATHS_PATHS_H
/* Thread paths, internal to model/: each thread's loop-free SSA is run
 * symbolically into paths (paths.c).  A path is the list of its memory and
 * fence events, whose values are expressions over the thread's read slots
 * (values.h), the branch and CAS outcomes it assumes, and the final value
 * of every source register.  Both engines start from them: candidate
 * enumeration (model/enum/) and JLS04 (model/jls04/). */
#include <stdbool.h>
#include <stdint.h>
#include "ir/ir.h"
#include "model/exec.h"
#include "model/paths/values.h"
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
    int partner;                /* x86 or AArch64 RMW: index of the other half, else -1 */
    int lxsx;                   /* AArch64 store-exclusive that wrote: index of the load-
                                 * exclusive it pairs with (herd's rmw), else -1 */
    uint64_t addr_deps, data_deps, ctrl_deps;  /* read slots */
    uint64_t pick_deps;         /* AArch64 CAS write: the read slots its compare's expected
                                   value comes from (herd's iico_ctrl into the write) */
    uint64_t pick_addr_deps, pick_data_deps;    /* read slots that only picked the address
                                   or the data (vexpr.pdeps) */
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
    const ir_instr *cut;        /* the path stops at this IR_CUT (a loop past its bound): no
                                   execution, though the prefix may be consistent; else NULL */
} tpath;

typedef struct tpaths {
    vpool pool;                 /* expressions of every path of the thread */
    tpath *p;
    int np;
} tpaths;

/* Paths of TH, at most PATHS_MAX.  LOCK_EVENTS: locks and unlocks are events
 * of their own, neither reads nor writes, as herd's C actions have them, for
 * a model that orders them itself (cat_model_handles_locks); otherwise a lock
 * is an acquire RMW of the mutex and an unlock a release write (lock.c). */
#define PATHS_MAX 4096
bool paths_thread(const ir_test *t, const ir_thread *th, bool lock_events, tpaths *out, diag *d);
void tpaths_free(tpaths *tp);

#endif
