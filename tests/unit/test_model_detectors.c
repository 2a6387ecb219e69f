/* Unit tests of the race detectors (model/detect.c, model/detectors.c) on
 * tests worked out by hand: message passing with release/acquire (exact
 * and hb report nothing, the hybrid and lockset report the data and the
 * flag), plain message passing (all four report both locations), relaxed
 * message passing (the data races for every detector, the atomic flag only
 * for those that know no atomics), x86 (every access atomic), Eraser's
 * states on a hand-built execution, the nesting check, and detector names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tests/unit/unit_litmus.h"
#include "model/detectors.h"
#include "model/model.h"
#include "util/mem.h"

static detectors *run(const char *model_name, const char *text, ir_test **t)
{
    diag d = {0};
    *t = unit_litmus(text);
    model *m = model_load(model_name, &d);
    assert_non_null(m);
    detectors *r = detectors_run(m, *t, &d);
    if (!r)
        fail_msg("detectors_run: %s", d.msg);
    model_free(m);
    int bad, det;
    assert_true(detectors_nested(r, &bad, &det));
    return r;
}

/* The pair on location LOC (by name), or NULL. */
static const detectors_pair *on(const detectors *r, const ir_test *t, const char *loc)
{
    for (int k = 0; k < r->npairs; k++)
        if (!strcmp(races_loc_name(t, &r->pairs[k].a), loc))
            return &r->pairs[k];
    return NULL;
}

static const unsigned EX = 1u << DET_EXACT, HB = 1u << DET_HB, HY = 1u << DET_HYBRID, LS = 1u << DET_LOCKSET;

/* The acquire reads 1 or 0; x is read only after it reads 1, so the read of
 * x is always ordered after the write by sw (line 5 -> line 8).  The flag
 * pair is two atomics: synchronisation to hb, a plain conflict to the
 * hybrid and lockset, which know only locks. */
static void test_mp_release_acquire(void **state)
{
    (void)state;
    ir_test *t;
    detectors *r = run("rc11", "C MPra\n{ }\n"
                               "P0(int* x, atomic_int* y) {\n"
                               "  *x = 1;\n"
                               "  atomic_store_explicit(y, 1, memory_order_release);\n"
                               "}\n"
                               "P1(int* x, atomic_int* y) {\n"
                               "  int r0 = atomic_load_explicit(y, memory_order_acquire);\n"
                               "  int r1 = -1;\n"
                               "  if (r0 == 1) { r1 = *x; }\n"
                               "}\n"
                               "exists (1:r0=1 /\\ 1:r1=0)\n", &t);
    assert_int_equal(r->npairs, 2);
    assert_int_equal(r->count[DET_EXACT], 0);
    assert_int_equal(r->count[DET_HB], 0);
    assert_int_equal(r->count[DET_HYBRID], 2);
    assert_int_equal(r->count[DET_LOCKSET], 2);
    const detectors_pair *x = on(r, t, "x"), *y = on(r, t, "y");
    assert_non_null(x);
    assert_non_null(y);
    assert_int_equal(x->mask, HY | LS);
    assert_int_equal(detectors_boundary(x), DET_HB);
    assert_non_null(x->why[DET_HB]);
    assert_non_null(strstr(x->why[DET_HB], "release at line 5 synchronising with the acquire at line 8"));
    assert_int_equal(x->a.instr->line, 4);
    assert_int_equal(x->b.instr->line, 10);
    assert_non_null(strstr(y->why[DET_HB], "atomic"));
    /* the read of x exists only where the acquire read 1: one execution */
    assert_int_equal(x->executions[DET_HYBRID], 1);
    assert_int_equal(y->executions[DET_HYBRID], 2);
    detectors_free(r);
    ir_test_free(t);
}

/* Plain message passing: nothing orders anything; every detector reports
 * x and y in all four executions. */
static void test_mp_plain(void **state)
{
    (void)state;
    ir_test *t;
    detectors *r = run("rc11", "C MPna\n{ }\n"
                               "P0(int* x, int* y) { *x = 1; *y = 1; }\n"
                               "P1(int* x, int* y) { int r0 = *y; int r1 = *x; }\n"
                               "exists (1:r0=1 /\\ 1:r1=0)\n", &t);
    assert_int_equal(r->npairs, 2);
    for (int d = 0; d < DET_N; d++)
        assert_int_equal(r->count[d], 2);
    for (int k = 0; k < r->npairs; k++) {
        assert_int_equal(r->pairs[k].mask, DET_ALL);
        assert_int_equal(detectors_boundary(&r->pairs[k]), -1);
    }
    detectors_free(r);
    ir_test_free(t);
}

/* Relaxed flag: no sw, so the plain x races for all four (in the executions
 * where the read of x runs), and the relaxed flag only for hybrid/lockset. */
static void test_mp_relaxed(void **state)
{
    (void)state;
    ir_test *t;
    detectors *r = run("rc11", "C MPrlx\n{ }\n"
                               "P0(int* x, atomic_int* y) {\n"
                               "  *x = 1;\n"
                               "  atomic_store_explicit(y, 1, memory_order_relaxed);\n"
                               "}\n"
                               "P1(int* x, atomic_int* y) {\n"
                               "  int r0 = atomic_load_explicit(y, memory_order_relaxed);\n"
                               "  int r1 = -1;\n"
                               "  if (r0 == 1) { r1 = *x; }\n"
                               "}\n"
                               "exists (1:r0=1 /\\ 1:r1=0)\n", &t);
    assert_int_equal(on(r, t, "x")->mask, EX | HB | HY | LS);
    assert_int_equal(on(r, t, "y")->mask, HY | LS);
    assert_int_equal(r->harmful[DET_EXACT], 1);
    detectors_free(r);
    ir_test_free(t);
}

/* x86: every access is atomic, so neither exact nor hb reports; SB's two
 * locations each have a write and a read of the other thread. */
static void test_x86(void **state)
{
    (void)state;
    ir_test *t;
    detectors *r = run("x86tso", "X86 SB\n{ }\n P0 | P1 ;\n MOV [x],$1 | MOV [y],$1 ;\n"
                                 " MOV EAX,[y] | MOV EAX,[x] ;\nexists (0:EAX=0 /\\ 1:EAX=0)\n", &t);
    assert_int_equal(r->count[DET_EXACT], 0);
    assert_int_equal(r->count[DET_HB], 0);
    assert_int_equal(r->count[DET_HYBRID], 2);
    assert_int_equal(r->count[DET_LOCKSET], 2);
    detectors_free(r);
    ir_test_free(t);
}

/* Eraser by hand: location 0 written by thread 0, read by thread 1 (a
 * schedule with thread 1 first makes the write leave it shared-modified);
 * location 1 only read by both (shared, never reported, and no conflict);
 * location 2 written twice by thread 0 alone (exclusive throughout). */
static void test_eraser_states(void **state)
{
    (void)state;
    static exec x;
    memset(&x, 0, sizeof x);
    for (int l = 0; l < 3; l++)
        x.ev[x.n++] = (exec_event){.kind = EV_W | EV_IW, .thread = -1, .loc = l, .mode = IR_MODE_NONE};
    const struct { int th, loc; unsigned kind; } evs[] = {
        {0, 0, EV_W}, {0, 1, EV_R}, {0, 2, EV_W}, {0, 2, EV_W}, {1, 1, EV_R}, {1, 0, EV_R}};
    int poi[2] = {0, 0};
    for (size_t k = 0; k < sizeof evs / sizeof evs[0]; k++) {
        int i = x.n++;
        for (int j = 0; j < i; j++)
            if (x.ev[j].thread == evs[k].th)
                x.po.row[j].w[0] |= (uint64_t)1 << i;
        x.ev[i] = (exec_event){.kind = evs[k].kind, .thread = evs[k].th, .poi = poi[evs[k].th]++,
                               .loc = evs[k].loc, .mode = IR_MO_NA};
    }
    static detect_exec d;
    assert_true(detect_exec_run(&x, &d));
    /* events: 3 W0, 4 R1, 5 W2, 6 W2, 7 R1 (thread 1), 8 R0 (thread 1) */
    for (int i = 0; i < x.n; i++)
        for (int j = i + 1; j < x.n; j++) {
            unsigned want = i == 3 && j == 8 ? DET_ALL : 0;
            if (d.rep[i][j] != want)
                fail_msg("pair (%d, %d): %#x, want %#x", i, j, d.rep[i][j], want);
        }
    for (int i = 0; i < x.n; i++)
        assert_true(d.held[i] == 0);
}

/* The nesting check finds a pair a narrower detector reports and the next
 * wider one does not, and the boundary is the widest detector missing it. */
static void test_nesting_check(void **state)
{
    (void)state;
    detectors_pair pairs[3] = {{.mask = DET_ALL}, {.mask = HY | LS}, {.mask = EX | HB | LS}};
    detectors r = {.pairs = pairs, .npairs = 2};
    int bad = -1, det = -1;
    assert_true(detectors_nested(&r, &bad, &det));
    assert_int_equal(detectors_boundary(&pairs[0]), -1);
    assert_int_equal(detectors_boundary(&pairs[1]), DET_HB);
    r.npairs = 3;
    assert_false(detectors_nested(&r, &bad, &det));
    assert_int_equal(bad, 2);
    assert_int_equal(det, DET_HB);
}

static void test_names(void **state)
{
    (void)state;
    assert_int_equal(detect_parse("all"), DET_ALL);
    assert_int_equal(detect_parse("exact"), 1u << DET_EXACT);
    assert_int_equal(detect_parse("lockset"), 1u << DET_LOCKSET);
    assert_int_equal(detect_parse("eraser"), 0);
    for (int d = 0; d < DET_N; d++)
        assert_int_equal(detect_parse(detect_names[d]), 1u << d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mp_release_acquire), cmocka_unit_test(test_mp_plain),
        cmocka_unit_test(test_mp_relaxed),         cmocka_unit_test(test_x86),
        cmocka_unit_test(test_eraser_states),      cmocka_unit_test(test_nesting_check),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
