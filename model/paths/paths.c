/* Stage 1 of enumeration: every path through a thread's loop-free SSA,
 * with symbolic values (see paths.h).  A branch whose condition is already a
 * constant follows one side; any other branch, and every compare-exchange,
 * forks into both outcomes with the matching assumption, as herd does. */
#include <stdlib.h>
#include <string.h>
#include "model/paths/paths_impl.h"
#include "util/mem.h"

/* A path at its RET (CUT: at a loop past its bound) becomes a tpath: its
 * events, assumptions, and the final value of each source register. */
static void finish_path(walker *k, walk *w, const ir_instr *cut)
{
    if ((int)k->np >= PATHS_MAX) {
        paths_fail(k, NULL, "too many paths through the thread");
        return;
    }
    tpath p;
    memset(&p, 0, sizeof p);
    p.nev = (int)w->nev;
    p.ev = xmalloc((w->nev ? w->nev : 1) * sizeof *p.ev);
    if (w->nev)
        memcpy(p.ev, w->ev, w->nev * sizeof *p.ev);
    p.ncond = (int)w->ncond;
    p.cond = xmalloc((w->ncond ? w->ncond : 1) * sizeof *p.cond);
    if (w->ncond)
        memcpy(p.cond, w->cond, w->ncond * sizeof *p.cond);
    p.nslots = w->nslots;
    p.cut = cut;
    p.slot_ev = xmalloc((size_t)(w->nslots ? w->nslots : 1) * sizeof(int));
    for (int i = 0; i < p.nev; i++)
        if (p.ev[i].kind & EV_R)
            p.slot_ev[p.ev[i].rslot] = i;
    const ir_thread *th = k->th;
    p.final = xmalloc((size_t)(th->nfinal_regs ? th->nfinal_regs : 1) * sizeof(int));
    for (int i = 0; i < th->nfinal_regs; i++) {
        int e;
        ir_operand v = th->final_regs[i].value;
        if (v.kind == IR_OPND_IMM)
            e = vx_const(&k->out->pool, v.imm);
        else if (v.kind == IR_OPND_VAL && v.val >= 0 && v.val < th->nvals && w->env[v.val] >= 0)
            e = w->env[v.val];
        else
            e = vx_const(&k->out->pool, 0);     /* not written on this path: herd reads 0 */
        p.final[i] = e;
    }
    VEC_PUSH(k->out->p, k->np, k->pcap, p);
    k->out->np = (int)k->np;
}

/* Which predecessor of B is PREV: the phi argument a path takes. */
static int pred_index(const ir_block *b, int prev)
{
    for (int i = 0; i < b->npreds; i++)
        if (b->preds[i] == prev)
            return i;
    return -1;
}

/* The NPHI phis at the start of B, entered from PREV: they read their
 * arguments simultaneously. */
static bool run_phis(walker *k, walk *w, const ir_block *b, int nphi, int prev)
{
    int pi = pred_index(b, prev);
    int vals[nphi];
    for (int i = 0; i < nphi; i++) {
        const ir_instr *in = &b->instrs[i];
        if (pi < 0 || pi >= in->nphi_args)
            return paths_fail(k, in, "phi without an argument for its predecessor");
        if (!paths_operand(k, w, in->phi_args[pi], in, &vals[i]))
            return false;
    }
    for (int i = 0; i < nphi; i++)
        if (b->instrs[i].dst >= 0)
            w->env[b->instrs[i].dst] = w->sel_pick ? vx_picked(&k->out->pool, vals[i], w->sel_pick) : vals[i];
    if (nphi)
        w->sel_pick = 0;
    return true;
}

/* Run W from instruction FROM of BLOCK (entered from PREV) to the end of
 * the thread, recording each finished path. */
void paths_run_from(walker *k, walk *w, int block, int prev, int from)
{
    const ir_thread *th = k->th;
    vpool *p = &k->out->pool;
    for (;;) {
        if (k->failed)
            return;
        if (block < 0 || block >= th->nblocks) {
            paths_fail(k, NULL, "branch to a block that does not exist");
            return;
        }
        const ir_block *b = &th->blocks[block];
        int nphi = 0;
        while (nphi < b->ninstrs && b->instrs[nphi].op == IR_PHI)
            nphi++;
        if (from == 0 && nphi && !run_phis(k, w, b, nphi, prev))
            return;
        if (from == 0 && b->npreds > 1)
            w->sel_pick = 0;    /* a select's join: its pick ends here, phi or none */
        int i = from > nphi ? from : nphi;
        from = 0;
        for (; i < b->ninstrs; i++) {
            const ir_instr *in = &b->instrs[i];
            int a = -1, c = -1;
            if ((in->op == IR_LOAD || in->op == IR_STORE || in->op == IR_RMW) &&
                w->forced_in != in && in->addr.kind == IR_OPND_VAL) {
                int ae = -1;
                if (!paths_operand(k, w, in->addr, in, &ae))
                    return;
                if (!vx_is_const(p, ae)) {
                    /* One path per location the address may name. */
                    for (int l = 0; l < k->t->nlocs && !k->failed; l++) {
                        walk w2;
                        paths_walk_clone(&w2, w, th->nvals);
                        paths_add_cond(&w2, vx_bin(p, IR_EQ, ae, vx_const(p, IR_ADDR(l))), true);
                        w2.forced_in = in;
                        w2.forced_loc = l;
                        paths_run_from(k, &w2, block, prev, i);
                        paths_walk_free(&w2);
                    }
                    return;
                }
            }
            switch (in->op) {
            case IR_PHI:
                paths_fail(k, in, "phi after the start of a block");
                return;
            case IR_LOAD:
            case IR_STORE:
                if (in->op == IR_STORE && in->excl) {
                    /* the writing side on a copy when this path may take it */
                    bool can = false;
                    if (!paths_excl_reserved(k, w, in, &can))
                        return;
                    if (can) {
                        walk w2;
                        paths_walk_clone(&w2, w, th->nvals);
                        if (paths_store_excl(k, &w2, in, true))
                            paths_run_from(k, &w2, block, prev, i + 1);
                        paths_walk_free(&w2);
                    }
                    if (!paths_store_excl(k, w, in, false))
                        return;
                    break;
                }
                if (!paths_access(k, w, in))
                    return;
                break;
            case IR_RMW:
            case IR_LOCK:
                /* A CAS, or a trylock: both outcomes, the failing one on a copy. */
                if ((in->op == IR_RMW && in->rmw_op == IR_RMW_CAS) || (in->op == IR_LOCK && in->dst >= 0)) {
                    /* an AArch64 CAS: each side in herd's two forms (paths_rmw) */
                    const paths_shape *shape = paths_shape_of(k->t->arch);
                    bool forms = in->op == IR_RMW && shape && shape->cas_forms;
                    for (int f = 0; f < (forms ? 3 : 1); f++) {
                        walk w2;
                        paths_walk_clone(&w2, w, th->nvals);
                        bool ok = in->op == IR_LOCK ? paths_lock(k, &w2, in, false)
                                                    : paths_rmw(k, &w2, in, f == 2, f == 2 ? 0 : f);
                        if (ok)
                            paths_run_from(k, &w2, block, prev, i + 1);
                        paths_walk_free(&w2);
                    }
                    if (forms) {
                        if (!paths_rmw(k, w, in, true, 1))
                            return;
                        break;
                    }
                }
                if (!(in->op == IR_RMW ? paths_rmw(k, w, in, true, 0) : paths_lock(k, w, in, true)))
                    return;
                break;
            case IR_UNLOCK:
                if (!paths_lock(k, w, in, true))
                    return;
                break;
            case IR_FENCE: {
                tev e = paths_new_event(EV_F, in);
                e.fence = in->fence;
                paths_add_event(w, e);
                break;
            }
            case IR_BIN:
                if (!paths_operand(k, w, in->a, in, &a) || !paths_operand(k, w, in->b, in, &c))
                    return;
                if (in->dst >= 0)
                    w->env[in->dst] = vx_bin(p, in->binop, a, c);
                break;
            case IR_BR: {
                if (!paths_operand(k, w, in->a, in, &a))
                    return;
                if (vx_is_const(p, a)) {
                    if (!in->select)
                        w->ctrl |= p->e[a].pdeps;    /* a branch on a value only picked */
                    prev = block;
                    block = p->e[a].c != 0 ? in->then_block : in->else_block;
                    goto next_block;
                }
                /* a select (CSEL) chooses a value: no control dependency */
                uint64_t cdeps = in->select ? 0 : p->e[a].deps | p->e[a].pdeps;
                /* ... but it picks the value chosen (herd's iico_ctrl from the
                 * flags), which the phi at the join takes */
                uint64_t spick = in->select ? p->e[a].deps | p->e[a].pdeps : 0;
                walk w2;
                paths_walk_clone(&w2, w, th->nvals);
                paths_add_cond(&w2, a, false);
                w2.ctrl |= cdeps;
                w2.sel_pick |= spick;
                paths_run_from(k, &w2, in->else_block, block, 0);
                paths_walk_free(&w2);
                paths_add_cond(w, a, true);
                w->ctrl |= cdeps;
                w->sel_pick |= spick;
                prev = block;
                block = in->then_block;
                goto next_block;
            }
            case IR_JMP:
                prev = block;
                block = in->then_block;
                goto next_block;
            case IR_RET:
                finish_path(k, w, NULL);
                return;
            case IR_CUT:
                finish_path(k, w, in);
                return;
            default:
                paths_fail(k, in, "unknown instruction");
                return;
            }
        }
        paths_fail(k, NULL, "block without a terminator");
        return;
    next_block:;
    }
}

/* One walk from the entry; every fork runs its other side on a copy. */
bool paths_thread(const ir_test *t, const ir_thread *th, bool lock_events, tpaths *out, diag *d)
{
    memset(out, 0, sizeof *out);
    walker k = {.t = t, .th = th, .out = out, .d = d, .lock_events = lock_events};
    walk w;
    memset(&w, 0, sizeof w);
    w.env = xmalloc((size_t)(th->nvals ? th->nvals : 1) * sizeof(int));
    for (int i = 0; i < th->nvals; i++)
        w.env[i] = -1;
    if (th->nblocks == 0)
        paths_fail(&k, NULL, "thread without code");
    else
        paths_run_from(&k, &w, 0, -1, 0);
    paths_walk_free(&w);
    if (k.failed) {
        tpaths_free(out);
        return false;
    }
    return true;
}

/* What paths_thread made, all of it. */
void tpaths_free(tpaths *tp)
{
    for (int i = 0; i < tp->np; i++) {
        free(tp->p[i].ev);
        free(tp->p[i].slot_ev);
        free(tp->p[i].cond);
        free(tp->p[i].final);
    }
    free(tp->p);
    vp_free(&tp->pool);
    memset(tp, 0, sizeof *tp);
}
