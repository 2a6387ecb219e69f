/* The C program parser: thread headers and parameter types, atomic
 * builtins with their orders, plain accesses, expressions with herd's
 * precedence, if/else, and errors (loops, types, unknown names). */
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

/* A one-thread C test whose body is BODY. */
static fe_test *body(const char *b)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "C T\n{ [x]=0; [y]=0; }\nP0 (atomic_int* x, volatile int* y) {\n%s\n}\nexists (x=0)\n", b);
    return parse(buf);
}

static const fe_stmt *stmt(const fe_test *t, int i)
{
    assert_non_null(t);
    assert_true(i < t->threads[0].body->nbody);
    return t->threads[0].body->body[i];
}

static void test_mp(void **st)
{
    (void)st;
    fe_test *t = parse("C MP+rel+acq\n{ [x]=0; [y]=0; }\n"
                       "P0 (atomic_int* x, atomic_int* y) { atomic_store_explicit(x, 1, memory_order_relaxed);"
                       " atomic_store_explicit(y, 1, memory_order_release); }\n"
                       "P1 (atomic_int* x, atomic_int* y) { int r0 = atomic_load_explicit(y, memory_order_acquire);"
                       " int r1 = atomic_load_explicit(x, memory_order_relaxed); }\n"
                       "exists (1:r0=1 /\\ 1:r1=0)\n");
    assert_non_null(t);
    assert_int_equal(t->nthreads, 2);
    assert_int_equal(t->threads[0].nparams, 2);
    assert_string_equal(t->threads[0].params[0].type, "atomic_int");
    assert_string_equal(t->threads[0].params[1].name, "y");
    const fe_stmt *s = t->threads[0].body->body[1];
    assert_int_equal(s->kind, FE_S_EXPR);
    assert_int_equal(s->e->kind, FE_E_CCALL);
    assert_int_equal(s->e->ccall, FE_C_STORE);
    assert_int_equal(s->e->mo, FE_MO_RELEASE);
    assert_true(s->e->explicit_form);
    assert_int_equal(s->e->nargs, 2);
    assert_string_equal(s->e->args[0]->name, "y");
    const fe_stmt *l = t->threads[1].body->body[0];
    assert_int_equal(l->kind, FE_S_DECL);
    assert_string_equal(l->type, "int");
    assert_string_equal(l->name, "r0");
    assert_int_equal(l->e->ccall, FE_C_LOAD);
    assert_int_equal(l->e->mo, FE_MO_ACQUIRE);
    assert_non_null(strstr(t->threads[1].body_text, "int r1 = atomic_load_explicit"));
    fe_test_free(t);
}

static void test_plain_accesses_and_cas(void **st)
{
    (void)st;
    fe_test *t = body("*y = 1; int r0 = *y; int r1 = atomic_compare_exchange_strong_explicit(x, y, 2,"
                      " memory_order_acq_rel, memory_order_relaxed); atomic_store(x, 3);"
                      " int r2 = atomic_fetch_add(x, 1); atomic_thread_fence(memory_order_seq_cst);");
    assert_int_equal(stmt(t, 0)->kind, FE_S_STORE);
    assert_string_equal(stmt(t, 0)->addr->name, "y");
    assert_int_equal(stmt(t, 1)->e->kind, FE_E_DEREF);
    const fe_expr *cas = stmt(t, 2)->e;
    assert_int_equal(cas->ccall, FE_C_CAS_STRONG);
    assert_int_equal(cas->nargs, 3);
    assert_int_equal(cas->mo, FE_MO_ACQ_REL);
    assert_int_equal(cas->mo_fail, FE_MO_RELAXED);
    assert_false(stmt(t, 3)->e->explicit_form);
    assert_int_equal(stmt(t, 3)->e->mo, FE_MO_SEQ_CST);
    assert_int_equal(stmt(t, 4)->e->ccall, FE_C_FETCH_ADD);
    assert_int_equal(stmt(t, 5)->e->ccall, FE_C_THREAD_FENCE);
    fe_test_free(t);
}

static void test_precedence(void **st)
{
    (void)st;
    /* loosest first: | ^ & comparisons + - * / */
    fe_test *t = body("int r0 = 1 | 2 ^ 3 & 4 == 5 + 6 * 7; int r1 = 8 - 2 - 1; int r2 = (1 | 2) * 3;");
    const fe_expr *e = stmt(t, 0)->e;
    assert_int_equal(e->op, FE_OR);
    assert_int_equal(e->r->op, FE_XOR);
    assert_int_equal(e->r->r->op, FE_AND);
    assert_int_equal(e->r->r->r->op, FE_EQ);
    assert_int_equal(e->r->r->r->r->op, FE_ADD);
    assert_int_equal(e->r->r->r->r->r->op, FE_MUL);
    const fe_expr *s = stmt(t, 1)->e;     /* left associative: (8-2)-1 */
    assert_int_equal(s->op, FE_SUB);
    assert_int_equal(s->l->op, FE_SUB);
    assert_int_equal(s->r->value, 1);
    assert_int_equal(stmt(t, 2)->e->op, FE_MUL);
    assert_int_equal(stmt(t, 2)->e->l->op, FE_OR);
    fe_test_free(t);
}

static void test_if_else_and_comments(void **st)
{
    (void)st;
    fe_test *t = body("int r0 = atomic_load_explicit(x, memory_order_acquire); // load\n"
                      "if (r0 == 1) *y = 1; else { /* block */ *y = 2; }\nint r1 = -1;\nr1 = r0 + 1;");
    const fe_stmt *s = stmt(t, 1);
    assert_int_equal(s->kind, FE_S_IF);
    assert_int_equal(s->e->op, FE_EQ);
    assert_int_equal(s->then_s->kind, FE_S_STORE);
    assert_int_equal(s->else_s->kind, FE_S_BLOCK);
    assert_int_equal(stmt(t, 2)->e->value, -1);
    assert_int_equal(stmt(t, 3)->kind, FE_S_ASSIGN);
    fe_test_free(t);
}

static void test_types(void **st)
{
    (void)st;
    fe_test *t = parse("C T\n{ __int128 y; _Atomic int z = 0; int *p = x; }\n"
                       "P0 (volatile __int128* y, const int* x, _Atomic int* z, int** p) { __int128 r0 = *y; }\n"
                       "exists (0:r0=0)\n");
    assert_non_null(t);
    assert_string_equal(t->init[0].type, "__int128");
    assert_false(t->init[0].has_value);
    assert_string_equal(t->init[1].type, "_Atomic int");
    assert_string_equal(t->init[2].type, "int*");
    assert_int_equal(t->init[2].value.kind, FE_VAL_ADDR);
    assert_string_equal(t->threads[0].params[0].type, "volatile __int128");
    assert_string_equal(t->threads[0].params[1].type, "const int");
    assert_string_equal(t->threads[0].params[3].type, "int*");
    fe_test_free(t);
}

static void test_errors(void **st)
{
    (void)st;
    const char *head = "C T\n{ }\nP0 (atomic_int* x) {\n";
    char buf[512];
#define E(b, l, c, w) snprintf(buf, sizeof buf, "%s%s\n}\nexists (x=0)\n", head, b), expect_error(buf, l, c, w)
    E("  for (;;) ;", 4, 3, "for loops are not supported: write the loop with while");
    E("do { } (1);", 4, 8, "expected 'while' after the body of do");
    E("while 1 { }", 4, 7, "expected '('");
    E("int r0 = atomic_frob(x);", 4, 10, "unknown function 'atomic_frob'");
    E("int r0 = *r9;", 4, 11, "unknown variable 'r9'");
    E("int r0 = 1; int r1 = *r0;", 4, 23, "not a pointer");
    E("int r0 = 1; atomic_store_explicit(r0, 1, memory_order_relaxed);", 4, 35, "not a pointer");
    E("int r0 = atomic_store_explicit(x, 1, memory_order_relaxed);", 4, 10, "has no value");
    E("atomic_store_explicit(x, 1, memory_order_bogus);", 4, 29, "expected a memory order");
    E("int r0 = 1 && 2;", 4, 12, "not supported");
    E("int r0 = 1 < 2 < 3;", 4, 16, "do not chain");
    E("if (1) { *x = 1;", 3, 20, "unbalanced '{'");
#undef E
    expect_error("C T\n{ }\nP0 (atomic_int x) { }\nexists (x=0)\n", 3, 16, "must be a pointer");
    expect_error("C T\n{ }\nP0 (atomic_int* x) { }\nP0 (atomic_int* x) { }\nexists (x=0)\n", 4, 1,
                 "duplicate thread P0");
    expect_error("C T\n{ }\nP0 (atomic_int* x) { int r0 = 1; }\nexists (0:r1=0)\n", 4, 9, "unknown register 0:r1");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mp),
        cmocka_unit_test(test_plain_accesses_and_cas),
        cmocka_unit_test(test_precedence),
        cmocka_unit_test(test_if_else_and_comments),
        cmocka_unit_test(test_types),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
