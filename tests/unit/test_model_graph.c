/* Unit tests of a model's named relations (model/cat/cat_show.c) and of the
 * pictures of executions (model/graph.c): which names a model can show
 * and the words for those it cannot; x86tso's ghb on SB's witness worked
 * out by hand, and acyclic on every consistent execution (x86tso requires
 * it); the model's fr equal to (rf^-1;co) \ id; rc11's hb equal to the
 * race survey's po|sw closure (model/hb.c) on every execution of C tests
 * with release/acquire, fences and a release sequence; and the dot text:
 * labels with modes, an RMW's two values and a fence, SB's edges, a racing
 * pair. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tests/unit/unit_litmus.h"
#include "frontend/frontend.h"
#include "ir/lower.h"
#include "model/cat/cat.h"
#include "model/cat/cat_rel.h"
#include "model/graph.h"
#include "model/hb.h"
#include "model/model.h"
#include "util/mem.h"

#define BIT(i) ((uint64_t)1 << (i))

static const char sb_x86[] = "X86 SB\n"
                             "{ x=0; y=0; }\n"
                             " P0          | P1          ;\n"
                             " MOV [x],$1  | MOV [y],$1  ;\n"
                             " MOV EAX,[y] | MOV EAX,[x] ;\n"
                             "exists (0:EAX=0 /\\ 1:EAX=0)\n";

static const char mp_na[] = "C MP+na\n"
                            "{ [x]=0; [y]=0; }\n"
                            "P0 (int* x, atomic_int* y) {\n"
                            "  *x = 1;\n"
                            "  atomic_store_explicit(y, 1, memory_order_relaxed);\n"
                            "}\n"
                            "P1 (int* x, atomic_int* y) {\n"
                            "  int r0 = atomic_load_explicit(y, memory_order_relaxed);\n"
                            "  int r1 = *x;\n"
                            "}\n"
                            "exists (1:r0=1 /\\ 1:r1=0)\n";

/* release/acquire, fences, and a release sequence through an exchange */
static const char *const c_tests[] = {
    "C MP+rel+acq\n"
    "{ [x]=0; [y]=0; }\n"
    "P0 (atomic_int* x, atomic_int* y) {\n"
    "  atomic_store_explicit(x, 1, memory_order_relaxed);\n"
    "  atomic_store_explicit(y, 1, memory_order_release);\n"
    "}\n"
    "P1 (atomic_int* x, atomic_int* y) {\n"
    "  int r0 = atomic_load_explicit(y, memory_order_acquire);\n"
    "  int r1 = atomic_load_explicit(x, memory_order_relaxed);\n"
    "}\n"
    "exists (1:r0=1 /\\ 1:r1=1)\n",
    "C MP+fences\n"
    "{ [x]=0; [y]=0; }\n"
    "P0 (atomic_int* x, atomic_int* y) {\n"
    "  atomic_store_explicit(x, 1, memory_order_relaxed);\n"
    "  atomic_thread_fence(memory_order_release);\n"
    "  atomic_store_explicit(y, 1, memory_order_relaxed);\n"
    "}\n"
    "P1 (atomic_int* x, atomic_int* y) {\n"
    "  int r0 = atomic_load_explicit(y, memory_order_relaxed);\n"
    "  atomic_thread_fence(memory_order_acquire);\n"
    "  int r1 = atomic_load_explicit(x, memory_order_relaxed);\n"
    "}\n"
    "exists (1:r0=1 /\\ 1:r1=0)\n",
    "C MP+relseq\n"
    "{ [x]=0; [y]=0; }\n"
    "P0 (atomic_int* x, atomic_int* y) {\n"
    "  atomic_store_explicit(x, 1, memory_order_relaxed);\n"
    "  atomic_store_explicit(y, 1, memory_order_release);\n"
    "}\n"
    "P1 (atomic_int* y) {\n"
    "  int r0 = atomic_exchange_explicit(y, 2, memory_order_relaxed);\n"
    "}\n"
    "P2 (atomic_int* x, atomic_int* y) {\n"
    "  int r0 = atomic_load_explicit(y, memory_order_acquire);\n"
    "  int r1 = atomic_load_explicit(x, memory_order_relaxed);\n"
    "}\n"
    "exists (1:r0=1 /\\ 2:r0=2 /\\ 2:r1=1)\n",
};

static model *load_model(const char *name)
{
    diag d = {0};
    model *m = model_load(name, &d);
    if (!m)
        fail_msg("model %s: %s", name, d.msg);
    return m;
}

/* ---- which names can be shown ------------------------------------------------ */
static void expect_refused(const cat_model *m, const char *name, const char *msg)
{
    diag d = {0};
    assert_false(cat_model_check_relations(m, &name, 1, &d));
    assert_int_equal(d.status, 2);
    assert_string_equal(d.msg, msg);
}

static void test_check_names(void **state)
{
    (void)state;
    diag d = {0};
    cat_model *x86 = cat_load("x86tso", &d), *rc11 = cat_load("rc11", &d);
    assert_non_null(x86);
    assert_non_null(rc11);
    /* the model's own lets (ghb is checked; kept-po only feeds it), stdlib's,
     * the built-ins, and co bound by `with` */
    const char *ok_x86[] = {"ghb", "kept-po", "fr", "rfe", "po", "rf", "co", "addr"};
    assert_true(cat_model_check_relations(x86, ok_x86, 8, &d));
    const char *ok_rc11[] = {"hb", "sync", "psc", "eco", "race"};
    assert_true(cat_model_check_relations(rc11, ok_rc11, 5, &d));
    expect_refused(x86, "nosuch", "cannot show 'nosuch': model x86tso defines no such name");
    expect_refused(x86, "hb", "cannot show 'hb': model x86tso defines no such name");
    expect_refused(x86, "R", "cannot show 'R': in model x86tso it is a set of events, not a relation");
    expect_refused(rc11, "fencerel",
                   "cannot show 'fencerel': in model rc11 it is a function, not a relation");
    /* the first bad one of several is named */
    const char *mixed[] = {"hb", "W", "nosuch"};
    d = (diag){0};
    assert_false(cat_model_check_relations(rc11, mixed, 3, &d));
    assert_string_equal(d.msg, "cannot show 'W': in model rc11 it is a set of events, not a relation");
    cat_free(x86);
    cat_free(rc11);
}

/* ---- relations on executions ----------------------------------------------- */
typedef struct sb_ctx {
    cat_run *r;
    int execs, witnesses;
} sb_ctx;

static bool sb_exec(void *ctx, const exec *x, const model_exec_info *info, diag *d)
{
    sb_ctx *c = ctx;
    c->execs++;
    exec_rel ghb, fr, mine, rfinv;
    if (!cat_run_relation(c->r, x, "ghb", &ghb, d) || !cat_run_relation(c->r, x, "fr", &fr, d))
        fail_msg("%s", d->msg);
    assert_true(cr_acyclic(&ghb, x->n));
    cr_inv(&rfinv, &x->rf, x->n);
    cr_seq(&mine, &rfinv, &x->co, x->n);
    for (int i = 0; i < x->n; i++)
        assert_int_equal(fr.row[i].w[0], mine.row[i].w[0] & ~BIT(i));
    if (!info->cond)
        return true;
    c->witnesses++;
    /* events: 0 init x, 1 init y, 2 a: W x=1, 3 b: R y=0, 4 c: W y=1, 5 d: R x=0 */
    assert_int_equal(x->n, 6);
    assert_true((x->ev[2].kind & EV_W) && x->ev[2].loc == 0 && x->ev[2].thread == 0);
    assert_true((x->ev[5].kind & EV_R) && x->ev[5].loc == 0 && x->ev[5].thread == 1);
    /* by hand: rfe init y->b, init x->d; fr b->c, d->a; co init x->a,
     * init y->c; no preserved po (both are W->R) */
    uint64_t want[6] = {BIT(2) | BIT(5), BIT(3) | BIT(4), 0, BIT(4), 0, BIT(2)};
    for (int i = 0; i < 6; i++)
        assert_int_equal(ghb.row[i].w[0], want[i]);
    return true;
}

static void test_sb_ghb(void **state)
{
    (void)state;
    ir_test *t = unit_litmus(sb_x86);
    model *m = load_model("x86tso");
    diag d = {0};
    cat_model *cm = cat_load("x86tso", &d);
    sb_ctx c = {cat_run_new(cm), 0, 0};
    bset *b = model_run_observed(m, t, sb_exec, &c, &d);
    if (!b)
        fail_msg("%s", d.msg);
    assert_int_equal(c.execs, 4);
    assert_int_equal(c.witnesses, 1);
    assert_int_equal((int)b->pos, 1);
    bset_free(b);
    cat_run_free(c.r);
    cat_free(cm);
    model_free(m);
    ir_test_free(t);
}

typedef struct hb_ctx {
    cat_run *r;
    int execs;
} hb_ctx;

static bool hb_exec(void *ctx, const exec *x, const model_exec_info *info, diag *d)
{
    (void)info;
    hb_ctx *c = ctx;
    c->execs++;
    exec_rel cat_hb, sw, hb;
    if (!cat_run_relation(c->r, x, "hb", &cat_hb, d))
        fail_msg("%s", d->msg);
    hb_sync(x, &sw);
    hb_closure(x, &sw, &hb);
    for (int i = 0; i < x->n; i++)
        if (cat_hb.row[i].w[0] != hb.row[i].w[0])
            fail_msg("%s: hb of event %d: rc11 %llx, po|sw %llx", x->test->name, i,
                     (unsigned long long)cat_hb.row[i].w[0], (unsigned long long)hb.row[i].w[0]);
    return true;
}

static void test_rc11_hb(void **state)
{
    (void)state;
    model *m = load_model("rc11");
    diag d = {0};
    cat_model *cm = cat_load("rc11", &d);
    for (size_t k = 0; k < sizeof c_tests / sizeof c_tests[0]; k++) {
        ir_test *t = unit_litmus(c_tests[k]);
        hb_ctx c = {cat_run_new(cm), 0};
        bset *b = model_run_observed(m, t, hb_exec, &c, &d);
        if (!b)
            fail_msg("%s", d.msg);
        assert_true(c.execs >= 3);
        bset_free(b);
        cat_run_free(c.r);
        ir_test_free(t);
    }
    cat_free(cm);
    model_free(m);
}

/* ---- the dot text ------------------------------------------------------------ */
typedef struct dot_ctx {
    model_graph *g;
    char *text;             /* the last witness's picture */
    int witnesses;
} dot_ctx;

static bool dot_exec(void *ctx, const exec *x, const model_exec_info *info, diag *d)
{
    dot_ctx *c = ctx;
    if (!info->cond)
        return true;
    char *s = model_graph_dot(c->g, x, info, d);
    if (!s)
        fail_msg("%s", d->msg);
    free(c->text);
    c->text = s;
    c->witnesses++;
    return true;
}

static char *picture(const char *model_name, const char *text, const char *const *show, int nshow,
                     int witnesses)
{
    ir_test *t = unit_litmus(text);
    model *m = load_model(model_name);
    diag d = {0};
    dot_ctx c = {model_graph_new(m, show, nshow, &d), NULL, 0};
    if (!c.g)
        fail_msg("%s", d.msg);
    bset *b = model_run_observed(m, t, dot_exec, &c, &d);
    if (!b)
        fail_msg("%s", d.msg);
    assert_int_equal(c.witnesses, witnesses);
    bset_free(b);
    model_graph_free(c.g);
    model_free(m);
    ir_test_free(t);
    return c.text;
}

static void has(const char *text, const char *line)
{
    if (!strstr(text, line))
        fail_msg("no `%s` in:\n%s", line, text);
}

static void test_dot_sb(void **state)
{
    (void)state;
    const char *show[] = {"ghb"};
    char *s = picture("x86tso", sb_x86, show, 1, 1);
    has(s, "digraph \"SB\" {\n");
    has(s, "    \"a\" [label=\"a: W x=1\"];\n");
    has(s, "    \"d\" [label=\"d: R x=0\"];\n");
    has(s, "  \"a\" -> \"b\" [label=\"po\", color=black];\n");
    has(s, "  \"init y\" -> \"b\" [label=\"rf\"");
    has(s, "  \"init x\" -> \"a\" [label=\"co\"");
    has(s, "  \"d\" -> \"a\" [label=\"fr\"");
    has(s, "  \"b\" -> \"c\" [label=\"ghb\", color=darkgreen");
    assert_null(strstr(s, "race"));
    free(s);
    /* no model relation asked for: none drawn */
    s = picture("x86tso", sb_x86, NULL, 0, 1);
    assert_null(strstr(s, "ghb"));
    free(s);
}

static void test_dot_labels_and_race(void **state)
{
    (void)state;
    char *s = picture("rc11", mp_na, NULL, 0, 1);
    has(s, "    \"a\" [label=\"a: W[na] x=1\"];\n");
    has(s, "    \"b\" [label=\"b: W[rlx] y=1\"];\n");
    has(s, "  \"a\" -> \"d\" [label=\"race\", color=red, fontcolor=red, style=dashed, dir=none");
    has(s, "execution ");
    has(s, " under rc11 (undefined)\\n1:r0=1; 1:r1=0;\"");
    free(s);
    /* an exchange is one event with both values; fences by their order */
    s = picture("rc11", c_tests[2], NULL, 0, 1);
    has(s, "    \"c\" [label=\"c: RMW[rlx] y=1->2\"];\n");
    assert_null(strstr(s, "label=\"rmw\""));
    free(s);
    s = picture("rc11", c_tests[1], NULL, 0, 0);
    assert_null(s);
    const char *fences = "C F\n{ [x]=0; }\n"
                         "P0 (atomic_int* x) {\n"
                         "  atomic_thread_fence(memory_order_seq_cst);\n"
                         "  atomic_store_explicit(x, 1, memory_order_relaxed);\n"
                         "}\n"
                         "exists ([x]=1)\n";
    s = picture("rc11", fences, NULL, 0, 1);
    has(s, "    \"a\" [label=\"a: F[sc]\"];\n");
    has(s, "    \"b\" [label=\"b: W[rlx] x=1\"];\n");
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_names),
        cmocka_unit_test(test_sb_ghb),
        cmocka_unit_test(test_rc11_hb),
        cmocka_unit_test(test_dot_sb),
        cmocka_unit_test(test_dot_labels_and_race),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
