#ifndef LITMUSC_RUNTIME_LRT_INTERNAL_H
#define LITMUSC_RUNTIME_LRT_INTERNAL_H
/* Pieces of the runtime shared between its files: random numbers, the
 * outcome table, cell layouts, waiting primitives and the run driver's
 * interface (its own state is lrt_drive.h's). */
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lrt.h"

/* ---- random numbers (lrt_rand.c): splitmix64, small and good enough to
 * draw placements, delays and shuffles; the seed is printed so a run can
 * be repeated. */
typedef struct lrt_rng { uint64_t s; } lrt_rng;
void lrt_rng_seed(lrt_rng *r, uint64_t seed);
uint64_t lrt_rng_next(lrt_rng *r);
uint64_t lrt_rng_below(lrt_rng *r, uint64_t n);     /* uniform in [0, n); n > 0 */
void lrt_rng_shuffle(lrt_rng *r, int *a, int n);     /* Fisher-Yates */

/* ---- outcome table (lrt_hist.c): open addressing with linear probing,
 * keys of WIDTH int64 values, 64-bit counters; count 0 marks an empty slot. */
typedef struct lrt_hist {
    int width;
    size_t cap, n;          /* slots (a power of two), slots in use */
    int64_t *keys;          /* cap * width */
    uint64_t *counts;       /* cap */
} lrt_hist;
bool lrt_hist_init(lrt_hist *h, int width);
void lrt_hist_free(lrt_hist *h);
/* Add COUNT (> 0) to KEY's counter; false only when memory runs out. */
bool lrt_hist_add(lrt_hist *h, const int64_t *key, uint64_t count);
uint64_t lrt_hist_get(const lrt_hist *h, const int64_t *key);
uint64_t lrt_hist_total(const lrt_hist *h);
bool lrt_hist_merge(lrt_hist *into, const lrt_hist *from);
/* Slot indices of the used entries, keys in ascending (signed,
 * lexicographic) order; malloc'd, h->n entries; NULL when out of memory
 * (or when the table is empty). */
size_t *lrt_hist_sorted(const lrt_hist *h);

/* A worker's outcome counting (lrt_tally_add in lrt_hist.c). */
struct lrt_tally {
    lrt_hist *hist;
    bool failed;            /* the table ran out of memory */
};

/* ---- cell layouts (lrt_layout.c) */
typedef enum lrt_layout_kind {
    LRT_LAYOUT_PACKED,      /* an instance's cells adjacent, cell_size bytes apart */
    LRT_LAYOUT_LINE,        /* one cell per cache line, in instance order */
    LRT_LAYOUT_SHUFFLE,     /* one cell per line, slots permuted every run */
    LRT_LAYOUT_ARRAY        /* one array per location, cells cell_size bytes apart */
} lrt_layout_kind;
#define LRT_LINE 64
typedef struct lrt_layout {
    lrt_layout_kind kind;
    size_t ninst;
    int nlocs;
    size_t stride;          /* bytes between slots */
    unsigned char *arena;   /* ninst * nlocs slots */
    void **cell;            /* [ninst * nlocs]: where (instance, location) lives */
    size_t *slot;           /* LRT_LAYOUT_SHUFFLE: the permutation */
} lrt_layout;
/* CELL_SIZE: bytes per slot in the array and packed layouts (a power of
 * two, at most LRT_CELL_SIZE; 0 means LRT_CELL_SIZE). */
bool lrt_layout_init(lrt_layout *l, lrt_layout_kind kind, size_t ninst, int nlocs, int cell_size);
void lrt_layout_free(lrt_layout *l);
/* A fresh placement (LRT_LAYOUT_SHUFFLE only; others are fixed). */
void lrt_layout_shuffle(lrt_layout *l, lrt_rng *r);
/* Place the cells as KIND, where the array and packed layouts trade
 * places (same slots, other order); true when the placement changed, and
 * then every cell must be reset before it is used. */
bool lrt_layout_place_as(lrt_layout *l, lrt_layout_kind kind);
static inline void *const *lrt_layout_cells(const lrt_layout *l, size_t i)
{
    return l->cell + i * (size_t)l->nlocs;
}

/* ---- waiting (lrt_sync.c) */
uint64_t lrt_ticks(void);       /* rdtsc on x86, else nanoseconds */
double lrt_now(void);           /* monotonic wall clock, seconds */
void lrt_pause(void);           /* a spin-loop hint */
/* Spin until *FLAG == VAL.  With YIELD (more threads than CPUs), or once
 * the spin has gone on far too long (a descheduled peer), yield the CPU
 * between checks so a waiting thread never starves the one it waits for. */
void lrt_wait_flag(_Atomic uint32_t *flag, uint32_t val, bool yield);
/* Spin until lrt_ticks() >= TARGET, yielding as above. */
void lrt_wait_ticks(uint64_t target, bool yield);
/* Spin until *COUNTER >= VAL, yielding as above. */
void lrt_wait_reach(_Atomic uint64_t *counter, uint64_t val, bool yield);

/* A reusable barrier for N threads.  The last thread to arrive runs
 * SERIAL(ARG) (if any) before anyone leaves, so per-run decisions are taken
 * by exactly one thread.  Waiters spin briefly (not when YIELD) and then
 * sleep on a futex. */
typedef struct lrt_barrier {
    _Atomic uint32_t count;
    _Atomic uint32_t gen;
    _Atomic uint32_t sleepers;
    uint32_t n;
    bool yield;
} lrt_barrier;
void lrt_barrier_init(lrt_barrier *b, uint32_t n, bool yield);
void lrt_barrier_wait(lrt_barrier *b, void (*serial)(void *), void *arg);

/* ---- CPUs (lrt_cpu.c) */
/* The CPUs this process may run on, at most MAX of them, into CPUS;
 * returns how many (at least 1). */
int lrt_cpu_list(int *cpus, int max);
/* Pin the calling thread to CPU (-1: allow every CPU in ALL[0..nall)). */
void lrt_pin_self(int cpu, const int *all, int nall);

/* ---- interleavings (lrt_interleave.c): one worker runs a test's threads
 * on one instance as one CPU switching between them does */
typedef struct lrt_interleaver lrt_interleaver;
/* Thread U's gapped body on the instance, with LRT_SWITCH at its switches. */
typedef void (*lrt_interleave_body)(int u, void *arg);
lrt_interleaver *lrt_interleaver_new(int nthreads);
void lrt_interleaver_free(lrt_interleaver *il);
/* One instance: PIECE[q] names the thread that runs next, from where it
 * stopped up to its next switch or its end; then every thread not at its
 * end runs to it.  False if a context could not be made or switched. */
bool lrt_interleave(lrt_interleaver *il, const unsigned char *piece, int npieces, lrt_interleave_body body,
                    void *arg);
/* lrt_switch inside an interleaving: back to the worker, which resumes
 * the thread at its next piece.  False outside one. */
bool lrt_interleave_switch(void);

/* ---- the driver (lrt_run.c; lrt_config_default and lrt_default_chunk in lrt_pace.c) */
typedef enum lrt_sync_kind { LRT_SYNC_LOOSE, LRT_SYNC_TIMEBASE, LRT_SYNC_USER } lrt_sync_kind;
typedef enum lrt_affinity_kind { LRT_AFF_NONE, LRT_AFF_INCR, LRT_AFF_RANDOM } lrt_affinity_kind;

/* A directed run (--schedules): the test threads in groups that run one
 * after the other over all instances, the threads of a group together
 * (timebase), so that the orders between threads an allowed state needs
 * happen on every instance.  TARGET is the index of that state among the
 * allowed ones (--until-covered); a schedule is dropped once it is seen.
 * A group may also be folded onto lanes, fewer than its threads: the
 * threads of a lane run one after the other on each instance, a full
 * fence between, on one worker (a group larger than the CPUs can then
 * still have all its lanes in flight at once).  A stretch asks for a long
 * gap before some accesses of a thread, where the state needs another
 * thread's access to fall between two of its own; a hold, for its stores
 * to wait in the store buffer while its later accesses go ahead; a split,
 * for the lane to switch from the thread to the next of the lane before
 * one of its accesses and back once that one is done (lrt_switch). */
/* The most pieces an interleaving has: every thread switched at each of
 * its gap positions. */
#define LRT_MAX_PIECES 64
typedef struct lrt_schedule {
    int target;
    int ngroups;
    unsigned char group[LRT_MAX_THREADS];   /* test thread -> group, 0 first */
    unsigned char lane[LRT_MAX_THREADS];    /* test thread -> lane in its group */
    unsigned char pos[LRT_MAX_THREADS];     /* its place in the lane, 0 first */
    unsigned char stretch[LRT_MAX_THREADS]; /* bit k: a long gap before access k */
    bool hold[LRT_MAX_THREADS];             /* its stores held back (lrt_run_lane) */
    unsigned char split[LRT_MAX_THREADS];   /* k > 0: the lane switches to its next
                                               thread before this one's access k */
    bool held;                              /* some thread is held */
    bool switched;                          /* some lane switches */
    bool nofence[LRT_MAX_THREADS];          /* no fence between the thread before it
                                               in its lane and it (lrt_run_lane) */
    bool folded;                            /* some lane holds two threads or more */
    bool stretched;                         /* some thread has a stretch */
    int largest;                            /* most threads in one group */
    /* npieces > 0: an interleaving instead, which one worker runs alone
     * (lrt_interleave.c): piece q runs thread piece_thread[q] from where it
     * stopped up to its access piece_end[q], or to its end where that is
     * 0; group, lanes and the rest are unused */
    int npieces;
    unsigned char piece_thread[LRT_MAX_PIECES];
    unsigned char piece_end[LRT_MAX_PIECES];
} lrt_schedule;

typedef struct lrt_config {
    uint64_t size;              /* instances per run */
    uint64_t runs;
    lrt_sync_kind sync;
    lrt_affinity_kind affinity;
    lrt_layout_kind layout;
    int cpus;                   /* 0: every CPU the process may use */
    uint64_t seed;
    /* timebase, in ticks: the period between chunks, 0 = adapt it to
     * what keeps the threads together; LRT_DELAY_AUTO = per-thread delays
     * drawn from [0, period/chunk/2], half an instance's share. */
    uint64_t period, delay;
    /* Instances a thread sweeps without waiting.  loose: then it waits for
     * the others to reach the same point (0 = never: a free sweep);
     * timebase: chunks start on the clock (0 = the whole run is one). */
    uint64_t chunk;
    double time_limit;          /* seconds; 0: none */
    /* --until-covered: the states the model allows (nallowed outcomes of
     * nobs values each, in outcome order); the runs go on past RUNS until
     * every one of them has been seen, the time limit, or MAX_ITERATIONS
     * (0: none). */
    int64_t *allowed;
    int nallowed;
    uint64_t max_iterations;
    lrt_schedule *schedules;    /* directed runs, alternating with free ones */
    int nschedules;
} lrt_config;
void lrt_config_default(lrt_config *c);
/* The chunk size each sync mode gets unless one is given. */
uint64_t lrt_default_chunk(lrt_sync_kind sync);

#define LRT_DELAY_AUTO UINT64_MAX

typedef struct lrt_result {
    lrt_hist hist;              /* merged outcomes */
    uint64_t iterations;        /* = lrt_hist_total(&hist) */
    uint64_t runs_done;
    double elapsed;             /* seconds, first run start to last run end */
    bool interrupted;           /* a signal stopped it early */
    int cpus;
    bool oversubscribed;
    uint64_t period;            /* timebase: the period of the last run */
    double aligned;             /* timebase: share of chunks the threads began together */
    /* Per outcome, the iterations done when it was first seen: the end of
     * the run in which it first appeared (the count field holds it). */
    lrt_hist first;
    bool covered;               /* --until-covered: every allowed state was seen */
    uint64_t directed_runs;     /* runs made under a schedule */
    uint64_t gapped_runs;       /* runs made with gaps (lrt_gap_sweep_fn) */
    uint64_t laned_runs;        /* schedule runs with groups folded onto lanes */
    uint64_t handshake_runs;    /* runs whose threads or lanes meet on every instance */
    uint64_t interleaved_runs;  /* schedule runs of an interleaving on one worker */
    uint64_t stalled_runs;      /* free runs whose threads' stores waited behind a missing store */
} lrt_result;

/* Set by the signal handler (or anyone) to stop at the next run boundary. */
extern volatile sig_atomic_t lrt_stop_requested;

/* With --until-covered the runs grow from this many instances (lrt_round.c,
 * lrt_run_size). */
#define LRT_RAMP_START 1
/* Run T under C.  Returns 0, or 3 when memory or threads are refused
 * (then *R holds nothing to free).  Free R's tables with lrt_result_free. */
int lrt_run(const lrt_test *t, const lrt_config *c, lrt_result *r);

/* ---- results (lrt_hist.c) */
/* Free the tables of a finished run: its histogram and first-seen table. */
void lrt_result_free(lrt_result *r);

#endif
