/* The events of a lock, a trylock and an unlock, as herd's C lock actions
 * or as RMWs and writes of the mutex. */
#include <stdlib.h>
#include <string.h>
#include "model/paths/paths_impl.h"
#include "util/mem.h"

/* A lock as RC11 and herd's C11 lock order have it: taking the mutex is an
 * acquire RMW that reads it free (0, written by the initial write or an
 * unlock) and marks it taken (1); a path where it reads it taken does not
 * exist, since the lock waits, so the only reads it makes are of a free
 * mutex.  RMW atomicity then makes the critical sections of one mutex a
 * total order, and an unlock, a release write of 0, synchronises with the
 * lock that reads it.  A failed trylock is a relaxed read that saw the
 * mutex taken.  Java's monitor enter and exit are synchronisation actions:
 * volatile, in the same shape. */
bool paths_lock(walker *k, walk *w, const ir_instr *in, bool success)
{
    vpool *p = &k->out->pool;
    bool java = k->t->arch == IR_ARCH_JAVA;
    int loc = -1, slot = 0;
    uint64_t adeps;
    if (!paths_address(k, w, in, &loc, &adeps, NULL))
        return false;
    if (k->lock_events) {
        /* herd's C lock actions: an event on the mutex that neither reads
         * nor writes it, a lock that took it (LS) or a trylock that did not
         * (LF), or an unlock (UL); the model's lock order decides the rest. */
        tev e = paths_new_event(0, in);
        e.loc = loc; e.addr_deps = adeps;
        e.is_rmw = in->op == IR_LOCK && success;
        paths_add_event(w, e);
        if (in->op == IR_LOCK && in->dst >= 0)
            w->env[in->dst] = vx_const(p, success ? 1 : 0);
        return true;
    }
    if (in->op == IR_UNLOCK) {
        tev e = paths_new_event(EV_W, in);
        e.loc = loc; e.wval = vx_const(p, 0); e.addr_deps = adeps;
        e.mode = java ? IR_JM_VOLATILE : IR_MO_REL;
        paths_add_event(w, e);
        return true;
    }
    if (!paths_new_slot(k, w, in, &slot))
        return false;
    tev e = paths_new_event(success ? (EV_R | EV_W) : EV_R, in);
    e.loc = loc; e.rslot = slot; e.addr_deps = adeps; e.rmw_op = IR_RMW_CAS;
    e.is_rmw = success;
    e.mode = java ? IR_JM_VOLATILE : success ? IR_MO_ACQ : IR_MO_RLX;
    if (success)
        e.wval = vx_const(p, 1);
    paths_add_event(w, e);
    paths_add_cond(w, vx_bin(p, IR_EQ, vx_read(p, slot), vx_const(p, 0)), success);
    if (in->dst >= 0)
        w->env[in->dst] = vx_const(p, success ? 1 : 0);
    return true;
}
