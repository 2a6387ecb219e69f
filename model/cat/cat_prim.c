/* What a model sees of a candidate: herd's predefined event sets and
 * relations, computed from the exec graph, and herd's primitive functions
 * (domain, range, classes-loc, linearisations, ...). */
#include <stdlib.h>
#include <string.h>
#include "model/cat/cat_impl.h"
#include "model/cat/cat_rel.h"
#include "util/mem.h"

static const char *const builtin_names[CB_COUNT] = {
    [CB_M] = "M", [CB_R] = "R", [CB_W] = "W", [CB_IW] = "IW", [CB_FW] = "FW", [CB_F] = "F",
    [CB_B] = "B", [CB_RMW] = "RMW", [CB_EXP] = "Exp", [CB_NEXP] = "NExp",
    [CB_NA] = "NA", [CB_RLX] = "RLX", [CB_CON] = "CON", [CB_ACQ] = "ACQ", [CB_REL] = "REL",
    [CB_ACQ_REL] = "ACQ_REL", [CB_SC] = "SC", [CB_A] = "A",
    [CB_O] = "O", [CB_RA] = "RA", [CB_V] = "V",
    [CB_X] = "X", [CB_MFENCE] = "MFENCE", [CB_LFENCE] = "LFENCE", [CB_SFENCE] = "SFENCE",
    [CB_LK] = "LK", [CB_LKR] = "LKR", [CB_LKW] = "LKW", [CB_LS] = "LS", [CB_LF] = "LF", [CB_UL] = "UL",
    [CB_L] = "L", [CB_Q] = "Q", [CB_NORET] = "NoRet",
    [CB_DMB_SY] = "DMB.SY", [CB_DMB_ST] = "DMB.ST", [CB_DMB_LD] = "DMB.LD", [CB_DMB_ISH] = "DMB.ISH",
    [CB_DMB_ISHST] = "DMB.ISHST", [CB_DMB_ISHLD] = "DMB.ISHLD", [CB_DMB_OSH] = "DMB.OSH",
    [CB_DMB_OSHST] = "DMB.OSHST", [CB_DMB_OSHLD] = "DMB.OSHLD",
    [CB_DSB_SY] = "DSB.SY", [CB_DSB_ST] = "DSB.ST", [CB_DSB_LD] = "DSB.LD", [CB_DSB_ISH] = "DSB.ISH",
    [CB_DSB_ISHST] = "DSB.ISHST", [CB_DSB_ISHLD] = "DSB.ISHLD", [CB_DSB_OSH] = "DSB.OSH",
    [CB_DSB_OSHST] = "DSB.OSHST", [CB_DSB_OSHLD] = "DSB.OSHLD", [CB_ISB] = "ISB",
    [CB_BCC] = "BCC", [CB_RREG] = "Rreg", [CB_WREG] = "Wreg", [CB_DATA_PORT] = "DATA", [CB_NDATA] = "NDATA",
    [CB_ID] = "id", [CB_LOC] = "loc", [CB_INT] = "int", [CB_EXT] = "ext", [CB_PO] = "po",
    [CB_RF] = "rf", [CB_RMWREL] = "rmw", [CB_AMO] = "amo", [CB_ADDR] = "addr", [CB_DATA] = "data",
    [CB_CTRL] = "ctrl", [CB_SM] = "sm", [CB_SI] = "si", [CB_PARTIAL_PO] = "partial_po",
    [CB_IICO_DATA] = "iico_data", [CB_IICO_CTRL] = "iico_ctrl", [CB_IICO_ORDER] = "iico_order",
    [CB_RF_REG] = "rf-reg", [CB_SAME_INSTANCE] = "same-instance",
    [CB_SAME_LOW_ORDER_BITS] = "same-low-order-bits", [CB_INV_DOMAIN] = "inv-domain",
    [CB_SAME_TAG_LOC] = "same-tag-loc",
    [CB_DOMAIN] = "domain", [CB_RANGE] = "range", [CB_CLASSES_LOC] = "classes-loc",
    [CB_CLASSES] = "classes", [CB_LINEARISATIONS] = "linearisations", [CB_FAIL] = "fail",
    [CB_DIFFERENT_VALUES] = "different-values", [CB_CROSS_ORDERS] = "cross-orders",
    [CB_CROSS] = "cross-product",
    [CB_SAME_OA] = "same-oa", [CB_OA_CHANGES] = "oa-changes", [CB_AT_LEAST_ONE_WRITABLE] = "at-least-one-writable",
};

/* herd's AArch64 sets of events litmusc's tests never make: page-table
 * entries and their updates, tags, cache maintenance, TLB invalidation,
 * exceptions and faults, instruction fetch. */
static const char *const a64_empty_names[] = {
    "T", "TagCheck", "TLBI", "TLBIIS", "TLBInXS", "DC.CVAU", "IC.IALLUIS", "IC.IALLU", "IC.IVAU",
    "EXC-ENTRY", "EXC-RET", "FAULT", "PTE", "PTEV", "PTEINV", "AF", "DB", "MMU", "Translation",
    "AccessFlag", "Instr", "Restricted-CMODX", "SPURIOUS", "PTEXS", "AMO", "FAULT-RD", "FAULT-WR",
    "S", "NT", "SPEC", "DC.CIVAC", "DC.CVAC", "DC.IVAC", "DC.ZVA",
};
_Static_assert(sizeof a64_empty_names / sizeof a64_empty_names[0] <= CB_A64_EMPTY_LAST - CB_A64_EMPTY_FIRST + 1,
               "room for the empty AArch64 sets");
/* The slots past the list: names no cat file can spell. */
static const char *const unused_names[] = {
    " 0", " 1", " 2", " 3", " 4", " 5", " 6", " 7", " 8", " 9", " 10", " 11", " 12", " 13", " 14",
    " 15", " 16", " 17", " 18", " 19", " 20", " 21", " 22", " 23", " 24", " 25", " 26", " 27", " 28",
    " 29", " 30", " 31", " 32", " 33", " 34", " 35", " 36", " 37", " 38", " 39",
};

const char *cat_builtin_name(int b)
{
    if (b >= CB_A64_EMPTY_FIRST && b <= CB_A64_EMPTY_LAST) {
        int k = b - CB_A64_EMPTY_FIRST, n = (int)(sizeof a64_empty_names / sizeof a64_empty_names[0]);
        return k < n ? a64_empty_names[k] : unused_names[k];
    }
    return builtin_names[b];
}

bool cat_builtin_static(int b)
{
    return b != CB_FW && b != CB_RF && b != CB_DIFFERENT_VALUES;
}

/* ---- event sets --------------------------------------------------------------- */
static bool c_atomic_order(ir_mode m)
{
    return m == IR_MO_RLX || m == IR_MO_CON || m == IR_MO_ACQ || m == IR_MO_REL || m == IR_MO_ACQ_REL ||
           m == IR_MO_SC;
}

/* The access mode a fence stands for in herd's Java sets. */
static ir_mode java_fence_mode(ir_fence_kind k)
{
    switch (k) {
    case IR_FENCE_J_FULL: return IR_JM_VOLATILE;
    case IR_FENCE_J_ACQUIRE: case IR_FENCE_J_LOADLOAD: return IR_JM_ACQUIRE;
    case IR_FENCE_J_RELEASE: case IR_FENCE_J_STORESTORE: return IR_JM_RELEASE;
    default: return IR_MODE_NONE;
    }
}

static void fill_sets(cat_run *r, exec_set *s)
{
    const exec *x = r->x;
    for (int i = 0; i < x->n; i++) {
        const exec_event *e = &x->ev[i];
        bool mem = e->kind & (EV_R | EV_W);
        if (e->kind & EV_R) es_add(&s[CB_R], i);
        if (e->kind & EV_W) es_add(&s[CB_W], i);
        if (mem) es_add(&s[CB_M], i);
        if (e->kind & EV_IW) es_add(&s[CB_IW], i);
        if (e->kind & EV_F) es_add(&s[CB_F], i);
        if (e->is_rmw && (e->kind & EV_R) && (e->kind & EV_W)) es_add(&s[CB_RMW], i);
        ir_mode m = e->mode;
        if ((e->kind & EV_F) && e->fence >= IR_FENCE_J_FULL && e->fence <= IR_FENCE_J_STORESTORE)
            m = java_fence_mode(e->fence);
        /* C: herd calls an access atomic when it has a memory order or is an
         * RMW; fences and initial writes are in NA. */
        bool atomic = mem && !(e->kind & EV_IW) &&
                      (c_atomic_order(m) || (e->is_rmw && m >= IR_MO_NA && m <= IR_MO_SC));
        if (atomic) es_add(&s[CB_A], i);
        else es_add(&s[CB_NA], i);
        switch (m) {
        case IR_MO_RLX: es_add(&s[CB_RLX], i); break;
        case IR_MO_CON: es_add(&s[CB_CON], i); break;
        case IR_MO_ACQ: es_add(&s[CB_ACQ], i); break;
        case IR_MO_REL: es_add(&s[CB_REL], i); break;
        case IR_MO_ACQ_REL: es_add(&s[CB_ACQ_REL], i); break;
        case IR_MO_SC: es_add(&s[CB_SC], i); break;
        case IR_JM_OPAQUE: es_add(&s[CB_O], i); break;
        case IR_JM_ACQUIRE: es_add(&s[CB_ACQ], i); es_add(&s[CB_RA], i); break;
        case IR_JM_RELEASE: es_add(&s[CB_REL], i); es_add(&s[CB_RA], i); break;
        case IR_JM_VOLATILE: es_add(&s[CB_V], i); break;
        case IR_X86_LOCKED: es_add(&s[CB_X], i); break;
        default: break;
        }
        /* herd's lock events (its C actions' tags): a lock is LK, its read
         * LKR and its write LKW; one that took the mutex LS, a trylock that
         * did not LF; an unlock UL.  A lock here is one event, RMW or read. */
        if (e->instr && e->instr->op == IR_LOCK) {
            es_add(&s[CB_LK], i);
            if (e->kind & EV_R) es_add(&s[CB_LKR], i);
            if (e->kind & EV_W) es_add(&s[CB_LKW], i);
            es_add(&s[e->is_rmw ? CB_LS : CB_LF], i);
        }
        if (e->instr && e->instr->op == IR_UNLOCK)
            es_add(&s[CB_UL], i);
        if (e->kind & EV_F) {
            if (e->fence == IR_FENCE_MFENCE) es_add(&s[CB_MFENCE], i);
            if (e->fence == IR_FENCE_LFENCE) es_add(&s[CB_LFENCE], i);
            if (e->fence == IR_FENCE_SFENCE) es_add(&s[CB_SFENCE], i);
        }
    }
    s[CB_EXP] = s[CB_M];
    cat_a64_sets(r, s);
}

/* A relation of the execution's (rows for its real events), with no pair
 * on the virtual events. */
static exec_rel *copy_rel(cat_run *r, const exec_rel *src)
{
    exec_rel *d = cat_new_rel(r);
    cr_copy(d, src, r->x->n);
    if (r->n > r->x->n) memset(&d->row[r->x->n], 0, (size_t)(r->n - r->x->n) * sizeof d->row[0]);
    return d;
}

void cat_prim_fill(cat_run *r, bool statics, bool dynamics)
{
    const exec *x = r->x;
    int n = x->n;
    cat_val *g = r->globals;
    if (dynamics) {
        /* Candidate-dependent values point straight into the exec, unless
         * virtual events widen it. */
        g[CB_FW] = cv_set(r, es_and(x->fw, cr_all(n)));
        g[CB_RF] = cv_rel(r->nvirt ? copy_rel(r, &x->rf) : (exec_rel *)&x->rf);
        g[CB_DIFFERENT_VALUES].kind = CV_PRIM;
        g[CB_DIFFERENT_VALUES].n = CB_DIFFERENT_VALUES;
    }
    if (!statics) return;
    exec_set s[CB_SET_LAST + 1];
    memset(s, 0, sizeof s);
    fill_sets(r, s);
    for (int b = 0; b <= CB_SET_LAST; b++)
        if (b != CB_FW) g[b] = cv_set(r, s[b]);
    g[CB_ID] = cv_rel(r->ident);
    exec_rel *loc = cat_new_rel(r), *in = cat_new_rel(r), *ext = cat_new_rel(r), *sm = cat_new_rel(r);
    cr_clear(loc, r->n);
    cr_clear(in, r->n);
    cr_clear(ext, r->n);
    for (int i = 0; i < n; i++) {
        exec_set l = es_none(), t = es_none(), e = es_none();
        const exec_event *a = &x->ev[i];
        for (int j = 0; j < n; j++) {
            const exec_event *b = &x->ev[j];
            if (a->loc >= 0 && a->loc == b->loc) es_add(&l, j);
            bool ia = a->kind & EV_IW, ib = b->kind & EV_IW;
            /* herd: int relates events of one thread; ext relates events of
             * different threads, and an initial write to a thread's event. */
            if (!ia && !ib && a->thread == b->thread) es_add(&t, j);
            if (ia != ib || (!ia && !ib && a->thread != b->thread)) es_add(&e, j);
        }
        loc->row[i] = l;
        in->row[i] = t;
        ext->row[i] = e;
    }
    cr_toid(sm, s[CB_M], r->n);
    g[CB_LOC] = cv_rel(loc);
    g[CB_INT] = cv_rel(in);
    g[CB_EXT] = cv_rel(ext);
    /* herd's po never relates two events of one instruction (the read and
     * write of an x86 locked instruction are ordered by iico instead). */
    exec_rel *po = copy_rel(r, &x->po);
    for (int i = 0; i < n; i++)
        for (exec_set b = po->row[i]; !es_empty(b);) {
            int j = es_pop(&b);
            if (x->ev[i].instr && x->ev[i].instr == x->ev[j].instr) es_del(&po->row[i], j);
        }
    g[CB_PO] = cv_rel(po);
    g[CB_PARTIAL_PO] = g[CB_PO];
    exec_rel *rmw = copy_rel(r, &x->rmw);
    g[CB_RMWREL] = cv_rel(rmw);
    /* amo: the rmw pairs of one instruction (herd's po_eq), which leaves
     * AArch64's exclusive pairs out and is all of x86's and C's. */
    exec_rel *amo = copy_rel(r, &x->rmw);
    for (int i = 0; i < n; i++)
        for (exec_set b = amo->row[i]; !es_empty(b);) {
            int j = es_pop(&b);
            if (!x->ev[i].instr || x->ev[i].instr != x->ev[j].instr) es_del(&amo->row[i], j);
        }
    g[CB_AMO] = cv_rel(amo);
    g[CB_ADDR] = cv_rel(copy_rel(r, &x->addr));
    g[CB_DATA] = cv_rel(copy_rel(r, &x->data));
    g[CB_CTRL] = cv_rel(copy_rel(r, &x->ctrl));
    g[CB_SM] = g[CB_SI] = cv_rel(sm);
    cat_a64_rels(r, po, in, ext);
    for (int b = CB_REL_LAST + 1; b < CB_COUNT; b++) {
        g[b].kind = CV_PRIM;
        g[b].n = b;
    }
}

/* ---- primitive functions ----------------------------------------------------------- */
#define PERR(...) cat_type_error(r, at->file, at->line, at->col, __VA_ARGS__)

static bool arg_set(cat_run *r, const cat_expr *at, cat_val v, const char *fn, exec_set *out)
{
    if (v.kind == CV_SET) { *out = *v.u.set; return true; }
    if (v.kind == CV_EMPTY) { *out = es_none(); return true; }
    if (v.kind == CV_UNIV) { *out = r->all; return true; }
    return PERR("%s expects a set of events, found a %s", fn, cat_kind_name(v.kind));
}

static bool arg_rel(cat_run *r, const cat_expr *at, cat_val v, const char *fn, exec_rel **out)
{
    if (v.kind == CV_REL) { *out = v.u.rel; return true; }
    if (v.kind == CV_EMPTY) { *out = r->zero; return true; }
    if (v.kind == CV_UNIV) { *out = r->univ; return true; }
    return PERR("%s expects a relation, found a %s", fn, cat_kind_name(v.kind));
}

static bool arg_pair(cat_run *r, const cat_expr *at, cat_val v, const char *fn, cat_val *a, cat_val *b)
{
    *a = *b = cv_kind_only(CV_EMPTY);
    if (v.kind != CV_TUPLE || v.n != 2)
        return PERR("%s expects 2 arguments, got %s", fn, v.kind == CV_TUPLE ? "another number" : "one");
    *a = v.u.elts[0];
    *b = v.u.elts[1];
    return true;
}

/* Partition S by location; events without one form their own class. */
static cat_val classes_loc(cat_run *r, exec_set s)
{
    cat_val *el = arena_alloc(r->cur, (size_t)(r->n + 1) * sizeof *el);
    int k = 0;
    exec_set left = s;
    while (!es_empty(left)) {
        int i = es_first(left);
        exec_set cls = es_none();
        for (exec_set b = left; !es_empty(b);) {
            int j = es_pop(&b);
            if (j == i || (i < r->x->n && j < r->x->n && r->x->ev[i].loc >= 0 &&
                           r->x->ev[j].loc == r->x->ev[i].loc))
                es_add(&cls, j);
        }
        el[k++] = cv_set(r, cls);
        left = es_minus(left, cls);
    }
    return cat_vset_make(r, el, k);
}

/* Equivalence classes of (R | R^-1)* over the events R relates. */
static cat_val classes(cat_run *r, const exec_rel *rel)
{
    int n = r->n;
    exec_rel *u = cat_new_rel(r);
    cr_inv(u, rel, n);
    cr_union(u, u, rel, n);
    cr_plus_inplace(u, n);
    cat_val *el = arena_alloc(r->cur, (size_t)(n + 1) * sizeof *el);
    int k = 0;
    exec_set seen = es_none();
    for (int i = 0; i < n; i++) {
        if (es_empty(u->row[i]) || es_has(seen, i)) continue;
        exec_set cls = u->row[i];
        es_add(&cls, i);
        el[k++] = cv_set(r, cls);
        seen = es_or(seen, cls);
    }
    return cat_vset_make(r, el, k);
}

/* All total orders of the events of S that extend E (E's transitive
 * closure, so paths through events outside S count).  A cycle gives none. */
typedef struct lin_state {
    cat_run *r;
    exec_set nodes;
    exec_set pred[EXEC_MAX];
    int order[EXEC_MAX], depth, total;
    cat_val *out;
    int nout, cap;
    bool overflow;
} lin_state;

enum { LIN_MAX = 1 << 20 };

static void lin_emit(lin_state *ls)
{
    cat_run *r = ls->r;
    if (ls->nout == LIN_MAX || !model_meter_tick(r->meter)) { ls->overflow = true; return; }
    exec_rel *o = cat_new_rel(r);
    cr_clear(o, r->n);
    exec_set later = es_none();
    for (int k = ls->depth - 1; k >= 0; k--) {
        o->row[ls->order[k]] = later;
        es_add(&later, ls->order[k]);
    }
    if (ls->nout == ls->cap) {
        int cap = ls->cap ? 2 * ls->cap : 16;
        cat_val *nv = arena_alloc(r->cur, (size_t)cap * sizeof *nv);
        if (ls->nout) memcpy(nv, ls->out, (size_t)ls->nout * sizeof *nv);
        ls->out = nv;
        ls->cap = cap;
    }
    ls->out[ls->nout++] = cv_rel(o);
}

static void lin_rec(lin_state *ls, exec_set placed)
{
    if (ls->overflow) return;
    if (ls->depth == ls->total) { lin_emit(ls); return; }
    exec_set cand = es_minus(ls->nodes, placed);
    for (int i; (i = es_pop(&cand)) >= 0;) {
        if (!es_empty(es_minus(ls->pred[i], placed))) continue;
        ls->order[ls->depth++] = i;
        exec_set next = placed;
        es_add(&next, i);
        lin_rec(ls, next);
        ls->depth--;
    }
}

/* Linearisations of S under E into LS (appended); false if cyclic. */
static bool linearise(cat_run *r, lin_state *ls, exec_set s, const exec_rel *e)
{
    int n = r->n;
    exec_rel *c = cat_new_rel(r);
    cr_copy(c, e, n);
    cr_plus_inplace(c, n);
    memset(ls->pred, 0, sizeof ls->pred);
    for (int i = 0; i < n; i++) {
        if (!es_has(s, i)) continue;
        if (es_has(c->row[i], i)) return false;
        exec_set b = es_and(c->row[i], s);
        for (int j; (j = es_pop(&b)) >= 0;) es_add(&ls->pred[j], i);
    }
    ls->r = r;
    ls->nodes = s;
    ls->depth = 0;
    ls->total = es_count(s);
    lin_rec(ls, es_none());
    return true;
}

static bool prim_linearisations(cat_run *r, const cat_expr *at, cat_val arg, cat_val *out)
{
    cat_val a = cv_kind_only(CV_EMPTY), b = a;
    exec_set s;
    exec_rel *e = NULL;
    if (!arg_pair(r, at, arg, "linearisations", &a, &b) || !arg_set(r, at, a, "linearisations", &s) ||
        !arg_rel(r, at, b, "linearisations", &e))
        return false;
    lin_state *ls = xcalloc(1, sizeof *ls);
    linearise(r, ls, s, e);
    bool over = ls->overflow;
    cat_val res = cat_vset_make(r, ls->out, ls->nout);
    free(ls);
    if (over) return PERR("linearisations: more than %d orders", LIN_MAX);
    *out = res;
    return true;
}

/* Every union of one element from each set of relations in OSS. */
static bool cross_rec(cat_run *r, const cat_val *sets, int nsets, int k, exec_rel *acc, cat_val **out, int *nout,
                      int *cap, const cat_expr *at)
{
    if (k == nsets) {
        if (!model_meter_tick(r->meter)) { r->error = true; return false; }
        if (*nout == LIN_MAX) return PERR("cross product: more than %d orders", LIN_MAX);
        if (*nout == *cap) {
            int nc = *cap ? 2 * *cap : 16;
            cat_val *nv = arena_alloc(r->cur, (size_t)nc * sizeof *nv);
            if (*nout) memcpy(nv, *out, (size_t)*nout * sizeof *nv);
            *out = nv;
            *cap = nc;
        }
        exec_rel *o = cat_new_rel(r);
        cr_copy(o, acc, r->n);
        (*out)[(*nout)++] = cv_rel(o);
        return true;
    }
    const cat_val *s = &sets[k];
    int m = s->kind == CV_VSET ? s->n : 0;
    for (int i = 0; i < m; i++) {
        exec_rel *piece = NULL;
        if (!arg_rel(r, at, s->u.elts[i], "cross product", &piece)) return false;
        exec_rel *next = cat_new_rel(r);
        cr_union(next, acc, piece, r->n);
        if (!cross_rec(r, sets, nsets, k + 1, next, out, nout, cap, at)) return false;
    }
    return true;
}

static bool prim_cross_orders(cat_run *r, const cat_expr *at, cat_val arg, cat_val *out)
{
    cat_val a = cv_kind_only(CV_EMPTY), b = a;
    exec_rel *e = NULL;
    if (!arg_pair(r, at, arg, "cross-orders", &a, &b) || !arg_rel(r, at, b, "cross-orders", &e)) return false;
    if (a.kind != CV_VSET && a.kind != CV_EMPTY)
        return PERR("cross-orders expects a set of event sets, found a %s", cat_kind_name(a.kind));
    int nc = a.kind == CV_VSET ? a.n : 0;
    cat_val *per = arena_alloc(r->cur, (size_t)(nc + 1) * sizeof *per);
    for (int k = 0; k < nc; k++) {
        exec_set s;
        if (!arg_set(r, at, a.u.elts[k], "cross-orders", &s)) return false;
        lin_state *ls = xcalloc(1, sizeof *ls);
        bool acyclic = linearise(r, ls, s, e);
        bool over = ls->overflow;
        per[k].kind = CV_VSET;
        per[k].n = ls->nout;
        per[k].u.elts = ls->out;
        free(ls);
        if (over) return PERR("cross-orders: more than %d orders", LIN_MAX);
        if (!acyclic || per[k].n == 0) { *out = cv_kind_only(CV_EMPTY); return true; }
    }
    cat_val *res = NULL;
    int nres = 0, cap = 0;
    if (!cross_rec(r, per, nc, 0, r->zero, &res, &nres, &cap, at)) return false;
    if (!nres) { *out = cv_kind_only(CV_EMPTY); return true; }
    cat_val v = {CV_VSET, nres, {.elts = res}};
    *out = v;
    return true;
}

bool cat_prim_apply(cat_run *r, int b, cat_val arg, const cat_expr *at, cat_val *out)
{
    exec_rel *rel = NULL;
    switch (b) {
    case CB_DOMAIN: case CB_RANGE:
        if (arg.kind == CV_EMPTY || arg.kind == CV_UNIV) { *out = arg; return true; }
        if (!arg_rel(r, at, arg, builtin_names[b], &rel)) return false;
        *out = cv_set(r, b == CB_DOMAIN ? cr_domain(rel, r->n) : cr_range(rel, r->n));
        return true;
    case CB_CLASSES_LOC: {
        exec_set s;
        if (!arg_set(r, at, arg, "classes-loc", &s)) return false;
        *out = classes_loc(r, s);
        return true;
    }
    case CB_CLASSES:
        if (!arg_rel(r, at, arg, "classes", &rel)) return false;
        *out = classes(r, rel);
        return true;
    case CB_LINEARISATIONS:
        return prim_linearisations(r, at, arg, out);
    case CB_CROSS_ORDERS:
        return prim_cross_orders(r, at, arg, out);
    case CB_CROSS: {
        if (arg.kind == CV_EMPTY) {
            cat_val *one = arena_alloc(r->cur, sizeof *one);
            one[0] = cv_rel(r->zero);
            cat_val v = {CV_VSET, 1, {.elts = one}};
            *out = v;
            return true;
        }
        if (arg.kind != CV_VSET) return PERR("cross-product expects a set of sets of relations, found a %s", cat_kind_name(arg.kind));
        cat_val *res = NULL;
        int nres = 0, cap = 0;
        if (!cross_rec(r, arg.u.elts, arg.n, 0, r->zero, &res, &nres, &cap, at)) return false;
        *out = cat_vset_make(r, res, nres);
        return true;
    }
    case CB_FAIL:
        return PERR("fail");
    case CB_SAME_OA: case CB_OA_CHANGES: case CB_AT_LEAST_ONE_WRITABLE:
        /* about page-table entries, which no test here has */
        *out = cv_kind_only(CV_EMPTY);
        return true;
    case CB_DIFFERENT_VALUES: {
        if (!arg_rel(r, at, arg, "different-values", &rel)) return false;
        exec_rel *d = cat_new_rel(r);
        cr_clear(d, r->n);
        for (int i = 0; i < r->x->n; i++) {
            const exec_event *a = &r->x->ev[i];
            ir_val va = (a->kind & EV_W) ? a->wval : a->rval;
            exec_set row = es_none();
            for (exec_set bb = rel->row[i]; !es_empty(bb);) {
                int j = es_pop(&bb);
                if (j >= r->x->n) continue;
                const exec_event *c = &r->x->ev[j];
                ir_val vc = (c->kind & EV_W) ? c->wval : c->rval;
                if (va != vc) es_add(&row, j);
            }
            d->row[i] = row;
        }
        *out = cv_rel(d);
        return true;
    }
    default:
        return PERR("internal error: '%s' is not a function", builtin_names[b]);
    }
}
