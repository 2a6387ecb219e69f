/* The hunt's enumerated stream (--order enum): a small vocabulary gives
 * exactly the cycles `litmusc gen --size 6 --mix` gives from it, smallest
 * first, and then ends; over gen's whole vocabulary test k is the same
 * whether reached in order, alone, or after a later one (a resume, a
 * shard), across a window of the round; another seed, other rounds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "hunt/hunt.h"

static int edges(const char *cycle)
{
    int n = 1;
    for (const char *p = cycle; *p; p++)
        n += *p == ' ';
    return n;
}

static void small_vocabulary_whole(void **state)
{
    (void)state;
    /* `litmusc gen --arch C --size 6 --mix --min-relax 1 --max-relax 6` with
     * the five non-communication edges as --relax and the four others as
     * --safe makes these 16 tests (in its own order) */
    static const char *const want[] = {
        "MP+porlxrel+poacqrlx", "SB+porlxrlxs", "SB+fencescrlxrlx+porlxrlx", "LB+porlxrlxs",
        "SB+fencescrlxrlxs", "WRW+WR+porlxrlxs+Rlx", "WWC+porlxrlxs+Rlx", "WRW+WR+porlxrlx+fencescrlxrlx+Rlx",
        "W+RWC+porlxrel+poacqrlx+porlxrlx", "W+RWC+porlxrel+poacqrlx+fencescrlxrlx", "3.SB+porlxrlxs",
        "3.SB+fencescrlxrlx+porlxrlx+porlxrlx", "3.SB+fencescrlxrlx+fencescrlxrlx+porlxrlx", "3.LB+porlxrlxs",
        "IRWIW+porlxrlxs+RlxRlx", "3.SB+fencescrlxrlxs"};
    enum { NWANT = sizeof want / sizeof *want };
    hunt_vocab *v = hunt_vocab_new("PodWRRlxRlx PodWWRlxRel PodRRAcqRlx PodRWRlxRlx RfeRlxRlx FreRlxRlx "
                                   "CoeRlxRlx RfeRelAcq FenceScdWRRlxRlx",
                                   NULL);
    diag d = {0};
    hunt_enum *e = hunt_enum_new(v, 1, &d);
    assert_non_null(e);
    bool seen[NWANT] = {0};
    int last = 0;
    long k = 0;
    gen_test t;
    for (int r; (r = hunt_enum_test(e, k, &t, &d)) == 1; k++) {
        int n = edges(t.cycle);
        assert_true(n >= 4 && n <= 6);
        assert_true(n >= last);     /* smallest first */
        last = n;
        bool found = false;
        for (int i = 0; i < NWANT; i++)
            if (!strcmp(t.name, want[i]) && !seen[i])
                seen[i] = found = true;
        if (!found)
            fail_msg("test %ld '%s' (%s) is not one of gen's, or came twice", k, t.name, t.cycle);
        gen_test_free(&t);
    }
    assert_int_equal(k, NWANT);
    char where[160];
    hunt_enum_where(e, where, sizeof where);
    assert_non_null(strstr(where, "enumeration done"));
    hunt_enum_free(e);
    hunt_vocab_free(v);
}

/* Test K of a fresh enumeration of V for SEED, its text (malloc'd). */
static char *alone(const hunt_vocab *v, uint64_t seed, long k)
{
    diag d = {0};
    hunt_enum *e = hunt_enum_new(v, seed, &d);
    gen_test t;
    assert_int_equal(hunt_enum_test(e, k, &t, &d), 1);
    char *s = t.text;
    t.text = NULL;
    gen_test_free(&t);
    hunt_enum_free(e);
    return s;
}

static void any_order_same_test(void **state)
{
    (void)state;
    hunt_vocab *v = hunt_vocab_new(NULL, NULL);
    diag d = {0};
    hunt_enum *e = hunt_enum_new(v, 1, &d);
    assert_non_null(e);
    char *first = NULL, *far = NULL;
    gen_test t;
    for (long k = 0; k <= 1100; k++) {
        assert_int_equal(hunt_enum_test(e, k, &t, &d), 1);
        assert_int_equal(edges(t.cycle), 4);
        if (k == 0)
            first = strdup(t.text);
        if (k == 1100)
            far = strdup(t.text);
        gen_test_free(&t);
    }
    char where[160];
    hunt_enum_where(e, where, sizeof where);
    assert_non_null(strstr(where, "enumeration at size 4, slice "));
    /* back to the start after a later window */
    assert_int_equal(hunt_enum_test(e, 0, &t, &d), 1);
    assert_string_equal(t.text, first);
    gen_test_free(&t);
    hunt_enum_free(e);
    /* alone, as a shard or a resume reaches them */
    char *s = alone(v, 1, 1100);
    assert_string_equal(s, far);
    free(s);
    s = alone(v, 2, 0);
    assert_string_not_equal(s, first);
    free(s);
    free(first), free(far);
    hunt_vocab_free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(small_vocabulary_whole),
        cmocka_unit_test(any_order_same_test),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
