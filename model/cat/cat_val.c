/* Run-time values of the cat evaluator: their kind names and type errors,
 * the total order that keeps sets of values canonical, and frames with
 * pattern binding.  Separate from cat_eval.c because expressions (cat_eval.c),
 * instructions (cat_exec.c) and the built-in primitives (cat_prim.c) all
 * use them. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "model/cat/cat_impl.h"
#include "model/cat/cat_rel.h"

/* ---- helpers ----------------------------------------------------------------------- */
exec_rel *cat_new_rel(cat_run *r)
{
    return arena_alloc(r->cur, (size_t)(r->n ? r->n : 1) * sizeof(exec_set));
}

static const char *const kind_names[] = {
    [CV_EMPTY] = "empty set", [CV_UNIV] = "universe", [CV_SET] = "set of events",
    [CV_REL] = "relation", [CV_EVENT] = "event", [CV_TAG] = "tag", [CV_TUPLE] = "tuple",
    [CV_VSET] = "set of values", [CV_CLOS] = "function", [CV_PRIM] = "function",
    [CV_PROC] = "procedure",
};
const char *cat_kind_name(int kind)
{
    return kind_names[kind];
}

bool cat_type_error(cat_run *r, const char *file, int line, int col, const char *fmt, ...)
{
    if (!r->error) {
        char msg[DIAG_MSG_MAX];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        diag_error(r->d, file, line, col, "%s", msg);
    }
    r->error = true;
    return false;
}

bool cat_want_rel(cat_run *r, const cat_expr *e, cat_val v, const char *op, exec_rel **out)
{
    switch (v.kind) {
    case CV_REL: *out = v.u.rel; return true;
    case CV_EMPTY: *out = r->zero; return true;
    case CV_UNIV: *out = r->univ; return true;
    default:
        return TERR(e, "%s expects a relation, found a %s", op, cat_kind_name(v.kind));
    }
}

bool cat_want_set(cat_run *r, const cat_expr *e, cat_val v, const char *op, exec_set *out)
{
    switch (v.kind) {
    case CV_SET: *out = *v.u.set; return true;
    case CV_EMPTY: *out = es_none(); return true;
    case CV_UNIV: *out = r->all; return true;
    default:
        return TERR(e, "%s expects a set of events, found a %s", op, cat_kind_name(v.kind));
    }
}

bool cat_val_is_empty(const cat_run *r, const cat_val *v)
{
    switch (v->kind) {
    case CV_EMPTY: return true;
    case CV_SET: return es_empty(*v->u.set);
    case CV_REL: return cr_is_empty(v->u.rel, r->n);
    case CV_VSET: return v->n == 0;
    default: return false;
    }
}

/* Total order on values, used to keep sets of values canonical.  Empty
 * sets, relations and value sets compare equal to {}. */
int cat_val_cmp(const cat_run *r, const cat_val *a, const cat_val *b)
{
    bool ea = cat_val_is_empty(r, a), eb = cat_val_is_empty(r, b);
    if (ea || eb) return ea && eb ? 0 : ea ? -1 : 1;
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    switch (a->kind) {
    case CV_SET: return es_cmp(*a->u.set, *b->u.set);
    case CV_REL:
        for (int i = 0; i < r->n; i++) {
            int c = es_cmp(a->u.rel->row[i], b->u.rel->row[i]);
            if (c) return c;
        }
        return 0;
    case CV_EVENT: case CV_TAG: case CV_PRIM: return a->n < b->n ? -1 : a->n > b->n;
    case CV_TUPLE: case CV_VSET:
        if (a->n != b->n) return a->n < b->n ? -1 : 1;
        for (int i = 0; i < a->n; i++) {
            int c = cat_val_cmp(r, &a->u.elts[i], &b->u.elts[i]);
            if (c) return c;
        }
        return 0;
    case CV_CLOS: case CV_PROC:
        if (a->u.clos->fun != b->u.clos->fun) return (uintptr_t)a->u.clos->fun < (uintptr_t)b->u.clos->fun ? -1 : 1;
        return (uintptr_t)a->u.clos->env < (uintptr_t)b->u.clos->env ? -1 : (uintptr_t)a->u.clos->env > (uintptr_t)b->u.clos->env;
    default:
        return 0;
    }
}

static int cmp_ctx(const void *x, const void *y, void *ctx)
{
    return cat_val_cmp(ctx, x, y);
}

cat_val cat_vset_make(cat_run *r, cat_val *elts, int n)
{
    if (n > 1) qsort_r(elts, (size_t)n, sizeof *elts, cmp_ctx, r);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (k == 0 || cat_val_cmp(r, &elts[k - 1], &elts[i]) != 0) elts[k++] = elts[i];
    cat_val v = {CV_VSET, k, {.elts = elts}};
    return v;
}

bool cat_vset_has(cat_run *r, const cat_val *s, const cat_val *x)
{
    int lo = 0, hi = s->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2, c = cat_val_cmp(r, &s->u.elts[mid], x);
        if (!c) return true;
        if (c < 0) lo = mid + 1; else hi = mid;
    }
    return false;
}

/* ---- frames and binding ------------------------------------------------------------ */
cat_frame *cat_new_frame(cat_run *r, int nslots, cat_frame *up)
{
    cat_frame *f = arena_alloc(r->cur, sizeof *f + (size_t)nslots * sizeof(cat_val));
    f->up = up;
    for (int i = 0; i < nslots; i++) f->v[i] = cv_kind_only(CV_EMPTY);
    return f;
}

bool cat_bind_pattern(cat_run *r, const cat_pat *pt, cat_val v, cat_frame *fr, const cat_expr *at,
                      const char *what)
{
    if (!pt->tuple) {
        *cat_slot_ref(r, fr, pt->slots[0]) = v;
        return true;
    }
    if (v.kind != CV_TUPLE || v.n != pt->n) {
        if (v.kind == CV_TUPLE)
            return TERR(at, "%s expects %d argument%s, got %d", what, pt->n, pt->n == 1 ? "" : "s", v.n);
        return TERR(at, "%s expects a tuple of %d, got a %s", what, pt->n, cat_kind_name(v.kind));
    }
    for (int k = 0; k < pt->n; k++) *cat_slot_ref(r, fr, pt->slots[k]) = v.u.elts[k];
    return true;
}
