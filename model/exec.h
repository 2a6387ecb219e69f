#ifndef LITMUSC_MODEL_EXEC_H
#define LITMUSC_MODEL_EXEC_H
/* One candidate execution, as the enumerator (model/enum/) hands it to the
 * cat interpreter (model/cat*.c).  Events and relations are bitsets: an
 * execution has at most EXEC_MAX events, a set is EXEC_WORDS 64-bit words
 * and a relation one set per event.  128 events take twice the 64 that
 * litmus tests need, for the longer threads of tests lifted from compiled
 * code; each doubling costs the small tests too (every row and set value
 * is wider: 64 -> 128 events was 12% more instructions on c11popl15/fig6
 * under rc11, 256 would be 23%), so the limit stays where it is needed.
 * The loops over a relation's rows look only at the words its N events
 * use (exec_words), with one-word fast paths for N <= 64 (cat_rel.h).
 * Past EXEC_MAX the enumerator refuses the test with exit 3, naming the
 * limit. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "ir/ir.h"

#define EXEC_MAX 128
#define EXEC_WORDS (EXEC_MAX / 64)

typedef struct exec_set { uint64_t w[EXEC_WORDS]; } exec_set;   /* bit i = event i */
typedef struct exec_rel { exec_set row[EXEC_MAX]; } exec_rel;  /* row[i] bit j = (i,j) */

/* Words that hold events 0..n-1. */
static inline int exec_words(int n) { return (n + 63) >> 6; }

/* ---- sets: values, operations a word at a time ---------------------------------- */
static inline exec_set es_none(void) { exec_set s = {{0}}; return s; }
static inline exec_set es_one(int i)
{
    exec_set s = {{0}};
    s.w[i >> 6] = (uint64_t)1 << (i & 63);
    return s;
}
/* {0..n-1} */
static inline exec_set es_all(int n)
{
    exec_set s;
    for (int k = 0; k < EXEC_WORDS; k++) {
        int b = n - 64 * k;
        s.w[k] = b >= 64 ? ~(uint64_t)0 : b <= 0 ? 0 : ((uint64_t)1 << b) - 1;
    }
    return s;
}
static inline bool es_has(exec_set s, int i) { return (s.w[i >> 6] >> (i & 63)) & 1; }
static inline void es_add(exec_set *s, int i) { s->w[i >> 6] |= (uint64_t)1 << (i & 63); }
static inline void es_del(exec_set *s, int i) { s->w[i >> 6] &= ~((uint64_t)1 << (i & 63)); }
static inline exec_set es_or(exec_set a, exec_set b)
{
    for (int k = 0; k < EXEC_WORDS; k++) a.w[k] |= b.w[k];
    return a;
}
static inline exec_set es_and(exec_set a, exec_set b)
{
    for (int k = 0; k < EXEC_WORDS; k++) a.w[k] &= b.w[k];
    return a;
}
/* a \ b */
static inline exec_set es_minus(exec_set a, exec_set b)
{
    for (int k = 0; k < EXEC_WORDS; k++) a.w[k] &= ~b.w[k];
    return a;
}
static inline bool es_empty(exec_set s)
{
    uint64_t acc = 0;
    for (int k = 0; k < EXEC_WORDS; k++) acc |= s.w[k];
    return acc == 0;
}
/* a and b share an element */
static inline bool es_meets(exec_set a, exec_set b) { return !es_empty(es_and(a, b)); }
static inline bool es_eq(exec_set a, exec_set b)
{
    uint64_t acc = 0;
    for (int k = 0; k < EXEC_WORDS; k++) acc |= a.w[k] ^ b.w[k];
    return acc == 0;
}
/* As numbers (bit i worth 2^i): the order of the one-word sets before. */
static inline int es_cmp(exec_set a, exec_set b)
{
    for (int k = EXEC_WORDS - 1; k >= 0; k--)
        if (a.w[k] != b.w[k]) return a.w[k] < b.w[k] ? -1 : 1;
    return 0;
}
static inline int es_count(exec_set s)
{
    int c = 0;
    for (int k = 0; k < EXEC_WORDS; k++) c += __builtin_popcountll(s.w[k]);
    return c;
}
/* The least element, or -1. */
static inline int es_first(exec_set s)
{
    for (int k = 0; k < EXEC_WORDS; k++)
        if (s.w[k]) return 64 * k + __builtin_ctzll(s.w[k]);
    return -1;
}
/* Take the least element out of *S and return it, or -1 when *S is empty:
 * `for (int i; (i = es_pop(&left)) >= 0;)` visits a set in order. */
static inline int es_pop(exec_set *s)
{
    for (int k = 0; k < EXEC_WORDS; k++)
        if (s->w[k]) {
            int i = __builtin_ctzll(s->w[k]);
            s->w[k] &= s->w[k] - 1;
            return 64 * k + i;
        }
    return -1;
}

/* ---- relations ------------------------------------------------------------------ */
static inline bool er_has(const exec_rel *r, int i, int j) { return es_has(r->row[i], j); }
static inline void er_add(exec_rel *r, int i, int j) { es_add(&r->row[i], j); }
/* Empty rows 0..n-1: the rest of a relation is never set. */
static inline void er_clear(exec_rel *r, int n) { memset(r->row, 0, (size_t)n * sizeof r->row[0]); }

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
    exec_rel pick;          /* AArch64: read -> the write of a CAS whose expected value it
                               feeds: the compare decides the write, which herd's
                               aarch64.cat counts as a pick dependency, not a data one */
    exec_rel pick_addr, pick_data;  /* AArch64: read -> access whose address (data) a
                               value only picked by the read feeds (a CAS's Rs, decided
                               by its compare: herd's iico_ctrl on the way) */
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
