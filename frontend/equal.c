/* Structural equality of two trees, used to check that printing and
 * re-parsing a test loses nothing.  Positions and the file name are not
 * compared; everything the lowering reads is. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/mem.h"
#include "frontend/frontend.h"
#include "frontend/internal.h"

typedef struct eq { char *why; size_t n; } eq;

static bool differ(eq *q, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool differ(eq *q, const char *fmt, ...)
{
    if (q->why && q->n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(q->why, q->n, fmt, ap);
        va_end(ap);
    }
    return false;
}

static bool streq(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return !strcmp(a, b);
}

static bool eq_value(const fe_value *a, const fe_value *b)
{
    return a->kind == b->kind && (a->kind == FE_VAL_ADDR ? streq(a->sym, b->sym) : a->i == b->i);
}

static bool eq_loc(const fe_loc *a, const fe_loc *b)
{
    return a->kind == b->kind && (a->kind != FE_LOC_REG || a->thread == b->thread) && a->index == b->index &&
           streq(a->name, b->name);
}

static bool eq_prop(const fe_prop *a, const fe_prop *b)
{
    if (!a || !b)
        return a == b;
    if (a->kind != b->kind)
        return false;
    if (a->kind == FE_P_ATOM)
        return eq_loc(&a->lhs, &b->lhs) && a->ne == b->ne && a->rhs_is_loc == b->rhs_is_loc &&
               (a->rhs_is_loc ? eq_loc(&a->rhs_loc, &b->rhs_loc) : eq_value(&a->rhs, &b->rhs));
    return eq_prop(a->l, b->l) && eq_prop(a->r, b->r);
}

static bool eq_expr(const fe_expr *a, const fe_expr *b)
{
    if (!a || !b)
        return a == b;
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case FE_E_CONST: return a->value == b->value;
    case FE_E_REG: return streq(a->name, b->name);
    case FE_E_DEREF: return eq_expr(a->l, b->l);
    case FE_E_CAST: return streq(a->type, b->type) && eq_expr(a->l, b->l);
    case FE_E_BIN: return a->op == b->op && eq_expr(a->l, b->l) && eq_expr(a->r, b->r);
    case FE_E_CCALL:
        if (a->ccall != b->ccall || a->explicit_form != b->explicit_form || a->mo != b->mo ||
            a->mo_fail != b->mo_fail)
            return false;
        break;
    case FE_E_JCALL:
        if (a->jmethod != b->jmethod || a->jmode != b->jmode || !streq(a->name, b->name))
            return false;
        break;
    }
    if (a->nargs != b->nargs)
        return false;
    for (int i = 0; i < a->nargs; i++)
        if (!eq_expr(a->args[i], b->args[i]))
            return false;
    return true;
}

/* Blocks carry no meaning (a thread has one flat register namespace), so
 * statements compare as flattened sequences: `{ s; }` equals `s`. */
typedef struct slist { const fe_stmt **v; int n, cap; } slist;

static void flatten(const fe_stmt *s, slist *out)
{
    if (!s)
        return;
    if (s->kind == FE_S_BLOCK) {
        for (int i = 0; i < s->nbody; i++)
            flatten(s->body[i], out);
        return;
    }
    if (out->n == out->cap) {
        out->cap = out->cap ? 2 * out->cap : 8;
        out->v = xrealloc(out->v, (size_t)out->cap * sizeof *out->v);
    }
    out->v[out->n++] = s;
}

static bool eq_seq(const fe_stmt *a, const fe_stmt *b);

static bool eq_one(const fe_stmt *a, const fe_stmt *b)
{
    if (a->kind != b->kind || !streq(a->type, b->type) || !streq(a->name, b->name) || !eq_expr(a->e, b->e) ||
        !eq_expr(a->addr, b->addr))
        return false;
    if (a->kind == FE_S_IF || a->kind == FE_S_SYNC || a->kind == FE_S_WHILE || a->kind == FE_S_DO)
        return eq_seq(a->then_s, b->then_s) && eq_seq(a->else_s, b->else_s);
    return true;
}

static bool eq_seq(const fe_stmt *a, const fe_stmt *b)
{
    slist la = {0}, lb = {0};
    flatten(a, &la);
    flatten(b, &lb);
    bool ok = la.n == lb.n;
    for (int i = 0; ok && i < la.n; i++)
        ok = eq_one(la.v[i], lb.v[i]);
    free(la.v);
    free(lb.v);
    return ok;
}

static bool eq_stmt(const fe_stmt *a, const fe_stmt *b)
{
    return eq_seq(a, b);
}

static bool eq_init(const fe_init *a, const fe_init *b)
{
    if (!eq_loc(&a->loc, &b->loc) || !streq(a->type, b->type) || a->has_value != b->has_value ||
        a->array_size != b->array_size || a->nelems != b->nelems)
        return false;
    if (a->has_value && !a->array_size && !eq_value(&a->value, &b->value))
        return false;
    for (int i = 0; i < a->nelems; i++)
        if (!eq_value(&a->elems[i], &b->elems[i]))
            return false;
    return true;
}

/* A thread's code is its instruction set's to compare (H, NULL for C and
 * Java); its parameters and body are the languages'. */
static bool eq_thread(eq *q, const fe_isa_hooks *h, const fe_thread *a, const fe_thread *b)
{
    if (a->id != b->id || !streq(a->name, b->name))
        return differ(q, "thread %d: names differ", a->id);
    if (h && !h->code_equal(a, b, q->why, q->n))
        return false;
    if (a->nparams != b->nparams)
        return differ(q, "%s: parameters differ", a->name);
    for (int i = 0; i < a->nparams; i++)
        if (!streq(a->params[i].type, b->params[i].type) || !streq(a->params[i].name, b->params[i].name))
            return differ(q, "%s: parameter %d differs", a->name, i);
    if (!eq_stmt(a->body, b->body))
        return differ(q, "%s: bodies differ", a->name);
    return true;
}

bool fe_test_equal(const fe_test *a, const fe_test *b, char *why, size_t whylen)
{
    eq q = {why, whylen};
    if (why && whylen)
        why[0] = 0;
    if (a->arch != b->arch)
        return differ(&q, "architectures differ");
    if (!streq(a->name, b->name))
        return differ(&q, "names differ: %s vs %s", a->name, b->name);
    if (!streq(a->doc, b->doc))
        return differ(&q, "doc strings differ");
    if (a->ninfo != b->ninfo)
        return differ(&q, "%d info lines vs %d", a->ninfo, b->ninfo);
    for (int i = 0; i < a->ninfo; i++)
        if (!streq(a->info[i].key, b->info[i].key) || !streq(a->info[i].value, b->info[i].value))
            return differ(&q, "info line %s differs", a->info[i].key);
    if (a->ninit != b->ninit)
        return differ(&q, "%d init items vs %d", a->ninit, b->ninit);
    for (int i = 0; i < a->ninit; i++)
        if (!eq_init(&a->init[i], &b->init[i]))
            return differ(&q, "init item %d (%s) differs", i, a->init[i].loc.name);
    if (a->nthreads != b->nthreads)
        return differ(&q, "%d threads vs %d", a->nthreads, b->nthreads);
    if (a->nrows != b->nrows)
        return differ(&q, "%d rows vs %d", a->nrows, b->nrows);
    for (int i = 0; i < a->nthreads; i++)
        if (!eq_thread(&q, fe_isa_hooks_of(a->arch), &a->threads[i], &b->threads[i]))
            return false;
    if (!streq(a->extra, b->extra))
        return differ(&q, "regions differ");
    if (a->cond.quant != b->cond.quant)
        return differ(&q, "quantifiers differ");
    if (!eq_prop(a->cond.prop, b->cond.prop))
        return differ(&q, "conditions differ");
    if (!eq_prop(a->cond.filter, b->cond.filter))
        return differ(&q, "filters differ");
    if (a->cond.nlocations != b->cond.nlocations)
        return differ(&q, "locations differ");
    for (int i = 0; i < a->cond.nlocations; i++)
        if (!eq_loc(&a->cond.locations[i], &b->cond.locations[i]))
            return differ(&q, "location %d differs", i);
    return true;
}
