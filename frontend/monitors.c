/* Java monitors: the locations that `synchronized (M)` names through a
 * handle bound in the init (`0:M=m`).  A monitor is a lock, not data, so
 * nothing else may touch it: no VarHandle call through a handle bound to
 * it, no initial value other than 0 (free), no condition that observes it.
 * The IR refuses the same (ir/locks.c), but here each misuse is reported at
 * its place in the source. */
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "frontend/internal.h"
#include "util/mem.h"

typedef struct monitors {
    const fe_test *t;
    const char *file;
    diag *d;
    const char **names;     /* monitor locations, borrowed from the tree */
    fe_pos *first;          /* where each is first synchronized on */
    int n;
} monitors;

/* The location handle H of thread TH is bound to in the init, or NULL. */
static const char *bound_to(const fe_test *t, int th, const char *h)
{
    for (int i = 0; i < t->ninit; i++) {
        const fe_init *in = &t->init[i];
        if (in->loc.kind == FE_LOC_REG && in->loc.thread == th && !strcmp(in->loc.name, h) && in->has_value &&
            in->value.kind == FE_VAL_ADDR)
            return in->value.sym;
    }
    return NULL;
}

static int find(const monitors *m, const char *loc)
{
    for (int i = 0; loc && i < m->n; i++)
        if (!strcmp(m->names[i], loc))
            return i;
    return -1;
}

static bool collect(monitors *m, const fe_thread *th, const fe_stmt *s)
{
    if (!s)
        return true;
    if (s->kind == FE_S_SYNC) {
        const char *loc = bound_to(m->t, th->id, s->name);
        if (!loc)
            return diag_error(m->d, m->file, s->pos.line, s->pos.col,
                              "synchronized (%s): handle %s is not bound to a location (the init needs %d:%s=m)",
                              s->name, s->name, th->id, s->name);
        if (find(m, loc) < 0) {
            m->names = xrealloc(m->names, (size_t)(m->n + 1) * sizeof *m->names);
            m->first = xrealloc(m->first, (size_t)(m->n + 1) * sizeof *m->first);
            m->names[m->n] = loc;
            m->first[m->n++] = s->pos;
        }
    }
    if (!collect(m, th, s->then_s) || !collect(m, th, s->else_s))
        return false;
    for (int i = 0; i < s->nbody; i++)
        if (!collect(m, th, s->body[i]))
            return false;
    return true;
}

static bool data_use(const monitors *m, const fe_thread *th, const fe_expr *e)
{
    if (!e)
        return true;
    if (e->kind == FE_E_JCALL && e->name) {
        int k = find(m, bound_to(m->t, th->id, e->name));
        if (k >= 0)
            return diag_error(m->d, m->file, e->pos.line, e->pos.col,
                              "%s.%s: %s is bound to %s, the monitor of synchronized at line %d; a monitor is not "
                              "data", e->name, fe_jmethod_name(e->jmethod, e->jmode), e->name, m->names[k],
                              m->first[k].line);
    }
    if (!data_use(m, th, e->l) || !data_use(m, th, e->r))
        return false;
    for (int i = 0; i < e->nargs; i++)
        if (!data_use(m, th, e->args[i]))
            return false;
    return true;
}

static bool data_uses(const monitors *m, const fe_thread *th, const fe_stmt *s)
{
    if (!s)
        return true;
    if (!data_use(m, th, s->e) || !data_use(m, th, s->addr) || !data_uses(m, th, s->then_s) ||
        !data_uses(m, th, s->else_s))
        return false;
    for (int i = 0; i < s->nbody; i++)
        if (!data_uses(m, th, s->body[i]))
            return false;
    return true;
}

static bool observed(const monitors *m, const fe_loc *l)
{
    if (l->kind != FE_LOC_MEM || find(m, l->name) < 0)
        return true;
    return diag_error(m->d, m->file, l->pos.line, l->pos.col,
                      "the condition observes %s, the monitor of synchronized at line %d; a monitor is not data",
                      l->name, m->first[find(m, l->name)].line);
}

static bool prop_ok(const monitors *m, const fe_prop *p)
{
    if (!p)
        return true;
    if (p->kind == FE_P_ATOM)
        return observed(m, &p->lhs) && (!p->rhs_is_loc || observed(m, &p->rhs_loc));
    return prop_ok(m, p->l) && prop_ok(m, p->r);
}

static bool init_ok(const monitors *m)
{
    for (int i = 0; i < m->t->ninit; i++) {
        const fe_init *in = &m->t->init[i];
        if (in->loc.kind == FE_LOC_MEM && find(m, in->loc.name) >= 0 && in->has_value &&
            (in->value.kind != FE_VAL_INT || in->value.i != 0))
            return diag_error(m->d, m->file, in->loc.pos.line, in->loc.pos.col,
                              "monitor %s starts with a value: a monitor starts free (0 or no value)",
                              in->loc.name);
        if (in->loc.kind == FE_LOC_MEM && in->has_value && in->value.kind == FE_VAL_ADDR &&
            find(m, in->value.sym) >= 0)
            return diag_error(m->d, m->file, in->value.pos.line, in->value.pos.col,
                              "%s holds monitor %s: a monitor is not data", in->loc.name, in->value.sym);
    }
    return true;
}

bool fe_check_monitors(const fe_test *t, const char *file, diag *d)
{
    monitors m = {t, file, d, NULL, NULL, 0};
    bool ok = true;
    for (int i = 0; ok && i < t->nthreads; i++)
        ok = collect(&m, &t->threads[i], t->threads[i].body);
    for (int i = 0; ok && m.n && i < t->nthreads; i++)
        ok = data_uses(&m, &t->threads[i], t->threads[i].body);
    if (ok && m.n)
        ok = init_ok(&m) && prop_ok(&m, t->cond.prop) && prop_ok(&m, t->cond.filter);
    for (int i = 0; ok && m.n && i < t->cond.nlocations; i++)
        ok = observed(&m, &t->cond.locations[i]);
    free(m.names);
    free(m.first);
    return ok;
}

const char *fe_handle_loc(const fe_test *t, int thread, const char *handle)
{
    return bound_to(t, thread, handle);
}

const char **fe_monitor_locs(const fe_test *t, int *n)
{
    monitors m = {t, "", NULL, NULL, NULL, 0};
    diag quiet = {0};
    m.d = &quiet;
    for (int i = 0; t->arch == FE_ARCH_JAVA && i < t->nthreads; i++)
        collect(&m, &t->threads[i], t->threads[i].body);   /* an unbound handle names none */
    free(m.first);
    *n = m.n;
    return m.names;
}
