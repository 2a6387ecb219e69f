/* A path's state being run (paths_impl.h's walk): copying it at a fork,
 * reading its operands and addresses, and growing it by an event, an
 * assumption or a read slot. */
#include <stdlib.h>
#include <string.h>
#include "model/paths/paths_impl.h"
#include "util/mem.h"

/* A fork runs each side on its own copy: the environment, events and
 * assumptions are copied, not shared. */
void paths_walk_clone(walk *dst, const walk *src, int nvals)
{
    dst->env = xmalloc((size_t)(nvals ? nvals : 1) * sizeof(int));
    if (nvals)
        memcpy(dst->env, src->env, (size_t)nvals * sizeof(int));
    dst->nev = src->nev;
    dst->cap = src->nev ? src->nev : 1;
    dst->ev = xmalloc(dst->cap * sizeof *dst->ev);
    if (src->nev)
        memcpy(dst->ev, src->ev, src->nev * sizeof *dst->ev);
    dst->ncond = src->ncond;
    dst->ccap = src->ncond ? src->ncond : 1;
    dst->cond = xmalloc(dst->ccap * sizeof *dst->cond);
    if (src->ncond)
        memcpy(dst->cond, src->cond, src->ncond * sizeof *dst->cond);
    dst->nslots = src->nslots;
    dst->ctrl = src->ctrl;
    dst->forced_in = src->forced_in;
    dst->forced_loc = src->forced_loc;
    dst->resv = src->resv;
    dst->sel_pick = src->sel_pick;
}

/* What a walk owns (its copy of the path so far). */
void paths_walk_free(walk *w)
{
    free(w->env);
    free(w->ev);
    free(w->cond);
}

/* The first failure is the one reported: later ones follow from it. */
bool paths_fail(walker *k, const ir_instr *in, const char *msg)
{
    if (!k->failed)
        diag_error(k->d, k->t->file ? k->t->file : "", in ? in->line : 0,
                   in ? in->col : 0, "%s (thread %s)", msg, k->th->name);
    k->failed = true;
    return false;
}

/* An operand's expression; an SSA value not defined on this path is a
 * malformed thread, not a value of 0. */
bool paths_operand(walker *k, walk *w, ir_operand o, const ir_instr *in, int *out)
{
    vpool *p = &k->out->pool;
    switch (o.kind) {
    case IR_OPND_IMM:
        *out = vx_const(p, o.imm);
        return true;
    case IR_OPND_VAL:
        if (o.val < 0 || o.val >= k->th->nvals || w->env[o.val] < 0)
            return paths_fail(k, in, "use of an undefined SSA value");
        *out = w->env[o.val];
        return true;
    case IR_OPND_NONE:
        break;
    }
    return paths_fail(k, in, "missing operand");
}

/* The location an access touches.  Addresses must be settled on the path:
 * herd's corpora only compute addresses from constants and init values. */
bool paths_address(walker *k, walk *w, const ir_instr *in, int *loc, uint64_t *deps, uint64_t *pdeps)
{
    int e = -1;
    if (!paths_operand(k, w, in->addr, in, &e))
        return false;
    const vexpr *x = &k->out->pool.e[e];
    *deps = x->deps;
    if (pdeps)
        *pdeps = x->pdeps;
    if (x->op != VX_CONST) {
        if (w->forced_in != in)
            return paths_fail(k, in, "address computed from a value read from memory");
        *loc = w->forced_loc;
        return true;
    }
    if (!IR_IS_ADDR(x->c) || IR_ADDR_LOC(x->c) < 0 || IR_ADDR_LOC(x->c) >= k->t->nlocs)
        return paths_fail(k, in, "access to something that is not a location");
    *loc = IR_ADDR_LOC(x->c);
    return true;
}

/* Every event carries the control dependencies of the path so far. */
void paths_add_event(walk *w, tev e)
{
    e.ctrl_deps = w->ctrl;
    VEC_PUSH(w->ev, w->nev, w->cap, e);
}

/* The path's assumptions, which the solver later checks together. */
void paths_add_cond(walk *w, int e, bool nonzero)
{
    tcond c = {e, nonzero};
    VEC_PUSH(w->cond, w->ncond, w->ccap, c);
}

/* An event with every index unset (-1) and the mode of its instruction. */
tev paths_new_event(unsigned kind, const ir_instr *in)
{
    tev e;
    memset(&e, 0, sizeof e);
    e.kind = kind;
    e.loc = -1;
    e.rslot = -1;
    e.wval = -1;
    e.partner = -1;
    e.lxsx = -1;
    e.mode = in->mode;
    e.instr = in;
    return e;
}

/* A read slot is one bit of the dependency sets. */
bool paths_new_slot(walker *k, walk *w, const ir_instr *in, int *slot)
{
    /* Read slots are bits of the dependency sets (uint64_t): a stated limit
     * of the tool, not a fault of the test, so exit 3. */
    if (w->nslots >= 64) {
        paths_fail(k, in, "more than 64 reads on one path of a thread: at most 64 are supported");
        k->d->status = 3;
        return false;
    }
    *slot = w->nslots++;
    return true;
}
