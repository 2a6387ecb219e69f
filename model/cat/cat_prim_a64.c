/* AArch64's predefined event sets and relations (herd's names): acquire,
 * release and acquirePC accesses, exclusives, LSE atomics without result,
 * the barriers; and, for a model that says `catdep` and so computes the
 * dependencies itself (herd's aarch64.cat through aarch64deps.cat), the
 * register and branch events it computes them from, which litmusc's
 * executions do not have: they are added here as virtual events after the
 * real ones, rebuilt from the execution's addr, data and ctrl. */
#include <string.h>
#include "model/cat/cat_impl.h"
#include "model/cat/cat_rel.h"

/* The real event a virtual one stands beside (its instruction instance). */
static int host_of(const cat_run *r, int i)
{
    return i < r->x->n ? i : r->virt[i - r->x->n].host;
}

/* Events of one thread other than initial writes. */
static int thread_of(const cat_run *r, int i)
{
    const exec_event *e = &r->x->ev[host_of(r, i)];
    return (e->kind & EV_IW) ? -1 : e->thread;
}

/* Two events of one instruction instance: herd's same-instance. */
static bool same_instance(const cat_run *r, int i, int j)
{
    if (i == j) return true;
    const exec_event *a = &r->x->ev[host_of(r, i)], *b = &r->x->ev[host_of(r, j)];
    if ((a->kind & EV_IW) || (b->kind & EV_IW)) return false;
    if (host_of(r, i) == host_of(r, j)) {
        /* a branch and its flags are their own instruction */
        bool bi = i >= r->x->n && r->virt[i - r->x->n].kind >= VEV_BCC;
        bool bj = j >= r->x->n && r->virt[j - r->x->n].kind >= VEV_BCC;
        return bi == bj;
    }
    return a->thread == b->thread && a->instr && a->instr == b->instr;
}

/* Place in program order, thrice the host's: a branch comes just before
 * the event it stands before, every other virtual event with its host. */
static int po_rank(const cat_run *r, int i)
{
    int h = host_of(r, i);
    int k = 3 * r->x->ev[h].poi + 1;
    if (i >= r->x->n && r->virt[i - r->x->n].kind >= VEV_BCC) k--;
    return k;
}

void cat_a64_sets(cat_run *r, exec_set *s)
{
    const exec *x = r->x;
    for (int i = 0; i < x->n; i++) {
        const exec_event *e = &x->ev[i];
        if (e->kind & (EV_R | EV_W)) {
            /* an LSE operation without result reads with NoRet instead of A */
            bool noret = e->instr && e->instr->noret;
            if (e->mode == IR_A64_ACQ && !(noret && (e->kind & EV_R))) es_add(&s[CB_A], i);
            if (e->mode == IR_A64_REL) es_add(&s[CB_L], i);
            if (e->mode == IR_A64_ACQPC) es_add(&s[CB_Q], i);
            /* herd's X: exclusives, both halves of an LSE atomic that
             * writes, and reads without result (not a failed CAS's read) */
            bool lse = e->is_rmw && e->mode >= IR_A64_PLAIN && e->mode <= IR_A64_ACQREL;
            if ((e->instr && e->instr->excl) || lse || (noret && (e->kind & EV_R))) es_add(&s[CB_X], i);
            if (noret && (e->kind & EV_R)) es_add(&s[CB_NORET], i);
        }
        if ((e->kind & EV_F) && e->fence >= IR_FENCE_DMB_SY && e->fence <= IR_FENCE_ISB)
            es_add(&s[CB_DMB_SY + (e->fence - IR_FENCE_DMB_SY)], i);
    }
    for (int v = 0; v < r->nvirt; v++) {
        int i = x->n + v;
        switch (r->virt[v].kind) {
        case VEV_WREG: es_add(&s[CB_WREG], i); break;
        case VEV_ADDR: case VEV_PICK: case VEV_PIN: case VEV_FLAGS: es_add(&s[CB_RREG], i); break;
        case VEV_POUT: es_add(&s[CB_WREG], i); break;
        case VEV_DATA: es_add(&s[CB_RREG], i); es_add(&s[CB_DATA_PORT], i); break;
        case VEV_BCC: es_add(&s[CB_BCC], i); es_add(&s[CB_B], i); break;
        }
    }
    s[CB_NDATA] = es_minus(r->all, s[CB_DATA_PORT]);
}

/* Whether event I has dependencies of any kind going out. */
static bool dep_source(const exec *x, int i)
{
    return !es_empty(x->addr.row[i]) || !es_empty(x->data.row[i]) || !es_empty(x->ctrl.row[i]) ||
           !es_empty(x->pick.row[i]) || !es_empty(x->pick_addr.row[i]) || !es_empty(x->pick_data.row[i]);
}

/* The events of relation REL's column J. */
static exec_set column(const exec *x, const exec_rel *rel, int j)
{
    exec_set c = es_none();
    for (int i = 0; i < x->n; i++)
        if (er_has(rel, i, j)) es_add(&c, i);
    return c;
}

static bool add_virt(cat_run *r, int kind, int host, int branch)
{
    if (r->x->n + r->nvirt >= EXEC_MAX) return false;
    cat_vev *v = &r->virt[r->nvirt++];
    v->kind = (uint8_t)kind;
    v->host = host;
    v->branch = branch;
    return true;
}

bool cat_a64_layout(cat_run *r)
{
    const exec *x = r->x;
    r->nvirt = 0;
    if (!r->m->catdep) return true;
    for (int i = 0; i < x->n; i++) {
        if ((x->ev[i].kind & EV_R) && dep_source(x, i) && !add_virt(r, VEV_WREG, i, -1)) return false;
        /* each port, and the pick in front of it when a picked value feeds it */
        const exec_rel *ports[2][2] = {{&x->addr, &x->pick_addr}, {&x->data, &x->pick_data}};
        for (int k = 0; k < 2; k++) {
            bool used = !es_empty(column(x, ports[k][0], i)), picked = !es_empty(column(x, ports[k][1], i));
            if (!used && !picked) continue;
            int port = x->n + r->nvirt;
            if (!add_virt(r, k ? VEV_DATA : VEV_ADDR, i, -1)) return false;
            if (picked && (!add_virt(r, VEV_PIN, i, port) || !add_virt(r, VEV_POUT, i, port))) return false;
        }
        if (!es_empty(column(x, &x->pick, i)) && !add_virt(r, VEV_PICK, i, -1)) return false;
    }
    /* A branch before each event that a read controls which the events
     * before it in its thread do not: ctrl only grows along a thread. */
    for (int i = 0; i < x->n; i++) {
        exec_set c = column(x, &x->ctrl, i);
        if (es_empty(c)) continue;
        bool fresh = true;
        for (int j = 0; j < x->n && fresh; j++)
            if (er_has(&x->po, j, i) && es_empty(es_minus(c, column(x, &x->ctrl, j)))) fresh = false;
        if (!fresh) continue;
        int b = x->n + r->nvirt;
        if (!add_virt(r, VEV_BCC, i, -1) || !add_virt(r, VEV_FLAGS, i, b)) return false;
    }
    return true;
}

/* The virtual register write that holds read I's value, or -1. */
static int wreg_of(const cat_run *r, int i)
{
    for (int v = 0; v < r->nvirt; v++)
        if (r->virt[v].kind == VEV_WREG && r->virt[v].host == i) return r->x->n + v;
    return -1;
}

void cat_a64_rels(cat_run *r, exec_rel *po, exec_rel *in, exec_rel *ext)
{
    const exec *x = r->x;
    int n = r->n, nr = x->n;
    exec_rel *iico = cat_new_rel(r), *ictrl = cat_new_rel(r), *rfreg = cat_new_rel(r), *inst = cat_new_rel(r);
    cr_clear(iico, n);
    cr_clear(ictrl, n);
    cr_clear(rfreg, n);
    for (int i = 0; i < n; i++) {
        exec_set row = es_none();
        for (int j = 0; j < n; j++)
            if (same_instance(r, i, j)) es_add(&row, j);
        inst->row[i] = row;
    }
    /* An LSE operation that computes its write from its read (LDADD and
     * kin, not SWP) carries the read's value into the write; a CAS's read
     * decides whether it writes, as its compare does in herd. */
    for (int i = 0; i < nr; i++)
        for (exec_set b = x->rmw.row[i]; !es_empty(b);) {
            int j = es_pop(&b);
            const exec_event *e = &x->ev[i];
            if (!e->instr || e->instr != x->ev[j].instr || e->rmw_op == IR_RMW_XCHG) continue;
            er_add(e->rmw_op == IR_RMW_CAS ? ictrl : iico, i, j);
        }
    for (int v = 0; v < r->nvirt; v++) {
        const cat_vev *ve = &r->virt[v];
        int i = nr + v, h = ve->host;
        const exec_rel *src = NULL;
        switch (ve->kind) {
        case VEV_WREG: er_add(iico, h, i); break;
        case VEV_ADDR: er_add(iico, i, h); src = &x->addr; break;
        case VEV_DATA: er_add(iico, i, h); src = &x->data; break;
        case VEV_PICK: er_add(ictrl, i, h); src = &x->pick; break;
        case VEV_PIN:
            er_add(ictrl, i, i + 1);
            src = r->virt[ve->branch - nr].kind == VEV_ADDR ? &x->pick_addr : &x->pick_data;
            break;
        case VEV_POUT: er_add(rfreg, i, ve->branch); break;
        case VEV_BCC: break;
        case VEV_FLAGS: er_add(iico, i, ve->branch); src = &x->ctrl; break;
        }
        if (!src) continue;
        for (int s = 0; s < nr; s++)
            if (er_has(src, s, h)) {
                int w = wreg_of(r, s);
                if (w >= 0) er_add(rfreg, w, i);
            }
    }
    /* po, int and ext over the virtual events too, by thread and rank. */
    for (int i = 0; i < n; i++) {
        int ti = thread_of(r, i);
        for (int j = 0; j < n; j++) {
            if (i < nr && j < nr) continue;
            int tj = thread_of(r, j);
            if (ti >= 0 && ti == tj) es_add(&in->row[i], j);
            if ((ti < 0) != (tj < 0) || (ti >= 0 && tj >= 0 && ti != tj)) es_add(&ext->row[i], j);
            if (ti >= 0 && ti == tj && !er_has(inst, i, j) && po_rank(r, i) < po_rank(r, j))
                es_add(&po->row[i], j);
        }
    }
    cat_val *g = r->globals;
    g[CB_IICO_DATA] = cv_rel(iico);
    g[CB_RF_REG] = cv_rel(rfreg);
    g[CB_SAME_INSTANCE] = cv_rel(inst);
    g[CB_IICO_CTRL] = cv_rel(ictrl);
    g[CB_IICO_ORDER] = g[CB_SAME_LOW_ORDER_BITS] = g[CB_INV_DOMAIN] =
        g[CB_SAME_TAG_LOC] = cv_rel(r->zero);
}
