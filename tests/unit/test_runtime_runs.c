/* Whole runs of a hand-written SB under every synchronisation mode:
 * oversubscription, memory and reset, interruption, time limits, run-length
 * counting, chunks and the timebase clock, range functions. */
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

static void test_run_every_mode(void **state)
{
    (void)state;
    lrt_sync_kind syncs[] = {LRT_SYNC_LOOSE, LRT_SYNC_TIMEBASE, LRT_SYNC_USER};
    lrt_layout_kind layouts[] = {LRT_LAYOUT_PACKED, LRT_LAYOUT_LINE, LRT_LAYOUT_SHUFFLE, LRT_LAYOUT_ARRAY};
    lrt_affinity_kind affs[] = {LRT_AFF_NONE, LRT_AFF_INCR, LRT_AFF_RANDOM};
    for (int s = 0; s < 3; s++)
        for (int l = 0; l < 4; l++)
            run_sb(syncs[s], layouts[l], affs[(s + l) % 3], 2, 0);
}

/* Four spinning threads on one CPU: must finish (yielding), not livelock. */
static void test_run_oversubscribed(void **state)
{
    (void)state;
    run_sb(LRT_SYNC_USER, LRT_LAYOUT_LINE, LRT_AFF_INCR, 4, 1);
    run_sb(LRT_SYNC_TIMEBASE, LRT_LAYOUT_LINE, LRT_AFF_RANDOM, 4, 1);
    run_sb(LRT_SYNC_LOOSE, LRT_LAYOUT_PACKED, LRT_AFF_NONE, 4, 2);
    lrt_test t = {"SB", 4, 4, 4, nout4, fns4, sb_reset, sb_collect4, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL};
    lrt_config c;
    lrt_config_default(&c);
    c.size = 1000;
    c.runs = 3;
    c.sync = LRT_SYNC_USER;
    c.cpus = 1;
    lrt_result r;
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    assert_true(r.oversubscribed);
    assert_int_equal(r.cpus, 1);
    lrt_result_free(&r);
}


static void test_run_memory_and_reset(void **state)
{
    (void)state;
    lrt_test t = {"SB", 2, 2, 4, nout4, fns4, sb_reset2, sb_collect2, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL};
    lrt_layout_kind layouts[] = {LRT_LAYOUT_PACKED, LRT_LAYOUT_LINE, LRT_LAYOUT_SHUFFLE, LRT_LAYOUT_ARRAY};
    for (int l = 0; l < 4; l++) {
        lrt_config c;
        lrt_config_default(&c);
        c.size = 3000;
        c.runs = 4;
        c.layout = layouts[l];
        lrt_result r;
        assert_int_equal(lrt_run(&t, &c, &r), 0);
        assert_int_equal(r.iterations, 12000);
        uint64_t seen = 0;
        for (int64_t a = 0; a < 2; a++)
            for (int64_t b = 0; b < 2; b++) {
                int64_t key[4] = {a, b, 1, 1};
                seen += lrt_hist_get(&r.hist, key);
            }
        assert_int_equal(seen, 12000);
        /* Loads can only read a value some thread stored: (0,0) is the
         * only weak one, and no outcome may be missing entirely from
         * both strong ones on any machine. */
        int64_t k01[4] = {0, 1, 1, 1}, k10[4] = {1, 0, 1, 1};
        assert_true(lrt_hist_get(&r.hist, k01) + lrt_hist_get(&r.hist, k10) > 0);
        lrt_result_free(&r);
    }
}

/* A thread that asks the run to stop part-way through the third run. */
static _Atomic int stop_calls;
static void sb0_stopper(void *const *c, int64_t *out)
{
    if (atomic_fetch_add(&stop_calls, 1) == 2500)
        lrt_stop_requested = 1;
    sb0(c, out);
}
static const lrt_thread_fn fns_stop[2] = {sb0_stopper, sb1};

static void test_run_interrupted(void **state)
{
    (void)state;
    lrt_test t = {"SB", 2, 4, 2, nout4, fns_stop, sb_reset, sb_collect, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL};
    lrt_config c;
    lrt_config_default(&c);
    c.size = 1000;
    c.runs = 100;
    lrt_stop_requested = 0;
    atomic_store(&stop_calls, 0);
    lrt_result r;
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    lrt_stop_requested = 0;
    assert_true(r.interrupted);
    /* Stopped at the end of the run in progress: runs 1-3 are complete. */
    assert_int_equal(r.runs_done, 3);
    assert_int_equal(r.iterations, 3000);
    assert_int_equal(lrt_hist_total(&r.hist), 3000);
    lrt_result_free(&r);
}

static void test_run_time_limit(void **state)
{
    (void)state;
    lrt_test t = {"SB", 2, 4, 2, nout4, fns4, sb_reset, sb_collect, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL};
    lrt_config c;
    lrt_config_default(&c);
    c.size = 1000;
    c.runs = UINT64_MAX;
    c.time_limit = 0.05;
    lrt_result r;
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    assert_false(r.interrupted);
    assert_true(r.runs_done >= 1);
    assert_int_equal(r.iterations, r.runs_done * 1000);
    assert_true(r.elapsed >= 0.05 && r.elapsed < 5);
    lrt_result_free(&r);
}

/* Outcomes in runs of 3 and 7: the run-length counting must add each run
 * to the right key.  Thread 0 runs every instance of a run in order, so its
 * own counter gives the pattern. */
static uint64_t pattern_n;
static void pattern0(void *const *c, int64_t *out)
{
    (void)c;
    out[0] = pattern_n++ % 10 < 3 ? 5 : 7;
}
static void pattern1(void *const *c, int64_t *out)
{
    (void)c;
    out[0] = 0;
}
static const lrt_thread_fn fns_pattern[2] = {pattern0, pattern1};

static void test_run_length_counting(void **state)
{
    (void)state;
    lrt_test t = {"P", 2, 2, 2, nout4, fns_pattern, sb_reset2, sb_collect, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL};
    lrt_config c;
    lrt_config_default(&c);
    c.size = 1010;      /* slices of 505 end mid-run */
    c.runs = 3;
    pattern_n = 0;
    lrt_result r;
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    int64_t k5[2] = {5, 0}, k7[2] = {7, 0};
    assert_int_equal(lrt_hist_get(&r.hist, k5), 909);
    assert_int_equal(lrt_hist_get(&r.hist, k7), 2121);
    assert_int_equal(r.hist.n, 2);
    lrt_result_free(&r);
}

/* Loose sweeps in chunks of K: at every instance the other thread is at
 * most K instances away (counted over all runs). */
static _Atomic uint64_t began[2];
static _Atomic uint64_t max_gap;
static void note_gap(int me)
{
    uint64_t mine = atomic_fetch_add(&began[me], 1);
    uint64_t other = atomic_load(&began[!me]);
    uint64_t gap = mine > other ? mine - other : other - mine;
    uint64_t m = atomic_load(&max_gap);
    while (gap > m && !atomic_compare_exchange_weak(&max_gap, &m, gap))
        ;
}
static void gap0(void *const *c, int64_t *out)
{
    note_gap(0);
    sb0(c, out);
}
static void gap1(void *const *c, int64_t *out)
{
    note_gap(1);
    sb1(c, out);
}
static const lrt_thread_fn fns_gap[2] = {gap0, gap1};

static void test_loose_chunks_keep_threads_close(void **state)
{
    (void)state;
    lrt_test t = {"SB", 2, 4, 2, nout4, fns_gap, sb_reset, sb_collect, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL};
    for (int k = 0; k < 2; k++) {
        lrt_config c;
        lrt_config_default(&c);
        c.sync = LRT_SYNC_LOOSE;
        c.size = 4096;
        c.runs = 5;
        c.chunk = k ? 16 : 1;
        atomic_store(&began[0], 0);
        atomic_store(&began[1], 0);
        atomic_store(&max_gap, 0);
        lrt_result r;
        assert_int_equal(lrt_run(&t, &c, &r), 0);
        check_sb_result(&r, 2, 4096 * 5);
        if (atomic_load(&max_gap) > c.chunk)
            fail_msg("chunk %llu: threads %llu instances apart", (unsigned long long)c.chunk,
                     (unsigned long long)atomic_load(&max_gap));
        lrt_result_free(&r);
    }
}

/* Timebase chunks follow the clock: each sweep call is one chunk, and a
 * thread never begins chunk c before its scheduled tick, so with a fixed
 * period of P ticks most chunks begin about P after the one before (a
 * free sweep takes a few microseconds for the whole run).  A thread put
 * off its CPU on a busy machine begins a chunk late and the next ones at
 * once, catching up with the clock: so the test asks that more than half
 * of the 15 gaps be at least P/2, not that the run span a number of
 * periods (the first chunk alone once began 2.2P late under ASan on a
 * machine with a load of 11). */
enum { TB_CHUNK = 16, TB_CHUNKS = 16, TB_PERIOD = 1000000 };
static uint64_t tb_start[2][TB_CHUNKS];
static _Atomic int tb_bad_range;
/* Each thread's first sweep is the warm-up's, of instance 0 alone. */
static _Atomic int tb_warm[2];
static void tb_note(int me, size_t lo, size_t hi)
{
    if (lo == 0 && hi == 1 && !atomic_exchange(&tb_warm[me], 1))
        return;
    if (hi - lo != TB_CHUNK || lo % TB_CHUNK)
        atomic_store(&tb_bad_range, 1);
    else
        tb_start[me][lo / TB_CHUNK] = lrt_ticks();
}
static void tb_sweep0(void *const *c, int64_t *out, size_t lo, size_t hi)
{
    tb_note(0, lo, hi);
    for (size_t i = lo; i < hi; i++)
        sb0(c + i * 4, out + i);
}
static void tb_sweep1(void *const *c, int64_t *out, size_t lo, size_t hi)
{
    tb_note(1, lo, hi);
    for (size_t i = lo; i < hi; i++)
        sb1(c + i * 4, out + i);
}
static const lrt_sweep_fn tb_sweeps[2] = {tb_sweep0, tb_sweep1};

static void test_timebase_chunks_follow_the_clock(void **state)
{
    (void)state;
    lrt_test t = {"SB", 2, 4, 2, nout4, fns4, sb_reset, sb_collect, tb_sweeps, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL};
    lrt_config c;
    lrt_config_default(&c);
    assert_int_equal(c.sync, LRT_SYNC_TIMEBASE);
    c.size = TB_CHUNK * TB_CHUNKS;
    c.runs = 1;
    c.chunk = TB_CHUNK;
    c.period = TB_PERIOD;
    c.delay = 0;
    lrt_result r;
    /* three tries: a thread off its CPU for the whole run's periods (16 of
     * them, a few milliseconds) catches up with chunks back to back */
    char why[200] = "";
    for (int try = 0; try < 3; try++) {
        if (try)
            lrt_result_free(&r);
        atomic_store(&tb_bad_range, 0);
        atomic_store(&tb_warm[0], 0);
        atomic_store(&tb_warm[1], 0);
        memset(tb_start, 0, sizeof tb_start);
        assert_int_equal(lrt_run(&t, &c, &r), 0);
        check_sb_result(&r, 2, TB_CHUNK * TB_CHUNKS);
        assert_int_equal(atomic_load(&tb_bad_range), 0);
        assert_true(atomic_load(&tb_warm[0]) && atomic_load(&tb_warm[1]));
        why[0] = 0;
        for (int me = 0; me < 2 && !why[0]; me++) {
            int apart = 0;
            for (int k = 1; k < TB_CHUNKS; k++)
                apart += tb_start[me][k] - tb_start[me][k - 1] >= TB_PERIOD / 2;
            if (2 * apart <= TB_CHUNKS - 1)
                snprintf(why, sizeof why, "thread %d: only %d of its %d chunks began half a period (%d ticks) "
                         "or more after the one before; chunks 0 and %d began %llu ticks apart", me, apart,
                         TB_CHUNKS - 1, TB_PERIOD / 2, TB_CHUNKS - 1,
                         (unsigned long long)(tb_start[me][TB_CHUNKS - 1] - tb_start[me][0]));
        }
        if (!why[0])
            break;
    }
    if (why[0]) {
        lrt_result_free(&r);
        fail_msg("%s, in three tries", why);
    }
    assert_int_equal(r.period, TB_PERIOD);
    assert_true(r.aligned >= 0 && r.aligned <= 1);
    lrt_result_free(&r);
    /* The adaptive period: the first run measures, later ones adjust. */
    c.period = 0;
    c.size = 4096;
    c.runs = 6;
    c.delay = LRT_DELAY_AUTO;
    t.sweeps = NULL;
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    check_sb_result(&r, 2, 4096 * 6);
    assert_true(r.period >= 4 * TB_CHUNK);
    assert_true(r.aligned >= 0 && r.aligned <= 1);
    lrt_result_free(&r);
}

/* The range forms, as a generated program supplies them: every phase must
 * go through them (no per-instance call), the reset phase runs before the
 * first run only (counting resets), and the counts still add up. */
static _Atomic uint64_t range_calls, single_calls, reset_calls, count_resets;
static void sb0_counted(void *const *c, int64_t *out)
{
    atomic_fetch_add(&single_calls, 1);
    sb0(c, out);
}
static void sweep0(void *const *c, int64_t *out, size_t lo, size_t hi)
{
    atomic_fetch_add(&range_calls, 1);
    for (size_t i = lo; i < hi; i++)
        sb0(c + i * 4, out + i);
}
static void sweep1(void *const *c, int64_t *out, size_t lo, size_t hi)
{
    atomic_fetch_add(&range_calls, 1);
    for (size_t i = lo; i < hi; i++)
        sb1(c + i * 4, out + i);
}
static void reset_range(void *const *c, size_t lo, size_t hi)
{
    atomic_fetch_add(&reset_calls, 1);
    for (size_t i = lo; i < hi; i++)
        sb_reset(c + i * 4);
}
/* One tally call per instance: the runtime must not care how runs are cut. */
static void count_range(void *const *c, int64_t *const *o, size_t lo, size_t hi, int reset_too, lrt_tally *t)
{
    atomic_fetch_add(&range_calls, 1);
    for (size_t i = lo; i < hi; i++) {
        int64_t v[2];
        int64_t *oi[2] = {o[0] + i, o[1] + i};
        sb_collect(c + i * 4, oi, v);
        if (reset_too) {
            sb_reset(c + i * 4);
            atomic_fetch_add(&count_resets, 1);
        }
        lrt_tally_add(t, v, 1);
    }
}
static const lrt_thread_fn fns_counted[2] = {sb0_counted, sb1};
static const lrt_sweep_fn sweeps2[2] = {sweep0, sweep1};

static void test_run_range_functions(void **state)
{
    (void)state;
    lrt_test t = {"SB", 2, 4, 2, nout4, fns_counted, sb_reset, sb_collect,
                  sweeps2, reset_range, count_range, 0, NULL, NULL, NULL, NULL, NULL};
    lrt_config c;
    lrt_config_default(&c);
    c.size = 1000;
    c.runs = 4;
    atomic_store(&range_calls, 0);
    atomic_store(&single_calls, 0);
    atomic_store(&reset_calls, 0);
    atomic_store(&count_resets, 0);
    lrt_result r;
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    check_sb_result(&r, 2, 4000);
    assert_int_equal(atomic_load(&single_calls), 0);
    assert_true(atomic_load(&range_calls) >= 4 * (2 + 2));
    /* one slice per worker in run 1, and instance 0 after the warm-up */
    assert_int_equal(atomic_load(&reset_calls), 3);
    assert_int_equal(atomic_load(&count_resets), 4000);
    lrt_result_free(&r);
    /* Shuffled cells change places between runs: reset after placing. */
    c.layout = LRT_LAYOUT_SHUFFLE;
    atomic_store(&reset_calls, 0);
    atomic_store(&count_resets, 0);
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    check_sb_result(&r, 2, 4000);
    assert_int_equal(atomic_load(&reset_calls), 2 * 4 + 1);   /* and the warm-up's instance */
    assert_int_equal(atomic_load(&count_resets), 0);
    lrt_result_free(&r);
    /* User sync meets per instance: it uses the body. */
    c.sync = LRT_SYNC_USER;
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    check_sb_result(&r, 2, 4000);
    assert_int_equal(atomic_load(&single_calls), 4000);
    lrt_result_free(&r);
}

/* A thread that takes about 4000 ticks per instance: the adaptive
 * timebase period (per chunk) must cover most of its pace. */
static void slow0(void *const *c, int64_t *out)
{
    uint64_t end = lrt_ticks() + 4000;
    while (lrt_ticks() < end)
        ;
    sb0(c, out);
}
static const lrt_thread_fn fns_slow[2] = {slow0, sb1};

static void test_timebase_adapts(void **state)
{
    (void)state;
    lrt_test t = {"SB", 2, 4, 2, nout4, fns_slow, sb_reset, sb_collect, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL};
    lrt_config c;
    lrt_config_default(&c);
    c.size = 200;
    c.runs = 8;
    c.sync = LRT_SYNC_TIMEBASE;
    lrt_result r;
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    assert_int_equal(r.iterations, 1600);
    if (r.period < 3000 * c.chunk)
        fail_msg("period stayed at %llu ticks for %llu instances", (unsigned long long)r.period,
                 (unsigned long long)c.chunk);
    lrt_result_free(&r);
    /* A fixed period is kept. */
    c.period = 700;
    t.threads = fns4;
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    assert_int_equal(r.period, 700);
    lrt_result_free(&r);
}

/* A thread slow for its first SLOW_INSTANCES instances (three runs of
 * 1024) and fast after: once it is fast, the adaptive period must come
 * down with it within a run, not stay sized for the slow pace. */
enum { SLOW_INSTANCES = 3 * 1024 };
static _Atomic uint64_t phased_calls;
static void phased0(void *const *c, int64_t *out)
{
    if (atomic_fetch_add(&phased_calls, 1) < SLOW_INSTANCES) {
        uint64_t end = lrt_ticks() + 4000;
        while (lrt_ticks() < end)
            ;
    }
    sb0(c, out);
}
static const lrt_thread_fn fns_phased[2] = {phased0, sb1};

static void test_timebase_follows_pace_down(void **state)
{
    (void)state;
    lrt_test t = {"SB", 2, 4, 2, nout4, fns_phased, sb_reset, sb_collect, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL};
    lrt_config c;
    lrt_config_default(&c);
    c.size = 1024;
    c.runs = 5;
    c.sync = LRT_SYNC_TIMEBASE;
    /* The period follows the last run's pace: a VM that stalls a CPU
     * through that whole run (milliseconds; about one try in thirty on a
     * shared 2-vCPU VM) leaves it high by chance, so three tries. */
    uint64_t period = 0;
    for (int attempt = 0; attempt < 3; attempt++) {
        atomic_store(&phased_calls, 0);
        lrt_result r;
        assert_int_equal(lrt_run(&t, &c, &r), 0);
        assert_int_equal(r.iterations, 5 * 1024);
        period = r.period;
        lrt_result_free(&r);
        /* Slow, a chunk took more than 4000 * 64 ticks; fast, SB's
         * instances take tens of ticks (a few hundred under sanitizers). */
        if (period <= 1000 * c.chunk)
            return;
    }
    fail_msg("period %llu ticks per chunk of %llu after two fast runs, in three tries", (unsigned long long)period,
             (unsigned long long)c.chunk);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_every_mode),
        cmocka_unit_test(test_run_oversubscribed),
        cmocka_unit_test(test_run_memory_and_reset),
        cmocka_unit_test(test_run_interrupted),
        cmocka_unit_test(test_run_time_limit),
        cmocka_unit_test(test_timebase_adapts),
        cmocka_unit_test(test_timebase_follows_pace_down),
        cmocka_unit_test(test_run_length_counting),
        cmocka_unit_test(test_loose_chunks_keep_threads_close),
        cmocka_unit_test(test_timebase_chunks_follow_the_clock),
        cmocka_unit_test(test_run_range_functions),
    };
    return cmocka_run_group_tests_name("runtime-runs", tests, NULL, NULL);
}
