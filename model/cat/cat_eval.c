/* The cat evaluator, expressions: an expression and a frame to a value.
 *
 * Values live in an arena (util/arena.h) that is reset for every
 * candidate; `with` branches give back what they allocated.  Relations are
 * exec_rel bitsets of n rows.  Values that depend only on the event
 * structure (see cat_resolve.c) are computed into a second arena and
 * reused until the events or po change (cat_cache.c).  Instructions are
 * run by cat_exec.c, apart from this file because they produce a verdict
 * rather than a value. */
#include <stdio.h>
#include <string.h>
#include "model/cat/cat_impl.h"
#include "model/cat/cat_rel.h"

/* ---- expressions --------------------------------------------------------------------- */
static bool apply(cat_run *r, const cat_expr *at, cat_val f, cat_val arg, cat_val *out)
{
    if (f.kind == CV_PRIM) return cat_prim_apply(r, f.n, arg, at, out);
    if (f.kind != CV_CLOS) return TERR(at, "applying a %s, which is not a function", cat_kind_name(f.kind));
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    if (r->stack_base && (r->stack_base > here ? r->stack_base - here : here - r->stack_base) > r->stack_budget)
        return TERR(at, "calls nested too deeply (over %lu KB of stack): the model's recursion does not end "
                        "soon enough", (unsigned long)(r->stack_budget >> 10));
    const cat_fun *fn = f.u.clos->fun;
    cat_frame *frame = cat_new_frame(r, fn->nslots, f.u.clos->env);
    char what[160];
    snprintf(what, sizeof what, "function '%s'", fn->name);
    if (!cat_bind_pattern(r, &fn->params, arg, frame, at, what)) return false;
    return cat_eval(r, fn->body, frame, out);
}

static bool eval_union(cat_run *r, const cat_expr *e, cat_frame *fr, cat_val *out, bool inter)
{
    const char *opname = inter ? "'&'" : "'|'";
    cat_val acc = cv_kind_only(inter ? CV_UNIV : CV_EMPTY);
    bool owned = false;
    for (int k = 0; k < e->nkids; k++) {
        cat_val v;
        if (!cat_eval(r, e->kids[k], fr, &v)) return false;
        if (v.kind == (inter ? CV_UNIV : CV_EMPTY)) continue;
        if (v.kind == (inter ? CV_EMPTY : CV_UNIV)) { acc = v; owned = false; continue; }
        if (acc.kind == (inter ? CV_EMPTY : CV_UNIV)) continue;
        if (acc.kind == (inter ? CV_UNIV : CV_EMPTY)) { acc = v; owned = false; continue; }
        if (acc.kind != v.kind)
            return TERR(e->kids[k], "%s mixes a %s and a %s", opname, cat_kind_name(acc.kind), cat_kind_name(v.kind));
        switch (v.kind) {
        case CV_SET:
            acc = cv_set(r, inter ? es_and(*acc.u.set, *v.u.set) : es_or(*acc.u.set, *v.u.set));
            break;
        case CV_REL:
            if (!owned) {
                exec_rel *d = cat_new_rel(r);
                if (inter) cr_inter(d, acc.u.rel, v.u.rel, r->n);
                else cr_union(d, acc.u.rel, v.u.rel, r->n);
                acc.u.rel = d;
                owned = true;
            } else if (inter) {
                cr_inter(acc.u.rel, acc.u.rel, v.u.rel, r->n);
            } else {
                cr_union(acc.u.rel, acc.u.rel, v.u.rel, r->n);
            }
            break;
        case CV_VSET: {
            cat_val *el = arena_alloc(r->cur, (size_t)(acc.n + v.n + 1) * sizeof *el);
            int n = 0;
            if (inter) {
                for (int i = 0; i < acc.n; i++)
                    if (cat_vset_has(r, &v, &acc.u.elts[i])) el[n++] = acc.u.elts[i];
            } else {
                memcpy(el, acc.u.elts, (size_t)acc.n * sizeof *el);
                memcpy(el + acc.n, v.u.elts, (size_t)v.n * sizeof *el);
                n = acc.n + v.n;
            }
            acc = cat_vset_make(r, el, n);
            break;
        }
        default:
            return TERR(e->kids[k], "%s applies to sets and relations, found a %s", opname, cat_kind_name(v.kind));
        }
    }
    *out = acc;
    return true;
}

static bool eval_diff(cat_run *r, const cat_expr *e, cat_frame *fr, cat_val *out)
{
    cat_val a, b;
    if (!cat_eval(r, e->kids[0], fr, &a) || !cat_eval(r, e->kids[1], fr, &b)) return false;
    if (a.kind == CV_EMPTY || b.kind == CV_EMPTY) { *out = a; return true; }
    if (b.kind == CV_UNIV) { *out = cv_kind_only(CV_EMPTY); return true; }
    if (a.kind == CV_UNIV) {
        if (b.kind == CV_SET) { *out = cv_set(r, es_minus(r->all, *b.u.set)); return true; }
        if (b.kind == CV_REL) {
            exec_rel *d = cat_new_rel(r);
            cr_comp(d, b.u.rel, r->n);
            *out = cv_rel(d);
            return true;
        }
        return TERR(e->kids[1], "'\\' applies to sets and relations, found a %s", cat_kind_name(b.kind));
    }
    if (a.kind != b.kind)
        return TERR(e, "'\\' mixes a %s and a %s", cat_kind_name(a.kind), cat_kind_name(b.kind));
    switch (a.kind) {
    case CV_SET: *out = cv_set(r, es_minus(*a.u.set, *b.u.set)); return true;
    case CV_REL: {
        exec_rel *d = cat_new_rel(r);
        cr_diff(d, a.u.rel, b.u.rel, r->n);
        *out = cv_rel(d);
        return true;
    }
    case CV_VSET: {
        cat_val *el = arena_alloc(r->cur, (size_t)(a.n + 1) * sizeof *el);
        int n = 0;
        for (int i = 0; i < a.n; i++)
            if (!cat_vset_has(r, &b, &a.u.elts[i])) el[n++] = a.u.elts[i];
        cat_val v = {CV_VSET, n, {.elts = el}};
        *out = v;
        return true;
    }
    default:
        return TERR(e, "'\\' applies to sets and relations, found a %s", cat_kind_name(a.kind));
    }
}

/* r1;r2;...  Operands written [S] act as row or column filters instead of
 * being built as identity relations. */
static bool eval_seq(cat_run *r, const cat_expr *e, cat_frame *fr, cat_val *out)
{
    int n = r->n;
    exec_set rows = r->all;     /* while `acc` is NULL: the identity on `rows` */
    exec_rel *acc = NULL;
    bool empty = false;
    for (int k = 0; k < e->nkids; k++) {
        const cat_expr *kid = e->kids[k];
        cat_val v;
        if (kid->op == CE_TOID) {
            if (!cat_eval(r, kid->kids[0], fr, &v)) return false;
            exec_set s;
            if (!cat_want_set(r, kid->kids[0], v, "'[...]'", &s)) return false;
            if (!acc) rows = es_and(rows, s);
            else if (n <= 64) for (int i = 0; i < n; i++) acc->row[i].w[0] &= s.w[0];
            else for (int i = 0; i < n; i++) acc->row[i] = es_and(acc->row[i], s);
            continue;
        }
        if (!cat_eval(r, kid, fr, &v)) return false;
        if (v.kind == CV_EMPTY) { empty = true; continue; }
        exec_rel *b;
        if (!cat_want_rel(r, kid, v, "';'", &b)) return false;
        if (empty) continue;
        if (!acc) {
            acc = cat_new_rel(r);
            cr_restrict(acc, b, rows, r->all, n);
        } else {
            exec_rel *d = cat_new_rel(r);
            cr_seq(d, acc, b, n);
            acc = d;
        }
    }
    if (empty) { *out = cv_kind_only(CV_EMPTY); return true; }
    if (!acc) {
        acc = cat_new_rel(r);
        cr_toid(acc, rows, n);
    }
    *out = cv_rel(acc);
    return true;
}

static bool eval_closure_op(cat_run *r, const cat_expr *e, cat_frame *fr, cat_val *out)
{
    cat_val v;
    if (!cat_eval(r, e->kids[0], fr, &v)) return false;
    const char *opname = e->op == CE_STAR ? "'*'" : e->op == CE_PLUS ? "'+'" : "'?'";
    if (v.kind == CV_UNIV) { *out = v; return true; }
    if (v.kind == CV_EMPTY) {
        *out = e->op == CE_PLUS ? v : cv_rel(r->ident);
        return true;
    }
    if (v.kind != CV_REL) return TERR(e->kids[0], "%s expects a relation, found a %s", opname, cat_kind_name(v.kind));
    exec_rel *d = cat_new_rel(r);
    cr_copy(d, v.u.rel, r->n);
    if (e->op != CE_OPT) cr_plus_inplace(d, r->n);
    if (e->op != CE_PLUS) cr_add_id(d, r->all, r->n);
    *out = cv_rel(d);
    return true;
}

static bool eval_add(cat_run *r, const cat_expr *e, cat_frame *fr, cat_val *out)
{
    cat_val x, s;
    if (!cat_eval(r, e->kids[0], fr, &x) || !cat_eval(r, e->kids[1], fr, &s)) return false;
    if (x.kind == CV_UNIV) return TERR(e->kids[0], "universe in '++'");
    if (s.kind == CV_UNIV) { *out = s; return true; }
    if (x.kind == CV_EVENT && (s.kind == CV_EMPTY || s.kind == CV_SET)) {
        exec_set t = s.kind == CV_SET ? *s.u.set : es_none();
        es_add(&t, x.n);
        *out = cv_set(r, t);
        return true;
    }
    if (s.kind == CV_SET) return TERR(e->kids[0], "'++' onto a set of events expects an event, found a %s", cat_kind_name(x.kind));
    if (s.kind == CV_REL) {
        if (x.kind == CV_TUPLE && x.n == 2 && x.u.elts[0].kind == CV_EVENT && x.u.elts[1].kind == CV_EVENT) {
            exec_rel *d = cat_new_rel(r);
            cr_copy(d, s.u.rel, r->n);
            er_add(d, x.u.elts[0].n, x.u.elts[1].n);
            *out = cv_rel(d);
            return true;
        }
        return TERR(e->kids[0], "'++' onto a relation expects a pair of events, found a %s", cat_kind_name(x.kind));
    }
    if (s.kind != CV_EMPTY && s.kind != CV_VSET)
        return TERR(e->kids[1], "'++' expects a set on its right, found a %s", cat_kind_name(s.kind));
    int n = s.kind == CV_VSET ? s.n : 0;
    cat_val *el = arena_alloc(r->cur, (size_t)(n + 1) * sizeof *el);
    if (n) memcpy(el, s.u.elts, (size_t)n * sizeof *el);
    el[n] = x;
    *out = cat_vset_make(r, el, n + 1);
    return true;
}

static bool eval_cond(cat_run *r, const cat_expr *e, cat_frame *fr, bool *res)
{
    if (e->cond == CC_VARIANT) { *res = e->variant_value; return true; }
    cat_val a, b;
    if (!cat_eval(r, e->cond_l, fr, &a) || !cat_eval(r, e->cond_r, fr, &b)) return false;
    switch (e->cond) {
    case CC_EQ:
        *res = cat_val_cmp(r, &a, &b) == 0;
        return true;
    case CC_IN:
        if (b.kind == CV_EMPTY) { *res = false; return true; }
        if (b.kind == CV_SET && a.kind == CV_EVENT) { *res = es_has(*b.u.set, a.n); return true; }
        if (b.kind == CV_VSET) { *res = cat_vset_has(r, &b, &a); return true; }
        return TERR(e->cond_r, "'in' expects a set on its right, found a %s", cat_kind_name(b.kind));
    case CC_SUBSET:
        if (a.kind == CV_EMPTY) { *res = true; return true; }
        if (a.kind == CV_SET || b.kind == CV_SET) {
            exec_set x, y;
            if (!cat_want_set(r, e->cond_l, a, "'subset'", &x) || !cat_want_set(r, e->cond_r, b, "'subset'", &y)) return false;
            *res = es_empty(es_minus(x, y));
            return true;
        }
        if (a.kind == CV_VSET) {
            if (b.kind == CV_EMPTY) { *res = a.n == 0; return true; }
            if (b.kind != CV_VSET) return TERR(e->cond_r, "'subset' mixes a set of values and a %s", cat_kind_name(b.kind));
            *res = true;
            for (int i = 0; i < a.n && *res; i++) *res = cat_vset_has(r, &b, &a.u.elts[i]);
            return true;
        }
        {
            exec_rel *x, *y;
            if (!cat_want_rel(r, e->cond_l, a, "'subset'", &x) || !cat_want_rel(r, e->cond_r, b, "'subset'", &y)) return false;
            *res = cr_subset(x, y, r->n);
            return true;
        }
    default:
        return false;
    }
}

static bool eval_letrec(cat_run *r, const cat_bind *b, int nb, cat_frame *fr, const cat_expr *at)
{
    bool all_funs = true;
    for (int k = 0; k < nb; k++) all_funs &= b[k].e->op == CE_FUN;
    if (all_funs) {
        for (int k = 0; k < nb; k++) {
            cat_val v;
            if (!cat_eval(r, b[k].e, fr, &v)) return false;
            *cat_slot_ref(r, fr, b[k].pat.slots[0]) = v;
        }
        return true;
    }
    /* Least fixpoint from {}: iterate until nothing changes. */
    for (int k = 0; k < nb; k++)
        if (b[k].pat.tuple) return TERR(b[k].e, "a recursive definition of values binds one name");
    for (int k = 0; k < nb; k++)
        for (int j = 0; j < b[k].pat.n; j++) *cat_slot_ref(r, fr, b[k].pat.slots[j]) = cv_kind_only(CV_EMPTY);
    for (int iter = 0;; iter++) {
        if (iter > 10000) return TERR(at, "recursive definition does not reach a fixpoint");
        bool changed = false;
        for (int k = 0; k < nb; k++) {
            cat_val v;
            if (!cat_eval(r, b[k].e, fr, &v)) return false;
            cat_val *s = cat_slot_ref(r, fr, b[k].pat.slots[0]);
            if (cat_val_cmp(r, s, &v) != 0 || s->kind != v.kind) changed = true;
            *s = v;
        }
        if (!changed) return true;
    }
}

bool cat_eval_binds(cat_run *r, const cat_bind *b, int nb, bool rec, cat_frame *fr, const cat_expr *at)
{
    if (rec) return eval_letrec(r, b, nb, fr, at);
    /* Simultaneous: evaluate every right-hand side, then bind. */
    cat_val tmp[8], *vals = nb <= 8 ? tmp : arena_alloc(r->cur, (size_t)nb * sizeof *vals);
    for (int k = 0; k < nb; k++)
        if (!cat_eval(r, b[k].e, fr, &vals[k])) return false;
    for (int k = 0; k < nb; k++)
        if (!cat_bind_pattern(r, &b[k].pat, vals[k], fr, b[k].e, "pattern")) return false;
    return true;
}

static bool eval_matchset(cat_run *r, const cat_expr *e, cat_frame *fr, cat_val *out)
{
    cat_val v;
    if (!cat_eval(r, e->kids[0], fr, &v)) return false;
    cat_val elt, rest;
    switch (v.kind) {
    case CV_EMPTY:
        return cat_eval(r, e->kids[1], fr, out);
    case CV_SET:
        if (es_empty(*v.u.set)) return cat_eval(r, e->kids[1], fr, out);
        elt.kind = CV_EVENT;
        exec_set left = *v.u.set;
        elt.n = es_pop(&left);
        rest = cv_set(r, left);
        break;
    case CV_VSET:
        if (!v.n) return cat_eval(r, e->kids[1], fr, out);
        elt = v.u.elts[0];
        rest.kind = CV_VSET;
        rest.n = v.n - 1;
        rest.u.elts = v.u.elts + 1;
        break;
    case CV_REL: {
        int i = 0;
        while (i < r->n && es_empty(v.u.rel->row[i])) i++;
        if (i == r->n) return cat_eval(r, e->kids[1], fr, out);
        int j = es_first(v.u.rel->row[i]);
        cat_val *pair = arena_alloc(r->cur, 2 * sizeof *pair);
        pair[0].kind = pair[1].kind = CV_EVENT;
        pair[0].n = i;
        pair[1].n = j;
        elt.kind = CV_TUPLE;
        elt.n = 2;
        elt.u.elts = pair;
        exec_rel *d = cat_new_rel(r);
        cr_copy(d, v.u.rel, r->n);
        es_del(&d->row[i], j);
        rest = cv_rel(d);
        break;
    }
    default:
        return TERR(e->kids[0], "matching a %s against set cases", cat_kind_name(v.kind));
    }
    *cat_slot_ref(r, fr, e->elt_slot) = elt;
    *cat_slot_ref(r, fr, e->rest_slot) = rest;
    return cat_eval(r, e->kids[2], fr, out);
}

bool cat_eval(cat_run *r, const cat_expr *e, cat_frame *fr, cat_val *out)
{
    switch (e->op) {
    case CE_VAR:
        if (e->glob) { *out = r->globals[e->slot]; return true; }
        {
            cat_frame *f = fr;
            for (int k = 0; k < e->up; k++) f = f->up;
            *out = f->v[e->slot];
        }
        return true;
    case CE_TAG:
        out->kind = CV_TAG;
        out->n = e->tag;
        return true;
    case CE_ZERO: *out = cv_rel(r->zero); return true;
    case CE_EMPTY: *out = cv_kind_only(CV_EMPTY); return true;
    case CE_UNIV: *out = cv_kind_only(CV_UNIV); return true;
    case CE_SET: {
        cat_val *el = arena_alloc(r->cur, (size_t)e->nkids * sizeof *el);
        bool events = true;
        for (int k = 0; k < e->nkids; k++) {
            if (!cat_eval(r, e->kids[k], fr, &el[k])) return false;
            events &= el[k].kind == CV_EVENT;
        }
        if (events) {
            exec_set s = es_none();
            for (int k = 0; k < e->nkids; k++) es_add(&s, el[k].n);
            *out = cv_set(r, s);
            return true;
        }
        *out = cat_vset_make(r, el, e->nkids);
        return true;
    }
    case CE_TUPLE: {
        cat_val *el = arena_alloc(r->cur, (size_t)(e->nkids + 1) * sizeof *el);
        for (int k = 0; k < e->nkids; k++)
            if (!cat_eval(r, e->kids[k], fr, &el[k])) return false;
        out->kind = CV_TUPLE;
        out->n = e->nkids;
        out->u.elts = el;
        return true;
    }
    case CE_UNION: return eval_union(r, e, fr, out, false);
    case CE_INTER: return eval_union(r, e, fr, out, true);
    case CE_DIFF: return eval_diff(r, e, fr, out);
    case CE_SEQ: return eval_seq(r, e, fr, out);
    case CE_CART: {
        cat_val a, b;
        exec_set s, t;
        if (!cat_eval(r, e->kids[0], fr, &a) || !cat_eval(r, e->kids[1], fr, &b)) return false;
        if (!cat_want_set(r, e->kids[0], a, "'*' (cartesian product)", &s) ||
            !cat_want_set(r, e->kids[1], b, "'*' (cartesian product)", &t)) return false;
        exec_rel *d = cat_new_rel(r);
        cr_cart(d, s, t, r->n);
        *out = cv_rel(d);
        return true;
    }
    case CE_ADD: return eval_add(r, e, fr, out);
    case CE_STAR: case CE_PLUS: case CE_OPT: return eval_closure_op(r, e, fr, out);
    case CE_INV: {
        cat_val v;
        if (!cat_eval(r, e->kids[0], fr, &v)) return false;
        if (v.kind == CV_EMPTY || v.kind == CV_UNIV) { *out = v; return true; }
        if (v.kind == CV_TUPLE && v.n == 2) {
            cat_val *p = arena_alloc(r->cur, 2 * sizeof *p);
            p[0] = v.u.elts[1];
            p[1] = v.u.elts[0];
            out->kind = CV_TUPLE;
            out->n = 2;
            out->u.elts = p;
            return true;
        }
        exec_rel *a;
        if (!cat_want_rel(r, e->kids[0], v, "'^-1'", &a)) return false;
        exec_rel *d = cat_new_rel(r);
        cr_inv(d, a, r->n);
        *out = cv_rel(d);
        return true;
    }
    case CE_COMP: {
        cat_val v;
        if (!cat_eval(r, e->kids[0], fr, &v)) return false;
        switch (v.kind) {
        case CV_EMPTY: *out = cv_kind_only(CV_UNIV); return true;
        case CV_UNIV: *out = cv_kind_only(CV_EMPTY); return true;
        case CV_SET: *out = cv_set(r, es_minus(r->all, *v.u.set)); return true;
        case CV_REL: {
            exec_rel *d = cat_new_rel(r);
            cr_comp(d, v.u.rel, r->n);
            *out = cv_rel(d);
            return true;
        }
        default:
            return TERR(e->kids[0], "'~' expects a set or a relation, found a %s", cat_kind_name(v.kind));
        }
    }
    case CE_TOID: {
        cat_val v;
        exec_set s;
        if (!cat_eval(r, e->kids[0], fr, &v)) return false;
        if (v.kind == CV_EMPTY) { *out = v; return true; }
        if (!cat_want_set(r, e->kids[0], v, "'[...]'", &s)) return false;
        exec_rel *d = cat_new_rel(r);
        cr_toid(d, s, r->n);
        *out = cv_rel(d);
        return true;
    }
    case CE_APP: {
        cat_val f, a;
        if (!cat_eval(r, e->kids[0], fr, &f) || !cat_eval(r, e->kids[1], fr, &a)) return false;
        return apply(r, e, f, a, out);
    }
    case CE_FUN: {
        cat_clos *c = arena_alloc(r->cur, sizeof *c);
        c->fun = e->fun;
        c->proc = NULL;
        c->env = fr;
        out->kind = CV_CLOS;
        out->n = 0;
        out->u.clos = c;
        return true;
    }
    case CE_LET: case CE_LETREC:
        if (!cat_eval_binds(r, e->binds, e->nbinds, e->op == CE_LETREC, fr, e)) return false;
        return cat_eval(r, e->kids[0], fr, out);
    case CE_TRY: {
        if (e->kids[0]) {
            diag saved = *r->d;
            arena_mark mk = arena_save(r->cur);
            if (cat_eval(r, e->kids[0], fr, out)) return true;
            *r->d = saved;
            r->error = false;
            arena_restore(r->cur, mk);
        }
        return cat_eval(r, e->kids[1], fr, out);
    }
    case CE_IF: {
        bool c = false;
        if (!eval_cond(r, e, fr, &c)) return false;
        return cat_eval(r, e->kids[c ? 0 : 1], fr, out);
    }
    case CE_MATCH: {
        cat_val v;
        if (!cat_eval(r, e->kids[0], fr, &v)) return false;
        if (v.kind != CV_TAG) return TERR(e->kids[0], "matching a %s against tags", cat_kind_name(v.kind));
        const char *name = r->m->tags[v.n];
        for (int k = 0; k < e->ntags; k++)
            if (!strcmp(e->tags[k], name)) return cat_eval(r, e->kids[1 + k], fr, out);
        if (e->has_default) return cat_eval(r, e->kids[e->nkids - 1], fr, out);
        return TERR(e, "pattern matching failed on value '%s", name);
    }
    case CE_MATCHSET: return eval_matchset(r, e, fr, out);
    }
    return TERR(e, "internal error: unknown expression");
}
