/* The bottom of the JLS04 files: what each of them asks of an execution
 * (its values when a set is committed, its events by identity, through
 * jls04_impl.h's jls04_path and jls04_event), the limit a search stops at, and
 * an event as the notes name it.  It calls none of jls04.c,
 * jls04_justify.c or jls04_out.c. */
#include <stdarg.h>
#include <stdio.h>
#include "model/jls04/jls04_impl.h"

bool jls04_limit(jls *j, const char *fmt, ...)
{
    if (j->d->set)
        return false;
    char msg[DIAG_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int line = 0, col = 0;
    if (j->nth > 0)
        ir_thread_pos(j->t, 0, &line, &col);
    diag_error(j->d, j->t->file ? j->t->file : "", line, col, "jls04: %s", msg);
    j->d->status = 3;
    return false;
}

bool jls04_exec_values(const jls *j, const jexec *E, jset C, const ir_val *tw, ir_val *ev)
{
    const jframe *EF = &j->fr[E->frame];
    ir_val slots[j->nth > 0 ? j->nth : 1][64];
    for (int k = 0; k < EF->norder; k++) {
        int i = EF->order[k];
        if (i < j->nlocs) {
            ev[i] = j->t->locs[i].init;
            continue;
        }
        int th = j->id[i].th;
        const tev *e = &jls04_path(j, E, th)->ev[jls04_event(j, E, i)];
        if (j->id[i].kind == EV_R) {
            int w = E->src[i];
            ev[i] = (C & JBIT(i)) ? tw[w] : ev[w];
            slots[th][e->rslot] = ev[i];
        } else {
            ir_val x = 0;
            vx_eval(&j->tp[th].pool, e->wval, slots[th], ~(uint64_t)0, &x);
            ev[i] = x;
        }
    }
    for (int th = 0; th < j->nth; th++) {
        const tpath *p = jls04_path(j, E, th);
        for (int c = 0; c < p->ncond; c++) {
            ir_val x = 0;
            vx_eval(&j->tp[th].pool, p->cond[c].e, slots[th], ~(uint64_t)0, &x);
            if ((x != 0) != p->cond[c].nonzero)
                return false;
        }
    }
    return true;
}

void jls04_format_event(const jls *j, strbuf *b, int i, ir_val v)
{
    char val[64];
    ir_format_val(j->t, v, val, sizeof val);
    const jid *d = &j->id[i];
    if (d->th < 0)
        sb_printf(b, "init %s=%s", j->t->locs[d->loc].name, val);
    else if (d->monitor)
        sb_printf(b, "%s:%s %s", j->t->threads[d->th].name, d->kind == EV_R ? "lock" : "unlock",
                  j->t->locs[d->loc].name);
    else
        sb_printf(b, "%s:%s %s=%s", j->t->threads[d->th].name, d->kind == EV_R ? "R" : "W", j->t->locs[d->loc].name,
                  val);
}
