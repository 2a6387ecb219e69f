/* Rounds and schedules (lrt_drive.h): with --until-covered the runs go
 * in rounds of directed runs (a schedule, its gaps, stalls and lanes),
 * then a free one; this file picks the next run, draws what it needs,
 * and sizes it. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <stdlib.h>
#include <string.h>
#include "lrt_drive.h"

static const unsigned char hold_counts[] = {1, 2, 4, 8, 16, 24, 32, 48};

/* After a run: the outcomes seen for the first time get the iterations
 * done so far.  The workers' tables hold every run's outcomes and few
 * distinct ones, so a scan per run costs next to nothing. */
void lrt_note_first_seen(lrt_shared *sh)
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
bool lrt_runs_over(const lrt_shared *sh)
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
int lrt_lane_of(const lrt_schedule *sc, int n, int t, int *member, int *longest)
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
int lrt_lane_rank(const lrt_schedule *sc, int n, int g, int lane, int *lanes)
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
 * lanes, which lanes that meet on every instance need (lrt_run_lane). */
static bool lanes_fit(const lrt_shared *sh)
{
    for (int g = 0; g < sh->sched->ngroups; g++) {
        int lanes;
        (void)lrt_lane_rank(sh->sched, sh->t->nthreads, g, 0, &lanes);
        if (lanes > sh->ncpus)
            return false;
    }
    return true;
}

/* Whether this schedule run folds its groups onto lanes: always when a
 * group has more threads than there are CPUs (they could not all run at
 * once), else every other round, since a lane also orders its threads
 * exactly where running them side by side leaves it to luck.  Where
 * every lane has a CPU, the lanes meet on every instance (lrt_run_lane) in
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
        int longest, len = lrt_lane_of(sc, n, t, NULL, &longest);
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
 * the access its piece stops before (lrt_run_interleaved). */
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
 * lrt_run_user: a fenced thread no longer falls a chunk behind an unfenced
 * one, and SB+mfence+po's all-zero state shows on a few percent of the
 * instances instead of a few in ten thousand); then one gapped
 * run while a state no schedule aims at is unseen (the states whose
 * threads must all run together, which gaps are for), or every fourth
 * round while only schedule targets are (a group of a schedule may need
 * gaps itself).  Sets sh->sched, sh->laned, sh->gapped and
 * sh->handshake. */
void lrt_pick_run(lrt_shared *sh)
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
void lrt_assign_apart(lrt_shared *sh)
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
 * LRT_RAMP_START instances and double every round (lrt_pick_run: the directed
 * runs and a free run of one size) up to --size: each run begins with
 * the threads meeting, so short runs show the states that need only that
 * within a few dozen iterations, and dated at the end of a short run, a
 * state's first-seen iteration is close to the real one; the long runs
 * that follow keep the iterations per second of the plain run for the
 * states that need many.  A schedule's runs grow fourfold with its own
 * runs rather than with the rounds (schedule_size), all within
 * DIRECTED_RUN_MAX, as are the gapped runs.  The last run is cut to what --max-iterations
 * leaves. */
size_t lrt_run_size(const lrt_shared *sh)
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
