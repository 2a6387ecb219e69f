#ifndef LITMUSC_RUNTIME_LRT_DRIVE_H
#define LITMUSC_RUNTIME_LRT_DRIVE_H
/* The run driver's own state and the calls between its files, internal
 * to them (lrt_internal.h has what the whole runtime shares):
 *   lrt_run.c    the workers, the three phases of a run, lrt_run;
 *   lrt_pace.c   the timebase period and chunks, adapted run by run;
 *   lrt_round.c  --until-covered's rounds: which run comes next (directed,
 *                gapped, laned, stalled, free), its size, its schedule;
 *   lrt_sweep.c  the sync modes' sweeps over the instances, and counting;
 *   lrt_lane.c   laned runs: a group's threads folded onto lanes, and
 *                lrt_switch.
 * Calls go one way: lrt_run.c calls the four others, lrt_lane.c calls
 * lrt_round.c and lrt_sweep.c, and lrt_pace.c, lrt_round.c and
 * lrt_sweep.c call none of them.  The helpers a sweep calls per instance
 * or per chunk are static inline here, so that every file's loops inline
 * them as when the driver was one file. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "lrt_internal.h"

/* Ticks from the moment the last worker arrives at a timebase run to its
 * first chunk: enough for every worker to see that it arrived (a cache
 * line crossing the machine takes a few hundred ticks). */
enum { MEET_MARGIN = 4000 };

/* Laned runs on the clock time their first LANE_CALIBRATE chunks, then
 * meet again (lrt_run_lane). */
enum { LANE_CALIBRATE = 2 };
/* The adaptive period, per instance of a chunk, never leaves [MIN, MAX]
 * ticks (MAX is some 20 microseconds, far more than any litmus instance
 * takes). */
enum { PERIOD_MIN = 4, PERIOD_MAX = 1 << 16 };
/* User sync: instances visited this far apart, so that in the array
 * layout consecutive visits are a cache line or more apart whatever the
 * cell width (16 cells of 4 bytes fill one 64-byte line, of 8 bytes two). */
enum { USER_STRIDE = 16 };

/* What a worker tells the others, alone on its cache line. */
typedef struct meeting_slot {
    _Atomic uint64_t arrived_at;    /* the tick it reached meeting arrived_id */
    _Atomic uint64_t pace;          /* laned: its lane's pace per chunk */
    _Atomic uint32_t arrived_id;
} meeting_slot;

/* The meetings of one run: its start (timebase and laned runs), and a
 * laned run's second one (lrt_run_lane).  Each has slots of its own: a worker
 * may be at the second while a peer still reads its slot of the first. */
enum { MEET_START, MEET_LANE_PACE, MEETINGS };

typedef struct progress_slot {
    _Atomic uint64_t chunks;        /* loose: chunks this worker has begun, all runs */
    meeting_slot meet[MEETINGS];
    char pad[LRT_LINE - sizeof(uint64_t) - MEETINGS * sizeof(meeting_slot)];
} progress_slot;

/* Lines the laned runs make the workers fight over (lrt_run_lane): no test
 * cell is ever on them.  A held thread stores to some of them, as many as
 * hold_counts[] draws per run: states differ in how long a store must stay
 * buffered.  A store behind 8 misses outlasts one fenced thread on the
 * other CPU; one behind 24 to 48, three of them one after another
 * (4.SB+mfence+mfence+mfence+po's all-zero state, W+RR+WR+WR+mfence's:
 * tens of instances in 5M where 8 gave one, 2-vCPU AMD EPYC).  No more
 * than 48: with more stores ahead of it than the store queue has entries
 * (48 on the smallest current x86 cores) the held thread stalls before
 * its own loads, and the state is gone again. */
enum { HOLD_LINES = 48 };
typedef struct hold_slot {
    _Atomic uint64_t v;
    char pad[LRT_LINE - sizeof(uint64_t)];
} hold_slot;

/* A stalled run's lines (lrt_run_timebase): one per test thread, written by
 * nobody else, and two lines apart so that the adjacent-line prefetch of
 * one never brings in another. */
typedef struct stall_slot {
    _Alignas(LRT_LINE) volatile unsigned char line[2 * LRT_LINE];
} stall_slot;

/* The free runs of the odd rounds up to this many instances are stalled,
 * and this many instances of every later round (draw_stall, lrt_run_stalled). */
enum { STALL_RUN_MAX = 64 };
/* The most schedules' holds a stalled run takes its stall sets from. */
enum { STALL_AIMS = 8 };

typedef struct lrt_shared {
    /* ---- written by the workers during a run, each in its own place: its
     * progress slot, its thread's stall line, the hold lines a held
     * thread stores to (lrt_sweep.c, lrt_lane.c) */
    progress_slot progress[LRT_MAX_THREADS];
    stall_slot stall[LRT_MAX_THREADS];
    hold_slot hold[HOLD_LINES];
    /* ---- written by the workers, each its own entry (took[t], hist[w]);
     * failed by any of them */
    uint64_t took[LRT_MAX_THREADS];  /* timebase: ticks test thread t's whole run took */
    _Atomic bool failed;            /* a table ran out of memory */
    lrt_hist hist[LRT_MAX_THREADS]; /* per worker: its own outcomes (merged by lrt_run at the end) */
    /* ---- set once by shared_init (lrt_run.c) before the workers start;
     * read-only after (not so the tables they point to: the entries of keys,
     * lateness and busy are each worker's, those of tries the prepare
     * step's) */
    const lrt_test *t;
    const lrt_config *c;
    int nworkers;
    int cpus[LRT_MAX_THREADS * 8];
    int ncpus;
    bool yield;                     /* oversubscribed: never spin unbounded */
    int64_t *out[LRT_MAX_THREADS];
    _Atomic uint32_t *flags;        /* user sync: one per instance */
    lrt_barrier bar;
    size_t tb_chunk;                /* timebase: instances per chunk */
    /* timebase: lateness[t][c] = ticks test thread t began chunk c after
     * its schedule (0 when on time); busy[t][c] = ticks its sweep of chunk
     * c took (the tables are set here, their entries by thread t's worker) */
    uint32_t *lateness[LRT_MAX_THREADS];
    uint32_t *busy[LRT_MAX_THREADS];
    lrt_interleaver *interleaver;   /* where a schedule is an interleaving */
    uint32_t *tries;                /* per schedule: the directed runs made of it */
    int64_t *keys;                  /* per worker: the current key and the next outcome */
    /* Counting also resets (cells keep their places between runs), so only
     * the first run needs the reset phase. */
    bool reset_when_counting;
    /* ---- written by the serial prepare step alone (step_prepare in
     * lrt_run.c, and lrt_pace.c and lrt_round.c, which it calls), between
     * the runs (shared_init gives some their first values); read by every
     * worker after the barrier */
    int hold_lines;                 /* laned runs: how many of them this run */
    lrt_layout layout;
    lrt_rng rng;
    uint32_t run_id;
    bool stop, interrupted, running;
    int assign[LRT_MAX_THREADS];    /* worker -> test thread */
    int cpu_of[LRT_MAX_THREADS];    /* worker -> CPU, or -1 */
    uint64_t delay[LRT_MAX_THREADS];/* test thread -> timebase delay */
    uint64_t period;                /* timebase: ticks between chunks; 0 = not yet known */
    uint64_t period_cap;            /* timebase, adaptive: 8 times the first period, at most MAX */
    size_t nchunks;                 /* chunks of the current run */
    size_t ninst_run;               /* instances of the current run (see lrt_run_size) */
    uint64_t iters_done;            /* instances run so far, over every run */
    uint64_t aligned, chunks_timed; /* timebase: chunks begun together, of all */
    uint64_t runs_done;
    double start, end;
    lrt_hist first;                 /* outcome -> iterations done when first seen */
    bool covered;                   /* every allowed state is in FIRST */
    const lrt_schedule *sched;      /* this run's directed schedule, or NULL */
    bool laned;                     /* the schedule's groups run folded onto lanes */
    uint64_t lane_period;           /* laned runs: ticks between chunks; 0 = not yet known */
    uint64_t laned_runs;
    bool gapped;                    /* this run spins GAP between accesses */
    bool handshake;                 /* this run meets on every instance (lrt_run_user) */
    bool stalled;                   /* this free run stalls stores (stall_mask) */
    uint64_t stall_seed;            /* ... instance by instance, drawn from this */
    uint32_t stall_aims[STALL_AIMS];/* ... the held threads of unseen states' schedules (draw_stall) */
    int nstall_aims;
    uint64_t lane_seed;             /* laned runs: each instance's gaps, holds and stretches after a
                                       switch (instance_gaps, hold_rounds, switch_after) */
    uint64_t stalled_runs;
    bool round_plain;               /* the round's plain free run is made or passed over */
    bool lane_handshake;            /* this laned run's lanes meet on every instance */
    bool replaced;                  /* this run's cells moved: reset them all first */
    bool array_cells;               /* this run sweeps and counts with the array functions */
    uint64_t handshake_runs;
    uint64_t interleaved_runs;
    /* --until-covered runs go in rounds (lrt_pick_run): directed runs, then
     * a free one; the round's number sets the runs' size (lrt_run_size). */
    uint32_t round;                 /* rounds begun */
    bool in_round;                  /* the round's directed runs are not over */
    int round_floor;                /* schedule runs this round makes whatever their size */
    int round_picked;               /* schedule runs made this round */
    uint64_t round_budget;          /* instances this round's schedule runs may still take */
    size_t sched_size;              /* this directed run's instances (lrt_pick_run) */
    bool round_gapped;              /* the round's gapped run is made */
    bool round_handshake;           /* the round's handshake run is made */
    uint32_t gap[LRT_MAX_THREADS][LRT_GAPS];
    unsigned char gap_kind[LRT_MAX_THREADS][LRT_GAPS];     /* GAP_NONE, GAP_PLAIN or GAP_STRETCH */
    /* a switched thread's gaps in a laned run: its own with LRT_SWITCH
     * where the lane switches (lrt_run_lane) */
    uint32_t switch_gap[LRT_MAX_THREADS][LRT_GAPS];
    uint64_t gapped_runs;
    int next_sched;                 /* where the round-robin over schedules goes on */
    uint32_t meet_id;               /* this run's first meeting, and its flags' value; 64 a run */
    uint64_t directed_runs;
} lrt_shared;

typedef struct worker_arg {
    lrt_shared *sh;
    int w;
} worker_arg;

/* ---- lrt_pace.c */
uint64_t lrt_count_aligned(const lrt_shared *sh);
void lrt_adapt_period(lrt_shared *sh, uint64_t together);
void lrt_adapt_lane_period(lrt_shared *sh);

/* ---- lrt_round.c */
void lrt_note_first_seen(lrt_shared *sh);
bool lrt_runs_over(const lrt_shared *sh);
void lrt_pick_run(lrt_shared *sh);
void lrt_assign_apart(lrt_shared *sh);
size_t lrt_run_size(const lrt_shared *sh);
int lrt_lane_of(const lrt_schedule *sc, int n, int t, int *member, int *longest);
int lrt_lane_rank(const lrt_schedule *sc, int n, int g, int lane, int *lanes);

/* ---- lrt_sweep.c */
uint64_t lrt_meet_origin(lrt_shared *sh, int w, int g, uint32_t id, int m, uint64_t *pace);
void lrt_reset_instances(const lrt_shared *sh, size_t lo, size_t hi);
void lrt_run_loose(lrt_shared *sh, int w, int t);
void lrt_run_timebase(lrt_shared *sh, int w, int t, int g, uint32_t id);
void lrt_run_stalled(lrt_shared *sh, int w, int t);
void lrt_run_user(lrt_shared *sh, int t);
void lrt_count_slice(lrt_shared *sh, int w, bool reset_too);
void lrt_reset_slice(lrt_shared *sh, int w);
void lrt_run_interleaved(lrt_shared *sh);

/* ---- lrt_lane.c */
void lrt_run_lane(lrt_shared *sh, int w, int t, int g, uint32_t id);

/* ---- inline helpers of the sweeps ------------------------------------- */
/* Gapped runs: the gaps stay below 2^GAP_LOG_MAX spins (about 6000 ticks
 * where a pause takes 25), longer than a store takes to leave the store
 * buffer and reach the other core.  Directed runs, gapped or scheduled,
 * are at most DIRECTED_RUN_MAX instances: the spins make every instance
 * slower, a schedule shows its target within a few instances when it can
 * at all, and the long free runs are what the states that need luck need. */
enum { GAP_LOG_MAX = 8, DIRECTED_RUN_MAX = 4096 };
/* How a gapped run drew each gap: none, plain_gap or stretch_gap. */
enum { GAP_NONE, GAP_PLAIN, GAP_STRETCH };

/* 0..2^u - 1 spins with u uniform in [1, GAP_LOG_MAX]: short and long
 * gaps equally often. */
static inline uint32_t plain_gap(lrt_rng *r)
{
    uint32_t u = 1 + (uint32_t)lrt_rng_below(r, GAP_LOG_MAX);
    return (uint32_t)lrt_rng_below(r, (uint64_t)1 << u);
}

/* A gap of 1 to 2^GAP_LOG_MAX - 1 spins, each power of two as likely,
 * for the accesses a schedule stretches apart.  How long a gap a state
 * needs depends on what must fit in it and on what a spin costs (a
 * pause is 25 ticks on some x86s, 63 on a Zen 5 EPYC): W+RWC+coi+po+po's
 * held state shows on up to 2% of instances with P0's stretch 1 to 8
 * spins and on none with 32 or more, while other stretches need the
 * long ones. */
static inline uint32_t stretch_gap(lrt_rng *r)
{
    uint32_t u = (uint32_t)lrt_rng_below(r, GAP_LOG_MAX);
    return ((uint32_t)1 << u) | (uint32_t)lrt_rng_below(r, (uint64_t)1 << u);
}

/* The random numbers of instance I of a run, for thread T, from the run's
 * SEED: the same wherever they are drawn, so that every thread of a
 * stalled run draws the same stall set, and each instance draws anew. */
static inline lrt_rng instance_rng(uint64_t seed, size_t i, int t)
{
    lrt_rng r;
    lrt_rng_seed(&r, seed ^ ((uint64_t)i * 0xd1b54a32d192ed03ULL) ^ ((uint64_t)t * 0x9e3779b97f4a7c15ULL));
    return r;
}

/* The threads whose stores instance I of a stalled run stalls (bit t for
 * thread t): every thread's in the first round's and in half the
 * instances of the others, else a random nonempty set of them, drawn per
 * instance (every thread draws the same) so that a run of a few dozen
 * instances tries many sets; but where schedules of unseen states hold
 * threads (stall_aims), one of their sets takes the place of every
 * thread's, since that is what the model says those states need.  With
 * every store stalled SB's and
 * SB+rfi-pos's weak states showed on 99.9% of single-instance runs
 * against 1-6% unstalled; SB+mfence+po's all-zero state and R's weak
 * one, which need only one thread's store late, on 28% and 34-42% with
 * both stalled, 52-60% and 53-63% with that one alone (2-vCPU AMD
 * EPYC). */
static inline uint32_t stall_mask(const lrt_shared *sh, size_t i)
{
    int n = sh->t->nthreads;
    uint32_t all = n >= 32 ? UINT32_MAX : (1u << n) - 1;
    lrt_rng r = instance_rng(sh->stall_seed, i, 0);
    if (sh->nstall_aims && (sh->round == 1 || lrt_rng_below(&r, 2) == 0))
        return sh->stall_aims[lrt_rng_below(&r, (uint64_t)sh->nstall_aims)];
    if (sh->round == 1 || lrt_rng_below(&r, 2) == 0)
        return all;
    return 1 + (uint32_t)lrt_rng_below(&r, all);
}

/* Worker W's share of the first S instances. */
static inline void slice(const lrt_shared *sh, size_t s, int w, size_t *lo, size_t *hi)
{
    *lo = s * (size_t)w / (size_t)sh->nworkers;
    *hi = s * (size_t)(w + 1) / (size_t)sh->nworkers;
}

/* Test thread T over instances [LO, HI): its gapped sweep in a gapped
 * run, else its sweep, else its per-instance function one by one. */
static inline void sweep_range(const lrt_shared *sh, int t, size_t lo, size_t hi)
{
    const lrt_test *tt = sh->t;
    if (sh->gapped)
        tt->gap_sweeps[t](sh->layout.cell, sh->out[t], lo, hi, sh->gap[t]);
    else if (sh->array_cells)
        tt->array_sweeps[t](sh->layout.cell, sh->out[t], lo, hi);
    else if (tt->sweeps)
        tt->sweeps[t](sh->layout.cell, sh->out[t], lo, hi);
    else
        for (size_t i = lo; i < hi; i++)
            tt->threads[t](lrt_layout_cells(&sh->layout, i), sh->out[t] + i * (size_t)tt->nout[t]);
}

/* Timebase: the workers meet at the start of a run and agree on its
 * origin, the latest tick any of them arrived plus a margin.  Each
 * computes the same value from the others' slots, so no worker has to be
 * woken at a tick decided before it was running (waking from the run
 * barrier's futex takes longer than a whole run of some tests). */
/* The workers that meet: every one, or in a directed run those whose test
 * thread is in group G; ID tells one meeting from the next. */
static inline bool meets(const lrt_shared *sh, int k, int g)
{
    int t = sh->assign[k];
    return !sh->sched || (sh->sched->group[t] == g && (!sh->laned || sh->sched->pos[t] == 0));
}

static inline uint32_t clamp_ticks(uint64_t ticks)
{
    return ticks < UINT32_MAX ? (uint32_t)ticks : UINT32_MAX;
}

/* The start of chunk C, due at tick WHEN (with a PERIOD; none: at once):
 * BUSY[C-1] gets how long the previous one took from BEGAN, LATENESS[C]
 * (unless NULL) how late this one starts; returns the tick it starts. */
static inline uint64_t chunk_start(const lrt_shared *sh, size_t c, uint64_t when, uint64_t began, uint64_t period,
                                   uint32_t *busy, uint32_t *lateness)
{
    uint64_t now = lrt_ticks();
    if (c)
        busy[c - 1] = clamp_ticks(now > began ? now - began : 0);
    if (period && now < when)
        lrt_wait_ticks(when, sh->yield);
    if (lateness)
        lateness[c] = clamp_ticks(now > when ? now - when : 0);
    return now > when ? now : when;
}

/* A store that misses all the way to memory, so that the test's stores
 * after it wait behind it in the store buffer (x86 commits stores in
 * order) while its loads go ahead: the line is flushed first.  The line
 * is the runtime's own: the test's code and cells are untouched, so every
 * outcome is still one the test can produce.  Elsewhere a plain store. */
static inline void stall_stores(volatile unsigned char *line, size_t i)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ __volatile__("clflush %0" : "+m"(*line));
#endif
    *line = (unsigned char)i;
}

/* A longer stall: after stall_stores, ROUNDS more flushes of the line,
 * each followed by a store to it.  A flush is ordered with the stores
 * around it, so each waits for the store before it to reach memory and
 * the next store misses again: the test's later stores wait about one
 * more miss and flush a round, while its loads still go ahead.  A store
 * after the stall became visible to another core after 459 ticks with
 * none, 1458 with one round, 2160 with two, 4401 with four and 7560 with
 * eight (medians, 2-vCPU AMD EPYC, Zen 5), its loads unslowed. */
static inline void stall_stores_long(volatile unsigned char *line, size_t i, unsigned rounds)
{
    for (unsigned r = 0; r <= rounds; r++)
        stall_stores(line, i);
}

/* The fence after raising a flag (lrt_run_user).  On x86 an mfence, not the
 * locked instruction compilers make of a seq_cst fence: both wait for the
 * flag's store to leave, but mfence also holds back what follows until
 * then, so the thread that raised the flag starts its instance about when
 * the others see the flag.  With the locked instruction it ran its
 * instance before they began theirs, and SB's weak outcome fell from 88%
 * of the instances to 0.3%, SB+mfence+po's from 5% to 0.01% (2-vCPU AMD
 * EPYC). */
static inline void flag_fence(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ __volatile__("mfence" ::: "memory");
#else
    atomic_thread_fence(memory_order_seq_cst);
#endif
}

/* One instance's meeting (lrt_run_user, lrt_run_lane): the thread whose turn it
 * is (RAISES) raises the instance's flag to ID and fences, the others
 * wait for it, yielding when YIELD. */
static inline void meet_instance(lrt_shared *sh, size_t i, bool raises, uint32_t id, bool yield)
{
    if (raises) {
        atomic_store_explicit(&sh->flags[i], id, memory_order_release);
        flag_fence();
    } else {
        lrt_wait_flag(&sh->flags[i], id, yield);
    }
}

#endif
