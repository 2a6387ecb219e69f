/* The events of a load and a store, and of AArch64's store-exclusive with
 * the thread's reservation. */
#include <stdlib.h>
#include <string.h>
#include "model/paths/paths_impl.h"
#include "util/mem.h"

/* A load or a store at IN. */
bool paths_access(walker *k, walk *w, const ir_instr *in)
{
    vpool *p = &k->out->pool;
    int loc = -1, slot = 0, a = -1;
    uint64_t adeps, apdeps;
    if (in->op == IR_LOAD) {
        if (!paths_address(k, w, in, &loc, &adeps, &apdeps) || !paths_new_slot(k, w, in, &slot))
            return false;
        tev e = paths_new_event(EV_R, in);
        e.loc = loc; e.rslot = slot; e.addr_deps = adeps; e.pick_addr_deps = apdeps;
        paths_add_event(w, e);
        if (in->excl)       /* a load-exclusive opens the thread's reservation */
            w->resv = (int)w->nev;
        if (in->dst >= 0)
            w->env[in->dst] = vx_read(p, slot);
        return true;
    }
    if (!paths_address(k, w, in, &loc, &adeps, &apdeps) || !paths_operand(k, w, in->a, in, &a))
        return false;
    tev e = paths_new_event(EV_W, in);
    e.loc = loc; e.wval = a; e.addr_deps = adeps; e.data_deps = p->e[a].deps;
    e.pick_addr_deps = apdeps; e.pick_data_deps = p->e[a].pdeps;
    paths_add_event(w, e);
    return true;
}

/* An AArch64 store-exclusive, as herd 7.57 runs it: it may write only
 * when the thread's last load-exclusive was to the same location and no
 * store-exclusive came since; then it either writes (status 0, paired
 * with that load by rmw) or fails (status 1, no event), and either way it
 * ends the reservation.  Otherwise it fails.  *CAN: whether IN may write
 * on path W. */
bool paths_excl_reserved(walker *k, walk *w, const ir_instr *in, bool *can)
{
    int loc = -1;
    uint64_t adeps;
    if (!paths_address(k, w, in, &loc, &adeps, NULL))
        return false;
    *can = w->resv > 0 && w->ev[w->resv - 1].loc == loc;
    return true;
}

/* The store-exclusive IN on W, writing (SUCCESS, which paths_excl_reserved
 * allowed) or failing. */
bool paths_store_excl(walker *k, walk *w, const ir_instr *in, bool success)
{
    vpool *p = &k->out->pool;
    int loc = -1, a = -1;
    uint64_t adeps, apdeps;
    if (!paths_address(k, w, in, &loc, &adeps, &apdeps) || !paths_operand(k, w, in->a, in, &a))
        return false;
    int lx = w->resv - 1;
    w->resv = 0;
    if (in->dst >= 0)
        w->env[in->dst] = vx_const(p, success ? 0 : 1);
    if (!success)
        return true;
    tev e = paths_new_event(EV_W, in);
    e.loc = loc; e.wval = a; e.addr_deps = adeps; e.data_deps = p->e[a].deps;
    e.pick_addr_deps = apdeps; e.pick_data_deps = p->e[a].pdeps;
    e.lxsx = lx;
    paths_add_event(w, e);
    return true;
}
