/* The run driver: persistent workers, one per test thread, created once.
 *
 * Every run goes through three barriers:
 *   prepare  (serial) count the finished run, decide whether to stop, draw
 *            the thread-to-worker assignment, CPUs, delays and layout;
 *   reset    each worker pins itself and resets its slice of instances
 *            (before the first run only, unless cells are shuffled: the
 *            count resets each instance once it is counted, which saves a
 *            pass over the memory);
 *   run      each worker runs its test thread over all S instances, then
 *            counts its slice of the finished instances into its own table.
 * Counting and resetting are split between the workers so that no phase of
 * a run is serial, and the tables are merged once at the end, so counts
 * always add up to S times the runs finished. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "lrt_internal.h"

volatile sig_atomic_t lrt_stop_requested;

/* Ticks from the moment the last worker arrives at a timebase run to its
 * first chunk: enough for every worker to see that it arrived (a cache
 * line crossing the machine takes a few hundred ticks). */
enum { MEET_MARGIN = 4000 };

/* Laned runs on the clock time their first LANE_CALIBRATE chunks, then
 * meet again (run_lane). */
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
 * laned run's second one (run_lane).  Each has slots of its own: a worker
 * may be at the second while a peer still reads its slot of the first. */
enum { MEET_START, MEET_LANE_PACE, MEETINGS };

typedef struct progress_slot {
    _Atomic uint64_t chunks;        /* loose: chunks this worker has begun, all runs */
    meeting_slot meet[MEETINGS];
    char pad[LRT_LINE - sizeof(uint64_t) - MEETINGS * sizeof(meeting_slot)];
} progress_slot;

/* Lines the laned runs make the workers fight over (run_lane): no test
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
static const unsigned char hold_counts[] = {1, 2, 4, 8, 16, 24, 32, 48};
typedef struct hold_slot {
    _Atomic uint64_t v;
    char pad[LRT_LINE - sizeof(uint64_t)];
} hold_slot;

/* A stalled run's lines (run_timebase): one per test thread, written by
 * nobody else, and two lines apart so that the adjacent-line prefetch of
 * one never brings in another. */
typedef struct stall_slot {
    _Alignas(LRT_LINE) volatile unsigned char line[2 * LRT_LINE];
} stall_slot;

/* The free runs of the odd rounds up to this many instances are stalled,
 * and this many instances of every later round (draw_stall, run_stalled). */
enum { STALL_RUN_MAX = 64 };
/* The most schedules' holds a stalled run takes its stall sets from. */
enum { STALL_AIMS = 8 };

typedef struct lrt_shared {
    progress_slot progress[LRT_MAX_THREADS];
    stall_slot stall[LRT_MAX_THREADS];
    hold_slot hold[HOLD_LINES];
    int hold_lines;                 /* laned runs: how many of them this run */
    const lrt_test *t;
    const lrt_config *c;
    int nworkers;
    int cpus[LRT_MAX_THREADS * 8];
    int ncpus;
    bool yield;                     /* oversubscribed: never spin unbounded */
    lrt_layout layout;
    int64_t *out[LRT_MAX_THREADS];
    _Atomic uint32_t *flags;        /* user sync: one per instance */
    lrt_barrier bar;
    lrt_rng rng;
    /* Decided by the serial steps; read by every worker after a barrier. */
    uint32_t run_id;
    bool stop, interrupted, running;
    int assign[LRT_MAX_THREADS];    /* worker -> test thread */
    int cpu_of[LRT_MAX_THREADS];    /* worker -> CPU, or -1 */
    uint64_t delay[LRT_MAX_THREADS];/* test thread -> timebase delay */
    uint64_t period;                /* timebase: ticks between chunks; 0 = not yet known */
    uint64_t period_cap;            /* timebase, adaptive: 8 times the first period, at most MAX */
    size_t tb_chunk;                /* timebase: instances per chunk */
    size_t nchunks;                 /* chunks of the current run */
    size_t ninst_run;               /* instances of the current run (see run_size) */
    uint64_t iters_done;            /* instances run so far, over every run */
    /* timebase: lateness[t][c] = ticks test thread t began chunk c after
     * its schedule (0 when on time); busy[t][c] = ticks its sweep of chunk
     * c took; took[t] = ticks its whole run took. */
    uint32_t *lateness[LRT_MAX_THREADS];
    uint32_t *busy[LRT_MAX_THREADS];
    uint64_t took[LRT_MAX_THREADS];
    uint64_t aligned, chunks_timed; /* timebase: chunks begun together, of all */
    uint64_t runs_done;
    double start, end;
    _Atomic bool failed;            /* a table ran out of memory */
    lrt_hist hist[LRT_MAX_THREADS]; /* per worker */
    lrt_hist first;                 /* outcome -> iterations done when first seen */
    bool covered;                   /* every allowed state is in FIRST */
    const lrt_schedule *sched;      /* this run's directed schedule, or NULL */
    bool laned;                     /* the schedule's groups run folded onto lanes */
    uint64_t lane_period;           /* laned runs: ticks between chunks; 0 = not yet known */
    uint64_t laned_runs;
    bool gapped;                    /* this run spins GAP between accesses */
    bool handshake;                 /* this run meets on every instance (run_user) */
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
    lrt_interleaver *interleaver;   /* where a schedule is an interleaving */
    /* --until-covered runs go in rounds (pick_run): directed runs, then
     * a free one; the round's number sets the runs' size (run_size). */
    uint32_t round;                 /* rounds begun */
    bool in_round;                  /* the round's directed runs are not over */
    int round_floor;                /* schedule runs this round makes whatever their size */
    int round_picked;               /* schedule runs made this round */
    uint64_t round_budget;          /* instances this round's schedule runs may still take */
    uint32_t *tries;                /* per schedule: the directed runs made of it */
    size_t sched_size;              /* this directed run's instances (pick_run) */
    bool round_gapped;              /* the round's gapped run is made */
    bool round_handshake;           /* the round's handshake run is made */
    uint32_t gap[LRT_MAX_THREADS][LRT_GAPS];
    unsigned char gap_kind[LRT_MAX_THREADS][LRT_GAPS];     /* GAP_NONE, GAP_PLAIN or GAP_STRETCH */
    /* a switched thread's gaps in a laned run: its own with LRT_SWITCH
     * where the lane switches (run_lane) */
    uint32_t switch_gap[LRT_MAX_THREADS][LRT_GAPS];
    uint64_t gapped_runs;
    int next_sched;                 /* where the round-robin over schedules goes on */
    uint32_t meet_id;               /* this run's first meeting, and its flags' value; 64 a run */
    uint64_t directed_runs;
    int64_t *keys;                  /* per worker: the current key and the next outcome */
    /* Counting also resets (cells keep their places between runs), so only
     * the first run needs the reset phase. */
    bool reset_when_counting;
} lrt_shared;

typedef struct worker_arg {
    lrt_shared *sh;
    int w;
} worker_arg;

uint64_t lrt_default_chunk(lrt_sync_kind sync)
{
    /* Loose: shorter chunks pay for the meeting (each drains the store
     * buffers), longer ones let the threads drift apart.  Timebase: a
     * clock start every 96 instances holds them together at a cost of one
     * rdtsc per chunk.  With the outputs four to a store (the generated
     * wide sweeps) the threads' loads stay ahead of each other's stores
     * further into a chunk than they did: on SB 96 and 128 showed 39-45%
     * more witnesses a second than 64, and 10-13% more iterations (150
     * rounds taking turns, 2-vCPU AMD EPYC); 96, nearer the stretch the
     * store buffer gives where two vCPUs share a core (bench/RESULTS.md). */
    return sync == LRT_SYNC_LOOSE ? 256 : sync == LRT_SYNC_TIMEBASE ? 96 : 0;
}

void lrt_config_default(lrt_config *c)
{
    memset(c, 0, sizeof *c);
    c->size = 100000;
    c->runs = 10;
    /* Sweeps in chunks that start on the clock, with an adaptive period,
     * over one array per location: on SB the most witnesses per second of
     * all the combinations measured (bench/RESULTS.md). */
    c->sync = LRT_SYNC_TIMEBASE;
    c->affinity = LRT_AFF_INCR;
    c->layout = LRT_LAYOUT_ARRAY;
    c->chunk = lrt_default_chunk(c->sync);
    c->period = 0;
    c->delay = LRT_DELAY_AUTO;
}

/* Serial, timebase: how many chunks of the run that just ended the
 * threads began together, within two instances' share of the period of
 * each other.  That is what the schedule is for: a weak outcome needs the
 * threads on the same instances at the same moment. */
static uint64_t count_aligned(const lrt_shared *sh)
{
    uint64_t slack = 2 * sh->period / sh->tb_chunk, together = 0;
    for (size_t c = 0; c < sh->nchunks; c++) {
        uint32_t lo = UINT32_MAX, hi = 0;
        for (int t = 0; t < sh->nworkers; t++) {
            uint32_t l = sh->lateness[t][c];
            lo = l < lo ? l : lo;
            hi = l > hi ? l : hi;
        }
        together += hi - lo <= slack;
    }
    return together;
}

/* The K-th smallest of A[0..N) (0-based; K < N); reorders A. */
static uint32_t select_kth(uint32_t *a, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        uint32_t pivot = a[lo + (hi - lo) / 2];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (a[i] < pivot)
                i++;
            while (a[j] > pivot)
                j--;
            if (i <= j) {
                uint32_t x = a[i];
                a[i] = a[j];
                a[j] = x;
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return a[k];
    }
    return a[k];
}

/* Serial, after a free run (no period): test thread T's median ticks per
 * chunk.  Its lateness entries then hold each chunk's start from the run's
 * start; they become durations (a preempted chunk is one long outlier,
 * which the median ignores). */
static uint64_t median_chunk(lrt_shared *sh, int t)
{
    uint32_t *l = sh->lateness[t];
    size_t n = sh->nchunks;
    for (size_t c = 0; c + 1 < n; c++)
        l[c] = l[c + 1] > l[c] ? l[c + 1] - l[c] : 0;
    uint64_t last = sh->took[t] > l[n - 1] ? sh->took[t] - l[n - 1] : 0;
    l[n - 1] = last < UINT32_MAX ? (uint32_t)last : UINT32_MAX;
    return select_kth(l, n, n / 2);
}

/* The fewest chunks a run must have for its pace to set the period. */
enum { CALIBRATE_CHUNKS = 8 };

/* Serial, after a paced run: the longest any test thread's sweep of a
 * chunk took, leaving out each thread's slowest quarter (a chunk the
 * thread was preempted in is an outlier, not its pace; and a chunk swept
 * side by side takes longer the more lines change hands in it, which
 * varies from chunk to chunk).  With its slowest tenth left out instead,
 * SB's threads spent 38% of a run waiting for the next chunk's start
 * (perf); with a quarter, 24% more iterations a second and 10% fewer
 * witnesses, with half, 34% more and 21% fewer (25 rounds taking turns,
 * 2-vCPU AMD EPYC, bench/RESULTS.md).  Reorders busy[]. */
static uint64_t paced_chunk(lrt_shared *sh)
{
    size_t n = sh->nchunks;
    uint64_t pace = 0;
    for (int t = 0; t < sh->nworkers; t++) {
        uint64_t p = select_kth(sh->busy[t], n, n * 3 / 4);
        pace = p > pace ? p : pace;
    }
    return pace;
}

/* Serial, timebase with an adaptive period.  The first run has none: the
 * threads run free, and two and a half times the slowest one's median
 * pace becomes the period (threads that run the same instances at the
 * same moment contend for their lines; on SB that slows them by about that
 * much, so the first paced run is already close).  After that every run
 * measures the pace itself: the period becomes an eighth more than the
 * time the slowest thread's sweep of a chunk took, leaving out its
 * slowest quarter (paced_chunk).  How long a chunk takes is not fixed:
 * on a shared host the same two threads take three times as long for
 * stretches of tens of milliseconds (when the host places their CPUs
 * apart) and then run fast again, so the period must follow the pace
 * down as soon as it follows it up.  A rule that only nudged the period
 * by the share of chunks begun apart grew it in such a stretch and took
 * a hundred runs to bring it back, running the rest of the test at a
 * third of the speed (bench/RESULTS.md).  The share apart still counts:
 * when more than 60% of the chunks began apart the threads may not have
 * met at all (a chunk swept alone is faster than one swept together), so
 * the period grows by a quarter at least.
 * With more threads than CPUs they cannot all run at once, so the period
 * stays at the first run's pace plus a quarter: a longer one would only
 * add idle waits.  Nor does the period ever exceed 8 times its first
 * value: when another program takes the CPUs for milliseconds at a time,
 * no period keeps the threads together, and an unbounded one would only
 * make every run slower. */
static void adapt_period(lrt_shared *sh, uint64_t together)
{
    uint64_t k = sh->tb_chunk, n = sh->nchunks, p = sh->period;
    /* The short first runs of --until-covered (run_size) are one chunk or
     * a few: they need no period, and too few chunks to time the pace by.
     * The first run of CALIBRATE_CHUNKS chunks or more does; later runs
     * that short leave the period as it is. */
    if (n < CALIBRATE_CHUNKS && (p || n < (sh->layout.ninst + k - 1) / k))
        return;
    if (p == 0) {
        for (int t = 0; t < sh->nworkers; t++) {
            uint64_t pace = median_chunk(sh, t);
            p = pace > p ? pace : p;
        }
        p = sh->yield ? p + p / 4 : p * 5 / 2;
        uint64_t cap = 8 * (p > PERIOD_MIN * k ? p : PERIOD_MIN * k);
        sh->period_cap = cap < PERIOD_MAX * k ? cap : PERIOD_MAX * k;
    } else if (sh->yield) {
        return;
    } else {
        uint64_t pace = paced_chunk(sh);
        uint64_t want = pace + pace / 8;
        if ((n - together) * 5 > n * 3 && want < p + p / 4)
            want = p + p / 4;
        p = want;
    }
    if (p < PERIOD_MIN * k)
        p = PERIOD_MIN * k;
    if (p > sh->period_cap)
        p = sh->period_cap;
    sh->period = p;
}

/* Serial, after a laned run: the next laned run's period, an eighth more
 * than the slowest lane's pace (its first thread's sweeps, leaving out the
 * slowest tenth).  A lane runs several threads and fences on each
 * instance, far slower than the free runs' pace, so it keeps a period of
 * its own; the first laned run has none. */
static void adapt_lane_period(lrt_shared *sh)
{
    size_t n = sh->nchunks;
    if (n < 2)
        return;
    uint64_t pace = 0;
    for (int t = 0; t < sh->t->nthreads; t++) {
        if (sh->sched->pos[t] != 0)
            continue;
        uint64_t p = select_kth(sh->busy[t], n - 1, (n - 1) * 9 / 10);
        pace = p > pace ? p : pace;
    }
    uint64_t cap = (uint64_t)PERIOD_MAX * sh->tb_chunk * LRT_MAX_THREADS;
    pace += pace / 8;
    sh->lane_period = pace < cap ? pace : cap;
}

/* After a run: the outcomes seen for the first time get the iterations
 * done so far.  The workers' tables hold every run's outcomes and few
 * distinct ones, so a scan per run costs next to nothing. */
static void note_first_seen(lrt_shared *sh)
{
    const lrt_test *t = sh->t;
    uint64_t done = sh->iters_done;
    size_t w = (size_t)t->nobs;
    for (int k = 0; k < t->nthreads; k++) {
        const lrt_hist *h = &sh->hist[k];
        for (size_t i = 0; i < h->cap; i++)
            if (h->counts[i] && !lrt_hist_get(&sh->first, h->keys + i * w) &&
                !lrt_hist_add(&sh->first, h->keys + i * w, done))
                sh->failed = true;
    }
    const lrt_config *c = sh->c;
    bool all = c->nallowed > 0;
    for (int a = 0; all && a < c->nallowed; a++)
        all = lrt_hist_get(&sh->first, c->allowed + (size_t)a * w) != 0;
    sh->covered = all;
}

/* Whether the runs asked for are done: RUNS of them, or with
 * --until-covered every allowed state seen (or MAX_ITERATIONS run). */
static bool runs_over(const lrt_shared *sh)
{
    const lrt_config *c = sh->c;
    if (!c->nallowed)
        return sh->runs_done >= c->runs;
    if (sh->covered)
        return true;
    return c->max_iterations && sh->iters_done >= c->max_iterations;
}

static bool seen_allowed(const lrt_shared *sh, int a)
{
    const lrt_config *c = sh->c;
    return a >= 0 && a < c->nallowed && lrt_hist_get(&sh->first, c->allowed + (size_t)a * (size_t)sh->t->nobs);
}

/* The index of the next schedule, in round robin, whose target state is
 * still unseen, or -1. */
static int next_schedule(const lrt_shared *sh)
{
    const lrt_config *c = sh->c;
    for (int k = 0; k < c->nschedules; k++) {
        int at = (sh->next_sched + k) % c->nschedules;
        if (!seen_allowed(sh, c->schedules[at].target))
            return at;
    }
    return -1;
}

/* Whether an allowed state no schedule aims at is still unseen, or with
 * INTERLEAVED, none that is an interleaving (which shows its state on
 * every instance).  The first are the states whose threads must all run
 * together, which gaps are for; while there are none of the second, the
 * directed runs alone will show every state still unseen. */
static bool unseen_unaimed(const lrt_shared *sh, bool interleaved)
{
    const lrt_config *c = sh->c;
    for (int a = 0; a < c->nallowed; a++) {
        bool aimed = false;
        for (int k = 0; k < c->nschedules && !aimed; k++)
            aimed = c->schedules[k].target == a && (!interleaved || c->schedules[k].npieces > 0);
        if (!aimed && !seen_allowed(sh, a))
            return true;
    }
    return false;
}

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
static uint32_t plain_gap(lrt_rng *r)
{
    uint32_t u = 1 + (uint32_t)lrt_rng_below(r, GAP_LOG_MAX);
    return (uint32_t)lrt_rng_below(r, (uint64_t)1 << u);
}

/* Every position of every thread gets no gap (one time in three) or a
 * plain_gap, so that among the runs some stretch exactly the accesses a
 * state needs apart and leave the others tight. */
static void draw_gaps(lrt_shared *sh)
{
    for (int t = 0; t < sh->nworkers; t++)
        for (int k = 0; k < LRT_GAPS; k++) {
            bool on = lrt_rng_below(&sh->rng, 3) != 0;
            sh->gap_kind[t][k] = on ? GAP_PLAIN : GAP_NONE;
            sh->gap[t][k] = on ? plain_gap(&sh->rng) : 0;
        }
}

/* A gap of 1 to 2^GAP_LOG_MAX - 1 spins, each power of two as likely,
 * for the accesses a schedule stretches apart.  How long a gap a state
 * needs depends on what must fit in it and on what a spin costs (a
 * pause is 25 ticks on some x86s, 63 on a Zen 5 EPYC): W+RWC+coi+po+po's
 * held state shows on up to 2% of instances with P0's stretch 1 to 8
 * spins and on none with 32 or more, while other stretches need the
 * long ones. */
static uint32_t stretch_gap(lrt_rng *r)
{
    uint32_t u = (uint32_t)lrt_rng_below(r, GAP_LOG_MAX);
    return ((uint32_t)1 << u) | (uint32_t)lrt_rng_below(r, (uint64_t)1 << u);
}

/* The most schedule runs in one round: a test with dozens of schedules
 * (6.SB has 62) still has most of its iterations in free runs. */
enum { ROUND_SCHEDULES = 8 };

static int pending_schedules(const lrt_shared *sh)
{
    int n = 0;
    for (int k = 0; k < sh->c->nschedules; k++)
        n += !seen_allowed(sh, sh->c->schedules[k].target);
    return n;
}

/* Test thread T's lane in schedule SC of N threads: how many threads it
 * holds, in order in MEMBER (unless NULL); *LONGEST: the most any lane of
 * T's group holds. */
static int lane_of(const lrt_schedule *sc, int n, int t, int *member, int *longest)
{
    int len = 0;
    *longest = 0;
    for (int u = 0; u < n; u++) {
        if (sc->group[u] != sc->group[t])
            continue;
        if (sc->lane[u] == sc->lane[t]) {
            if (member)
                member[sc->pos[u]] = u;
            len++;
        }
        *longest = sc->pos[u] + 1 > *longest ? sc->pos[u] + 1 : *longest;
    }
    return len;
}

/* The gaps of the switched threads of this schedule run: LRT_SWITCH at
 * the switch; where the schedule stretches the thread, a long gap one
 * time in two; else none, so that the switch is the one pause in its
 * run.  A stretch at the switch's own access cannot share its slot: it
 * comes after the switch returns (lrt_switch, switch_after), where the
 * state needs another lane's access between what the switch ran and
 * that access (W+RWC+po+pos+po's state where P1 reads y=0, then P0 runs
 * inside its switch, then P1 reads P2's held y=2: the held store must
 * show after P0's y=1 and before P1's load). */
static void draw_switches(lrt_shared *sh, bool gaps)
{
    const lrt_schedule *sc = sh->sched;
    if (!sc->switched || !gaps)
        return;
    for (int t = 0; t < sh->t->nthreads; t++) {
        if (!sc->split[t])
            continue;
        for (int k = 0; k < LRT_GAPS; k++) {
            bool stretch = (sc->stretch[t] >> k) & 1 && lrt_rng_below(&sh->rng, 2);
            sh->switch_gap[t][k] = stretch ? stretch_gap(&sh->rng) : 0;
        }
        sh->switch_gap[t][sc->split[t]] = LRT_SWITCH;
    }
}

/* Lane LANE's place among the lanes of group G in schedule SC of N
 * threads, and in *LANES how many there are: lane numbers need not run
 * 0, 1, ... within a group (the short form "G" puts thread t on lane t). */
static int lane_rank(const lrt_schedule *sc, int n, int g, int lane, int *lanes)
{
    bool used[LRT_MAX_THREADS] = {false};
    for (int u = 0; u < n; u++)
        if (sc->group[u] == g)
            used[sc->lane[u]] = true;
    int rank = 0;
    *lanes = 0;
    for (int l = 0; l < LRT_MAX_THREADS; l++) {
        rank += used[l] && l < lane;
        *lanes += used[l];
    }
    return rank;
}

/* Whether every group of this run's schedule has a CPU for each of its
 * lanes, which lanes that meet on every instance need (run_lane). */
static bool lanes_fit(const lrt_shared *sh)
{
    for (int g = 0; g < sh->sched->ngroups; g++) {
        int lanes;
        (void)lane_rank(sh->sched, sh->t->nthreads, g, 0, &lanes);
        if (lanes > sh->ncpus)
            return false;
    }
    return true;
}

/* Whether this schedule run folds its groups onto lanes: always when a
 * group has more threads than there are CPUs (they could not all run at
 * once), else every other round, since a lane also orders its threads
 * exactly where running them side by side leaves it to luck.  Where
 * every lane has a CPU, the lanes meet on every instance (run_lane) in
 * every laned run of a schedule that folds, stretches or switches, and in
 * half of the others: on 3.SB+pos+po+po's state where a held store must
 * outlast the other lane's two threads, 476-847 instances in 4M
 * iterations showed it against 0-4 with chunks on the clock, and with
 * every such run meeting, rather than half, W+RWC+coi+po+po, Z6.0+coi+
 * po+po, 3.SB+mfence+pos+po and 3.SB+pos+po+po were covered two to three
 * times sooner (geometric mean of 40 runs each, the largest of them 1086
 * to 1790 iterations against 1918 to 12415).  A held schedule that does
 * none of the three (SB+mfence+po's) did better with half its runs on
 * the clock.  Half the laned runs are
 * gapped, three in four of a stretched schedule's: a lane's threads
 * follow each other within a fence or two, and a state that needs
 * another lane's two accesses on either side of that needs them
 * stretched apart (with one in two, Z6.0+coi+po+po's held and stretched
 * state was missed in 5 of 40 runs of 1M, with three in four in 0). */
static void pick_lanes(lrt_shared *sh, bool gaps)
{
    const lrt_schedule *sc = sh->sched;
    sh->laned = (sc->folded && (sc->largest > sh->ncpus || sh->round % 2 == 1)) || sc->held ||
                (sc->switched && gaps);
    sh->hold_lines = hold_counts[lrt_rng_below(&sh->rng, sizeof hold_counts)];
    sh->lane_seed = lrt_rng_next(&sh->rng);
    sh->lane_handshake = sh->laned && sh->flags && lanes_fit(sh) &&
                         (sc->folded || sc->stretched || sc->switched || lrt_rng_below(&sh->rng, 2));
    draw_switches(sh, gaps);
    if ((!sh->laned && !sc->stretched) || !gaps || lrt_rng_below(&sh->rng, sc->stretched ? 4 : 2) == 0)
        return;
    sh->gapped = true;
    draw_gaps(sh);
    /* Where the schedule stretches a thread, it gets a stretch_gap there
     * and none elsewhere.  Else a thread on a lane shorter than its
     * group's longest mostly has to straddle the others: one access before
     * a thread of the long lane, the next after a later one of it, a fence
     * or more apart; its gaps are stretch_gaps too, still none one time in
     * three. */
    int n = sh->t->nthreads;
    for (int t = 0; t < n; t++) {
        int longest, len = lane_of(sc, n, t, NULL, &longest);
        for (int k = 0; k < LRT_GAPS; k++) {
            uint32_t gap = stretch_gap(&sh->rng);
            bool on = sh->gap_kind[t][k] != GAP_NONE;
            if (sc->stretch[t])
                on = (sc->stretch[t] >> k) & 1;
            else if (sh->laned && len < longest)
                on = lrt_rng_below(&sh->rng, 3) != 0;
            else
                continue;
            sh->gap_kind[t][k] = on ? GAP_STRETCH : GAP_NONE;
            sh->gap[t][k] = on ? gap : 0;
        }
    }
}

/* The instances of round R's free run: LRT_RAMP_START, doubling every
 * round, up to --size. */
static size_t round_size(const lrt_shared *sh)
{
    size_t n = sh->layout.ninst;
    uint32_t doublings = sh->round - 1;
    if (doublings < 40 && ((size_t)LRT_RAMP_START << doublings) < n)
        n = (size_t)LRT_RAMP_START << doublings;
    return n;
}

/* The instances of a directed run of schedule K: four times more with
 * each run made of it, from LRT_RAMP_START, up to the round's size and
 * DIRECTED_RUN_MAX.  Where every schedule has its run each round or every
 * other round, that is the round's size (which doubles a round); where
 * there are more than a round takes, a schedule's first runs stay short
 * however late they come, so that a test with thousands (fig6: 2541)
 * tries each of them within its budget instead of spending the budget on
 * the first few hundred. */
static size_t schedule_size(const lrt_shared *sh, int k)
{
    size_t n = round_size(sh);
    uint32_t tries = sh->tries[k];
    if (tries < 20 && ((size_t)LRT_RAMP_START << (2 * tries)) < n)
        n = (size_t)LRT_RAMP_START << (2 * tries);
    return n < DIRECTED_RUN_MAX ? n : DIRECTED_RUN_MAX;
}

/* An interleaving's switches: LRT_SWITCH in each thread's gap slot at
 * the access its piece stops before (run_interleaved). */
static void arm_interleaving(lrt_shared *sh)
{
    const lrt_schedule *sc = sh->sched;
    memset(sh->switch_gap, 0, sizeof sh->switch_gap);
    for (int q = 0; q < sc->npieces; q++)
        if (sc->piece_end[q])
            sh->switch_gap[sc->piece_thread[q]][sc->piece_end[q]] = LRT_SWITCH;
}

/* Whether the free run that opens a round is stalled: while some state
 * still unseen has no interleaving, the odd rounds' up to STALL_RUN_MAX
 * instances (the even rounds' free runs stay plain, for the states whose
 * stores must show at once), and STALL_RUN_MAX instances of every round
 * after them: a stalled instance costs a few microseconds, and the
 * states it is for show on about half of them.  Never with more threads
 * than CPUs: a stalled store helps only a thread running beside its
 * peers, and their states are the laned schedules' (3.SB, 6.SB, W+RWC+
 * coi+po+po, 20 runs each: covered as early or earlier without). */
static void draw_stall(lrt_shared *sh)
{
    sh->stalled = sh->c->sync == LRT_SYNC_TIMEBASE && !sh->yield &&
                  (sh->round % 2 == 1 || round_size(sh) > STALL_RUN_MAX) && unseen_unaimed(sh, true);
    if (!sh->stalled)
        return;
    sh->stall_seed = lrt_rng_next(&sh->rng);
    /* the threads the schedules of states still unseen hold, where those
     * run unfolded (a folded schedule's holds stand for whole lanes) */
    sh->nstall_aims = 0;
    const lrt_config *c = sh->c;
    for (int k = 0; k < c->nschedules && sh->nstall_aims < STALL_AIMS; k++) {
        const lrt_schedule *sc = &c->schedules[k];
        if (sc->npieces || !sc->held || sc->folded || seen_allowed(sh, sc->target))
            continue;
        uint32_t mask = 0;
        for (int t = 0; t < sh->t->nthreads && t < 32; t++)
            mask |= (uint32_t)sc->hold[t] << t;
        sh->stall_aims[sh->nstall_aims++] = mask;
    }
}

/* The random numbers of instance I of a run, for thread T, from the run's
 * SEED: the same wherever they are drawn, so that every thread of a
 * stalled run draws the same stall set, and each instance draws anew. */
static lrt_rng instance_rng(uint64_t seed, size_t i, int t)
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
static uint32_t stall_mask(const lrt_shared *sh, size_t i)
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

/* The kind of the next run.  With --until-covered the runs go in rounds
 * of one size each: first a free run (all threads together, as the plain
 * run), so that the states that need only the threads side by side, most
 * of them, are dated as soon as a run of that size shows them; then, on
 * the timebase, the directed runs: schedules whose targets are still
 * unseen, round-robin across rounds: at least ROUND_SCHEDULES of them (or
 * as many as are pending), and more while their runs (schedule_size) fit
 * in the round's directed budget, ROUND_SCHEDULES runs of the round's
 * size or the free run's size, whichever is more.  With few schedules
 * pending, late in a run, each then has many runs a round, and the
 * directed runs get about as many instances as the free run: a held or
 * stretched state shows only in some of its schedule's runs (those with
 * enough hold lines, or the right gaps), so one run a round left
 * 4.SB+mfence+mfence+mfence+po's and W+RWC+coi+po+po's states to luck
 * while their schedules alone showed them on 1e-3 of instances; then, where every
 * thread has a CPU, a handshake run (the threads meet on each instance,
 * run_user: a fenced thread no longer falls a chunk behind an unfenced
 * one, and SB+mfence+po's all-zero state shows on a few percent of the
 * instances instead of a few in ten thousand); then one gapped
 * run while a state no schedule aims at is unseen (the states whose
 * threads must all run together, which gaps are for), or every fourth
 * round while only schedule targets are (a group of a schedule may need
 * gaps itself).  Sets sh->sched, sh->laned, sh->gapped and
 * sh->handshake. */
static void pick_run(lrt_shared *sh)
{
    const lrt_config *c = sh->c;
    sh->sched = NULL;
    sh->laned = false;
    sh->gapped = false;
    sh->handshake = false;
    sh->stalled = false;
    sh->lane_handshake = false;
    if (!c->nallowed)
        return;
    bool gaps = sh->t->gap_sweeps != NULL;
    for (;;) {
        if (!sh->in_round) {
            /* this run, free, opens the round */
            sh->round++;
            sh->in_round = true;
            size_t per_run = round_size(sh);
            int pending = pending_schedules(sh);
            uint64_t floor_runs = (uint64_t)ROUND_SCHEDULES * (per_run < DIRECTED_RUN_MAX ? per_run : DIRECTED_RUN_MAX);
            sh->round_floor = pending < ROUND_SCHEDULES ? pending : ROUND_SCHEDULES;
            sh->round_picked = 0;
            sh->round_budget = floor_runs > per_run ? floor_runs : per_run;
            sh->round_gapped = false;
            sh->round_handshake = false;
            sh->round_plain = false;
            draw_stall(sh);
            if (sh->stalled)
                return;
        }
        if (!sh->round_plain) {
            /* the round's plain free run (after its stalled one), unless
             * every state still unseen has an interleaving: its directed
             * runs show each on their first instance, so a test whose
             * states all do (MP, IRIW, fig6) is covered after as many
             * iterations as it has states */
            sh->round_plain = true;
            if (c->sync != LRT_SYNC_TIMEBASE || unseen_unaimed(sh, true))
                return;
        }
        if (c->sync == LRT_SYNC_TIMEBASE) {
            if (sh->round_budget > 0) {
                int k = next_schedule(sh);
                size_t size = k >= 0 ? schedule_size(sh, k) : 0;
                if (k >= 0 && (sh->round_picked < sh->round_floor || size <= sh->round_budget)) {
                    sh->next_sched = (k + 1) % c->nschedules;
                    sh->round_picked++;
                    sh->round_budget -= size < sh->round_budget ? size : sh->round_budget;
                    sh->tries[k]++;
                    sh->sched = &c->schedules[k];
                    sh->sched_size = size;
                    if (sh->sched->npieces)
                        arm_interleaving(sh);
                    else
                        pick_lanes(sh, gaps);
                    return;
                }
                sh->round_budget = 0;
            }
            if (!sh->round_handshake && !sh->yield && sh->flags) {
                sh->round_handshake = true;
                sh->handshake = true;
                return;
            }
            if (gaps && !sh->round_gapped && (unseen_unaimed(sh, false) || sh->round % 4 == 0)) {
                sh->round_gapped = true;
                sh->gapped = true;
                draw_gaps(sh);
                return;
            }
        }
        sh->in_round = false;       /* the round is over: the next opens */
    }
}

/* Test threads of one group on workers of different CPUs (worker w runs
 * on CPU w mod ncpus with --affinity incr), so that a group really runs
 * together; groups larger than the CPUs, or a placement that cannot be
 * made, keep the shuffled one. */
static void assign_apart(lrt_shared *sh)
{
    int n = sh->nworkers, lanes = sh->ncpus < n ? sh->ncpus : n;
    if (lanes < 1)
        return;
    bool used[LRT_MAX_THREADS] = {false};
    int assign[LRT_MAX_THREADS];
    for (int g = 0; g < sh->sched->ngroups; g++) {
        bool lane_taken[LRT_MAX_THREADS] = {false};
        /* laned: the lanes' first threads are the ones that run, so they
         * get the CPUs first; the others only lend their workers' slots */
        for (int pass = 0, t = 0; pass < 2; t = t + 1 < n ? t + 1 : (pass++, 0)) {
            bool runs = !sh->laned || sh->sched->pos[t] == 0;
            if (sh->sched->group[t] != g || runs != (pass == 0))
                continue;
            int pick = -1;
            for (int w = 0; w < n && pick < 0; w++)
                if (!used[w] && !lane_taken[w % lanes])
                    pick = w;
            for (int w = 0; w < n && pick < 0; w++)
                if (!used[w])
                    pick = w;
            if (pick < 0)
                return;
            used[pick] = true;
            lane_taken[pick % lanes] = true;
            assign[pick] = t;
        }
    }
    /* a schedule whose groups leave a thread out keeps the shuffle */
    for (int w = 0; w < n; w++)
        if (!used[w])
            return;
    for (int w = 0; w < n; w++)
        sh->assign[w] = assign[w];
}

/* The instances of the next run: all of them (--size), except when the
 * run goes on until every allowed state is seen.  Then the runs start at
 * LRT_RAMP_START instances and double every round (pick_run: the directed
 * runs and a free run of one size) up to --size: each run begins with
 * the threads meeting, so short runs show the states that need only that
 * within a few dozen iterations, and dated at the end of a short run, a
 * state's first-seen iteration is close to the real one; the long runs
 * that follow keep the iterations per second of the plain run for the
 * states that need many.  A schedule's runs grow fourfold with its own
 * runs rather than with the rounds (schedule_size), all within
 * DIRECTED_RUN_MAX, as are the gapped runs.  The last run is cut to what --max-iterations
 * leaves. */
static size_t run_size(const lrt_shared *sh)
{
    const lrt_config *c = sh->c;
    if (!c->nallowed)
        return sh->layout.ninst;
    size_t n = sh->sched ? sh->sched_size : round_size(sh);
    if (sh->gapped && n > DIRECTED_RUN_MAX)
        n = DIRECTED_RUN_MAX;
    if (sh->stalled && n > STALL_RUN_MAX)
        n = STALL_RUN_MAX;
    /* The last run stops at --max-iterations, not past it. */
    if (c->max_iterations && c->max_iterations - sh->iters_done < n)
        n = (size_t)(c->max_iterations - sh->iters_done);
    return n;
}

/* Serial: close the run that just ended and set up the next one. */
static void step_prepare(void *arg)
{
    lrt_shared *sh = arg;
    double now = lrt_now();
    if (sh->running) {
        sh->runs_done++;
        sh->iters_done += sh->ninst_run;
        sh->end = now;
        if (sh->sched)
            sh->directed_runs++;
        if (sh->laned) {
            sh->laned_runs++;
            if (!sh->lane_handshake)
                adapt_lane_period(sh);
        }
        if (sh->gapped)
            sh->gapped_runs++;
        if (sh->handshake || sh->lane_handshake)
            sh->handshake_runs++;
        if (sh->sched && sh->sched->npieces)
            sh->interleaved_runs++;
        if (sh->stalled)
            sh->stalled_runs++;
        if (sh->c->sync == LRT_SYNC_TIMEBASE && !sh->sched && !sh->gapped && !sh->handshake && !sh->stalled) {
            /* A free run (no period yet) kept no schedule to be aligned on;
             * a directed run keeps its groups apart on purpose, a gapped
             * or stalled one is slower than the pace by design, and a
             * handshake run keeps no clock. */
            uint64_t together = 0;
            if (sh->period) {
                together = count_aligned(sh);
                sh->aligned += together;
                sh->chunks_timed += sh->nchunks;
            }
            if (sh->c->period == 0)
                adapt_period(sh, together);
        }
        note_first_seen(sh);
    } else {
        sh->start = sh->end = now;
    }
    if (sh->failed || runs_over(sh) || lrt_stop_requested ||
        (sh->c->time_limit > 0 && now - sh->start >= sh->c->time_limit)) {
        sh->stop = true;
        sh->interrupted = lrt_stop_requested != 0 && !runs_over(sh);
        return;
    }
    sh->running = true;
    sh->run_id++;
    pick_run(sh);
    sh->ninst_run = run_size(sh);
    sh->nchunks = (sh->ninst_run + sh->tb_chunk - 1) / sh->tb_chunk;
    sh->meet_id += 64;              /* a directed run meets once per group */
    int n = sh->nworkers;
    for (int w = 0; w < n; w++)
        sh->assign[w] = w;
    lrt_rng_shuffle(&sh->rng, sh->assign, n);
    if (sh->sched && !sh->sched->npieces)
        assign_apart(sh);
    if (sh->c->affinity == LRT_AFF_RANDOM) {
        int perm[LRT_MAX_THREADS * 8];
        for (int i = 0; i < sh->ncpus; i++)
            perm[i] = sh->cpus[i];
        lrt_rng_shuffle(&sh->rng, perm, sh->ncpus);
        for (int w = 0; w < n; w++)
            sh->cpu_of[w] = perm[w % sh->ncpus];
    }
    /* Auto delays stay within half an instance's share of the period: a
     * chunk of instances starts together, and small offsets vary which
     * instructions meet without pulling the threads apart. */
    uint64_t range = sh->c->delay == LRT_DELAY_AUTO ? sh->period / sh->tb_chunk / 2 : sh->c->delay;
    for (int t = 0; t < n; t++)
        sh->delay[t] = range ? lrt_rng_below(&sh->rng, range + 1) : 0;
    lrt_layout_shuffle(&sh->layout, &sh->rng);
    /* Handshake runs place an instance's cells together: with one array
     * per location, the few instances of a short run share each
     * location's line, and SB+mfence+po's all-zero state fell from 7-12%
     * of the instances (packed, runs of 4 to 256) to 0.3-1%. */
    if (sh->c->layout == LRT_LAYOUT_ARRAY)
        sh->replaced = lrt_layout_place_as(&sh->layout, sh->handshake || sh->lane_handshake
                                                            ? LRT_LAYOUT_PACKED : LRT_LAYOUT_ARRAY);
    /* The array functions compute instance i's cells as the first
     * instance's plus i cells: only where that is where they are. */
    const lrt_test *t = sh->t;
    sh->array_cells = t->array_sweeps && t->array_count_range && t->nlocs > 0 &&
                      sh->layout.kind == LRT_LAYOUT_ARRAY && sh->layout.stride == (size_t)t->cell_size;
}

/* Worker W's share of the first S instances. */
static void slice(const lrt_shared *sh, size_t s, int w, size_t *lo, size_t *hi)
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

/* Worker W sweeps the instances as test thread T.  Every CHUNK instances
 * it says how far it got and waits for the others to get as far: a thread
 * that ran ahead would meet only instances its peers finished long ago,
 * and the weak outcomes need the threads on the same instances at the same
 * moment.  Every worker begins the same number of chunks per run, so the
 * counters never need resetting. */
static void run_loose(lrt_shared *sh, int w, int t)
{
    size_t n = sh->ninst_run;
    size_t chunk = sh->c->chunk ? (size_t)sh->c->chunk : n;
    uint64_t mine = atomic_load_explicit(&sh->progress[w].chunks, memory_order_relaxed);
    for (size_t lo = 0; lo < n; lo += chunk) {
        size_t hi = n - lo > chunk ? lo + chunk : n;
        if (sh->c->chunk) {
            atomic_store_explicit(&sh->progress[w].chunks, ++mine, memory_order_release);
            for (int k = 0; k < sh->nworkers; k++)
                if (k != w)
                    lrt_wait_reach(&sh->progress[k].chunks, mine, sh->yield);
        }
        sweep_range(sh, t, lo, hi);
    }
}

/* Timebase: the workers meet at the start of a run and agree on its
 * origin, the latest tick any of them arrived plus a margin.  Each
 * computes the same value from the others' slots, so no worker has to be
 * woken at a tick decided before it was running (waking from the run
 * barrier's futex takes longer than a whole run of some tests). */
/* The workers that meet: every one, or in a directed run those whose test
 * thread is in group G; ID tells one meeting from the next. */
static bool meets(const lrt_shared *sh, int k, int g)
{
    int t = sh->assign[k];
    return !sh->sched || (sh->sched->group[t] == g && (!sh->laned || sh->sched->pos[t] == 0));
}

/* Meeting M (MEET_START or MEET_LANE_PACE) of run ID; PACE (unless
 * NULL): this worker's pace in, the slowest of the workers that meet
 * out. */
static uint64_t meet_origin(lrt_shared *sh, int w, int g, uint32_t id, int m, uint64_t *pace)
{
    uint64_t t0 = lrt_ticks();
    meeting_slot *mine = &sh->progress[w].meet[m];
    atomic_store_explicit(&mine->arrived_at, t0, memory_order_relaxed);
    if (pace)
        atomic_store_explicit(&mine->pace, *pace, memory_order_relaxed);
    atomic_store_explicit(&mine->arrived_id, id, memory_order_release);
    for (int k = 0; k < sh->nworkers; k++) {
        if (k == w || !meets(sh, k, g))
            continue;
        meeting_slot *peer = &sh->progress[k].meet[m];
        lrt_wait_flag(&peer->arrived_id, id, sh->yield);
        uint64_t at = atomic_load_explicit(&peer->arrived_at, memory_order_relaxed);
        t0 = at > t0 ? at : t0;
        if (pace) {
            uint64_t p = atomic_load_explicit(&peer->pace, memory_order_relaxed);
            *pace = p > *pace ? p : *pace;
        }
    }
    return t0 + MEET_MARGIN;
}

static uint32_t clamp_ticks(uint64_t ticks)
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

/* Chunk c of the run starts at tick t0 + c*period + delay[t]; within a
 * chunk the thread sweeps its instances without waiting.  The threads
 * meet on every chunk without touching a shared line: any wait on memory
 * another thread writes would first drain that thread's store buffer,
 * which is where the weak outcomes come from.  A thread that is late
 * starts at once and catches up.  With no period yet (the first run of an
 * adaptive schedule) the threads start together and then run free, to
 * measure their pace. */
static void run_timebase(lrt_shared *sh, int w, int t, int g, uint32_t id)
{
    size_t n = sh->ninst_run, k = sh->tb_chunk;
    uint64_t period = sh->period;
    uint32_t *lateness = sh->lateness[t], *busy = sh->busy[t];
    uint64_t start = meet_origin(sh, w, g, id, MEET_START, NULL) + sh->delay[t];
    uint64_t when = start, began = start;
    if (!period)
        lrt_wait_ticks(start, sh->yield);
    for (size_t lo = 0, c = 0; lo < n; lo += k, c++, when += period) {
        began = chunk_start(sh, c, when, began, period, busy, lateness);
        sweep_range(sh, t, lo, n - lo > k ? lo + k : n);
    }
    uint64_t end = lrt_ticks();
    if (n)
        busy[(n - 1) / k] = clamp_ticks(end > began ? end - began : 0);
    sh->took[t] = end > start ? end - start : 0;
}

/* The fence after raising a flag (run_user).  On x86 an mfence, not the
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

/* One instance's meeting (run_user, run_lane): the thread whose turn it
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

/* A full fence between the threads of a lane: no load after it is served
 * from a store before it still in the store buffer.  On x86 a locked
 * instruction on the worker's own stack does that at a fraction of what
 * mfence costs (AMD's mfence waits for far more); a lane of five threads
 * makes five per instance, and the shorter a lane's instance, the less a
 * thread on another lane has to hold back to straddle it. */
static inline void lane_fence(void)
{
#if defined(__x86_64__)
    __asm__ __volatile__("lock orq $0, (%%rsp)" ::: "memory", "cc");
#else
    atomic_thread_fence(memory_order_seq_cst);
#endif
}

/* The switch a lane's worker has armed (run_lane): the lane's threads in
 * order (MEMBER, LEN), the place of the one to run in the middle of the
 * thread switched out, and the instance.  Per worker, since every lane of
 * a run may switch at once; one at a time, since a switch disarms it
 * before what it runs arms the next. */
typedef struct lane_switch {
    lrt_shared *sh;
    const int *member;
    int at, len;
    size_t instance;
    uint32_t after;                 /* spins once the switch returns */
} lane_switch;
static _Thread_local lane_switch armed_switch;
/* Where the last switch's chain ended: the lane's next place. */
static _Thread_local int switch_end;

static int lane_run(lrt_shared *sh, const int *member, int q, int len, size_t i);

/* Called by a gapped body at a gap of LRT_SWITCH: the armed place runs
 * its instance (and, when that thread is switched too, what its switch
 * runs), a full fence before it (the switched-out thread's stores drain,
 * as when a machine switches threads) and after it (its own drain before
 * the first goes on).  Once: disarmed as it runs, so a later gap slot
 * that stands for several accesses switches only once. */
void lrt_switch(void)
{
    if (lrt_interleave_switch())
        return;
    lane_switch sw = armed_switch;
    if (!sw.sh)
        return;
    armed_switch.sh = NULL;
    lane_fence();
    int end = lane_run(sw.sh, sw.member, sw.at, sw.len, sw.instance);
    lane_fence();
    lrt_spin(sw.after);
    switch_end = end;
}

/* Thread T's gaps on instance I of a gapped laned run: where the run's
 * draw (pick_lanes) gives it one, a gap of the same kind (plain_gap or
 * stretch_gap) drawn anew for each instance.  A state shows on a narrow
 * band of gaps, and with one draw a run its schedule's runs showed it in
 * bursts: most runs none, a few on many instances, so the first came
 * late.  Drawn per instance it shows about as often in all, and early. */
static void instance_gaps(const lrt_shared *sh, int t, size_t i, uint32_t *gap)
{
    lrt_rng r = instance_rng(sh->lane_seed, i, t);
    for (int k = 0; k < LRT_GAPS; k++)
        gap[k] = sh->gap_kind[t][k] == GAP_STRETCH ? stretch_gap(&r)
                 : sh->gap_kind[t][k] == GAP_PLAIN ? plain_gap(&r) : 0;
}

/* How long thread T's stores are held on instance I of a laned run
 * (stall_stores_long's extra rounds), drawn per instance as the gaps
 * are: none in half the instances, where a held store must show before
 * the other lane's next access or two (3.SB+mfence+pos+po); 1, 2, 4 or
 * 8 rounds in the others, where it must outlast the other lane's
 * threads, a fence or two each, and a stretch (a generated test,
 * W+RR+WR+WR+pos+mfence+po: P3's y=1 held while P0 and P2, a fence
 * between, store x twice and P2 fences and loads y). */
static unsigned hold_rounds(const lrt_shared *sh, int t, size_t i)
{
    lrt_rng r = instance_rng(sh->lane_seed ^ 0x5851f42d4c957f2dULL, i, t);
    if (lrt_rng_below(&r, 2) == 0)
        return 0;
    return 1u << lrt_rng_below(&r, 4);
}

/* The spins after thread T's switch returns on instance I, where the
 * schedule stretches T at the access it is switched out before (which
 * draw_switches leaves to this): a stretch_gap on half the instances,
 * drawn per instance as the lane gaps are, none on the others. */
static uint32_t switch_after(const lrt_shared *sh, int t, size_t i)
{
    const lrt_schedule *sc = sh->sched;
    if (!sc->split[t] || !((sc->stretch[t] >> sc->split[t]) & 1))
        return 0;
    lrt_rng r = instance_rng(sh->lane_seed ^ 0x2545f4914f6cdd1dULL, i, t);
    return lrt_rng_below(&r, 2) ? stretch_gap(&r) : 0;
}

/* Thread T's stores on instance I held back (run_lane says why): its
 * stall line and the run's hold lines stored to first.  Called where the
 * thread runs, also inside another thread's switch, which is where a
 * switched lane's held thread runs (before, it ran there unheld). */
static void hold_back(lrt_shared *sh, int t, size_t i)
{
    stall_stores_long(sh->stall[t].line, i, hold_rounds(sh, t, i));
    for (int h = 0; h < sh->hold_lines; h++)
        atomic_store_explicit(&sh->hold[h].v, i, memory_order_relaxed);
}

/* Place Q of a lane (threads MEMBER[0..LEN)) on instance I: its thread's
 * sweep; or, switched, its gapped body with the switch armed for the next
 * place.  Returns the place after what ran.  A body that never came to
 * the switch's gap (a branch past that access) leaves it armed: the next
 * place then runs after it, as on an unswitched lane, so that every
 * thread runs each instance once whatever path its code takes. */
static int lane_run(lrt_shared *sh, const int *member, int q, int len, size_t i)
{
    int u = member[q];
    if (sh->sched->hold[u])
        hold_back(sh, u, i);
    if (!sh->sched->split[u] || q + 1 == len || !sh->t->gap_sweeps) {
        if (sh->gapped) {
            uint32_t gap[LRT_GAPS];
            instance_gaps(sh, u, i, gap);
            sh->t->gap_sweeps[u](sh->layout.cell, sh->out[u], i, i + 1, gap);
        } else {
            sweep_range(sh, u, i, i + 1);
        }
        return q + 1;
    }
    armed_switch = (lane_switch){sh, member, q + 1, len, i, switch_after(sh, u, i)};
    sh->t->gap_sweeps[u](sh->layout.cell, sh->out[u], i, i + 1, sh->switch_gap[u]);
    if (!armed_switch.sh)
        return switch_end;
    armed_switch.sh = NULL;
    lane_fence();
    return lane_run(sh, member, q + 1, len, i);
}

/* Which places of a lane (threads MEMBER[0..LEN)) a fence follows, and
 * how many: all but the last and those the schedule says the next thread
 * needs none after (its "n"), where neither runs a switch nor ends one,
 * and the next loads no location the threads since the last fence may
 * store (LOADS and STORES of the test; without them, every place but the
 * last).  Two threads one after the
 * other on one CPU with no fence between run as one thread's code: the
 * later one's loads may go ahead of the earlier one's stores, as they may
 * on two CPUs, and no store reaches a load through the store buffer, which
 * on two CPUs none could; so each outcome is still one of the test's. */
static int lane_fences(const lrt_shared *sh, const int *member, int len, bool *fence_after)
{
    const lrt_schedule *sc = sh->sched;
    const lrt_test *t = sh->t;
    uint64_t pending = 0;
    int fences = 0;
    for (int q = 0; q + 1 < len; q++) {
        int u = member[q], v = member[q + 1];
        fence_after[q] = true;
        if (t->loads && t->stores) {
            pending |= t->stores[u];
            bool in_chain = sc->split[u] || sc->split[v] || (q > 0 && sc->split[member[q - 1]]);
            fence_after[q] = !sc->nofence[v] || in_chain || (t->loads[v] & pending);
        }
        if (fence_after[q]) {
            pending = 0;
            fences++;
        }
    }
    /* none after the last: the next instance's cells are others */
    if (len > 0)
        fence_after[len - 1] = false;
    return fences;
}

/* The most fences per instance any lane of group G makes (lane_fences),
 * which every lane of the group makes, so that they keep one pace. */
static int group_fences(const lrt_shared *sh, int g)
{
    const lrt_schedule *sc = sh->sched;
    int n = sh->t->nthreads, most = 0;
    for (int u = 0; u < n; u++) {
        if (sc->group[u] != g || sc->pos[u] != 0)
            continue;
        int member[LRT_MAX_THREADS], longest, len = lane_of(sc, n, u, member, &longest);
        bool fence_after[LRT_MAX_THREADS];
        int f = lane_fences(sh, member, len, fence_after);
        most = f > most ? f : most;
    }
    return most;
}

/* A laned run: worker W runs the lane that test thread T is first in, in
 * group G.  On each instance the lane's threads run in their order, each
 * followed by a full fence, so that the next begins once the stores of the
 * one before are visible, as after a switch between threads on one CPU.
 * A thread the schedule splits runs its gapped body with LRT_SWITCH at
 * the split, and the lane's next thread runs inside it (lrt_switch), with
 * what its own switch runs, if it has one.
 * Every lane of the group makes as many fences per instance as the one
 * with the most (a fence costs more than a thread's few accesses), so that the
 * lanes keep the same pace, and chunks start on the clock as in
 * run_timebase, with the laned runs' own period. */
static void run_lane(lrt_shared *sh, int w, int t, int g, uint32_t id)
{
    const lrt_schedule *sc = sh->sched;
    int member[LRT_MAX_THREADS], longest, len = lane_of(sc, sh->t->nthreads, t, member, &longest);
    size_t n = sh->ninst_run, k = sh->tb_chunk;
    uint32_t *busy = sh->busy[t];
    uint64_t when = meet_origin(sh, w, g, id, MEET_START, NULL) + sh->delay[t], began = when;
    /* A held thread (the schedule's hold, or in a gapped laned run the
     * first of a shorter lane, which has to straddle the longer ones) has
     * its stores held back: before it runs each instance, its worker
     * stores to its stall line, just flushed (stall_stores), and to lines
     * the lanes with no held thread keep reading (1 to 48 of them, drawn
     * per run), so the stores miss and the test's stores queue behind
     * them in the store buffer while its loads go ahead
     * (SB+mfence+po's all-zero state: P1's store must stay invisible
     * until P0's fenced load; 4.SB+mfences': P3's, while P0, P1 and P2 run
     * one after another on the other CPU).  The flushed line's miss to
     * memory is what holds longest: W+RWC+coi+po+po's held state showed
     * on 11-16% of its schedule's instances with it, 0.5-2% with the hold
     * lines alone (2-vCPU AMD EPYC).  The lines are the runtime's own: the
     * test's code and cells are untouched, so every outcome is still one
     * the test can produce. */
    bool short_held = sh->gapped && len < longest, holds = short_held;
    for (int q = 0; q < len; q++)
        holds |= sc->hold[member[q]];
    bool fence_after[LRT_MAX_THREADS];
    int pad = group_fences(sh, g) - lane_fences(sh, member, len, fence_after);
    /* Lanes that meet on every instance (lane_handshake: each lane has a
     * CPU): lane i mod LANES raises the instance's flag, the others wait
     * for it, as in run_user; else chunks start on the clock. */
    int lanes, rank = lane_rank(sc, sh->t->nthreads, g, sc->lane[t], &lanes);
    bool meet = sh->lane_handshake;
    /* On the clock, the period must not be shorter than the slowest
     * lane's pace: a lane late for its chunk starts at once, and lanes
     * that are always late drift apart until they no longer run the same
     * instances together.  A laned run's pace depends on its gaps (1 to
     * 255 spins each) and hold lines, drawn per run, so the last laned
     * run's pace (lane_period) is no guide: a run long enough times its
     * first LANE_CALIBRATE chunks run free, the lanes meet once more and
     * take twice the slowest lane's pace from there on (the lanes run
     * apart while they time, and slower side by side).  W+RWC+coi+po+po's
     * held state showed on 54 of 200k instances at a quarter of its
     * lanes' pace, on 1898-4635 at one to ten times. */
    size_t calibrated_at = !meet && n > (size_t)(LANE_CALIBRATE + 1) * k ? LANE_CALIBRATE : SIZE_MAX;
    uint64_t period = calibrated_at == SIZE_MAX ? sh->lane_period : 0;
    for (size_t lo = 0, c = 0; lo < n; lo += k, c++, when += period) {
        if (c == calibrated_at) {
            uint64_t pace = lrt_ticks() - began;
            busy[c - 1] = clamp_ticks(pace);
            for (size_t j = 0; j + 1 < c; j++)
                pace = busy[j] > pace ? busy[j] : pace;
            when = meet_origin(sh, w, g, id, MEET_LANE_PACE, &pace) + sh->delay[t];
            period = 2 * pace;
            lrt_wait_ticks(when, sh->yield);
            began = when;
        } else if (!meet) {
            began = chunk_start(sh, c, when, began, period, busy, NULL);
        }
        size_t hi = n - lo > k ? lo + k : n;
        for (size_t i = lo; i < hi; i++) {
            /* no yield: every lane has a CPU, and the wait gives up by
             * itself on a peer that was descheduled */
            if (meet)
                meet_instance(sh, i, i % (size_t)lanes == (size_t)rank, id, false);
            for (int h = 0; !holds && h < sh->hold_lines; h++)
                (void)atomic_load_explicit(&sh->hold[h].v, memory_order_relaxed);
            for (int q = 0; q < len; q++) {
                int u = member[q];
                if (!sc->hold[u] && short_held && q == 0)
                    hold_back(sh, u, i);
                q = lane_run(sh, member, q, len, i) - 1;
                if (fence_after[q])
                    lane_fence();
            }
            for (int f = 0; f < pad; f++)
                lane_fence();
        }
    }
}

/* A stalled run: instance i starts on tick STALL_PERIOD * i from the
 * meeting for every thread, and a thread whose bit is set in the
 * instance's stall_mask makes its stores wait behind a store to its stall
 * line, so that they show only after the others have loaded.  Each
 * instance on the clock: back to back, a stalled thread fell a miss
 * behind an unstalled one on every instance, and only a run's first
 * instance had its threads together.  A period of 4000 ticks outlasts a
 * miss to memory (about 300) many times over and costs a run of 64
 * instances a tenth of a millisecond. */
enum { STALL_PERIOD = 4000 };

static void run_stalled(lrt_shared *sh, int w, int t)
{
    volatile unsigned char *line = sh->stall[t].line;
    *line = 0;                      /* mapped and in the TLB before the start */
    uint64_t start = meet_origin(sh, w, 0, sh->meet_id, MEET_START, NULL);
    for (size_t i = 0; i < sh->ninst_run; i++) {
        lrt_wait_ticks(start + STALL_PERIOD * (uint64_t)i, sh->yield);
        if (stall_mask(sh, i) >> t & 1)
            stall_stores(line, i);
        sweep_range(sh, t, i, i + 1);
    }
}

/* One flag per instance: thread i mod N raises it, then fences so that
 * it does not run ahead of the threads still seeing the flag, and the
 * others wait for it.  Instances go USER_STRIDE apart (every stride-th,
 * then the next offset), so consecutive instances sit on different cache
 * lines and one instance's line traffic does not spill into the next.
 * On SB the two together turn a few thousand witnesses a second into
 * millions (bench/RESULTS.md). */
static void run_user(lrt_shared *sh, int t)
{
    lrt_thread_fn fn = sh->t->threads[t];
    size_t nout = (size_t)sh->t->nout[t];
    int64_t *out = sh->out[t];
    size_t n = (size_t)sh->t->nthreads;
    uint32_t id = sh->meet_id;      /* this run's, as the lanes' flags are */
    size_t ninst = sh->ninst_run;
    size_t stride = ninst < USER_STRIDE ? 1 : USER_STRIDE;
    for (size_t j = 0; j < stride; j++)
        for (size_t i = j; i < ninst; i += stride) {
            meet_instance(sh, i, i % n == (size_t)t, id, sh->yield);
            fn(lrt_layout_cells(&sh->layout, i), out + i * nout);
        }
}

/* Keys are a handful of values: a plain loop beats a memcmp call. */
static inline bool same_key(const int64_t *a, const int64_t *b, int n)
{
    for (int k = 0; k < n; k++)
        if (a[k] != b[k])
            return false;
    return true;
}

/* Consecutive instances mostly end the same way, so equal outcomes in a
 * row are added to the table as one count.  A generated program does this
 * itself (count_range, with its outcome width a constant, resetting each
 * instance as it goes when RESET_TOO); hand-written tests get this loop. */
static void count_slice(lrt_shared *sh, int w, bool reset_too)
{
    const lrt_test *t = sh->t;
    size_t lo, hi;
    slice(sh, sh->ninst_run, w, &lo, &hi);
    lrt_tally tally = {&sh->hist[w], false};
    if (sh->array_cells) {
        t->array_count_range(sh->layout.cell, sh->out, lo, hi, reset_too, &tally);
    } else if (t->count_range) {
        t->count_range(sh->layout.cell, sh->out, lo, hi, reset_too, &tally);
    } else {
        int64_t *key = sh->keys + (size_t)w * 2 * (size_t)t->nobs, *vals = key + t->nobs;
        int64_t *outs[LRT_MAX_THREADS];
        uint64_t run = 0;
        for (size_t i = lo; i < hi; i++) {
            for (int k = 0; k < t->nthreads; k++)
                outs[k] = sh->out[k] + i * (size_t)t->nout[k];
            t->collect(lrt_layout_cells(&sh->layout, i), outs, vals);
            if (reset_too)
                t->reset(lrt_layout_cells(&sh->layout, i));
            if (run && same_key(vals, key, t->nobs)) {
                run++;
                continue;
            }
            if (run)
                lrt_tally_add(&tally, key, run);
            memcpy(key, vals, (size_t)t->nobs * sizeof *key);
            run = 1;
        }
        if (run)
            lrt_tally_add(&tally, key, run);
    }
    if (tally.failed)
        sh->failed = true;
}

/* When counting resets, the first run resets every instance, also those
 * only later (longer) runs reach, and so does a run whose cells moved
 * (sh->replaced); otherwise each run resets its own. */
static void reset_instances(const lrt_shared *sh, size_t lo, size_t hi)
{
    if (lo == hi)
        return;
    if (sh->t->reset_range)
        sh->t->reset_range(sh->layout.cell, lo, hi);
    else
        for (size_t i = lo; i < hi; i++)
            sh->t->reset(lrt_layout_cells(&sh->layout, i));
}

static void reset_slice(lrt_shared *sh, int w)
{
    size_t lo, hi;
    slice(sh, sh->reset_when_counting ? sh->layout.ninst : sh->ninst_run, w, &lo, &hi);
    reset_instances(sh, lo, hi);
}

/* An interleaved run: worker 0 runs every thread of each instance in the
 * schedule's interleaving (lrt_interleave.c), the others wait at the
 * barrier.  Without gapped bodies (hand-written tests) nothing can switch
 * and the threads run whole, in the order their pieces first name them. */
typedef struct interleaved_instance {
    lrt_shared *sh;
    size_t i;
} interleaved_instance;

static void interleaved_body(int u, void *arg)
{
    const interleaved_instance *at = arg;
    lrt_shared *sh = at->sh;
    if (sh->t->gap_sweeps)
        sh->t->gap_sweeps[u](sh->layout.cell, sh->out[u], at->i, at->i + 1, sh->switch_gap[u]);
    else
        sweep_range(sh, u, at->i, at->i + 1);
}

static void run_interleaved(lrt_shared *sh)
{
    const lrt_schedule *sc = sh->sched;
    for (size_t i = 0; i < sh->ninst_run; i++) {
        interleaved_instance at = {sh, i};
        if (!lrt_interleave(sh->interleaver, sc->piece_thread, sc->npieces, interleaved_body, &at)) {
            sh->failed = true;
            return;
        }
    }
}

/* Before the first run every worker runs its thread once on instance 0,
 * as the run will, and the instance is reset again.  Cold, a thread's
 * first instance waits on page faults and misses in its code and data
 * for microseconds, its peers' are long over, and the first run (one
 * instance with --until-covered) could show nothing that needs the
 * threads together: with every store stalled, SB's weak state showed on
 * that instance in 0 to 2 runs of 8 cold, in 8 of 8 warm (2-vCPU AMD
 * EPYC).  The warm-up's outcome is never counted. */
static void warm_up(lrt_shared *sh, int w)
{
    int t = sh->assign[w];
    size_t lo, hi;
    lrt_barrier_wait(&sh->bar, NULL, NULL);
    if (t >= 0 && t < sh->t->nthreads && sh->ninst_run)
        sweep_range(sh, t, 0, 1);
    lrt_barrier_wait(&sh->bar, NULL, NULL);
    slice(sh, 1, w, &lo, &hi);
    reset_instances(sh, lo, hi);
}

static void worker_loop(lrt_shared *sh, int w)
{
    if (sh->c->affinity == LRT_AFF_INCR)
        lrt_pin_self(sh->cpus[w % sh->ncpus], sh->cpus, sh->ncpus);
    for (;;) {
        lrt_barrier_wait(&sh->bar, step_prepare, sh);
        if (sh->stop)
            return;
        if (sh->c->affinity == LRT_AFF_RANDOM)
            lrt_pin_self(sh->cpu_of[w], sh->cpus, sh->ncpus);
        if (!sh->reset_when_counting || sh->run_id == 1 || sh->replaced)
            reset_slice(sh, w);
        if (sh->run_id == 1)
            warm_up(sh, w);
        lrt_barrier_wait(&sh->bar, NULL, NULL);
        int t = sh->assign[w];
        switch (sh->handshake ? LRT_SYNC_USER : sh->c->sync) {
        case LRT_SYNC_LOOSE: run_loose(sh, w, t); break;
        case LRT_SYNC_TIMEBASE:
            if (sh->stalled) {
                run_stalled(sh, w, t);
                break;
            }
            if (!sh->sched) {
                run_timebase(sh, w, t, 0, sh->meet_id);
                break;
            }
            if (sh->sched->npieces) {
                /* an interleaving: one worker runs every thread, whatever
                 * the schedule's groups say */
                if (w == 0)
                    run_interleaved(sh);
                lrt_barrier_wait(&sh->bar, NULL, NULL);
                break;
            }
            /* directed: the groups one after the other, over every instance */
            for (int g = 0; g < sh->sched->ngroups; g++) {
                if (sh->sched->group[t] == g && !sh->laned)
                    run_timebase(sh, w, t, g, sh->meet_id + (uint32_t)g);
                else if (sh->sched->group[t] == g && sh->sched->pos[t] == 0)
                    run_lane(sh, w, t, g, sh->meet_id + (uint32_t)g);
                lrt_barrier_wait(&sh->bar, NULL, NULL);
            }
            break;
        case LRT_SYNC_USER: run_user(sh, t); break;
        }
        lrt_barrier_wait(&sh->bar, NULL, NULL);
        count_slice(sh, w, sh->reset_when_counting);
    }
}

static void *worker_main(void *p)
{
    worker_arg *a = p;
    worker_loop(a->sh, a->w);
    return NULL;
}

static void shared_free(lrt_shared *sh)
{
    lrt_layout_free(&sh->layout);
    for (int k = 0; k < LRT_MAX_THREADS; k++) {
        free(sh->out[k]);
        free(sh->lateness[k]);
        free(sh->busy[k]);
        lrt_hist_free(&sh->hist[k]);
    }
    lrt_hist_free(&sh->first);
    free(sh->flags);
    free(sh->tries);
    lrt_interleaver_free(sh->interleaver);
    free(sh->keys);
}

static bool shared_init(lrt_shared *sh, const lrt_test *t, const lrt_config *c)
{
    memset(sh, 0, sizeof *sh);
    for (int w = 0; w < LRT_MAX_THREADS; w++)
        atomic_init(&sh->progress[w].chunks, 0);
    sh->t = t;
    sh->c = c;
    sh->nworkers = t->nthreads;
    sh->ncpus = lrt_cpu_list(sh->cpus, (int)(sizeof sh->cpus / sizeof *sh->cpus));
    if (c->cpus > 0 && c->cpus < sh->ncpus)
        sh->ncpus = c->cpus;
    sh->yield = t->nthreads > sh->ncpus;
    lrt_rng_seed(&sh->rng, c->seed);
    sh->period = c->period;
    /* A timebase chunk of 0 means one chunk per run: the threads meet once. */
    sh->tb_chunk = c->chunk && c->chunk < c->size ? (size_t)c->chunk : (size_t)c->size;
    if (sh->tb_chunk == 0)
        sh->tb_chunk = 1;
    sh->nchunks = ((size_t)c->size + sh->tb_chunk - 1) / sh->tb_chunk;
    lrt_barrier_init(&sh->bar, (uint32_t)t->nthreads, sh->yield);
    for (int w = 0; w < LRT_MAX_THREADS; w++)
        sh->cpu_of[w] = -1;
    if (!lrt_layout_init(&sh->layout, c->layout, (size_t)c->size, t->nlocs, t->cell_size))
        return false;
    for (int k = 0; k < t->nthreads; k++) {
        size_t n = (size_t)c->size * (size_t)t->nout[k];
        /* Each thread's outputs on their own lines: no false sharing
         * between threads that write their results. */
        size_t bytes = ((n ? n : 1) * sizeof(int64_t) + LRT_LINE - 1) / LRT_LINE * LRT_LINE;
        sh->out[k] = aligned_alloc(LRT_LINE, bytes);
        if (!sh->out[k])
            return false;
        memset(sh->out[k], 0, bytes);
    }
    for (int w = 0; w < t->nthreads; w++)
        if (!lrt_hist_init(&sh->hist[w], t->nobs))
            return false;
    if (!lrt_hist_init(&sh->first, t->nobs))
        return false;
    sh->keys = malloc((size_t)t->nthreads * 2 * (size_t)(t->nobs ? t->nobs : 1) * sizeof *sh->keys);
    sh->reset_when_counting = c->layout != LRT_LAYOUT_SHUFFLE;
    if (!sh->keys)
        return false;
    if (c->sync == LRT_SYNC_TIMEBASE)
        for (int k = 0; k < t->nthreads; k++) {
            sh->lateness[k] = calloc(sh->nchunks ? sh->nchunks : 1, sizeof *sh->lateness[k]);
            sh->busy[k] = calloc(sh->nchunks ? sh->nchunks : 1, sizeof *sh->busy[k]);
            if (!sh->lateness[k] || !sh->busy[k])
                return false;
        }
    sh->tries = calloc(c->nschedules > 0 ? (size_t)c->nschedules : 1, sizeof *sh->tries);
    if (!sh->tries)
        return false;
    for (int k = 0; k < c->nschedules && !sh->interleaver; k++)
        if (c->schedules[k].npieces && !(sh->interleaver = lrt_interleaver_new(t->nthreads)))
            return false;
    /* flags: user sync, and the handshake runs of --until-covered */
    if (c->sync == LRT_SYNC_USER || (c->nallowed && c->sync == LRT_SYNC_TIMEBASE)) {
        sh->flags = calloc(c->size ? (size_t)c->size : 1, sizeof *sh->flags);
        if (!sh->flags)
            return false;
    }
    return true;
}

int lrt_run(const lrt_test *t, const lrt_config *c, lrt_result *r)
{
    memset(r, 0, sizeof *r);
    if (t->nthreads < 1 || t->nthreads > LRT_MAX_THREADS || t->nobs > 256)
        return 3;
    /* Aligned so that each progress counter has a cache line to itself. */
    lrt_shared *sh = aligned_alloc(LRT_LINE, (sizeof *sh + LRT_LINE - 1) / LRT_LINE * LRT_LINE);
    if (!sh)
        return 3;
    if (!shared_init(sh, t, c)) {
        shared_free(sh);
        free(sh);
        return 3;
    }
    /* The calling thread becomes worker 0 and is pinned; it gets back the
     * CPUs it had, so that a later run in the same process sees them all. */
    int caller_cpus[LRT_MAX_THREADS * 8];
    int ncaller_cpus = lrt_cpu_list(caller_cpus, (int)(sizeof caller_cpus / sizeof *caller_cpus));
    pthread_t tid[LRT_MAX_THREADS];
    worker_arg args[LRT_MAX_THREADS];
    int started = 1;
    for (int w = 1; w < t->nthreads; w++) {
        args[w].sh = sh;
        args[w].w = w;
        if (pthread_create(&tid[w], NULL, worker_main, &args[w]) != 0)
            break;
        started++;
    }
    int status = 0;
    if (started == t->nthreads) {
        worker_loop(sh, 0);
    } else {
        /* Not every worker exists: the barrier would never open.  Make the
         * started ones stop at their first barrier instead. */
        sh->failed = true;
        sh->bar.n = (uint32_t)started;
        worker_loop(sh, 0);
        status = 3;
    }
    for (int w = 1; w < started; w++)
        pthread_join(tid[w], NULL);
    lrt_pin_self(-1, caller_cpus, ncaller_cpus);
    if (status == 0 && !lrt_hist_init(&r->hist, t->nobs))
        status = 3;
    for (int w = 0; status == 0 && w < t->nthreads; w++)
        if (!lrt_hist_merge(&r->hist, &sh->hist[w]))
            status = 3;
    if (sh->failed)
        status = 3;
    if (status == 0) {
        r->iterations = lrt_hist_total(&r->hist);
        r->runs_done = sh->runs_done;
        r->elapsed = sh->end - sh->start;
        r->interrupted = sh->interrupted;
        r->cpus = sh->ncpus;
        r->oversubscribed = sh->yield;
        r->period = sh->period;
        r->aligned = sh->chunks_timed ? (double)sh->aligned / (double)sh->chunks_timed : 0;
        r->first = sh->first;       /* handed over: shared_free must not free it */
        memset(&sh->first, 0, sizeof sh->first);
        r->covered = sh->covered;
        r->directed_runs = sh->directed_runs;
        r->laned_runs = sh->laned_runs;
        r->gapped_runs = sh->gapped_runs;
        r->handshake_runs = sh->handshake_runs;
        r->interleaved_runs = sh->interleaved_runs;
        r->stalled_runs = sh->stalled_runs;
    } else {
        lrt_hist_free(&r->hist);
    }
    shared_free(sh);
    free(sh);
    return status;
}
