/* Every cycle up to a size from relaxations and safe edges, as diy7
 * enumerates them.
 *
 * A relaxation (or safe edge) is one edge or a bracketed sequence of
 * edges; '*' directions in it are expanded to both.  A cycle is a
 * sequence of at most SIZE of them (SIZE counts relaxations, as in
 * diy7, not edges) in which each one's last edge may precede the next
 * one's first edge, the last wrapping to the first, under the mode's
 * rule for neighbouring edges.  Without --mix a cycle repeats one
 * relaxation; with it, it holds between min and max distinct ones.
 * Cycles with fewer than two location changes, a single external edge
 * or none are dropped (diy7's default and sc modes), as are those with
 * too many threads or too many events in a thread.
 *
 * Each sequence is built once per rotation class: relaxations are
 * numbered before safe edges and only the least rotation of a sequence
 * of numbers is kept.  Different sequences can still make the same test
 * (a relaxation that is itself a sequence); the normal form of the
 * resolved cycle decides, as diy7's signatures do. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen/internal.h"
#include "util/strcount.h"

enum { RELAX_MAX_EDGES = 8 };

typedef struct relax {
    int n;
    gen_edge e[RELAX_MAX_EDGES];
    char name[96];
    bool is_relax;
} relax;

typedef struct relax_set {
    relax *r;
    int n, cap;
} relax_set;

static int cmp_relax(const relax *x, const relax *y)
{
    for (int i = 0; i < x->n && i < y->n; i++) {
        int c = gen_edge_poly_cmp(&x->e[i], &y->e[i]);
        if (c)
            return c;
    }
    return x->n < y->n ? -1 : x->n > y->n;
}

static bool set_has(const relax_set *s, const relax *r)
{
    for (int i = 0; i < s->n; i++)
        if (!cmp_relax(&s->r[i], r))
            return true;
    return false;
}

static void set_add(relax_set *s, const relax *r)
{
    if (set_has(s, r))
        return;
    VEC_PUSH(s->r, s->n, s->cap, *r);
}

/* In cmp_relax order, which is diy7's order of relaxations. */
static void set_sort(relax_set *s)
{
    for (int i = 0; i < s->n; i++)
        for (int j = i + 1; j < s->n; j++)
            if (cmp_relax(&s->r[j], &s->r[i]) < 0) {
                relax t = s->r[i];
                s->r[i] = s->r[j];
                s->r[j] = t;
            }
}

/* Can the target of X be the source of Y (directions and annotations)? */
static bool can_precede(const gen_edge *x, const gen_edge *y)
{
    int d1 = gen_dir_tgt(x), d2 = gen_dir_src(y);
    if (d1 == GD_IRR && d2 == GD_IRR)
        return false;
    if (d1 != GD_IRR && d2 != GD_IRR && d1 != d2)
        return false;
    return x->a2 < 0 || y->a1 < 0 || x->a2 == y->a1;
}

/* Expand '*' directions of R's edges, keeping the chain consistent. */
static void expand(const gen_arch *a, relax r, int k, relax_set *out)
{
    if (k == r.n) {
        for (int i = 0; i + 1 < r.n; i++)
            if (!can_precede(&r.e[i], &r.e[i + 1]))
                return;
        strbuf b = {0};
        if (r.n > 1)
            sb_addc(&b, '[');
        for (int i = 0; i < r.n; i++) {
            if (i)
                sb_addc(&b, ',');
            gen_edge_name(a, &r.e[i], &b);
        }
        if (r.n > 1)
            sb_addc(&b, ']');
        snprintf(r.name, sizeof r.name, "%s", b.s);
        sb_free(&b);
        set_add(out, &r);
        return;
    }
    gen_edge *e = &r.e[k];
    bool src_free = (e->kind == GK_PO || e->kind == GK_FENCED) && e->src == GD_IRR;
    bool tgt_free = (e->kind == GK_PO || e->kind == GK_FENCED || e->kind == GK_DP) && e->tgt == GD_IRR;
    for (int s = 0; s < (src_free ? 2 : 1); s++)
        for (int t = 0; t < (tgt_free ? 2 : 1); t++) {
            relax c = r;
            if (src_free)
                c.e[k].src = s ? GD_R : GD_W;
            if (tgt_free)
                c.e[k].tgt = t ? GD_R : GD_W;
            expand(a, c, k + 1, out);
        }
}

/* diy7's -varatom: each open annotation of R takes each of ATOMS in
 * turn (the target of one edge and the source of the next together);
 * annotations that cannot apply to their event are not tried. */
static void vary(const gen_arch *a, relax r, int k, const int *atoms, int natoms, relax_set *out)
{
    /* slot k: 0 is the first source, k in 1..n-1 the boundary before
     * edge k, n the last target */
    if (k > r.n) {
        expand(a, r, 0, out);
        return;
    }
    /* X86's exchange keeps its events plain; C's takes its order from
     * them (pairs that make no C order are refused when the test is made) */
    bool rmw = !a->c_rmw && ((k > 0 && r.e[k - 1].kind == GK_RMW) || (k < r.n && r.e[k].kind == GK_RMW));
    bool open_slot = !rmw && (k == 0 ? r.e[0].a1 < 0
                              : k == r.n ? r.e[r.n - 1].a2 < 0
                              : r.e[k - 1].a2 < 0 && r.e[k].a1 < 0);
    if (!open_slot) {
        vary(a, r, k + 1, atoms, natoms, out);
        return;
    }
    for (int i = 0; i < natoms; i++) {
        relax c = r;
        int dir = k < r.n ? gen_dir_src(&c.e[k]) : gen_dir_tgt(&c.e[r.n - 1]);
        if (!gen_atom_applies(a, atoms[i], dir))
            continue;
        if (k > 0)
            c.e[k - 1].a2 = atoms[i];
        if (k < r.n)
            c.e[k].a1 = atoms[i];
        vary(a, c, k + 1, atoms, natoms, out);
    }
}

/* Parse one list item ("PodWR" or "[Rfi,PodRR]") into OUT, expanded. */
static bool parse_item(const gen_arch *a, const char *item, const char *what, int pos, const int *atoms,
                       int natoms, relax_set *out, diag *d)
{
    relax r = {0};
    const char *s = item;
    size_t len = strlen(s);
    bool seq = len >= 2 && s[0] == '[' && s[len - 1] == ']';
    char *copy = xstrndup(seq ? s + 1 : s, seq ? len - 2 : len);
    char *save = NULL;
    for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        while (*w == ' ')
            w++;
        if (r.n == RELAX_MAX_EDGES) {
            free(copy);
            return diag_error(d, NULL, 0, 0, "%s %d '%s': more than %d edges in one sequence", what, pos,
                              item, RELAX_MAX_EDGES);
        }
        int k = gen_edge_parse(a, w, &r.e[r.n]);
        if (k <= 0) {
            diag_error(d, NULL, 0, 0, "%s %d '%s': %s", what, pos, w,
                       k < 0 ? "this arch cannot express this edge" : "unknown relaxation");
            free(copy);
            return false;
        }
        r.n++;
    }
    free(copy);
    if (r.n == 0)
        return diag_error(d, NULL, 0, 0, "%s %d '%s': empty sequence", what, pos, item);
    if (natoms > 0)
        vary(a, r, 0, atoms, natoms, out);
    else
        expand(a, r, 0, out);
    return true;
}

/* --varatom's names as annotation numbers (-1: none, for "all"). */
static bool parse_varatom(const gen_arch *a, const gen_enum_opts *o, int *atoms, int *n, diag *d)
{
    *n = 0;
    if (o->nvaratom == 1 && !strcmp(o->varatom[0], "all")) {
        for (int i = -1; i < a->natoms; i++)
            atoms[(*n)++] = i;
        return true;
    }
    for (int i = 0; i < o->nvaratom; i++) {
        int found = -2;
        for (int k = 0; k < a->natoms; k++)
            if (!strcmp(o->varatom[i], a->atoms[k]))
                found = k;
        if (!strcmp(o->varatom[i], a->plain) || !strcmp(o->varatom[i], "P"))
            found = -1;
        if (a->as_a >= 0 && !strcmp(o->varatom[i], "A"))
            found = a->as_a;
        if (found == -2)
            return diag_error(d, NULL, 0, 0, "--varatom '%s': not an annotation of %s", o->varatom[i], a->name);
        if (*n < 16)
            atoms[(*n)++] = found;
    }
    return true;
}

typedef struct po_safe_set {
    int n;
    struct { bool diff; int src, tgt; } e[64];
} po_safe_set;

static bool po_safe(const po_safe_set *p, bool diff, int src, int tgt)
{
    for (int i = 0; i < p->n; i++)
        if (p->e[i].diff == diff && p->e[i].src == src && p->e[i].tgt == tgt)
            return true;
    return false;
}

static bool is_int(const gen_edge *e)
{
    return !gen_is_ext(e);
}

static bool po_diff(const gen_edge *e)
{
    return e->kind == GK_PO && e->diff;
}

static bool com_int(const gen_edge *e)
{
    return gen_is_com(e) && !e->ext;
}

/* diy7's choice functions: may E1 be followed by E2 in this mode? */
static bool choice(gen_mode mode, const po_safe_set *ps, const gen_edge *e1, const gen_edge *e2)
{
    if (e1->kind == GK_RMW || e2->kind == GK_RMW)
        return true;
    switch (mode) {
    case GEN_MODE_CRITICAL:
        if ((e1->kind == GK_WS || e1->kind == GK_FR) && e2->kind == GK_RF)
            return true;
        return is_int(e1) != is_int(e2);
    case GEN_MODE_SC: {
        bool diff12 = e1->diff || e2->diff;
        if ((e1->kind == GK_RF && !e1->ext && e2->kind == GK_DP) || (e1->kind == GK_DP && e2->kind == GK_RF && !e2->ext))
            return true;
        if (e1->kind == GK_DP && (e2->kind == GK_WS || e2->kind == GK_FR) && !e2->ext)
            return !po_safe(ps, e1->diff, gen_dir_src(e1), gen_dir_tgt(e2));
        if (e1->kind == GK_PO && e2->kind == GK_DP)
            return !po_safe(ps, e1->diff, gen_dir_src(e1), gen_dir_tgt(e1)) &&
                   !po_safe(ps, diff12, gen_dir_src(e1), gen_dir_tgt(e2));
        if (e1->kind == GK_DP && e2->kind == GK_PO)
            return !po_safe(ps, e2->diff, gen_dir_src(e2), gen_dir_tgt(e2)) &&
                   !po_safe(ps, diff12, gen_dir_src(e1), gen_dir_tgt(e2));
        if (e1->kind == GK_PO && e2->kind == GK_PO)
            return !po_safe(ps, diff12, gen_dir_src(e1), gen_dir_tgt(e2));
        if (e1->kind == GK_RF && !e1->ext && e2->kind == GK_PO)
            return po_safe(ps, e2->diff, gen_dir_src(e2), gen_dir_tgt(e2)) &&
                   !po_safe(ps, e2->diff, gen_dir_src(e1), gen_dir_tgt(e2));
        if (e1->kind == GK_PO && e2->kind == GK_RF && !e2->ext)
            return po_safe(ps, e1->diff, gen_dir_src(e1), gen_dir_tgt(e1)) &&
                   !po_safe(ps, e1->diff, gen_dir_src(e1), gen_dir_tgt(e2));
        return !(is_int(e1) && is_int(e2));
    }
    case GEN_MODE_DEFAULT:
        break;
    }
    if ((com_int(e1) && (e2->kind == GK_DP || po_diff(e2))) || ((e1->kind == GK_DP || po_diff(e1)) && com_int(e2)))
        return true;
    if ((e1->kind == GK_DP && e1->diff && po_diff(e2)) || (po_diff(e1) && e2->kind == GK_DP && e2->diff))
        return true;
    if ((e1->kind == GK_RF && !e1->ext && e2->kind == GK_PO && !e2->diff) ||
        (e1->kind == GK_PO && !e1->diff && e2->kind == GK_RF && !e2->ext))
        return true;
    return !(is_int(e1) && is_int(e2));
}

/* diy7's pair_ok plus can_precede, between the last edge of one item and
 * the first of the next. */
static bool compatible(gen_mode mode, const po_safe_set *ps, const gen_edge *x, const gen_edge *y)
{
    if (!can_precede(x, y))
        return false;
    if ((x->kind == GK_WS && y->kind == GK_WS) || (x->kind == GK_FR && y->kind == GK_WS) ||
        (x->kind == GK_RF && y->kind == GK_FR))
        return x->ext != y->ext;
    return choice(mode, ps, x, y);
}

typedef struct walk {
    const gen_enum_opts *o;
    const gen_arch *a;
    relax *items;       /* relaxations first, then safe edges */
    int nitems, nrelax;
    po_safe_set ps;
    int seq[64], len;
    gen_edge edges[GEN_MAX_EDGES];
    int nedges;
    strcount seen;      /* keys of the cycles made so far */
    strcount names;     /* names given so far, and how many times */
    pcre2_code *re;
    pcre2_match_data *md;
    gen_sink sink;
    void *ctx;
    bool stop;
    diag *d;
} walk;

/* Is seq[0..len-1] the least of its rotations? */
static bool least_rotation(const int *seq, int len)
{
    for (int k = 1; k < len; k++)
        for (int i = 0; i < len; i++) {
            int x = seq[i], y = seq[(i + k) % len];
            if (x < y)
                break;
            if (x > y)
                return false;
        }
    return true;
}

/* The canonical key of a normalised cycle: its least rotation under the
 * edge order, as names. */
static char *cycle_key(const gen_cycle *c)
{
    int best = 0;
    for (int k = 1; k < c->n; k++)
        for (int i = 0; i < c->n; i++) {
            int r = gen_edge_poly_cmp(&c->e[(k + i) % c->n], &c->e[(best + i) % c->n]);
            if (r < 0) {
                best = k;
                break;
            }
            if (r > 0)
                break;
        }
    strbuf b = {0};
    for (int i = 0; i < c->n; i++) {
        if (i)
            sb_addc(&b, ' ');
        gen_edge_name(c->arch, &c->e[(best + i) % c->n], &b);
    }
    return sb_take(&b);
}

/* diy7's dup_name: the second test of a name gets NAME001, and so on.
 * The name is only taken (COMMIT) once its test is built. */
static char *unique_name(walk *w, const char *name, bool commit)
{
    int n = (commit ? strcount_add(&w->names, name) : strcount_get(&w->names, name));
    return n ? xasprintf("%s%03d", name, n) : xstrdup(name);
}

/* A complete sequence: check it as diy7's last_check_call does, build
 * the test, and hand it over. */
static void finish(walk *w)
{
    const gen_enum_opts *o = w->o;
    const relax *first = &w->items[w->seq[0]], *last = &w->items[w->seq[w->len - 1]];
    if (!compatible(o->mode, &w->ps, &last->e[last->n - 1], &first->e[0]))
        return;
    if (!least_rotation(w->seq, w->len))
        return;
    /* the relaxations it holds */
    bool used[256] = {0};
    int distinct = 0;
    for (int i = 0; i < w->len; i++)
        if (w->items[w->seq[i]].is_relax && !used[w->seq[i]]) {
            used[w->seq[i]] = true;
            distinct++;
        }
    if (w->nrelax > 0) {
        if (!o->mix && distinct != 1)
            return;
        if (o->mix && (distinct < o->min_relax || distinct > o->max_relax))
            return;
    }
    int ext = 0, changes = 0;
    for (int i = 0; i < w->nedges; i++) {
        ext += gen_is_ext(&w->edges[i]);
        changes += !gen_same_loc(&w->edges[i]);
    }
    if (o->mode != GEN_MODE_CRITICAL && (ext <= 1 || changes < 2))
        return;
    if (ext == 0 || ext > o->nprocs || (o->eprocs && ext != o->nprocs))
        return;
    diag d = {0};
    gen_cycle c;
    if (!gen_cycle_from_edges(w->a, w->edges, NULL, w->nedges, &c, &d))
        return;
    /* at most max_ins events per thread */
    for (int s = gen_normal_start(&c), k = 0, run = 0; k < c.n; k++) {
        run++;
        if (gen_is_ext(&c.e[(s + k) % c.n])) {
            if (run > o->max_ins)
                return;
            run = 0;
        }
    }
    gen_cycle norm = c;
    gen_normalise(&norm);
    char *key = cycle_key(&norm);
    bool dup = strcount_add(&w->seen, key) > 0;
    free(key);
    if (dup)
        return;
    strbuf cyc = {0}, rel = {0}, saf = {0}, info = {0};
    for (int i = 0; i < w->nedges; i++) {
        if (i)
            sb_addc(&cyc, ' ');
        gen_edge_name(w->a, &w->edges[i], &cyc);
    }
    bool in_rel[256] = {0}, in_safe[256] = {0};
    for (int i = 0; i < w->len; i++) {
        int it = w->seq[i];
        bool *mark = w->items[it].is_relax ? in_rel : in_safe;
        if (!mark[it]) {
            mark[it] = true;
            strbuf *b = w->items[it].is_relax ? &rel : &saf;
            sb_printf(b, "%s%s", b->len ? " " : "", w->items[it].name);
        }
    }
    sb_printf(&info, "Cycle=%s\nRelax=%s\nSafe=%s\n", cyc.s, rel.s ? rel.s : "", saf.s ? saf.s : "");
    strbuf base = {0};
    gen_test_name(&norm, &base);
    char *name = unique_name(w, base.s, false);
    bool keep = !w->re || pcre2_match(w->re, (PCRE2_SPTR)name, strlen(name), 0, 0, w->md, NULL) >= 0;
    gen_one_opts opts = {.name = name};
    gen_test t;
    if (keep && gen_build(&c, &opts, info.s, &t, &d)) {
        free(unique_name(w, base.s, true));
        if (!w->sink(w->ctx, &t, rel.s ? rel.s : "", saf.s ? saf.s : ""))
            w->stop = true;
    }
    free(name);
    sb_free(&base);
    sb_free(&cyc);
    sb_free(&rel);
    sb_free(&saf);
    sb_free(&info);
}

/* The edges of the sequence so far have at most NPROCS external edges
 * and no thread longer than max_ins (not counting a thread that wraps). */
static bool prune(const walk *w)
{
    int ext = 0, run = 0;
    for (int i = 0; i < w->nedges; i++) {
        run++;
        if (gen_is_ext(&w->edges[i])) {
            ext++;
            run = 0;
        } else if (run >= w->o->max_ins && ext > 0)
            return false;
    }
    return ext <= w->o->nprocs;
}

static void extend(walk *w)
{
    if (w->stop)
        return;
    if (w->len > 0)
        finish(w);
    if (w->len == w->o->size || w->stop)
        return;
    for (int i = 0; i < w->nitems && !w->stop; i++) {
        const relax *r = &w->items[i];
        if (w->len == 0 && w->nrelax > 0 && !r->is_relax)
            continue;   /* the least rotation starts with a relaxation */
        if (w->len > 0 && i < w->seq[0])
            continue;   /* cannot be the least rotation */
        if (w->nedges + r->n > GEN_MAX_EDGES)
            continue;
        if (w->len > 0) {
            const relax *p = &w->items[w->seq[w->len - 1]];
            if (!compatible(w->o->mode, &w->ps, &p->e[p->n - 1], &r->e[0]))
                continue;
        }
        memcpy(&w->edges[w->nedges], r->e, (size_t)r->n * sizeof *r->e);
        w->nedges += r->n;
        w->seq[w->len++] = i;
        if (prune(w))
            extend(w);
        w->len--;
        w->nedges -= r->n;
    }
}

bool gen_enumerate(const gen_enum_opts *o, gen_sink sink, void *ctx, diag *d)
{
    const gen_arch *a = gen_arch_get(o->arch);
    if (o->size < 1)
        return diag_error(d, NULL, 0, 0, "--size must be at least 1");
    if (o->size > 64)
        return diag_error(d, NULL, 0, 0, "--size %d: at most 64", o->size);
    relax_set rs = {0}, ss = {0};
    int atoms[32], natoms = 0;
    if (!parse_varatom(a, o, atoms, &natoms, d))
        return false;
    for (int i = 0; i < o->nrelax; i++)
        if (!parse_item(a, o->relax[i], "relaxation", i + 1, atoms, natoms, &rs, d))
            goto fail;
    for (int i = 0; i < o->nsafe; i++)
        if (!parse_item(a, o->safe[i], "safe edge", i + 1, atoms, natoms, &ss, d))
            goto fail;
    if (rs.n + ss.n == 0) {
        diag_error(d, NULL, 0, 0, "nothing to build cycles from: give --relax or --safe edges");
        goto fail;
    }
    if (rs.n + ss.n > 250) {
        diag_error(d, NULL, 0, 0, "%d relaxations and safe edges: at most 250", rs.n + ss.n);
        goto fail;
    }
    walk w = {.o = o, .a = a, .sink = sink, .ctx = ctx, .d = d};
    w.items = xcalloc((size_t)(rs.n + ss.n), sizeof *w.items);
    /* sorted in diy7's order of relaxations, relaxations first */
    set_sort(&rs);
    set_sort(&ss);
    for (int i = 0; i < rs.n; i++) {
        w.items[w.nitems] = rs.r[i];
        w.items[w.nitems++].is_relax = true;
    }
    w.nrelax = w.nitems;
    for (int i = 0; i < ss.n; i++)
        if (!set_has(&rs, &ss.r[i])) {
            w.items[w.nitems] = ss.r[i];
            w.items[w.nitems++].is_relax = false;
        }
    for (int i = 0; i < ss.n && w.ps.n < 64; i++)
        if (ss.r[i].n == 1 && ss.r[i].e[0].kind == GK_PO) {
            w.ps.e[w.ps.n].diff = ss.r[i].e[0].diff;
            w.ps.e[w.ps.n].src = ss.r[i].e[0].src;
            w.ps.e[w.ps.n++].tgt = ss.r[i].e[0].tgt;
        }
    bool ok = true;
    if (o->filter) {
        int err;
        PCRE2_SIZE off;
        w.re = pcre2_compile((PCRE2_SPTR)o->filter, PCRE2_ZERO_TERMINATED, 0, &err, &off, NULL);
        if (!w.re) {
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(err, msg, sizeof msg);
            ok = diag_error(d, NULL, 0, 0, "--filter '%s': %s at offset %zu", o->filter, (char *)msg, (size_t)off);
        } else
            w.md = pcre2_match_data_create_from_pattern(w.re, NULL);
    }
    if (ok)
        extend(&w);
    if (w.md)
        pcre2_match_data_free(w.md);
    if (w.re)
        pcre2_code_free(w.re);
    strcount_free(&w.seen);
    strcount_free(&w.names);
    free(w.items);
    free(rs.r);
    free(ss.r);
    return ok;
fail:
    free(rs.r);
    free(ss.r);
    return false;
}
