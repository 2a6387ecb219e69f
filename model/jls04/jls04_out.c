/* What JLS04 allows, as every model says it: the final states of the
 * allowed executions into the behaviour set, each execution to an
 * observer (races, pictures) as an exec, and for each state where the
 * condition's proposition holds one justification in the notes.
 *
 * Final memory.  JLS04 has no coherence order and no final write; a
 * location's final value is the one a thread would read after joining
 * every thread: all writes happen before that read, so (happens-before
 * consistency) it may see any write of the location that no other write
 * of it happens after, and, for a volatile location, the so-last write. */
#include <stdlib.h>
#include <string.h>
#include "model/jls04/jls04_impl.h"
#include "util/mem.h"

#define MAX_NOTED 16

void jls04_out_init(jls *j, bset *b, model_exec_fn fn, void *ctx)
{
    const ir_test *t = j->t;
    j->b = b;
    outcome_init(&j->out, t, b, fn, ctx);
    int events = t->nlocs;
    for (int th = 0; th < j->nth; th++) {
        int most = 0;
        for (int p = 0; p < j->tp[th].np; p++)
            if (j->tp[th].p[p].nev > most)
                most = j->tp[th].p[p].nev;
        events += most;
    }
    b->events = events;
}

/* One justification of the state VALS of target TI (T's values TW). */
static void note(jls *j, int ti, const ir_val *vals, const ir_val *tw, const jstage *st, int nst)
{
    const ir_test *t = j->t;
    const jexec *T = &j->x[ti];
    jstage s[JLS04_MAX_EVENTS + 2];
    int n = 0;
    for (int k = 0; k < nst; k++)
        s[n++] = st[k];
    /* C_1 = the initial writes: the next stage's execution, whose reads
     * all see writes that happen before them (condition 6 for C_1), also
     * justifies them; when that stage commits no read, the two are one. */
    if (n > 1 && s[0].x < 0) {
        s[0].x = s[1].x;
        if (!(s[1].add & T->rd)) {
            s[1].add |= s[0].add;
            memmove(s, s + 1, (size_t)(n - 1) * sizeof *s);
            n--;
        }
    }
    char *state = ir_format_state(t, j->out.obs, vals, j->out.nobs);
    sb_printf(&j->notes, "(* %s: JLS04 justifies %s in %d stage%s (JLS 17.4.8): the events C_i adds, with "
              "their values in T; E_i, with its own values *)\n", t->name, state, n, n == 1 ? "" : "s");
    free(state);
    jset C = 0;
    ir_val ev[JLS04_MAX_EVENTS];
    for (int k = 0; k < n; k++) {
        const jexec *x = &j->x[s[k].x < 0 ? ti : s[k].x];
        jls04_exec_values(j, x, C, tw, ev);
        if (k)
            sb_printf(&j->notes, "(*   C%d = C%d + {", k + 1, k);
        else
            sb_add(&j->notes, "(*   C1 = {");
        const char *sep = "";
        for (int i = 0; i < j->nid; i++)
            if (s[k].add & JBIT(i)) {
                sb_add(&j->notes, sep);
                jls04_format_event(j, &j->notes, i, j->id[i].kind == EV_R ? tw[(int)T->src[i]] : tw[i]);
                sep = ", ";
            }
        sb_printf(&j->notes, "}  E%d%s:", k + 1, s[k].x == ti ? " = T" : "");
        const int *c = j->combo + (size_t)j->fr[x->frame].combo * (size_t)j->nth;
        for (int th = 0; th < j->nth; th++) {
            const tpath *p = jls04_path(j, x, th);
            sb_printf(&j->notes, "%s %s:", th ? ";" : "", t->threads[th].name);
            for (int q = 0; q < p->nev; q++) {
                int i = j->pm[th][c[th]].id[q];
                char val[64];
                ir_format_val(t, ev[i], val, sizeof val);
                if (j->id[i].monitor)
                    sb_printf(&j->notes, "%s %s %s", q ? "," : "", j->id[i].kind == EV_R ? "lock" : "unlock",
                              t->locs[j->id[i].loc].name);
                else
                    sb_printf(&j->notes, "%s %s %s=%s", q ? "," : "", j->id[i].kind == EV_R ? "R" : "W",
                              t->locs[j->id[i].loc].name, val);
            }
        }
        sb_add(&j->notes, " *)\n");
        C |= s[k].add;
    }
}

static bool noted(const jls *j, const ir_val *vals)
{
    for (int k = 0; k < j->nnotes && k < MAX_NOTED; k++)
        if (!memcmp(j->noted + (size_t)k * (size_t)j->out.nobs, vals, (size_t)j->out.nobs * sizeof *vals))
            return true;
    return false;
}

/* X as the enumerator would have built it, for an observer. */
static void to_exec(const jls *j, const jexec *T, const ir_val *tw, const int *fw, exec *x)
{
    const ir_test *t = j->t;
    memset(x, 0, sizeof *x);
    x->test = t;
    exec_initial_writes(x, t);
    int at[JLS04_MAX_EVENTS];
    for (int l = 0; l < j->nlocs; l++)
        at[l] = l;
    int n = j->nlocs;
    for (int th = 0; th < j->nth; th++) {
        const tpath *p = jls04_path(j, T, th);
        const int *c = j->combo + (size_t)j->fr[T->frame].combo * (size_t)j->nth;
        int base = n;
        for (int k = 0; k < p->nev && n < EXEC_MAX; k++, n++) {
            int i = j->pm[th][c[th]].id[k];
            at[i] = n;
            exec_event *e = &x->ev[n];
            e->kind = p->ev[k].kind;
            e->thread = t->threads[th].id;
            e->poi = k;
            e->loc = p->ev[k].loc;
            e->mode = p->ev[k].mode;
            e->instr = p->ev[k].instr;
            if (e->kind & EV_W)     /* a lock's write marks the monitor taken */
                e->wval = j->id[i].monitor && j->id[i].kind == EV_R ? 1 : tw[i];
            for (int q = k + 1; q < p->nev && base + q < EXEC_MAX; q++)
                er_add(&x->po, n, base + q);
        }
    }
    x->n = n;
    for (int i = 0; i < j->nid; i++)
        if (T->rd & JBIT(i)) {
            x->ev[at[i]].rval = tw[(int)T->src[i]];
            er_add(&x->rf, at[(int)T->src[i]], at[i]);
        }
    for (int l = 0; l < j->nlocs; l++)
        if (fw[l] >= 0)
            es_add(&x->fw, at[fw[l]]);
}

/* The final write choices of each observed location, one after the other. */
typedef struct fwalk {
    jls *j;
    int ti;
    const ir_val *tw;
    ir_val (*slots)[64];
    const jstage *st;
    int nst;
    jset cands[JLS04_MAX_EVENTS];
    int fw[JLS04_MAX_EVENTS];
    ir_val *state;
} fwalk;

static bool final_state(fwalk *f)
{
    jls *j = f->j;
    const jexec *T = &j->x[f->ti];
    for (int i = 0; i < j->out.nall; i++) {
        const ir_obs *o = &j->out.obs[i];
        ir_val v = 0;
        if (o->kind == IR_OBS_REG) {
            int th = j->out.obs_th[i];
            if (th >= 0 && j->out.obs_reg[i] >= 0)
                vx_eval(&j->tp[th].pool, jls04_path(j, T, th)->final[j->out.obs_reg[i]], f->slots[th], ~(uint64_t)0,
                        &v);
        } else if (o->loc >= 0 && o->loc < j->nlocs) {
            v = f->tw[f->fw[o->loc]];
        }
        f->state[i] = v;
    }
    if (!outcome_kept(&j->out))
        return true;                    /* herd filters before the model runs */
    bool c = outcome_add(&j->out, 1);
    if (c && !noted(j, f->state)) {
        if (j->nnotes < MAX_NOTED) {
            j->noted = xrealloc(j->noted, (size_t)(j->nnotes + 1) * (size_t)(j->out.nobs ? j->out.nobs : 1) * sizeof *j->noted);
            memcpy(j->noted + (size_t)j->nnotes * (size_t)j->out.nobs, f->state, (size_t)j->out.nobs * sizeof *f->state);
            note(j, f->ti, f->state, f->tw, f->st, f->nst);
        }
        j->nnotes++;
    }
    if (j->out.fn) {
        exec *x = xmalloc(sizeof *x);
        to_exec(j, T, f->tw, f->fw, x);
        bool go = outcome_tell(&j->out, x, c, false, j->d);
        free(x);
        if (!go)
            return false;
    }
    return true;
}

static bool fw_choose(fwalk *f, int l)
{
    if (l == f->j->nlocs)
        return final_state(f);
    if (!f->cands[l]) {
        f->fw[l] = -1;
        return fw_choose(f, l + 1);
    }
    for (int w = 0; w < f->j->nid; w++) {
        if (!(f->cands[l] & JBIT(w)))
            continue;
        f->fw[l] = w;
        if (!fw_choose(f, l + 1))
            return false;
    }
    return true;
}

bool jls04_outcome(jls *j, int ti, const ir_val *tw, ir_val (*slots)[64], const jstage *st, int nst)
{
    const jexec *T = &j->x[ti];
    const jframe *TF = &j->fr[T->frame];
    fwalk f;
    memset(&f, 0, sizeof f);
    f.j = j;
    f.ti = ti;
    f.tw = tw;
    f.slots = slots;
    f.st = st;
    f.nst = nst;
    for (int i = 0; i < j->out.nall; i++) {
        const ir_obs *o = &j->out.obs[i];
        if (o->kind != IR_OBS_MEM || o->loc < 0 || o->loc >= j->nlocs || f.cands[o->loc])
            continue;
        int l = o->loc;
        jset ws = 0;
        for (int w = 0; w < j->nid; w++)
            if ((T->wr & JBIT(w)) && j->id[w].loc == l)
                ws |= JBIT(w);
        jset last = 0;
        for (int w = 0; w < j->nid; w++) {
            if (!(ws & JBIT(w)))
                continue;
            if (j->vol[l] ? !(TF->so[w] & ws) : !(TF->hb[w] & ws))
                last |= JBIT(w);
        }
        /* volatile: the so-last write (the initial write, outside so, only when there is no other) */
        if (j->vol[l] && (last & ~JBIT(l)))
            last &= ~JBIT(l);
        f.cands[l] = last;
    }
    f.state = j->out.state;
    return fw_choose(&f, 0);
}

void jls04_out_finish(jls *j)
{
    outcome_finish(&j->out);
    if (j->nnotes > MAX_NOTED)
        sb_printf(&j->notes, "(* %s: %d more states where the condition holds; their justifications are not shown *)\n",
                  j->t->name, j->nnotes - MAX_NOTED);
    if (j->nnotes == 0)
        sb_printf(&j->notes, "(* %s: JLS04 justifies no execution where the condition's proposition holds: "
                  "the %llu it allows (of %d well-formed) give other states *)\n", j->t->name,
                  (unsigned long long)(j->b->pos + j->b->neg), j->nx);
    j->b->notes = sb_take(&j->notes);
    free(j->noted);
}
