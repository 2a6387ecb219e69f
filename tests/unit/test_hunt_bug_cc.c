/* A bug's way through hunt/ with a real compiler: tests/hunt/broken-cc is
 * gcc (or clang) whose assembly loses its fences and has each xchg made a
 * plain store, and the predicate is cc-check's pipeline (lift_check: the
 * compiled test's x86tso states against the source's rc11 states).
 * Reduction takes a 4-thread, 12-access test down to SB; bisection says
 * the broken compiler's bug is no pass, and finds the gcc flag or the
 * clang pass the wrapper is told to stand for. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "frontend/frontend.h"
#include "hunt/bug.h"
#include "ir/lower.h"
#include "lift/lift.h"
#include "model/model.h"

#define BROKEN "tests/hunt/broken-cc"

typedef struct cc_ctx {
    const char *cc, *cflags;
    model_set *models;
    int calls;
} cc_ctx;

/* The bug predicate hunt uses, in small: parse, lower, the source's rc11
 * states, then compile, lift and compare.  The compiler's chatter (clang's
 * bisect listing) goes to /dev/null. */
static int cc_pred(void *vctx, const char *text, const char *extra, diag *d)
{
    cc_ctx *c = vctx;
    c->calls++;
    fe_test *ft = fe_parse(text, strlen(text), "cand.litmus", d);
    ir_test *t = ft ? ir_lower(ft, d) : NULL;
    model *rc11 = t ? model_set_get(c->models, "rc11", d) : NULL;
    model *tso = rc11 ? model_set_get(c->models, "x86tso", d) : NULL;
    bset *sb = tso ? model_run(rc11, t, d) : NULL;
    int verdict = -1;
    if (sb) {
        char flags[4096];
        snprintf(flags, sizeof flags, "%s %s", c->cflags, extra ? extra : "");
        fflush(stderr);
        int saved = dup(2), null = open("/dev/null", O_WRONLY);
        dup2(null, 2);
        lift_result r;
        bool ok = lift_check(ft, t, sb, tso, c->cc, flags, 2, &r, d);
        dup2(saved, 2);
        close(saved), close(null);
        verdict = ok ? r.verdict == LIFT_BUG : -1;
        lift_result_free(&r);
        bset_free(sb);
    }
    if (t)
        ir_test_free(t);
    fe_test_free(ft);
    return verdict;
}

static const char *big =
    "C big\n"
    "{}\n"
    "P0 (atomic_int* x, atomic_int* y, atomic_int* z) {\n"
    "  atomic_store(x, 1);\n"
    "  atomic_store_explicit(z, 2, memory_order_relaxed);\n"
    "  int r0 = atomic_load(y);\n"
    "  int r1 = atomic_load_explicit(z, memory_order_acquire);\n"
    "}\n"
    "P1 (atomic_int* x, atomic_int* y, atomic_int* w) {\n"
    "  atomic_store(y, 1);\n"
    "  int r0 = atomic_load(x);\n"
    "  atomic_store_explicit(w, 3, memory_order_release);\n"
    "}\n"
    "P2 (atomic_int* z, atomic_int* w) {\n"
    "  int r0 = atomic_load_explicit(w, memory_order_relaxed);\n"
    "  atomic_store_explicit(z, 1, memory_order_relaxed);\n"
    "  atomic_thread_fence(memory_order_seq_cst);\n"
    "}\n"
    "P3 (atomic_int* w) {\n"
    "  atomic_store_explicit(w, 2, memory_order_relaxed);\n"
    "  int r0 = atomic_fetch_add_explicit(w, 1, memory_order_relaxed);\n"
    "}\n"
    "exists (0:r0=0 /\\ 1:r0=0 /\\ 2:r0=3 /\\ 0:r1=2)\n";

static const char *sb =
    "C big\n"
    "{ }\n"
    "P0(atomic_int* x, atomic_int* y) {\n"
    "  atomic_store(x, 1);\n"
    "  int r0 = atomic_load(y);\n"
    "}\n"
    "\n"
    "P1(atomic_int* x, atomic_int* y) {\n"
    "  atomic_store(y, 1);\n"
    "  int r0 = atomic_load(x);\n"
    "}\n"
    "\n"
    "exists (0:r0=0 /\\ 1:r0=0)\n";

static void broken_gcc_reduces_to_sb(void **state)
{
    (void)state;
    cc_ctx c = {.cc = BROKEN, .cflags = "-O2", .models = model_set_new()};
    hunt_reduce_stats st;
    diag d = {0};
    char *r = hunt_reduce(big, cc_pred, &c, &st, &d);
    if (!r)
        fail_msg("%s", d.msg);
    if (strcmp(r, sb))
        fail_msg("reduced to:\n%s", r);
    assert_int_equal(st.threads_after, 2);
    assert_int_equal(st.accesses_after, 4);
    assert_int_equal(st.tries, c.calls);
    print_message("%d tries, %d steps kept\n", st.tries, st.kept);
    /* the plain gcc has no bug in it */
    c.cc = "gcc";
    d = (diag){0};
    assert_null(hunt_reduce(big, cc_pred, &c, &st, &d));
    free(r);
    model_set_free(c.models);
}

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

/* SB compiled by CC -O2 into OBJ in DIR; its parsed and lowered forms. */
static void sb_object(const char *cc, char *dir, char *obj, size_t size, fe_test **ft, ir_test **t)
{
    diag d = {0};
    *ft = fe_parse(sb, strlen(sb), "sb.litmus", &d);
    assert_non_null(*ft);
    *t = ir_lower(*ft, &d);
    assert_non_null(*t);
    assert_non_null(mkdtemp(dir));
    char src[256];
    snprintf(src, sizeof src, "%s/t.c", dir);
    snprintf(obj, size, "%s/t.o", dir);
    char *tu = lift_tu_text(*ft, *t, &d);
    FILE *f = fopen(src, "w");
    fputs(tu, f);
    fclose(f);
    free(tu);
    assert_true(lift_compile(cc, "-O2", src, obj, &d));
}

static void hardware_shows_broken_sb(void **state)
{
    (void)state;
    char dir[] = "/tmp/test-hunt-confirm-XXXXXX", obj[256];
    fe_test *ft;
    ir_test *t;
    sb_object(BROKEN, dir, obj, sizeof obj, &ft, &t);
    const char *objs[] = {obj};
    hunt_confirm_opts o = {.budget_s = 10, .until_covered = true};
    hunt_confirm_result r;
    diag d = {0};
    if (!hunt_confirm(t, "", objs, 1, "P0_r0=0; P1_r0=0;", &o, &r, &d))
        fail_msg("%s", d.msg);
    print_message("%ld of %ld rounds in %.3f s; %s\n%s", r.hits, r.iterations, r.seconds, r.config, r.histogram);
    assert_true(r.hits >= 1);
    assert_non_null(strstr(r.config, "threads=2"));
    assert_non_null(strstr(r.config, "until-covered=yes"));
    assert_non_null(strstr(r.histogram, " P0_r0=0; P1_r0=0;\n"));
    hunt_confirm_free(&r);
    /* a name that is no global of the test */
    assert_false(hunt_confirm(t, "", objs, 1, "q=1;", &o, &r, &d));
    assert_int_equal(d.status, 2);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    ir_test_free(t);
    fe_test_free(ft);
}

/* repro.c built by CC -O2 -pthread and run for SECONDS (stopping at the
 * first sighting when UNTIL): how often it saw the state. */
static long repro_hits(const char *cc, double seconds, int until)
{
    diag d = {0};
    fe_test *ft = fe_parse(sb, strlen(sb), "sb.litmus", &d);
    ir_test *t = ir_lower(ft, &d);
    char *text = hunt_repro_text(ft, t, "P0_r0=0; P1_r0=0;", &d);
    assert_non_null(text);
    char dir[] = "/tmp/test-hunt-repro-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], cmd[1024];
    snprintf(path, sizeof path, "%s/repro.c", dir);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    free(text);
    snprintf(cmd, sizeof cmd, "%s -O2 -pthread %s -o %s/repro && %s/repro %g 0 %d > %s/out", cc, path, dir, dir,
             seconds, until, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(path, sizeof path, "%s/out", dir);
    f = fopen(path, "r");
    char line[512];
    long hits = -1, rounds = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "forbidden state seen %ld times in %ld rounds", &hits, &rounds) == 2)
            print_message("%s: %s", cc, line);
    fclose(f);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    ir_test_free(t);
    fe_test_free(ft);
    assert_true(rounds > 0);
    return hits;
}

static void repro_shows_broken_sb(void **state)
{
    (void)state;
    assert_true(repro_hits(BROKEN, 10, 1) >= 1);
    /* gcc's own xchg keeps x86 from ever showing it */
    assert_int_equal(repro_hits("gcc", 0.5, 0), 0);
}

int main(void)
{
    if (system("gcc --version >/dev/null 2>&1") || access(BROKEN, X_OK)) {
        puts("SKIP: needs gcc and " BROKEN " (run from the source folder)");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(broken_gcc_reduces_to_sb),
        cmocka_unit_test(broken_gcc_is_not_a_pass),
        cmocka_unit_test(gcc_flag_found),
        cmocka_unit_test(clang_pass_found),
        cmocka_unit_test(hardware_shows_broken_sb),
        cmocka_unit_test(repro_shows_broken_sb),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
