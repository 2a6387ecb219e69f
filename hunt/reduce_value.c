/* The reducer's smaller values: a constant renamed, everywhere in the
 * test at once (code, init, condition), to the least positive value the
 * test does not use, so that the test keeps its shape with smaller
 * numbers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hunt/internal.h"

typedef struct vals_ctx {
    int64_t from, to;
    int64_t *used;
    int nused;
} vals_ctx;

/* Every constant of the code is a value in use. */
static void used_val(fe_expr *x, void *ctx)
{
    vals_ctx *c = ctx;
    if (x->kind == FE_E_CONST) {
        c->used = xrealloc(c->used, (size_t)(c->nused + 1) * sizeof *c->used);
        c->used[c->nused++] = x->value;
    }
}

/* ... and every value the condition compares with. */
static void used_prop(vals_ctx *c, const fe_prop *p)
{
    if (!p)
        return;
    if (p->kind == FE_P_ATOM && !p->rhs_is_loc && p->rhs.kind == FE_VAL_INT) {
        c->used = xrealloc(c->used, (size_t)(c->nused + 1) * sizeof *c->used);
        c->used[c->nused++] = p->rhs.i;
    }
    used_prop(c, p->l);
    used_prop(c, p->r);
}

/* A constant of the code renamed. */
static void rename_val(fe_expr *x, void *ctx)
{
    vals_ctx *c = ctx;
    if (x->kind == FE_E_CONST && x->value == c->from)
        x->value = c->to;
}

/* V (a value of the init or condition) renamed, its spelling too: the new
 * value is smaller and positive, so never longer. */
static void rename_value(vals_ctx *c, fe_value *v)
{
    if (v->kind != FE_VAL_INT || v->i != c->from)
        return;
    v->i = c->to;
    if (v->text)
        snprintf(v->text, strlen(v->text) + 1, "%lld", (long long)c->to);
}

/* The condition's values renamed. */
static void rename_prop(vals_ctx *c, fe_prop *p)
{
    if (!p)
        return;
    if (p->kind == FE_P_ATOM && !p->rhs_is_loc)
        rename_value(c, &p->rhs);
    rename_prop(c, p->l);
    rename_prop(c, p->r);
}

/* Constant V renamed everywhere to the least positive value nothing uses,
 * when that is smaller: the test keeps its shape, with smaller numbers. */
bool hunt_red_shrink_value(fe_test *t, int64_t v)
{
    vals_ctx c = {.from = v};
    hunt_walk_threads(t, NULL, used_val, &c);
    used_prop(&c, t->cond.prop);
    for (int i = 0; i < t->ninit; i++)
        if (t->init[i].has_value && t->init[i].value.kind == FE_VAL_INT) {
            c.used = xrealloc(c.used, (size_t)(c.nused + 1) * sizeof *c.used);
            c.used[c.nused++] = t->init[i].value.i;
        }
    int64_t u = 1;
    for (bool clash = true; clash && u < v;) {
        clash = false;
        for (int i = 0; i < c.nused && !clash; i++)
            if (c.used[i] == u)
                clash = true;
        if (clash)
            u++;
    }
    free(c.used);
    if (u >= v)
        return false;
    c.to = u;
    hunt_walk_threads(t, NULL, rename_val, &c);
    rename_prop(&c, t->cond.prop);
    rename_prop(&c, t->cond.filter);
    for (int i = 0; i < t->ninit; i++)
        rename_value(&c, &t->init[i].value);
    return true;
}

