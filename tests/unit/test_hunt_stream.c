/* The hunt's test stream and its batches' units: test k is the same for
 * the same (seed, k) and another for another seed; the walk draws every
 * kind of edge of gen's C vocabulary (RMWs and access fences among them);
 * a name it cannot place is counted, not drawn; a test's part of a unit
 * names everything under its prefix. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "frontend/frontend.h"
#include "hunt/hunt.h"
#include "ir/lower.h"
#include "lift/lift.h"

static void same_seed_same_test(void **state)
{
    (void)state;
    hunt_vocab *v = hunt_vocab_new(NULL, NULL);
    assert_true(hunt_vocab_size(v) > 1000);
    for (long k = 0; k < 20; k++) {
        gen_test a, b, c;
        diag d = {0};
        assert_true(hunt_stream_test(v, 7, k, &a, &d));
        assert_true(hunt_stream_test(v, 7, k, &b, &d));
        assert_true(hunt_stream_test(v, 8, k, &c, &d));
        assert_string_equal(a.text, b.text);
        /* even k: two threads (diy7's size 4 shapes) */
        if (k % 2 == 0)
            assert_int_equal(a.nprocs, 2);
        assert_true(a.nprocs >= 2 && a.nprocs <= 4);
        gen_test_free(&a), gen_test_free(&b), gen_test_free(&c);
    }
    /* another seed, another stream */
    int differ = 0;
    for (long k = 0; k < 10; k++) {
        gen_test a, c;
        diag d = {0};
        assert_true(hunt_stream_test(v, 7, k, &a, &d));
        assert_true(hunt_stream_test(v, 8, k, &c, &d));
        differ += strcmp(a.cycle, c.cycle) != 0;
        gen_test_free(&a), gen_test_free(&c);
    }
    assert_true(differ >= 8);
    hunt_vocab_free(v);
}

/* Every kind of edge turns up in the first 400 tests. */
static void every_kind_drawn(void **state)
{
    (void)state;
    hunt_vocab *v = hunt_vocab_new(NULL, NULL);
    static const char *const kinds[] = {"Rfe", "Fre", "Coe", "Pod", "FenceSc", "Dp", "Rmw", "Exch", "FenceXchg"};
    int seen[sizeof kinds / sizeof *kinds] = {0};
    for (long k = 0; k < 400; k++) {
        gen_test t;
        diag d = {0};
        assert_true(hunt_stream_test(v, 1, k, &t, &d));
        for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
            for (const char *p = t.cycle; (p = strstr(p, kinds[i])); p++)
                if (p == t.cycle || p[-1] == ' ')
                    seen[i]++;
        gen_test_free(&t);
    }
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        if (!seen[i])
            fail_msg("no %s edge in 400 tests", kinds[i]);
    }
    hunt_vocab_free(v);
}

static void vocabulary_given(void **state)
{
    (void)state;
    int skipped = 0;
    hunt_vocab *v = hunt_vocab_new("PodWRScSc FreScSc Bogus PodWR*", &skipped);
    assert_int_equal(hunt_vocab_size(v), 2);
    assert_int_equal(skipped, 2);
    assert_int_equal(hunt_vocab_find(v, "FreScSc"), 1);
    gen_test t;
    diag d = {0};
    assert_true(hunt_stream_test(v, 3, 0, &t, &d));
    assert_string_equal(t.name, "SB+poscscs");
    gen_test_free(&t);
    hunt_vocab_free(v);
    double s = 0;
    assert_true(hunt_parse_duration("10m", &s));
    assert_true(s == 600);
    assert_true(hunt_parse_duration("2h", &s) && s == 7200);
    assert_true(hunt_parse_duration("30s", &s) && s == 30);
    assert_false(hunt_parse_duration("10x", &s));
    assert_false(hunt_parse_duration("-1s", &s));
}

/* A test's part of a batch's unit: prefixed globals, functions and macros. */
static void unit_part_prefixed(void **state)
{
    (void)state;
    const char *src = "C SB\n{}\nP0 (atomic_int* y,atomic_int* x) {\n"
                      "  atomic_store_explicit(x,1,memory_order_seq_cst);\n"
                      "  int r0 = atomic_load_explicit(y,memory_order_seq_cst);\n}\n\n"
                      "P1 (atomic_int* y,atomic_int* x) {\n"
                      "  atomic_store_explicit(y,1,memory_order_seq_cst);\n"
                      "  int r0 = atomic_load_explicit(x,memory_order_seq_cst);\n}\n\n"
                      "exists (0:r0=0 /\\ 1:r0=0)\n";
    diag d = {0};
    fe_test *ft = fe_parse(src, strlen(src), "SB.litmus", &d);
    assert_non_null(ft);
    ir_test *t = ir_lower(ft, &d);
    assert_non_null(t);
    char *p = lift_tu_part(ft, t, "t17_", false, &d);
    assert_non_null(p);
    assert_non_null(strstr(p, "atomic_int t17_x = 0;\n"));
    assert_non_null(strstr(p, "int t17_P0_r0;\n"));
    assert_non_null(strstr(p, "#define x (&t17_x)\n"));
    assert_non_null(strstr(p, "void t17_P1(void)\n"));
    assert_non_null(strstr(p, "  t17_P1_r0 = r0;\n"));
    assert_null(strstr(p, "#include"));
    free(p);
    p = lift_tu_part(ft, t, "t3_", true, &d);
    assert_non_null(strstr(p, "atomic_int t3_x __attribute__((weak)) = 0;\n"));
    free(p);
    ir_test_free(t);
    fe_test_free(ft);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_seed_same_test),
        cmocka_unit_test(every_kind_drawn),
        cmocka_unit_test(vocabulary_given),
        cmocka_unit_test(unit_part_prefixed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
