/* The cat evaluator: expressions to values, instructions to a verdict.
 *
 * Values live in an arena that is reset for every candidate; `with`
 * branches give back what they allocated.  Relations are exec_rel bitsets
 * of n rows.  Values that depend only on the event structure (see
 * cat_resolve.c) are computed into a second arena and reused until the
 * events or po change. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/cat_impl.h"
#include "model/cat_rel.h"
#include "util/mem.h"

/* ---- arena ---------------------------------------------------------------------- */
void *cat_arena_alloc(cat_arena *a, size_t n) {
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    if (!n) n = sizeof(max_align_t);
    cat_arena_chunk *c = a->head;
    while (c && c->used + n > c->size) {
        c = c->next;
        if (c) c->used = 0;
    }
    if (!c) {
        size_t size = n > (1u << 16) ? n : (1u << 16);
        c = xmalloc(sizeof *c + size);
        c->size = size;
        c->used = 0;
        c->next = NULL;
        if (a->head) {
            /* Keep later chunks (they are reused after a reset): insert. */
            c->next = a->head->next;
            a->head->next = c;
        } else {
            a->first = c;
        }
    }
    a->head = c;
    void *p = (char *)c->data + c->used;
    c->used += n;
    return p;
}

cat_arena_mark cat_arena_save(const cat_arena *a) {
    cat_arena_mark mk = {a->head, a->head ? a->head->used : 0};
    return mk;
}

void cat_arena_restore(cat_arena *a, cat_arena_mark mk) {
    if (!mk.chunk) { cat_arena_reset(a); return; }
    a->head = mk.chunk;
    mk.chunk->used = mk.used;
}

void cat_arena_reset(cat_arena *a) {
    a->head = a->first;
    if (a->head) a->head->used = 0;
}

void cat_arena_free(cat_arena *a) {
    for (cat_arena_chunk *c = a->first, *nx; c; c = nx) {
        nx = c->next;
        free(c);
    }
    a->head = a->first = NULL;
}

/* ---- helpers ----------------------------------------------------------------------- */
exec_rel *cat_new_rel(cat_run *r) {
    return cat_arena_alloc(r->cur, (size_t)(r->n ? r->n : 1) * sizeof(exec_set));
}

static const char *const kind_names[] = {
    [CV_EMPTY] = "empty set", [CV_UNIV] = "universe", [CV_SET] = "set of events",
    [CV_REL] = "relation", [CV_EVENT] = "event", [CV_TAG] = "tag", [CV_TUPLE] = "tuple",
    [CV_VSET] = "set of values", [CV_CLOS] = "function", [CV_PRIM] = "function",
    [CV_PROC] = "procedure",
};
const char *cat_kind_name(int kind) { return kind_names[kind]; }

bool cat_type_error(cat_run *r, const char *file, int line, int col, const char *fmt, ...) {
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

#define TERR(e, ...) cat_type_error(r, (e)->file, (e)->line, (e)->col, __VA_ARGS__)

static bool want_rel(cat_run *r, const cat_expr *e, cat_val v, const char *op, exec_rel **out) {
    switch (v.kind) {
    case CV_REL: *out = v.u.rel; return true;
    case CV_EMPTY: *out = r->zero; return true;
    case CV_UNIV: *out = r->univ; return true;
    default:
        return TERR(e, "%s expects a relation, found a %s", op, cat_kind_name(v.kind));
    }
}

static bool want_set(cat_run *r, const cat_expr *e, cat_val v, const char *op, exec_set *out) {
    switch (v.kind) {
    case CV_SET: *out = v.u.set; return true;
    case CV_EMPTY: *out = 0; return true;
    case CV_UNIV: *out = r->all; return true;
    default:
        return TERR(e, "%s expects a set of events, found a %s", op, cat_kind_name(v.kind));
    }
}

static bool val_is_empty(const cat_run *r, const cat_val *v) {
    switch (v->kind) {
    case CV_EMPTY: return true;
    case CV_SET: return v->u.set == 0;
    case CV_REL: return cr_is_empty(v->u.rel, r->n);
    case CV_VSET: return v->n == 0;
    default: return false;
    }
}

/* Total order on values, used to keep sets of values canonical.  Empty
 * sets, relations and value sets compare equal to {}. */
int cat_val_cmp(const cat_run *r, const cat_val *a, const cat_val *b) {
    bool ea = val_is_empty(r, a), eb = val_is_empty(r, b);
    if (ea || eb) return ea && eb ? 0 : ea ? -1 : 1;
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    switch (a->kind) {
    case CV_SET: return a->u.set < b->u.set ? -1 : a->u.set > b->u.set;
    case CV_REL:
        for (int i = 0; i < r->n; i++)
            if (a->u.rel->row[i] != b->u.rel->row[i]) return a->u.rel->row[i] < b->u.rel->row[i] ? -1 : 1;
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

static int cmp_ctx(const void *x, const void *y, void *ctx) {
    return cat_val_cmp(ctx, x, y);
}

cat_val cat_vset_make(cat_run *r, cat_val *elts, int n) {
    if (n > 1) qsort_r(elts, (size_t)n, sizeof *elts, cmp_ctx, r);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (k == 0 || cat_val_cmp(r, &elts[k - 1], &elts[i]) != 0) elts[k++] = elts[i];
    cat_val v = {CV_VSET, k, {.elts = elts}};
    return v;
}

static bool vset_has(cat_run *r, const cat_val *s, const cat_val *x) {
    int lo = 0, hi = s->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2, c = cat_val_cmp(r, &s->u.elts[mid], x);
        if (!c) return true;
        if (c < 0) lo = mid + 1; else hi = mid;
    }
    return false;
}

/* ---- frames and binding ------------------------------------------------------------ */
static cat_frame *new_frame(cat_run *r, int nslots, cat_frame *up) {
    cat_frame *f = cat_arena_alloc(r->cur, sizeof *f + (size_t)nslots * sizeof(cat_val));
    f->up = up;
    for (int i = 0; i < nslots; i++) f->v[i] = cv_kind_only(CV_EMPTY);
    return f;
}

static inline cat_val *slot_ref(cat_run *r, cat_frame *fr, int slot) {
    return fr ? &fr->v[slot] : &r->globals[slot];
}

static bool bind_pattern(cat_run *r, const cat_pat *pt, cat_val v, cat_frame *fr, const cat_expr *at,
                         const char *what) {
    if (!pt->tuple) {
        *slot_ref(r, fr, pt->slots[0]) = v;
        return true;
    }
    if (v.kind != CV_TUPLE || v.n != pt->n) {
        if (v.kind == CV_TUPLE)
            return TERR(at, "%s expects %d argument%s, got %d", what, pt->n, pt->n == 1 ? "" : "s", v.n);
        return TERR(at, "%s expects a tuple of %d, got a %s", what, pt->n, cat_kind_name(v.kind));
    }
    for (int k = 0; k < pt->n; k++) *slot_ref(r, fr, pt->slots[k]) = v.u.elts[k];
    return true;
}

/* ---- expressions --------------------------------------------------------------------- */
static bool eval(cat_run *r, const cat_expr *e, cat_frame *fr, cat_val *out);

static bool apply(cat_run *r, const cat_expr *at, cat_val f, cat_val arg, cat_val *out) {
    if (f.kind == CV_PRIM) return cat_prim_apply(r, f.n, arg, at, out);
    if (f.kind != CV_CLOS) return TERR(at, "applying a %s, which is not a function", cat_kind_name(f.kind));
    const cat_fun *fn = f.u.clos->fun;
    cat_frame *frame = new_frame(r, fn->nslots, f.u.clos->env);
    char what[160];
    snprintf(what, sizeof what, "function '%s'", fn->name);
    if (!bind_pattern(r, &fn->params, arg, frame, at, what)) return false;
    return eval(r, fn->body, frame, out);
}

static bool eval_union(cat_run *r, const cat_expr *e, cat_frame *fr, cat_val *out, bool inter) {
    const char *opname = inter ? "'&'" : "'|'";
    cat_val acc = cv_kind_only(inter ? CV_UNIV : CV_EMPTY);
    bool owned = false;
    for (int k = 0; k < e->nkids; k++) {
        cat_val v;
        if (!eval(r, e->kids[k], fr, &v)) return false;
        if (v.kind == (inter ? CV_UNIV : CV_EMPTY)) continue;
        if (v.kind == (inter ? CV_EMPTY : CV_UNIV)) { acc = v; owned = false; continue; }
        if (acc.kind == (inter ? CV_EMPTY : CV_UNIV)) continue;
        if (acc.kind == (inter ? CV_UNIV : CV_EMPTY)) { acc = v; owned = false; continue; }
        if (acc.kind != v.kind)
            return TERR(e->kids[k], "%s mixes a %s and a %s", opname, cat_kind_name(acc.kind), cat_kind_name(v.kind));
        switch (v.kind) {
        case CV_SET:
            acc.u.set = inter ? acc.u.set & v.u.set : acc.u.set | v.u.set;
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
            cat_val *el = cat_arena_alloc(r->cur, (size_t)(acc.n + v.n + 1) * sizeof *el);
            int n = 0;
            if (inter) {
                for (int i = 0; i < acc.n; i++)
                    if (vset_has(r, &v, &acc.u.elts[i])) el[n++] = acc.u.elts[i];
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

static bool eval_diff(cat_run *r, const cat_expr *e, cat_frame *fr, cat_val *out) {
    cat_val a, b;
    if (!eval(r, e->kids[0], fr, &a) || !eval(r, e->kids[1], fr, &b)) return false;
    if (a.kind == CV_EMPTY || b.kind == CV_EMPTY) { *out = a; return true; }
    if (b.kind == CV_UNIV) { *out = cv_kind_only(CV_EMPTY); return true; }
    if (a.kind == CV_UNIV) {
        if (b.kind == CV_SET) { *out = cv_set(r->all & ~b.u.set); return true; }
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
    case CV_SET: *out = cv_set(a.u.set & ~b.u.set); return true;
    case CV_REL: {
        exec_rel *d = cat_new_rel(r);
        cr_diff(d, a.u.rel, b.u.rel, r->n);
        *out = cv_rel(d);
        return true;
    }
    case CV_VSET: {
        cat_val *el = cat_arena_alloc(r->cur, (size_t)(a.n + 1) * sizeof *el);
        int n = 0;
        for (int i = 0; i < a.n; i++)
            if (!vset_has(r, &b, &a.u.elts[i])) el[n++] = a.u.elts[i];
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
static bool eval_seq(cat_run *r, const cat_expr *e, cat_frame *fr, cat_val *out) {
    int n = r->n;
    exec_set rows = r->all;     /* while `acc` is NULL: the identity on `rows` */
    exec_rel *acc = NULL;
    bool empty = false;
    for (int k = 0; k < e->nkids; k++) {
        const cat_expr *kid = e->kids[k];
        cat_val v;
        if (kid->op == CE_TOID) {
            if (!eval(r, kid->kids[0], fr, &v)) return false;
            exec_set s;
            if (!want_set(r, kid->kids[0], v, "'[...]'", &s)) return false;
            if (!acc) rows &= s;
            else for (int i = 0; i < n; i++) acc->row[i] &= s;
            continue;
        }
        if (!eval(r, kid, fr, &v)) return false;
        if (v.kind == CV_EMPTY) { empty = true; continue; }
        exec_rel *b;
        if (!want_rel(r, kid, v, "';'", &b)) return false;
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

static bool eval_closure_op(cat_run *r, const cat_expr *e, cat_frame *fr, cat_val *out) {
    cat_val v;
    if (!eval(r, e->kids[0], fr, &v)) return false;
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

static bool eval_add(cat_run *r, const cat_expr *e, cat_frame *fr, cat_val *out) {
    cat_val x, s;
    if (!eval(r, e->kids[0], fr, &x) || !eval(r, e->kids[1], fr, &s)) return false;
    if (x.kind == CV_UNIV) return TERR(e->kids[0], "universe in '++'");
    if (s.kind == CV_UNIV) { *out = s; return true; }
    if (x.kind == CV_EVENT && (s.kind == CV_EMPTY || s.kind == CV_SET)) {
        *out = cv_set((s.kind == CV_SET ? s.u.set : 0) | (exec_set)1 << x.n);
        return true;
    }
    if (s.kind == CV_SET) return TERR(e->kids[0], "'++' onto a set of events expects an event, found a %s", cat_kind_name(x.kind));
    if (s.kind == CV_REL) {
        if (x.kind == CV_TUPLE && x.n == 2 && x.u.elts[0].kind == CV_EVENT && x.u.elts[1].kind == CV_EVENT) {
            exec_rel *d = cat_new_rel(r);
            cr_copy(d, s.u.rel, r->n);
            d->row[x.u.elts[0].n] |= (exec_set)1 << x.u.elts[1].n;
            *out = cv_rel(d);
            return true;
        }
        return TERR(e->kids[0], "'++' onto a relation expects a pair of events, found a %s", cat_kind_name(x.kind));
    }
    if (s.kind != CV_EMPTY && s.kind != CV_VSET)
        return TERR(e->kids[1], "'++' expects a set on its right, found a %s", cat_kind_name(s.kind));
    int n = s.kind == CV_VSET ? s.n : 0;
    cat_val *el = cat_arena_alloc(r->cur, (size_t)(n + 1) * sizeof *el);
    if (n) memcpy(el, s.u.elts, (size_t)n * sizeof *el);
    el[n] = x;
    *out = cat_vset_make(r, el, n + 1);
    return true;
}

static bool eval_cond(cat_run *r, const cat_expr *e, cat_frame *fr, bool *res) {
    if (e->cond == CC_VARIANT) { *res = e->variant_value; return true; }
    cat_val a, b;
    if (!eval(r, e->cond_l, fr, &a) || !eval(r, e->cond_r, fr, &b)) return false;
    switch (e->cond) {
    case CC_EQ:
        *res = cat_val_cmp(r, &a, &b) == 0;
        return true;
    case CC_IN:
        if (b.kind == CV_EMPTY) { *res = false; return true; }
        if (b.kind == CV_SET && a.kind == CV_EVENT) { *res = b.u.set >> a.n & 1; return true; }
        if (b.kind == CV_VSET) { *res = vset_has(r, &b, &a); return true; }
        return TERR(e->cond_r, "'in' expects a set on its right, found a %s", cat_kind_name(b.kind));
    case CC_SUBSET:
        if (a.kind == CV_EMPTY) { *res = true; return true; }
        if (a.kind == CV_SET || b.kind == CV_SET) {
            exec_set x, y;
            if (!want_set(r, e->cond_l, a, "'subset'", &x) || !want_set(r, e->cond_r, b, "'subset'", &y)) return false;
            *res = (x & ~y) == 0;
            return true;
        }
        if (a.kind == CV_VSET) {
            if (b.kind == CV_EMPTY) { *res = a.n == 0; return true; }
            if (b.kind != CV_VSET) return TERR(e->cond_r, "'subset' mixes a set of values and a %s", cat_kind_name(b.kind));
            *res = true;
            for (int i = 0; i < a.n && *res; i++) *res = vset_has(r, &b, &a.u.elts[i]);
            return true;
        }
        {
            exec_rel *x, *y;
            if (!want_rel(r, e->cond_l, a, "'subset'", &x) || !want_rel(r, e->cond_r, b, "'subset'", &y)) return false;
            *res = cr_subset(x, y, r->n);
            return true;
        }
    default:
        return false;
    }
}

static bool eval_letrec(cat_run *r, const cat_bind *b, int nb, cat_frame *fr, const cat_expr *at) {
    bool all_funs = true;
    for (int k = 0; k < nb; k++) all_funs &= b[k].e->op == CE_FUN;
    if (all_funs) {
        for (int k = 0; k < nb; k++) {
            cat_val v;
            if (!eval(r, b[k].e, fr, &v)) return false;
            *slot_ref(r, fr, b[k].pat.slots[0]) = v;
        }
        return true;
    }
    /* Least fixpoint from {}: iterate until nothing changes. */
    for (int k = 0; k < nb; k++)
        if (b[k].pat.tuple) return TERR(b[k].e, "a recursive definition of values binds one name");
    for (int k = 0; k < nb; k++)
        for (int j = 0; j < b[k].pat.n; j++) *slot_ref(r, fr, b[k].pat.slots[j]) = cv_kind_only(CV_EMPTY);
    for (int iter = 0;; iter++) {
        if (iter > 10000) return TERR(at, "recursive definition does not reach a fixpoint");
        bool changed = false;
        for (int k = 0; k < nb; k++) {
            cat_val v;
            if (!eval(r, b[k].e, fr, &v)) return false;
            cat_val *s = slot_ref(r, fr, b[k].pat.slots[0]);
            if (cat_val_cmp(r, s, &v) != 0 || s->kind != v.kind) changed = true;
            *s = v;
        }
        if (!changed) return true;
    }
}

static bool eval_binds(cat_run *r, const cat_bind *b, int nb, bool rec, cat_frame *fr, const cat_expr *at) {
    if (rec) return eval_letrec(r, b, nb, fr, at);
    /* Simultaneous: evaluate every right-hand side, then bind. */
    cat_val tmp[8], *vals = nb <= 8 ? tmp : cat_arena_alloc(r->cur, (size_t)nb * sizeof *vals);
    for (int k = 0; k < nb; k++)
        if (!eval(r, b[k].e, fr, &vals[k])) return false;
    for (int k = 0; k < nb; k++)
        if (!bind_pattern(r, &b[k].pat, vals[k], fr, b[k].e, "pattern")) return false;
    return true;
}

static bool eval_matchset(cat_run *r, const cat_expr *e, cat_frame *fr, cat_val *out) {
    cat_val v;
    if (!eval(r, e->kids[0], fr, &v)) return false;
    cat_val elt, rest;
    switch (v.kind) {
    case CV_EMPTY:
        return eval(r, e->kids[1], fr, out);
    case CV_SET:
        if (!v.u.set) return eval(r, e->kids[1], fr, out);
        elt.kind = CV_EVENT;
        elt.n = __builtin_ctzll(v.u.set);
        rest = cv_set(v.u.set & (v.u.set - 1));
        break;
    case CV_VSET:
        if (!v.n) return eval(r, e->kids[1], fr, out);
        elt = v.u.elts[0];
        rest.kind = CV_VSET;
        rest.n = v.n - 1;
        rest.u.elts = v.u.elts + 1;
        break;
    case CV_REL: {
        int i = 0;
        while (i < r->n && !v.u.rel->row[i]) i++;
        if (i == r->n) return eval(r, e->kids[1], fr, out);
        int j = __builtin_ctzll(v.u.rel->row[i]);
        cat_val *pair = cat_arena_alloc(r->cur, 2 * sizeof *pair);
        pair[0].kind = pair[1].kind = CV_EVENT;
        pair[0].n = i;
        pair[1].n = j;
        elt.kind = CV_TUPLE;
        elt.n = 2;
        elt.u.elts = pair;
        exec_rel *d = cat_new_rel(r);
        cr_copy(d, v.u.rel, r->n);
        d->row[i] &= ~((exec_set)1 << j);
        rest = cv_rel(d);
        break;
    }
    default:
        return TERR(e->kids[0], "matching a %s against set cases", cat_kind_name(v.kind));
    }
    *slot_ref(r, fr, e->elt_slot) = elt;
    *slot_ref(r, fr, e->rest_slot) = rest;
    return eval(r, e->kids[2], fr, out);
}

static bool eval(cat_run *r, const cat_expr *e, cat_frame *fr, cat_val *out) {
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
        cat_val *el = cat_arena_alloc(r->cur, (size_t)e->nkids * sizeof *el);
        bool events = true;
        for (int k = 0; k < e->nkids; k++) {
            if (!eval(r, e->kids[k], fr, &el[k])) return false;
            events &= el[k].kind == CV_EVENT;
        }
        if (events) {
            exec_set s = 0;
            for (int k = 0; k < e->nkids; k++) s |= (exec_set)1 << el[k].n;
            *out = cv_set(s);
            return true;
        }
        *out = cat_vset_make(r, el, e->nkids);
        return true;
    }
    case CE_TUPLE: {
        cat_val *el = cat_arena_alloc(r->cur, (size_t)(e->nkids + 1) * sizeof *el);
        for (int k = 0; k < e->nkids; k++)
            if (!eval(r, e->kids[k], fr, &el[k])) return false;
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
        if (!eval(r, e->kids[0], fr, &a) || !eval(r, e->kids[1], fr, &b)) return false;
        if (!want_set(r, e->kids[0], a, "'*' (cartesian product)", &s) ||
            !want_set(r, e->kids[1], b, "'*' (cartesian product)", &t)) return false;
        exec_rel *d = cat_new_rel(r);
        cr_cart(d, s, t, r->n);
        *out = cv_rel(d);
        return true;
    }
    case CE_ADD: return eval_add(r, e, fr, out);
    case CE_STAR: case CE_PLUS: case CE_OPT: return eval_closure_op(r, e, fr, out);
    case CE_INV: {
        cat_val v;
        if (!eval(r, e->kids[0], fr, &v)) return false;
        if (v.kind == CV_EMPTY || v.kind == CV_UNIV) { *out = v; return true; }
        if (v.kind == CV_TUPLE && v.n == 2) {
            cat_val *p = cat_arena_alloc(r->cur, 2 * sizeof *p);
            p[0] = v.u.elts[1];
            p[1] = v.u.elts[0];
            out->kind = CV_TUPLE;
            out->n = 2;
            out->u.elts = p;
            return true;
        }
        exec_rel *a;
        if (!want_rel(r, e->kids[0], v, "'^-1'", &a)) return false;
        exec_rel *d = cat_new_rel(r);
        cr_inv(d, a, r->n);
        *out = cv_rel(d);
        return true;
    }
    case CE_COMP: {
        cat_val v;
        if (!eval(r, e->kids[0], fr, &v)) return false;
        switch (v.kind) {
        case CV_EMPTY: *out = cv_kind_only(CV_UNIV); return true;
        case CV_UNIV: *out = cv_kind_only(CV_EMPTY); return true;
        case CV_SET: *out = cv_set(r->all & ~v.u.set); return true;
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
        if (!eval(r, e->kids[0], fr, &v)) return false;
        if (v.kind == CV_EMPTY) { *out = v; return true; }
        if (!want_set(r, e->kids[0], v, "'[...]'", &s)) return false;
        exec_rel *d = cat_new_rel(r);
        cr_toid(d, s, r->n);
        *out = cv_rel(d);
        return true;
    }
    case CE_APP: {
        cat_val f, a;
        if (!eval(r, e->kids[0], fr, &f) || !eval(r, e->kids[1], fr, &a)) return false;
        return apply(r, e, f, a, out);
    }
    case CE_FUN: {
        cat_clos *c = cat_arena_alloc(r->cur, sizeof *c);
        c->fun = e->fun;
        c->proc = NULL;
        c->env = fr;
        out->kind = CV_CLOS;
        out->n = 0;
        out->u.clos = c;
        return true;
    }
    case CE_LET: case CE_LETREC:
        if (!eval_binds(r, e->binds, e->nbinds, e->op == CE_LETREC, fr, e)) return false;
        return eval(r, e->kids[0], fr, out);
    case CE_TRY: {
        if (e->kids[0]) {
            diag saved = *r->d;
            cat_arena_mark mk = cat_arena_save(r->cur);
            if (eval(r, e->kids[0], fr, out)) return true;
            *r->d = saved;
            r->error = false;
            cat_arena_restore(r->cur, mk);
        }
        return eval(r, e->kids[1], fr, out);
    }
    case CE_IF: {
        bool c = false;
        if (!eval_cond(r, e, fr, &c)) return false;
        return eval(r, e->kids[c ? 0 : 1], fr, out);
    }
    case CE_MATCH: {
        cat_val v;
        if (!eval(r, e->kids[0], fr, &v)) return false;
        if (v.kind != CV_TAG) return TERR(e->kids[0], "matching a %s against tags", cat_kind_name(v.kind));
        const char *name = r->m->tags[v.n];
        for (int k = 0; k < e->ntags; k++)
            if (!strcmp(e->tags[k], name)) return eval(r, e->kids[1 + k], fr, out);
        if (e->has_default) return eval(r, e->kids[e->nkids - 1], fr, out);
        return TERR(e, "pattern matching failed on value '%s", name);
    }
    case CE_MATCHSET: return eval_matchset(r, e, fr, out);
    }
    return TERR(e, "internal error: unknown expression");
}

/* ---- instructions --------------------------------------------------------------------- */
typedef struct path { uint64_t flags; bool undef; } path;

enum { X_FAIL = 0, X_PASS = 1, X_ERROR = -1 };

static int run_test(cat_run *r, const cat_ins *in, cat_frame *fr, path *p) {
    cat_val v;
    if (!eval(r, in->e, fr, &v)) return X_ERROR;
    bool holds;
    int n = r->n;
    switch (in->test) {
    case CT_T_ACYCLIC: case CT_T_IRREFLEXIVE: {
        const char *what = in->test == CT_T_ACYCLIC ? "acyclic" : "irreflexive";
        if (v.kind == CV_EMPTY) holds = true;
        else if (v.kind == CV_UNIV) holds = n == 0;
        else if (v.kind == CV_REL)
            holds = in->test == CT_T_ACYCLIC ? cr_acyclic(v.u.rel, n) : cr_irreflexive(v.u.rel, n);
        else {
            cat_type_error(r, in->e->file, in->e->line, in->e->col, "'%s' expects a relation, found a %s", what,
                           cat_kind_name(v.kind));
            return X_ERROR;
        }
        break;
    }
    default:
        if (v.kind == CV_UNIV) holds = n == 0;
        else if (v.kind == CV_EMPTY || v.kind == CV_SET || v.kind == CV_REL || v.kind == CV_VSET)
            holds = val_is_empty(r, &v);
        else {
            cat_type_error(r, in->e->file, in->e->line, in->e->col, "'empty' expects a set or a relation, found a %s",
                           cat_kind_name(v.kind));
            return X_ERROR;
        }
        break;
    }
    if (in->negated) holds = !holds;
    if (r->dry) return X_PASS;
    switch (in->ttype) {
    case CTT_CHECK: return holds ? X_PASS : X_FAIL;
    case CTT_UNDEF: if (!holds) p->undef = true; return X_PASS;
    case CTT_FLAG: if (holds) p->flags |= (uint64_t)1 << in->flag_index; return X_PASS;
    case CTT_ASSERT:
        if (!holds) {
            cat_type_error(r, in->file, in->line, in->col, "assertion %s failed", in->name ? in->name : "(unnamed)");
            return X_ERROR;
        }
        return X_PASS;
    }
    return X_PASS;
}

static int exec_block(cat_run *r, const cat_ins *ins, int n, cat_frame *fr, path *p);

static int exec_one(cat_run *r, const cat_ins *in, cat_frame *fr, path *p) {
    switch (in->op) {
    case CI_LET: case CI_LETREC: {
        cat_expr at = {0};
        at.file = in->file;
        at.line = in->line;
        at.col = in->col;
        return eval_binds(r, in->binds, in->nbinds, in->op == CI_LETREC, fr, &at) ? X_PASS : X_ERROR;
    }
    case CI_TEST:
        return run_test(r, in, fr, p);
    case CI_PROC: {
        cat_clos *c = cat_arena_alloc(r->cur, sizeof *c);
        c->fun = NULL;
        c->proc = in;
        c->env = fr;
        cat_val v = {CV_PROC, 0, {.clos = c}};
        *slot_ref(r, fr, in->slot) = v;
        return X_PASS;
    }
    case CI_CALL: {
        cat_val pv, arg;
        if (in->glob) pv = r->globals[in->slot];
        else {
            cat_frame *f = fr;
            for (int k = 0; k < in->up; k++) f = f->up;
            pv = f->v[in->slot];
        }
        if (pv.kind != CV_PROC) {
            cat_type_error(r, in->file, in->line, in->col, "'%s' is a %s, not a procedure", in->name, cat_kind_name(pv.kind));
            return X_ERROR;
        }
        if (!eval(r, in->e, fr, &arg)) return X_ERROR;
        const cat_ins *proc = pv.u.clos->proc;
        cat_frame *frame = new_frame(r, proc->nslots, pv.u.clos->env);
        char what[160];
        snprintf(what, sizeof what, "procedure '%s'", proc->name);
        if (!bind_pattern(r, &proc->params, arg, frame, in->e, what)) return X_ERROR;
        return exec_block(r, proc->body[0], proc->nbody[0], frame, p);
    }
    case CI_FORALL: {
        cat_val s;
        if (!eval(r, in->e, fr, &s)) return X_ERROR;
        if (s.kind == CV_EMPTY) return X_PASS;
        if (s.kind == CV_SET) {
            for (exec_set left = s.u.set; left; left &= left - 1) {
                cat_val ev = {CV_EVENT, __builtin_ctzll(left), {.set = 0}};
                *slot_ref(r, fr, in->slot) = ev;
                int res = exec_block(r, in->body[0], in->nbody[0], fr, p);
                if (res != X_PASS) return res;
            }
            return X_PASS;
        }
        if (s.kind == CV_VSET) {
            for (int k = 0; k < s.n; k++) {
                *slot_ref(r, fr, in->slot) = s.u.elts[k];
                int res = exec_block(r, in->body[0], in->nbody[0], fr, p);
                if (res != X_PASS) return res;
            }
            return X_PASS;
        }
        cat_type_error(r, in->e->file, in->e->line, in->e->col, "'forall' expects a set, found a %s", cat_kind_name(s.kind));
        return X_ERROR;
    }
    case CI_MATCH: {
        cat_val v;
        if (!eval(r, in->e, fr, &v)) return X_ERROR;
        if (v.kind != CV_TAG) {
            cat_type_error(r, in->e->file, in->e->line, in->e->col, "matching a %s against tags", cat_kind_name(v.kind));
            return X_ERROR;
        }
        const char *name = r->m->tags[v.n];
        for (int k = 0; k < in->ntags; k++)
            if (!strcmp(in->tags[k], name)) return exec_block(r, in->body[k], in->nbody[k], fr, p);
        if (in->has_default) return exec_block(r, in->body[in->nbodies - 1], in->nbody[in->nbodies - 1], fr, p);
        cat_type_error(r, in->file, in->line, in->col, "pattern matching failed on value '%s", name);
        return X_ERROR;
    }
    case CI_ENUM: {
        cat_val *el = cat_arena_alloc(r->cur, (size_t)(in->ntags + 1) * sizeof *el);
        for (int k = 0; k < in->ntags; k++) {
            el[k].kind = CV_TAG;
            for (int t = 0; t < r->m->ntags; t++)
                if (!strcmp(r->m->tags[t], in->tags[k])) el[k].n = t;
        }
        *slot_ref(r, fr, in->slot) = cat_vset_make(r, el, in->ntags);
        return X_PASS;
    }
    case CI_WITH:
        cat_type_error(r, in->file, in->line, in->col, "'with' is only supported at the top level");
        return X_ERROR;
    case CI_INCLUDE: case CI_IFVARIANT: case CI_NOP:
        return X_PASS;
    }
    return X_PASS;
}

static int exec_block(cat_run *r, const cat_ins *ins, int n, cat_frame *fr, path *p) {
    for (int k = 0; k < n; k++) {
        int res = exec_one(r, &ins[k], fr, p);
        if (res != X_PASS) return res;
    }
    return X_PASS;
}

/* Whether every slot a top-level let binds is candidate-independent. */
static bool ins_static(const cat_model *m, const cat_ins *in) {
    if (in->op != CI_LET && in->op != CI_LETREC) return false;
    for (int k = 0; k < in->nbinds; k++)
        for (int j = 0; j < in->binds[k].pat.n; j++)
            if (m->global_dyn[in->binds[k].pat.slots[j]]) return false;
    return true;
}

/* `with co from E`: co is the enumerator's.  For generate_cos(P) and
 * generate_orders(S, P), exec.co is one of E's orders iff the closure of P
 * restricted to same-location pairs of S is included in it; any other E is
 * evaluated and searched. */
static int with_co(cat_run *r, const cat_ins *in, bool *keep) {
    const cat_expr *e = in->e;
    exec_rel *co = cat_new_rel(r);
    cr_copy(co, &r->x->co, r->n);
    *slot_ref(r, NULL, in->slot) = cv_rel(co);
    if (e->op == CE_APP && e->kids[0]->op == CE_VAR &&
        (!strcmp(e->kids[0]->name, "generate_cos") || !strcmp(e->kids[0]->name, "generate_orders"))) {
        bool cos = !strcmp(e->kids[0]->name, "generate_cos");
        cat_val arg;
        if (!eval(r, e->kids[1], NULL, &arg)) return X_ERROR;
        exec_set s = 0;
        for (int i = 0; i < r->n; i++) if (r->x->ev[i].kind & EV_W) s |= (exec_set)1 << i;
        cat_val pv = arg;
        if (!cos) {
            if (arg.kind != CV_TUPLE || arg.n != 2) {
                cat_type_error(r, e->file, e->line, e->col, "generate_orders expects 2 arguments");
                return X_ERROR;
            }
            if (!want_set(r, e->kids[1], arg.u.elts[0], "generate_orders", &s)) return X_ERROR;
            pv = arg.u.elts[1];
        }
        exec_rel *p;
        if (!want_rel(r, e->kids[1], pv, e->kids[0]->name, &p)) return X_ERROR;
        exec_rel *pc = cat_new_rel(r);
        cr_copy(pc, p, r->n);
        cr_plus_inplace(pc, r->n);
        *keep = true;
        for (int i = 0; i < r->n && *keep; i++) {
            if (!(s >> i & 1)) continue;
            exec_set need = pc->row[i] & s;
            for (exec_set b = need; b; b &= b - 1) {
                int j = __builtin_ctzll(b);
                if (r->x->ev[j].loc != r->x->ev[i].loc) need &= ~((exec_set)1 << j);
            }
            if (need & ~co->row[i]) *keep = false;
        }
        return X_PASS;
    }
    cat_val v;
    if (!eval(r, e, NULL, &v)) return X_ERROR;
    *keep = false;
    if (v.kind == CV_VSET) {
        cat_val me = cv_rel(co);
        *keep = vset_has(r, &v, &me);
    }
    return X_PASS;
}

static int exec_top(cat_run *r, int i, path p);

static int exec_with(cat_run *r, int i, path p) {
    const cat_ins *in = r->m->top[i];
    if (in->slot == r->m->co_slot) {
        bool keep;
        if (with_co(r, in, &keep) != X_PASS) return X_ERROR;
        if (!keep && !r->dry) return X_PASS;
        return exec_top(r, i + 1, p);
    }
    cat_val v;
    if (!eval(r, in->e, NULL, &v)) return X_ERROR;
    if (v.kind == CV_EMPTY) return X_PASS;
    if (v.kind == CV_SET) {
        /* One event at a time. */
        for (exec_set left = v.u.set; left; left &= left - 1) {
            cat_val ev = {CV_EVENT, __builtin_ctzll(left), {.set = 0}};
            r->globals[in->slot] = ev;
            cat_arena_mark mk = cat_arena_save(r->cur);
            if (exec_top(r, i + 1, p) == X_ERROR) return X_ERROR;
            cat_arena_restore(r->cur, mk);
            if (r->dry) break;
        }
        return X_PASS;
    }
    if (v.kind != CV_VSET) {
        cat_type_error(r, in->e->file, in->e->line, in->e->col, "'with %s from' expects a set, found a %s", in->name,
                       cat_kind_name(v.kind));
        return X_ERROR;
    }
    for (int k = 0; k < v.n; k++) {
        r->globals[in->slot] = v.u.elts[k];
        cat_arena_mark mk = cat_arena_save(r->cur);
        if (exec_top(r, i + 1, p) == X_ERROR) return X_ERROR;
        cat_arena_restore(r->cur, mk);
        if (r->dry) break;
    }
    return X_PASS;
}

static int exec_top(cat_run *r, int i, path p) {
    const cat_model *m = r->m;
    for (; i < m->ntop; i++) {
        const cat_ins *in = m->top[i];
        if (!in->live) continue;
        if (in->op == CI_WITH) return exec_with(r, i, p);
        int res;
        if (!r->dry && ins_static(m, in)) {
            if (r->ins_cached[i]) continue;
            cat_arena *saved = r->cur;
            r->cur = &r->static_arena;
            res = exec_one(r, in, NULL, &p);
            r->cur = saved;
            if (res == X_PASS) r->ins_cached[i] = true;
        } else {
            res = exec_one(r, in, NULL, &p);
        }
        if (res != X_PASS) return res;
    }
    r->out->consistent++;
    r->out->undef |= p.undef;
    r->out->flags |= p.flags;
    return X_PASS;
}

/* ---- entry points ----------------------------------------------------------------------- */
cat_run *cat_run_new(const cat_model *m) {
    cat_run *r = xcalloc(1, sizeof *r);
    r->m = m;
    r->globals = xcalloc((size_t)m->nglobals, sizeof *r->globals);
    r->ins_cached = xcalloc((size_t)(m->ntop + 1), sizeof *r->ins_cached);
    r->key = xcalloc(1, sizeof *r->key);
    return r;
}

void cat_run_free(cat_run *r) {
    if (!r) return;
    cat_arena_free(&r->arena);
    cat_arena_free(&r->static_arena);
    free(r->globals);
    free(r->ins_cached);
    free(r->key);
    free(r);
}

/* The static values are those computed from the fields compared here. */
static bool same_structure(const exec *a, const exec *b) {
    if (a->n != b->n) return false;
    int n = a->n;
    for (int i = 0; i < n; i++) {
        const exec_event *x = &a->ev[i], *y = &b->ev[i];
        if (x->kind != y->kind || x->thread != y->thread || x->poi != y->poi || x->loc != y->loc ||
            x->mode != y->mode || x->fence != y->fence || x->is_rmw != y->is_rmw || x->rmw_op != y->rmw_op)
            return false;
    }
    return cr_equal(&a->po, &b->po, n) && cr_equal(&a->rmw, &b->rmw, n) && cr_equal(&a->addr, &b->addr, n) &&
           cr_equal(&a->data, &b->data, n) && cr_equal(&a->ctrl, &b->ctrl, n);
}

static void remember_structure(exec *k, const exec *x) {
    k->n = x->n;
    memcpy(k->ev, x->ev, (size_t)x->n * sizeof x->ev[0]);
    cr_copy(&k->po, &x->po, x->n);
    cr_copy(&k->rmw, &x->rmw, x->n);
    cr_copy(&k->addr, &x->addr, x->n);
    cr_copy(&k->data, &x->data, x->n);
    cr_copy(&k->ctrl, &x->ctrl, x->n);
}

static void make_constants(cat_run *r) {
    cat_arena *saved = r->cur;
    r->cur = &r->static_arena;
    r->zero = cat_new_rel(r);
    cr_clear(r->zero, r->n);
    r->univ = cat_new_rel(r);
    for (int i = 0; i < r->n; i++) r->univ->row[i] = r->all;
    r->ident = cat_new_rel(r);
    cr_toid(r->ident, r->all, r->n);
    r->cur = saved;
}

bool cat_run_check(cat_run *r, const exec *x, cat_verdict *out, diag *d) {
    memset(out, 0, sizeof *out);
    r->x = x;
    r->n = x->n;
    r->all = cr_all(x->n);
    r->out = out;
    r->d = d;
    r->error = false;
    r->cur = &r->arena;
    cat_arena_reset(&r->arena);
    if (!r->have_key || r->dry || !same_structure(r->key, x)) {
        cat_arena_reset(&r->static_arena);
        memset(r->ins_cached, 0, (size_t)(r->m->ntop + 1) * sizeof *r->ins_cached);
        make_constants(r);
        r->cur = &r->static_arena;
        cat_prim_fill(r, true, false);
        r->cur = &r->arena;
        remember_structure(r->key, x);
        r->have_key = true;
    }
    cat_prim_fill(r, false, true);
    path p = {0, false};
    int res = exec_top(r, 0, p);
    if (res == X_ERROR) {
        /* A failed evaluation leaves no cache behind. */
        r->have_key = false;
        return false;
    }
    return true;
}

bool cat_check(const cat_model *m, const exec *x, cat_verdict *out, diag *d) {
    cat_run *r = cat_run_new(m);
    bool ok = cat_run_check(r, x, out, d);
    cat_run_free(r);
    return ok;
}
