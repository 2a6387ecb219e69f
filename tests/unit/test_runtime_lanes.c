/* Lanes of the native runtime: threads run in order on one worker, meeting
 * by place, switching in the middle of a thread, holds and fences. */
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

/* Lanes: a schedule whose one group of three threads is folded onto two
 * lanes (threads 0 then 1 on one, thread 2 on the other) runs on two CPUs
 * as laned runs, and a lane's second thread starts only once the first
 * has finished with its stores visible.  Thread 0 leaves its worker's tid
 * in cell 2 before its SB half; thread 1 finding its own tid there ran
 * after thread 0 on the same worker, so it must load thread 0's store. */
static _Atomic uint64_t lane_same, lane_wrong;
static void lane0(void *const *c, int64_t *out)
{
    atomic_store_explicit((_Atomic int32_t *)c[2], (int32_t)gettid(), memory_order_relaxed);
    sb0(c, out);
}
static void lane1(void *const *c, int64_t *out)
{
    bool same = atomic_load_explicit((_Atomic int32_t *)c[2], memory_order_relaxed) == (int32_t)gettid();
    sb1(c, out);
    if (same)
        atomic_fetch_add(out[0] == 1 ? &lane_same : &lane_wrong, 1);
}
static void lane2(void *const *c, int64_t *out)
{
    atomic_store_explicit((_Atomic int32_t *)c[3], 1, memory_order_relaxed);
    out[0] = atomic_load_explicit((_Atomic int32_t *)c[1], memory_order_relaxed);
}
static const lrt_thread_fn fns_lane[3] = {lane0, lane1, lane2};
static void collect3(void *const *c, int64_t *const *o, int64_t *v)
{
    (void)c;
    for (int k = 0; k < 3; k++)
        v[k] = o[k][0];
}

/* 200000 iterations on two CPUs, --until-covered a state never seen, and
 * one schedule: one group of three threads, 0 then 1 on a lane, 2 on
 * another. */
static int64_t never3[3] = {7, 7, 7};
static void laned_config(lrt_config *c, lrt_schedule *sc)
{
    lrt_config_default(c);
    c->size = 20000;
    c->cpus = 2;
    c->allowed = never3;
    c->nallowed = 1;
    c->max_iterations = 200000;
    memset(sc, 0, sizeof *sc);
    sc->ngroups = 1;
    sc->lane[2] = 1;
    sc->pos[1] = 1;
    sc->folded = true;
    sc->largest = 3;
    c->schedules = sc;
    c->nschedules = 1;
}

static void test_lanes_run_threads_in_order(void **state)
{
    (void)state;
    lrt_test t = {"lanes", 3, 4, 3, nout4, fns_lane, sb_reset, collect3, NULL, NULL, NULL, 4, NULL, NULL, NULL, NULL, NULL};
    lrt_config c;
    lrt_schedule sc;
    laned_config(&c, &sc);
    atomic_store(&lane_same, 0);
    atomic_store(&lane_wrong, 0);
    lrt_result r;
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    check_sb_result(&r, 3, 200000);
    assert_true(r.laned_runs > 0 && r.laned_runs == r.directed_runs);
    assert_true(atomic_load(&lane_same) > 0);
    assert_int_equal(atomic_load(&lane_wrong), 0);
    /* a folded schedule's laned runs all meet on every instance, in order
     * all the same (three threads on two CPUs: no free handshake runs) */
    assert_true(r.oversubscribed);
    assert_true(r.handshake_runs > 0 && r.handshake_runs == r.laned_runs);
    lrt_result_free(&r);
}

/* The gapped sweeps of a hand-written three-thread test: NAME_gsweeps,
 * thread t over instances [lo, hi) as BODY(t, cells, out, gap) each. */
#define GAPPED_SWEEPS3(name, body)                                                                     \
    static void name##_gsweep(int t, void *const *c, int64_t *out, size_t lo, size_t hi,             \
                              const uint32_t *gap)                                                    \
    {                                                                                                 \
        for (size_t i = lo; i < hi; i++)                                                              \
            body(t, c + i * 4, out + i, gap);                                                         \
    }                                                                                                 \
    static void name##_gsweep0(void *const *c, int64_t *out, size_t lo, size_t hi, const uint32_t *g) \
    {                                                                                                 \
        name##_gsweep(0, c, out, lo, hi, g);                                                          \
    }                                                                                                 \
    static void name##_gsweep1(void *const *c, int64_t *out, size_t lo, size_t hi, const uint32_t *g) \
    {                                                                                                 \
        name##_gsweep(1, c, out, lo, hi, g);                                                          \
    }                                                                                                 \
    static void name##_gsweep2(void *const *c, int64_t *out, size_t lo, size_t hi, const uint32_t *g) \
    {                                                                                                 \
        name##_gsweep(2, c, out, lo, hi, g);                                                          \
    }                                                                                                 \
    static const lrt_gap_sweep_fn name##_gsweeps[3] = {name##_gsweep0, name##_gsweep1, name##_gsweep2}

/* A group's lanes meet by their place among the group's lanes, not by
 * their numbers: the short form of a schedule ("1,0,1h") puts thread t on
 * lane t, so group 0 here is lane 1 alone, group 1 lanes 0 and 2.  A lane
 * waiting for instances a lane 0 of its group would raise never ends. */
static void test_lanes_meet_by_place(void **state)
{
    (void)state;
    lrt_test t = {"lanes", 3, 4, 3, nout4, fns_lane, sb_reset, collect3, NULL, NULL, NULL, 4, NULL, NULL, NULL, NULL, NULL};
    lrt_config c;
    lrt_schedule sc;
    laned_config(&c, &sc);
    memset(&sc, 0, sizeof sc);
    sc.ngroups = 2;
    for (int u = 0; u < 3; u++) {
        sc.group[u] = (unsigned char)(u == 1 ? 0 : 1);
        sc.lane[u] = (unsigned char)u;
    }
    sc.hold[2] = sc.held = true;
    sc.largest = 2;
    lrt_result r;
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    check_sb_result(&r, 3, 200000);
    /* held, but neither folded, stretched nor switched: half the laned
     * runs meet on every instance, the others keep the clock */
    assert_true(r.laned_runs > 0 && r.handshake_runs > 0 && r.handshake_runs < r.laned_runs);
    lrt_result_free(&r);
}

/* Switches: a lane switched from thread 0 to thread 1 before thread 0's
 * access 1 runs thread 1 whole in the middle of thread 0, on thread 0's
 * worker, with thread 0's store visible to it and its store visible to
 * thread 0's load after.  Thread 1 leaves its worker's tid in cell 3 and
 * the x it read in cell 2; thread 0 finding its own tid there after its
 * gap was switched, so it must see y=1 and thread 1 must have seen x=1. */
static _Atomic uint64_t switched_inside, switched_wrong;
static void switch0(void *const *c, int64_t *out, const uint32_t *gap)
{
    atomic_store_explicit((_Atomic int32_t *)c[0], 1, memory_order_relaxed);
    if (gap)
        lrt_gap(gap[1]);
    out[0] = atomic_load_explicit((_Atomic int32_t *)c[1], memory_order_relaxed);
    if (gap && atomic_load_explicit((_Atomic int32_t *)c[3], memory_order_relaxed) == (int32_t)gettid()) {
        bool right = out[0] == 1 && atomic_load_explicit((_Atomic int32_t *)c[2], memory_order_relaxed) == 1;
        atomic_fetch_add(right ? &switched_inside : &switched_wrong, 1);
    }
}
static void switch1(void *const *c, int64_t *out)
{
    out[0] = atomic_load_explicit((_Atomic int32_t *)c[0], memory_order_relaxed);
    atomic_store_explicit((_Atomic int32_t *)c[1], 1, memory_order_relaxed);
    atomic_store_explicit((_Atomic int32_t *)c[2], (int32_t)out[0], memory_order_relaxed);
    atomic_store_explicit((_Atomic int32_t *)c[3], (int32_t)gettid(), memory_order_relaxed);
}
static void switch2(void *const *c, int64_t *out)
{
    out[0] = atomic_load_explicit((_Atomic int32_t *)c[1], memory_order_relaxed);
}
static void switch0_plain(void *const *c, int64_t *out)
{
    switch0(c, out, NULL);
}
static const lrt_thread_fn fns_switch[3] = {switch0_plain, switch1, switch2};
static void switch_body(int t, void *const *c, int64_t *out, const uint32_t *gap)
{
    if (t == 0)
        switch0(c, out, gap);
    else
        fns_switch[t](c, out);
}
GAPPED_SWEEPS3(switch, switch_body);

static void test_lanes_switch_threads(void **state)
{
    (void)state;
    lrt_test t = {"switch", 3, 4, 3, nout4, fns_switch, sb_reset, collect3, NULL, NULL, NULL, 4, switch_gsweeps, NULL, NULL, NULL, NULL};
    lrt_config c;
    lrt_schedule sc;
    laned_config(&c, &sc);
    sc.split[0] = 1;
    sc.switched = true;
    atomic_store(&switched_inside, 0);
    atomic_store(&switched_wrong, 0);
    lrt_result r;
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    assert_int_equal(r.iterations, 200000);
    assert_int_equal(lrt_hist_total(&r.hist), 200000);
    assert_true(r.laned_runs > 0 && r.laned_runs == r.directed_runs);
    /* every instance of a laned run switches, in the gapped runs as well */
    assert_true(atomic_load(&switched_inside) > 0);
    assert_int_equal(atomic_load(&switched_wrong), 0);
    lrt_result_free(&r);
}

/* A zeroed lrt_shared on its own lines, as lrt_run allocates it. */
static lrt_shared *new_shared(void)
{
    lrt_shared *sh = aligned_alloc(LRT_LINE, (sizeof *sh + LRT_LINE - 1) / LRT_LINE * LRT_LINE);
    assert_non_null(sh);
    memset(sh, 0, sizeof *sh);
    return sh;
}

/* The shared state of a laned run of T (SIZE instances) under the
 * schedule laned_config makes, with thread 0 switched before its access
 * 1, for calling lane_run directly; the caller adds to SC. */
static lrt_shared *switched_shared(const lrt_test *t, lrt_config *c, lrt_schedule *sc, uint64_t size)
{
    laned_config(c, sc);
    c->size = size;
    sc->split[0] = 1;
    sc->switched = true;
    lrt_shared *sh = new_shared();
    assert_true(shared_init(sh, t, c));
    sh->sched = sc;
    sh->laned = true;
    return sh;
}

/* How long a laned run holds a thread's stores is drawn per instance
 * (hold_rounds): no extra rounds on about half the instances, where a
 * held store must show soon, and 1, 2, 4 or 8 on the others, each about
 * as often; different threads and runs draw apart. */
static void test_hold_rounds_per_instance(void **state)
{
    (void)state;
    lrt_shared *sh = new_shared();
    sh->lane_seed = 12345;
    enum { DRAWS = 8000 };
    int seen[9] = {0}, differ_thread = 0, differ_run = 0;
    for (size_t i = 0; i < DRAWS; i++) {
        unsigned r = hold_rounds(sh, 1, i);
        assert_true(r == 0 || r == 1 || r == 2 || r == 4 || r == 8);
        seen[r]++;
        differ_thread += r != hold_rounds(sh, 2, i);
        sh->lane_seed = 999;
        differ_run += r != hold_rounds(sh, 1, i);
        sh->lane_seed = 12345;
        assert_int_equal(r, hold_rounds(sh, 1, i));     /* the same wherever drawn */
    }
    assert_true(seen[0] > DRAWS * 4 / 10 && seen[0] < DRAWS * 6 / 10);
    for (int r = 1; r <= 8; r *= 2)
        assert_true(seen[r] > DRAWS / 8 / 2 && seen[r] < DRAWS / 8 * 2);
    assert_true(differ_thread > DRAWS / 3 && differ_run > DRAWS / 3);
    free(sh);
}

/* A held thread that runs inside another's switch is held there too:
 * thread 1 runs in the middle of thread 0 (switched before its access 1),
 * and its stall line takes the instance's store (hold_back) before it
 * runs, while thread 0, not held, leaves its own untouched.  Before, only
 * the lane's top-level places were held, and a switched lane's held
 * thread ran unheld. */
static void test_lane_holds_inside_switch(void **state)
{
    (void)state;
    lrt_test t = {"switch", 3, 4, 3, nout4, fns_switch, sb_reset, collect3, NULL, NULL, NULL, 4, switch_gsweeps, NULL, NULL, NULL, NULL};
    lrt_config c;
    lrt_schedule sc;
    lrt_shared *sh = switched_shared(&t, &c, &sc, 64);
    sc.hold[1] = sc.held = true;
    draw_switches(sh, true);
    const int member[2] = {0, 1};
    for (size_t i = 1; i < 40; i += 7) {
        sh->stall[0].line[0] = 0xee;
        assert_int_equal(lane_run(sh, member, 0, 2, i), 2);
        assert_int_equal(sh->stall[1].line[0], (unsigned char)i);
        assert_int_equal(sh->stall[0].line[0], 0xee);
    }
    shared_free(sh);
    free(sh);
}

/* A stretch at a switched thread's switch slot (thread 0 stretched and
 * switched before its access 1) cannot share that slot with LRT_SWITCH
 * (draw_switches puts the switch there), and the lane arms the switch
 * with spins for after it returns (switch_after), a stretch_gap on about
 * half the instances, drawn per instance, none on the others; a thread
 * not stretched there, or not switched, gets none. */
static _Atomic uint64_t after_armed, after_spins;
static void after_body(int t, void *const *c, int64_t *out, const uint32_t *gap)
{
    if (t == 0 && gap && armed_switch.sh) {
        atomic_fetch_add(&after_armed, 1);
        atomic_fetch_add(&after_spins, armed_switch.after);
    }
    switch_body(t, c, out, gap);
}
GAPPED_SWEEPS3(after, after_body);

static void test_switch_stretch_after_return(void **state)
{
    (void)state;
    lrt_test t = {"switch", 3, 4, 3, nout4, fns_switch, sb_reset, collect3, NULL, NULL, NULL, 4, after_gsweeps, NULL, NULL, NULL, NULL};
    lrt_config c;
    lrt_schedule sc;
    lrt_shared *sh = switched_shared(&t, &c, &sc, 256);
    sc.stretch[0] = 2;
    sc.stretched = true;
    sh->lane_seed = 77;
    draw_switches(sh, true);
    assert_int_equal(sh->switch_gap[0][1], LRT_SWITCH);
    int none = 0, some = 0;
    for (size_t i = 0; i < 256; i++) {
        uint32_t a = switch_after(sh, 0, i);
        assert_true(a < (1u << GAP_LOG_MAX));
        none += a == 0;
        some += a != 0;
        assert_int_equal(switch_after(sh, 1, i), 0);
        assert_int_equal(a, switch_after(sh, 0, i));        /* the same wherever drawn */
    }
    assert_true(none > 64 && some > 64);
    /* the lane arms the switch with them */
    const int member[2] = {0, 1};
    atomic_store(&after_armed, 0);
    atomic_store(&after_spins, 0);
    uint64_t want = 0;
    for (size_t i = 0; i < 64; i++) {
        assert_int_equal(lane_run(sh, member, 0, 2, i), 2);
        want += switch_after(sh, 0, i);
    }
    assert_int_equal(atomic_load(&after_armed), 64);
    assert_int_equal(atomic_load(&after_spins), want);
    /* not stretched at the switch slot: nothing after it */
    sc.stretch[0] = 4;
    draw_switches(sh, true);
    assert_int_equal(sh->switch_gap[0][1], LRT_SWITCH);
    for (size_t i = 0; i < 256; i++)
        assert_int_equal(switch_after(sh, 0, i), 0);
    shared_free(sh);
    free(sh);
}

/* Switches in a switch: one lane, thread 0 switched to thread 1 before its
 * access 1, thread 1 to thread 2 before its access 1, runs 0's first
 * part, 1's, 2 whole, 1's rest, 0's rest.  Thread 2 stores cell 2; thread
 * 1's rest stores cell 1 after seeing cell 2; thread 0's rest must see
 * both.  Counted where the bodies run with the switch armed. */
static _Atomic uint64_t nested_ok, nested_wrong;
static void nest0(void *const *c, int64_t *out, const uint32_t *gap)
{
    atomic_store_explicit((_Atomic int32_t *)c[0], 1, memory_order_relaxed);
    if (gap)
        lrt_gap(gap[1]);
    out[0] = atomic_load_explicit((_Atomic int32_t *)c[1], memory_order_relaxed);
    if (gap && gap[1] == LRT_SWITCH) {
        bool ok = out[0] == 1 && atomic_load_explicit((_Atomic int32_t *)c[2], memory_order_relaxed) == 1;
        atomic_fetch_add(ok ? &nested_ok : &nested_wrong, 1);
    }
}
static void nest1(void *const *c, int64_t *out, const uint32_t *gap)
{
    out[0] = atomic_load_explicit((_Atomic int32_t *)c[0], memory_order_relaxed);
    if (gap)
        lrt_gap(gap[1]);
    if (gap && gap[1] == LRT_SWITCH && atomic_load_explicit((_Atomic int32_t *)c[2], memory_order_relaxed) != 1)
        atomic_fetch_add(&nested_wrong, 1);
    atomic_store_explicit((_Atomic int32_t *)c[1], 1, memory_order_relaxed);
}
static void nest2(void *const *c, int64_t *out)
{
    out[0] = atomic_load_explicit((_Atomic int32_t *)c[0], memory_order_relaxed);
    atomic_store_explicit((_Atomic int32_t *)c[2], 1, memory_order_relaxed);
}
static void nest0_plain(void *const *c, int64_t *out)
{
    nest0(c, out, NULL);
}
static void nest1_plain(void *const *c, int64_t *out)
{
    nest1(c, out, NULL);
}
static const lrt_thread_fn fns_nest[3] = {nest0_plain, nest1_plain, nest2};
static void nest_body(int t, void *const *c, int64_t *out, const uint32_t *gap)
{
    if (t == 0)
        nest0(c, out, gap);
    else if (t == 1)
        nest1(c, out, gap);
    else
        nest2(c, out);
}
GAPPED_SWEEPS3(nest, nest_body);

static void test_lanes_switch_in_switch(void **state)
{
    (void)state;
    lrt_test t = {"nested", 3, 4, 3, nout4, fns_nest, sb_reset, collect3, NULL, NULL, NULL, 4, nest_gsweeps, NULL, NULL, NULL, NULL};
    lrt_config c;
    lrt_schedule sc;
    laned_config(&c, &sc);
    sc.lane[2] = 0;
    sc.pos[2] = 2;
    sc.split[0] = sc.split[1] = 1;
    sc.switched = true;
    atomic_store(&nested_ok, 0);
    atomic_store(&nested_wrong, 0);
    lrt_result r;
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    assert_int_equal(lrt_hist_total(&r.hist), 200000);
    assert_true(atomic_load(&nested_ok) > 0);
    assert_int_equal(atomic_load(&nested_wrong), 0);
    lrt_result_free(&r);
}

/* A switch whose gap the body never reaches (thread 0 is switched before
 * its access 2, but only ever comes to gap 1, as a branch past an access
 * would): thread 1 still runs every instance once, after thread 0.  Thread
 * 0 leaves its worker's tid in cell 3 at its end; thread 1 finding it ran
 * right after thread 0 on the same lane. */
static _Atomic uint64_t unswitched0, after0;
static void unreached0(void *const *c, int64_t *out, const uint32_t *gap)
{
    atomic_store_explicit((_Atomic int32_t *)c[0], 1, memory_order_relaxed);
    if (gap)
        lrt_gap(gap[1]);
    out[0] = atomic_load_explicit((_Atomic int32_t *)c[1], memory_order_relaxed);
    if (gap && gap[2] == LRT_SWITCH) {
        atomic_fetch_add(&unswitched0, 1);
        atomic_store_explicit((_Atomic int32_t *)c[3], (int32_t)gettid(), memory_order_relaxed);
    }
}
static void unreached1(void *const *c, int64_t *out)
{
    if (atomic_load_explicit((_Atomic int32_t *)c[3], memory_order_relaxed) == (int32_t)gettid())
        atomic_fetch_add(&after0, 1);
    out[0] = atomic_load_explicit((_Atomic int32_t *)c[0], memory_order_relaxed);
}
static void unreached0_plain(void *const *c, int64_t *out)
{
    unreached0(c, out, NULL);
}
static const lrt_thread_fn fns_unreached[3] = {unreached0_plain, unreached1, switch2};
static void unreached_body(int t, void *const *c, int64_t *out, const uint32_t *gap)
{
    if (t == 0)
        unreached0(c, out, gap);
    else
        fns_unreached[t](c, out);
}
GAPPED_SWEEPS3(unreached, unreached_body);

static void test_lanes_switch_not_reached(void **state)
{
    (void)state;
    lrt_test t = {"unreached", 3, 4, 3, nout4, fns_unreached, sb_reset, collect3, NULL, NULL, NULL, 4,
                  unreached_gsweeps, NULL, NULL, NULL, NULL};
    lrt_config c;
    lrt_schedule sc;
    laned_config(&c, &sc);
    sc.split[0] = 2;
    sc.switched = true;
    atomic_store(&unswitched0, 0);
    atomic_store(&after0, 0);
    lrt_result r;
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    assert_int_equal(lrt_hist_total(&r.hist), 200000);
    assert_true(atomic_load(&unswitched0) > 0);
    assert_int_equal(atomic_load(&after0), atomic_load(&unswitched0));
    lrt_result_free(&r);
}

/* Fences of a lane: one between each two places but after the last,
 * none where the schedule says "n" and the later thread loads nothing
 * the ones since the last fence store, one where it does (a load would
 * read a store from the store buffer), and always around a switch; the
 * group's lanes all make the most any makes. */
static void test_lane_fences(void **state)
{
    (void)state;
    /* locations 0..3; thread 0 stores 0, thread 1 loads 1 and stores 1,
     * thread 2 loads 0, thread 3 loads 2 */
    static const uint64_t loads[4] = {0, 0x2, 0x1, 0x4}, stores[4] = {0x1, 0x2, 0, 0};
    lrt_test t = {"fences", 4, 4, 4, nout4, fns4, sb_reset, sb_collect4, NULL, NULL, NULL, 4, NULL, loads, stores, NULL, NULL};
    lrt_schedule sc;
    memset(&sc, 0, sizeof sc);
    for (int u = 0; u < 4; u++)
        sc.pos[u] = (unsigned char)u;
    lrt_shared sh;
    memset(&sh, 0, sizeof sh);
    sh.t = &t;
    sh.sched = &sc;
    int member[4] = {0, 1, 2, 3};
    bool after[4];
    /* no "n": a fence after each place but the last */
    assert_int_equal(lane_fences(&sh, member, 4, after), 3);
    assert_true(after[0] && after[1] && after[2] && !after[3]);
    /* "n" on 1, 2 and 3: 1 loads nothing 0 stores, none; 2 loads what 0
     * stored before it with no fence since, a fence; 3 after that, none */
    sc.nofence[1] = sc.nofence[2] = sc.nofence[3] = true;
    assert_int_equal(lane_fences(&sh, member, 4, after), 1);
    assert_true(!after[0] && after[1] && !after[2] && !after[3]);
    /* a switch at 1 keeps the fences around it */
    sc.split[1] = 1;
    (void)lane_fences(&sh, member, 4, after);
    assert_true(after[0] && after[1] && after[2]);
    sc.split[1] = 0;
    /* without the test's accesses, every fence stays */
    t.loads = t.stores = NULL;
    assert_int_equal(lane_fences(&sh, member, 4, after), 3);
    /* two lanes of one group pace to the one with the most fences */
    t.loads = loads;
    t.stores = stores;
    sc.lane[2] = sc.lane[3] = 1;
    sc.pos[2] = 0;
    sc.pos[3] = 1;
    sc.nofence[1] = false;
    int second[2] = {2, 3};
    assert_int_equal(lane_fences(&sh, second, 2, after), 0);
    assert_int_equal(group_fences(&sh, 0), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lanes_run_threads_in_order),
        cmocka_unit_test(test_lanes_meet_by_place),
        cmocka_unit_test(test_lanes_switch_threads),
        cmocka_unit_test(test_lane_holds_inside_switch),
        cmocka_unit_test(test_hold_rounds_per_instance),
        cmocka_unit_test(test_switch_stretch_after_return),
        cmocka_unit_test(test_lanes_switch_not_reached),
        cmocka_unit_test(test_lanes_switch_in_switch),
        cmocka_unit_test(test_lane_fences),
    };
    return cmocka_run_group_tests_name("runtime-lanes", tests, NULL, NULL);
}
