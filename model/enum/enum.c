/* Stage 2 of enumeration (see enum.h; stage 1, the paths, is
 * model/paths/): candidates, the way herd counts them.  For each
 * combination of thread paths, every read takes one same-location write
 * (rf); values are propagated by substitution as
 * soon as the write's value is known, and a path assumption that fails
 * cuts the search.  Then, for models that build co from generate_cos,
 * each per-location coherence order (IW first) is one candidate whose
 * co-last writes are the final writes of the observed locations; for
 * other models the final write of each observed location is chosen
 * directly (herd's observed_finals_only).  Each candidate goes to the cat
 * model, and each consistent one counts towards herd's Positive/Negative.
 *
 * This file is the search: path combinations, rf, and co or final writes.
 * What a complete candidate's values are, and what the model and the
 * solver say of it, is enum_cand.c: the search only decides which
 * candidates exist. */
#include <stdlib.h>
#include <string.h>
#include "model/enum/enum_impl.h"
#include "util/mem.h"

/* ---- coherence ----------------------------------------------------------- */

typedef struct loc_orders {
    int k;                      /* writes other than IW */
    int *ord;                   /* norders * k */
    int norders;
    size_t cap;
} loc_orders;

/* Same-location coherence facts that uniproc forces (when pruning):
 * before[i] holds the writes that must precede write W[i]; imm[i] the
 * write that must come right after W[i] (an RMW reading from it). */
typedef struct co_cons {
    int w[EXEC_MAX];
    int k;
    exec_set before[EXEC_MAX];  /* per write index: events */
    int imm[EXEC_MAX + 1];      /* per write index (k = IW): index, or -1 */
    bool imm_target[EXEC_MAX];
} co_cons;

static int windex(const co_cons *c, int ev)
{
    for (int i = 0; i < c->k; i++)
        if (c->w[i] == ev)
            return i;
    return -1;
}

static bool same_thread_po(const enumr *e, int a, int b)
{
    return er_has(&e->x.po, a, b);
}

/* Returns false when the constraints are contradictory. */
static bool build_cons(enumr *e, int loc, co_cons *c)
{
    int iw = loc;
    exec_set ws = e->locw[loc];
    es_del(&ws, iw);
    c->k = 0;
    for (int i; (i = es_pop(&ws)) >= 0;)
        c->w[c->k++] = i;
    for (int i = 0; i <= c->k; i++)
        c->imm[i] = -1;
    for (int i = 0; i < c->k; i++) {
        c->before[i] = es_none();
        c->imm_target[i] = false;
    }
    if (!e->prune)
        return true;
    /* Events of this location in threads. */
    int evs[EXEC_MAX], n = 0;
    for (int i = e->nlocs; i < e->x.n; i++)
        if (e->x.ev[i].loc == loc && !(e->x.ev[i].kind & EV_F))
            evs[n++] = i;
    for (int a = 0; a < n; a++) {
        for (int bb = 0; bb < n; bb++) {
            int p = evs[a], q = evs[bb];
            if (p == q || !same_thread_po(e, p, q))
                continue;
            const exec_event *P = &e->x.ev[p], *Q = &e->x.ev[q];
            /* source write of p's read / q's read, when they read */
            int sp = (P->kind & EV_R) && es_has(e->chosen, p) ? e->src[p] : -1;
            int sq = (Q->kind & EV_R) && es_has(e->chosen, q) ? e->src[q] : -1;
            int A = -1, B = -1;         /* A must be co-before B */
            if ((P->kind & EV_W) && (Q->kind & EV_W)) { A = p; B = q; }
            if (A >= 0) {
                int ia = windex(c, A), ib = windex(c, B);
                if (ib < 0)
                    return false;
                es_add(&c->before[ib], A);
                (void)ia;
            }
            if ((P->kind & EV_W) && sq >= 0 && sq != p) {
                /* W po R, R reads W' != W: W co-before W' */
                int ib = windex(c, sq);
                if (ib < 0)
                    return false;   /* W' is IW */
                es_add(&c->before[ib], p);
            }
            if (sp >= 0 && (Q->kind & EV_W) && sp != q) {
                /* R po W, R reads W': W' co-before W */
                int ib = windex(c, q);
                if (ib < 0)
                    return false;
                es_add(&c->before[ib], sp);
            }
            if (sp >= 0 && sq >= 0 && sp != sq) {
                /* R po R', reading W and W': W co-before W' */
                int ib = windex(c, sq);
                if (ib < 0)
                    return false;
                es_add(&c->before[ib], sp);
            }
        }
    }
    /* Atomicity: a C or Java RMW comes right after the write it read
     * (anything else is a cycle or breaks atomicity in every prunable
     * model).  An x86 locked instruction is left to the model: herd's
     * atomicity only forbids an external write between its halves, and
     * its write may even be co-before the write its read took. */
    for (int a = 0; a < n; a++) {
        int p = evs[a];
        const exec_event *P = &e->x.ev[p];
        if (!P->is_rmw || (P->kind & (EV_R | EV_W)) != (EV_R | EV_W) || !es_has(e->chosen, p))
            continue;
        int wr = p;
        int from = e->src[p] == iw ? c->k : windex(c, e->src[p]);
        int to = windex(c, wr);
        if (from < 0 || to < 0)
            return false;
        if (c->imm[from] >= 0 && c->imm[from] != to)
            return false;
        c->imm[from] = to;
        c->imm_target[to] = true;
    }
    return true;
}

/* Coherence orders of one location, at most: k writes have k! orders, and
 * 9 unordered writes (362880) would search without an end in sight. */
#define ENUM_MAX_CO_ORDERS 100000

/* N more candidates (rf and co choices together) against the run's
 * budget (model/budget.h); false stops the search. */
static bool spend(enumr *e, uint64_t n)
{
    return model_meter_count(e->meter, n) || enum_fail(e);
}

/* One more step of the search (the clock, now and then). */
static bool step(enumr *e)
{
    return model_meter_tick(e->meter) || enum_fail(e);
}

static void gen_orders(const co_cons *c, loc_orders *o, int *cur, int depth,
                       exec_set placed, int last)
{
    if (o->norders > ENUM_MAX_CO_ORDERS)
        return;
    if (depth == c->k) {
        size_t n = (size_t)o->norders;
        size_t need = (n + 1) * (size_t)(c->k ? c->k : 1);
        if (need > o->cap) {
            o->cap = need * 2;
            o->ord = xrealloc(o->ord, o->cap * sizeof *o->ord);
        }
        if (c->k)
            memcpy(o->ord + n * (size_t)c->k, cur, (size_t)c->k * sizeof *cur);
        o->norders++;
        return;
    }
    int forced = c->imm[last];
    for (int i = 0; i < c->k; i++) {
        if (es_has(placed, c->w[i]))
            continue;
        if (forced >= 0 ? i != forced : c->imm_target[i])
            continue;
        if (!es_empty(es_minus(c->before[i], placed)))
            continue;
        cur[depth] = c->w[i];
        exec_set next = placed;
        es_add(&next, c->w[i]);
        gen_orders(c, o, cur, depth + 1, next, i);
    }
}

static bool co_loc(enumr *e, loc_orders *ords, int l)
{
    if (e->failed)
        return false;
    if (l == e->nlocs)
        return step(e) && enum_candidate(e);
    loc_orders *o = &ords[l];
    int iw = l;
    for (int j = 0; j < o->norders; j++) {
        const int *ord = o->ord + (size_t)j * (size_t)o->k;
        exec_set later = es_none();
        for (int i = o->k - 1; i >= 0; i--) {
            e->x.co.row[ord[i]] = later;
            es_add(&later, ord[i]);
        }
        e->x.co.row[iw] = later;
        if (e->loc_obs[l])
            e->fw[l] = o->k ? ord[o->k - 1] : iw;
        if (!co_loc(e, ords, l + 1))
            return false;
    }
    return true;
}

/* Models without co: choose the final write of each observed location. */
static bool fw_loc(enumr *e, int l)
{
    if (e->failed)
        return false;
    if (l == e->nlocs)
        return spend(e, 1) && enum_candidate(e);
    if (!e->loc_obs[l])
        return fw_loc(e, l + 1);
    exec_set ws = e->locw[l];
    es_del(&ws, l);
    if (es_empty(ws))
        ws = es_one(l);     /* only the initial write */
    for (int w; (w = es_pop(&ws)) >= 0;) {
        e->fw[l] = w;
        if (!fw_loc(e, l + 1))
            return false;
    }
    return true;
}

static bool rf_done(enumr *e)
{
    e->symbolic = !enum_all_known(e);
    er_clear(&e->x.rf, e->x.n);
    for (int j = 0; j < e->nreads; j++)
        er_add(&e->x.rf, e->src[e->reads[j]], e->reads[j]);
    if (!e->symbolic)
        enum_fill_values(e);
    er_clear(&e->x.co, e->x.n);
    if (!e->gen_co)
        return fw_loc(e, 0);
    /* a test without locations (or threads) still needs an array of one:
     * a VLA of size 0 is undefined */
    loc_orders ords[e->nlocs > 0 ? e->nlocs : 1];
    bool ok = true;
    for (int l = 0; l < e->nlocs; l++) {
        memset(&ords[l], 0, sizeof ords[l]);
        co_cons c;
        if (ok && build_cons(e, l, &c)) {
            ords[l].k = c.k;
            int cur[EXEC_MAX];
            /* IW is co-first: placed before the search starts. */
            gen_orders(&c, &ords[l], cur, 0, es_one(l), c.k);
            if (ords[l].norders > ENUM_MAX_CO_ORDERS) {
                diag_fail(e->d, "%s: location %s has more than %d coherence orders (the search limit)",
                          e->t->name, e->t->locs[l].name, ENUM_MAX_CO_ORDERS);
                for (int m = 0; m <= l; m++)
                    free(ords[m].ord);
                return enum_fail(e);
            }
            if (ords[l].norders == 0)
                ok = false;
        } else {
            ok = false;
        }
    }
    bool r = true;
    /* co_loc visits every combination of the locations' orders: counted at
     * once, so that a product past the budget stops before it starts */
    uint64_t combos = 1;
    for (int l = 0; ok && l < e->nlocs && combos <= UINT32_MAX; l++)
        combos *= (uint64_t)ords[l].norders;
    if (ok && !spend(e, combos))
        ok = r = false;
    if (ok)
        r = co_loc(e, ords, 0);
    for (int l = 0; l < e->nlocs; l++)
        free(ords[l].ord);
    return r;
}

/* ---- reads-from ------------------------------------------------------------ */

/* Cheap uniproc checks on one rf edge w -> r (pruning only). */
static bool rf_plausible(enumr *e, int r, int w)
{
    if (!e->prune)
        return true;
    int th = e->evth[r];
    if (e->evth[w] == th && same_thread_po(e, r, w))
        return false;               /* reads from its own future */
    int loc = e->x.ev[r].loc;
    /* The latest po-earlier same-location write of the thread, if any:
     * the read must not read anything co-before it; we only reject IW and
     * po-earlier writes older than it here, co does the rest. */
    int last = -1;
    for (int i = e->nlocs; i < e->x.n; i++)
        if (i != r && e->evth[i] == th && e->x.ev[i].loc == loc &&
            (e->x.ev[i].kind & EV_W) && same_thread_po(e, i, r))
            last = i;
    if (last >= 0) {
        if (w == loc)
            return false;
        if (e->evth[w] == th && w != last && same_thread_po(e, w, last))
            return false;
    }
    return true;
}

/* Whether the coherence facts forced so far at LOC leave some order:
 * checked on each rf choice so incoherent prefixes are cut early. */
static bool loc_coherent(enumr *e, int loc)
{
    co_cons c;
    if (!build_cons(e, loc, &c))
        return false;
    exec_set placed = es_one(loc);
    for (int left = c.k; left > 0; left--) {
        int pick = -1;
        for (int i = 0; i < c.k && pick < 0; i++)
            if (!es_has(placed, c.w[i]) && es_empty(es_minus(c.before[i], placed)))
                pick = i;
        if (pick < 0)
            return false;               /* a cycle */
        es_add(&placed, c.w[pick]);
    }
    return true;
}

static bool rf_choose(enumr *e, int j)
{
    if (e->failed || !step(e))
        return false;
    if (j == e->nreads)
        return rf_done(e);
    int r = e->reads[j];
    exec_set cands = e->candw[r];
    uint64_t saved[e->nth > 0 ? e->nth : 1];
    memcpy(saved, e->known, (size_t)e->nth * sizeof *saved);
    for (int w; (w = es_pop(&cands)) >= 0;) {
        if (!rf_plausible(e, r, w))
            continue;
        e->src[r] = w;
        es_add(&e->chosen, r);
        if (!e->prune || loc_coherent(e, e->x.ev[r].loc)) {
            enum_propagate(e, j + 1);
            if (enum_conds_ok(e) && !rf_choose(e, j + 1))
                return false;
            memcpy(e->known, saved, (size_t)e->nth * sizeof *saved);
        }
        es_del(&e->chosen, r);
    }
    return true;
}

/* ---- path combinations --------------------------------------------------- */

static void dep_rel(exec_rel *rel, const enumr *e, int th, int base, int i, uint64_t deps)
{
    const tpath *p = e->cur[th];
    for (int s = 0; s < p->nslots; s++)
        if ((deps >> s) & 1)
            er_add(rel, base + p->slot_ev[s], base + i);
}

static bool build_events(enumr *e)
{
    exec *x = &e->x;
    const ir_test *t = e->t;
    int n = t->nlocs, over = -1;
    for (int th = 0; th < e->nth; th++) {
        n += e->cur[th]->nev;
        if (n > EXEC_MAX && over < 0)
            over = th;
    }
    if (n > EXEC_MAX) {
        int line = 0, col = 0;
        ir_thread_pos(t, over, &line, &col);
        /* a limit of the model, not a fault of the test: exit 3, as the
         * search limits do, still pointing at the thread that crosses it */
        diag_fail(e->d,
                  "%s:%d:%d: the test has %d events; at most %d are supported (thread %s brings it past the limit)",
                  t->file ? t->file : "", line, col, n, EXEC_MAX, t->threads[over].name);
        return enum_fail(e);
    }
    memset(x, 0, sizeof *x);
    x->test = t;
    x->n = n;
    if (n > e->b->events)
        e->b->events = n;
    memset(e->locw, 0, sizeof e->locw);
    exec_initial_writes(x, t);
    for (int l = 0; l < t->nlocs; l++) {
        e->evth[l] = -1;
        e->evix[l] = -1;
        es_add(&e->locw[l], l);
    }
    int k = t->nlocs;
    e->nreads = 0;
    for (int th = 0; th < e->nth; th++) {
        const tpath *p = e->cur[th];
        int base = k;
        for (int i = 0; i < p->nev; i++, k++) {
            const tev *te = &p->ev[i];
            exec_event *ev = &x->ev[k];
            ev->kind = te->kind;
            ev->thread = t->threads[th].id;
            ev->poi = i;
            ev->loc = te->loc;
            ev->mode = te->mode;
            ev->fence = te->fence;
            ev->rmw_op = te->rmw_op;
            ev->is_rmw = te->is_rmw;
            ev->instr = te->instr;
            e->evth[k] = th;
            e->evix[k] = i;
            /* herd leaves the read and the write of one locked
             * instruction out of po (they are one instruction instance,
             * related by rmw alone). */
            for (int j = i + 1; j < p->nev; j++)
                if (j != te->partner)
                    er_add(&x->po, k, base + j);
            if (te->partner > i)
                er_add(&x->rmw, k, base + te->partner);
            if (te->lxsx >= 0)      /* an AArch64 exclusive pair: load -> store */
                er_add(&x->rmw, base + te->lxsx, k);
            if (te->kind & EV_W)
                es_add(&e->locw[te->loc], k);
            if (te->kind & EV_R)
                e->reads[e->nreads++] = k;
            dep_rel(&x->addr, e, th, base, i, te->addr_deps);
            dep_rel(&x->data, e, th, base, i, te->data_deps);
            dep_rel(&x->ctrl, e, th, base, i, te->ctrl_deps);
            dep_rel(&x->pick, e, th, base, i, te->pick_deps);
            dep_rel(&x->pick_addr, e, th, base, i, te->pick_addr_deps);
            dep_rel(&x->pick_data, e, th, base, i, te->pick_data_deps);
        }
        e->used[th] = p->nslots >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << p->nslots) - 1);
        e->known[th] = 0;
    }
    for (int j = 0; j < e->nreads; j++) {
        int r = e->reads[j];
        e->candw[r] = e->locw[x->ev[r].loc];
        es_del(&e->candw[r], r);
        /* Nor from a write of its own instruction (herd's iico: the two
         * halves of an x86 locked instruction, Java's CAS read and RMW). */
        for (int w = t->nlocs; w < x->n; w++)
            if (w != r && e->evth[w] == e->evth[r] && x->ev[w].instr == x->ev[r].instr)
                es_del(&e->candw[r], w);
    }
    return true;
}

static bool paths_choose(enumr *e, int th)
{
    if (e->failed || !step(e))
        return false;
    if (th == e->nth) {
        if (!build_events(e))
            return false;
        e->chosen = es_none();
        enum_propagate(e, 0);
        if (!enum_conds_ok(e))
            return true;
        return rf_choose(e, 0);
    }
    for (int i = 0; i < e->tp[th].np; i++) {
        e->cur[th] = &e->tp[th].p[i];
        if (!paths_choose(e, th + 1))
            return false;
    }
    return true;
}

bool enum_run(const ir_test *t, const cat_model *cm, bool prune, bool cut_loops, const enum_observer *obs_fn,
              model_meter *meter, bset *b, uint64_t *flags, diag *d)
{
    enumr e = {.t = t, .d = d, .b = b, .cut_loops = cut_loops, .meter = meter};
    e.gen_co = cat_model_generates_co(cm);
    e.prune = prune;
    e.nth = t->nthreads;
    e.nlocs = t->nlocs;
    if (t->nlocs > EXEC_MAX) {
        diag_fail(d, "%s: the test has %d locations; at most %d are supported (each is an initial write event)",
                  t->file ? t->file : "", t->nlocs, EXEC_MAX);
        return false;
    }
    outcome_init(&e.out, t, b, obs_fn ? obs_fn->fn : NULL, obs_fn ? obs_fn->ctx : NULL);
    e.loc_obs = xcalloc((size_t)(t->nlocs ? t->nlocs : 1), sizeof(bool));
    for (int i = 0; i < e.out.nall; i++)
        if (e.out.obs[i].kind != IR_OBS_REG && e.out.obs[i].loc >= 0 && e.out.obs[i].loc < t->nlocs)
            e.loc_obs[e.out.obs[i].loc] = true;
    e.tp = xcalloc((size_t)(e.nth ? e.nth : 1), sizeof *e.tp);
    e.cur = xcalloc((size_t)(e.nth ? e.nth : 1), sizeof *e.cur);
    e.vals = xcalloc((size_t)(e.nth ? e.nth : 1), sizeof *e.vals);
    e.known = xcalloc((size_t)(e.nth ? e.nth : 1), sizeof *e.known);
    e.used = xcalloc((size_t)(e.nth ? e.nth : 1), sizeof *e.used);
    bool ok = true;
    for (int th = 0; th < e.nth && ok; th++) {
        ok = paths_thread(t, &t->threads[th], cat_model_handles_locks(cm), &e.tp[th], d);
        e.vals[th] = xcalloc(64, sizeof(ir_val));
    }
    if (ok) {
        e.run = cat_run_new(cm);
        cat_run_set_meter(e.run, meter);
        ok = paths_choose(&e, 0) && !e.failed;
        cat_run_free(e.run);
    }
    outcome_finish(&e.out);
    *flags = e.flags;
    for (int th = 0; th < e.nth; th++) {
        tpaths_free(&e.tp[th]);
        free(e.vals[th]);
    }
    sv_free(e.sv);
    free(e.tp); free(e.cur); free(e.vals); free(e.known); free(e.used);
    free(e.loc_obs);
    return ok;
}
