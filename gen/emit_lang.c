/* A thread of a C or Java test: one statement per event in program
 * order, a fence after an access whose edge is fenced, and the three
 * dependencies diy7 makes: an address dependency adds (r & 128), which is
 * 0, to the next access's address; a data dependency adds it to the value
 * stored; a control dependency puts the rest of the thread under
 * `if (r == v)`, v being the value the witness reads. */
#include <stdio.h>
#include <string.h>
#include "gen/lang.h"

unsigned long long gen_thread_locs(const gen_cycle *c, int p)
{
    unsigned long long set = 0;
    for (int i = c->proc_start[p]; i < c->proc_start[p + 1]; i++)
        set |= 1ull << c->ev[i].loc;
    return set;
}

static void indent(strbuf *out, int depth)
{
    for (int k = 0; k < depth; k++)
        sb_add(out, "  ");
}

/* A new extra location of thread P: "f<p>" its own access fence
 * location, "fs" the shared one, "c<p>_<k>" a compare-exchange's
 * expected value.  Returns its index. */
static int extra(gen_extras *x, const char *name, bool atomic, int init)
{
    for (int k = 0; k < x->n; k++)
        if (!strcmp(x->name[k], name))
            return k;
    if (x->n == GEN_EXTRA_MAX)
        return -1;
    snprintf(x->name[x->n], sizeof x->name[x->n], "%s", name);
    x->atomic[x->n] = atomic;
    x->init[x->n] = init;
    return x->n++;
}

static bool is_cas(int op)
{
    return op == GEN_OP_CAS || op == GEN_OP_CASW;
}

/* What OP with operand K makes of OLD. */
static int apply(int op, int old, int k)
{
    switch (op) {
    case GEN_OP_ADD: return old + k;
    case GEN_OP_SUB: return old - k;
    case GEN_OP_AND: return old & k;
    case GEN_OP_OR: return old | k;
    case GEN_OP_XOR: return old ^ k;
    case GEN_OP_LD: return old;
    default: return k;     /* exchange, store, compare-exchange that succeeds */
    }
}

/* The operand that takes a location from VR to VW (gen/emit_c.c gives
 * the values of a location an or or an and writes bits that allow it). */
static int operand_for(int op, int vr, int vw)
{
    switch (op) {
    case GEN_OP_ADD: return vw - vr;
    case GEN_OP_SUB: return vr - vw;
    case GEN_OP_XOR: return vr ^ vw;
    case GEN_OP_OR: return vw & ~vr;   /* the bits it brings */
    case GEN_OP_AND: return ~vr | vw;  /* every bit but those it clears */
    default: return vw;    /* exchange, compare-exchange's desired */
    }
}

/* The operand of an access fence: one that leaves the value as it is
 * (Id), or one that changes it. */
static int fence_operand(int op, bool idem)
{
    if (op == GEN_OP_AND)
        return idem ? -1 : 0;
    return idem ? 0 : 1;
}

typedef struct thread_state {
    int nreg, ncas;
    int own;            /* the value the thread's own fence location holds */
    bool own_known;     /* ... while no weak compare-exchange may have failed on it */
} thread_state;

/* The Rmw edge whose read is event I. */
static bool rmw_event(const gen_cycle *c, const gen_lang *l, int p, int i, const char *loc, const char *addr,
                      strbuf *out, int depth, thread_state *ts, gen_final *fin, int *nfin, gen_extras *x, diag *d)
{
    const gen_arch *a = c->arch;
    const gen_edge *e = &c->e[i];
    const gen_event *r = &c->ev[i], *w = &c->ev[(i + 1) % c->n];
    if (!l->rmw)
        return gen_edge_error(d, c, i, "%s has no read-modify-write", a->name);
    int mo = gen_rmw_order(r->atom, w->atom);
    if (r->atom < 0 && w->atom < 0)
        return gen_edge_error(d, c, i, "a C read-modify-write is atomic: give its memory order "
                              "(RlxRlx, AcqRlx, ConRlx, RlxRel, AcqRel or ScSc)");
    if (mo < 0)
        return gen_edge_error(d, c, i, "no C memory order reads as %s and writes as %s (RlxRlx, AcqRlx, "
                              "ConRlx, RlxRel, AcqRel, ScSc)",
                              r->atom < 0 ? a->plain : a->atoms[r->atom], w->atom < 0 ? a->plain : a->atoms[w->atom]);
    gen_rmw_call call = {.op = e->op, .mo = mo, .fail = gen_rmw_fail_order(mo, e->fail), .loc = loc,
                         .addr = addr, .reg = e->unused ? -1 : ts->nreg++,
                         .operand = operand_for(e->op, r->v, w->v)};
    char exp[16];
    if (is_cas(e->op)) {
        snprintf(exp, sizeof exp, "c%d_%d", p, ts->ncas++);
        if (extra(x, exp, false, r->v) < 0)
            return gen_edge_error(d, c, i, "too many locations in thread %d", p);
        call.expected = exp;
    }
    indent(out, depth);
    l->rmw(out, a, &call);
    if (call.reg >= 0) {
        gen_final *f = &fin[(*nfin)++];
        memset(f, 0, sizeof *f);
        f->proc = p;
        snprintf(f->reg, sizeof f->reg, "r%d", call.reg);
        f->v = is_cas(e->op) ? 1 : r->v;    /* a compare-exchange says it succeeded */
    }
    return true;
}

/* The access fence of edge I, after its source event. */
static bool access_fence(const gen_cycle *c, const gen_lang *l, int p, int i, strbuf *out, int depth,
                         thread_state *ts, gen_final *fin, int *nfin, gen_extras *x, diag *d)
{
    const gen_arch *a = c->arch;
    const gen_edge *e = &c->e[i];
    if (!l->rmw)
        return gen_edge_error(d, c, i, "%s has no atomic access to make a fence of", a->name);
    char loc[16], exp[16];
    if (e->shared)
        snprintf(loc, sizeof loc, "fs");
    else
        snprintf(loc, sizeof loc, "f%d", p);
    if (extra(x, loc, true, 0) < 0)
        return gen_edge_error(d, c, i, "too many locations in thread %d", p);
    bool known = !e->shared && ts->own_known;
    int old = known ? ts->own : 0;
    gen_rmw_call call = {.op = e->op, .mo = e->mo, .fail = gen_rmw_fail_order(e->mo, e->fail), .loc = loc,
                         .reg = e->op == GEN_OP_ST || e->unused ? -1 : ts->nreg++,
                         .operand = fence_operand(e->op, e->idem)};
    if (e->idem && (e->op == GEN_OP_XCHG || e->op == GEN_OP_ST))
        call.operand = old;     /* the value the location holds */
    if (is_cas(e->op)) {
        snprintf(exp, sizeof exp, "c%d_%d", p, ts->ncas++);
        /* it expects what the location holds when the thread alone
         * writes it (0 on the shared one); Id writes that back */
        if (extra(x, exp, false, old) < 0)
            return gen_edge_error(d, c, i, "too many locations in thread %d", p);
        call.expected = exp;
        if (e->idem)
            call.operand = old;
    }
    indent(out, depth);
    l->rmw(out, a, &call);
    int result = is_cas(e->op) ? 1 : old;
    if (!e->shared) {
        if (e->op == GEN_OP_CASW)
            ts->own_known = false;      /* it may fail spuriously */
        else
            ts->own = apply(e->op, old, call.operand);
    }
    if (call.reg >= 0 && known && e->op != GEN_OP_CASW) {
        /* a value only the thread writes is known: the condition says it
         * (another result is kept in its register, not in the condition) */
        gen_final *f = &fin[(*nfin)++];
        memset(f, 0, sizeof *f);
        f->proc = p;
        snprintf(f->reg, sizeof f->reg, "r%d", call.reg);
        f->v = result;
    }
    return true;
}

bool gen_lang_thread(const gen_cycle *c, const gen_lang *l, int p, strbuf *out, gen_final *fin, int *nfin,
                     gen_extras *x, diag *d)
{
    const gen_arch *a = c->arch;
    int depth = 1;
    thread_state ts = {.own_known = true};
    char dep_reg[16] = "";
    int dep_kind = -1;
    for (int i = c->proc_start[p]; i < c->proc_start[p + 1]; i++) {
        const gen_event *ev = &c->ev[i];
        const gen_edge *e = &c->e[i];
        char loc[8], reg[16];
        gen_loc_name(ev->loc, loc, sizeof loc);
        const char *addr = dep_kind == GEN_DP_ADDR ? dep_reg : NULL;
        const char *data = dep_kind == GEN_DP_DATA ? dep_reg : NULL;
        int r = -1;
        if (ev->rmw && ev->dir == GD_R) {
            if (!rmw_event(c, l, p, i, loc, addr, out, depth, &ts, fin, nfin, x, d))
                return false;
        } else if (ev->rmw) {
            /* the write of the read-modify-write printed with its read */
        } else if (ev->dir == GD_R) {
            r = ts.nreg++;
            indent(out, depth);
            l->load(out, a, r, loc, ev->atom, addr);
        } else {
            indent(out, depth);
            l->store(out, a, loc, ev->v, ev->atom, addr, data);
        }
        if (r >= 0) {
            gen_final *f = &fin[(*nfin)++];
            memset(f, 0, sizeof *f);
            f->proc = p;
            snprintf(f->reg, sizeof f->reg, "r%d", r);
            f->v = ev->v;
            snprintf(reg, sizeof reg, "r%d", r);
        }
        dep_kind = -1;
        if (e->kind == GK_FENCED && e->afence) {
            if (!access_fence(c, l, p, i, out, depth, &ts, fin, nfin, x, d))
                return false;
        } else if (e->kind == GK_FENCED) {
            indent(out, depth);
            l->fence(out, a, e->fence);
        } else if (e->kind == GK_DP && i + 1 < c->proc_start[p + 1]) {
            if (r < 0)
                return gen_edge_error(d, c, i, "a dependency must start from a read");
            if (e->dp == GEN_DP_CTRL) {
                indent(out, depth);
                sb_printf(out, "if (%s == %d) {\n", reg, ev->v);
                depth++;
            } else {
                dep_kind = e->dp;
                snprintf(dep_reg, sizeof dep_reg, "%s", reg);
            }
        }
    }
    while (--depth > 0) {
        indent(out, depth);
        sb_add(out, "}\n");
    }
    return true;
}
