/* Lanes (lrt_drive.h): a directed run whose groups are folded onto fewer
 * lanes than threads, the threads of a lane one after the other on each
 * instance, a full fence between, on one worker; and lrt_switch, where a
 * lane switches threads in the middle of one. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <stdlib.h>
#include <string.h>
#include "lrt_drive.h"

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

/* The switch a lane's worker has armed (lrt_run_lane): the lane's threads in
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

/* Thread T's stores on instance I held back (lrt_run_lane says why): its
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
        int member[LRT_MAX_THREADS], longest, len = lrt_lane_of(sc, n, u, member, &longest);
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
 * lrt_run_timebase, with the laned runs' own period. */
void lrt_run_lane(lrt_shared *sh, int w, int t, int g, uint32_t id)
{
    const lrt_schedule *sc = sh->sched;
    int member[LRT_MAX_THREADS], longest, len = lrt_lane_of(sc, sh->t->nthreads, t, member, &longest);
    size_t n = sh->ninst_run, k = sh->tb_chunk;
    uint32_t *busy = sh->busy[t];
    uint64_t when = lrt_meet_origin(sh, w, g, id, MEET_START, NULL) + sh->delay[t], began = when;
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
     * for it, as in lrt_run_user; else chunks start on the clock. */
    int lanes, rank = lrt_lane_rank(sc, sh->t->nthreads, g, sc->lane[t], &lanes);
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
            when = lrt_meet_origin(sh, w, g, id, MEET_LANE_PACE, &pace) + sh->delay[t];
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
