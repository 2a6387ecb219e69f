/* Unit tests of the native runtime (runtime/): the outcome table, cell
 * layouts, random numbers, barriers, and whole runs of a hand-written
 * test under every synchronisation mode, including oversubscription and
 * interruption.  The runtime is compiled into each generated program, not
 * into an archive, so its sources are included here directly. */
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

/* The generators and the runtime agree on the gap slots. */
_Static_assert(NATIVE_GAPS == LRT_GAPS, "backends/native.h and runtime/lrt.h disagree on the gap slots");
_Static_assert(HARNESS_MAX_PIECES == LRT_MAX_PIECES, "harness/harness.h and the runtime disagree on the pieces");

/* ---- the outcome table ---------------------------------------------- */

static void test_hist_counts_and_grows(void **state)
{
    (void)state;
    lrt_hist h;
    assert_true(lrt_hist_init(&h, 3));
    /* 5000 distinct keys force several doublings from 64 slots. */
    for (int round = 0; round < 3; round++)
        for (int64_t i = 0; i < 5000; i++) {
            int64_t key[3] = {i, -i, i * 7};
            assert_true(lrt_hist_add(&h, key, (uint64_t)(round + 1)));
        }
    assert_int_equal(h.n, 5000);
    assert_true(h.cap >= 10000);            /* load kept under one half */
    assert_int_equal(lrt_hist_total(&h), 5000 * 6);
    int64_t k42[3] = {42, -42, 294};
    assert_int_equal(lrt_hist_get(&h, k42), 6);
    int64_t absent[3] = {42, 42, 42};
    assert_int_equal(lrt_hist_get(&h, absent), 0);
    lrt_hist_free(&h);
}

static void test_hist_sorted_signed(void **state)
{
    (void)state;
    lrt_hist h;
    assert_true(lrt_hist_init(&h, 2));
    int64_t keys[][2] = {{1, 0}, {-1, 5}, {0, 0}, {1, -3}, {INT64_MIN, 0}, {INT64_MAX, 1}};
    for (size_t i = 0; i < 6; i++)
        assert_true(lrt_hist_add(&h, keys[i], i + 1));
    size_t *idx = lrt_hist_sorted(&h);
    assert_non_null(idx);
    int64_t want[][2] = {{INT64_MIN, 0}, {-1, 5}, {0, 0}, {1, -3}, {1, 0}, {INT64_MAX, 1}};
    for (size_t i = 0; i < 6; i++) {
        assert_int_equal(h.keys[idx[i] * 2], want[i][0]);
        assert_int_equal(h.keys[idx[i] * 2 + 1], want[i][1]);
    }
    free(idx);
    lrt_hist_free(&h);
}

static void test_hist_merge_and_width0(void **state)
{
    (void)state;
    lrt_hist a, b;
    assert_true(lrt_hist_init(&a, 1));
    assert_true(lrt_hist_init(&b, 1));
    int64_t x = 3, y = 4;
    lrt_hist_add(&a, &x, 10);
    lrt_hist_add(&b, &x, 5);
    lrt_hist_add(&b, &y, 1);
    assert_true(lrt_hist_merge(&a, &b));
    assert_int_equal(lrt_hist_get(&a, &x), 15);
    assert_int_equal(lrt_hist_get(&a, &y), 1);
    assert_int_equal(a.n, 2);
    lrt_hist_free(&a);
    lrt_hist_free(&b);
    /* A test with no observables has one outcome. */
    lrt_hist z;
    assert_true(lrt_hist_init(&z, 0));
    lrt_hist_add(&z, NULL, 2);
    lrt_hist_add(&z, NULL, 3);
    assert_int_equal(z.n, 1);
    assert_int_equal(lrt_hist_total(&z), 5);
    lrt_hist_free(&z);
}

/* ---- layouts and random numbers ------------------------------------------ */

static int cmp_ptr(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)*(void *const *)a, y = (uintptr_t)*(void *const *)b;
    return x < y ? -1 : x > y;
}

static void check_distinct(const lrt_layout *l)
{
    size_t n = l->ninst * (size_t)l->nlocs;
    void **copy = malloc(n * sizeof *copy);
    memcpy(copy, l->cell, n * sizeof *copy);
    qsort(copy, n, sizeof *copy, cmp_ptr);
    for (size_t i = 1; i < n; i++)
        assert_true((uintptr_t)copy[i] - (uintptr_t)copy[i - 1] >= l->stride);
    size_t width = l->stride < LRT_CELL_SIZE ? l->stride : LRT_CELL_SIZE;
    for (size_t i = 0; i < n; i++) {
        assert_true((unsigned char *)copy[i] >= l->arena);
        assert_true((unsigned char *)copy[i] + width <= l->arena + n * l->stride);
        assert_int_equal((uintptr_t)copy[i] % width, 0);
    }
    free(copy);
}

static void test_layouts(void **state)
{
    (void)state;
    lrt_layout l;
    assert_true(lrt_layout_init(&l, LRT_LAYOUT_PACKED, 100, 3, 0));
    /* Packed: an instance's cells are adjacent words. */
    assert_ptr_equal((char *)lrt_layout_cells(&l, 5)[1], (char *)lrt_layout_cells(&l, 5)[0] + 8);
    check_distinct(&l);
    lrt_layout_free(&l);

    /* Array: one array per location, instance i at word i of each. */
    assert_true(lrt_layout_init(&l, LRT_LAYOUT_ARRAY, 100, 3, 8));
    assert_ptr_equal((char *)lrt_layout_cells(&l, 6)[0], (char *)lrt_layout_cells(&l, 5)[0] + 8);
    assert_ptr_equal((char *)lrt_layout_cells(&l, 5)[2], (char *)lrt_layout_cells(&l, 5)[1] + 800);
    assert_ptr_equal((char *)lrt_layout_cells(&l, 0)[0], (char *)l.arena);
    check_distinct(&l);
    lrt_layout_free(&l);

    /* Cells as wide as the test's widest: 16 instances of 32-bit cells to
     * a line; a width that is no power of two (or too wide) means 8. */
    assert_true(lrt_layout_init(&l, LRT_LAYOUT_ARRAY, 100, 3, 4));
    assert_ptr_equal((char *)lrt_layout_cells(&l, 6)[0], (char *)lrt_layout_cells(&l, 5)[0] + 4);
    assert_ptr_equal((char *)lrt_layout_cells(&l, 5)[2], (char *)lrt_layout_cells(&l, 5)[1] + 400);
    check_distinct(&l);
    lrt_layout_free(&l);
    assert_true(lrt_layout_init(&l, LRT_LAYOUT_PACKED, 10, 2, 1));
    assert_ptr_equal((char *)lrt_layout_cells(&l, 3)[1], (char *)lrt_layout_cells(&l, 3)[0] + 1);
    check_distinct(&l);
    lrt_layout_free(&l);
    for (int bad = 3; bad <= 16; bad += 13) {
        assert_true(lrt_layout_init(&l, LRT_LAYOUT_PACKED, 10, 2, bad));
        assert_int_equal(l.stride, LRT_CELL_SIZE);
        lrt_layout_free(&l);
    }

    assert_true(lrt_layout_init(&l, LRT_LAYOUT_LINE, 100, 3, 4));
    for (size_t i = 0; i < 300; i++)
        assert_int_equal((uintptr_t)l.cell[i] % LRT_LINE, 0);
    check_distinct(&l);
    lrt_layout_free(&l);

    assert_true(lrt_layout_init(&l, LRT_LAYOUT_SHUFFLE, 200, 2, 0));
    lrt_rng r;
    lrt_rng_seed(&r, 7);
    void *before = l.cell[0];
    int moved = 0;
    for (int k = 0; k < 5; k++) {
        lrt_layout_shuffle(&l, &r);
        check_distinct(&l);          /* still a permutation of the slots */
        moved += l.cell[0] != before;
        for (size_t i = 0; i < 400; i++)
            assert_int_equal((uintptr_t)l.cell[i] % LRT_LINE, 0);
    }
    assert_true(moved >= 4);
    lrt_layout_free(&l);

    /* Array and packed trade places (the handshake runs'); others stay. */
    assert_true(lrt_layout_init(&l, LRT_LAYOUT_ARRAY, 100, 3, 4));
    assert_false(lrt_layout_place_as(&l, LRT_LAYOUT_ARRAY));
    assert_true(lrt_layout_place_as(&l, LRT_LAYOUT_PACKED));
    assert_ptr_equal((char *)lrt_layout_cells(&l, 5)[1], (char *)lrt_layout_cells(&l, 5)[0] + 4);
    assert_ptr_equal((char *)lrt_layout_cells(&l, 0)[0], (char *)l.arena);
    check_distinct(&l);
    assert_true(lrt_layout_place_as(&l, LRT_LAYOUT_ARRAY));
    assert_ptr_equal((char *)lrt_layout_cells(&l, 5)[2], (char *)lrt_layout_cells(&l, 5)[1] + 400);
    check_distinct(&l);
    assert_false(lrt_layout_place_as(&l, LRT_LAYOUT_LINE));
    assert_int_equal(l.kind, LRT_LAYOUT_ARRAY);
    lrt_layout_free(&l);
}

static void test_rng(void **state)
{
    (void)state;
    lrt_rng a, b;
    lrt_rng_seed(&a, 99);
    lrt_rng_seed(&b, 99);
    int seen[5] = {0};
    for (int i = 0; i < 5000; i++) {
        uint64_t x = lrt_rng_below(&a, 5);
        assert_true(x < 5);
        seen[x]++;
        assert_int_equal(x, lrt_rng_below(&b, 5));   /* same seed, same stream */
    }
    for (int i = 0; i < 5; i++)
        assert_true(seen[i] > 800 && seen[i] < 1200);
    int perm[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    lrt_rng_shuffle(&a, perm, 10);
    int sum = 0, mask = 0;
    for (int i = 0; i < 10; i++)
        sum += perm[i], mask |= 1 << perm[i];
    assert_int_equal(sum, 45);
    assert_int_equal(mask, 0x3ff);
}

/* ---- whole runs ---------------------------------------------------------------
 * SB on relaxed atomics: thread k stores 1 to cell k, then loads cell 1-k.
 * With 4 threads (two SB pairs sharing cells 0/1 and 2/3) the same shape
 * oversubscribes a 2-CPU machine. */
static void sb0(void *const *c, int64_t *out)
{
    atomic_store_explicit((_Atomic int32_t *)c[0], 1, memory_order_relaxed);
    out[0] = atomic_load_explicit((_Atomic int32_t *)c[1], memory_order_relaxed);
}
static void sb1(void *const *c, int64_t *out)
{
    atomic_store_explicit((_Atomic int32_t *)c[1], 1, memory_order_relaxed);
    out[0] = atomic_load_explicit((_Atomic int32_t *)c[0], memory_order_relaxed);
}
static void sb2(void *const *c, int64_t *out)
{
    atomic_store_explicit((_Atomic int32_t *)c[2], 1, memory_order_relaxed);
    out[0] = atomic_load_explicit((_Atomic int32_t *)c[3], memory_order_relaxed);
}
static void sb3(void *const *c, int64_t *out)
{
    atomic_store_explicit((_Atomic int32_t *)c[3], 1, memory_order_relaxed);
    out[0] = atomic_load_explicit((_Atomic int32_t *)c[2], memory_order_relaxed);
}
static void sb_reset(void *const *c)
{
    for (int l = 0; l < 4; l++)
        atomic_store_explicit((_Atomic int32_t *)c[l], 0, memory_order_relaxed);
}
static void sb_collect(void *const *c, int64_t *const *o, int64_t *v)
{
    (void)c;
    for (int k = 0; k < 2; k++)
        v[k] = o[k][0];
}
static void sb_collect4(void *const *c, int64_t *const *o, int64_t *v)
{
    (void)c;
    for (int k = 0; k < 4; k++)
        v[k] = o[k][0];
}
/* Final memory as well: every cell must read 1 after its store. */
static void sb_collect2(void *const *c, int64_t *const *o, int64_t *v)
{
    v[0] = o[0][0];
    v[1] = o[1][0];
    v[2] = atomic_load_explicit((_Atomic int32_t *)c[0], memory_order_relaxed);
    v[3] = atomic_load_explicit((_Atomic int32_t *)c[1], memory_order_relaxed);
}

static const int nout4[4] = {1, 1, 1, 1};
static const lrt_thread_fn fns4[4] = {sb0, sb1, sb2, sb3};

static void check_sb_result(const lrt_result *r, int nthreads, uint64_t expect)
{
    assert_int_equal(r->iterations, expect);
    assert_int_equal(lrt_hist_total(&r->hist), expect);
    /* Every outcome is one of the values the threads can load. */
    for (size_t i = 0; i < r->hist.cap; i++) {
        if (!r->hist.counts[i])
            continue;
        for (int k = 0; k < r->hist.width; k++) {
            int64_t v = r->hist.keys[i * (size_t)r->hist.width + (size_t)k];
            assert_true(v == 0 || v == 1);
        }
    }
    (void)nthreads;
}

static void run_sb(lrt_sync_kind sync, lrt_layout_kind layout, lrt_affinity_kind aff, int nthreads, int cpus)
{
    /* The cells are 32-bit: every mode runs on 4-byte slots here. */
    lrt_test t = {"SB", nthreads, 4, nthreads, nout4, fns4, sb_reset,
                  nthreads == 4 ? sb_collect4 : sb_collect, NULL, NULL, NULL, 4, NULL, NULL, NULL, NULL, NULL};
    lrt_config c;
    lrt_config_default(&c);
    c.size = 2000;
    c.runs = 5;
    c.sync = sync;
    c.layout = layout;
    c.affinity = aff;
    c.cpus = cpus;
    c.seed = 12345;
    lrt_result r;
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    check_sb_result(&r, nthreads, 10000);
    assert_int_equal(r.runs_done, 5);
    assert_false(r.interrupted);
    assert_true(r.elapsed > 0);
    lrt_result_free(&r);
}

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

/* Final memory is collected after every thread finished, and reset
 * between runs: both cells always read 1. */
static void sb_reset2(void *const *c)
{
    atomic_store_explicit((_Atomic int32_t *)c[0], 0, memory_order_relaxed);
    atomic_store_explicit((_Atomic int32_t *)c[1], 0, memory_order_relaxed);
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
 * period of P ticks the last of 8 chunks begins at least 5P after the
 * first (the first may itself have begun up to 2P late on a busy machine;
 * a free sweep takes a few microseconds for the whole run). */
enum { TB_CHUNK = 16, TB_CHUNKS = 8, TB_PERIOD = 1000000 };
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
    atomic_store(&tb_bad_range, 0);
    lrt_result r;
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    check_sb_result(&r, 2, TB_CHUNK * TB_CHUNKS);
    assert_int_equal(atomic_load(&tb_bad_range), 0);
    assert_true(atomic_load(&tb_warm[0]) && atomic_load(&tb_warm[1]));
    for (int me = 0; me < 2; me++)
        if (tb_start[me][TB_CHUNKS - 1] - tb_start[me][0] < 5 * (uint64_t)TB_PERIOD)
            fail_msg("thread %d: chunks 0 and %d began %llu ticks apart, period %d", me,
                     TB_CHUNKS - 1, (unsigned long long)(tb_start[me][TB_CHUNKS - 1] - tb_start[me][0]),
                     TB_PERIOD);
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
        cmocka_unit_test(test_hist_counts_and_grows),
        cmocka_unit_test(test_hist_sorted_signed),
        cmocka_unit_test(test_hist_merge_and_width0),
        cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_rng),
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
        cmocka_unit_test(test_gapped_runs),
        cmocka_unit_test(test_rounds_share_schedules_and_gaps),
        cmocka_unit_test(test_pending_schedule_fills_the_round),
        cmocka_unit_test(test_stretch_gaps_spread),
        cmocka_unit_test(test_lane_gaps_per_instance),
        cmocka_unit_test(test_interleave_pieces),
        cmocka_unit_test(test_handshake_runs),
        cmocka_unit_test(test_stalled_runs),
        cmocka_unit_test(test_warm_up_is_reset),
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
    return cmocka_run_group_tests_name("runtime", tests, NULL, NULL);
}
