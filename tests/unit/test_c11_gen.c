/* Unit tests of the C11 native generator (backends/c11): the orders it
 * writes for each source mode, escaping of hostile names, and programs
 * that really compile (gcc and clang, -Wall -Wextra -Werror) and run with
 * the runtime, with outcomes that are deterministic by construction. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "backends/c11/c11.h"
#include "backends/native.h"
#include "ir/ir.h"
#include "util/mem.h"
#include "native_build.h"

static ir_test *read_ir(const char *text)
{
    diag d = {0};
    ir_test *t = ir_read(text, "t.ir", &d);
    if (!t)
        fail_msg("ir_read: %d:%d: %s", d.line, d.col, d.msg);
    if (!ir_verify(t, &d))
        fail_msg("ir_verify: %s", d.msg);
    return t;
}

static char *gen(const char *text, bool plain_relaxed)
{
    ir_test *t = read_ir(text);
    native_opts o;
    native_opts_init(&o);
    o.plain_as_relaxed = plain_relaxed;
    diag d = {0};
    char *src = native_generate(t, &o, &d);
    if (!src)
        fail_msg("native_generate: %s", d.msg);
    ir_test_free(t);
    return src;
}

static void assert_has(const char *src, const char *what)
{
    if (!strstr(src, what))
        fail_msg("generated source lacks: %s\n----\n%s", what, src);
}

static void assert_lacks(const char *src, const char *what)
{
    if (strstr(src, what))
        fail_msg("generated source contains: %s", what);
}

/* ---- compile and run: tests/unit/native_build.h ------------------- */

/* Count of the outcome with values KEY ("0 1"), from protocol text. */
static uint64_t outcome(const char *out, const char *key)
{
    for (const char *p = out; (p = strstr(p, "outcome ")) != NULL; p++) {
        unsigned long long c;
        int len = 0;
        if (sscanf(p, "outcome %llu %n", &c, &len) != 1)
            continue;
        size_t k = strlen(key);
        if (!strncmp(p + len, key, k) && p[len + k] == '\n')
            return c;
    }
    return 0;
}

static uint64_t iterations(const char *out)
{
    const char *p = strstr(out, "\niterations ");
    unsigned long long n = 0;
    if (!p || sscanf(p, "\niterations %llu", &n) != 1)
        fail_msg("no iterations line in:\n%s", out);
    return n;
}

static void check_protocol(const char *out)
{
    if (strncmp(out, "litmusc-histogram 1\n", 20) != 0)
        fail_msg("bad first line:\n%s", out);
    assert_non_null(strstr(out, "\ninterrupted 0\nend\n"));
    uint64_t sum = 0;
    for (const char *p = out; (p = strstr(p, "\noutcome ")) != NULL; p++) {
        unsigned long long c;
        sscanf(p, "\noutcome %llu", &c);
        sum += c;
    }
    assert_int_equal(sum, iterations(out));
}

/* ---- tests ------------------------------------------------------------------ */

static const char sb_rlx[] =
    "test \"SB\"\narch C\n"
    "loc x int ctype \"atomic_int\" atomic init 0\nloc y int ctype \"atomic_int\" atomic init 0\n"
    "thread 0 P0\n  b0:\n    store.rlx &x, 1\n    %0 = load.rlx &y\n    ret\n  final r0 = %0\nend\n"
    "thread 1 P1\n  b0:\n    store.rlx &y, 1\n    %0 = load.rlx &x\n    ret\n  final r0 = %0\nend\n"
    "cond exists 0:r0=0 /\\ 1:r0=0\n";

static const char sb_sc[] =
    "test \"SB+sc\"\narch C\n"
    "loc x int ctype \"atomic_int\" atomic init 0\nloc y int ctype \"atomic_int\" atomic init 0\n"
    "thread 0 P0\n  b0:\n    store.sc &x, 1\n    %0 = load.sc &y\n    ret\n  final r0 = %0\nend\n"
    "thread 1 P1\n  b0:\n    store.sc &y, 1\n    %0 = load.sc &x\n    ret\n  final r0 = %0\nend\n"
    "cond exists 0:r0=0 /\\ 1:r0=0\n";

static void test_sb_orders(void **state)
{
    (void)state;
    char *src = gen(sb_rlx, false);
    assert_has(src, "atomic_store_explicit((_Atomic int32_t *)lt_c[0], (int32_t)INT64_C(1), memory_order_relaxed);");
    assert_has(src, "v0 = (int64_t)atomic_load_explicit((_Atomic int32_t *)lt_c[1], memory_order_relaxed);");
    assert_has(src, "atomic_store_explicit((_Atomic int32_t *)lt_c[1], (int32_t)INT64_C(1), memory_order_relaxed);");
    assert_has(src, "lt_out[0] = v0;");
    assert_has(src, "lt_v[0] = lt_o[0][0];");
    assert_has(src, "lt_v[1] = lt_o[1][0];");
    assert_has(src, "return lrt_main(&lt_test, argc, argv);");
    /* the gapped twin spins before each access */
    assert_has(src, "static inline void lt_gthread_0(void *const *lt_c, int64_t *lt_out, const uint32_t *lt_gap)");
    assert_has(src, "    lrt_gap(lt_gap[0]);\n    atomic_store_explicit((_Atomic int32_t *)lt_c[0]");
    assert_has(src, "    lrt_gap(lt_gap[1]);\n    v0 = (int64_t)atomic_load_explicit((_Atomic int32_t *)lt_c[1]");
    assert_lacks(src, "seq_cst");
    free(src);
    src = gen(sb_sc, false);
    assert_has(src, "(int32_t)INT64_C(1), memory_order_seq_cst);");
    assert_has(src, "lt_c[1], memory_order_seq_cst);");
    assert_lacks(src, "memory_order_relaxed);\n    v0");
    free(src);
}

static const char mp_na[] =
    "test \"MP+na\"\narch C\n"
    "loc x int ctype \"int\" init 0\nloc y int ctype \"atomic_int\" atomic init 0\n"
    "thread 0 P0\n  b0:\n    store.na &x, 1\n    store.rel &y, 1\n    ret\nend\n"
    "thread 1 P1\n  b0:\n    %0 = load.acq &y\n    %1 = load.na &x\n    ret\n  final r0 = %0\n  final r1 = %1\nend\n"
    "cond exists 1:r0=1 /\\ 1:r1=0\n";

static void test_plain_accesses(void **state)
{
    (void)state;
    char *src = gen(mp_na, false);
    assert_has(src, "*(volatile int32_t *)lt_c[0] = (int32_t)INT64_C(1);");
    assert_has(src, "v1 = (int64_t)*(volatile int32_t *)lt_c[0];");
    assert_has(src, "memory_order_release");
    assert_has(src, "memory_order_acquire");
    free(src);
    src = gen(mp_na, true);
    assert_lacks(src, "volatile int32_t");
    assert_has(src, "atomic_store_explicit((_Atomic int32_t *)lt_c[0], (int32_t)INT64_C(1), memory_order_relaxed);");
    assert_has(src, "v1 = (int64_t)atomic_load_explicit((_Atomic int32_t *)lt_c[0], memory_order_relaxed);");
    free(src);
}

static const char java_modes[] =
    "test \"J\"\narch Java\nloc x int init 0\nloc y int init 0\n"
    "thread 0 Thread0\n  b0:\n    store.opaque &x, 1\n    fence.full\n    store.volatile &y, 2\n"
    "    fence.loadload\n    fence.storestore\n    %0 = load.acquire &x\n    store.release &y, 3\n"
    "    %1 = load.plain &y\n    ret\n  final r0 = %0\n  final r1 = %1\nend\n"
    "cond exists 0:r0=1 /\\ 0:r1=3\n";

static void test_java_modes(void **state)
{
    (void)state;
    char *src = gen(java_modes, false);
    assert_has(src, "lt_c[0], (int32_t)INT64_C(1), memory_order_relaxed);");
    assert_has(src, "atomic_thread_fence(memory_order_seq_cst);");
    assert_has(src, "lt_c[1], (int32_t)INT64_C(2), memory_order_seq_cst);");
    assert_has(src, "atomic_thread_fence(memory_order_acquire);");
    assert_has(src, "atomic_thread_fence(memory_order_release);");
    assert_has(src, "v0 = (int64_t)atomic_load_explicit((_Atomic int32_t *)lt_c[0], memory_order_acquire);");
    assert_has(src, "lt_c[1], (int32_t)INT64_C(3), memory_order_release);");
    assert_has(src, "v1 = (int64_t)*(volatile int32_t *)lt_c[1];");
    free(src);
}

/* C forbids some orders on some operations; the generator must never
 * write one (gcc rejects them under -Werror). */
static void test_order_legalisation(void **state)
{
    (void)state;
    assert_string_equal(c11_order(IR_MO_REL, IR_LOAD, false), "memory_order_relaxed");
    assert_string_equal(c11_order(IR_MO_ACQ_REL, IR_LOAD, false), "memory_order_acquire");
    assert_string_equal(c11_order(IR_MO_ACQ, IR_STORE, false), "memory_order_relaxed");
    assert_string_equal(c11_order(IR_MO_CON, IR_STORE, false), "memory_order_relaxed");
    assert_string_equal(c11_order(IR_MO_ACQ_REL, IR_STORE, false), "memory_order_release");
    assert_string_equal(c11_order(IR_MO_ACQ_REL, IR_RMW, false), "memory_order_acq_rel");
    assert_string_equal(c11_order(IR_MO_CON, IR_LOAD, false), "memory_order_consume");
    assert_null(c11_order(IR_MO_NA, IR_LOAD, false));
    assert_string_equal(c11_order(IR_MO_NA, IR_STORE, true), "memory_order_relaxed");
    assert_string_equal(c11_order(IR_JM_VOLATILE, IR_RMW, false), "memory_order_seq_cst");
    assert_string_equal(c11_order(IR_X86_PLAIN, IR_LOAD, false), "memory_order_acquire");
    assert_string_equal(c11_order(IR_X86_PLAIN, IR_STORE, false), "memory_order_release");
    assert_string_equal(c11_order(IR_X86_LOCKED, IR_RMW, false), "memory_order_seq_cst");
}

/* Names from the litmus file: comment terminators, quotes, trigraphs,
 * newlines and backslashes must not escape their comment or string. */
static const char hostile[] =
    "test \"a*/ int bad; /* \\\"q\\\" ?\?/\\n\\\\\"\narch C\n"
    "loc \"x*/ #error boom\" int ctype \"atomic_int\" atomic init 0\n"
    "thread 0 \"P0*/x\"\n  b0:\n    store.rlx &\"x*/ #error boom\", 7 @1:1 \"*/ #error src ?\?/\"\n"
    "    %0 = load.rlx &\"x*/ #error boom\"\n    ret\n  final \"r*/0\" = %0\nend\n"
    "cond exists 0:\"r*/0\"=7\n";

static void test_hostile_names(void **state)
{
    (void)state;
    char *src = gen(hostile, false);
    assert_lacks(src, "*/ #error");
    assert_lacks(src, "?\?/");
    assert_has(src, "\"a*/ int bad; /* \\\"q\\\" \\?\\?/\\012\\\\\"");
    const char *ccs[] = {"gcc", "clang"};
    for (int i = 0; i < 2; i++)
        if (unit_have_cc(ccs[i])) {
            char *out = unit_build_run(src, ccs[i], "-s 100 -r 2");
            check_protocol(out);
            assert_int_equal(outcome(out, "7"), 200);
            free(out);
        }
    free(src);
}

/* One thread, branches, phis and RMWs: every outcome is determined.
 * x=1: r0 = x (1); r1 = (r0 == 1) ? 5 : 7 through a phi;
 * r2 = fetch_add(y, 3) (old 10, y becomes 13); r3 = cas(y, 13 -> 20) old 13;
 * r4 = cas(y, 99 -> 0) fails, old 20; r5 = 7 / 0 (herd: 0); r6 = xchg(x, -4). */
static const char branchy[] =
    "test \"B\"\narch C\n"
    "loc x int ctype \"atomic_int\" atomic init 1 given\nloc y int ctype \"atomic_long\" atomic init 10 given\n"
    "thread 0 P0\n  b0:\n    %0 = load.acq &x\n    %1 = eq %0, 1\n    br %1, b1, b2\n"
    "  b1:\n    jmp b3\n  b2:\n    jmp b3\n"
    "  b3:\n    %2 = phi [5, b1], [7, b2]\n    %3 = rmw.add.rlx &y, 3\n"
    "    %4 = rmw.cas.sc &y, expected 13, new 20, fail acq\n"
    "    %5 = rmw.cas.rel &y, expected 99, new 0, fail rlx, weak\n"
    "    %6 = div 7, 0\n    %7 = rmw.xchg.acq_rel &x, -4\n    %8 = mul %7, 1000000000000\n    ret\n"
    "  final r0 = %0\n  final r1 = %2\n  final r2 = %3\n  final r3 = %4\n  final r4 = %5\n"
    "  final r5 = %6\n  final r6 = %8\nend\n"
    "cond exists 0:r0=1 /\\ 0:r1=5 /\\ 0:r2=10 /\\ 0:r3=13 /\\ 0:r4=20 /\\ 0:r5=0 /\\ 0:r6=1\n"
    "locations [x] [y]\n";

static void test_branches_rmw_run(void **state)
{
    (void)state;
    char *src = gen(branchy, false);
    assert_has(src, "atomic_fetch_add_explicit((_Atomic int64_t *)lt_c[1], (int64_t)INT64_C(3), memory_order_relaxed)");
    assert_has(src, "atomic_compare_exchange_strong_explicit((_Atomic int64_t *)lt_c[1], &lt_old, (int64_t)INT64_C(20), memory_order_seq_cst, memory_order_acquire)");
    /* Failure order clamped to what a release CAS allows. */
    assert_has(src, "atomic_compare_exchange_weak_explicit((_Atomic int64_t *)lt_c[1], &lt_old, (int64_t)INT64_C(0), memory_order_release, memory_order_relaxed)");
    assert_has(src, "atomic_exchange_explicit((_Atomic int32_t *)lt_c[0], (int32_t)INT64_C(-4), memory_order_acq_rel)");
    assert_has(src, "lt_div(INT64_C(7), INT64_C(0))");
    const char *ccs[] = {"gcc", "clang"};
    for (int i = 0; i < 2; i++)
        if (unit_have_cc(ccs[i])) {
            char *out = unit_build_run(src, ccs[i], "-s 50 -r 3 --sync user");
            check_protocol(out);
            /* 7 registers, then [x] and [y] (memory last). */
            uint64_t n = outcome(out, "1 5 10 13 20 0 1000000000000 -4 20");
            if (n != 150)
                fail_msg("%s: unexpected outcomes:\n%s", ccs[i], out);
            free(out);
        }
    free(src);
}

/* Cells of 1, 2, 4 and 8 bytes, each thread on its own
 * locations, so that every instance ends one way.  In the array layout
 * (the default) the sweeps and the count compute each instance's cells
 * from each location's first (backends/native/array_sweep.c): a cell
 * computed one slot off, or with the wrong width, reads a neighbour's
 * value or another location's and shows as another outcome.  The same
 * program with --layout packed goes through the cell table. */
static const char widths[] =
    "test \"W\"\narch C\n"
    "loc a int ctype \"atomic_char\" atomic init 5 given\n"
    "loc b int ctype \"atomic_long\" atomic init 4294967297 given\n"
    "loc c int ctype \"atomic_int\" atomic init 7 given\n"
    "loc d int ctype \"atomic_short\" atomic init 0 given\n"
    "thread 0 P0\n  b0:\n    %0 = load.rlx &a\n    store.rlx &a, 6\n    %1 = load.rlx &b\n"
    "    store.rlx &b, -2\n    %2 = load.rlx &b\n    ret\n"
    "  final r0 = %0\n  final r1 = %1\n  final r2 = %2\nend\n"
    "thread 1 P1\n  b0:\n    %0 = load.rlx &c\n    store.rlx &c, 8\n"
    "    %2 = load.rlx &c\n    %3 = load.rlx &d\n    store.rlx &d, 9\n    ret\n"
    "  final r3 = %0\n  final r4 = %2\n  final r5 = %3\nend\n"
    "cond exists 0:r0=5 /\\ 0:r1=4294967297 /\\ 0:r2=-2 /\\ 1:r3=7 /\\ 1:r4=8 /\\ 1:r5=0\n"
    "locations [a] [b] [c] [d]\n";

static void test_array_cells_of_every_width(void **state)
{
    (void)state;
    char *src = gen(widths, false);
    assert_has(src, "static lrt_sweep_fn lt_asweeps[2] = {lt_asweep_0, lt_asweep_1};");
    assert_has(src, "        void *const lt_ci[4] = {lt_b0 + (lt_i) * 8, lt_b1 + (lt_i) * 8, lt_b2 + (lt_i) * 8, "
                    "lt_b3 + (lt_i) * 8};\n");
    assert_has(src, "    lt_asweeps, lt_acount_range\n};");
    /* the count resets its instances after counting them, a location at a
     * time: memset for an initial 0, a loop of the cell's type otherwise */
    assert_has(src, "            *(int8_t *)(void *)(lt_b0 + lt_k * 8) = (int8_t)INT64_C(5);\n");
    assert_has(src, "        memset(lt_b3 + lt_lo * 8, 0, (lt_hi - lt_lo) * 8);\n");
    const char *ccs[] = {"gcc", "clang"};
    const char *layouts[] = {"", " --layout packed"};
    for (int i = 0; i < 2; i++) {
        if (!unit_have_cc(ccs[i]))
            continue;
        for (int l = 0; l < 2; l++) {
            char *args = xasprintf("-s 1003 -r 3%s", layouts[l]);
            char *out = unit_build_run(src, ccs[i], args);
            check_protocol(out);
            assert_int_equal(iterations(out), 3009);
            /* r0..r5, then [a] [b] [c] [d]; runs 2 and 3 start from the
             * count's reset of run 1 and 2 */
            if (outcome(out, "5 4294967297 -2 7 8 0 6 -2 8 9") != 3009)
                fail_msg("%s%s: unexpected outcomes:\n%s", ccs[i], layouts[l], out);
            free(out);
            free(args);
        }
    }
    free(src);
}

static void test_sb_runs(void **state)
{
    (void)state;
    char *src = gen(sb_sc, false);
    const char *ccs[] = {"gcc", "clang"};
    for (int i = 0; i < 2; i++)
        if (unit_have_cc(ccs[i])) {
            char *out = unit_build_run(src, ccs[i], "-s 20000 -r 5 --sync timebase");
            check_protocol(out);
            assert_int_equal(iterations(out), 100000);
            /* seq_cst SB: the hardware never shows both loads reading 0. */
            assert_int_equal(outcome(out, "0 0"), 0);
            assert_true(outcome(out, "0 1") + outcome(out, "1 0") + outcome(out, "1 1") == 100000);
            assert_non_null(strstr(out, "config sync timebase\n"));
            free(out);
        }
    free(src);
}

/* Frame corner cases: a register no instruction writes (its final value
 * is a constant), a thread with an unobserved register, no locations. */
static const char odd_frame[] =
    "test \"R0\"\narch C\n"
    "thread 0 P0\n  b0:\n    %0 = add 2, 3\n    ret\n  final r0 = %0\nend\n"
    "thread 1 P1\n  b0:\n    ret\n  final r8 = 4\n  final r9 = 0\nend\n"
    "cond exists 0:r0=5 /\\ 1:r9=0\n";

static void test_frame_corners(void **state)
{
    (void)state;
    char *src = gen(odd_frame, false);
    assert_has(src, "lt_v[1] = lt_o[1][0]; /* 1:r9 */");
    assert_has(src, "lt_out[0] = INT64_C(0); /* r9 */");
    assert_has(src, "static const int lt_nout[2] = {1, 1};");
    assert_has(src, "v0 = (int64_t)((uint64_t)INT64_C(2) + (uint64_t)INT64_C(3));");
    if (unit_have_cc("gcc")) {
        char *out = unit_build_run(src, "gcc", "-s 10 -r 1 --sync loose");
        check_protocol(out);
        assert_int_equal(outcome(out, "5 0"), 10);
        free(out);
    }
    free(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sb_orders),
        cmocka_unit_test(test_plain_accesses),
        cmocka_unit_test(test_java_modes),
        cmocka_unit_test(test_order_legalisation),
        cmocka_unit_test(test_hostile_names),
        cmocka_unit_test(test_branches_rmw_run),
        cmocka_unit_test(test_array_cells_of_every_width),
        cmocka_unit_test(test_sb_runs),
        cmocka_unit_test(test_frame_corners),
    };
    return cmocka_run_group_tests_name("c11 generator", tests, NULL, NULL);
}
