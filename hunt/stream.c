/* The hunt's test stream: test k is drawn from the vocabulary by a walk
 * seeded with (seed, k), so every process of a hunt (a resume, a shard on
 * another machine) computes the same test k without talking.  The walk
 * builds a cycle thread by thread: internal edges (Pod, fences,
 * dependencies) chained by direction, then a communication edge (Rfe,
 * Fre, Coe) to the next thread, and the last one back to the first
 * event; annotations meet where two edges share an event.  gen_one makes
 * the test, and a cycle it refuses is drawn again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hunt/hunt.h"
#include "util/mem.h"

typedef struct hedge {
    char *name;
    char src, tgt;          /* 'W', 'R' or '*' */
    bool ext;               /* goes to another thread */
    int cls;                /* 0 communication, 1 program order, 2 fence, 3 dependency */
    char a1[8], a2[8];      /* annotations ("" when the name does not say) */
} hedge;

struct hunt_vocab {
    hedge *e;
    int n;
};

static const char *const atoms[] = {"Rlx", "Acq", "Rel", "AR", "Sc", "Con", "Na"};

/* The two annotations ending S (as "RlxAcq"), or false. */
static bool split_atoms(const char *s, hedge *h)
{
    for (size_t i = 0; i < sizeof atoms / sizeof *atoms; i++) {
        size_t l = strlen(atoms[i]);
        if (strncmp(s, atoms[i], l))
            continue;
        for (size_t j = 0; j < sizeof atoms / sizeof *atoms; j++)
            if (!strcmp(s + l, atoms[j])) {
                strcpy(h->a1, atoms[i]);
                strcpy(h->a2, atoms[j]);
                return true;
            }
    }
    return false;
}

static bool dirc(char c)
{
    return c == 'W' || c == 'R' || c == '*';
}

/* The shape of edge NAME: directions, and whether it leaves the thread.
 * False for a name the walk cannot place. */
static bool parse_edge(const char *name, hedge *h)
{
    memset(h, 0, sizeof *h);
    static const struct { const char *p; char s, t; bool ext; } com[] = {
        {"Rfe", 'W', 'R', true}, {"Fre", 'R', 'W', true}, {"Coe", 'W', 'W', true}, {"Wse", 'W', 'W', true},
        {"Rfi", 'W', 'R', false}, {"Fri", 'R', 'W', false}, {"Coi", 'W', 'W', false}, {"Wsi", 'W', 'W', false},
        {"Rmw", 'R', 'W', false}};
    const char *rest = NULL;
    for (size_t i = 0; i < sizeof com / sizeof *com && !rest; i++)
        if (!strncmp(name, com[i].p, 3)) {
            h->src = com[i].s, h->tgt = com[i].t, h->ext = com[i].ext;
            rest = name + 3;
        }
    if (!rest && (!strncmp(name, "Pod", 3) || !strncmp(name, "Pos", 3)) && dirc(name[3]) && dirc(name[4])) {
        h->src = name[3], h->tgt = name[4];
        rest = name + 5;
    }
    if (!rest && !strncmp(name, "Fence", 5))
        for (const char *p = name + 5; *p && !rest; p++)
            if ((*p == 'd' || *p == 's') && p[1] && dirc(p[1]) && p[2] && dirc(p[2])) {
                h->src = p[1], h->tgt = p[2];
                rest = p + 3;
            }
    if (!rest && !strncmp(name, "Dp", 2))
        for (const char *p = name + 2; *p && !rest; p++)
            if ((*p == 'd' || *p == 's') && (p[1] == 'W' || p[1] == 'R')) {
                h->src = 'R', h->tgt = p[1];
                rest = p + 2;
            }
    if (!rest)
        return false;
    if (*rest)
        split_atoms(rest, h);   /* unknown annotations: the walk does not match them */
    h->cls = h->ext || !strncmp(name, "Rf", 2) || !strncmp(name, "Fr", 2) || !strncmp(name, "Co", 2) ||
                     !strncmp(name, "Ws", 2) ? 0 : !strncmp(name, "Po", 2) ? 1 : !strncmp(name, "Fence", 5) ? 2
                     : !strncmp(name, "Dp", 2) ? 3 : 4;
    h->name = xstrdup(name);
    return true;
}

/* gen's C edges with every atomic annotation that fits each end. */
static char *default_words(void)
{
    static const char *const w_at[] = {"Rlx", "Rel", "Sc"}, *const r_at[] = {"Rlx", "Acq", "Sc"};
    static const char *const bases[] = {"Rfe", "Fre", "Coe", "PodWW", "PodWR", "PodRW", "PodRR",
                                        "DpAddrdR", "DpAddrdW", "DpDatadW", "DpCtrldR", "DpCtrldW"};
    static const char *const fences[] = {"FenceAcq", "FenceRel", "FenceAR", "FenceSc"};
    static const char *const fdirs[] = {"WW", "WR", "RW", "RR"};
    strbuf b = {0};
    char base[32];
    for (size_t i = 0; i < sizeof bases / sizeof *bases + sizeof fences / sizeof *fences * 4; i++) {
        if (i < sizeof bases / sizeof *bases)
            snprintf(base, sizeof base, "%s", bases[i]);
        else {
            size_t f = i - sizeof bases / sizeof *bases;
            snprintf(base, sizeof base, "%sd%s", fences[f / 4], fdirs[f % 4]);
        }
        hedge h;
        if (!parse_edge(base, &h))
            continue;
        const char *const *s1 = h.src == 'W' ? w_at : r_at, *const *s2 = h.tgt == 'W' ? w_at : r_at;
        for (int x = 0; x < 3; x++)
            for (int y = 0; y < 3; y++)
                sb_printf(&b, "%s%s%s ", base, s1[x], s2[y]);
        free(h.name);
    }
    return sb_take(&b);
}

hunt_vocab *hunt_vocab_new(const char *words, int *skipped)
{
    hunt_vocab *v = xcalloc(1, sizeof *v);
    char *own = words ? NULL : default_words();
    char *s = xstrdup(words ? words : own);
    int skip = 0;
    for (char *w = strtok(s, " \t\n"); w; w = strtok(NULL, " \t\n")) {
        hedge h;
        if (!parse_edge(w, &h)) {
            skip++;
            continue;
        }
        v->e = xrealloc(v->e, sizeof *v->e * (size_t)(v->n + 1));
        v->e[v->n++] = h;
    }
    free(s), free(own);
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
    free(v->e);
    free(v);
}

int hunt_vocab_size(const hunt_vocab *v)
{
    return v->n;
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

/* Does edge E start where the walk stands (direction DIR, annotation AT)? */
static bool fits(const hedge *e, char dir, const char *at)
{
    if (e->src != '*' && dir != '*' && e->src != dir)
        return false;
    return !*at || !*e->a1 || !strcmp(at, e->a1);
}

/* A random edge of V that is EXT and starts at DIR/AT (and, when END is
 * not 0, ends at direction END with annotation END_AT); -1 if none. */
static int draw(const hunt_vocab *v, uint64_t *s, bool ext, char dir, const char *at, char end, const char *end_at)
{
    int *cand = xmalloc(sizeof *cand * (size_t)(v->n ? v->n : 1)), n = 0;
    for (int i = 0; i < v->n; i++) {
        const hedge *e = &v->e[i];
        if (e->ext != ext || !fits(e, dir, at))
            continue;
        if (end && ((e->tgt != '*' && e->tgt != end) || (*end_at && *e->a2 && strcmp(end_at, e->a2))))
            continue;
        cand[n++] = i;
    }
    /* a kind of edge first (program order, fence, dependency, ...), then
     * one of that kind: the many fence annotations must not crowd out the rest */
    int r = -1;
    if (n) {
        int cls = v->e[cand[pick(s, n)]].cls, m = 0;
        unsigned seen = 0;
        for (int i = 0; i < n; i++)
            seen |= 1u << v->e[cand[i]].cls;
        int nk = __builtin_popcount(seen), want = pick(s, nk);
        for (cls = 0; cls < 8; cls++)
            if ((seen >> cls & 1) && want-- == 0)
                break;
        for (int i = 0; i < n; i++)
            if (v->e[cand[i]].cls == cls)
                cand[m++] = cand[i];
        r = cand[pick(s, m)];
    }
    free(cand);
    return r;
}

/* One walk: the cycle's edge indices in OUT (at most 12); its length, or 0. */
static int walk(const hunt_vocab *v, uint64_t *s, bool small, int *out)
{
    int nth = small ? 2 : 2 + pick(s, 3);
    int n = 0;
    char dir0 = 0, dir = 0;
    char at0[8] = "", at[8] = "";
    for (int th = 0; th < nth; th++) {
        int m = small ? 1 : (int)((int[]){0, 1, 1, 1, 2, 2})[pick(s, 6)];
        if (n + m + (nth - th) > 8)
            m = 0;
        for (int j = 0; j < m; j++) {
            int e = draw(v, s, false, dir ? dir : '*', at, 0, "");
            if (e < 0)
                return 0;
            if (!dir0) {
                dir0 = v->e[e].src == '*' ? "WR"[pick(s, 2)] : v->e[e].src;
                strcpy(at0, v->e[e].a1);
            }
            out[n++] = e;
            dir = v->e[e].tgt == '*' ? "WR"[pick(s, 2)] : v->e[e].tgt;
            strcpy(at, v->e[e].a2);
        }
        bool last = th == nth - 1;
        int e = draw(v, s, true, dir ? dir : '*', at, last ? dir0 : 0, last ? at0 : "");
        if (e < 0)
            return 0;
        if (!dir0) {
            dir0 = v->e[e].src;
            strcpy(at0, v->e[e].a1);
        }
        out[n++] = e;
        dir = v->e[e].tgt;
        strcpy(at, v->e[e].a2);
    }
    return n;
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
