#ifndef LITMUSC_MODEL_EXEC_H
#define LITMUSC_MODEL_EXEC_H
/* One candidate execution, as the enumerator (model/enum/) hands it to the
 * cat interpreter (model/cat*.c).  Events and relations are bitsets: a
 * litmus-sized execution has at most EXEC_MAX events, so a relation is one
 * 64-bit row per event and composition/closure are word operations. */
#include <stdbool.h>
#include <stdint.h>
#include "ir/ir.h"

#define EXEC_MAX 64

typedef uint64_t exec_set;                      /* bit i = event i */
typedef struct exec_rel { exec_set row[EXEC_MAX]; } exec_rel;  /* row[i] bit j = (i,j) */

enum exec_kind {
    EV_R  = 1u << 0,    /* reads memory (an RMW in C/Java is one event with R|W) */
    EV_W  = 1u << 1,    /* writes memory */
    EV_F  = 1u << 2,    /* fence */
    EV_IW = 1u << 3,    /* initial write (also EV_W; thread = -1) */
};

typedef struct exec_event {
    unsigned kind;          /* EV_* bits */
    int thread;             /* -1 for initial writes */
    int poi;                /* position in its thread's program order */
    int loc;                /* location index; -1 for fences */
    ir_mode mode;           /* access mode; C fences: their order; IW: IR_MODE_NONE */
    ir_fence_kind fence;    /* EV_F */
    ir_rmw_op rmw_op;       /* for R|W events that came from an IR_RMW */
    bool is_rmw;            /* part of an RMW (C/Java: the single event; x86: both halves) */
    ir_val rval, wval;      /* value read / written */
    const ir_instr *instr;  /* where it came from (NULL for IW) */
} exec_event;

typedef struct exec {
    int n;                  /* events 0..n-1 */
    exec_event ev[EXEC_MAX];
    const ir_test *test;
    /* Base relations fixed by the enumerator. */
    exec_rel po;            /* program order (transitive), IW unrelated; as in herd,
                               never between two events of one instruction (the
                               halves of an x86 locked instruction, Java's CAS
                               read and its RMW) */
    exec_rel rf;            /* write -> read; events are laid out IW first (event
                               i is the initial write of location i), then each
                               thread's events in program order */
    exec_rel co;            /* coherence: per location, total, transitive, IW first;
                               empty when the model does not generate co */
    exec_rel rmw;           /* x86: read half -> write half of a locked instruction */
    exec_rel addr, data, ctrl; /* dependencies: read -> dependent event */
    exec_set fw;            /* the final write of each *observed* location (herd's
                               observed_finals_only: locations the condition,
                               `locations` or the filter name); with co it is the
                               co-last write there.  Unobserved locations have none. */
} exec;

/* Events 0..T->nlocs-1 of X (already zeroed): the initial write of each
 * location, laid out as above, whichever engine builds the execution. */
static inline void exec_initial_writes(exec *x, const ir_test *t)
{
    for (int l = 0; l < t->nlocs; l++) {
        exec_event *ev = &x->ev[l];
        ev->kind = EV_W | EV_IW;
        ev->thread = -1;
        ev->loc = l;
        ev->mode = IR_MODE_NONE;
        ev->wval = t->locs[l].init;
    }
}

#endif
