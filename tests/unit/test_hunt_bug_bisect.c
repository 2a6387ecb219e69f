/* The readers of compiler output that bisection uses: gcc 12's
 * `-Q --help=optimizers` (enabled -f flags, not those taking a value nor
 * the disabled ones) and clang 14's -opt-bisect-limit listing (a pass's
 * number, its name with blanks, the function or module it ran on). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "hunt/internal.h"

static void gcc_enabled_flags(void **state)
{
    (void)state;
    const char *out = "The following options control optimizations:\n"
                      "  -O<number>                  \t\t\n"
                      "  -faggressive-loop-optimizations \t[enabled]\n"
                      "  -falign-functions           \t\t[enabled]\n"
                      "  -falign-functions=          \t\t16\n"
                      "  -fallow-store-data-races    \t\t[disabled]\n"
                      "  -fexcess-precision=[fast|standard|16] \t[default]\n"
                      "  -ftree-pre                  \t\t[enabled]\n"
                      "  -fvect-cost-model=[unlimited|dynamic|cheap|very-cheap] \tvery-cheap\n"
                      "  -fzero-initialized-in-bss   \t\t[enabled]";
    int n = 0;
    char **v = hunt_gcc_enabled_flags(out, &n);
    assert_int_equal(n, 4);
    assert_string_equal(v[0], "aggressive-loop-optimizations");
    assert_string_equal(v[1], "align-functions");
    assert_string_equal(v[2], "tree-pre");
    assert_string_equal(v[3], "zero-initialized-in-bss");
    strv_free(v, n);
    assert_null(hunt_gcc_enabled_flags("", &n));
    assert_int_equal(n, 0);
}

static void clang_bisect_lines(void **state)
{
    (void)state;
    const char *err = "BISECT: running pass (1) Annotation2MetadataPass on [module]\n"
                      "BISECT: running pass (5) SimplifyCFGPass on P0\n"
                      "BISECT: NOT running pass (31) SpeculativeExecutionPass on P1\n"
                      "warning: something else\n"
                      "BISECT: NOT running pass (187) X86 Execution Dependency Fix on function (P0)\n";
    char *pass, *fn;
    int last;
    assert_true(hunt_clang_bisect_line(err, 5, &pass, &fn, &last));
    assert_string_equal(pass, "SimplifyCFGPass");
    assert_string_equal(fn, "P0");
    assert_int_equal(last, 187);
    free(pass), free(fn);
    assert_true(hunt_clang_bisect_line(err, 187, &pass, &fn, &last));
    assert_string_equal(pass, "X86 Execution Dependency Fix");
    assert_string_equal(fn, "P0");
    free(pass), free(fn);
    assert_true(hunt_clang_bisect_line(err, 1, &pass, &fn, &last));
    assert_string_equal(fn, "[module]");
    free(pass), free(fn);
    assert_false(hunt_clang_bisect_line(err, 2, &pass, &fn, &last));
    assert_null(pass);
    assert_false(hunt_clang_bisect_line("no listing\n", 1, NULL, NULL, &last));
    assert_int_equal(last, -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gcc_enabled_flags),
        cmocka_unit_test(clang_bisect_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
