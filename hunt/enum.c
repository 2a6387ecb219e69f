/* The hunt's enumerated stream (--order enum): the vocabulary's cycles in
 * increasing size, made by gen_enumerate, so that test k is a function of
 * (vocabulary, seed, k) as the drawn stream's is and a resume or a shard
 * computes it alone.
 *
 * gen_enumerate takes at most 250 relaxations and safe edges, and the
 * vocabulary has tens of thousands of edges, so the enumeration goes in
 * rounds: round (size, slice) is every cycle of exactly SIZE edges made of
 * the vocabulary's communication edges (safe) and at least one edge of
 * the slice (relaxations, any mix of them), sizes 4 (diy7's SB, MP, LB
 * shapes; fewer edges cannot change location twice) to 6 (diy7's default
 * size), up to 4 threads and 4 events a thread.  The slices cut the other
 * edges, each kind shuffled by the seed and the kinds dealt in turn, so
 * that every slice holds each kind while it lasts.  A cycle's
 * non-communication edges therefore come from one slice: the rounds are
 * disjoint, and together they are every cycle within a slice.
 *
 * A round can hold hundreds of thousands of tests at size 6, so only a
 * window of them is kept; a later window runs the round's enumeration
 * again from its start (the round being a pure function, the tests agree). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hunt/hunt_internal.h"
#include "util/mem.h"

enum { MIN_SIZE = 4, MAX_SIZE = 6, SLICE = 32, WINDOW = 1024, MAX_ITEMS = 250 };

struct hunt_enum {
    const char **coms;      /* the communication edges: safe in every round */
    int ncom;
    const char **rest;      /* the other edges, in slice order */
    int nrest, slice;       /* edges a slice */
    long nslices, nrounds;
    long round;             /* (size - MIN_SIZE) * nslices + slice */
    long base;              /* k of the round's first test */
    long total;             /* the round's tests, -1 until one pass ended */
    long wlo;               /* the window: the round's tests wlo .. wlo + wn - 1 */
    int wn;
    gen_test win[WINDOW];
};

/* splitmix64, as the drawn stream uses. */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

hunt_enum *hunt_enum_new(const hunt_vocab *v, uint64_t seed, diag *d)
{
    int n = hunt_vocab_size(v);
    hunt_enum *e = xcalloc(1, sizeof *e);
    e->coms = xcalloc((size_t)n + 1, sizeof *e->coms);
    e->rest = xcalloc((size_t)n + 1, sizeof *e->rest);
    /* each kind's edges, shuffled by the seed (Fisher-Yates) */
    int *by[HUNT_KINDS], nby[HUNT_KINDS] = {0};
    for (int k = 0; k < HUNT_KINDS; k++)
        by[k] = xcalloc((size_t)n + 1, sizeof *by[k]);
    for (int i = 0; i < n; i++) {
        int k = hunt_vocab_kind(v, i);
        if (k == 0)
            e->coms[e->ncom++] = hunt_vocab_name(v, i);
        else
            by[k][nby[k]++] = i;
    }
    uint64_t s = seed ^ 0x5eed5eed5eedULL;
    for (int k = 1; k < HUNT_KINDS; k++)
        for (int i = nby[k] - 1; i > 0; i--) {
            int j = (int)(next(&s) % (uint64_t)(i + 1)), t = by[k][i];
            by[k][i] = by[k][j], by[k][j] = t;
        }
    /* dealt in turn, so that each slice holds every kind while it lasts */
    int at[HUNT_KINDS] = {0};
    while (e->nrest < n - e->ncom)
        for (int k = 1; k < HUNT_KINDS; k++)
            if (at[k] < nby[k])
                e->rest[e->nrest++] = hunt_vocab_name(v, by[k][at[k]++]);
    for (int k = 0; k < HUNT_KINDS; k++)
        free(by[k]);
    e->slice = MAX_ITEMS - e->ncom < SLICE ? MAX_ITEMS - e->ncom : SLICE;
    if (e->slice < 1) {
        diag_error(d, "hunt", 0, 0, "--order enum: the vocabulary has %d communication edges, at most %d", e->ncom,
                   MAX_ITEMS - 1);
        hunt_enum_free(e);
        return NULL;
    }
    e->nslices = (e->nrest + e->slice - 1) / e->slice;
    e->nrounds = e->nslices * (MAX_SIZE - MIN_SIZE + 1);
    e->total = -1;
    return e;
}

static void drop_window(hunt_enum *e)
{
    for (int i = 0; i < e->wn; i++)
        gen_test_free(&e->win[i]);
    e->wn = 0;
}

void hunt_enum_free(hunt_enum *e)
{
    if (!e)
        return;
    drop_window(e);
    free(e->coms);
    free(e->rest);
    free(e);
}

typedef struct sink_ctx {
    hunt_enum *e;
    int size;
    long seen;          /* tests of exactly SIZE edges so far */
    bool full;
} sink_ctx;

/* Keeps the round's tests of exactly its size that fall in the window;
 * stops the enumeration once the window is full. */
static bool sink(void *ctx, gen_test *t, const char *relax_used, const char *safe_used)
{
    (void)relax_used, (void)safe_used;
    sink_ctx *c = ctx;
    hunt_enum *e = c->e;
    int edges = 1;
    for (const char *p = t->cycle; p && *p; p++)
        edges += *p == ' ';
    if (edges != c->size || c->seen++ < e->wlo) {
        gen_test_free(t);
        return true;
    }
    e->win[e->wn++] = *t;
    c->full = e->wn == WINDOW;
    return !c->full;
}

/* Window WLO of the current round; false + D when gen refuses it. */
static bool load(hunt_enum *e, long wlo, diag *d)
{
    drop_window(e);
    e->wlo = wlo;
    int size = MIN_SIZE + (int)(e->round / e->nslices);
    long sl = e->round % e->nslices;
    int from = (int)(sl * e->slice), n = e->nrest - from < e->slice ? e->nrest - from : e->slice;
    gen_enum_opts o = {.arch = GEN_C, .size = size, .nprocs = 4, .max_ins = 4, .relax = e->rest + from,
                       .nrelax = n, .safe = e->coms, .nsafe = e->ncom, .min_relax = 1, .max_relax = size,
                       .mix = true};
    sink_ctx c = {.e = e, .size = size};
    diag gd = {0};
    /* gen refuses an edge of the vocabulary it cannot place: the list's fault */
    if (!gen_enumerate(&o, sink, &c, &gd))
        return diag_error(d, "hunt", 0, 0, "--order enum: round %ld (size %d): %s", e->round + 1, size, gd.msg);
    if (!c.full)
        e->total = c.seen;
    return true;
}

int hunt_enum_test(hunt_enum *e, long k, gen_test *out, diag *d)
{
    if (k < e->base) {
        /* back before the round: start again from the first one (a later
         * part of the same round only needs another window) */
        drop_window(e);
        e->round = e->base = e->wlo = 0;
        e->total = -1;
        if (e->nrounds && !load(e, 0, d))
            return -1;
    }
    while (e->round < e->nrounds) {
        long off = k - e->base;
        if (off >= e->wlo && off < e->wlo + e->wn) {
            const gen_test *t = &e->win[off - e->wlo];
            *out = (gen_test){.name = xstrdup(t->name), .cycle = xstrdup(t->cycle), .text = xstrdup(t->text),
                              .nprocs = t->nprocs};
            return 1;
        }
        if (e->total >= 0 && off >= e->total) {
            e->base += e->total;
            e->round++;
            e->total = -1;
            drop_window(e);
            e->wlo = 0;
            if (e->round < e->nrounds && !load(e, 0, d))
                return -1;
            continue;
        }
        if (!load(e, off, d))
            return -1;
        if (!e->wn && e->total < 0)
            return diag_fail(d, "hunt: the enumeration's round %ld lost its tests", e->round), -1;
    }
    return 0;
}

void hunt_enum_where(const hunt_enum *e, char *buf, size_t size)
{
    if (e->round >= e->nrounds) {
        snprintf(buf, size, "enumeration done: every cycle of %d to %d edges, %ld rounds", MIN_SIZE, MAX_SIZE,
                 e->nrounds);
        return;
    }
    long sl = e->round % e->nslices;
    long last = (sl + 1) * e->slice < e->nrest ? (sl + 1) * e->slice : e->nrest;
    snprintf(buf, size, "enumeration at size %d, slice %ld of %ld (edges %ld to %ld of %d), round %ld of %ld",
             MIN_SIZE + (int)(e->round / e->nslices), sl + 1, e->nslices, sl * e->slice + 1, last, e->nrest,
             e->round + 1, e->nrounds);
}
