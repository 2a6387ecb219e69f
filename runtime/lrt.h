#ifndef LITMUSC_RUNTIME_LRT_H
#define LITMUSC_RUNTIME_LRT_H
/* The litmusc native runtime: what a generated harness program links.
 *
 * A generated program describes its test with an lrt_test and calls
 * lrt_main() from main().  The runtime owns the worker threads, their
 * placement and synchronisation, the memory layout of the cells, outcome
 * counting, timing, signals and the output (the raw histogram protocol
 * documented in backends/native.h).
 *
 * This file is compiled with every generated program, by gcc or clang at
 * -std=c11 -Wall -Wextra -Werror; it must not depend on anything else of
 * litmusc. */
#include <stdint.h>

/* Most test threads a harness may have (litmus tests have a handful). */
#define LRT_MAX_THREADS 32
/* Every cell is at most this many bytes; the layouts align it so. */
#define LRT_CELL_SIZE 8

/* One test thread on one instance.  CELLS[l] points at location l of the
 * instance; OUT receives the thread's observed registers (nout slots). */
typedef void (*lrt_thread_fn)(void *const *cells, int64_t *out);

typedef struct lrt_test {
    const char *name;
    int nthreads;
    int nlocs;
    int nobs;                       /* values per outcome */
    const int *nout;                /* [nthreads]: output slots per thread */
    const lrt_thread_fn *threads;   /* [nthreads] */
    /* Store every location's initial value into an instance's cells. */
    void (*reset)(void *const *cells);
    /* The outcome of a finished instance: OUTS[t] is thread t's output
     * slots; writes nobs values to VALS (the observables, in order). */
    void (*collect)(void *const *cells, int64_t *const *outs, int64_t *vals);
} lrt_test;

/* Parse the command line, run, print the histogram; returns the exit
 * status (0, 2 for a bad command line, 3 when the machine refuses). */
int lrt_main(const lrt_test *t, int argc, char **argv);

#endif
