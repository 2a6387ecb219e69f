/* Behaviour sets: accumulation during enumeration, lookup and herd's
 * verdict words. */
#include <stdlib.h>
#include <string.h>
#include "model/bset_build.h"
#include "util/mem.h"

void bset_acc_init(bset_acc *a, bset *b, const ir_obs *obs, int nobs)
{
    memset(a, 0, sizeof *a);
    a->b = b;
    b->nobs = nobs;
    b->obs = xcalloc((size_t)(nobs ? nobs : 1), sizeof *b->obs);
    for (int i = 0; i < nobs; i++) {
        b->obs[i] = obs[i];
        b->obs[i].reg = obs[i].reg ? xstrdup(obs[i].reg) : NULL;
    }
    a->nslot = 64;
    a->slot = xmalloc((size_t)a->nslot * sizeof(int));
    for (int i = 0; i < a->nslot; i++)
        a->slot[i] = -1;
}

static int lookup(const bset_acc *a, const ir_val *vals)
{
    const bset *b = a->b;
    size_t mask = (size_t)a->nslot - 1;
    size_t i = (size_t)bset_hash_vals(vals, b->nobs) & mask;
    for (;;) {
        int s = a->slot[i];
        if (s < 0 || memcmp(b->states[s].vals, vals, (size_t)b->nobs * sizeof *vals) == 0)
            return (int)i;
        i = (i + 1) & mask;
    }
}

static void grow(bset_acc *a)
{
    int old = a->nslot;
    int *olds = a->slot;
    a->nslot = old * 2;
    a->slot = xmalloc((size_t)a->nslot * sizeof(int));
    for (int i = 0; i < a->nslot; i++)
        a->slot[i] = -1;
    for (int i = 0; i < old; i++)
        if (olds[i] >= 0)
            a->slot[lookup(a, a->b->states[olds[i]].vals)] = olds[i];
    free(olds);
}

void bset_acc_add(bset_acc *a, const ir_val *vals, bool cond, uint64_t count)
{
    bset *b = a->b;
    if (cond)
        b->pos += count;
    else
        b->neg += count;
    int i = lookup(a, vals);
    if (a->slot[i] >= 0)
        return;
    if (b->nstates == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 16;
        b->states = xrealloc(b->states, (size_t)a->cap * sizeof *b->states);
    }
    bset_state *s = &b->states[b->nstates];
    s->vals = xmalloc((size_t)(b->nobs ? b->nobs : 1) * sizeof *vals);
    if (b->nobs)
        memcpy(s->vals, vals, (size_t)b->nobs * sizeof *vals);
    s->cond = cond;
    a->slot[i] = b->nstates++;
    if (2 * b->nstates > a->nslot)
        grow(a);
}

static int sort_nobs;
/* herd orders states item by item, values as signed integers. */
static int cmp_state(const void *x, const void *y)
{
    const bset_state *a = x, *b = y;
    for (int i = 0; i < sort_nobs; i++)
        if (a->vals[i] != b->vals[i])
            return a->vals[i] < b->vals[i] ? -1 : 1;
    return 0;
}

void bset_acc_finish(bset_acc *a)
{
    bset *b = a->b;
    sort_nobs = b->nobs;
    if (b->nstates > 1)
        qsort(b->states, (size_t)b->nstates, sizeof *b->states, cmp_state);
    free(a->slot);
    a->slot = NULL;
}

void bset_add_flag(bset *b, const char *name)
{
    for (int i = 0; i < b->nflags; i++)
        if (strcmp(b->flags[i], name) == 0)
            return;
    b->flags = xrealloc(b->flags, (size_t)(b->nflags + 1) * sizeof *b->flags);
    b->flags[b->nflags++] = xstrdup(name);
}

void bset_free(bset *b)
{
    if (!b)
        return;
    for (int i = 0; i < b->nobs; i++)
        free(b->obs[i].reg);
    free(b->obs);
    for (int i = 0; i < b->nstates; i++)
        free(b->states[i].vals);
    free(b->states);
    strv_free(b->flags, b->nflags);
    free(b->race);
    free(b->notes);
    free(b);
}

int bset_find(const bset *b, const ir_val *vals)
{
    int lo = 0, hi = b->nstates - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        int c = 0;
        for (int i = 0; i < b->nobs && c == 0; i++)
            if (b->states[mid].vals[i] != vals[i])
                c = b->states[mid].vals[i] < vals[i] ? -1 : 1;
        if (c == 0)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

const char *bset_verdict(const ir_test *t, const bset *b)
{
    if (b->undef)
        return "Undef";
    bool ok;
    switch (t->quant) {
    case IR_Q_EXISTS: ok = b->pos > 0; break;
    case IR_Q_NOT_EXISTS: ok = b->pos == 0; break;
    default: ok = b->neg == 0; break;
    }
    return ok ? "Ok" : "No";
}

const char *bset_observation(const ir_test *t, const bset *b)
{
    (void)t;
    if (b->pos == 0)
        return "Never";
    if (b->neg == 0)
        return "Always";
    return "Sometimes";
}
