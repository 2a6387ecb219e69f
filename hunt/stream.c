/* The hunt's test stream: test k is drawn from the vocabulary by a walk
 * seeded with (seed, k), so every process of a hunt (a resume, a shard on
 * another machine) computes the same test k without talking.  The walk
 * builds a cycle thread by thread: internal edges (Pod, fences, access
 * fences, dependencies, RMWs) chained by direction, then a communication
 * edge (Rfe, Fre, Coe) to the next thread, and the last one back to the
 * first event; annotations meet where two edges share an event.  Each
 * step picks a kind of edge first, then an edge of that kind, so that the
 * many access-fence spellings do not crowd out the rest.  gen_one makes
 * the test, and a cycle it refuses is drawn again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hunt/hunt.h"
#include "util/mem.h"

/* Kinds of edge, each drawn about as often as the others. */
enum { K_COM, K_PO, K_FENCE, K_DP, K_RMW, K_AFENCE, K_N };
_Static_assert((int)K_N == (int)HUNT_KINDS, "hunt.h counts the kinds of edge");

typedef struct hedge {
    char *name;
    char src, tgt;          /* 'W', 'R' */
    bool ext;               /* goes to another thread */
    bool diff;              /* goes to another location */
    int kind;
    int a1, a2;             /* annotations (index into atoms), -1 when the name does not say */
} hedge;

/* Indices of the edges with the same (ext, source direction, kind). */
typedef struct bucket {
    int *e;
    int n, cap;
} bucket;

struct hunt_vocab {
    hedge *e;
    int n;
    bucket b[2][2][K_N];    /* [ext][src == 'R'][kind] */
};

static const char *const atoms[] = {"Rlx", "Acq", "Rel", "AR", "Sc", "Con", "Na"};
enum { NATOMS = sizeof atoms / sizeof *atoms };

/* The annotation S begins with, its length in *LEN; -1 if none. */
static int atom_at(const char *s, size_t *len)
{
    int best = -1;
    size_t bl = 0;
    for (int i = 0; i < NATOMS; i++) {
        size_t l = strlen(atoms[i]);
        if (!strncmp(s, atoms[i], l) && l > bl)
            best = i, bl = l;
    }
    *len = bl;
    return best;
}

/* Does S consist of annotations only?  The last one's index in *LAST. */
static bool all_atoms(const char *s, int *last)
{
    if (!*s)
        return true;
    for (int i = 0; i < NATOMS; i++) {
        size_t l = strlen(atoms[i]);
        if (!strncmp(s, atoms[i], l) && all_atoms(s + l, last)) {
            if (!s[l])
                *last = i;
            return true;
        }
    }
    return false;
}

/* The annotations of the events an edge joins, from S, what follows its
 * shape: the first two of the run of them that ends the name ("AcqRel" of
 * RmwOrAcqRel; a CAS's "AcqRelRlx" adds its failure order); -1s when S
 * ends in none.  An empty S is two plain events. */
static void split_atoms(const char *s, hedge *h)
{
    h->a1 = h->a2 = -1;
    if (!*s) {
        h->a1 = h->a2 = NATOMS - 1;
        return;
    }
    for (const char *p = s; *p; p++) {
        int last = -1;
        size_t l;
        if (all_atoms(p, &last) && last >= 0) {
            h->a1 = atom_at(p, &l);
            h->a2 = p[l] ? atom_at(p + l, &l) : h->a1;
            return;
        }
    }
}

static bool dirc(char c)
{
    return c == 'W' || c == 'R';
}

/* The shape of edge NAME: directions, kind, and whether it leaves the
 * thread.  False for a name the walk cannot place. */
static bool parse_edge(const char *name, hedge *h)
{
    memset(h, 0, sizeof *h);
    static const struct { const char *p; char s, t; bool ext; int kind; } fixed[] = {
        {"Rfe", 'W', 'R', true, K_COM}, {"Fre", 'R', 'W', true, K_COM}, {"Coe", 'W', 'W', true, K_COM},
        {"Wse", 'W', 'W', true, K_COM}, {"Rfi", 'W', 'R', false, K_COM}, {"Fri", 'R', 'W', false, K_COM},
        {"Coi", 'W', 'W', false, K_COM}, {"Wsi", 'W', 'W', false, K_COM}, {"Rmw", 'R', 'W', false, K_RMW},
        {"Exch", 'R', 'W', false, K_RMW}};
    const char *rest = NULL;
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed && !rest; i++)
        if (!strncmp(name, fixed[i].p, strlen(fixed[i].p))) {
            h->src = fixed[i].s, h->tgt = fixed[i].t, h->ext = fixed[i].ext, h->kind = fixed[i].kind;
            rest = name + strlen(fixed[i].p);
        }
    if (!rest && (!strncmp(name, "Pod", 3) || !strncmp(name, "Pos", 3)) && dirc(name[3]) && dirc(name[4])) {
        h->src = name[3], h->tgt = name[4], h->kind = K_PO, h->diff = name[2] == 'd';
        rest = name + 5;
    }
    if (!rest && !strncmp(name, "Fence", 5)) {
        /* a plain fence is Fence{Acq,Rel,AR,Sc,Rlx,Con}{d,s}XY; any other
         * spelling is a fence made of an access (FenceXchg..., FenceLd...) */
        size_t l;
        int a = atom_at(name + 5, &l);
        bool plain = a >= 0 && a != NATOMS - 1 && (name[5 + l] == 'd' || name[5 + l] == 's') &&
                     dirc(name[6 + l]) && dirc(name[7 + l]);
        if (plain) {
            h->src = name[6 + l], h->tgt = name[7 + l], h->kind = K_FENCE, h->diff = name[5 + l] == 'd';
            rest = name + 8 + l;
        }
        /* the last {d,s}XY of an access fence (its orders come before) */
        for (const char *p = name + strlen(name); !plain && !rest && p > name + 5; p--)
            if ((p[-1] == 'd' || p[-1] == 's') && dirc(p[0]) && dirc(p[1]) &&
                (!p[2] || atom_at(p + 2, &l) >= 0)) {
                h->src = p[0], h->tgt = p[1], h->kind = K_AFENCE, h->diff = p[-1] == 'd';
                rest = p + 2;
            }
    }
    if (!rest && !strncmp(name, "Dp", 2))
        for (const char *p = name + 2; *p && !rest; p++)
            if ((*p == 'd' || *p == 's') && dirc(p[1])) {
                h->src = 'R', h->tgt = p[1], h->kind = K_DP, h->diff = *p == 'd';
                rest = p + 2;
            }
    if (!rest || strchr(name, '*'))
        return false;
    split_atoms(rest, h);
    h->name = xstrdup(name);
    return true;
}

/* Can gen make a test with access fences?  The SB shape with the first
 * one from a write to a read of another location (E Fre E Fre) says. */
static bool afences_work(const hedge *e, int n)
{
    for (int i = 0; i < n; i++) {
        const hedge *h = &e[i];
        if (h->kind != K_AFENCE || !h->diff || h->src != 'W' || h->tgt != 'R' || h->a1 < 0 || h->a2 < 0)
            continue;
        char *fre = xasprintf("Fre%s%s", h->a2 == NATOMS - 1 ? "" : atoms[h->a2],
                              h->a2 == NATOMS - 1 ? "" : atoms[h->a1]);
        const char *cyc[] = {h->name, fre, h->name, fre};
        gen_test t;
        diag d = {0};
        bool ok = gen_one(GEN_C, cyc, 4, &(gen_one_opts){0}, &t, &d);
        if (ok)
            gen_test_free(&t);
        free(fre);
        return ok;
    }
    return false;
}

hunt_vocab *hunt_vocab_new(const char *words, int *skipped)
{
    hunt_vocab *v = xcalloc(1, sizeof *v);
    char *s = words ? xstrdup(words) : gen_c_vocabulary();
    int skip = 0;
    size_t cap = 0, len = 0;
    for (char *w = strtok(s, " \t\n"); w; w = strtok(NULL, " \t\n")) {
        hedge h;
        if (!parse_edge(w, &h)) {
            skip++;
            continue;
        }
        VEC_PUSH(v->e, len, cap, h);
    }
    v->n = (int)len;
    free(s);
    /* access fences that gen cannot print yet are left out, counted */
    if (!afences_work(v->e, v->n)) {
        int m = 0;
        for (int i = 0; i < v->n; i++) {
            if (v->e[i].kind == K_AFENCE) {
                free(v->e[i].name);
                skip++;
            } else
                v->e[m++] = v->e[i];
        }
        v->n = m;
    }
    for (int i = 0; i < v->n; i++) {
        bucket *b = &v->b[v->e[i].ext][v->e[i].src == 'R'][v->e[i].kind];
        /* grown by doubling: tens of thousands of edges share a bucket */
        VEC_PUSH(b->e, b->n, b->cap, i);
    }
    if (skipped)
        *skipped = skip;
    return v;
}

void hunt_vocab_free(hunt_vocab *v)
{
    if (!v)
        return;
    for (int i = 0; i < v->n; i++)
        free(v->e[i].name);
    for (int x = 0; x < 2; x++)
        for (int y = 0; y < 2; y++)
            for (int k = 0; k < K_N; k++)
                free(v->b[x][y][k].e);
    free(v->e);
    free(v);
}

int hunt_vocab_size(const hunt_vocab *v)
{
    return v->n;
}

int hunt_vocab_kind(const hunt_vocab *v, int i)
{
    return v->e[i].kind;
}

const char *hunt_vocab_name(const hunt_vocab *v, int i)
{
    return v->e[i].name;
}

int hunt_vocab_find(const hunt_vocab *v, const char *name)
{
    for (int i = 0; i < v->n; i++)
        if (!strcmp(v->e[i].name, name))
            return i;
    return -1;
}

/* splitmix64: a small generator whose state is one word. */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int pick(uint64_t *s, int n)
{
    return (int)(next(s) % (uint64_t)n);
}

/* Does edge E meet the walk at annotation AT (-1: any), and end at END
 * (0: anywhere) with annotation END_AT? */
static bool fits(const hedge *e, int at, char end, int end_at)
{
    if (at >= 0 && e->a1 >= 0 && e->a1 != at)
        return false;
    return !end || (e->tgt == end && (end_at < 0 || e->a2 < 0 || e->a2 == end_at));
}

/* A random edge of V that is EXT and starts at direction DIR (0: either)
 * and annotation AT, of a kind drawn first; -1 if none fits. */
static int draw(const hunt_vocab *v, uint64_t *s, bool ext, char dir, int at, char end, int end_at)
{
    int d = dir ? dir == 'R' : pick(s, 2);
    int kinds[K_N], nk = 0;
    for (int k = 0; k < K_N; k++)
        if (v->b[ext][d][k].n)
            kinds[nk++] = k;
    for (int tries = 0; nk > 0 && tries < 4; tries++) {
        int ki = pick(s, nk);
        const bucket *b = &v->b[ext][d][kinds[ki]];
        /* a few random draws, then a scan from a random place */
        for (int r = 0; r < 24; r++) {
            int e = b->e[pick(s, b->n)];
            if (fits(&v->e[e], at, end, end_at))
                return e;
        }
        int from = pick(s, b->n);
        for (int i = 0; i < b->n; i++) {
            int e = b->e[(from + i) % b->n];
            if (fits(&v->e[e], at, end, end_at))
                return e;
        }
        kinds[ki] = kinds[--nk];
    }
    return -1;
}

/* One walk: the cycle's edge indices in OUT (at most 12); its length, or 0. */
static int walk(const hunt_vocab *v, uint64_t *s, bool small, int *out)
{
    int nth = small ? 2 : 2 + pick(s, 3);
    int n = 0;
    char dir0 = 0, dir = 0;
    int at0 = -1, at = -1;
    for (int th = 0; th < nth; th++) {
        int m = small ? 1 : (int)((int[]){0, 1, 1, 1, 2, 2})[pick(s, 6)];
        if (n + m + (nth - th) > 8)
            m = 0;
        for (int j = 0; j < m; j++) {
            int e = draw(v, s, false, dir, at, 0, -1);
            if (e < 0)
                return 0;
            if (!dir0)
                dir0 = v->e[e].src, at0 = v->e[e].a1;
            out[n++] = e;
            dir = v->e[e].tgt, at = v->e[e].a2;
        }
        bool last = th == nth - 1;
        int e = draw(v, s, true, dir, at, last ? dir0 : 0, last ? at0 : -1);
        if (e < 0)
            return 0;
        if (!dir0)
            dir0 = v->e[e].src, at0 = v->e[e].a1;
        out[n++] = e;
        dir = v->e[e].tgt, at = v->e[e].a2;
    }
    /* a cycle changes location at least twice, or gen refuses it */
    int diffs = 0;
    for (int i = 0; i < n; i++)
        diffs += v->e[out[i]].diff;
    return diffs >= 2 ? n : 0;
}

bool hunt_stream_test(const hunt_vocab *v, uint64_t seed, long k, gen_test *out, diag *d)
{
    for (int attempt = 0; attempt < 500; attempt++) {
        uint64_t s = seed * 0x2545f4914f6cdd1dULL ^ ((uint64_t)k << 20) ^ (uint64_t)attempt;
        next(&s);
        int idx[16];
        int n = walk(v, &s, k % 2 == 0, idx);
        if (n < 2)
            continue;
        const char *names[16];
        for (int i = 0; i < n; i++)
            names[i] = v->e[idx[i]].name;
        diag dd = {0};
        gen_one_opts go = {.generator = "litmusc hunt"};
        if (gen_one(GEN_C, names, n, &go, out, &dd))
            return true;


    }
    return diag_fail(d, "hunt: no test could be drawn for entry %ld of the stream (seed %llu)", k,
                     (unsigned long long)seed);
}

bool hunt_parse_duration(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || v <= 0)
        return false;
    double mul = 1;
    if (!strcmp(end, "s") || !*end)
        mul = 1;
    else if (!strcmp(end, "m"))
        mul = 60;
    else if (!strcmp(end, "h"))
        mul = 3600;
    else
        return false;
    *out = v * mul;
    return true;
}
