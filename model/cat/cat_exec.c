/* The cat evaluator, instructions: the model's top-level instructions run
 * on one candidate, down every `with` branch, into a verdict (consistent
 * branches, flags, undefined behaviour).  Separate from cat_eval.c:
 * instructions are control flow (checks, procedures, forall, with) that
 * ends in a verdict, expressions only compute values. */
#include <stdio.h>
#include <string.h>
#include "model/cat/cat_impl.h"
#include "model/cat/cat_rel.h"

/* ---- instructions --------------------------------------------------------------------- */
typedef struct path { uint64_t flags; bool undef; } path;

enum { X_FAIL = 0, X_PASS = 1, X_ERROR = -1 };

/* The elements of a set that forall and with go through one at a time:
 * events of a CV_SET in index order, or the values of a CV_VSET. */
typedef struct elt_iter {
    const cat_val *s;
    exec_set left;          /* CV_SET: the events not yet given */
    int k;                  /* CV_VSET: the next value's index */
} elt_iter;

static elt_iter elts_of(const cat_val *s)
{
    return (elt_iter){s, s->kind == CV_SET ? *s->u.set : es_none(), 0};
}

static bool elt_next(elt_iter *it, cat_val *out)
{
    if (it->s->kind == CV_SET) {
        int i = es_pop(&it->left);
        if (i < 0) return false;
        *out = (cat_val){CV_EVENT, i, {.set = NULL}};
        return true;
    }
    if (it->s->kind != CV_VSET || it->k >= it->s->n) return false;
    *out = it->s->u.elts[it->k++];
    return true;
}

static int run_test(cat_run *r, const cat_ins *in, cat_frame *fr, path *p)
{
    cat_val v;
    if (!cat_eval(r, in->e, fr, &v)) return X_ERROR;
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
            holds = cat_val_is_empty(r, &v);
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

static int exec_one(cat_run *r, const cat_ins *in, cat_frame *fr, path *p)
{
    switch (in->op) {
    case CI_LET: case CI_LETREC: {
        cat_expr at = {0};
        at.file = in->file;
        at.line = in->line;
        at.col = in->col;
        return cat_eval_binds(r, in->binds, in->nbinds, in->op == CI_LETREC, fr, &at) ? X_PASS : X_ERROR;
    }
    case CI_TEST:
        return run_test(r, in, fr, p);
    case CI_PROC: {
        cat_clos *c = arena_alloc(r->cur, sizeof *c);
        c->fun = NULL;
        c->proc = in;
        c->env = fr;
        cat_val v = {CV_PROC, 0, {.clos = c}};
        *cat_slot_ref(r, fr, in->slot) = v;
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
        if (!cat_eval(r, in->e, fr, &arg)) return X_ERROR;
        const cat_ins *proc = pv.u.clos->proc;
        cat_frame *frame = cat_new_frame(r, proc->nslots, pv.u.clos->env);
        char what[160];
        snprintf(what, sizeof what, "procedure '%s'", proc->name);
        if (!cat_bind_pattern(r, &proc->params, arg, frame, in->e, what)) return X_ERROR;
        return exec_block(r, proc->body[0], proc->nbody[0], frame, p);
    }
    case CI_FORALL: {
        cat_val s;
        if (!cat_eval(r, in->e, fr, &s)) return X_ERROR;
        if (s.kind != CV_EMPTY && s.kind != CV_SET && s.kind != CV_VSET) {
            cat_type_error(r, in->e->file, in->e->line, in->e->col, "'forall' expects a set, found a %s",
                           cat_kind_name(s.kind));
            return X_ERROR;
        }
        elt_iter it = elts_of(&s);
        for (cat_val ev; elt_next(&it, &ev);) {
            *cat_slot_ref(r, fr, in->slot) = ev;
            int res = exec_block(r, in->body[0], in->nbody[0], fr, p);
            if (res != X_PASS) return res;
        }
        return X_PASS;
    }
    case CI_MATCH: {
        cat_val v;
        if (!cat_eval(r, in->e, fr, &v)) return X_ERROR;
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
        cat_val *el = arena_alloc(r->cur, (size_t)(in->ntags + 1) * sizeof *el);
        for (int k = 0; k < in->ntags; k++) {
            el[k].kind = CV_TAG;
            for (int t = 0; t < r->m->ntags; t++)
                if (!strcmp(r->m->tags[t], in->tags[k])) el[k].n = t;
        }
        *cat_slot_ref(r, fr, in->slot) = cat_vset_make(r, el, in->ntags);
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

static int exec_block(cat_run *r, const cat_ins *ins, int n, cat_frame *fr, path *p)
{
    for (int k = 0; k < n; k++) {
        int res = exec_one(r, &ins[k], fr, p);
        if (res != X_PASS) return res;
    }
    return X_PASS;
}

/* Whether every slot a top-level let binds is candidate-independent. */
static bool ins_static(const cat_model *m, const cat_ins *in)
{
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
static int with_co(cat_run *r, const cat_ins *in, bool *keep)
{
    const cat_expr *e = in->e;
    exec_rel *co = cat_new_rel(r);
    cr_copy(co, &r->x->co, r->x->n);
    if (r->n > r->x->n) memset(&co->row[r->x->n], 0, (size_t)(r->n - r->x->n) * sizeof co->row[0]);
    *cat_slot_ref(r, NULL, in->slot) = cv_rel(co);
    if (e->op == CE_APP && e->kids[0]->op == CE_VAR &&
        (!strcmp(e->kids[0]->name, "generate_cos") || !strcmp(e->kids[0]->name, "generate_orders"))) {
        bool cos = !strcmp(e->kids[0]->name, "generate_cos");
        cat_val arg;
        if (!cat_eval(r, e->kids[1], NULL, &arg)) return X_ERROR;
        exec_set s = es_none();
        for (int i = 0; i < r->x->n; i++) if (r->x->ev[i].kind & EV_W) es_add(&s, i);
        cat_val pv = arg;
        if (!cos) {
            if (arg.kind != CV_TUPLE || arg.n != 2) {
                cat_type_error(r, e->file, e->line, e->col, "generate_orders expects 2 arguments");
                return X_ERROR;
            }
            if (!cat_want_set(r, e->kids[1], arg.u.elts[0], "generate_orders", &s)) return X_ERROR;
            pv = arg.u.elts[1];
        }
        exec_rel *p;
        if (!cat_want_rel(r, e->kids[1], pv, e->kids[0]->name, &p)) return X_ERROR;
        exec_rel *pc = cat_new_rel(r);
        cr_copy(pc, p, r->n);
        cr_plus_inplace(pc, r->n);
        *keep = true;
        for (int i = 0; i < r->x->n && *keep; i++) {
            if (!es_has(s, i)) continue;
            exec_set need = es_and(pc->row[i], s), b = need;
            for (int j; (j = es_pop(&b)) >= 0;)
                if (r->x->ev[j].loc != r->x->ev[i].loc) es_del(&need, j);
            if (!es_empty(es_minus(need, co->row[i]))) *keep = false;
        }
        return X_PASS;
    }
    cat_val v;
    if (!cat_eval(r, e, NULL, &v)) return X_ERROR;
    *keep = false;
    if (v.kind == CV_VSET) {
        cat_val me = cv_rel(co);
        *keep = cat_vset_has(r, &v, &me);
    }
    return X_PASS;
}

static int exec_top(cat_run *r, int i, path p);

/* The values asked for by name, as the first consistent branch leaves them
 * (a `with` may bind them differently in other branches; herd draws one). */
static void want_copy(cat_run *r)
{
    for (int k = 0; k < r->want.n; k++) {
        const cat_val *v = &r->globals[r->want.slots[k]];
        exec_rel *out = &r->want.out[k];
        r->want.kind[k] = v->kind;
        memset(out, 0, sizeof *out);
        if (v->kind == CV_REL) cr_copy(out, v->u.rel, r->n);
        else if (v->kind == CV_UNIV) for (int i = 0; i < r->n; i++) out->row[i] = r->all;
    }
    r->want.done = true;
}

static int exec_with(cat_run *r, int i, path p)
{
    const cat_ins *in = r->m->top[i];
    if (in->slot == r->m->co_slot) {
        bool keep;
        if (with_co(r, in, &keep) != X_PASS) return X_ERROR;
        if (!keep && !r->dry) return X_PASS;
        return exec_top(r, i + 1, p);
    }
    cat_val v;
    if (!cat_eval(r, in->e, NULL, &v)) return X_ERROR;
    if (v.kind != CV_EMPTY && v.kind != CV_SET && v.kind != CV_VSET) {
        cat_type_error(r, in->e->file, in->e->line, in->e->col, "'with %s from' expects a set, found a %s", in->name,
                       cat_kind_name(v.kind));
        return X_ERROR;
    }
    elt_iter it = elts_of(&v);
    bool first = true;
    for (cat_val ev; elt_next(&it, &ev);) {
        /* each choice after the first is one more execution to check */
        if (!first && !r->dry && !model_meter_count(r->meter, 1)) {
            r->error = true;
            return X_ERROR;
        }
        first = false;
        r->globals[in->slot] = ev;
        arena_mark mk = arena_save(r->cur);
        if (exec_top(r, i + 1, p) == X_ERROR) return X_ERROR;
        arena_restore(r->cur, mk);
        if (r->dry || r->want.done) break;
    }
    return X_PASS;
}

static int exec_top(cat_run *r, int i, path p)
{
    const cat_model *m = r->m;
    for (; i < m->ntop; i++) {
        const cat_ins *in = m->top[i];
        if (!(r->want.live ? r->want.live[i] : in->live)) continue;
        if (in->op == CI_WITH) return exec_with(r, i, p);
        int res;
        if (!r->dry && ins_static(m, in)) {
            if (r->ins_cached[i]) continue;
            arena *saved = r->cur;
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
    if (r->want.n && !r->want.done) want_copy(r);
    return X_PASS;
}

bool cat_exec_top(cat_run *r)
{
    path p = {0, false};
    return exec_top(r, 0, p) != X_ERROR;
}
