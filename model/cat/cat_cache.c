/* A cat run's life: creating and freeing it, and checking one candidate,
 * with the cache of what depends only on the event structure (the events
 * and po, not rf, co, FW or values).  Successive candidates of one test
 * mostly share their structure, so those values (and the top-level lets
 * that only use them, see cat_exec.c) are computed once per structure.
 * Separate from the evaluator: this decides when cached values are still
 * valid, the evaluator only computes them. */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "model/cat/cat_impl.h"
#include "model/cat/cat_rel.h"
#include "util/mem.h"

uintptr_t cat_stack_budget(void)
{
    struct rlimit rl;
    uintptr_t budget = CAT_STACK_BUDGET;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / 2 < budget)
        budget = (uintptr_t)(rl.rlim_cur / 2);
    return budget;
}

/* ---- entry points ----------------------------------------------------------------------- */
cat_run *cat_run_new(const cat_model *m)
{
    cat_run *r = xcalloc(1, sizeof *r);
    r->m = m;
    r->stack_budget = cat_stack_budget();
    r->globals = xcalloc((size_t)m->nglobals, sizeof *r->globals);
    r->ins_cached = xcalloc((size_t)(m->ntop + 1), sizeof *r->ins_cached);
    r->key = xcalloc(1, sizeof *r->key);
    r->virt = xcalloc(EXEC_MAX, sizeof *r->virt);
    return r;
}

void cat_run_set_meter(cat_run *r, model_meter *m)
{
    r->meter = m;
}

void cat_run_free(cat_run *r)
{
    if (!r) return;
    arena_free(&r->arena);
    arena_free(&r->static_arena);
    free(r->globals);
    free(r->ins_cached);
    free(r->key);
    free(r->virt);
    free(r);
}

/* The static values are those computed from the fields compared here. */
static bool same_structure(const exec *a, const exec *b)
{
    if (a->n != b->n) return false;
    int n = a->n;
    for (int i = 0; i < n; i++) {
        const exec_event *x = &a->ev[i], *y = &b->ev[i];
        if (x->kind != y->kind || x->thread != y->thread || x->poi != y->poi || x->loc != y->loc ||
            x->mode != y->mode || x->fence != y->fence || x->is_rmw != y->is_rmw || x->rmw_op != y->rmw_op)
            return false;
    }
    return cr_equal(&a->po, &b->po, n) && cr_equal(&a->rmw, &b->rmw, n) && cr_equal(&a->addr, &b->addr, n) &&
           cr_equal(&a->data, &b->data, n) && cr_equal(&a->ctrl, &b->ctrl, n) &&
           cr_equal(&a->pick, &b->pick, n) && cr_equal(&a->pick_addr, &b->pick_addr, n) &&
           cr_equal(&a->pick_data, &b->pick_data, n);
}

static void remember_structure(exec *k, const exec *x)
{
    k->n = x->n;
    memcpy(k->ev, x->ev, (size_t)x->n * sizeof x->ev[0]);
    cr_copy(&k->po, &x->po, x->n);
    cr_copy(&k->rmw, &x->rmw, x->n);
    cr_copy(&k->addr, &x->addr, x->n);
    cr_copy(&k->data, &x->data, x->n);
    cr_copy(&k->ctrl, &x->ctrl, x->n);
    cr_copy(&k->pick, &x->pick, x->n);
    cr_copy(&k->pick_addr, &x->pick_addr, x->n);
    cr_copy(&k->pick_data, &x->pick_data, x->n);
}

static void make_constants(cat_run *r)
{
    arena *saved = r->cur;
    r->cur = &r->static_arena;
    r->zero = cat_new_rel(r);
    cr_clear(r->zero, r->n);
    r->univ = cat_new_rel(r);
    for (int i = 0; i < r->n; i++) r->univ->row[i] = r->all;
    r->ident = cat_new_rel(r);
    cr_toid(r->ident, r->all, r->n);
    r->cur = saved;
}

bool cat_run_check(cat_run *r, const exec *x, cat_verdict *out, diag *d)
{
    memset(out, 0, sizeof *out);
    r->stack_base = (uintptr_t)__builtin_frame_address(0);
    r->x = x;
    r->out = out;
    r->d = d;
    r->error = false;
    r->cur = &r->arena;
    arena_reset(&r->arena);
    bool fresh = !r->have_key || r->dry || !same_structure(r->key, x);
    if (fresh && !cat_a64_layout(r)) {
        r->have_key = false;
        diag_fail(d, "model %s: a test of %d events whose registers and branches make more than %d",
                  r->m->name, x->n, EXEC_MAX);
        return false;
    }
    r->n = x->n + r->nvirt;
    r->all = cr_all(r->n);
    if (fresh) {
        arena_reset(&r->static_arena);
        memset(r->ins_cached, 0, (size_t)(r->m->ntop + 1) * sizeof *r->ins_cached);
        make_constants(r);
        r->cur = &r->static_arena;
        cat_prim_fill(r, true, false);
        r->cur = &r->arena;
        remember_structure(r->key, x);
        r->have_key = true;
    }
    cat_prim_fill(r, false, true);
    if (!cat_exec_top(r)) {
        /* A failed evaluation leaves no cache behind. */
        r->have_key = false;
        return false;
    }
    return true;
}

bool cat_check(const cat_model *m, const exec *x, cat_verdict *out, diag *d)
{
    cat_run *r = cat_run_new(m);
    bool ok = cat_run_check(r, x, out, d);
    cat_run_free(r);
    return ok;
}
