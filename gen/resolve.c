/* From edge names to a resolved cycle: every event gets a direction, an
 * annotation and its RMW flag, the way diy7 resolves them.
 *
 * Two passes, as in diy7.  The edge pass walks the cycle once, copying an
 * unknown direction ('*') or a missing annotation from each edge to the
 * next and back, then reconciles the first edge with what the last one
 * gave it.  The event pass then checks that each event's two edges agree
 * on its direction and annotation; disagreement is an error that names
 * both edges, since that is where the sequence stops being a cycle. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "gen/internal.h"

bool gen_edge_error(diag *d, const gen_cycle *c, int k, const char *fmt, ...)
{
    char msg[DIAG_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->spelling[k][0])
        return diag_error(d, NULL, 0, 0, "edge %d '%s': %s", c->orig[k] + 1, c->spelling[k], msg);
    strbuf b = {0};
    gen_edge_name(c->arch, &c->e[k], &b);
    diag_error(d, NULL, 0, 0, "edge %d '%s': %s", c->orig[k] + 1, b.s, msg);
    sb_free(&b);
    return false;
}

/* "edge N 'NAME'" for messages that name a second edge. */
static void edge_ref(const gen_cycle *c, int k, char *buf, size_t size)
{
    snprintf(buf, size, "edge %d '%s'", c->orig[k] + 1, c->spelling[k]);
}

static int merge_atoms(int x, int y)
{
    return x == y ? x : -2;    /* every arch merges equal annotations only */
}

/* diy7's resolve_pair: the target of E1 is the source of E2. */
static void resolve_pair(gen_edge *e1, gen_edge *e2)
{
    int d1 = gen_dir_tgt(e1), d2 = gen_dir_src(e2);
    if (d1 == GD_IRR && d2 != GD_IRR)
        gen_set_tgt(e1, d2);
    else if (d1 != GD_IRR && d2 == GD_IRR)
        gen_set_src(e2, d1);
    int a1 = e1->a2, a2 = e2->a1;
    if (a1 < 0 && a2 >= 0)
        e1->a2 = a2;
    else if (a1 >= 0 && a2 < 0)
        e2->a1 = a1;
    else if (a1 >= 0 && a2 >= 0 && merge_atoms(a1, a2) >= 0)
        e1->a2 = e2->a1 = merge_atoms(a1, a2);
}

static int merge_dir(int x, int y)
{
    return x == GD_IRR ? y : x;
}

/* diy7's merge_pair: two resolutions of the first edge, combined. */
static bool merge_first(gen_edge *into, const gen_edge *other)
{
    gen_set_src(into, merge_dir(gen_dir_src(into), gen_dir_src(other)));
    gen_set_tgt(into, merge_dir(gen_dir_tgt(into), gen_dir_tgt(other)));
    if (into->a1 < 0)
        into->a1 = other->a1;
    else if (other->a1 >= 0 && merge_atoms(into->a1, other->a1) < 0)
        return false;
    if (into->a2 < 0)
        into->a2 = other->a2;
    else if (other->a2 >= 0 && merge_atoms(into->a2, other->a2) < 0)
        return false;
    return true;
}

static const char *dir_word(int d)
{
    return d == GD_W ? "a write" : "a read";
}

/* Resolve directions and annotations across neighbouring edges and set
 * each event's direction, annotation and RMW flag (diy7's resolution). */
static bool gen_resolve(gen_cycle *c, diag *d)
{
    int n = c->n;
    const gen_arch *a = c->arch;
    /* edge pass */
    if (n >= 2) {
        gen_edge orig0 = c->e[0];
        for (int i = 0; i + 1 < n; i++)
            resolve_pair(&c->e[i], &c->e[i + 1]);
        gen_edge first = orig0;
        resolve_pair(&c->e[n - 1], &first);
        if (!merge_first(&c->e[0], &first))
            return gen_edge_error(d, c, 0, "its annotations cannot be merged with those of edge %d", n);
    }
    /* event pass: annotations shared by each edge and the next */
    for (int i = 0; i < n; i++) {
        gen_edge *p = &c->e[(i + n - 1) % n], *m = &c->e[i];
        int x = p->a2, y = m->a1;
        int merged = x < 0 ? y : y < 0 ? x : merge_atoms(x, y);
        if (merged == -2 && x >= 0 && y >= 0) {
            char prev[80];
            edge_ref(c, (i + n - 1) % n, prev, sizeof prev);
            return gen_edge_error(d, c, i, "its annotation %s contradicts %s of %s, the edge before it",
                                  a->atoms[y], a->atoms[x], prev);
        }
        p->a2 = m->a1 = merged;
    }
    /* event pass: directions */
    for (int i = 0; i < n; i++) {
        gen_edge *p = &c->e[(i + n - 1) % n], *m = &c->e[i];
        int prev_d = gen_dir_tgt(p), my_d = gen_dir_src(m);
        int dir;
        if (prev_d == GD_IRR && my_d == GD_IRR)
            return gen_edge_error(d, c, i,
                                  "the direction of its source event is unknown: it and the edge before it "
                                  "both leave it open ('*')");
        if (prev_d == GD_IRR)
            dir = my_d;
        else if (my_d == GD_IRR || my_d == prev_d)
            dir = prev_d;
        else {
            char next[80];
            edge_ref(c, i, next, sizeof next);
            return gen_edge_error(d, c, (i + n - 1) % n, "its target is %s, but %s starts from %s: "
                                  "the edges do not chain", dir_word(prev_d), next, dir_word(my_d));
        }
        c->ev[i].dir = dir;
        c->ev[i].atom = m->a1;
        c->ev[i].rmw = dir == GD_R ? m->kind == GK_RMW : p->kind == GK_RMW;
    }
    /* every edge now carries its events' directions */
    for (int i = 0; i < n; i++) {
        gen_set_src(&c->e[i], c->ev[i].dir);
        gen_set_tgt(&c->e[i], c->ev[(i + 1) % n].dir);
    }
    for (int i = 0; i < n; i++)
        if (!gen_atom_applies(a, c->ev[i].atom, c->ev[i].dir))
            return gen_edge_error(d, c, i, "annotation %s does not apply to %s on %s",
                                  a->atoms[c->ev[i].atom], dir_word(c->ev[i].dir), a->name);
    return true;
}

void gen_rotate(gen_cycle *c, int k)
{
    gen_cycle r = *c;
    for (int i = 0; i < c->n; i++) {
        int j = (i + k) % c->n;
        r.e[i] = c->e[j];
        r.ev[i] = c->ev[j];
        r.orig[i] = c->orig[j];
        memcpy(r.spelling[i], c->spelling[j], sizeof r.spelling[i]);
    }
    *c = r;
}

bool gen_cycle_from_edges(const gen_arch *a, const gen_edge *edges, const char *const *spellings, int n,
                          gen_cycle *c, diag *d)
{
    memset(c, 0, sizeof *c);
    c->arch = a;
    if (n < 1)
        return diag_error(d, NULL, 0, 0, "no edges: a cycle needs at least two");
    if (n > GEN_MAX_EDGES)
        return diag_error(d, NULL, 0, 0, "%d edges: at most %d are supported", n, GEN_MAX_EDGES);
    c->n = n;
    for (int i = 0; i < n; i++) {
        c->e[i] = edges[i];
        c->orig[i] = i;
        strbuf b = {0};
        gen_edge_name(a, &edges[i], &b);
        snprintf(c->spelling[i], sizeof c->spelling[i], "%s", spellings ? spellings[i] : b.s);
        sb_free(&b);
    }
    bool ext = false;
    for (int i = 0; i < n; i++)
        ext |= gen_is_ext(&c->e[i]);
    if (!ext)
        return diag_error(d, NULL, 0, 0, "not a cycle between threads: no external communication edge "
                          "(Rfe, Fre or Coe) among the %d edges", n);
    return gen_resolve(c, d);
}

bool gen_parse_cycle(const gen_arch *a, const char *const *names, int n, gen_cycle *c, diag *d)
{
    gen_edge edges[GEN_MAX_EDGES];
    gen_cycle tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.arch = a;
    if (n > GEN_MAX_EDGES)
        return diag_error(d, NULL, 0, 0, "%d edges: at most %d are supported", n, GEN_MAX_EDGES);
    for (int i = 0; i < n; i++) {
        tmp.orig[i] = i;
        snprintf(tmp.spelling[i], sizeof tmp.spelling[i], "%s", names[i]);
        int r = gen_edge_parse(a, names[i], &edges[i]);
        if (r == 0)
            return gen_edge_error(d, &tmp, i, "unknown relaxation");
        if (r < 0)
            return gen_edge_error(d, &tmp, i, "%s cannot express this edge", a->name);
    }
    return gen_cycle_from_edges(a, edges, names, n, c, d);
}
