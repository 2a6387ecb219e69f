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
#include "lrt_drive.h"

volatile sig_atomic_t lrt_stop_requested;

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
                lrt_adapt_lane_period(sh);
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
                together = lrt_count_aligned(sh);
                sh->aligned += together;
                sh->chunks_timed += sh->nchunks;
            }
            if (sh->c->period == 0)
                lrt_adapt_period(sh, together);
        }
        lrt_note_first_seen(sh);
    } else {
        sh->start = sh->end = now;
    }
    if (sh->failed || lrt_runs_over(sh) || lrt_stop_requested ||
        (sh->c->time_limit > 0 && now - sh->start >= sh->c->time_limit)) {
        sh->stop = true;
        sh->interrupted = lrt_stop_requested != 0 && !lrt_runs_over(sh);
        return;
    }
    sh->running = true;
    sh->run_id++;
    lrt_pick_run(sh);
    sh->ninst_run = lrt_run_size(sh);
    sh->nchunks = (sh->ninst_run + sh->tb_chunk - 1) / sh->tb_chunk;
    sh->meet_id += 64;              /* a directed run meets once per group */
    int n = sh->nworkers;
    for (int w = 0; w < n; w++)
        sh->assign[w] = w;
    lrt_rng_shuffle(&sh->rng, sh->assign, n);
    if (sh->sched && !sh->sched->npieces)
        lrt_assign_apart(sh);
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
    lrt_reset_instances(sh, lo, hi);
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
            lrt_reset_slice(sh, w);
        if (sh->run_id == 1)
            warm_up(sh, w);
        lrt_barrier_wait(&sh->bar, NULL, NULL);
        int t = sh->assign[w];
        switch (sh->handshake ? LRT_SYNC_USER : sh->c->sync) {
        case LRT_SYNC_LOOSE: lrt_run_loose(sh, w, t); break;
        case LRT_SYNC_TIMEBASE:
            if (sh->stalled) {
                lrt_run_stalled(sh, w, t);
                break;
            }
            if (!sh->sched) {
                lrt_run_timebase(sh, w, t, 0, sh->meet_id);
                break;
            }
            if (sh->sched->npieces) {
                /* an interleaving: one worker runs every thread, whatever
                 * the schedule's groups say */
                if (w == 0)
                    lrt_run_interleaved(sh);
                lrt_barrier_wait(&sh->bar, NULL, NULL);
                break;
            }
            /* directed: the groups one after the other, over every instance */
            for (int g = 0; g < sh->sched->ngroups; g++) {
                if (sh->sched->group[t] == g && !sh->laned)
                    lrt_run_timebase(sh, w, t, g, sh->meet_id + (uint32_t)g);
                else if (sh->sched->group[t] == g && sh->sched->pos[t] == 0)
                    lrt_run_lane(sh, w, t, g, sh->meet_id + (uint32_t)g);
                lrt_barrier_wait(&sh->bar, NULL, NULL);
            }
            break;
        case LRT_SYNC_USER: lrt_run_user(sh, t); break;
        }
        lrt_barrier_wait(&sh->bar, NULL, NULL);
        lrt_count_slice(sh, w, sh->reset_when_counting);
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
