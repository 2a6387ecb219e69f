/* The cat evaluator and the built-in models on hand-built executions:
 * the relation algebra, `with` enumeration counts, flags and undefined
 * behaviour, and the classic shapes (SB, MP, CoRR) under sc, x86tso, rc11
 * and jam21 with herd7 7.57's verdicts under the same cat files. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "model/cat/cat.h"
#include "model/cat/cat_rel.h"
#include "util/mem.h"

/* ---- building executions ------------------------------------------------------ */
typedef struct xb {
    exec x;
    int poi[8];
} xb;

static xb *xb_new(void) { return xcalloc(1, sizeof(xb)); }

static int add_ev(xb *b, unsigned kind, int thread, int loc, ir_mode mode)
{
    int i = b->x.n++;
    exec_event *e = &b->x.ev[i];
    e->kind = kind;
    e->thread = thread;
    e->loc = loc;
    e->mode = mode;
    e->poi = thread >= 0 ? b->poi[thread]++ : 0;
    if (thread >= 0)
        for (int j = 0; j < i; j++)
            if (b->x.ev[j].thread == thread) er_add(&b->x.po, j, i);
    return i;
}
static int iw(xb *b, int loc) { return add_ev(b, EV_W | EV_IW, -1, loc, IR_MODE_NONE); }
static int wr(xb *b, int th, int loc, ir_mode m) { return add_ev(b, EV_W, th, loc, m); }
static int rd(xb *b, int th, int loc, ir_mode m) { return add_ev(b, EV_R, th, loc, m); }
static int fence(xb *b, int th, ir_fence_kind k, ir_mode m)
{
    int i = add_ev(b, EV_F, th, -1, m);
    b->x.ev[i].fence = k;
    return i;
}
static void rf(xb *b, int w, int r) { er_add(&b->x.rf, w, r); }
/* co as a chain of writes of one location; the last one is final. */
static void co_chain(xb *b, const int *ws, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) er_add(&b->x.co, ws[i], ws[j]);
    es_add(&b->x.fw, ws[n - 1]);
}

static cat_verdict check(const char *model, const exec *x)
{
    diag d = {0};
    cat_model *m = cat_load(model, &d);
    if (!m) fail_msg("%s: %s", model, d.msg);
    cat_verdict v;
    if (!cat_check(m, x, &v, &d)) fail_msg("%s: %s", model, d.msg);
    cat_free(m);
    return v;
}

static cat_verdict check_text(const char *text, const exec *x)
{
    diag d = {0};
    cat_model *m = cat_load_text(text, "t.cat", &d);
    if (!m) fail_msg("load: %d:%d %s", d.line, d.col, d.msg);
    cat_verdict v;
    if (!cat_check(m, x, &v, &d)) fail_msg("check: %d:%d %s", d.line, d.col, d.msg);
    cat_free(m);
    return v;
}

/* SB with both loads reading the initial values (the weak outcome). */
static xb *sb_weak(ir_mode m, bool mfence0, bool mfence1)
{
    xb *b = xb_new();
    int ix = iw(b, 0), iy = iw(b, 1);
    int wx = wr(b, 0, 0, m);
    if (mfence0) fence(b, 0, IR_FENCE_MFENCE, IR_MODE_NONE);
    int ry = rd(b, 0, 1, m);
    int wy = wr(b, 1, 1, m);
    if (mfence1) fence(b, 1, IR_FENCE_MFENCE, IR_MODE_NONE);
    int rx = rd(b, 1, 0, m);
    rf(b, iy, ry);
    rf(b, ix, rx);
    co_chain(b, (int[]){ix, wx}, 2);
    co_chain(b, (int[]){iy, wy}, 2);
    return b;
}

/* MP: x then y on thread 0; thread 1 reads y=1 and then x=0 (or x=1). */
static xb *mp(ir_mode wx_m, ir_mode wy_m, ir_mode ry_m, ir_mode rx_m, bool rx_new)
{
    xb *b = xb_new();
    int ix = iw(b, 0), iy = iw(b, 1);
    int wx = wr(b, 0, 0, wx_m), wy = wr(b, 0, 1, wy_m);
    int ry = rd(b, 1, 1, ry_m), rx = rd(b, 1, 0, rx_m);
    rf(b, wy, ry);
    rf(b, rx_new ? wx : ix, rx);
    co_chain(b, (int[]){ix, wx}, 2);
    co_chain(b, (int[]){iy, wy}, 2);
    return b;
}

/* ---- relation algebra ------------------------------------------------------------- */
static exec_set word(uint64_t w) { exec_set s = {{w}}; return s; }
#define assert_row(r, w) assert_true(es_eq((r), word(w)))

static void test_rel_algebra(void **state)
{
    (void)state;
    static exec_rel a, b, c;
    int n = 4;
    a.row[0] = word(1u << 1);   /* 0->1 */
    a.row[1] = word(1u << 2);   /* 1->2 */
    assert_true(cr_acyclic(&a, n));
    cr_copy(&b, &a, n);
    cr_plus_inplace(&b, n);
    assert_row(b.row[0], (1u << 1) | (1u << 2));
    assert_true(cr_irreflexive(&b, n));
    a.row[2] = word(1u << 0);   /* 2->0 closes a cycle */
    assert_false(cr_acyclic(&a, n));
    cr_copy(&b, &a, n);
    cr_plus_inplace(&b, n);
    assert_false(cr_irreflexive(&b, n));
    cr_seq(&c, &a, &a, n);        /* two steps */
    assert_row(c.row[0], 1u << 2);
    assert_row(c.row[2], 1u << 1);
    cr_inv(&c, &a, n);
    assert_row(c.row[1], 1u << 0);
    assert_row(c.row[0], 1u << 2);
    cr_cart(&c, word(0x3), word(0xc), n);
    assert_row(c.row[0], 0xc);
    assert_row(c.row[2], 0);
    assert_row(cr_domain(&c, n), 0x3);
    assert_row(cr_range(&c, n), 0xc);
    cr_comp(&b, &c, n);
    assert_row(b.row[0], 0x3);
    assert_row(b.row[3], 0xf);
    assert_row(cr_all(64), ~(uint64_t)0);
    /* a self-loop is a cycle */
    memset(&a, 0, sizeof a);
    a.row[3] = word(1u << 3);
    assert_false(cr_acyclic(&a, n));
}

/* Past 64 events a row takes several words: the same algebra across them. */
static void test_rel_algebra_words(void **state)
{
    (void)state;
    static exec_rel a, b, c;
    int n = EXEC_MAX;
    assert_int_equal(es_count(cr_all(n)), n);
    assert_int_equal(es_count(cr_all(100)), 100);
    assert_true(es_has(cr_all(100), 99) && !es_has(cr_all(100), 100));
    /* 1 -> 70 -> 100 -> 127 (or n - 1), a chain through every word */
    int ev[] = {1, 70, 100, n - 1};
    for (int k = 0; k + 1 < 4; k++) er_add(&a, ev[k], ev[k + 1]);
    assert_true(cr_acyclic(&a, n));
    cr_copy(&b, &a, n);
    cr_plus_inplace(&b, n);
    assert_int_equal(es_count(b.row[1]), 3);
    assert_true(er_has(&b, 1, n - 1) && er_has(&b, 70, n - 1) && !er_has(&b, n - 1, 1));
    assert_true(cr_irreflexive(&b, n));
    cr_seq(&c, &a, &a, n);
    assert_true(er_has(&c, 1, 100) && er_has(&c, 70, n - 1) && !er_has(&c, 1, 70));
    assert_int_equal(es_count(cr_range(&c, n)), 2);
    cr_inv(&c, &a, n);
    assert_true(er_has(&c, n - 1, 100) && er_has(&c, 70, 1) && !er_has(&c, 1, 70));
    assert_int_equal(es_first(cr_domain(&c, n)), 70);
    er_add(&a, n - 1, 1);       /* closes the cycle across the words */
    assert_false(cr_acyclic(&a, n));
    cr_plus_inplace(&a, n);
    assert_false(cr_irreflexive(&a, n));
    /* the order of sets is the order of numbers, high words first */
    assert_true(es_cmp(es_one(64), es_one(63)) > 0 && es_cmp(es_one(3), es_one(70)) < 0);
    exec_set s = es_none();
    es_add(&s, 5);
    es_add(&s, 66);
    es_add(&s, n - 1);
    assert_int_equal(es_pop(&s), 5);
    assert_int_equal(es_pop(&s), 66);
    assert_int_equal(es_pop(&s), n - 1);
    assert_int_equal(es_pop(&s), -1);
}

/* The cat operators, checked through a model on SB: every check must hold. */
static void test_language_semantics(void **state)
{
    (void)state;
    xb *b = sb_weak(IR_X86_PLAIN, false, false);
    const char *model =
        "semantics\n"
        "empty (po; po) \\ po as po-transitive\n"
        "acyclic po as po-acyclic\n"
        "~acyclic po | po^-1 as not-acyclic\n"
        "irreflexive po\n"
        "empty (rf^-1)^-1 \\ rf\n"
        "empty [W] \\ id\n"
        "empty (int & ext)\n"
        "~empty (loc \\ id)\n"
        "empty rf+ \\ rf\n"
        "empty (rf* \\ rf) \\ id\n"
        "empty (W & R)\n"
        "empty (IW \\ W)\n"
        "empty (FW \\ (W \\ IW))\n"
        "empty (~W \\ (R | F))\n"
        "empty [R]; po; [R]\n"
        "~empty [W]; po; [R]\n"
        "empty (domain(rf) \\ IW)\n"
        "empty (range(rf) \\ R)\n"
        "let rec t = po | t; t\n"
        "empty (t \\ po) | (po \\ t)\n"
        "let same = map (fun e -> e) W\n"
        "empty (same \\ W) | (W \\ same)\n"
        "let k(a, b) = a & b\n"
        "empty k(W, R)\n"
        "let pick = if W = W then po else rf\n"
        "empty pick \\ po\n"
        "let rels = {po, rf}\n"
        "let u = match rels with {} -> 0 || r ++ rest -> r end\n"
        "~empty u\n"
        "empty (try undefined-name with 0)\n";
    cat_verdict v = check_text(model, &b->x);
    assert_int_equal(v.consistent, 1);
    free(b);
}

static void test_with_counts_flags_undef(void **state)
{
    (void)state;
    xb *b = sb_weak(IR_X86_PLAIN, false, false);
    /* Two new writes, unordered: two linearisations, each a variant. */
    cat_verdict v = check_text("m\nwith o from linearisations(W \\ IW, 0)\n", &b->x);
    assert_int_equal(v.consistent, 2);
    /* Four events with po between each thread's pair: 4!/(2!2!) = 6. */
    v = check_text("m\nwith o from linearisations(M \\ IW, po)\n", &b->x);
    assert_int_equal(v.consistent, 6);
    /* A cyclic order has no linearisation. */
    v = check_text("m\nwith o from linearisations(M \\ IW, po | po^-1)\n", &b->x);
    assert_int_equal(v.consistent, 0);
    /* Variants that fail a check are not counted. */
    v = check_text("m\nwith o from linearisations(M \\ IW, 0)\nacyclic o | po\n", &b->x);
    assert_int_equal(v.consistent, 6);
    /* Flags and undefined behaviour. */
    diag d = {0};
    cat_model *m = cat_load_text("m\nflag ~empty rf as has-rf\nflag ~empty rmw as has-rmw\n"
                                 "undefined_unless empty rf as Racy\n", "t.cat", &d);
    assert_non_null(m);
    assert_int_equal(cat_model_nflags(m), 2);
    assert_string_equal(cat_model_flag_name(m, 0), "has-rf");
    assert_false(cat_model_generates_co(m));
    assert_true(cat_check(m, &b->x, &v, &d));
    assert_int_equal(v.consistent, 1);
    assert_true(v.undef);
    assert_int_equal(v.flags, 1);
    cat_free(m);
    free(b);
}

/* ---- the built-in models --------------------------------------------------------- */
static void test_sb(void **state)
{
    (void)state;
    xb *b = sb_weak(IR_X86_PLAIN, false, false);
    assert_int_equal(check("sc", &b->x).consistent, 0);
    assert_int_equal(check("x86tso", &b->x).consistent, 1);
    free(b);
    b = sb_weak(IR_X86_PLAIN, true, false);
    assert_int_equal(check("x86tso", &b->x).consistent, 1);
    free(b);
    b = sb_weak(IR_X86_PLAIN, true, true);
    assert_int_equal(check("x86tso", &b->x).consistent, 0);
    free(b);
    /* C: relaxed SB is allowed, seq_cst SB is not. */
    b = sb_weak(IR_MO_RLX, false, false);
    assert_int_equal(check("rc11", &b->x).consistent, 1);
    free(b);
    b = sb_weak(IR_MO_SC, false, false);
    assert_int_equal(check("rc11", &b->x).consistent, 0);
    free(b);
    /* Java: plain SB allowed, volatile SB forbidden. */
    b = sb_weak(IR_JM_PLAIN, false, false);
    assert_int_equal(check("jam21", &b->x).consistent, 1);
    free(b);
    b = sb_weak(IR_JM_VOLATILE, false, false);
    assert_int_equal(check("jam21", &b->x).consistent, 0);
    free(b);
}

static void test_sb_locked_x86(void **state)
{
    (void)state;
    /* A locked store on one side orders that thread's store -> load. */
    xb *b = sb_weak(IR_X86_PLAIN, false, false);
    b->x.ev[2].mode = IR_X86_LOCKED;
    b->x.ev[4].mode = IR_X86_LOCKED;
    assert_int_equal(check("x86tso", &b->x).consistent, 0);
    free(b);
}

static void test_mp_rc11(void **state)
{
    (void)state;
    /* release/acquire forbids the stale read of x, without a race */
    xb *b = mp(IR_MO_NA, IR_MO_REL, IR_MO_ACQ, IR_MO_NA, false);
    cat_verdict v = check("rc11", &b->x);
    assert_int_equal(v.consistent, 0);
    free(b);
    b = mp(IR_MO_NA, IR_MO_REL, IR_MO_ACQ, IR_MO_NA, true);
    v = check("rc11", &b->x);
    assert_int_equal(v.consistent, 1);
    assert_false(v.undef);
    free(b);
    /* relaxed y: allowed, and the plain accesses of x race */
    b = mp(IR_MO_NA, IR_MO_RLX, IR_MO_RLX, IR_MO_NA, false);
    v = check("rc11", &b->x);
    assert_int_equal(v.consistent, 1);
    assert_true(v.undef);
    free(b);
    /* all relaxed: allowed, no race */
    b = mp(IR_MO_RLX, IR_MO_RLX, IR_MO_RLX, IR_MO_RLX, false);
    v = check("rc11", &b->x);
    assert_int_equal(v.consistent, 1);
    assert_false(v.undef);
    free(b);
    /* fences: release fence before a relaxed store, acquire fence after a
     * relaxed load synchronise too */
    b = xb_new();
    int ix = iw(b, 0), iy = iw(b, 1);
    int wx = wr(b, 0, 0, IR_MO_RLX);
    fence(b, 0, IR_FENCE_C, IR_MO_REL);
    int wy = wr(b, 0, 1, IR_MO_RLX);
    int ry = rd(b, 1, 1, IR_MO_RLX);
    fence(b, 1, IR_FENCE_C, IR_MO_ACQ);
    int rx = rd(b, 1, 0, IR_MO_RLX);
    rf(b, wy, ry);
    rf(b, ix, rx);
    co_chain(b, (int[]){ix, wx}, 2);
    co_chain(b, (int[]){iy, wy}, 2);
    assert_int_equal(check("rc11", &b->x).consistent, 0);
    assert_int_equal(check("sc", &b->x).consistent, 0);
    free(b);
}

static void test_lb_rc11(void **state)
{
    (void)state;
    /* relaxed LB: both loads read the other thread's later store */
    xb *b = xb_new();
    int ix = iw(b, 0), iy = iw(b, 1);
    int rx = rd(b, 0, 0, IR_MO_RLX), wy = wr(b, 0, 1, IR_MO_RLX);
    int ry = rd(b, 1, 1, IR_MO_RLX), wx = wr(b, 1, 0, IR_MO_RLX);
    rf(b, wx, rx);
    rf(b, wy, ry);
    co_chain(b, (int[]){ix, wx}, 2);
    co_chain(b, (int[]){iy, wy}, 2);
    assert_int_equal(check("rc11", &b->x).consistent, 0);   /* no thin air */
    free(b);
}

static void test_corr_jam21(void **state)
{
    (void)state;
    /* CoRR opaque: read the new value, then the initial one.  The initial
     * write is plain, so JAM21 allows it (herd's behaviour with jam21.cat). */
    xb *b = xb_new();
    int ix = iw(b, 0);
    int w = wr(b, 0, 0, IR_JM_OPAQUE);
    int r1 = rd(b, 1, 0, IR_JM_OPAQUE), r2 = rd(b, 1, 0, IR_JM_OPAQUE);
    rf(b, w, r1);
    rf(b, ix, r2);
    co_chain(b, (int[]){ix, w}, 2);
    assert_int_equal(check("jam21", &b->x).consistent, 1);
    /* volatile reads forbid it */
    b->x.ev[r1].mode = b->x.ev[r2].mode = IR_JM_VOLATILE;
    assert_int_equal(check("jam21", &b->x).consistent, 0);
    free(b);
    /* With two explicit writes the opaque shape is forbidden. */
    b = xb_new();
    ix = iw(b, 0);
    int w0 = wr(b, 0, 0, IR_JM_OPAQUE), w1 = wr(b, 0, 0, IR_JM_OPAQUE);
    r1 = rd(b, 1, 0, IR_JM_OPAQUE);
    r2 = rd(b, 1, 0, IR_JM_OPAQUE);
    rf(b, w1, r1);
    rf(b, w0, r2);
    co_chain(b, (int[]){ix, w0, w1}, 3);
    assert_int_equal(check("jam21", &b->x).consistent, 0);
    free(b);
}

static void test_jam21_rmw_orders(void **state)
{
    (void)state;
    /* Two updates of x both reading 0: forbidden. */
    xb *b = xb_new();
    int ix = iw(b, 0);
    int u0 = add_ev(b, EV_R | EV_W, 0, 0, IR_JM_VOLATILE);
    int u1 = add_ev(b, EV_R | EV_W, 1, 0, IR_JM_VOLATILE);
    b->x.ev[u0].is_rmw = b->x.ev[u1].is_rmw = true;
    rf(b, ix, u0);
    rf(b, ix, u1);
    b->x.fw = es_one(u1);
    assert_int_equal(check("jam21", &b->x).consistent, 0);
    /* One reading the other: allowed, in exactly one order of the updates. */
    memset(&b->x.rf, 0, sizeof b->x.rf);
    rf(b, ix, u0);
    rf(b, u0, u1);
    cat_verdict v = check("jam21", &b->x);
    assert_int_equal(v.consistent, 1);
    free(b);
}

static void test_cache_follows_structure(void **state)
{
    (void)state;
    /* One evaluation state over executions of different shapes. */
    diag d = {0};
    cat_model *m = cat_load("x86tso", &d);
    assert_non_null(m);
    assert_true(cat_model_generates_co(m));
    cat_run *run = cat_run_new(m);
    xb *weak = sb_weak(IR_X86_PLAIN, false, false), *fenced = sb_weak(IR_X86_PLAIN, true, true);
    cat_verdict v;
    for (int k = 0; k < 3; k++) {
        assert_true(cat_run_check(run, &weak->x, &v, &d));
        assert_int_equal(v.consistent, 1);
        assert_true(cat_run_check(run, &fenced->x, &v, &d));
        assert_int_equal(v.consistent, 0);
    }
    /* Same structure, different rf: the reads see the new values. */
    exec strong = weak->x;
    memset(&strong.rf, 0, sizeof strong.rf);
    er_add(&strong.rf, 2, 5);  /* wx -> rx */
    er_add(&strong.rf, 4, 3);  /* wy -> ry */
    assert_true(cat_run_check(run, &strong, &v, &d));
    assert_int_equal(v.consistent, 1);
    assert_true(cat_run_check(run, &weak->x, &v, &d));
    assert_int_equal(v.consistent, 1);
    /* And sc on the weak one, then the strong one, with one state. */
    cat_run_free(run);
    cat_free(m);
    m = cat_load("sc", &d);
    run = cat_run_new(m);
    assert_true(cat_run_check(run, &weak->x, &v, &d));
    assert_int_equal(v.consistent, 0);
    assert_true(cat_run_check(run, &strong, &v, &d));
    assert_int_equal(v.consistent, 1);
    cat_run_free(run);
    cat_free(m);
    free(weak);
    free(fenced);
}

static void test_coherence_from_enumerator(void **state)
{
    (void)state;
    /* A co that contradicts po on one location fails uniproc. */
    xb *b = xb_new();
    int ix = iw(b, 0);
    int w1 = wr(b, 0, 0, IR_X86_PLAIN), w2 = wr(b, 0, 0, IR_X86_PLAIN);
    co_chain(b, (int[]){ix, w2, w1}, 3);
    assert_int_equal(check("x86tso", &b->x).consistent, 0);
    memset(&b->x.co, 0, sizeof b->x.co);
    b->x.fw = es_none();
    co_chain(b, (int[]){ix, w1, w2}, 3);
    assert_int_equal(check("x86tso", &b->x).consistent, 1);
    assert_int_equal(check("sc", &b->x).consistent, 1);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rel_algebra),
        cmocka_unit_test(test_rel_algebra_words),
        cmocka_unit_test(test_language_semantics),
        cmocka_unit_test(test_with_counts_flags_undef),
        cmocka_unit_test(test_sb),
        cmocka_unit_test(test_sb_locked_x86),
        cmocka_unit_test(test_mp_rc11),
        cmocka_unit_test(test_lb_rc11),
        cmocka_unit_test(test_corr_jam21),
        cmocka_unit_test(test_jam21_rmw_orders),
        cmocka_unit_test(test_cache_follows_structure),
        cmocka_unit_test(test_coherence_from_enumerator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
