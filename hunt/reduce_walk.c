/* Walks over a C test's statements and expressions, for the reducer's
 * edits (reduce_edit.c, reduce_value.c), and the counts it reports. */
#include <string.h>
#include "frontend/frontend.h"
#include "hunt/internal.h"

/* X, then its operands and arguments. */
static void walk_expr(fe_expr *x, hunt_expr_fn f, void *ctx)
{
    if (!x)
        return;
    f(x, ctx);
    walk_expr(x->l, f, ctx);
    walk_expr(x->r, f, ctx);
    for (int i = 0; i < x->nargs; i++)
        walk_expr(x->args[i], f, ctx);
}

/* A branch of an if or a loop: a block is walked as one; a single
 * statement is no place to drop from, but its expressions and blocks
 * still count. */
static void walk_branch(fe_stmt *s, hunt_stmt_fn sf, hunt_expr_fn ef, void *ctx)
{
    if (!s)
        return;
    if (s->kind == FE_S_BLOCK) {
        hunt_walk_block(s, sf, ef, ctx);
        return;
    }
    /* a branch that is one statement is no place to drop from, but its
     * expressions and blocks still count */
    if (ef) {
        walk_expr(s->e, ef, ctx);
        walk_expr(s->addr, ef, ctx);
    }
    walk_branch(s->then_s, sf, ef, ctx);
    walk_branch(s->else_s, sf, ef, ctx);
    for (int i = 0; i < s->nbody; i++)
        walk_branch(s->body[i], sf, ef, ctx);
}

void hunt_walk_block(fe_stmt *b, hunt_stmt_fn sf, hunt_expr_fn ef, void *ctx)
{
    for (int i = 0; i < b->nbody; i++) {
        fe_stmt *s = b->body[i];
        if (sf)
            sf(s, b, i, ctx);
        if (ef) {
            walk_expr(s->e, ef, ctx);
            walk_expr(s->addr, ef, ctx);
        }
        if (s->kind == FE_S_BLOCK)
            hunt_walk_block(s, sf, ef, ctx);
        else {
            walk_branch(s->then_s, sf, ef, ctx);
            walk_branch(s->else_s, sf, ef, ctx);
        }
    }
}

void hunt_walk_threads(fe_test *t, hunt_stmt_fn sf, hunt_expr_fn ef, void *ctx)
{
    for (int n = 0; n < t->nthreads; n++)
        if (t->threads[n].body)
            hunt_walk_block(t->threads[n].body, sf, ef, ctx);
}

/* A call (access or fence) or a plain read counts as an access. */
static void count_access(fe_expr *x, void *ctx)
{
    if (x->kind == FE_E_CCALL || x->kind == FE_E_DEREF)
        ++*(int *)ctx;
}

/* A plain store is a statement of its own. */
static void count_store(fe_stmt *s, fe_stmt *b, int i, void *ctx)
{
    (void)b, (void)i;
    if (s->kind == FE_S_STORE)
        ++*(int *)ctx;
}

void hunt_red_count(const char *text, int *threads, int *accesses)
{
    diag d = {0};
    fe_test *t = fe_parse(text, strlen(text), "reduce.litmus", &d);
    *threads = *accesses = -1;
    if (!t)
        return;
    *threads = t->nthreads;
    *accesses = 0;
    hunt_walk_threads(t, count_store, count_access, accesses);
    fe_test_free(t);
}
