/* A bug's way through hunt/ with a real compiler: tests/hunt/broken-cc is
 * gcc whose assembly loses its fences and has each xchg made a plain
 * store, and the predicate is cc-check's pipeline (lift_check: the
 * compiled test's x86tso states against the source's rc11 states).
 * Reduction takes a 4-thread, 12-access test down to SB; the broken
 * object, linked with the stress driver, shows SB's forbidden state on
 * this machine, and so does repro.c built by the broken compiler (and
 * never when gcc itself builds it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "hunt_cc.h"

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

static void broken_gcc_reduces_to_sb(void **state)
{
    (void)state;
    cc_ctx c = {.cc = BROKEN, .cflags = "-O2", .models = model_set_new()};
    hunt_reduce_stats st;
    diag d = {0};
    char *r = hunt_reduce(big, cc_pred, &c, false, &st, &d);
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
    assert_null(hunt_reduce(big, cc_pred, &c, false, &st, &d));
    free(r);
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
    /* until covered: the first sighting stops it, within a few hundred
     * rounds here; the 20 s are for a machine loaded by other work */
    hunt_confirm_opts o = {.budget_s = 20, .until_covered = true};
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

/* One of a batch: symbols named t7_..., and three threads on what may be
 * fewer CPUs (the driver yields while it waits). */
static void prefixed_three_threads(void **state)
{
    (void)state;
    if (system("objcopy --version >/dev/null 2>&1"))
        skip();
    const char *text = "C three\n{}\n"
                       "P0 (atomic_int* x, atomic_int* y) {\n  atomic_store(x, 1);\n  int r0 = atomic_load(y);\n}\n"
                       "P1 (atomic_int* x, atomic_int* y) {\n  atomic_store(y, 1);\n  int r0 = atomic_load(x);\n}\n"
                       "P2 (atomic_int* z) {\n  atomic_store_explicit(z, 2, memory_order_relaxed);\n}\n"
                       "exists (0:r0=0 /\\ 1:r0=0)\n";
    diag d = {0};
    fe_test *ft = fe_parse(text, strlen(text), "three.litmus", &d);
    assert_non_null(ft);
    ir_test *t = ir_lower(ft, &d);
    assert_non_null(t);
    char dir[] = "/tmp/test-hunt-three-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char src[256], obj[256], cmd[1024];
    snprintf(src, sizeof src, "%s/t.c", dir);
    snprintf(obj, sizeof obj, "%s/t.o", dir);
    char *tu = lift_tu_text(ft, t, &d);
    FILE *f = fopen(src, "w");
    fputs(tu, f);
    fclose(f);
    free(tu);
    assert_true(lift_compile(BROKEN, "-O2", src, obj, &d));
    snprintf(cmd, sizeof cmd, "objcopy --prefix-symbols=t7_ %s", obj);
    assert_int_equal(system(cmd), 0);
    const char *objs[] = {obj};
    hunt_confirm_opts o = {.budget_s = 3, .max_iterations = 50};
    hunt_confirm_result r;
    if (!hunt_confirm(t, "t7_", objs, 1, "z=2; P0_r0=0; P1_r0=0;", &o, &r, &d))
        fail_msg("%s", d.msg);
    print_message("%ld of %ld rounds in %.3f s; %s\n", r.hits, r.iterations, r.seconds, r.config);
    assert_non_null(strstr(r.config, "threads=3"));
    assert_true(r.iterations == 50 || (r.seconds >= 3 && r.seconds < 4));
    /* P2's store is always there at the end */
    assert_null(strstr(r.histogram, "z=0;"));
    hunt_confirm_free(&r);
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
    assert_true(repro_hits(BROKEN, 20, 1) >= 1);
    /* gcc's own xchg keeps x86 from ever showing it */
    assert_int_equal(repro_hits("gcc", 0.5, 0), 0);
}

int main(void)
{
    if (!cc_usable()) {
        puts("SKIP: needs gcc and " BROKEN " (run from the source folder)");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(broken_gcc_reduces_to_sb),
        cmocka_unit_test(hardware_shows_broken_sb),
        cmocka_unit_test(prefixed_three_threads),
        cmocka_unit_test(repro_shows_broken_sb),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
