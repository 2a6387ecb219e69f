/* JLS04's causality requirements (JLS 17.4.8) for one target execution T:
 * is there a justification, a sequence of well-formed executions E_1 ...
 * E_n and committed sets C_0 = {} < C_1 < ... < C_n = T's events, such
 * that for every i (the JLS's own numbering; jMT, section 4, lists 1-3,
 * 5-7 as its 1-6 and checks 4 and 8 after construction):
 *   1. C_i is a subset of E_i's events;
 *   2. hb_i restricted to C_i is hb restricted to C_i (hb of T);
 *   3. so_i restricted to C_i is so restricted to C_i;
 *   4. the writes of C_i write the same values in E_i as in T;
 *   5. the reads of C_{i-1} see the same writes in E_i as in T;
 *   6. every read of E_i not in C_{i-1} sees a write that happens before it;
 *   7. every read of C_i \ C_{i-1} sees writes of C_{i-1}, in E_i and in T;
 *   8. if (x, y) is a sufficient synchronizes-with edge of E_i (in sw_i, in
 *      the transitive reduction of hb_i, not in po_i), hb_i(y, z) (or y = z,
 *      as jMT's hb = (po | sw)* has it) and z is in C_i, then (x, y) is in
 *      sw_j for every j >= i;
 *   9. (external actions) never applies: herd's Java tests have none.
 *
 * Values.  jMT keeps E_i symbolic and settles condition 4 at the end with
 * an SMT solver.  Here it is settled at each stage, exactly and without a
 * solver, because of 5-7: every read of E_i either is in C_{i-1} and sees
 * T's write, which is committed and so (condition 4) has T's value, or
 * sees a write that happens before it.  hb is acyclic, so E_i's values
 * follow by evaluating its events in hb order from the committed writes'
 * values; and a write's value in T is fixed the moment it is committed
 * (condition 4), by the E_i that commits it.  T's own values are then
 * checked against its program (each write the value of its expression,
 * each branch assumption true), which is what jMT's final formula says of
 * T.  A target whose values are not forced by substitution (a cycle of
 * reads-from, as in LB with data dependencies) gets exactly the values its
 * justifications commit: no value comes out of thin air.
 *
 * The search.  A state is C, the condition 8 obligations so far, and the
 * committed writes' values; each state is expanded once.  From a state,
 * every well-formed E that satisfies 1-6 and 8 for C as C_{i-1} gives the
 * events it may commit (condition 7 for reads, 4 for writes, 2 and 3
 * pairwise).  It suffices to commit one event at a time, or a set of reads
 * that see in E another committed write than in T all at once: a stage
 * that commits X with E can be cut into one-event stages with the same E
 * for the events of X other than those reads, followed by one stage with
 * the same E for those reads, and each cut stage meets 1-8 (their
 * conditions are those of the stage, on subsets).  Bigger steps are tried
 * first, since they find a justification sooner.  The initial writes are
 * committed in C_1: they are in every execution, happen before every
 * event and are no reads, so adding them to every C_i keeps 1-8. */
#include <stdlib.h>
#include <string.h>
#include "model/jls04/jls04_impl.h"
#include "util/mem.h"

/* T's values so far. */
typedef struct tval {
    ir_val w[JLS04_MAX_EVENTS];     /* per write of T */
    jset known;
} tval;

typedef struct mentry { jset c, r; uint64_t h; int off, n; } mentry;

typedef struct jsearch {
    jls *j;
    int ti;
    const jexec *T;
    const jframe *TF;
    jset iw;                        /* the initial writes */
    bool forced;                    /* T's values follow from its initial writes */
    /* T's events but the initial writes, with their thread and path event */
    int nev;
    int evid[JLS04_MAX_EVENTS], evth[JLS04_MAX_EVENTS];
    const tev *evp[JLS04_MAX_EVENTS];
    const tpath **tpath;            /* per thread: T's path */
    bool done;
    bool failed;
    /* states seen */
    mentry *tab;
    size_t ntab, nused;
    ir_val *vals;
    size_t nvals, capvals;
    /* the justification being built */
    jstage stack[JLS04_MAX_EVENTS + 2];
    int depth;
    /* outcomes found (targets whose values are not forced) */
    ir_val *seen;
    int nseen, capseen;
} jsearch;

#define MEMO_MAX 2000000u

/* ---- T's values ---------------------------------------------------------- */

/* Settle what follows in T from the writes whose value is known: a read
 * takes its write's value, a write its expression's.  False when T
 * contradicts itself: a known write whose expression says otherwise, a
 * branch assumption of T's paths that fails. */
static bool t_settle(const jsearch *s, tval *v, ir_val (*slots)[64], uint64_t *sk)
{
    const jls *j = s->j;
    const jexec *T = s->T;
    memset(sk, 0, (size_t)j->nth * sizeof *sk);
    for (bool changed = true; changed;) {
        changed = false;
        for (int k = 0; k < s->nev; k++) {
            int i = s->evid[k], th = s->evth[k];
            const tev *e = s->evp[k];
            if (j->id[i].kind == EV_R) {
                uint64_t bit = (uint64_t)1 << e->rslot;
                if (!(sk[th] & bit) && (v->known & JBIT(T->src[i]))) {
                    slots[th][e->rslot] = v->w[(int)T->src[i]];
                    sk[th] |= bit;
                    changed = true;
                }
                continue;
            }
            ir_val x;
            if (!vx_eval(&j->tp[th].pool, e->wval, slots[th], sk[th], &x))
                continue;
            if (v->known & JBIT(i)) {
                if (v->w[i] != x)
                    return false;
            } else {
                v->w[i] = x;
                v->known |= JBIT(i);
                changed = true;
            }
        }
    }
    for (int th = 0; th < j->nth; th++) {
        const tpath *p = s->tpath[th];
        for (int c = 0; c < p->ncond; c++) {
            ir_val x;
            if (vx_eval(&j->tp[th].pool, p->cond[c].e, slots[th], sk[th], &x) && (x != 0) != p->cond[c].nonzero)
                return false;
        }
    }
    return true;
}

/* ---- a justifying execution ------------------------------------------------ */

/* Conditions 1, 2, 3 and 8 of the executions of frame F for C as C_{i-1},
 * R the obligations of condition 8 from earlier stages: what they share. */
static bool frame_fits(const jsearch *s, const jframe *F, jset C, jset R)
{
    const jls *j = s->j;
    if (C & ~F->ev)
        return false;                                   /* 1 */
    if (R & ~F->sw)
        return false;                                   /* 8 */
    for (int i = 0; i < j->nid; i++) {
        if (!(C & JBIT(i)))
            continue;
        if ((F->hb[i] ^ s->TF->hb[i]) & C)
            return false;                               /* 2 */
        if ((F->so[i] ^ s->TF->so[i]) & C)
            return false;                               /* 3 */
    }
    return true;
}

/* ---- states seen -------------------------------------------------------------- */

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdULL;
}

/* Whether (C, R, the committed writes' values) was seen; records it if
 * not.  False + failed when the table is full. */
static bool memo_seen(jsearch *s, jset C, jset R, const tval *v)
{
    const jls *j = s->j;
    jset cw = C & s->T->wr & ~s->iw;
    ir_val key[JLS04_MAX_EVENTS];
    int n = 0;
    uint64_t h = mix(mix(0, C), R);
    for (int i = 0; i < j->nid; i++)
        if (cw & JBIT(i)) {
            key[n++] = v->w[i];
            h = mix(h, (uint64_t)v->w[i]);
        }
    if (s->nused * 2 >= s->ntab) {
        if (s->nused >= MEMO_MAX) {
            s->failed = true;
            jls04_limit(s->j, "the justification search of one target execution passed its limit of %u "
                      "committed sets; no verdict is given", MEMO_MAX);
            return true;
        }
        size_t nn = s->ntab ? 2 * s->ntab : 1024;
        mentry *nt = xmalloc(nn * sizeof *nt);
        for (size_t k = 0; k < nn; k++)
            nt[k].n = -1;                   /* empty */
        for (size_t k = 0; k < s->ntab; k++) {
            if (s->tab[k].n < 0)
                continue;
            size_t q = s->tab[k].h & (nn - 1);
            while (nt[q].n >= 0)
                q = (q + 1) & (nn - 1);
            nt[q] = s->tab[k];
        }
        free(s->tab);
        s->tab = nt;
        s->ntab = nn;
    }
    size_t q = h & (s->ntab - 1);
    for (; s->tab[q].n >= 0; q = (q + 1) & (s->ntab - 1)) {
        const mentry *m = &s->tab[q];
        if (m->h == h && m->c == C && m->r == R && m->n == n &&
            (n == 0 || !memcmp(s->vals + m->off, key, (size_t)n * sizeof *key)))
            return true;
    }
    while (s->nvals + (size_t)n > s->capvals) {
        s->capvals = s->capvals ? 2 * s->capvals : 1024;
        s->vals = xrealloc(s->vals, s->capvals * sizeof *s->vals);
    }
    if (n > 0)      /* no values yet: vals may still be NULL */
        memcpy(s->vals + s->nvals, key, (size_t)n * sizeof *key);
    s->tab[q] = (mentry){C, R, h, (int)s->nvals, n};
    s->nvals += (size_t)n;
    s->nused++;
    return false;
}

/* ---- the search ------------------------------------------------------------- */

static bool search(jsearch *s, jset C, jset R, const tval *tv);

/* A complete justification: C is all of T. */
static bool complete(jsearch *s, const tval *tv)
{
    jls *j = s->j;
    tval v = *tv;
    ir_val slots[j->nth > 0 ? j->nth : 1][64];
    uint64_t sk[j->nth > 0 ? j->nth : 1];
    if (!t_settle(s, &v, slots, sk))
        return true;
    if (!s->forced) {
        for (int k = 0; k < s->nseen; k++)
            if (!memcmp(s->seen + (size_t)k * JLS04_MAX_EVENTS, v.w, sizeof v.w))
                return true;
        for (int k = 0; k < JLS04_MAX_EVENTS; k++) {
            size_t n = (size_t)s->nseen * JLS04_MAX_EVENTS + (size_t)k, cap = (size_t)s->capseen;
            if (n == cap) {
                cap = cap ? 2 * cap : 4 * JLS04_MAX_EVENTS;
                s->seen = xrealloc(s->seen, cap * sizeof *s->seen);
                s->capseen = (int)cap;
            }
            s->seen[n] = v.w[k];
        }
        s->nseen++;
    } else {
        s->done = true;
    }
    if (!jls04_outcome(j, s->ti, v.w, slots, s->stack, s->depth)) {
        s->failed = true;
        return false;
    }
    return true;
}

/* Commit X with E (values EV) from state (C, R, TV). */
static bool step(jsearch *s, int xi, const ir_val *ev, jset C, jset R, const tval *tv, jset X)
{
    const jls *j = s->j;
    const jframe *EF = &j->fr[j->x[xi].frame];
    jset C2 = C | X;
    jset R2 = R;
    for (int p = 0; p < j->npair; p++) {
        int y = j->pair_r[p];
        if ((EF->ssw & JBIT(p)) && ((EF->hb[y] | JBIT(y)) & C2))
            R2 |= JBIT(p);                              /* 8 */
    }
    tval v = *tv;
    for (int i = 0; i < j->nid; i++)
        if ((X & s->T->wr & JBIT(i)) && !(v.known & JBIT(i))) {
            v.w[i] = ev[i];                             /* 4: committing fixes T's value */
            v.known |= JBIT(i);
        }
    if (memo_seen(s, C2, R2, &v))
        return !s->failed;
    /* A target whose values are forced cannot contradict itself: every
     * value committed was checked against its own (condition 4). */
    ir_val slots[j->nth > 0 ? j->nth : 1][64];
    uint64_t sk[j->nth > 0 ? j->nth : 1];
    if (!s->forced && !t_settle(s, &v, slots, sk))
        return true;
    s->stack[s->depth++] = (jstage){xi, X};
    bool ok = search(s, C2, R2, &v);
    s->depth--;
    return ok;
}

/* Every stage E (jls.x[XI]) can justify from (C, R, TV), E meeting 1-3, 5,
 * 6 and 8 already. */
static bool try_exec(jsearch *s, int xi, jset C, jset R, const tval *tv)
{
    jls *j = s->j;
    const jexec *T = s->T;
    const jexec *E = &j->x[xi];
    const jframe *EF = &j->fr[E->frame];
    ir_val ev[JLS04_MAX_EVENTS];
    if ((E->rd & ~C & ~E->hbreads) || !jls04_exec_values(j, E, C, tv->w, ev))
        return true;                                    /* 6; E's branches */
    for (int i = 0; i < j->nid; i++)
        if ((C & T->wr & JBIT(i)) && ev[i] != tv->w[i])
            return true;                                /* 4, for C_{i-1} */
    /* Columns where E's hb or so differs from T's on C, and per event
     * the events it disagrees with. */
    jset colhb = 0;
    for (int c = 0; c < j->nid; c++)
        if (C & JBIT(c))
            colhb |= (EF->hb[c] ^ s->TF->hb[c]) | (EF->so[c] ^ s->TF->so[c]);
    jset K = 0, mis = 0, dis[JLS04_MAX_EVENTS];
    jset cand = T->ev & E->ev & ~C & ~colhb;
    for (int e = 0; e < j->nid; e++) {
        if (!(cand & JBIT(e)))
            continue;
        dis[e] = (EF->hb[e] ^ s->TF->hb[e]) | (EF->so[e] ^ s->TF->so[e]);
        if (dis[e] & C)
            continue;                                   /* 2, 3 */
        if (T->wr & JBIT(e)) {
            if ((tv->known & JBIT(e)) && ev[e] != tv->w[e])
                continue;                               /* 4 */
        } else {
            if (!(C & JBIT((int)E->src[e])) || !(C & JBIT((int)T->src[e])))
                continue;                               /* 7 */
            if (E->src[e] != T->src[e])
                mis |= JBIT(e);
        }
        K |= JBIT(e);
    }
    jset match = K & ~mis;
    /* The most that fits in one stage first, then one at a time. */
    jset big = 0;
    for (int e = 0; e < j->nid; e++) {
        if (!(match & JBIT(e)))
            continue;
        bool fits = true;
        for (int f = 0; f < j->nid && fits; f++)
            if ((big & JBIT(f)) && ((dis[e] & JBIT(f)) || (dis[f] & JBIT(e))))
                fits = false;
        if (fits)
            big |= JBIT(e);
    }
    if (__builtin_popcountll(big) > 1 && !step(s, xi, ev, C, R, tv, big))
        return false;
    for (int e = 0; e < j->nid && !s->done; e++)
        if ((match & JBIT(e)) && !step(s, xi, ev, C, R, tv, JBIT(e)))
            return false;
    /* Reads that see another committed write in E than in T: all those of
     * one stage together (subsets of them pairwise compatible). */
    int mi[JLS04_MAX_EVENTS], nm = 0;
    for (int e = 0; e < j->nid; e++)
        if (mis & JBIT(e))
            mi[nm++] = e;
    if (nm > 16) {
        s->failed = true;
        return jls04_limit(j, "an execution has %d reads that could be committed seeing another write than in "
                         "the target; at most 16 are supported", nm);
    }
    for (uint32_t sub = (1u << nm) - 1; sub > 0 && !s->done; sub--) {
        jset X = 0;
        bool fits = true;
        for (int a = 0; a < nm && fits; a++) {
            if (!(sub & (1u << a)))
                continue;
            for (int b = 0; b < nm && fits; b++)
                if ((sub & (1u << b)) && (dis[mi[a]] & JBIT(mi[b])))
                    fits = false;
            X |= JBIT(mi[a]);
        }
        if (fits && !step(s, xi, ev, C, R, tv, X))
            return false;
    }
    return !s->failed;
}

static bool search(jsearch *s, jset C, jset R, const tval *tv)
{
    jls *j = s->j;
    const jexec *T = s->T;
    if (C == T->ev)
        return complete(s, tv);
    for (int fi = 0; fi < j->nfr && !s->done; fi++) {
        const jframe *F = &j->fr[fi];
        if (++j->steps > JLS04_MAX_STEPS) {
            s->failed = true;
            return jls04_limit(j, "the justification search passed its limit of %llu steps (a step: one "
                             "candidate justifying execution tried from one committed set); no verdict is given",
                             (unsigned long long)JLS04_MAX_STEPS);
        }
        if (!model_meter_tick(j->meter)) {
            s->failed = true;
            return false;
        }
        if (F->nx == 0 || !frame_fits(s, F, C, R))
            continue;
        /* 5 for the volatile reads of C: the frame's so fixes what they see. */
        const jexec *X0 = &j->x[F->base];
        jset plain = 0;
        for (int k = 0; k < F->nplain; k++)
            plain |= JBIT(F->plain[k]);
        bool ok = true;
        for (int i = 0; i < j->nid && ok; i++)
            if ((C & T->rd & ~plain & JBIT(i)) && X0->src[i] != T->src[i])
                ok = false;
        /* 5 and 6 for the plain reads: a read of C sees T's write, any other
         * a write that happens before it.  The executions that do are
         * picked out of the frame's odometer directly. */
        jset allow[JLS04_MAX_EVENTS];
        int stride[JLS04_MAX_EVENTS + 1];
        stride[F->nplain] = 1;
        for (int k = F->nplain - 1; k >= 0 && ok; k--) {
            int r = F->plain[k];
            stride[k] = stride[k + 1] * __builtin_popcountll(F->cand[k]);
            if (C & JBIT(r)) {
                allow[k] = F->cand[k] & JBIT((int)T->src[r]);
            } else {
                allow[k] = 0;
                for (int w = 0; w < j->nid; w++)
                    if ((F->cand[k] & JBIT(w)) && (F->hb[w] & JBIT(r)))
                        allow[k] |= JBIT(w);
            }
            if (!allow[k])
                ok = false;
        }
        if (!ok)
            continue;
        jset pick[JLS04_MAX_EVENTS];
        for (int k = 0; k < F->nplain; k++)
            pick[k] = allow[k] & -allow[k];             /* the lowest */
        for (;;) {
            int idx = 0;
            for (int k = 0; k < F->nplain; k++)
                idx += stride[k + 1] * __builtin_popcountll(F->cand[k] & (pick[k] - 1));
            if (!try_exec(s, F->base + idx, C, R, tv))
                return false;
            if (s->done)
                break;
            /* next combination: the last read turns fastest */
            int k = F->nplain - 1;
            for (; k >= 0; k--) {
                jset rest = allow[k] & ~(pick[k] | (pick[k] - 1));
                if (rest) {
                    pick[k] = rest & -rest;
                    break;
                }
                pick[k] = allow[k] & -allow[k];
            }
            if (k < 0)
                break;
        }
    }
    return !s->failed;
}

bool jls04_justify(jls *j, int ti)
{
    jsearch s;
    memset(&s, 0, sizeof s);
    s.j = j;
    s.ti = ti;
    s.T = &j->x[ti];
    s.TF = &j->fr[s.T->frame];
    s.iw = j->nlocs >= 64 ? ~(jset)0 : JBIT(j->nlocs) - 1;
    s.tpath = xcalloc((size_t)(j->nth ? j->nth : 1), sizeof *s.tpath);
    for (int th = 0; th < j->nth; th++)
        s.tpath[th] = jls04_path(j, s.T, th);
    for (int i = j->nlocs; i < j->nid; i++)
        if (s.T->ev & JBIT(i)) {
            int th = j->id[i].th;
            s.evid[s.nev] = i;
            s.evth[s.nev] = th;
            s.evp[s.nev] = &s.tpath[th]->ev[jls04_event(j, s.T, i)];
            s.nev++;
        }
    tval v;
    memset(&v, 0, sizeof v);
    for (int l = 0; l < j->nlocs; l++)
        v.w[l] = j->t->locs[l].init;
    v.known = s.iw;
    ir_val slots[j->nth > 0 ? j->nth : 1][64];
    uint64_t sk[j->nth > 0 ? j->nth : 1];
    if (!t_settle(&s, &v, slots, sk)) {
        free(s.tpath);
        return true;                    /* T's paths cannot be taken with the values T itself forces */
    }
    s.forced = (v.known & s.T->wr) == s.T->wr;
    bool ok;
    if (s.forced && (s.T->rd & ~s.T->hbreads) == 0) {
        /* Every read sees a write that happens before it: T justifies
         * itself, committing its writes and then its reads. */
        jset w = s.T->wr & ~s.iw;
        s.stack[s.depth++] = (jstage){ti, s.iw | w};
        if (s.T->rd)
            s.stack[s.depth++] = (jstage){ti, s.T->rd};
        ok = jls04_outcome(j, ti, v.w, slots, s.stack, s.depth);
    } else {
        /* C_1 holds the initial writes (any execution whose reads all see
         * writes that happen before them justifies it). */
        s.stack[s.depth++] = (jstage){-1, s.iw};
        memo_seen(&s, s.iw, 0, &v);
        ok = search(&s, s.iw, 0, &v) && !s.failed;
    }
    free(s.tab);
    free(s.vals);
    free(s.seen);
    free(s.tpath);
    return ok;
}
