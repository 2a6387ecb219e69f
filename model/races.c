/* Data races of a whole test (races.h): every consistent execution is
 * looked at as the model finds it (model_run_observed), its racing pairs
 * computed by vector clocks (hb.c), and the pairs merged across executions
 * by the accesses they join.  An access is known by its thread, its place
 * in program order, its instruction and whether it reads or writes, so the
 * same pair of instructions on two control-flow paths, at two places, is
 * two pairs, as the `P0:2` of the output would show them. */
#include <stdlib.h>
#include <string.h>
#include "isa/isa.h"
#include "model/bset_build.h"
#include "model/hb.h"
#include "model/races.h"
#include "util/mem.h"

/* a test of EXEC_MAX events has at most this many pairs of accesses */
enum { MAX_EXEC_PAIRS = EXEC_MAX * (EXEC_MAX - 1) / 2 };

typedef struct state_acc {
    ir_val *vals;           /* nobs values */
    int *ids;               /* pairs racing in every execution seen so far with this state, ascending */
    int nids;
} state_acc;

typedef struct collect {
    const ir_test *t;
    int nobs;
    races_pair *pairs;
    size_t npairs, cap;
    int *pslot;             /* open addressing over pairs, -1 empty */
    size_t npslot;
    state_acc *states;
    size_t nstates, scap;
    int *sslot;             /* open addressing over states */
    size_t nsslot;
    uint64_t executions, racy;
} collect;

static uint64_t hash_access(uint64_t h, const races_access *a)
{
    h = bset_hash_mix(h, (uint64_t)a->thread);
    h = bset_hash_mix(h, (uint64_t)a->poi);
    h = bset_hash_mix(h, (uint64_t)(uintptr_t)a->instr);
    return bset_hash_mix(h, (uint64_t)(a->read | a->write << 1));
}

static uint64_t hash_pair(const races_pair *p)
{
    return hash_access(hash_access(BSET_HASH_SEED, &p->a), &p->b);
}

static bool same_access(const races_access *x, const races_access *y)
{
    return x->thread == y->thread && x->poi == y->poi && x->instr == y->instr && x->read == y->read &&
           x->write == y->write;
}

/* The slot of P in the pair table: its index there, or an empty one. */
static size_t pair_slot(const collect *c, const races_pair *p)
{
    size_t mask = c->npslot - 1, i = (size_t)hash_pair(p) & mask;
    for (;;) {
        int k = c->pslot[i];
        if (k < 0 || (same_access(&c->pairs[k].a, &p->a) && same_access(&c->pairs[k].b, &p->b)))
            return i;
        i = (i + 1) & mask;
    }
}

static size_t state_slot(const collect *c, const ir_val *vals)
{
    size_t mask = c->nsslot - 1, i = (size_t)bset_hash_vals(vals, c->nobs) & mask;
    for (;;) {
        int k = c->sslot[i];
        if (k < 0 || memcmp(c->states[k].vals, vals, (size_t)c->nobs * sizeof *vals) == 0)
            return i;
        i = (i + 1) & mask;
    }
}

static int *empty_slots(size_t n)
{
    int *s = xmalloc(n * sizeof *s);
    for (size_t i = 0; i < n; i++)
        s[i] = -1;
    return s;
}

/* Keep tables at most half full: before one more of the N entries goes in,
 * SLOTS is doubled and emptied, and true says the caller must put the N
 * back. */
static bool regrow(int **slots, size_t *nslots, size_t n)
{
    if (2 * (n + 1) <= *nslots)
        return false;
    free(*slots);
    *nslots *= 2;
    *slots = empty_slots(*nslots);
    return true;
}

static void grow_pairs(collect *c)
{
    if (regrow(&c->pslot, &c->npslot, c->npairs))
        for (size_t k = 0; k < c->npairs; k++)
            c->pslot[pair_slot(c, &c->pairs[k])] = (int)k;
}

static void grow_states(collect *c)
{
    if (regrow(&c->sslot, &c->nsslot, c->nstates))
        for (size_t k = 0; k < c->nstates; k++)
            c->sslot[state_slot(c, c->states[k].vals)] = (int)k;
}

races_access races_access_of(const exec_event *e)
{
    return (races_access){e->thread, e->poi, e->instr, (e->kind & EV_R) != 0, (e->kind & EV_W) != 0, e->mode,
                          e->loc};
}

/* The index of the pair of events (A, B) of X, added when new. */
static int pair_id(collect *c, const exec *x, race_pair rp, uint64_t index)
{
    races_pair p = {races_access_of(&x->ev[rp.a]), races_access_of(&x->ev[rp.b]), index, 0,
                    c->t->arch == IR_ARCH_JAVA};
    size_t i = pair_slot(c, &p);
    if (c->pslot[i] >= 0)
        return c->pslot[i];
    grow_pairs(c);
    i = pair_slot(c, &p);
    VEC_PUSH(c->pairs, c->npairs, c->cap, p);
    c->pslot[i] = (int)c->npairs - 1;
    return (int)c->npairs - 1;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* A state's pairs so far, intersected with the execution's IDS (ascending). */
static void intersect(state_acc *s, const int *ids, int n)
{
    int k = 0, j = 0;
    for (int i = 0; i < s->nids; i++) {
        while (j < n && ids[j] < s->ids[i])
            j++;
        if (j < n && ids[j] == s->ids[i])
            s->ids[k++] = s->ids[i];
    }
    s->nids = k;
}

/* Whether X has a non-atomic access: without one nothing races, and hb
 * need not be computed (most of the corpus is all atomic). */
static bool has_plain(const exec *x)
{
    for (int i = 0; i < x->n; i++) {
        const exec_event *e = &x->ev[i];
        if (!(e->kind & EV_IW) && (e->kind & (EV_R | EV_W)) && !hb_atomic(e))
            return true;
    }
    return false;
}

static bool on_exec(void *ctx, const exec *x, const model_exec_info *info, diag *d)
{
    (void)d;
    collect *c = ctx;
    c->executions++;
    static _Thread_local race_pair rp[MAX_EXEC_PAIRS];
    static _Thread_local int ids[MAX_EXEC_PAIRS];
    int n = 0;
    if (has_plain(x)) {
        exec_rel sw, hb;
        hb_compute(x, &sw, &hb);
        n = hb_races(x, &hb, rp, MAX_EXEC_PAIRS);
    }
    for (int k = 0; k < n; k++) {
        ids[k] = pair_id(c, x, rp[k], info->index);
        c->pairs[ids[k]].executions++;
    }
    if (n)
        c->racy++;
    qsort(ids, (size_t)n, sizeof *ids, cmp_int);
    size_t i = state_slot(c, info->state);
    if (c->sslot[i] >= 0) {
        intersect(&c->states[c->sslot[i]], ids, n);
        return true;
    }
    grow_states(c);
    i = state_slot(c, info->state);
    state_acc s = {xmalloc(((size_t)c->nobs + 1) * sizeof *s.vals), xmalloc(((size_t)n + 1) * sizeof *s.ids),
                   n};
    memcpy(s.vals, info->state, (size_t)c->nobs * sizeof *s.vals);
    memcpy(s.ids, ids, (size_t)n * sizeof *ids);
    VEC_PUSH(c->states, c->nstates, c->scap, s);
    c->sslot[i] = (int)c->nstates - 1;
    return true;
}

int races_access_cmp(const races_access *x, const races_access *y)
{
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    if (x->poi != y->poi)
        return x->poi < y->poi ? -1 : 1;
    if (x->instr->line != y->instr->line)
        return x->instr->line < y->instr->line ? -1 : 1;
    if (x->instr->col != y->instr->col)
        return x->instr->col < y->instr->col ? -1 : 1;
    return (x->read | x->write << 1) - (y->read | y->write << 1);
}

static const races_pair *sort_base;

static int cmp_pair_ix(const void *a, const void *b)
{
    const races_pair *x = &sort_base[*(const int *)a], *y = &sort_base[*(const int *)b];
    int r = races_access_cmp(&x->a, &y->a);
    return r ? r : races_access_cmp(&x->b, &y->b);
}

static void collect_free(collect *c)
{
    for (size_t i = 0; i < c->nstates; i++) {
        free(c->states[i].vals);
        free(c->states[i].ids);
    }
    free(c->states);
    free(c->sslot);
    free(c->pairs);
    free(c->pslot);
}

/* Move what C gathered into R, pairs in program order. */
static void finish(races *r, collect *c)
{
    const bset *b = r->b;
    int n = (int)c->npairs;
    int *order = xmalloc(((size_t)n + 1) * sizeof *order), *rank = xmalloc(((size_t)n + 1) * sizeof *rank);
    for (int i = 0; i < n; i++)
        order[i] = i;
    sort_base = c->pairs;
    qsort(order, (size_t)n, sizeof *order, cmp_pair_ix);
    r->pairs = xmalloc(((size_t)n + 1) * sizeof *r->pairs);
    for (int i = 0; i < n; i++) {
        r->pairs[i] = c->pairs[order[i]];
        rank[order[i]] = i;
        r->nharmful += !r->pairs[i].benign;
    }
    r->npairs = n;
    r->executions = c->executions;
    r->racy = c->racy;
    for (int s = 0; s < b->nstates; s++) {
        size_t i = c->nstates ? state_slot(c, b->states[s].vals) : 0;
        if (!c->nstates || c->sslot[i] < 0)
            continue;
        const state_acc *a = &c->states[c->sslot[i]];
        r->implied[s] = xmalloc(((size_t)a->nids + 1) * sizeof *r->implied[s]);
        for (int k = 0; k < a->nids; k++)
            r->implied[s][k] = rank[a->ids[k]];
        r->nimplied[s] = a->nids;
        qsort(r->implied[s], (size_t)a->nids, sizeof *r->implied[s], cmp_int);
    }
    free(order);
    free(rank);
}

races *races_run(const model *m, const ir_test *t, diag *d)
{
    races *r = xcalloc(1, sizeof *r);
    bool x86 = isa_all_atomic(t->arch);
    collect c = {.t = t, .npslot = 16, .nsslot = 16};
    free(ir_observables(t, &c.nobs));
    c.pslot = empty_slots(c.npslot);
    c.sslot = empty_slots(c.nsslot);
    r->b = x86 ? model_run(m, t, d) : model_run_observed(m, t, on_exec, &c, d);
    if (r->b && r->b->nobs != c.nobs) {
        diag_fail(d, "%s: the behaviour set has %d observables, the test %d", t->name, r->b->nobs, c.nobs);
        bset_free(r->b);
        r->b = NULL;
    }
    if (!r->b) {
        collect_free(&c);
        free(r);
        return NULL;
    }
    r->implied = xcalloc((size_t)r->b->nstates + 1, sizeof *r->implied);
    r->nimplied = xcalloc((size_t)r->b->nstates + 1, sizeof *r->nimplied);
    finish(r, &c);
    collect_free(&c);
    return r;
}

void races_free(races *r)
{
    if (!r)
        return;
    for (int s = 0; r->b && s < r->b->nstates; s++)
        free(r->implied[s]);
    free(r->implied);
    free(r->nimplied);
    free(r->pairs);
    bset_free(r->b);
    free(r);
}

const char *races_access_kind(const races_access *a)
{
    return a->read && a->write ? "RW" : a->write ? "W" : "R";
}

const char *races_thread_name(const ir_test *t, const races_access *a)
{
    for (int i = 0; i < t->nthreads; i++)
        if (t->threads[i].id == a->thread)
            return t->threads[i].name;
    return "?";
}

const char *races_loc_name(const ir_test *t, const races_access *a)
{
    return a->loc >= 0 && a->loc < t->nlocs ? t->locs[a->loc].name : "?";
}

void races_format_access(strbuf *out, const ir_test *t, const char *file, const races_access *a)
{
    sb_printf(out, "%s:%d (%s:%d:%d) %s %s %s", races_thread_name(t, a), a->poi, file, a->instr->line,
              a->instr->col, races_access_kind(a), ir_mode_name(a->mode), races_loc_name(t, a));
}

void races_format_pair(strbuf *out, const ir_test *t, const char *file, const races_pair *p)
{
    races_format_access(out, t, file, &p->a);
    sb_add(out, " <-> ");
    races_format_access(out, t, file, &p->b);
}
