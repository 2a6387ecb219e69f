#ifndef LITMUSC_MODEL_RACES_H
#define LITMUSC_MODEL_RACES_H
/* Data races of a whole test: the racing pairs (hb.h) of every consistent
 * execution under a model, merged into distinct pairs of accesses, with the
 * pairs each final state implies (those that race in every execution that
 * gives it).  `litmusc races` prints the pairs; `litmusc run` uses the
 * states to say which races an observed outcome proves the machine did. */
#include <stdbool.h>
#include <stdint.h>
#include "model/model.h"
#include "util/mem.h"

/* One side of a racing pair: an access of one thread, as the source has it. */
typedef struct races_access {
    int thread;             /* index into t->threads */
    int poi;                /* position in the thread's program order (exec_event.poi) */
    const ir_instr *instr;  /* where it comes from (line, col, src); never NULL */
    bool read, write;       /* both for an RMW */
    ir_mode mode;
    int loc;                /* index into t->locs */
} races_access;

typedef struct races_pair {
    races_access a, b;      /* a in the lower-numbered thread */
    uint64_t first;         /* index (model_exec_info.index) of the first execution where they race */
    uint64_t executions;    /* consistent executions where they race */
    bool benign;            /* a Java race: the language defines plain races */
} races_pair;

typedef struct races {
    bset *b;                /* the behaviour set, as model_run gives it (owned) */
    races_pair *pairs;      /* distinct pairs, in program order of a, then of b */
    int npairs;
    int nharmful;           /* pairs that are not benign */
    uint64_t executions;    /* consistent executions seen */
    uint64_t racy;          /* those with at least one race */
    /* Per b->states[i]: indices into pairs[] of the pairs that race in every
     * consistent execution giving that state, ascending. */
    int **implied;
    int *nimplied;
} races;

/* Run T under M, collecting the races of every consistent execution.  X86
 * tests have none (every access is atomic): they are modelled only.  NULL +
 * diag as model_run. */
races *races_run(const model *m, const ir_test *t, diag *d);
void races_free(races *r);

/* The access an event of an execution is (exec.h's struct exec_event). */
struct exec_event;
races_access races_access_of(const struct exec_event *e);
/* Program order of thread, place, then source position: how pairs are listed. */
int races_access_cmp(const races_access *x, const races_access *y);

/* Appended to a Java race's line: its race has a meaning. */
#define RACES_BENIGN " (benign: Java defines plain races)"

/* "W", "R" or "RW" (an RMW). */
const char *races_access_kind(const races_access *a);
/* The access's thread ("P0", "Thread1") and location names in T. */
const char *races_thread_name(const ir_test *t, const races_access *a);
const char *races_loc_name(const ir_test *t, const races_access *a);
/* One side as `P0:2 (file:line:col) W na x`, FILE the test's path. */
void races_format_access(strbuf *out, const ir_test *t, const char *file, const races_access *a);
/* A pair as `SIDE <-> SIDE`. */
void races_format_pair(strbuf *out, const ir_test *t, const char *file, const races_pair *p);

#endif
