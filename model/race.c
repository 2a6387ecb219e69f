/* Data races as RC11 defines them (REFERENCE §3.4), computed on one
 * flagged execution to tell the user which two accesses race; whether a
 * test is undefined is the model's verdict, not this file's. */
#include <string.h>
#include "model/race.h"
#include <stdlib.h>
#include "util/mem.h"

typedef exec_set set;

static void compose(exec_rel *out, const exec_rel *a, const exec_rel *b, int n)
{
    for (int i = 0; i < n; i++) {
        set r = 0, s = a->row[i];
        for (int j = 0; j < n; j++)
            if ((s >> j) & 1)
                r |= b->row[j];
        out->row[i] = r;
    }
}

static void ident(exec_rel *out, set s, int n)
{
    for (int i = 0; i < n; i++)
        out->row[i] = ((s >> i) & 1) ? (set)1 << i : 0;
}

static void unite(exec_rel *a, const exec_rel *b, int n)
{
    for (int i = 0; i < n; i++)
        a->row[i] |= b->row[i];
}

static void restrict_dom(exec_rel *a, set dom, set rng, int n)
{
    for (int i = 0; i < n; i++)
        a->row[i] = ((dom >> i) & 1) ? a->row[i] & rng : 0;
}

static void closure(exec_rel *a, int n)
{
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            if ((a->row[i] >> k) & 1)
                a->row[i] |= a->row[k];
}

static bool is_atomic(const exec_event *e)
{
    return e->mode != IR_MO_NA && e->mode != IR_MODE_NONE;
}

static const char *src_text(const exec_event *e)
{
    return e->instr && e->instr->src ? e->instr->src : "?";
}

char *race_describe(const exec *x)
{
    int n = x->n;
    set R = 0, W = 0, F = 0, A = 0, RMW = 0, REL = 0, ACQ = 0, IW = 0, all = 0;
    for (int i = 0; i < n; i++) {
        const exec_event *e = &x->ev[i];
        set b = (set)1 << i;
        all |= b;
        if (e->kind & EV_R) R |= b;
        if (e->kind & EV_W) W |= b;
        if (e->kind & EV_F) F |= b;
        if (e->kind & EV_IW) IW |= b;
        if ((e->kind & (EV_R | EV_W)) == (EV_R | EV_W)) RMW |= b;
        if (!(e->kind & EV_IW) && is_atomic(e)) A |= b;
        if (e->mode == IR_MO_REL || e->mode == IR_MO_ACQ_REL || e->mode == IR_MO_SC) REL |= b;
        if (e->mode == IR_MO_ACQ || e->mode == IR_MO_ACQ_REL || e->mode == IR_MO_SC) ACQ |= b;
    }
    exec_rel sbloc, t1, t2, rs, sw, hb;
    /* rs = [W]; (sb & loc)?; [W & A]; (rf; [RMW])* */
    memset(&sbloc, 0, sizeof sbloc);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (((x->po.row[i] >> j) & 1) && x->ev[i].loc == x->ev[j].loc && x->ev[i].loc >= 0)
                sbloc.row[i] |= (set)1 << j;
    ident(&t1, all, n);
    unite(&t1, &sbloc, n);
    restrict_dom(&t1, W, W & (A | IW), n);
    exec_rel rfrmw = x->rf;
    restrict_dom(&rfrmw, all, RMW, n);
    unite(&rfrmw, &x->rmw, n);
    closure(&rfrmw, n);
    ident(&t2, all, n);
    unite(&t2, &rfrmw, n);
    compose(&rs, &t1, &t2, n);
    /* sw = [REL]; ([F]; sb)?; rs; rf; [R & A]; (sb; [F])?; [ACQ] */
    exec_rel fsb = x->po, sbf = x->po;
    restrict_dom(&fsb, F, all, n);
    restrict_dom(&sbf, all, F, n);
    exec_rel pre, post;
    ident(&pre, all, n);
    unite(&pre, &fsb, n);
    restrict_dom(&pre, REL, all, n);
    ident(&post, all, n);
    unite(&post, &sbf, n);
    restrict_dom(&post, all, ACQ, n);
    exec_rel rfa = x->rf;
    restrict_dom(&rfa, all, R & A, n);
    compose(&t1, &pre, &rs, n);
    compose(&t2, &t1, &rfa, n);
    compose(&sw, &t2, &post, n);
    hb = x->po;
    unite(&hb, &sw, n);
    closure(&hb, n);
    for (int i = 0; i < n; i++) {
        const exec_event *a = &x->ev[i];
        if ((a->kind & EV_IW) || !(a->kind & (EV_R | EV_W)))
            continue;
        for (int j = i + 1; j < n; j++) {
            const exec_event *b = &x->ev[j];
            if ((b->kind & EV_IW) || !(b->kind & (EV_R | EV_W)) || b->loc != a->loc)
                continue;
            if (!((a->kind | b->kind) & EV_W) || a->thread == b->thread)
                continue;
            if ((A >> i & 1) && (A >> j & 1))
                continue;
            if (((hb.row[i] >> j) & 1) || ((hb.row[j] >> i) & 1))
                continue;
            return xasprintf("line %d: `%s` and line %d: `%s`",
                             a->instr ? a->instr->line : 0, src_text(a),
                             b->instr ? b->instr->line : 0, src_text(b));
        }
    }
    return NULL;
}
