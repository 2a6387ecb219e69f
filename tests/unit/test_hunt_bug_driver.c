/* The stress driver's pieces that need no compiler: the forbidden state
 * read into observables (the lifter's cc_unroll left out, a name that is
 * no global of the test refused), and the driver's text for a prefixed
 * object (extern declarations, the reset of each round) and for repro.c
 * (the unit first, its threads kept out of line). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "hunt/internal.h"
#include "unit_litmus.h"

static const char *mp = "C MP\n{ y=2; }\n"
                        "P0(atomic_int* x, atomic_int* y) {\n"
                        "  atomic_store_explicit(x, 1, memory_order_relaxed);\n"
                        "  atomic_store_explicit(y, 1, memory_order_release);\n}\n\n"
                        "P1(atomic_int* x, atomic_int* y) {\n"
                        "  int r0 = atomic_load_explicit(y, memory_order_acquire);\n"
                        "  int r1 = atomic_load_explicit(x, memory_order_relaxed);\n}\n\n"
                        "exists (1:r0=1 /\\ 1:r1=0)\n";

static void state_parsed(void **state)
{
    (void)state;
    hunt_obs *o;
    int n;
    assert_true(hunt_parse_state("x=1; P0_r0=0; P1_r0=-2;", &o, &n));
    assert_int_equal(n, 3);
    assert_string_equal(o[0].name, "x");
    assert_int_equal(o[0].value, 1);
    assert_string_equal(o[2].name, "P1_r0");
    assert_int_equal(o[2].value, -2);
    hunt_obs_free(o, n);
    assert_false(hunt_parse_state("x=; y=1;", &o, &n));
    assert_false(hunt_parse_state("0:r0=1;", &o, &n));
    assert_false(hunt_parse_state("", &o, &n));
}

static void state_of_the_test(void **state)
{
    (void)state;
    ir_test *t = unit_litmus(mp);
    hunt_obs *o;
    int n;
    diag d = {0};
    assert_true(hunt_state_obs(t, "y=1; P1_r0=1; P1_r1=0; cc_unroll=0;", &o, &n, &d));
    assert_int_equal(n, 3);
    assert_string_equal(o[1].name, "P1_r0");
    hunt_obs_free(o, n);
    assert_false(hunt_state_obs(t, "z=1;", &o, &n, &d));
    assert_int_equal(d.status, 2);
    assert_non_null(strstr(d.msg, "'z'"));
    d = (diag){0};
    assert_false(hunt_state_obs(t, "P0_r0=1;", &o, &n, &d));
    ir_test_free(t);
}

static void driver_for_an_object(void **state)
{
    (void)state;
    ir_test *t = unit_litmus(mp);
    hunt_obs o[] = {{"P1_r0", 1}, {"P1_r1", 0}};
    char *s = hunt_driver_text(t, "t7_", o, 2, NULL);
    assert_non_null(strstr(s, "extern void t7_P1(void);\n"));
    assert_non_null(strstr(s, "extern int t7_x;\n"));
    assert_non_null(strstr(s, "extern int t7_P1_r1;\n"));
    /* each round: y back to 2, the registers to 0 */
    assert_non_null(strstr(s, "    *(volatile int *)&t7_y = 2;\n"));
    assert_non_null(strstr(s, "    *(volatile int *)&t7_P1_r0 = 0;\n"));
    assert_non_null(strstr(s, "hd_obs_want[] = {1LL, 0LL};"));
    assert_non_null(strstr(s, "#define hd_NT 2\n"));
    /* no fence, no RMW of its own: a broken compiler builds it right */
    assert_null(strstr(s, "SEQ_CST"));
    assert_null(strstr(s, "fetch_add"));
    free(s);
    s = hunt_driver_text(t, "", o, 2, "int x = 0;\n");
    assert_non_null(strstr(s, "void P0(void) __attribute__((noinline));\n"));
    assert_null(strstr(s, "extern"));
    assert_true(strstr(s, "int x = 0;\n") < strstr(s, "hd_reset"));
    free(s);
    ir_test_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(state_parsed),
        cmocka_unit_test(state_of_the_test),
        cmocka_unit_test(driver_for_an_object),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
