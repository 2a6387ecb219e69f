/* The Java program parser: threads, VarHandle methods and modes, fences,
 * herd's operators (|| and && are bitwise), and handle/name errors. */
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
    return fe_parse(s, strlen(s), "t.litmus", &d);
}

static void expect_error(const char *s, int line, int col, const char *what)
{
    fe_test *t = parse(s);
    if (t || !d.set || d.line != line || d.col != col || !strstr(d.msg, what))
        fail_msg("expected %d:%d '%s', got %s %d:%d '%s'", line, col, what, t ? "success" : "error", d.line,
                 d.col, d.msg);
    fe_test_free(t);
}

static fe_test *body(const char *b)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "Java T\n{ x=0; y=0; 0:X=x; 0:Y=y; }\nThread0 {\n%s\n}\nexists (x=0)\n", b);
    return parse(buf);
}

static const fe_stmt *stmt(const fe_test *t, int i)
{
    if (!t)
        fail_msg("parse failed: %d:%d %s", d.line, d.col, d.msg);
    assert_true(i < t->threads[0].body->nbody);
    return t->threads[0].body->body[i];
}

static void test_mp(void **st)
{
    (void)st;
    fe_test *t = parse("Java MP+rel+acq\n{ x=0; y=0; 0:X=x; 0:Y=y; 1:X=x; 1:Y=y; }\n"
                       "Thread0 { X.set(1); Y.setRelease(1); }\n"
                       "Thread1 { int r0 = Y.getAcquire(); int r1 = -1; if (r0 == 1) { r1 = X.get(); } }\n"
                       "exists (1:r0=1 /\\ 1:r1=0)\n");
    assert_non_null(t);
    assert_int_equal(t->arch, FE_ARCH_JAVA);
    const fe_stmt *s = t->threads[0].body->body[1];
    assert_int_equal(s->kind, FE_S_EXPR);
    assert_int_equal(s->e->jmethod, FE_J_SET);
    assert_int_equal(s->e->jmode, FE_JM_RELEASE);
    assert_string_equal(s->e->name, "Y");
    const fe_stmt *r = t->threads[1].body->body[0];
    assert_int_equal(r->e->jmethod, FE_J_GET);
    assert_int_equal(r->e->jmode, FE_JM_ACQUIRE);
    const fe_stmt *i = t->threads[1].body->body[2];
    assert_int_equal(i->kind, FE_S_IF);
    assert_int_equal(i->then_s->body[0]->kind, FE_S_ASSIGN);
    fe_test_free(t);
}

static void test_methods_and_fences(void **st)
{
    (void)st;
    fe_test *t = body("int a = X.getPlain(); X.setPlain(1); int b = X.compareAndExchangeAcquire(0, 1);"
                      " int c = X.compareAndSet(1, 2); int e = X.weakCompareAndSetRelease(2, 3);"
                      " int f = Y.getAndBitwiseXorAcquire(1); int g = Y.getAndSet(4); fullFence();"
                      " VarHandle.releaseFence(); loadLoadFence(); Y.getAndAdd(1);");
    assert_int_equal(stmt(t, 0)->e->jmode, FE_JM_PLAIN);
    assert_int_equal(stmt(t, 1)->e->jmethod, FE_J_SET);
    assert_int_equal(stmt(t, 2)->e->jmethod, FE_J_CAE);
    assert_int_equal(stmt(t, 2)->e->jmode, FE_JM_ACQUIRE);
    assert_int_equal(stmt(t, 2)->e->nargs, 2);
    assert_int_equal(stmt(t, 3)->e->jmethod, FE_J_CAS);
    assert_int_equal(stmt(t, 4)->e->jmethod, FE_J_WEAK_CAS);
    assert_int_equal(stmt(t, 4)->e->jmode, FE_JM_RELEASE);
    assert_int_equal(stmt(t, 5)->e->jmethod, FE_J_GET_AND_XOR);
    assert_int_equal(stmt(t, 6)->e->jmethod, FE_J_GET_AND_SET);
    assert_int_equal(stmt(t, 7)->e->jmethod, FE_J_FENCE_FULL);
    assert_null(stmt(t, 7)->e->name);
    assert_int_equal(stmt(t, 8)->e->jmethod, FE_J_FENCE_RELEASE);
    assert_int_equal(stmt(t, 9)->e->jmethod, FE_J_FENCE_LOADLOAD);
    assert_int_equal(stmt(t, 10)->e->jmethod, FE_J_GET_AND_ADD);
    fe_test_free(t);
}

static void test_operators(void **st)
{
    (void)st;
    /* tightest first: * /, + -, comparisons, &&, ^, || */
    fe_test *t = body("int a = 1 || 2 ^ 3 && 4 == 5 + 6 * 7; int b = a-1; int c; c = (a || b) * 2;");
    const fe_expr *e = stmt(t, 0)->e;
    assert_int_equal(e->op, FE_OR);
    assert_int_equal(e->r->op, FE_XOR);
    assert_int_equal(e->r->r->op, FE_AND);
    assert_int_equal(e->r->r->r->op, FE_EQ);
    const fe_expr *m = stmt(t, 1)->e;      /* r0-1 reads as a subtraction */
    assert_int_equal(m->op, FE_SUB);
    assert_string_equal(m->l->name, "a");
    assert_int_equal(stmt(t, 2)->kind, FE_S_DECL);
    assert_null(stmt(t, 2)->e);
    assert_int_equal(stmt(t, 3)->e->op, FE_MUL);
    fe_test_free(t);
}

static void test_errors(void **st)
{
    (void)st;
    const char *head = "Java T\n{ x=0; 0:X=x; }\nThread0 {\n";
    char buf[512];
#define E(b, l, c, w) snprintf(buf, sizeof buf, "%s%s\n}\nexists (x=0)\n", head, b), expect_error(buf, l, c, w)
    E("int r = Z.get();", 4, 9, "unknown VarHandle 'Z'");
    E("int r = X.getFoo();", 4, 11, "unknown VarHandle method 'getFoo'");
    E("for (;;) { }", 4, 1, "for loops are not supported: write the loop with while");
    E("do { } while (true)", 5, 1, "expected ';'");
    E("int r = q;", 4, 9, "unknown variable 'q'");
    E("int r = X.set(1);", 4, 9, "has no value");
    E("r = 1;", 4, 1, "undeclared");
    E("int r = 1 & 2;", 4, 11, "not supported");
#undef E
    expect_error("Java T\n{ }\nThread1 { }\nexists (x=0)\n", 3, 1, "expected Thread0");
    expect_error("Java T\n{ x=0; 0:X=x; }\nThread0 { int r = X.get(); }\nThread0 { }\nexists (0:r=0)\n", 4, 1,
                 "duplicate thread");
    expect_error("Java T\n{ 0:X=1; }\nThread0 { }\nexists (x=0)\n", 2, 3, "type mismatch");
}

/* synchronized (M): the tree, the printer's round trip, a nested block
 * kept as written, and the monitor kept apart from data. */
static void test_synchronized(void **st)
{
    (void)st;
    const char *src = "Java S\n{ x=0; 0:X=x; 0:M=m; 1:X=x; 1:M=m; }\n"
                      "Thread0 { synchronized (M) { int r0 = X.get(); synchronized (M) { X.set(r0 + 1); } } }\n"
                      "Thread1 { synchronized (M) { X.set(2); } }\n"
                      "exists (x=1)\n";
    fe_test *t = parse(src);
    if (!t)
        fail_msg("parse failed: %d:%d %s", d.line, d.col, d.msg);
    const fe_stmt *s = t->threads[0].body->body[0];
    assert_int_equal(s->kind, FE_S_SYNC);
    assert_string_equal(s->name, "M");
    assert_int_equal(s->pos.line, 3);
    assert_int_equal(s->pos.col, 11);
    assert_int_equal(s->then_s->kind, FE_S_BLOCK);
    assert_int_equal(s->then_s->nbody, 2);
    assert_int_equal(s->then_s->body[1]->kind, FE_S_SYNC);
    int nm;
    const char **mons = fe_monitor_locs(t, &nm);
    assert_int_equal(nm, 1);
    assert_string_equal(mons[0], "m");
    free(mons);
    assert_string_equal(fe_handle_loc(t, 1, "M"), "m");
    char *text = fe_print(t);
    assert_non_null(strstr(text, "synchronized (M) {\n"));
    memset(&d, 0, sizeof d);
    fe_test *u = fe_parse(text, strlen(text), "t.litmus", &d);
    if (!u)
        fail_msg("the printed test does not parse: %d:%d %s\n%s", d.line, d.col, d.msg, text);
    char why[256];
    if (!fe_test_equal(t, u, why, sizeof why))
        fail_msg("round trip: %s", why);
    assert_string_equal(t->hash, u->hash);
    /* the same statements without the monitor are another test */
    fe_test *v = parse("Java S\n{ x=0; 0:X=x; 0:M=m; 1:X=x; 1:M=m; }\n"
                       "Thread0 { int r0 = X.get(); X.set(r0 + 1); }\n"
                       "Thread1 { X.set(2); }\nexists (x=1)\n");
    assert_non_null(v);
    assert_false(fe_test_equal(t, v, why, sizeof why));
    assert_string_not_equal(t->hash, v->hash);
    free(text);
    fe_test_free(t);
    fe_test_free(u);
    fe_test_free(v);

    const char *h = "Java T\n{ x=0; 0:X=x; 0:M=m; 0:N=x; 1:M=m; }\nThread0 {\n";
    char buf[512];
#define E(b, l, c, w) snprintf(buf, sizeof buf, "%s%s\n}\nThread1 { }\nexists (x=0)\n", h, b), \
                      expect_error(buf, l, c, w)
    E("synchronized (M) { int r = M.get(); }", 4, 28, "a monitor is not data");
    E("synchronized (N) { }\nint r = X.get();", 5, 9, "a monitor is not data");
    E("synchronized (Q) { }", 4, 1, "handle Q is not bound");
    E("synchronized (x) { }", 4, 15, "synchronized takes a handle");
    E("synchronized (M) X.set(1);", 4, 18, "expected '{'");
    E("synchronized (M) { X.set(1);", 3, 9, "unbalanced '{': missing '}'");
#undef E
    expect_error("Java T\n{ x=0; m=1; 0:M=m; }\nThread0 { synchronized (M) { } }\nexists (x=0)\n", 2, 8,
                 "a monitor starts free");
    expect_error("Java T\n{ 0:M=m; }\nThread0 { synchronized (M) { } }\nexists (m=0)\n", 4, 9,
                 "the condition observes m");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mp),
        cmocka_unit_test(test_methods_and_fences),
        cmocka_unit_test(test_operators),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_synchronized),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
