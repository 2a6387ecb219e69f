/* A library loaded on first use: its functions found and callable, and a
 * missing library or function said by name rather than a crash later.
 * The C library's maths library stands in for LLVM and Capstone, and the
 * program itself must not have them linked (their start-up cost). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "util/dynlib.h"

static void test_loads_functions(void **state)
{
    (void)state;
    const char *names[] = {"cos", "sqrt"};
    void (*fns[2])(void) = {0};
    char err[200] = "";
    assert_true(dynlib_load("libm.so.6", names, fns, 2, err, sizeof err));
    assert_string_equal(err, "");
    double (*root)(double) = (double (*)(double))fns[1];
    assert_true(root(9.0) == 3.0);
}

static void test_missing_library(void **state)
{
    (void)state;
    const char *names[] = {"cos"};
    void (*fns[1])(void) = {0};
    char err[200] = "";
    assert_false(dynlib_load("/nonexistent/libnothing.so", names, fns, 1, err, sizeof err));
    assert_non_null(strstr(err, "libnothing.so"));
    assert_null(fns[0]);
}

static void test_missing_function(void **state)
{
    (void)state;
    const char *names[] = {"cos", "no_such_function_here"};
    void (*fns[2])(void) = {0};
    char err[200] = "";
    assert_false(dynlib_load("libm.so.6", names, fns, 2, err, sizeof err));
    assert_string_equal(err, "libm.so.6 has no no_such_function_here");
}

/* The program's own link line leaves the two large libraries out. */
static void test_not_linked(void **state)
{
    (void)state;
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        skip();
    char line[512];
    while (fgets(line, sizeof line, f)) {
        assert_null(strstr(line, "libLLVM"));
        assert_null(strstr(line, "libcapstone"));
    }
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loads_functions),
        cmocka_unit_test(test_missing_library),
        cmocka_unit_test(test_missing_function),
        cmocka_unit_test(test_not_linked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
