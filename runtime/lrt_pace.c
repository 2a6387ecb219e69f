/* Pacing (lrt_drive.h): the chunk sizes the sync modes get, and, run by
 * run, the timebase period: how many of the last run's chunks the
 * threads began together, and the period and a laned run's pace that
 * follow from it. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <stdlib.h>
#include <string.h>
#include "lrt_drive.h"

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
uint64_t lrt_count_aligned(const lrt_shared *sh)
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
void lrt_adapt_period(lrt_shared *sh, uint64_t together)
{
    uint64_t k = sh->tb_chunk, n = sh->nchunks, p = sh->period;
    /* The short first runs of --until-covered (lrt_run_size) are one chunk or
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
void lrt_adapt_lane_period(lrt_shared *sh)
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
