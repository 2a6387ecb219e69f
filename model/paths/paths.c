/* Stage 1 of enumeration: every path through a thread's loop-free SSA,
 * with symbolic values (see paths.h).  A branch whose condition is already a
 * constant follows one side; any other branch, and every compare-exchange,
 * forks into both outcomes with the matching assumption, as herd does. */
#include <stdlib.h>
#include <string.h>
#include "model/paths/paths.h"
#include "util/mem.h"

typedef struct walk {
    int *env;                   /* SSA value -> expression, -1 = undefined */
    tev *ev;
    size_t nev, cap;
    tcond *cond;
    size_t ncond, ccap;
    int nslots;
    uint64_t ctrl;              /* read slots the path's branches depend on */
    /* An access whose address is computed from a read: this path assumes
     * it touches forced_loc (one path per location, as herd's solver
     * would find by case analysis). */
    const ir_instr *forced_in;
    int forced_loc;
    /* AArch64: 1 + the index in ev of the load-exclusive whose
     * reservation is open, 0 when none (see store_excl) */
    int resv;
    /* read slots that picked the value a CSEL chose, for the phi that
     * takes it (the select branch's join) */
    uint64_t sel_pick;
} walk;

typedef struct walker {
    const ir_test *t;
    const ir_thread *th;
    tpaths *out;
    size_t np, pcap;
    diag *d;
    bool failed;
    bool lock_events;       /* locks are herd's lock events (paths_thread) */
} walker;

static void walk_clone(walk *dst, const walk *src, int nvals)
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

static void walk_free(walk *w)
{
    free(w->env);
    free(w->ev);
    free(w->cond);
}

static bool fail(walker *k, const ir_instr *in, const char *msg)
{
    if (!k->failed)
        diag_error(k->d, k->t->file ? k->t->file : "", in ? in->line : 0,
                   in ? in->col : 0, "%s (thread %s)", msg, k->th->name);
    k->failed = true;
    return false;
}

static bool operand(walker *k, walk *w, ir_operand o, const ir_instr *in, int *out)
{
    vpool *p = &k->out->pool;
    switch (o.kind) {
    case IR_OPND_IMM:
        *out = vx_const(p, o.imm);
        return true;
    case IR_OPND_VAL:
        if (o.val < 0 || o.val >= k->th->nvals || w->env[o.val] < 0)
            return fail(k, in, "use of an undefined SSA value");
        *out = w->env[o.val];
        return true;
    case IR_OPND_NONE:
        break;
    }
    return fail(k, in, "missing operand");
}

/* The location an access touches.  Addresses must be settled on the path:
 * herd's corpora only compute addresses from constants and init values. */
static bool address(walker *k, walk *w, const ir_instr *in, int *loc, uint64_t *deps, uint64_t *pdeps)
{
    int e = -1;
    if (!operand(k, w, in->addr, in, &e))
        return false;
    const vexpr *x = &k->out->pool.e[e];
    *deps = x->deps;
    if (pdeps)
        *pdeps = x->pdeps;
    if (x->op != VX_CONST) {
        if (w->forced_in != in)
            return fail(k, in, "address computed from a value read from memory");
        *loc = w->forced_loc;
        return true;
    }
    if (!IR_IS_ADDR(x->c) || IR_ADDR_LOC(x->c) < 0 || IR_ADDR_LOC(x->c) >= k->t->nlocs)
        return fail(k, in, "access to something that is not a location");
    *loc = IR_ADDR_LOC(x->c);
    return true;
}

static void add_event(walk *w, tev e)
{
    e.ctrl_deps = w->ctrl;
    VEC_PUSH(w->ev, w->nev, w->cap, e);
}

static void add_cond(walk *w, int e, bool nonzero)
{
    tcond c = {e, nonzero};
    VEC_PUSH(w->cond, w->ncond, w->ccap, c);
}

static tev new_event(unsigned kind, const ir_instr *in)
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

static void finish_path(walker *k, walk *w, const ir_instr *cut)
{
    if ((int)k->np >= PATHS_MAX) {
        fail(k, NULL, "too many paths through the thread");
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

static bool new_slot(walker *k, walk *w, const ir_instr *in, int *slot)
{
    /* Read slots are bits of the dependency sets (uint64_t): a stated limit
     * of the tool, not a fault of the test, so exit 3. */
    if (w->nslots >= 64) {
        fail(k, in, "more than 64 reads on one path of a thread: at most 64 are supported");
        k->d->status = 3;
        return false;
    }
    *slot = w->nslots++;
    return true;
}

static void run_from(walker *k, walk *w, int block, int prev, int from);

/* RMW at instruction IN.  SUCCESS says, for a compare-exchange, which
 * outcome this path takes (ignored otherwise). */
/* Java's compareAndExchange as herd runs it: a read of the location with
 * the read mode, and then either failure (that read saw a value other than
 * the expected one) or an RMW event, with the merged mode, whose read
 * takes the expected value; the first read is then unconstrained. */
static bool java_cas(walker *k, walk *w, const ir_instr *in, bool success)
{
    vpool *p = &k->out->pool;
    int loc = -1, s1 = 0, s2 = 0, expected = -1, nv = -1;
    uint64_t adeps;
    if (!address(k, w, in, &loc, &adeps, NULL) || !operand(k, w, in->b, in, &expected) ||
        !operand(k, w, in->a, in, &nv) || !new_slot(k, w, in, &s1))
        return false;
    tev r = new_event(EV_R, in);
    r.loc = loc; r.rslot = s1; r.addr_deps = adeps;
    r.mode = in->fail_mode != IR_MODE_NONE ? in->fail_mode : in->mode;
    add_event(w, r);
    int v1 = vx_read(p, s1);
    if (!success) {
        /* A weak CAS may fail whatever it read. */
        if (!in->weak)
            add_cond(w, vx_bin(p, IR_EQ, v1, expected), false);
        if (in->dst >= 0)
            w->env[in->dst] = v1;
        return true;
    }
    if (!new_slot(k, w, in, &s2))
        return false;
    tev e = new_event(EV_R | EV_W, in);
    e.loc = loc; e.rslot = s2; e.wval = nv; e.rmw_op = IR_RMW_CAS; e.is_rmw = true;
    e.addr_deps = adeps; e.data_deps = p->e[nv].deps;
    add_event(w, e);
    add_cond(w, vx_bin(p, IR_EQ, vx_read(p, s2), expected), true);
    if (in->dst >= 0)
        w->env[in->dst] = expected;
    return true;
}

/* SUCCESS: a CAS's side; FORM: which of herd's two forms of an AArch64
 * CAS (see below), 0 or 1. */
static bool do_rmw(walker *k, walk *w, const ir_instr *in, bool success, int form)
{
    vpool *p = &k->out->pool;
    if (in->flag >= 0)      /* a CAS's success flag: this path's side */
        w->env[in->flag] = vx_const(p, success ? 1 : 0);
    if (k->t->arch == IR_ARCH_JAVA && in->rmw_op == IR_RMW_CAS)
        return java_cas(k, w, in, success);
    int loc = -1, slot = 0, opnd = -1, expected = -1;
    uint64_t adeps, apdeps;
    if (!address(k, w, in, &loc, &adeps, &apdeps) || !new_slot(k, w, in, &slot))
        return false;
    if (in->a.kind != IR_OPND_NONE && !operand(k, w, in->a, in, &opnd))
        return false;
    int old = vx_read(p, slot);
    bool writes = true;
    int nv = opnd;
    switch (in->rmw_op) {
    case IR_RMW_XCHG: break;
    case IR_RMW_ADD: nv = vx_bin(p, IR_ADD, old, opnd); break;
    case IR_RMW_SUB: nv = vx_bin(p, IR_SUB, old, opnd); break;
    case IR_RMW_AND: nv = vx_bin(p, IR_AND, old, opnd); break;
    case IR_RMW_OR:  nv = vx_bin(p, IR_OR, old, opnd); break;
    case IR_RMW_XOR: nv = vx_bin(p, IR_XOR, old, opnd); break;
    case IR_RMW_CAS:
        if (!operand(k, w, in->b, in, &expected))
            return false;
        /* A weak CAS may fail spuriously: its failure needs no mismatch. */
        if (success || !in->weak)
            add_cond(w, vx_bin(p, IR_EQ, old, expected), success);
        writes = success;
        break;
    default:
        return fail(k, in, "unknown read-modify-write");
    }
    if (nv < 0)
        return fail(k, in, "read-modify-write without an operand");
    if (in->waits)          /* a lock's exchange: only its try that read the mutex free */
        add_cond(w, vx_bin(p, IR_EQ, old, vx_const(p, 0)), true);
    uint64_t ddeps = p->e[nv].deps & ~((uint64_t)1 << slot);
    bool x86 = in->mode == IR_X86_LOCKED || in->mode == IR_X86_PLAIN;
    bool a64 = in->mode >= IR_A64_PLAIN && in->mode <= IR_A64_ACQREL;
    ir_mode rmode = in->mode, wmode = in->mode;
    if (a64) {
        /* herd's AArch64 RMW: the read acquires (A) for an acquire or
         * acquire-release instruction, the write releases (L) for a
         * release or acquire-release one (ir.h, IR_A64_ACQREL). */
        bool acq = in->mode == IR_A64_ACQ || in->mode == IR_A64_ACQREL;
        bool rel = in->mode == IR_A64_REL || in->mode == IR_A64_ACQREL;
        rmode = acq ? IR_A64_ACQ : IR_A64_PLAIN;
        wmode = rel ? IR_A64_REL : IR_A64_PLAIN;
    }
    if (!writes && in->fail_mode != IR_MODE_NONE)
        rmode = in->fail_mode;
    if (x86 || a64) {
        /* A locked instruction (an AArch64 atomic) is a read and a write
         * linked by rmw. */
        tev r = new_event(EV_R, in);
        r.loc = loc; r.rslot = slot; r.rmw_op = in->rmw_op; r.addr_deps = adeps; r.pick_addr_deps = apdeps;
        r.is_rmw = writes;
        r.mode = rmode;
        add_event(w, r);
        if (writes) {
            tev wr = new_event(EV_W, in);
            wr.loc = loc; wr.wval = nv; wr.rmw_op = in->rmw_op; wr.is_rmw = true;
            wr.mode = wmode;
            wr.addr_deps = adeps; wr.data_deps = ddeps;
            wr.pick_addr_deps = apdeps; wr.pick_data_deps = p->e[nv].pdeps;
            if (a64 && in->rmw_op == IR_RMW_CAS) wr.pick_deps = p->e[expected].deps & ~((uint64_t)1 << slot);
            wr.partner = (int)w->nev - 1;
            w->ev[w->nev - 1].partner = (int)w->nev;
            add_event(w, wr);
        }
    } else {
        /* C and Java: one event that both reads and writes; a failed
         * compare-exchange only reads, with the failure mode. */
        tev e = new_event(writes ? (EV_R | EV_W) : EV_R, in);
        e.loc = loc; e.rslot = slot; e.rmw_op = in->rmw_op;
        e.is_rmw = writes; e.addr_deps = adeps; e.data_deps = ddeps;
        e.mode = rmode;
        if (writes)
            e.wval = nv;
        add_event(w, e);
    }
    if (in->dst >= 0)
        w->env[in->dst] = old;
    /* herd makes each AArch64 CAS in two forms, both executions.  One that
     * succeeds: Rs takes the value read, or keeps its own (the same value),
     * then depending on the expected value and picked by the compare, which
     * reads memory.  One that fails: Rs takes the value read, and in the
     * second form the compare, which reads the expected value, picks it. */
    if (in->dst >= 0 && a64 && in->rmw_op == IR_RMW_CAS && form == 1)
        w->env[in->dst] = success ? vx_picked(p, expected, (uint64_t)1 << slot)
                                  : vx_picked(p, old, p->e[expected].deps | p->e[expected].pdeps);
    return true;
}

/* A lock as RC11 and herd's C11 lock order have it: taking the mutex is an
 * acquire RMW that reads it free (0, written by the initial write or an
 * unlock) and marks it taken (1); a path where it reads it taken does not
 * exist, since the lock waits, so the only reads it makes are of a free
 * mutex.  RMW atomicity then makes the critical sections of one mutex a
 * total order, and an unlock, a release write of 0, synchronises with the
 * lock that reads it.  A failed trylock is a relaxed read that saw the
 * mutex taken.  Java's monitor enter and exit are synchronisation actions:
 * volatile, in the same shape. */
static bool do_lock(walker *k, walk *w, const ir_instr *in, bool success)
{
    vpool *p = &k->out->pool;
    bool java = k->t->arch == IR_ARCH_JAVA;
    int loc = -1, slot = 0;
    uint64_t adeps;
    if (!address(k, w, in, &loc, &adeps, NULL))
        return false;
    if (k->lock_events) {
        /* herd's C lock actions: an event on the mutex that neither reads
         * nor writes it, a lock that took it (LS) or a trylock that did not
         * (LF), or an unlock (UL); the model's lock order decides the rest. */
        tev e = new_event(0, in);
        e.loc = loc; e.addr_deps = adeps;
        e.is_rmw = in->op == IR_LOCK && success;
        add_event(w, e);
        if (in->op == IR_LOCK && in->dst >= 0)
            w->env[in->dst] = vx_const(p, success ? 1 : 0);
        return true;
    }
    if (in->op == IR_UNLOCK) {
        tev e = new_event(EV_W, in);
        e.loc = loc; e.wval = vx_const(p, 0); e.addr_deps = adeps;
        e.mode = java ? IR_JM_VOLATILE : IR_MO_REL;
        add_event(w, e);
        return true;
    }
    if (!new_slot(k, w, in, &slot))
        return false;
    tev e = new_event(success ? (EV_R | EV_W) : EV_R, in);
    e.loc = loc; e.rslot = slot; e.addr_deps = adeps; e.rmw_op = IR_RMW_CAS;
    e.is_rmw = success;
    e.mode = java ? IR_JM_VOLATILE : success ? IR_MO_ACQ : IR_MO_RLX;
    if (success)
        e.wval = vx_const(p, 1);
    add_event(w, e);
    add_cond(w, vx_bin(p, IR_EQ, vx_read(p, slot), vx_const(p, 0)), success);
    if (in->dst >= 0)
        w->env[in->dst] = vx_const(p, success ? 1 : 0);
    return true;
}

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
            return fail(k, in, "phi without an argument for its predecessor");
        if (!operand(k, w, in->phi_args[pi], in, &vals[i]))
            return false;
    }
    for (int i = 0; i < nphi; i++)
        if (b->instrs[i].dst >= 0)
            w->env[b->instrs[i].dst] = w->sel_pick ? vx_picked(&k->out->pool, vals[i], w->sel_pick) : vals[i];
    if (nphi)
        w->sel_pick = 0;
    return true;
}

/* A load or a store at IN. */
static bool do_access(walker *k, walk *w, const ir_instr *in)
{
    vpool *p = &k->out->pool;
    int loc = -1, slot = 0, a = -1;
    uint64_t adeps, apdeps;
    if (in->op == IR_LOAD) {
        if (!address(k, w, in, &loc, &adeps, &apdeps) || !new_slot(k, w, in, &slot))
            return false;
        tev e = new_event(EV_R, in);
        e.loc = loc; e.rslot = slot; e.addr_deps = adeps; e.pick_addr_deps = apdeps;
        add_event(w, e);
        if (in->excl)       /* a load-exclusive opens the thread's reservation */
            w->resv = (int)w->nev;
        if (in->dst >= 0)
            w->env[in->dst] = vx_read(p, slot);
        return true;
    }
    if (!address(k, w, in, &loc, &adeps, &apdeps) || !operand(k, w, in->a, in, &a))
        return false;
    tev e = new_event(EV_W, in);
    e.loc = loc; e.wval = a; e.addr_deps = adeps; e.data_deps = p->e[a].deps;
    e.pick_addr_deps = apdeps; e.pick_data_deps = p->e[a].pdeps;
    add_event(w, e);
    return true;
}

/* An AArch64 store-exclusive, as herd 7.57 runs it: it may write only
 * when the thread's last load-exclusive was to the same location and no
 * store-exclusive came since; then it either writes (status 0, paired
 * with that load by rmw) or fails (status 1, no event), and either way it
 * ends the reservation.  Otherwise it fails.  *CAN: whether IN may write
 * on path W. */
static bool excl_reserved(walker *k, walk *w, const ir_instr *in, bool *can)
{
    int loc = -1;
    uint64_t adeps;
    if (!address(k, w, in, &loc, &adeps, NULL))
        return false;
    *can = w->resv > 0 && w->ev[w->resv - 1].loc == loc;
    return true;
}

/* The store-exclusive IN on W, writing (SUCCESS, which excl_reserved
 * allowed) or failing. */
static bool store_excl(walker *k, walk *w, const ir_instr *in, bool success)
{
    vpool *p = &k->out->pool;
    int loc = -1, a = -1;
    uint64_t adeps, apdeps;
    if (!address(k, w, in, &loc, &adeps, &apdeps) || !operand(k, w, in->a, in, &a))
        return false;
    int lx = w->resv - 1;
    w->resv = 0;
    if (in->dst >= 0)
        w->env[in->dst] = vx_const(p, success ? 0 : 1);
    if (!success)
        return true;
    tev e = new_event(EV_W, in);
    e.loc = loc; e.wval = a; e.addr_deps = adeps; e.data_deps = p->e[a].deps;
    e.pick_addr_deps = apdeps; e.pick_data_deps = p->e[a].pdeps;
    e.lxsx = lx;
    add_event(w, e);
    return true;
}

/* Run W from instruction FROM of BLOCK (entered from PREV) to the end of
 * the thread, recording each finished path. */
static void run_from(walker *k, walk *w, int block, int prev, int from)
{
    const ir_thread *th = k->th;
    vpool *p = &k->out->pool;
    for (;;) {
        if (k->failed)
            return;
        if (block < 0 || block >= th->nblocks) {
            fail(k, NULL, "branch to a block that does not exist");
            return;
        }
        const ir_block *b = &th->blocks[block];
        int nphi = 0;
        while (nphi < b->ninstrs && b->instrs[nphi].op == IR_PHI)
            nphi++;
        if (from == 0 && nphi && !run_phis(k, w, b, nphi, prev))
            return;
        int i = from > nphi ? from : nphi;
        from = 0;
        for (; i < b->ninstrs; i++) {
            const ir_instr *in = &b->instrs[i];
            int a = -1, c = -1;
            if ((in->op == IR_LOAD || in->op == IR_STORE || in->op == IR_RMW) &&
                w->forced_in != in && in->addr.kind == IR_OPND_VAL) {
                int ae = -1;
                if (!operand(k, w, in->addr, in, &ae))
                    return;
                if (!vx_is_const(p, ae)) {
                    /* One path per location the address may name. */
                    for (int l = 0; l < k->t->nlocs && !k->failed; l++) {
                        walk w2;
                        walk_clone(&w2, w, th->nvals);
                        add_cond(&w2, vx_bin(p, IR_EQ, ae, vx_const(p, IR_ADDR(l))), true);
                        w2.forced_in = in;
                        w2.forced_loc = l;
                        run_from(k, &w2, block, prev, i);
                        walk_free(&w2);
                    }
                    return;
                }
            }
            switch (in->op) {
            case IR_PHI:
                fail(k, in, "phi after the start of a block");
                return;
            case IR_LOAD:
            case IR_STORE:
                if (in->op == IR_STORE && in->excl) {
                    /* the writing side on a copy when this path may take it */
                    bool can = false;
                    if (!excl_reserved(k, w, in, &can))
                        return;
                    if (can) {
                        walk w2;
                        walk_clone(&w2, w, th->nvals);
                        if (store_excl(k, &w2, in, true))
                            run_from(k, &w2, block, prev, i + 1);
                        walk_free(&w2);
                    }
                    if (!store_excl(k, w, in, false))
                        return;
                    break;
                }
                if (!do_access(k, w, in))
                    return;
                break;
            case IR_RMW:
            case IR_LOCK:
                /* A CAS, or a trylock: both outcomes, the failing one on a copy. */
                if ((in->op == IR_RMW && in->rmw_op == IR_RMW_CAS) || (in->op == IR_LOCK && in->dst >= 0)) {
                    /* an AArch64 CAS: each side in herd's two forms (do_rmw) */
                    bool forms = in->op == IR_RMW && in->mode >= IR_A64_PLAIN && in->mode <= IR_A64_ACQREL;
                    for (int f = 0; f < (forms ? 3 : 1); f++) {
                        walk w2;
                        walk_clone(&w2, w, th->nvals);
                        bool ok = in->op == IR_LOCK ? do_lock(k, &w2, in, false)
                                                    : do_rmw(k, &w2, in, f == 2, f == 2 ? 0 : f);
                        if (ok)
                            run_from(k, &w2, block, prev, i + 1);
                        walk_free(&w2);
                    }
                    if (forms) {
                        if (!do_rmw(k, w, in, true, 1))
                            return;
                        break;
                    }
                }
                if (!(in->op == IR_RMW ? do_rmw(k, w, in, true, 0) : do_lock(k, w, in, true)))
                    return;
                break;
            case IR_UNLOCK:
                if (!do_lock(k, w, in, true))
                    return;
                break;
            case IR_FENCE: {
                tev e = new_event(EV_F, in);
                e.fence = in->fence;
                add_event(w, e);
                break;
            }
            case IR_BIN:
                if (!operand(k, w, in->a, in, &a) || !operand(k, w, in->b, in, &c))
                    return;
                if (in->dst >= 0)
                    w->env[in->dst] = vx_bin(p, in->binop, a, c);
                break;
            case IR_BR: {
                if (!operand(k, w, in->a, in, &a))
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
                walk_clone(&w2, w, th->nvals);
                add_cond(&w2, a, false);
                w2.ctrl |= cdeps;
                w2.sel_pick |= spick;
                run_from(k, &w2, in->else_block, block, 0);
                walk_free(&w2);
                add_cond(w, a, true);
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
                fail(k, in, "unknown instruction");
                return;
            }
        }
        fail(k, NULL, "block without a terminator");
        return;
    next_block:;
    }
}

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
        fail(&k, NULL, "thread without code");
    else
        run_from(&k, &w, 0, -1, 0);
    walk_free(&w);
    if (k.failed) {
        tpaths_free(out);
        return false;
    }
    return true;
}

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
