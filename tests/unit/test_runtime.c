/* Unit tests of the native runtime (runtime/): the outcome table, cell
 * layouts and random numbers, and the generators' agreement with it.  The
 * runtime is compiled into each generated program, not into an archive, so
 * its sources are included here directly (as in test_runtime_runs.c,
 * test_runtime_gaps.c and test_runtime_lanes.c). */
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hist_counts_and_grows),
        cmocka_unit_test(test_hist_sorted_signed),
        cmocka_unit_test(test_hist_merge_and_width0),
        cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_rng),
    };
    return cmocka_run_group_tests_name("runtime", tests, NULL, NULL);
}
