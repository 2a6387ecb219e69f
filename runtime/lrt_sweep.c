/* Sweeps and counting (lrt_drive.h): what each worker does in a run's
 * phases for the sync modes (loose, timebase, stalled, user, an
 * interleaving on one worker), then counting its slice of the instances
 * into its table and resetting them. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <stdlib.h>
#include <string.h>
#include "lrt_drive.h"

/* Worker W sweeps the instances as test thread T.  Every CHUNK instances
 * it says how far it got and waits for the others to get as far: a thread
 * that ran ahead would meet only instances its peers finished long ago,
 * and the weak outcomes need the threads on the same instances at the same
 * moment.  Every worker begins the same number of chunks per run, so the
 * counters never need resetting. */
void lrt_run_loose(lrt_shared *sh, int w, int t)
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

/* Meeting M (MEET_START or MEET_LANE_PACE) of run ID; PACE (unless
 * NULL): this worker's pace in, the slowest of the workers that meet
 * out. */
uint64_t lrt_meet_origin(lrt_shared *sh, int w, int g, uint32_t id, int m, uint64_t *pace)
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

/* Chunk c of the run starts at tick t0 + c*period + delay[t]; within a
 * chunk the thread sweeps its instances without waiting.  The threads
 * meet on every chunk without touching a shared line: any wait on memory
 * another thread writes would first drain that thread's store buffer,
 * which is where the weak outcomes come from.  A thread that is late
 * starts at once and catches up.  With no period yet (the first run of an
 * adaptive schedule) the threads start together and then run free, to
 * measure their pace. */
void lrt_run_timebase(lrt_shared *sh, int w, int t, int g, uint32_t id)
{
    size_t n = sh->ninst_run, k = sh->tb_chunk;
    uint64_t period = sh->period;
    uint32_t *lateness = sh->lateness[t], *busy = sh->busy[t];
    uint64_t start = lrt_meet_origin(sh, w, g, id, MEET_START, NULL) + sh->delay[t];
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

void lrt_run_stalled(lrt_shared *sh, int w, int t)
{
    volatile unsigned char *line = sh->stall[t].line;
    *line = 0;                      /* mapped and in the TLB before the start */
    uint64_t start = lrt_meet_origin(sh, w, 0, sh->meet_id, MEET_START, NULL);
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
void lrt_run_user(lrt_shared *sh, int t)
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
void lrt_count_slice(lrt_shared *sh, int w, bool reset_too)
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
void lrt_reset_instances(const lrt_shared *sh, size_t lo, size_t hi)
{
    if (lo == hi)
        return;
    if (sh->t->reset_range)
        sh->t->reset_range(sh->layout.cell, lo, hi);
    else
        for (size_t i = lo; i < hi; i++)
            sh->t->reset(lrt_layout_cells(&sh->layout, i));
}

void lrt_reset_slice(lrt_shared *sh, int w)
{
    size_t lo, hi;
    slice(sh, sh->reset_when_counting ? sh->layout.ninst : sh->ninst_run, w, &lo, &hi);
    lrt_reset_instances(sh, lo, hi);
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

void lrt_run_interleaved(lrt_shared *sh)
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
