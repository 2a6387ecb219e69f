/* The events of an RMW: x86's locked instructions and AArch64's atomics
 * as two events linked by rmw (each instruction set's shape, shapes.c),
 * C's and Java's as one, and Java's compareAndExchange as herd runs it. */
#include <stdlib.h>
#include <string.h>
#include "model/paths/paths_impl.h"
#include "util/mem.h"

/* Java's compareAndExchange as herd runs it: a read of the location with
 * the read mode, and then either failure (that read saw a value other than
 * the expected one) or an RMW event, with the merged mode, whose read
 * takes the expected value; the first read is then unconstrained. */
static bool java_cas(walker *k, walk *w, const ir_instr *in, bool success)
{
    vpool *p = &k->out->pool;
    int loc = -1, s1 = 0, s2 = 0, expected = -1, nv = -1;
    uint64_t adeps;
    if (!paths_address(k, w, in, &loc, &adeps, NULL) || !paths_operand(k, w, in->b, in, &expected) ||
        !paths_operand(k, w, in->a, in, &nv) || !paths_new_slot(k, w, in, &s1))
        return false;
    tev r = paths_new_event(EV_R, in);
    r.loc = loc; r.rslot = s1; r.addr_deps = adeps;
    r.mode = in->fail_mode != IR_MODE_NONE ? in->fail_mode : in->mode;
    paths_add_event(w, r);
    int v1 = vx_read(p, s1);
    if (!success) {
        /* A weak CAS may fail whatever it read. */
        if (!in->weak)
            paths_add_cond(w, vx_bin(p, IR_EQ, v1, expected), false);
        if (in->dst >= 0)
            w->env[in->dst] = v1;
        return true;
    }
    if (!paths_new_slot(k, w, in, &s2))
        return false;
    tev e = paths_new_event(EV_R | EV_W, in);
    e.loc = loc; e.rslot = s2; e.wval = nv; e.rmw_op = IR_RMW_CAS; e.is_rmw = true;
    e.addr_deps = adeps; e.data_deps = p->e[nv].deps;
    paths_add_event(w, e);
    paths_add_cond(w, vx_bin(p, IR_EQ, vx_read(p, s2), expected), true);
    if (in->dst >= 0)
        w->env[in->dst] = expected;
    return true;
}

/* RMW at instruction IN.  SUCCESS: a CAS's side, which outcome this path
 * takes (ignored otherwise); FORM: which of herd's two forms of an AArch64
 * CAS (see below), 0 or 1. */
bool paths_rmw(walker *k, walk *w, const ir_instr *in, bool success, int form)
{
    vpool *p = &k->out->pool;
    if (in->flag >= 0)      /* a CAS's success flag: this path's side */
        w->env[in->flag] = vx_const(p, success ? 1 : 0);
    if (k->t->arch == IR_ARCH_JAVA && in->rmw_op == IR_RMW_CAS)
        return java_cas(k, w, in, success);
    int loc = -1, slot = 0, opnd = -1, expected = -1;
    uint64_t adeps, apdeps;
    if (!paths_address(k, w, in, &loc, &adeps, &apdeps) || !paths_new_slot(k, w, in, &slot))
        return false;
    if (in->a.kind != IR_OPND_NONE && !paths_operand(k, w, in->a, in, &opnd))
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
        if (!paths_operand(k, w, in->b, in, &expected))
            return false;
        /* A weak CAS may fail spuriously: its failure needs no mismatch. */
        if (success || !in->weak)
            paths_add_cond(w, vx_bin(p, IR_EQ, old, expected), success);
        writes = success;
        break;
    default:
        return paths_fail(k, in, "unknown read-modify-write");
    }
    if (nv < 0)
        return paths_fail(k, in, "read-modify-write without an operand");
    if (in->waits)          /* a lock's exchange: only its try that read the mutex free */
        paths_add_cond(w, vx_bin(p, IR_EQ, old, vx_const(p, 0)), true);
    uint64_t ddeps = p->e[nv].deps & ~((uint64_t)1 << slot);
    /* an instruction set's RMW (a locked x86 instruction, an AArch64
     * atomic) is its shape's; a language's is one event */
    const paths_shape *shape = paths_shape_of(k->t->arch);
    ir_mode rmode = in->mode, wmode = in->mode;
    if (shape)
        shape->rmw_modes(in->mode, &rmode, &wmode);
    if (!writes && in->fail_mode != IR_MODE_NONE)
        rmode = in->fail_mode;
    if (shape) {
        /* A locked instruction (an AArch64 atomic) is a read and a write
         * linked by rmw. */
        tev r = paths_new_event(EV_R, in);
        r.loc = loc; r.rslot = slot; r.rmw_op = in->rmw_op; r.addr_deps = adeps; r.pick_addr_deps = apdeps;
        r.is_rmw = writes;
        r.mode = rmode;
        paths_add_event(w, r);
        if (writes) {
            tev wr = paths_new_event(EV_W, in);
            wr.loc = loc; wr.wval = nv; wr.rmw_op = in->rmw_op; wr.is_rmw = true;
            wr.mode = wmode;
            wr.addr_deps = adeps; wr.data_deps = ddeps;
            wr.pick_addr_deps = apdeps; wr.pick_data_deps = p->e[nv].pdeps;
            if (shape->cas_forms && in->rmw_op == IR_RMW_CAS)
                wr.pick_deps = p->e[expected].deps & ~((uint64_t)1 << slot);
            wr.partner = (int)w->nev - 1;
            w->ev[w->nev - 1].partner = (int)w->nev;
            paths_add_event(w, wr);
        }
    } else {
        /* C and Java: one event that both reads and writes; a failed
         * compare-exchange only reads, with the failure mode. */
        tev e = paths_new_event(writes ? (EV_R | EV_W) : EV_R, in);
        e.loc = loc; e.rslot = slot; e.rmw_op = in->rmw_op;
        e.is_rmw = writes; e.addr_deps = adeps; e.data_deps = ddeps;
        e.mode = rmode;
        if (writes)
            e.wval = nv;
        paths_add_event(w, e);
    }
    if (in->dst >= 0)
        w->env[in->dst] = old;
    /* herd makes each AArch64 CAS in two forms, both executions.  One that
     * succeeds: Rs takes the value read, or keeps its own (the same value),
     * then depending on the expected value and picked by the compare, which
     * reads memory.  One that fails: Rs takes the value read, and in the
     * second form the compare, which reads the expected value, picks it. */
    if (in->dst >= 0 && shape && shape->cas_forms && in->rmw_op == IR_RMW_CAS && form == 1)
        w->env[in->dst] = success ? vx_picked(p, expected, (uint64_t)1 << slot)
                                  : vx_picked(p, old, p->e[expected].deps | p->e[expected].pdeps);
    return true;
}
