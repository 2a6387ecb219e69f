/* Gapped runs, rounds and schedules, stretches, interleavings, stalls,
 * warm-up and handshakes of the native runtime. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "runtime/lrt_rand.c"
#include "runtime/lrt_hist.c"
#include "runtime/lrt_layout.c"
#include "runtime/lrt_sync.c"
#include "runtime/lrt_cpu.c"
#include "runtime/lrt_interleave.c"
#include "runtime/lrt_pace.c"
#include "runtime/lrt_round.c"
#include "runtime/lrt_sweep.c"
#include "runtime/lrt_lane.c"
#include "runtime/lrt_run.c"
#include "backends/native.h"
#include "harness/harness.h"
#include "tests/unit/runtime_sb.h"

/* Gapped runs: with --until-covered on the timebase every other run is
 * directed, and with no schedule a directed run sweeps the gapped
 * functions, never longer than DIRECTED_RUN_MAX instances, with gaps below
 * 2^GAP_LOG_MAX and some of them 0; a plain run never does. */
static _Atomic uint64_t gap_calls, gap_instances, gap_zero, gap_nonzero;
static _Atomic uint32_t gap_max;
static _Atomic uint64_t lane_gap_seen[4];   /* bit v: a single instance ran with gap[0] == v */
static void gap_note(size_t lo, size_t hi, const uint32_t *gap)
{
    atomic_fetch_add(&gap_calls, 1);
    if (hi - lo == 1 && gap[0] < 256)
        atomic_fetch_or(&lane_gap_seen[gap[0] / 64], (uint64_t)1 << (gap[0] % 64));
    atomic_fetch_add(&gap_instances, hi - lo);
    for (int k = 0; k < LRT_GAPS; k++) {
        if (gap[k] > atomic_load(&gap_max))
            atomic_store(&gap_max, gap[k]);
        atomic_fetch_add(gap[k] ? &gap_nonzero : &gap_zero, 1);
    }
}
static void gap_sweep(int me, void *const *c, int64_t *out, size_t lo, size_t hi, const uint32_t *gap)
{
    gap_note(lo, hi, gap);
    for (size_t i = lo; i < hi; i++) {
        lrt_spin(gap[0]);
        fns4[me](c + i * 4, out + i);
    }
}
static void gap_sweep0(void *const *c, int64_t *out, size_t lo, size_t hi, const uint32_t *gap)
{
    gap_sweep(0, c, out, lo, hi, gap);
}
static void gap_sweep1(void *const *c, int64_t *out, size_t lo, size_t hi, const uint32_t *gap)
{
    gap_sweep(1, c, out, lo, hi, gap);
}
static const lrt_gap_sweep_fn gap_sweeps[2] = {gap_sweep0, gap_sweep1};

static void test_gapped_runs(void **state)
{
    (void)state;
    lrt_test t = {"SB", 2, 4, 2, nout4, fns4, sb_reset, sb_collect, NULL, NULL, NULL, 0, gap_sweeps, NULL, NULL, NULL, NULL};
    lrt_config c;
    lrt_config_default(&c);
    c.size = 20000;
    /* A state the threads never produce keeps the runs going to the end. */
    int64_t never[2] = {7, 7};
    c.allowed = never;
    c.nallowed = 1;
    c.max_iterations = 200000;
    lrt_result r;
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    check_sb_result(&r, 2, 200000);
    assert_false(r.covered);
    assert_true(r.gapped_runs > 0);
    assert_true(r.gapped_runs * 2 <= r.runs_done + 1);
    assert_int_equal(r.directed_runs, 0);
    assert_true(atomic_load(&gap_instances) <= 2 * r.gapped_runs * DIRECTED_RUN_MAX);
    assert_true(atomic_load(&gap_max) < (1u << GAP_LOG_MAX));
    assert_true(atomic_load(&gap_zero) > 0 && atomic_load(&gap_nonzero) > 0);
    lrt_result_free(&r);
    /* The plain run: no gaps. */
    atomic_store(&gap_calls, 0);
    c.allowed = NULL;
    c.nallowed = 0;
    c.max_iterations = 0;
    c.runs = 4;
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    check_sb_result(&r, 2, 4 * 20000);
    assert_int_equal(r.gapped_runs, 0);
    assert_int_equal(atomic_load(&gap_calls), 0);
    lrt_result_free(&r);
}

/* Rounds: with schedules aimed at every allowed state, a round has up to
 * ROUND_SCHEDULES schedule runs, a gapped run every fourth round, then
 * one free run; the directed runs stay within DIRECTED_RUN_MAX. */
static void test_rounds_share_schedules_and_gaps(void **state)
{
    (void)state;
    lrt_test t = {"SB", 2, 4, 2, nout4, fns4, sb_reset, sb_collect, NULL, NULL, NULL, 0, gap_sweeps, NULL, NULL, NULL, NULL};
    lrt_config c;
    lrt_config_default(&c);
    c.size = 20000;
    enum { NS = 12 };
    int64_t never[2 * NS];
    lrt_schedule sched[NS];
    memset(sched, 0, sizeof sched);
    for (int k = 0; k < NS; k++) {
        never[2 * k] = 7 + k;
        never[2 * k + 1] = 7;
        sched[k].target = k;
        sched[k].ngroups = 2;
        sched[k].group[0] = (unsigned char)(k % 2);
        sched[k].group[1] = (unsigned char)(1 - k % 2);
    }
    c.allowed = never;
    c.nallowed = NS;
    c.schedules = sched;
    c.nschedules = NS;
    c.max_iterations = 400000;
    lrt_result r;
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    check_sb_result(&r, 2, 400000);
    uint64_t free_runs = r.runs_done - r.directed_runs - r.gapped_runs - r.handshake_runs - r.stalled_runs;
    assert_true(free_runs > 4);
    assert_true(r.directed_runs >= (free_runs - 1) * ROUND_SCHEDULES);
    assert_true(r.directed_runs <= free_runs * ROUND_SCHEDULES + ROUND_SCHEDULES);
    assert_true(r.gapped_runs >= (free_runs - 1) / 4 && r.gapped_runs <= free_runs / 4 + 1);
    /* one handshake run a round, where each thread has a CPU */
    if (r.oversubscribed)
        assert_int_equal(r.handshake_runs, 0);
    else
        assert_true(r.handshake_runs + 1 >= free_runs && r.handshake_runs <= free_runs);
    lrt_result_free(&r);
}

/* With one schedule pending, a round makes many runs of it: the directed
 * runs fill at least the free run's size, where one run a round left
 * held and stretched states to luck. */
static void test_pending_schedule_fills_the_round(void **state)
{
    (void)state;
    lrt_test t = {"SB", 2, 4, 2, nout4, fns4, sb_reset, sb_collect, NULL, NULL, NULL, 0, gap_sweeps, NULL, NULL, NULL, NULL};
    lrt_config c;
    lrt_config_default(&c);
    c.size = 20000;
    int64_t never[2] = {7, 7};
    lrt_schedule sched;
    memset(&sched, 0, sizeof sched);
    sched.ngroups = 2;
    sched.group[1] = 1;
    c.allowed = never;
    c.nallowed = 1;
    c.schedules = &sched;
    c.nschedules = 1;
    c.max_iterations = 400000;
    lrt_result r;
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    check_sb_result(&r, 2, 400000);
    uint64_t free_runs = r.runs_done - r.directed_runs - r.gapped_runs - r.handshake_runs - r.stalled_runs;
    assert_true(free_runs > 4);
    /* rounds of 20000 instances take five runs of 4096 each, the first
     * rounds eight runs of the round's size */
    assert_true(r.directed_runs >= 4 * (free_runs - 1));
    lrt_result_free(&r);
}

/* Stretch gaps: 1 to 2^GAP_LOG_MAX - 1 spins, every power of two about as
 * likely, so that a gap of 2 spins is drawn as often as one of 200. */
static void test_stretch_gaps_spread(void **state)
{
    (void)state;
    lrt_rng rng;
    lrt_rng_seed(&rng, 42);
    enum { DRAWS = 8000 };
    int octave[GAP_LOG_MAX] = {0};
    for (int i = 0; i < DRAWS; i++) {
        uint32_t g = stretch_gap(&rng);
        assert_true(g >= 1 && g < (1u << GAP_LOG_MAX));
        int u = 0;
        while (g >> (u + 1))
            u++;
        octave[u]++;
    }
    for (int u = 0; u < GAP_LOG_MAX; u++)
        assert_true(octave[u] > DRAWS / GAP_LOG_MAX / 2 && octave[u] < DRAWS / GAP_LOG_MAX * 2);
}

/* A gapped laned run draws its gaps instance by instance (instance_gaps):
 * a held schedule's runs are laned, half of them gapped, and each lane
 * runs one instance at a time, so the gaps of its single-instance sweeps
 * (gap_note's lane_gap_seen) take many more values than one per thread
 * and gapped run, as a draw per run gave. */
static void test_lane_gaps_per_instance(void **state)
{
    (void)state;
    lrt_test t = {"SB", 2, 4, 2, nout4, fns4, sb_reset, sb_collect, NULL, NULL, NULL, 0, gap_sweeps, NULL, NULL, NULL, NULL};
    lrt_config c;
    lrt_config_default(&c);
    c.size = 4096;
    c.cpus = 2;
    int64_t never[2] = {7, 7};
    lrt_schedule sc;
    memset(&sc, 0, sizeof sc);
    sc.ngroups = 1;
    sc.lane[1] = 1;
    sc.largest = 2;
    sc.hold[0] = sc.held = true;
    c.allowed = never;
    c.nallowed = 1;
    c.schedules = &sc;
    c.nschedules = 1;
    c.max_iterations = 60000;
    for (int w = 0; w < 4; w++)
        atomic_store(&lane_gap_seen[w], 0);
    lrt_result r;
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    check_sb_result(&r, 2, 60000);
    int values = 0;
    for (int w = 0; w < 4; w++)
        values += __builtin_popcountll(atomic_load(&lane_gap_seen[w]));
    assert_true(r.laned_runs > 0);
    /* a draw per run: at most one value per thread and gapped run, and 0 */
    assert_true(r.gapped_runs > 0);
    assert_true((uint64_t)values > 2 * r.gapped_runs + 1);
    /* draws with 0 (a slot with no gap) and others both occur */
    assert_true(atomic_load(&lane_gap_seen[0]) & 1);
    assert_true(values > 1);
    lrt_result_free(&r);
}

/* Interleavings: each thread's body logs its accesses and stops at a
 * gap of LRT_SWITCH as a gapped body does; the worker resumes it at its
 * next piece.  Pieces 0 (up to access 1), 1 (whole), 0 (the rest): P0's
 * access 0, P1's two, P0's access 1.  Thread 2, named by no piece, runs
 * to its end after them; a thread whose switch never comes (its body
 * stops short) runs whole at its first piece. */
typedef struct il_log {
    int n, who[16], what[16];
    uint32_t gap[3][LRT_GAPS];
    int accesses[3];
} il_log;

static void il_body(int u, void *arg)
{
    il_log *log = arg;
    for (int k = 0; k < log->accesses[u]; k++) {
        lrt_gap(log->gap[u][k]);
        log->who[log->n] = u;
        log->what[log->n++] = k;
    }
}

static void test_interleave_pieces(void **state)
{
    (void)state;
    lrt_interleaver *il = lrt_interleaver_new(3);
    assert_non_null(il);
    il_log log;
    memset(&log, 0, sizeof log);
    log.accesses[0] = 2;
    log.accesses[1] = 2;
    log.accesses[2] = 1;
    log.gap[0][1] = LRT_SWITCH;
    const unsigned char pieces[] = {0, 1, 0};
    assert_true(lrt_interleave(il, pieces, 3, il_body, &log));
    int who[] = {0, 1, 1, 0, 2}, what[] = {0, 0, 1, 1, 0};
    assert_int_equal(log.n, 5);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(log.who[i], who[i]);
        assert_int_equal(log.what[i], what[i]);
    }
    /* again on the same interleaver, thread 0 stopping short of its
     * switch: it runs whole, then thread 1, then thread 2 */
    memset(&log, 0, sizeof log);
    log.accesses[0] = 1;
    log.accesses[1] = 2;
    log.accesses[2] = 1;
    log.gap[0][1] = LRT_SWITCH;
    assert_true(lrt_interleave(il, pieces, 3, il_body, &log));
    int who2[] = {0, 1, 1, 2};
    assert_int_equal(log.n, 4);
    for (int i = 0; i < 4; i++)
        assert_int_equal(log.who[i], who2[i]);
    /* outside an interleaving a switch is no switch */
    assert_false(lrt_interleave_switch());
    lrt_interleaver_free(il);
}

/* Handshake runs (--until-covered, a thread per CPU): the threads meet on
 * every instance, whose cells sit together for those runs and in arrays
 * for the others.  Each location starts at a value of its own, so a cell
 * not reset after moving would show up as a value no thread stores. */
static void hs1(void *const *c, int64_t *out)
{
    atomic_store_explicit((_Atomic int32_t *)c[1], 2, memory_order_relaxed);
    out[0] = atomic_load_explicit((_Atomic int32_t *)c[0], memory_order_relaxed);
}
static void hs_reset(void *const *c)
{
    atomic_store_explicit((_Atomic int32_t *)c[0], 5, memory_order_relaxed);
    atomic_store_explicit((_Atomic int32_t *)c[1], 7, memory_order_relaxed);
}
static const lrt_thread_fn fns_hs[2] = {sb0, hs1};   /* sb0 stores 1, hs1 2 */

/* Stalled runs: the free runs of the odd rounds up to STALL_RUN_MAX
 * instances and of every round after, cut to STALL_RUN_MAX, one each, on
 * the timebase only, every thread's stores in the first; they come
 * besides the round's plain free run, and the histogram still adds up.
 * Where a schedule of an unseen state holds threads, the first run and
 * half the instances of the others stall those. */
static void test_stalled_runs(void **state)
{
    (void)state;
    lrt_test t = {"SB", 2, 4, 2, nout4, fns4, sb_reset, sb_collect, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL};
    lrt_config c;
    lrt_config_default(&c);
    c.size = 20000;
    int64_t never[2] = {7, 7};
    c.allowed = never;
    c.nallowed = 1;
    c.max_iterations = 200000;
    lrt_result r;
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    check_sb_result(&r, 2, 200000);
    /* rounds 1, 3, 5, 7 (1, 4, 16, 64 instances), then every round */
    assert_true(r.stalled_runs > 4);
    lrt_result_free(&r);
    c.sync = LRT_SYNC_LOOSE;
    c.chunk = lrt_default_chunk(c.sync);
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    check_sb_result(&r, 2, 200000);
    assert_int_equal(r.stalled_runs, 0);
    lrt_result_free(&r);

    static lrt_shared sh;
    memset(&sh, 0, sizeof sh);
    lrt_config cd;
    lrt_config_default(&cd);
    cd.allowed = never;
    cd.nallowed = 1;
    lrt_test t4 = t;
    t4.nthreads = 4;
    sh.t = &t4;
    sh.c = &cd;
    assert_true(lrt_hist_init(&sh.first, t4.nobs));
    sh.layout.ninst = 100000;
    lrt_rng_seed(&sh.rng, 7);
    for (uint32_t round = 1; round <= 40; round++) {
        sh.round = round;
        draw_stall(&sh);
        /* round 7: 64 instances; from round 8 the rounds are larger */
        assert_int_equal(sh.stalled, round % 2 == 1 || round >= 8);
        if (round >= 8)
            assert_int_equal(lrt_run_size(&sh), STALL_RUN_MAX);
    }
    /* every thread stalled in round 1, in half the instances after, else
     * a random nonempty set, the same for every thread */
    unsigned sets[16] = {0};
    for (uint32_t round = 1; round <= 3; round += 2) {
        sh.round = round;
        draw_stall(&sh);
        for (size_t i = 0; i < 1600; i++) {
            uint32_t m = stall_mask(&sh, i);
            assert_true(m >= 1 && m <= 15);
            assert_int_equal(m, stall_mask(&sh, i));
            if (round == 1)
                assert_int_equal(m, 15);
            else
                sets[m]++;
        }
    }
    assert_true(sets[15] > 700 && sets[15] < 900);
    for (int m = 1; m < 15; m++)
        assert_true(sets[m] > 25);
    /* a schedule of the unseen state holds thread 1 (unfolded): the first
     * run stalls it alone, the others in half their instances */
    lrt_schedule held;
    memset(&held, 0, sizeof held);
    held.ngroups = 1;
    held.hold[1] = held.held = true;
    cd.schedules = &held;
    cd.nschedules = 1;
    for (uint32_t round = 1; round <= 3; round += 2) {
        sh.round = round;
        draw_stall(&sh);
        assert_int_equal(sh.nstall_aims, 1);
        unsigned alone = 0;
        for (size_t i = 0; i < 1600; i++)
            alone += stall_mask(&sh, i) == 2;
        if (round == 1)
            assert_int_equal(alone, 1600);
        else
            assert_true(alone > 700 && alone < 1000);
    }
    /* ... nor a folded schedule's (its holds stand for lanes) */
    held.folded = true;
    draw_stall(&sh);
    assert_int_equal(sh.nstall_aims, 0);
    /* no stalled run with more threads than CPUs */
    sh.yield = true;
    draw_stall(&sh);
    assert_false(sh.stalled);
    lrt_hist_free(&sh.first);

    /* While every unseen state has an interleaving, the rounds make
     * neither stalled nor free runs: SB's state where P0 runs before P1
     * (P0 loads y=0, P1 x=1) is P0 whole, then P1, on the first and only
     * instance. */
    int64_t ordered[2] = {0, 1};
    lrt_schedule il;
    memset(&il, 0, sizeof il);
    il.npieces = 2;                         /* and no groups: they are not used */
    il.piece_thread[1] = 1;
    c = (lrt_config){0};
    lrt_config_default(&c);
    c.size = 20000;
    c.allowed = ordered;
    c.nallowed = 1;
    c.schedules = &il;
    c.nschedules = 1;
    c.max_iterations = 200000;
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    assert_true(r.covered);
    assert_int_equal(r.iterations, 1);
    assert_int_equal(r.runs_done, 1);
    assert_int_equal(r.interleaved_runs, 1);
    assert_int_equal(r.stalled_runs, 0);
    assert_int_equal(lrt_hist_get(&r.hist, ordered), 1);
    lrt_result_free(&r);
}

/* The warm-up before the first run runs each thread once on instance 0
 * and resets it again: a thread that adds to its cell loads the initial
 * value in every instance, the first run's first one too. */
static _Atomic int warm_calls;
static void add0(void *const *c, int64_t *out)
{
    atomic_fetch_add(&warm_calls, 1);
    int32_t v = atomic_load_explicit((_Atomic int32_t *)c[0], memory_order_relaxed);
    atomic_store_explicit((_Atomic int32_t *)c[0], v + 1, memory_order_relaxed);
    out[0] = v;
}
static void idle1(void *const *c, int64_t *out)
{
    (void)c;
    out[0] = 0;
}
static const lrt_thread_fn fns_add[2] = {add0, idle1};

static void test_warm_up_is_reset(void **state)
{
    (void)state;
    lrt_test t = {"ADD", 2, 2, 2, nout4, fns_add, sb_reset2, sb_collect, NULL, NULL, NULL, 4, NULL, NULL, NULL, NULL, NULL};
    for (int size = 1; size <= 3; size++) {
        lrt_config c;
        lrt_config_default(&c);
        c.size = (uint64_t)size;
        c.runs = 2;
        atomic_store(&warm_calls, 0);
        lrt_result r;
        assert_int_equal(lrt_run(&t, &c, &r), 0);
        int64_t zero[2] = {0, 0};
        assert_int_equal(lrt_hist_get(&r.hist, zero), 2 * size);
        assert_int_equal(lrt_hist_total(&r.hist), 2 * size);
        assert_int_equal(atomic_load(&warm_calls), 2 * size + 1);
        lrt_result_free(&r);
    }
}

static void test_handshake_runs(void **state)
{
    (void)state;
    lrt_test t = {"SB", 2, 2, 4, nout4, fns_hs, hs_reset, sb_collect2, NULL, NULL, NULL, 4, NULL, NULL, NULL, NULL, NULL};
    lrt_config c;
    lrt_config_default(&c);
    c.size = 5000;
    int64_t never[4] = {9, 9, 9, 9};
    c.allowed = never;
    c.nallowed = 1;
    c.max_iterations = 100000;
    for (int cpus = 1; cpus <= 2; cpus++) {
        c.cpus = cpus;
        lrt_result r;
        assert_int_equal(lrt_run(&t, &c, &r), 0);
        assert_int_equal(r.iterations, 100000);
        uint64_t seen = 0;
        for (int64_t a = 0; a < 2; a++)
            for (int64_t b = 0; b < 2; b++) {
                int64_t key[4] = {a ? 2 : 7, b ? 1 : 5, 1, 2};
                seen += lrt_hist_get(&r.hist, key);
            }
        assert_int_equal(seen, 100000);
        /* on one CPU the threads could not meet on every instance */
        if (r.oversubscribed)
            assert_int_equal(r.handshake_runs, 0);
        else
            assert_true(r.handshake_runs > 3);
        lrt_result_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gapped_runs),
        cmocka_unit_test(test_rounds_share_schedules_and_gaps),
        cmocka_unit_test(test_pending_schedule_fills_the_round),
        cmocka_unit_test(test_stretch_gaps_spread),
        cmocka_unit_test(test_lane_gaps_per_instance),
        cmocka_unit_test(test_interleave_pieces),
        cmocka_unit_test(test_handshake_runs),
        cmocka_unit_test(test_stalled_runs),
        cmocka_unit_test(test_warm_up_is_reset),
    };
    return cmocka_run_group_tests_name("runtime-gaps", tests, NULL, NULL);
}
