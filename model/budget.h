#ifndef LITMUSC_MODEL_BUDGET_H
#define LITMUSC_MODEL_BUDGET_H
/* What one model run may spend, and the meter that spends it.
 *
 * A test of a few hundred bytes can have more candidate executions than
 * any machine can search (every read of 62 threads may take either of two
 * writes; 100 stores under one monitor have 100! orders), so each run has a
 * budget: candidate executions, and seconds of CPU time.  The search
 * (enum/, jls04/) and the cat interpreter (a `with` that tries one more
 * order, the orders `linearisations` lists) count against one meter; once
 * either part is spent the run stops with status 3 and a message naming
 * the budget and the option that raises it.
 *
 * A leaf of model/: every room includes it, and it calls only the clock. */
#include <stdbool.h>
#include <stdint.h>
#include "util/diag.h"

typedef struct model_budget {
    uint64_t max_candidates;    /* candidate executions searched; 0: no limit */
    double timeout;             /* seconds of CPU time (the running thread's); 0: no limit */
} model_budget;

/* The defaults, stated in each command's --help and in the README.  The
 * largest search among the project's and the shared corpus's tests is
 * c11popl15's fig6 without pruning: 589,824 candidates in 1.6 s (8 s under
 * the sanitizers); with pruning no test passes 30,000 candidates or a
 * second.  A search without an end in sight stops within 10 s: sooner at
 * a few microseconds a candidate (1,000,000 candidates of an X86 test with
 * 4 threads storing and loading one location: 1.7 s), at the clock for
 * candidates of 60 threads (20 us each). */
#define MODEL_MAX_CANDIDATES_DEFAULT 1000000
#define MODEL_TIMEOUT_DEFAULT 10

typedef struct model_meter {
    model_budget budget;
    uint64_t candidates;        /* counted so far */
    double deadline;            /* on CLOCK_THREAD_CPUTIME_ID, in seconds; 0: none */
    unsigned ticks;             /* calls of model_meter_tick since the clock was read */
    const char *test;           /* the test's name, for the message */
    diag *d;
    bool spent;                 /* a part of the budget ran out (D says which) */
} model_meter;

/* Start metering one run of TEST under B; a failure goes to D. */
void model_meter_start(model_meter *m, const model_budget *b, const char *test, diag *d);
/* N more candidate executions; false once the budget's count is passed
 * (D set, status 3).  M may be NULL (nothing metered). */
bool model_meter_count(model_meter *m, uint64_t n);
/* A step of the search: the clock is read every 64th call; false once the
 * time is up (D set, status 3).  M may be NULL. */
bool model_meter_tick(model_meter *m);

#endif
