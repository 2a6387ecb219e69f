/* Bisection with a real compiler: tests/hunt/broken-cc's bug is no pass
 * (it shows at -O0, and under clang's -opt-bisect-limit=0), and when the
 * wrapper is told to stand for a gcc pass (-fno-tree-pre removes it) or
 * for clang's fifth pass, bisection names that flag, or that pass and
 * the function it ran on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "hunt_cc.h"

static void broken_gcc_is_not_a_pass(void **state)
{
    (void)state;
    cc_ctx c = {.cc = BROKEN, .cflags = "-O2", .models = model_set_new()};
    hunt_bisect_result r;
    diag d = {0};
    assert_true(hunt_bisect(BROKEN, "-O2", sb, cc_pred, &c, &r, &d));
    print_message("%s (%d tries)\n", r.detail, r.tries);
    assert_string_equal(r.compiler_kind, "gcc");
    assert_int_equal(r.kind, HUNT_BISECT_NOT_A_PASS);
    assert_non_null(strstr(r.detail, "at -O0 too"));
    assert_null(r.flags);
    hunt_bisect_free(&r);
    model_set_free(c.models);
}

static void gcc_flag_found(void **state)
{
    (void)state;
    setenv("BROKEN_CC_UNLESS", "-fno-tree-pre", 1);
    cc_ctx c = {.cc = BROKEN, .cflags = "-O2", .models = model_set_new()};
    hunt_bisect_result r;
    diag d = {0};
    assert_true(hunt_bisect(BROKEN, "-O2", sb, cc_pred, &c, &r, &d));
    unsetenv("BROKEN_CC_UNLESS");
    print_message("%s (%d tries)\n", r.detail, r.tries);
    assert_int_equal(r.kind, HUNT_BISECT_PASS);
    assert_string_equal(r.flags, "-fno-tree-pre");
    assert_int_equal(r.tries, c.calls);
    hunt_bisect_free(&r);
    model_set_free(c.models);
}

static void clang_pass_found(void **state)
{
    (void)state;
    if (system("clang --version >/dev/null 2>&1"))
        skip();
    setenv("BROKEN_CC_BASE", "clang", 1);
    setenv("BROKEN_CC_PASS", "5", 1);
    cc_ctx c = {.cc = BROKEN, .cflags = "-O2", .models = model_set_new()};
    hunt_bisect_result r;
    diag d = {0};
    bool ok = hunt_bisect(BROKEN, "-O2", sb, cc_pred, &c, &r, &d);
    unsetenv("BROKEN_CC_PASS");
    unsetenv("BROKEN_CC_BASE");
    assert_true(ok);
    print_message("%s (%d tries)\n", r.detail, r.tries);
    assert_string_equal(r.compiler_kind, "clang");
    assert_int_equal(r.kind, HUNT_BISECT_PASS);
    assert_int_equal(r.limit, 5);
    /* clang 14 -O2's fifth pass on this translation unit */
    assert_string_equal(r.pass, "SimplifyCFGPass");
    assert_string_equal(r.function, "P0");
    hunt_bisect_free(&r);
    /* without the stand-in pass, the broken clang's bug is no pass */
    setenv("BROKEN_CC_BASE", "clang", 1);
    ok = hunt_bisect(BROKEN, "-O2", sb, cc_pred, &c, &r, &d);
    unsetenv("BROKEN_CC_BASE");
    assert_true(ok);
    print_message("%s (%d tries)\n", r.detail, r.tries);
    assert_int_equal(r.kind, HUNT_BISECT_NOT_A_PASS);
    hunt_bisect_free(&r);
    model_set_free(c.models);
}

int main(void)
{
    if (!cc_usable()) {
        puts("SKIP: needs gcc and " BROKEN " (run from the source folder)");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(broken_gcc_is_not_a_pass),
        cmocka_unit_test(gcc_flag_found),
        cmocka_unit_test(clang_pass_found),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
