/* The shared init and condition grammar: item forms, quantifiers,
 * operator precedence (\/ < /\ < => < ~), atoms, locations and filter. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "frontend/frontend.h"

static diag d;

static fe_test *parse(const char *s)
{
    memset(&d, 0, sizeof d);
    fe_test *t = fe_parse(s, strlen(s), "t.litmus", &d);
    return t;
}

static fe_test *with_cond(const char *init, const char *cond)
{
    static char buf[2048];
    snprintf(buf, sizeof buf, "X86 T\n{ %s }\n P0 | P1 ;\n MOV [x],$1 | MOV [y],$1 ;\n MOV EAX,[y] | MOV EBX,[x] ;\n%s\n",
             init, cond);
    fe_test *t = parse(buf);
    if (!t)
        fail_msg("parse failed: %d:%d %s", d.line, d.col, d.msg);
    return t;
}

static void expect_error(const char *init, const char *cond, int line, int col, const char *what)
{
    char buf[2048];
    snprintf(buf, sizeof buf, "X86 T\n{ %s }\n P0 | P1 ;\n MOV [x],$1 | MOV [y],$1 ;\n MOV EAX,[y] | MOV EBX,[x] ;\n%s\n",
             init, cond);
    fe_test *t = parse(buf);
    if (t || d.line != line || d.col != col || !strstr(d.msg, what))
        fail_msg("expected %d:%d '%s', got %s %d:%d '%s'", line, col, what, t ? "success" : "error", d.line,
                 d.col, d.msg);
    fe_test_free(t);
}

static void test_init_forms(void **st)
{
    (void)st;
    fe_test *t = with_cond("x=1; [y]=-2; 0:EAX=x; 1:EBX=0x10; z; P1:ECX=3", "exists (x=1)");
    assert_int_equal(t->ninit, 6);
    assert_int_equal(t->init[0].value.i, 1);
    assert_string_equal(t->init[1].loc.name, "y");
    assert_int_equal(t->init[1].value.i, -2);
    assert_int_equal(t->init[2].loc.kind, FE_LOC_REG);
    assert_int_equal(t->init[2].value.kind, FE_VAL_ADDR);
    assert_string_equal(t->init[2].value.sym, "x");
    assert_int_equal(t->init[3].value.i, 16);
    assert_false(t->init[4].has_value);
    assert_int_equal(t->init[5].loc.thread, 1);
    assert_string_equal(t->init[5].loc.name, "ECX");
    fe_test_free(t);
    t = parse("C T\n{ int a[2]={1,2}; uint64_t u; int *p=&x; x=ATOMIC_INIT(3) }\n"
              "P0(atomic_int* x) { }\nexists (x=0)\n");
    assert_non_null(t);
    assert_int_equal(t->init[0].array_size, 2);
    assert_int_equal(t->init[0].elems[1].i, 2);
    assert_string_equal(t->init[1].type, "uint64_t");
    assert_string_equal(t->init[2].value.sym, "x");
    assert_int_equal(t->init[3].value.i, 3);
    fe_test_free(t);
}

static void test_quantifiers(void **st)
{
    (void)st;
    static const struct { const char *c; fe_quant q; } cases[] = {
        {"exists (x=1)", FE_Q_EXISTS}, {"~exists (x=1)", FE_Q_NOT_EXISTS}, {"~ exists x=1", FE_Q_NOT_EXISTS},
        {"not exists (x=1)", FE_Q_NOT_EXISTS}, {"forall (x=1)", FE_Q_FORALL}, {"final (x=1)", FE_Q_EXISTS},
        {"(x=1)", FE_Q_EXISTS}, {"exists (x=1);", FE_Q_EXISTS},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        fe_test *t = with_cond("", cases[i].c);
        assert_int_equal(t->cond.quant, cases[i].q);
        assert_int_equal(t->cond.prop->kind, FE_P_ATOM);
        fe_test_free(t);
    }
    fe_test *t = with_cond("", "");
    assert_int_equal(t->cond.prop->kind, FE_P_TRUE);
    fe_test_free(t);
}

static void test_precedence(void **st)
{
    (void)st;
    fe_test *t = with_cond("", "exists (x=1 \\/ y=1 /\\ 0:EAX=0 => 1:EBX=1)");
    const fe_prop *p = t->cond.prop;
    assert_int_equal(p->kind, FE_P_OR);
    assert_int_equal(p->r->kind, FE_P_AND);
    assert_int_equal(p->r->r->kind, FE_P_IMPLIES);
    fe_test_free(t);
    t = with_cond("", "exists (~x=1 /\\ not y=2 /\\ true \\/ false)");
    p = t->cond.prop;
    assert_int_equal(p->kind, FE_P_OR);
    assert_int_equal(p->r->kind, FE_P_FALSE);
    assert_int_equal(p->l->kind, FE_P_AND);
    assert_int_equal(p->l->l->kind, FE_P_AND);       /* left associative */
    assert_int_equal(p->l->l->l->kind, FE_P_NOT);
    assert_int_equal(p->l->r->kind, FE_P_TRUE);
    fe_test_free(t);
    t = with_cond("", "exists (x=1 => y=1 => 0:EAX=1)");    /* => is right associative */
    assert_int_equal(t->cond.prop->r->kind, FE_P_IMPLIES);
    fe_test_free(t);
}

static void test_atoms(void **st)
{
    (void)st;
    fe_test *t = with_cond("", "exists (0:EAX==1 /\\ P1:EBX!=2 /\\ [x]<>3 /\\ [x]=[y] /\\ 0:EAX=x /\\ y=-1)");
    const fe_prop *p = t->cond.prop;
    const fe_prop *a[6];
    for (int i = 5; i > 0; i--) {
        a[i] = p->r;
        p = p->l;
    }
    a[0] = p;
    assert_false(a[0]->ne);
    assert_int_equal(a[0]->lhs.kind, FE_LOC_REG);
    assert_true(a[1]->ne);
    assert_int_equal(a[1]->lhs.thread, 1);
    assert_true(a[2]->ne);
    assert_true(a[3]->rhs_is_loc);
    assert_string_equal(a[3]->rhs_loc.name, "y");
    assert_int_equal(a[4]->rhs.kind, FE_VAL_ADDR);
    assert_int_equal(a[5]->rhs.i, -1);
    fe_test_free(t);
}

static void test_locations_filter(void **st)
{
    (void)st;
    fe_test *t = with_cond("", "locations [x; 0:EAX; y;]\nfilter (0:EAX=1)\nexists (1:EBX=0)");
    assert_int_equal(t->cond.nlocations, 3);
    assert_int_equal(t->cond.locations[1].kind, FE_LOC_REG);
    assert_non_null(t->cond.filter);
    assert_int_equal(t->cond.filter->kind, FE_P_ATOM);
    fe_test_free(t);
}

static void test_errors(void **st)
{
    (void)st;
    expect_error("", "exists (x=1 /\\ )", 6, 16, "expected a location");
    expect_error("", "exists (x=1", 7, 1, "expected ')'");
    expect_error("", "exists (3:EAX=1)", 6, 9, "unknown thread 3");
    expect_error("", "exists (0:EQX=1)", 6, 9, "unknown register 0:EQX");
    expect_error("", "exists (w=1)", 6, 9, "unknown location 'w'");
    expect_error("", "exists (x=1) junk", 6, 14, "unexpected text after the condition");
    expect_error("", "exists (x=99999999999999999999)", 6, 11, "out of range");
    expect_error("x=1; x=2", "exists (x=1)", 2, 8, "initialised twice");
    expect_error("x=", "exists (x=1)", 2, 6, "expected a value");
    expect_error("", "locations [x; 7:EAX;] exists (x=1)", 6, 15, "unknown thread 7");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_forms),
        cmocka_unit_test(test_quantifiers),
        cmocka_unit_test(test_precedence),
        cmocka_unit_test(test_atoms),
        cmocka_unit_test(test_locations_filter),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
