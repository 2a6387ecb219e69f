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
#include <stddef.h>
#include <stdint.h>

/* Most test threads a harness may have (litmus tests have a handful). */
#define LRT_MAX_THREADS 32
/* Every cell is at most this many bytes; the layouts align it so. */
#define LRT_CELL_SIZE 8

/* One test thread on one instance.  CELLS[l] points at location l of the
 * instance; OUT receives the thread's observed registers (nout slots). */
typedef void (*lrt_thread_fn)(void *const *cells, int64_t *out);

/* The same over instances [LO, HI) in order, one call for many: CELLS is the
 * whole cell table (instance i's cells start at cells + i * nlocs) and OUT
 * the thread's whole output array (instance i's at out + i * nout).  With
 * the per-instance body inlined into the loop, a sweep costs what the
 * accesses cost and no call per instance. */
typedef void (*lrt_sweep_fn)(void *const *cells, int64_t *out, size_t lo, size_t hi);

/* The same with gaps: before its k-th memory access (in program order,
 * the last one for k >= LRT_GAPS) the thread spins GAP[k] times.  A gap
 * stretches the time between two accesses of one thread, so that another
 * thread's access can fall between them on every instance: SB's state
 * 1:r0=1; 0:r0=1 needs both stores visible before either load, which the
 * tight code seldom gives.  The spins touch no memory and fence nothing,
 * so every outcome is still one the test's code can produce. */
#define LRT_GAPS 8
typedef void (*lrt_gap_sweep_fn)(void *const *cells, int64_t *out, size_t lo, size_t hi,
                                 const uint32_t *gap);

/* N spin-loop hints (pause on x86), nothing else. */
static inline void lrt_spin(uint32_t n)
{
    for (; n; n--) {
#if defined(__x86_64__) || defined(__i386__)
        __asm__ __volatile__("pause" ::: "memory");
#else
        __asm__ __volatile__("" ::: "memory");
#endif
    }
}

/* One wait in a lock's spin (the generated code's lock loops): a pause,
 * and every 1024th wait the CPU given away, so that a run with more test
 * threads than CPUs lets the holder go on. */
void lrt_lock_yield(void);
static inline void lrt_lock_wait(uint32_t *waits)
{
    if ((++*waits & 1023) == 0)
        lrt_lock_yield();
    else
        lrt_spin(1);
}

/* A gap of LRT_SWITCH is not a spin but a switch: the thread stops there,
 * its stores drain, the next test thread of its lane runs the same
 * instance (whole, or up to its own switch and on after it), and then it
 * goes on, as when a machine preempts one
 * thread for another on one CPU (a full fence on either side).  The
 * runtime arms it for one thread of one instance at a time; elsewhere the
 * call returns at once.  So a switch too makes up no outcome: what runs
 * is the test's own code, in an order a machine may run it. */
#define LRT_SWITCH UINT32_MAX
void lrt_switch(void);

/* The gap before an access of a gapped body: spin, or switch. */
static inline void lrt_gap(uint32_t n)
{
    if (n == LRT_SWITCH)
        lrt_switch();
    else
        lrt_spin(n);
}

/* The gap of a thread that takes locks: a spin, never a switch.  A thread
 * switched out while it holds a mutex would leave the thread switched in,
 * on the same worker, waiting for it for ever; a schedule that asks for a
 * switch there runs the thread whole instead. */
static inline void lrt_gap_locking(uint32_t n)
{
    if (n != LRT_SWITCH)
        lrt_spin(n);
}

/* Where a harness counts outcomes (the runtime's; opaque here). */
typedef struct lrt_tally lrt_tally;
/* COUNT more instances ended with the nobs values VALS. */
void lrt_tally_add(lrt_tally *t, const int64_t *vals, uint64_t count);

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
    /* Optional (NULL: the runtime loops over the per-instance functions).
     * SWEEPS[t] is thread t as an lrt_sweep_fn; RESET_RANGE resets
     * instances [lo, hi); COUNT_RANGE adds the outcomes of [lo, hi) to T
     * with lrt_tally_add, equal outcomes in a row as one count, and with
     * RESET_TOO resets each instance once it is counted.  Both take the
     * whole tables, as sweeps do. */
    const lrt_sweep_fn *sweeps;
    void (*reset_range)(void *const *cells, size_t lo, size_t hi);
    void (*count_range)(void *const *cells, int64_t *const *outs, size_t lo, size_t hi,
                        int reset_too, struct lrt_tally *t);
    /* Bytes of the widest cell (1, 2, 4 or 8; 0 means LRT_CELL_SIZE).  The
     * array and packed layouts give each cell this many bytes, so that a
     * cache line carries as many instances as it can: a test of 32-bit
     * cells moves half the lines of one of 64-bit cells. */
    int cell_size;
    /* Optional (NULL: no gapped runs): thread t as an lrt_gap_sweep_fn. */
    const lrt_gap_sweep_fn *gap_sweeps;
    /* Optional (NULL: unknown): bit l of LOADS[t] (STORES[t]) set when
     * thread t may load (store) location l, every bit when it may touch
     * any.  A lane runs two threads one after the other without a fence
     * between only when the later loads nothing the earlier stored. */
    const uint64_t *loads, *stores;
    /* Optional (NULL: the sweeps and count above serve): the same for the
     * array layout, which compute instance i's cell of location l as
     * cells[l] + i * cell_size bytes (location l's first cell) instead of
     * reading it from the table: the table is as large as the outputs,
     * and every sweep and count read it.  The runtime calls these only
     * where the cells are in that layout, cell_size bytes apart. */
    const lrt_sweep_fn *array_sweeps;
    void (*array_count_range)(void *const *cells, int64_t *const *outs, size_t lo, size_t hi,
                              int reset_too, struct lrt_tally *t);
} lrt_test;

/* Parse the command line, run, print the histogram; returns the exit
 * status (0, 2 for a bad command line, 3 when the machine refuses). */
int lrt_main(const lrt_test *t, int argc, char **argv);

#endif
