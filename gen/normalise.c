/* The normal form of a cycle and its name, as diy7 gives them, so that a
 * cycle gets the same test and the same name whichever edge it is
 * written from.
 *
 * A thread is a run of internal edges ending in an external
 * communication.  Each thread is summed up by the directions of its
 * first and last events ("WR" for SB's threads, "W" for a lone write);
 * the normal form starts at the thread whose sequence of summaries is
 * least in diy7's order of summaries, ties broken by the number of
 * internal edges of the first thread and then the edges themselves.
 * The family name is the summaries joined by '+', renamed by diy7's
 * table (WR+WR is SB, WW+RR is MP); the suffixes name each thread's
 * internal edges ("mfence", "rfi-po"). */
#include <string.h>
#include "gen/internal.h"

/* Thread K of C (starting at event START) runs from first[k] to last[k]. */
typedef struct procs {
    int n;
    int first[GEN_MAX_EDGES], last[GEN_MAX_EDGES];
} procs;

static void cut_procs(const gen_cycle *c, int start, procs *p)
{
    int n = c->n;
    p->n = 0;
    int i = start;
    do {
        int j = i;
        while (!gen_is_ext(&c->e[j % n]))
            j++;
        p->first[p->n] = i % n;
        p->last[p->n] = j % n;
        p->n++;
        i = (j + 1) % n;
    } while (i != start);
}

int gen_normal_start(const gen_cycle *c)
{
    int n = c->n;
    if (gen_is_ext(&c->e[n - 1]))
        return 0;
    for (int i = 0; i < n; i++)
        if (gen_is_ext(&c->e[i]))
            return (i + 1) % n;
    return -1;
}

/* diy7's order of thread summaries: W, WW, RR, RW, WR, R (the others
 * involve fetches). */
static int point_rank(const gen_cycle *c, const procs *p, int k)
{
    int d1 = c->ev[p->first[k]].dir, d2 = c->ev[p->last[k]].dir;
    if (p->first[k] == p->last[k])
        return d1 == GD_W ? 0 : 10;
    if (d1 == GD_W)
        return d2 == GD_W ? 1 : 8;
    return d2 == GD_R ? 2 : 6;
}

/* diy7's compare_edges: fences and dependencies before plain program
 * order and reads-from, otherwise the structural order. */
static int compare_edges(const gen_edge *x, const gen_edge *y)
{
    bool xpr = x->kind == GK_PO || x->kind == GK_RF, ypr = y->kind == GK_PO || y->kind == GK_RF;
    bool xfd = x->kind == GK_FENCED || x->kind == GK_DP, yfd = y->kind == GK_FENCED || y->kind == GK_DP;
    if (xpr && yfd)
        return 1;
    if (x->kind == GK_DP && y->kind == GK_FENCED)
        return 1;
    if (xfd && ypr)
        return -1;
    if (x->kind == GK_FENCED && y->kind == GK_DP)
        return -1;
    return gen_edge_poly_cmp(x, y);
}

static int ninternals(const gen_cycle *c, int start)
{
    int k = 0;
    for (int i = 0; i < c->n; i++) {
        if (gen_is_ext(&c->e[(start + i) % c->n]))
            break;
        k++;
    }
    return k;
}

/* Compare the rotations starting at threads K1 and K2 of P. */
static int compare_rotations(const gen_cycle *c, const procs *p, int k1, int k2)
{
    for (int i = 0; i < p->n; i++) {
        int r1 = point_rank(c, p, (k1 + i) % p->n), r2 = point_rank(c, p, (k2 + i) % p->n);
        if (r1 != r2)
            return r1 < r2 ? -1 : 1;
    }
    int s1 = p->first[k1], s2 = p->first[k2];
    int i1 = ninternals(c, s1), i2 = ninternals(c, s2);
    if (i1 != i2)
        return i1 < i2 ? -1 : 1;
    for (int i = 0; i < c->n; i++) {
        int r = compare_edges(&c->e[(s1 + i) % c->n], &c->e[(s2 + i) % c->n]);
        if (r)
            return r;
    }
    return 0;
}

/* The event the normal form starts at (diy7's CP.norm: the least
 * rotation, the later one on ties). */
static int normal_rotation(const gen_cycle *c)
{
    int s = gen_normal_start(c);
    procs p;
    cut_procs(c, s, &p);
    int best = 0;
    for (int k = 1; k < p.n; k++)
        if (compare_rotations(c, &p, best, k) >= 0)
            best = k;
    return p.first[best];
}

int gen_normalise(gen_cycle *c)
{
    int s = normal_rotation(c);
    gen_rotate(c, s);
    return s;
}

/* diy7's family names (Normaliser.pp_key). */
static const struct { const char *key, *name; } families[] = {
    {"WW+RR", "MP"}, {"WW+FF", "MP.FF"}, {"WW+RF", "MP.RF"}, {"WW+FR", "MP.FR"},
    {"WR+WR", "SB"}, {"WF+WR", "SB.FR"}, {"WR+WF", "SB.RF"}, {"WF+WF", "SB.FF"},
    {"WR+WR+WR", "3.SB"}, {"WF+WF+WF", "3.SB.FFF"}, {"WR+WR+WR+WR", "4.SB"},
    {"W+RW+RR", "WRC"}, {"W+FW+RR", "WRC+F+RR"}, {"W+FW+FF", "WRC+F+FF"}, {"W+FW+FR", "WRC+F+FR"},
    {"W+FW+RF", "WRC+F+RF"}, {"W+RW+FF", "WRC+R+FF"}, {"W+RW+FR", "WRC+R+FR"}, {"W+RW+RF", "WRC+R+RF"},
    {"W+RR+WR", "RWC"}, {"W+FF+WF", "RWC.FF.F"}, {"W+RF+WF", "RWC.RF.F"},
    {"RW+RW", "LB"}, {"FW+RW", "LB.FR"}, {"RW+FW", "LB.RF"}, {"FW+FW", "LB.FF"},
    {"RW+RW+RW", "3.LB"}, {"FW+FW+FW", "3.LB.FFF"}, {"RW+RW+RW+RW", "4.LB"},
    {"WW+WR", "R"}, {"W+RW+WR", "WRW+WR"}, {"W+RR+WW", "WRR+2W"}, {"WW+RW", "S"},
    {"W+RW+RW", "WWC"}, {"WW+WW", "2+2W"}, {"WW+WW+WW", "3.2W"}, {"WW+WW+WW+WW", "4.2W"},
    {"W+RW+WW", "WRW+2W"}, {"WW+RR+WR", "W+RWC"}, {"WW+FF+WF", "W+RWC.F.FF"},
    {"WW+RW+RR", "ISA2"}, {"WW+FW+FF", "ISA2.F.FF"}, {"W+RR+W+RR", "IRIW"},
    {"W+RR+W+RW", "IRRWIW"}, {"W+RW+W+RR", "IRRWIW"}, {"W+RW+W+RW", "IRWIW"},
    {"WW+RW+WR", "Z6.0"}, {"WW+WW+RW", "Z6.1"}, {"WW+RW+RW", "Z6.2"}, {"WW+WW+RR", "Z6.3"},
    {"WW+WR+WR", "Z6.4"}, {"WW+WW+WR", "Z6.5"}, {"WW+FW", "S.F"}, {"WW+WF", "R.F"},
    {"WW+FW+FR", "ISA2.F.FR"}, {"WW+FW+RF", "ISA2.F.RF"}, {"WW+FW+RR", "ISA2.F.RR"},
    {"WW+RW+FF", "ISA2.R.FF"}, {"WW+RW+FR", "ISA2.R.FR"}, {"WW+RW+RF", "ISA2.R.RF"},
    {"RW+FW+FW", "3.LB.R.F.F"}, {"RW+RW+FW", "3.LB.R.R.F"}, {"WR+WF+WF", "3.SB.R.F.F"},
    {"WR+WR+WF", "3.SB.R.R.F"}, {"WW+FW+WF", "Z6.0.F.F"}, {"WW+FW+WR", "Z6.0.F.R"},
    {"WW+RW+WF", "Z6.0.R.F"}, {"WW+WW+FW", "Z6.1.F"}, {"WW+FW+FW", "Z6.2.F.F"},
    {"WW+FW+RW", "Z6.2.F.R"}, {"WW+RW+FW", "Z6.2.R.F"}, {"WW+WW+FF", "Z6.3.FF"},
    {"WW+WW+FR", "Z6.3.FR"}, {"WW+WW+RF", "Z6.3.RF"}, {"WW+WF+WF", "Z6.4.F.F"},
    {"WW+WF+WR", "Z6.4.F.R"}, {"WW+WR+WF", "Z6.4.R.F"}, {"WW+WW+WF", "Z6.5.F"},
    {"WW+FF+WR", "W+RWC.FF.R"}, {"WW+FR+WF", "W+RWC.FR.F"}, {"WW+FR+WR", "W+RWC.FR.R"},
    {"WW+RF+WF", "W+RWC.RF.F"}, {"WW+RF+WR", "W+RWC.RF.R"}, {"WW+RR+WF", "W+RWC.RR.F"},
};

/* Same-location cycles (every edge between one location) have names of
 * their own. */
static const struct { const char *key, *name; } coherence_families[] = {
    {"WW", "CoWW"}, {"RW", "CoRW1"}, {"W+RW", "CoRW2"}, {"W+WR", "CoWR"}, {"W+RR", "CoRR"}, {"WR", "CoWR0"},
};

void gen_family(const gen_cycle *c, strbuf *out, int *nprocs)
{
    procs p;
    cut_procs(c, 0, &p);
    strbuf key = {0};
    for (int k = 0; k < p.n; k++) {
        if (k)
            sb_addc(&key, '+');
        sb_add(&key, c->ev[p.first[k]].dir == GD_W ? "W" : "R");
        if (p.first[k] != p.last[k])
            sb_add(&key, c->ev[p.last[k]].dir == GD_W ? "W" : "R");
    }
    bool allsame = true;
    for (int i = 0; i < c->n; i++)
        allsame &= gen_same_loc(&c->e[i]);
    const char *name = key.s;
    if (allsame)
        for (size_t i = 0; i < sizeof coherence_families / sizeof *coherence_families; i++)
            if (!strcmp(key.s, coherence_families[i].key))
                name = coherence_families[i].name;
    if (name == key.s)
        for (size_t i = 0; i < sizeof families / sizeof *families; i++)
            if (!strcmp(key.s, families[i].key))
                name = families[i].name;
    sb_add(out, name);
    sb_free(&key);
    if (nprocs)
        *nprocs = p.n;
}

/* --- the suffixes (diy7's Namer) --- */

static void lower_into(strbuf *out, const char *s)
{
    for (; *s; s++)
        sb_addc(out, (char)(*s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s));
}

/* Edge E's part of the name; NO_DIR drops the target direction, which
 * is only written where two program-order edges meet. */
static void one_name(const gen_arch *a, const gen_edge *e, bool no_dir, strbuf *out)
{
    static const char *const dps[] = {"Addr", "Data", "Ctrl"};
    switch (e->kind) {
    case GK_PO: sb_add(out, e->diff ? "po" : "pos"); break;
    case GK_FENCED:
        if (e->afence) {
            strbuf b = {0};
            gen_rmw_base(e, false, &b);
            lower_into(out, b.s);
            sb_free(&b);
        } else
            lower_into(out, a->fences[e->fence]);
        if (!e->diff)
            sb_addc(out, 's');
        break;
    case GK_DP: lower_into(out, dps[e->dp]); if (!e->diff) sb_addc(out, 's'); break;
    case GK_RF: sb_add(out, "rfi"); break;
    case GK_WS: sb_add(out, "coi"); break;
    case GK_FR: sb_add(out, "fri"); break;
    case GK_RMW:
        /* "rmw" as diy7 names its exchange, then C's operation */
        sb_add(out, "rmw");
        if (e->op != GEN_OP_XCHG)
            lower_into(out, gen_op_names[e->op]);
        if (e->unused)
            sb_add(out, "ig");
        break;
    }
    if (!no_dir)
        sb_add(out, gen_dir_tgt(e) == GD_W ? "W" : "R");
    if (e->a1 >= 0 || e->a2 >= 0) {
        lower_into(out, e->a1 >= 0 ? a->atoms[e->a1] : a->plain);
        lower_into(out, e->a2 >= 0 ? a->atoms[e->a2] : a->plain);
    }
}

static bool ambiguous_target(const gen_edge *e)
{
    return e->kind == GK_PO || e->kind == GK_FENCED || e->kind == GK_DP;
}

static bool ambiguous_source(const gen_edge *e)
{
    return e->kind == GK_PO || e->kind == GK_FENCED;
}

/* The annotations of threads that are a single event between two
 * communications (diy7's isolated_writes): empty when all are plain. */
static void isolated_atoms(const gen_cycle *c, strbuf *out)
{
    const gen_arch *a = c->arch;
    int n = c->n;
    const char *parts[GEN_MAX_EDGES + 1];
    int np = 0;
    /* a single-event first thread: between the last edge and the first */
    if (gen_is_ext(&c->e[0]) && gen_is_ext(&c->e[n - 1])) {
        if (c->e[0].a1 >= 0 && c->e[n - 1].a2 >= 0)
            parts[np++] = a->atoms[c->e[0].a1];
        else if (c->e[0].a1 < 0 && c->e[n - 1].a2 < 0)
            parts[np++] = NULL;
    }
    for (int i = 0; i + 1 < n; i++) {
        const gen_edge *x = &c->e[i], *y = &c->e[i + 1];
        if (!gen_is_ext(x) || !gen_is_ext(y))
            continue;
        if (x->a2 >= 0 && y->a1 >= 0)
            parts[np++] = a->atoms[x->a2];
        else if (x->a2 < 0 && y->a1 < 0)
            parts[np++] = NULL;
    }
    bool all_plain = true;
    for (int i = 0; i < np; i++)
        all_plain &= parts[i] == NULL;
    if (all_plain)
        return;
    for (int i = 0; i < np; i++)
        sb_add(out, parts[i] ? parts[i] : a->plain);
}

void gen_test_name(const gen_cycle *c, strbuf *out)
{
    const gen_arch *a = c->arch;
    gen_family(c, out, NULL);
    /* one group per run of internal edges, the empty ones dropped */
    strbuf groups[GEN_MAX_EDGES];
    int ng = 0;
    for (int i = 0; i < c->n;) {
        if (gen_is_ext(&c->e[i])) {
            i++;
            continue;
        }
        strbuf g = {0};
        int j = i;
        for (; j < c->n && !gen_is_ext(&c->e[j]); j++) {
            bool last = j + 1 >= c->n || gen_is_ext(&c->e[j + 1]);
            bool no_dir = last || !(ambiguous_target(&c->e[j]) && ambiguous_source(&c->e[j + 1]));
            if (j > i)
                sb_addc(&g, '-');
            one_name(a, &c->e[j], no_dir, &g);
        }
        groups[ng++] = g;
        i = j;
    }
    strbuf iso = {0};
    isolated_atoms(c, &iso);
    bool all_same = ng > 0;
    for (int k = 1; k < ng; k++)
        all_same &= !strcmp(groups[k].s, groups[0].s);
    if (all_same && !strcmp(groups[0].s, "po"))
        ;
    else if (all_same && ng == 1 && !strcmp(groups[0].s, "pos"))
        ;
    else if (all_same && ng >= 2)
        sb_printf(out, "+%ss", groups[0].s);
    else
        for (int k = 0; k < ng; k++)
            sb_printf(out, "+%s", groups[k].s);
    if (iso.len)
        sb_printf(out, "+%s", iso.s);
    for (int k = 0; k < ng; k++)
        sb_free(&groups[k]);
    sb_free(&iso);
}
