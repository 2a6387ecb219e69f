/* Happens-before and data races of one execution (hb.h). */
#include <string.h>
#include "isa/isa.h"
#include "model/hb.h"
#include "util/mem.h"

typedef exec_set set;

static void compose(exec_rel *out, const exec_rel *a, const exec_rel *b, int n)
{
    for (int i = 0; i < n; i++) {
        set r = es_none(), s = a->row[i];
        for (int j; (j = es_pop(&s)) >= 0;)
            r = es_or(r, b->row[j]);
        out->row[i] = r;
    }
}

static void copy_rows(exec_rel *out, const exec_rel *a, int n)
{
    memcpy(out->row, a->row, (size_t)n * sizeof a->row[0]);
}

/* id restricted to S, plus A */
static void ident_plus(exec_rel *out, set s, const exec_rel *a, int n)
{
    for (int i = 0; i < n; i++) {
        out->row[i] = a ? a->row[i] : es_none();
        if (es_has(s, i))
            es_add(&out->row[i], i);
    }
}

static void restrict_dom(exec_rel *a, set dom, set rng, int n)
{
    for (int i = 0; i < n; i++)
        a->row[i] = es_has(dom, i) ? es_and(a->row[i], rng) : es_none();
}

static void closure(exec_rel *a, int n)
{
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            if (es_has(a->row[i], k))
                a->row[i] = es_or(a->row[i], a->row[k]);
}

bool hb_atomic(const exec_event *e)
{
    switch (e->mode) {
    case IR_MODE_NONE: case IR_MO_NA: case IR_JM_PLAIN: return false;
    default: return true;
    }
}

/* Whether E releases (RELEASE) or acquires: acq_rel, sc, volatile and a
 * full fence do both; a C fence takes its mode from its memory order. */
static bool orders(const exec_event *e, bool release)
{
    if (e->kind & EV_F)
        switch (e->fence) {
        case IR_FENCE_C: break;
        case IR_FENCE_J_FULL: return true;
        case IR_FENCE_J_RELEASE: return release;
        case IR_FENCE_J_ACQUIRE: return !release;
        default: return false;
        }
    switch (e->mode) {
    case IR_MO_ACQ_REL: case IR_MO_SC: case IR_JM_VOLATILE: return true;
    case IR_MO_REL: case IR_JM_RELEASE: return release;
    case IR_MO_ACQ: case IR_JM_ACQUIRE: return !release;
    default: return false;
    }
}

void hb_sync(const exec *x, exec_rel *sw)
{
    int n = x->n;
    er_clear(sw, n);
    if (x->test && isa_all_atomic(x->test->arch))
        return;
    set W = es_none(), F = W, A = W, RMW = W, REL = W, ACQ = W, IW = W, R = W, all = es_all(n);
    for (int i = 0; i < n; i++) {
        const exec_event *e = &x->ev[i];
        if (e->kind & EV_R) es_add(&R, i);
        if (e->kind & EV_W) es_add(&W, i);
        if (e->kind & EV_F) es_add(&F, i);
        if (e->kind & EV_IW) es_add(&IW, i);
        if ((e->kind & (EV_R | EV_W)) == (EV_R | EV_W)) es_add(&RMW, i);
        if (!(e->kind & EV_IW) && !(e->kind & EV_F) && hb_atomic(e)) es_add(&A, i);
        if (!(e->kind & EV_IW) && orders(e, true)) es_add(&REL, i);
        if (!(e->kind & EV_IW) && orders(e, false)) es_add(&ACQ, i);
    }
    /* rs = [W]; (sb & loc)?; [W & A]; (rf; [RMW])* */
    exec_rel sbloc, t1, t2, rs;
    er_clear(&sbloc, n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (er_has(&x->po, i, j) && x->ev[i].loc == x->ev[j].loc && x->ev[i].loc >= 0)
                er_add(&sbloc, i, j);
    ident_plus(&t1, all, &sbloc, n);
    restrict_dom(&t1, W, es_and(W, es_or(A, IW)), n);
    exec_rel rfrmw;
    copy_rows(&rfrmw, &x->rf, n);
    restrict_dom(&rfrmw, all, RMW, n);
    for (int i = 0; i < n; i++)
        rfrmw.row[i] = es_or(rfrmw.row[i], x->rmw.row[i]);
    closure(&rfrmw, n);
    ident_plus(&t2, all, &rfrmw, n);
    compose(&rs, &t1, &t2, n);
    /* sw = [REL]; ([F]; sb)?; rs; rf; [R & A]; (sb; [F])?; [ACQ] */
    exec_rel fsb, sbf, pre, post;
    copy_rows(&fsb, &x->po, n);
    copy_rows(&sbf, &x->po, n);
    restrict_dom(&fsb, F, all, n);
    restrict_dom(&sbf, all, F, n);
    ident_plus(&pre, all, &fsb, n);
    restrict_dom(&pre, REL, all, n);
    ident_plus(&post, all, &sbf, n);
    restrict_dom(&post, all, ACQ, n);
    exec_rel rfa;
    copy_rows(&rfa, &x->rf, n);
    restrict_dom(&rfa, all, es_and(R, A), n);
    compose(&t1, &pre, &rs, n);
    compose(&t2, &t1, &rfa, n);
    compose(sw, &t2, &post, n);
    /* an event never synchronises with itself or its own thread's po */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (er_has(sw, i, j) && (x->ev[i].thread == x->ev[j].thread || x->ev[i].thread < 0))
                es_del(&sw->row[i], j);
}

enum { MAX_CLOCK_THREADS = EXEC_MAX };

bool hb_clocks(const exec *x, const exec_rel *sw, exec_rel *hb)
{
    int n = x->n, nth = 0;
    for (int i = 0; i < n; i++)
        if (x->ev[i].thread + 1 > nth)
            nth = x->ev[i].thread + 1;
    /* immediate po predecessor of each event, and how many edges into it are
     * still to be processed (Kahn's order over po-immediate | sw) */
    int prev[EXEC_MAX], pending[EXEC_MAX], order[EXEC_MAX], last[MAX_CLOCK_THREADS];
    for (int t = 0; t < nth; t++)
        last[t] = -1;
    for (int i = 0; i < n; i++) {
        const exec_event *e = &x->ev[i];
        prev[i] = -1;
        pending[i] = 0;
        if (e->thread < 0)
            continue;
        /* events of a thread are laid out in program order */
        prev[i] = last[e->thread];
        last[e->thread] = i;
        pending[i] = prev[i] >= 0;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (er_has(sw, i, j))
                pending[j]++;
    int head = 0, tail = 0;
    for (int i = 0; i < n; i++)
        if (x->ev[i].thread >= 0 && pending[i] == 0)
            order[tail++] = i;
    static _Thread_local unsigned vc[EXEC_MAX][MAX_CLOCK_THREADS];
    int done = 0, events = 0;
    for (int i = 0; i < n; i++)
        events += x->ev[i].thread >= 0;
    while (head < tail) {
        int i = order[head++];
        const exec_event *e = &x->ev[i];
        done++;
        if (prev[i] >= 0)
            memcpy(vc[i], vc[prev[i]], (size_t)nth * sizeof vc[i][0]);
        else
            memset(vc[i], 0, (size_t)nth * sizeof vc[i][0]);
        for (int s = 0; s < n; s++)
            if (er_has(sw, s, i))
                for (int t = 0; t < nth; t++)
                    if (vc[s][t] > vc[i][t])
                        vc[i][t] = vc[s][t];
        vc[i][e->thread] = (unsigned)e->poi + 1;
        /* release what waited on this event */
        int next = -1;
        for (int j = 0; j < n; j++)
            if (x->ev[j].thread == e->thread && prev[j] == i)
                next = j;
        if (next >= 0 && --pending[next] == 0)
            order[tail++] = next;
        for (int j = 0; j < n; j++)
            if (er_has(sw, i, j) && --pending[j] == 0)
                order[tail++] = j;
    }
    if (done != events)
        return false;
    er_clear(hb, n);
    for (int i = 0; i < n; i++) {
        const exec_event *a = &x->ev[i];
        if (a->thread < 0)
            continue;
        for (int j = 0; j < n; j++)
            if (j != i && x->ev[j].thread >= 0 && vc[j][a->thread] >= (unsigned)a->poi + 1)
                er_add(hb, i, j);
    }
    return true;
}

void hb_closure(const exec *x, const exec_rel *sw, exec_rel *hb)
{
    for (int i = 0; i < x->n; i++)
        hb->row[i] = es_or(x->po.row[i], sw->row[i]);
    closure(hb, x->n);
}

void hb_compute(const exec *x, exec_rel *sw, exec_rel *hb)
{
    hb_sync(x, sw);
    if (!hb_clocks(x, sw, hb))
        hb_closure(x, sw, hb);
}

static bool access(const exec_event *e)
{
    return !(e->kind & EV_IW) && (e->kind & (EV_R | EV_W));
}

int hb_races(const exec *x, const exec_rel *hb, race_pair *out, int max)
{
    int n = x->n, count = 0;
    for (int i = 0; i < n; i++) {
        const exec_event *a = &x->ev[i];
        if (!access(a))
            continue;
        for (int j = i + 1; j < n; j++) {
            const exec_event *b = &x->ev[j];
            if (!access(b) || b->loc != a->loc || a->thread == b->thread)
                continue;
            if (!((a->kind | b->kind) & EV_W) || (hb_atomic(a) && hb_atomic(b)))
                continue;
            if (er_has(hb, i, j) || er_has(hb, j, i))
                continue;
            if (count < max)
                out[count] = a->thread < b->thread ? (race_pair){i, j} : (race_pair){j, i};
            count++;
        }
    }
    return count;
}

static const char *src_text(const exec_event *e)
{
    return e->instr && e->instr->src ? e->instr->src : "?";
}

char *hb_race_describe(const exec *x)
{
    exec_rel sw, hb;
    hb_compute(x, &sw, &hb);
    race_pair p;
    if (hb_races(x, &hb, &p, 1) == 0)
        return NULL;
    /* in the order of the events, as the file reads */
    const exec_event *a = &x->ev[p.a < p.b ? p.a : p.b], *b = &x->ev[p.a < p.b ? p.b : p.a];
    return xasprintf("line %d: `%s` and line %d: `%s`", a->instr ? a->instr->line : 0, src_text(a),
                     b->instr ? b->instr->line : 0, src_text(b));
}
