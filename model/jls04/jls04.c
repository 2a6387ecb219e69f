/* JLS04 (jls04.h): what a test may contain, the identities of its events,
 * and its well-formed executions (JLS 17.4.7), the set jMT calls G; then
 * every one of them is a target whose justification jls04_justify.c looks
 * for.
 *
 * A well-formed execution here is one path per thread (model/paths/paths.c:
 * the thread run on its own, values left symbolic), a synchronization
 * order so (total over the volatile accesses, consistent with po), and the
 * write each read sees, such that
 *   - every volatile read sees the so-last volatile write of its location
 *     before it, or the initial write when there is none (so-consistency);
 *   - no read sees a write that happens after it, nor a write w when
 *     another write w' of the location has hb(w, w') and hb(w', r)
 *     (happens-before consistency),
 * where hb is the transitive closure of po and synchronizes-with: a
 * volatile write synchronizes-with every so-later volatile read of its
 * location, and each initial write with the first action of every thread
 * (so it happens before every event).  Monitors are synchronization
 * variables: an enter (a lock) is a read of the monitor that sees the
 * so-last exit (an unlock, a write), so an exit synchronizes-with every
 * later enter, and so keeps mutual exclusion (so_excludes).  Values are not part of it: a
 * justification fixes them (jls04_justify.c says why that is exact). */
#include <stdlib.h>
#include <string.h>
#include "model/jls04/jls04_impl.h"
#include "util/mem.h"

/* ---- what JLS04 can say something of ------------------------------------------- */

static bool bad(jls *j, const ir_instr *in, const char *fmt, const char *what)
{
    char msg[256];
    snprintf(msg, sizeof msg, fmt, what);
    return diag_error(j->d, j->t->file ? j->t->file : "", in ? in->line : 0, in ? in->col : 0, "jls04: %s", msg);
}

/* Every access plain or volatile, and each location one or the other
 * (JLS 17.4.7, condition 2: the accesses of a volatile variable are
 * volatile actions). */
static bool check_test(jls *j)
{
    const ir_test *t = j->t;
    if (t->arch != IR_ARCH_JAVA)
        return diag_error(j->d, t->file ? t->file : "", 0, 0,
                          "jls04 is a model of Java programs, not of %s tests", ir_arch_name(t->arch));
    const ir_instr **first = xcalloc((size_t)(t->nlocs ? t->nlocs : 1), sizeof *first);
    bool *monitor = xcalloc((size_t)(t->nlocs ? t->nlocs : 1), sizeof *monitor);
    bool ok = true;
    for (int th = 0; th < t->nthreads && ok; th++) {
        const ir_thread *it = &t->threads[th];
        for (int b = 0; b < it->nblocks && ok; b++)
            for (int k = 0; k < it->blocks[b].ninstrs && ok; k++) {
                const ir_instr *in = &it->blocks[b].instrs[k];
                if (in->op == IR_LOCK || in->op == IR_UNLOCK) {
                    /* Monitor actions are synchronization actions (17.4.2):
                     * the monitor is a location only they touch
                     * (ir_check_locks), ordered by so like a volatile. */
                    if (in->lock != IR_LK_MONITOR || in->dst >= 0) {
                        ok = bad(j, in, "%s: jls04 takes Java's monitors (synchronized blocks), not C's locks or a "
                                 "trylock", in->src ? in->src : ir_op_name(in->op));
                    } else if (in->addr.kind == IR_OPND_IMM && IR_IS_ADDR(in->addr.imm) &&
                               IR_ADDR_LOC(in->addr.imm) >= 0 && IR_ADDR_LOC(in->addr.imm) < t->nlocs) {
                        monitor[IR_ADDR_LOC(in->addr.imm)] = true;
                    }
                } else if (in->op == IR_FENCE) {
                    ok = bad(j, in, "%s has no meaning in the Java 5 memory model (fences came with Java 9's "
                             "VarHandles); jls04 takes plain and volatile accesses only", ir_fence_name(in->fence));
                } else if (in->op == IR_RMW) {
                    ok = bad(j, in, "the read-modify-write '%s' has no meaning in the Java 5 memory model; jls04 "
                             "takes plain and volatile accesses only", in->src ? in->src : ir_rmw_name(in->rmw_op));
                } else if (in->op == IR_LOAD || in->op == IR_STORE) {
                    if (in->mode != IR_JM_PLAIN && in->mode != IR_JM_VOLATILE) {
                        ok = bad(j, in, "%s accesses came with Java 9's VarHandles and have no meaning in the Java 5 "
                                 "memory model; jls04 takes plain and volatile accesses only", ir_mode_name(in->mode));
                        continue;
                    }
                    /* The location, where the address is a constant; an
                     * address computed from a read is checked per path. */
                    if (in->addr.kind != IR_OPND_IMM || !IR_IS_ADDR(in->addr.imm))
                        continue;
                    int l = IR_ADDR_LOC(in->addr.imm);
                    if (l < 0 || l >= t->nlocs)
                        continue;
                    if (!first[l]) {
                        first[l] = in;
                    } else if ((first[l]->mode == IR_JM_VOLATILE) != (in->mode == IR_JM_VOLATILE)) {
                        char what[160];
                        snprintf(what, sizeof what, "%s is accessed both as a plain and as a volatile field (line %d "
                                 "and here); in JLS04 a field is volatile or not", t->locs[l].name, first[l]->line);
                        ok = bad(j, in, "%s", what);
                    }
                }
            }
    }
    for (int l = 0; l < t->nlocs; l++)
        j->vol[l] = monitor[l] || (first[l] && first[l]->mode == IR_JM_VOLATILE);
    free((void *)first);
    free(monitor);
    return ok;
}

/* ---- identities ------------------------------------------------------------ */

static int identity(jls *j, int th, unsigned kind, int loc, int idx)
{
    for (int i = j->nlocs; i < j->nid; i++)
        if (j->id[i].th == th && j->id[i].kind == kind && j->id[i].loc == loc && j->id[i].idx == idx)
            return i;
    if (j->nid == JLS04_MAX_EVENTS) {
        jls04_limit(j, "the test's executions have more than %d distinct events (initial writes included)",
                  JLS04_MAX_EVENTS);
        return -1;
    }
    j->id[j->nid] = (jid){th, kind, loc, idx, false};
    return j->nid++;
}

static bool map_paths(jls *j)
{
    for (int l = 0; l < j->nlocs; l++)
        j->id[l] = (jid){-1, EV_W, l, 0, false};
    j->nid = j->nlocs;
    j->pm = xcalloc((size_t)(j->nth ? j->nth : 1), sizeof *j->pm);
    for (int th = 0; th < j->nth; th++) {
        const tpaths *tp = &j->tp[th];
        j->pm[th] = xcalloc((size_t)(tp->np ? tp->np : 1), sizeof **j->pm);
        for (int p = 0; p < tp->np; p++) {
            const tpath *pa = &tp->p[p];
            jpmap *m = &j->pm[th][p];
            m->id = xcalloc((size_t)(pa->nev ? pa->nev : 1), sizeof *m->id);
            memset(m->ev_of, -1, sizeof m->ev_of);
            for (int k = 0; k < pa->nev; k++) {
                const tev *e = &pa->ev[k];
                bool mon = e->instr && (e->instr->op == IR_LOCK || e->instr->op == IR_UNLOCK);
                /* A lock, an RMW that reads the monitor free, is to JLS04
                 * the acquiring side: a read of it that sees the so-last
                 * unlock (so_done adds mutual exclusion); an unlock is
                 * the releasing side, a write. */
                unsigned kind = mon && e->instr->op == IR_LOCK ? EV_R : e->kind;
                if (e->loc < 0 || e->loc >= j->nlocs || (kind != EV_R && kind != EV_W))
                    return diag_error(j->d, j->t->file ? j->t->file : "", e->instr ? e->instr->line : 0,
                                      e->instr ? e->instr->col : 0, "jls04: an access jls04 cannot model");
                if ((e->mode == IR_JM_VOLATILE) != j->vol[e->loc]) {
                    /* an address computed from a read reached the other kind of field */
                    return bad(j, e->instr, "%s is accessed both as a plain and as a volatile field; in JLS04 a "
                               "field is volatile or not", j->t->locs[e->loc].name);
                }
                int idx = 0;
                for (int q = 0; q < k; q++) {
                    const tev *o = &pa->ev[q];
                    unsigned okind = o->instr && o->instr->op == IR_LOCK ? EV_R : o->kind;
                    if (okind == kind && o->loc == e->loc)
                        idx++;
                }
                int i = identity(j, th, kind, e->loc, idx);
                if (i < 0)
                    return false;
                j->id[i].monitor = mon;
                m->id[k] = i;
                m->ev_of[i] = (int8_t)k;
            }
        }
    }
    /* The synchronizes-with pairs there can be: a volatile write and a
     * volatile read of its location in another thread or later in its own. */
    j->npair = 0;
    for (int w = j->nlocs; w < j->nid; w++)
        for (int r = j->nlocs; r < j->nid; r++) {
            if (j->id[w].kind != EV_W || j->id[r].kind != EV_R || j->id[w].loc != j->id[r].loc ||
                !j->vol[j->id[w].loc])
                continue;
            if (j->npair == JLS04_MAX_SYNC_PAIRS)
                return jls04_limit(j, "more than %d volatile write/read pairs of one location",
                                 JLS04_MAX_SYNC_PAIRS);
            j->pair_w[j->npair] = w;
            j->pair_r[j->npair] = r;
            j->npair++;
        }
    return true;
}

static int pair_index(const jls *j, int w, int r)
{
    for (int p = 0; p < j->npair; p++)
        if (j->pair_w[p] == w && j->pair_r[p] == r)
            return p;
    return -1;
}

/* ---- the well-formed executions ----------------------------------------------- */

/* The executions of one choice of paths being built. */
typedef struct build {
    jls *j;
    int combo;
    jset ev;
    jset po[JLS04_MAX_EVENTS];
    jset locw[JLS04_MAX_EVENTS];        /* per location: its writes */
    int volseq[JLS04_MAX_EVENTS];       /* the volatile events, thread by thread in po */
    int nvol;
    int so[JLS04_MAX_EVENTS];           /* the synchronization order being built */
    int plain[JLS04_MAX_EVENTS];        /* plain reads */
    int nplain;
    jset cand[JLS04_MAX_EVENTS];        /* per plain read: the writes it may see */
    int8_t src[JLS04_MAX_EVENTS];
} build;

static void closure(jset *rel, int n)
{
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            if (rel[i] & JBIT(k))
                rel[i] |= rel[k];
}

/* hb-consistency of read R seeing W (JLS 17.4.5). */
static bool hb_consistent(const build *bd, const jset *hb, int r, int w)
{
    if (hb[r] & JBIT(w))
        return false;                   /* sees a write that happens after it */
    jset between = hb[w] & bd->locw[bd->j->id[r].loc] & ~JBIT(w);
    for (int v = 0; v < bd->j->nid; v++)
        if ((between & JBIT(v)) && (hb[v] & JBIT(r)))
            return false;               /* another write of the location happens in between */
    return true;
}

static bool add_exec(build *bd, int frame)
{
    jls *j = bd->j;
    const jframe *f = &j->fr[frame];
    if (j->nx == JLS04_MAX_EXECS)
        return jls04_limit(j, "the test has more than %d well-formed executions", JLS04_MAX_EXECS);
    if (!model_meter_count(j->meter, 1))
        return false;
    jexec x;
    memset(&x, 0, sizeof x);
    x.frame = frame;
    x.ev = bd->ev;
    memset(x.src, -1, sizeof x.src);
    for (int i = 0; i < j->nid; i++) {
        if (!(bd->ev & JBIT(i)))
            continue;
        if (j->id[i].kind == EV_W)
            x.wr |= JBIT(i);
        else {
            x.rd |= JBIT(i);
            x.src[i] = bd->src[i];
            if (f->hb[bd->src[i]] & JBIT(i))
                x.hbreads |= JBIT(i);
        }
    }
    VEC_PUSH(j->x, j->nx, j->capx, x);
    return true;
}

static bool plain_choose(build *bd, int frame, int k)
{
    if (k == bd->nplain)
        return add_exec(bd, frame);
    int r = bd->plain[k];
    for (int w = 0; w < bd->j->nid; w++) {
        if (!(bd->cand[r] & JBIT(w)))
            continue;
        bd->src[r] = (int8_t)w;
        if (!plain_choose(bd, frame, k + 1))
            return false;
    }
    return true;
}

/* What a frame owns; a frame rejected before it is kept is freed too. */
static void frame_free(jframe *f)
{
    free(f->hb);
    free(f->so);
    free(f->order);
}

/* One synchronization order is complete: hb, then every plain read's
 * choices, then the executions. */
/* Locking is well-formed (17.4.7, condition 4): while one thread holds a
 * monitor, so has no lock of it by another.  The IR's locks are balanced
 * and a re-entry was lowered away, so holding is "locked, not yet
 * unlocked". */
static bool so_excludes(const build *bd)
{
    const jls *j = bd->j;
    int holder[JLS04_MAX_EVENTS];
    for (int l = 0; l < j->nlocs; l++)
        holder[l] = -1;
    for (int k = 0; k < bd->nvol; k++) {
        const jid *e = &j->id[bd->so[k]];
        if (!e->monitor)
            continue;
        if (e->kind == EV_W)
            holder[e->loc] = -1;
        else if (holder[e->loc] >= 0)
            return false;
        else
            holder[e->loc] = e->th;
    }
    return true;
}

static bool so_done(build *bd)
{
    jls *j = bd->j;
    int n = j->nid;
    if (!so_excludes(bd))
        return true;
    jframe f;
    memset(&f, 0, sizeof f);
    f.combo = bd->combo;
    f.hb = xcalloc((size_t)n, sizeof *f.hb);
    f.so = xcalloc((size_t)n, sizeof *f.so);
    f.order = xcalloc((size_t)n, 1);
    jset later = 0;
    for (int k = bd->nvol - 1; k >= 0; k--) {
        f.so[bd->so[k]] = later;
        later |= JBIT(bd->so[k]);
    }
    /* Volatile reads see the so-last write before them (so-consistency);
     * a volatile write synchronizes-with every so-later volatile read of
     * its location. */
    jset sw[JLS04_MAX_EVENTS];
    memset(sw, 0, sizeof sw);
    for (int k = 0; k < bd->nvol; k++) {
        int r = bd->so[k];
        if (j->id[r].kind != EV_R)
            continue;
        int loc = j->id[r].loc, seen = loc;
        for (int q = 0; q < k; q++) {
            int w = bd->so[q];
            if (j->id[w].kind == EV_W && j->id[w].loc == loc) {
                seen = w;
                sw[w] |= JBIT(r);
                int p = pair_index(j, w, r);
                if (p >= 0)
                    f.sw |= JBIT(p);
            }
        }
        bd->src[r] = (int8_t)seen;
    }
    for (int i = 0; i < n; i++) {
        if (!(bd->ev & JBIT(i)))
            continue;
        f.hb[i] = bd->po[i] | sw[i];
        if (j->id[i].th < 0)
            f.hb[i] = bd->ev & ~JBIT(i) & ~((JBIT(j->nlocs) - 1));   /* the initial writes happen before all */
    }
    closure(f.hb, n);
    bool ok = true;
    for (int k = 0; k < bd->nvol && ok; k++) {
        int r = bd->so[k];
        if (j->id[r].kind == EV_R && !hb_consistent(bd, f.hb, r, bd->src[r]))
            ok = false;
    }
    /* Each plain read: the writes of its location it may see. */
    for (int k = 0; k < bd->nplain && ok; k++) {
        int r = bd->plain[k];
        bd->cand[r] = 0;
        jset ws = bd->locw[j->id[r].loc];
        for (int w = 0; w < n; w++)
            if ((ws & JBIT(w)) && hb_consistent(bd, f.hb, r, w))
                bd->cand[r] |= JBIT(w);
        if (!bd->cand[r])
            ok = false;
    }
    if (!ok) {
        frame_free(&f);
        return true;
    }
    /* JLS condition 8: sw edges in the transitive reduction of hb, not in po. */
    for (int p = 0; p < j->npair; p++) {
        if (!(f.sw & JBIT(p)))
            continue;
        int w = j->pair_w[p], r = j->pair_r[p];
        if (bd->po[w] & JBIT(r))
            continue;
        bool reduced = true;
        for (int z = 0; z < n && reduced; z++)
            if (z != w && z != r && (f.hb[w] & JBIT(z)) && (f.hb[z] & JBIT(r)))
                reduced = false;
        if (reduced)
            f.ssw |= JBIT(p);
    }
    /* An order extending hb: an event's predecessors are a proper subset
     * of those of any event after it, so their number sorts them. */
    int pred[JLS04_MAX_EVENTS];
    for (int i = 0; i < n; i++) {
        pred[i] = 0;
        for (int q = 0; q < n; q++)
            if (f.hb[q] & JBIT(i))
                pred[i]++;
    }
    for (int c = 0; c <= n; c++)
        for (int i = 0; i < n; i++)
            if ((bd->ev & JBIT(i)) && pred[i] == c)
                f.order[f.norder++] = (uint8_t)i;
    f.ev = bd->ev;
    f.base = j->nx;
    f.nplain = bd->nplain;
    for (int k = 0; k < bd->nplain; k++) {
        f.plain[k] = (uint8_t)bd->plain[k];
        f.cand[k] = bd->cand[bd->plain[k]];
    }
    VEC_PUSH(j->fr, j->nfr, j->capfr, f);
    if (!plain_choose(bd, j->nfr - 1, 0))
        return false;
    j->fr[j->nfr - 1].nx = j->nx - j->fr[j->nfr - 1].base;
    return true;
}

/* Synchronization orders: the interleavings of the threads' volatile
 * events that keep each thread's program order. */
static bool so_choose(build *bd, int k, jset placed)
{
    if (k == bd->nvol)
        return so_done(bd);
    for (int q = 0; q < bd->nvol; q++) {
        int e = bd->volseq[q];
        if (placed & JBIT(e))
            continue;
        /* only a thread's first unplaced volatile event may come next */
        bool first = true;
        for (int p = 0; p < q && first; p++)
            if (!(placed & JBIT(bd->volseq[p])) && (bd->po[bd->volseq[p]] & JBIT(e)))
                first = false;
        if (!first)
            continue;
        bd->so[k] = e;
        if (!so_choose(bd, k + 1, placed | JBIT(e)))
            return false;
        if (bd->j->d->set)
            return false;
    }
    return true;
}

static bool combo_execs(jls *j, int combo)
{
    build *bd = xcalloc(1, sizeof *bd);
    bd->j = j;
    bd->combo = combo;
    const int *c = j->combo + (size_t)combo * (size_t)j->nth;
    for (int l = 0; l < j->nlocs; l++) {
        bd->ev |= JBIT(l);
        bd->locw[l] = JBIT(l);
    }
    for (int th = 0; th < j->nth; th++) {
        const tpath *pa = &j->tp[th].p[c[th]];
        const jpmap *m = &j->pm[th][c[th]];
        for (int k = 0; k < pa->nev; k++) {
            int i = m->id[k];
            bd->ev |= JBIT(i);
            for (int q = k + 1; q < pa->nev; q++)
                bd->po[i] |= JBIT(m->id[q]);
            if (j->id[i].kind == EV_W)
                bd->locw[j->id[i].loc] |= JBIT(i);
            if (j->vol[j->id[i].loc])
                bd->volseq[bd->nvol++] = i;
            else if (j->id[i].kind == EV_R)
                bd->plain[bd->nplain++] = i;
        }
    }
    bool ok = so_choose(bd, 0, 0);
    free(bd);
    return ok && !j->d->set;
}

static bool all_execs(jls *j)
{
    /* every choice of one path per thread */
    int n = 1;
    for (int th = 0; th < j->nth; th++) {
        if ((long long)n * j->tp[th].np > JLS04_MAX_EXECS)
            return jls04_limit(j, "the threads' paths combine in more than %d ways", JLS04_MAX_EXECS);
        n *= j->tp[th].np;
    }
    j->ncombo = n;
    j->combo = xcalloc((size_t)(n ? n : 1) * (size_t)(j->nth ? j->nth : 1), sizeof *j->combo);
    for (int c = 0; c < n; c++) {
        int r = c;
        for (int th = j->nth - 1; th >= 0; th--) {
            j->combo[(size_t)c * (size_t)j->nth + (size_t)th] = r % j->tp[th].np;
            r /= j->tp[th].np;
        }
    }
    for (int c = 0; c < n; c++)
        if (!combo_execs(j, c))
            return false;
    return true;
}

/* ---- the run ----------------------------------------------------------- */

static void jls04_free(jls *j)
{
    for (int th = 0; th < j->nth; th++) {
        if (j->pm && j->pm[th]) {
            for (int p = 0; p < j->tp[th].np; p++)
                free(j->pm[th][p].id);
            free(j->pm[th]);
        }
        tpaths_free(&j->tp[th]);
    }
    free(j->pm);
    free(j->tp);
    for (int f = 0; f < j->nfr; f++)
        frame_free(&j->fr[f]);
    free(j->fr);
    free(j->x);
    free(j->combo);
    free(j->vol);
}

/* The executions JLS04 weighs are those in which every loop ends within
 * its bound.  A spin loop's longer runs only repeat reads (ir/lower_loop.c),
 * so its cut paths go; a cut in a loop that writes could hide executions,
 * and justification looks at all of them, so that is a stated limit. */
static bool drop_cut_paths(jls *j, bool *cutoff)
{
    for (int th = 0; th < j->nth; th++) {
        tpaths *tp = &j->tp[th];
        int kept = 0;
        for (int i = 0; i < tp->np; i++) {
            tpath *p = &tp->p[i];
            if (!p->cut) {
                tp->p[kept++] = *p;
                continue;
            }
            if (!p->cut->spin) {
                diag_error(j->d, j->t->file ? j->t->file : "", p->cut->line, p->cut->col,
                           "jls04 cannot weigh this loop: its iterations do more than read, so the executions "
                           "its bound of %lld iterations cuts could justify others (a loop that only reads, "
                           "or one whose condition is settled without reading, is supported)",
                           (long long)p->cut->a.imm);
                j->d->status = 3;
                return false;
            }
            *cutoff = true;
            free(p->ev);
            free(p->slot_ev);
            free(p->cond);
            free(p->final);
        }
        tp->np = kept;
    }
    return true;
}

bool jls04_run(const ir_test *t, model_exec_fn fn, void *ctx, model_meter *meter, bset *b, diag *d)
{
    jls j;
    memset(&j, 0, sizeof j);
    j.t = t;
    j.d = d;
    j.meter = meter;
    j.nth = t->nthreads;
    j.nlocs = t->nlocs;
    j.vol = xcalloc((size_t)(t->nlocs ? t->nlocs : 1), sizeof *j.vol);
    j.tp = xcalloc((size_t)(j.nth ? j.nth : 1), sizeof *j.tp);
    bool ok = true;
    if (t->nlocs > JLS04_MAX_EVENTS) {
        jls04_limit(&j, "the test has %d locations; at most %d events (initial writes included) are supported",
                  t->nlocs, JLS04_MAX_EVENTS);
        ok = false;
    }
    ok = ok && check_test(&j);
    for (int th = 0; th < j.nth && ok; th++)
        ok = paths_thread(t, &t->threads[th], false, &j.tp[th], d);
    bool cutoff = false;
    ok = ok && drop_cut_paths(&j, &cutoff) && map_paths(&j) && all_execs(&j);
    b->cutoff = cutoff;
    if (ok) {
        jls04_out_init(&j, b, fn, ctx);
        b->candidates = (uint64_t)j.nx;
        for (int ti = 0; ti < j.nx && ok; ti++)
            ok = jls04_justify(&j, ti);
        jls04_out_finish(&j);
    }
    jls04_free(&j);
    return ok;
}
