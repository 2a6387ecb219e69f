/* Locations, values and threads of a resolved cycle, and the terms of
 * its final condition, as diy7 assigns them.
 *
 * A location is a maximal run of events joined by same-location edges;
 * a new one starts at every edge between different locations.  Along a
 * location's run the writes take the values 1, 2, ... in cycle order,
 * which is their coherence order in the witness, and each read takes the
 * value of the latest write before it in the run (0 when none): that is
 * what the cycle's rf and fr edges say it reads. */
#include <stdio.h>
#include <string.h>
#include "gen/internal.h"

void gen_loc_name(int loc, char *buf, size_t size)
{
    if (loc < 3)
        snprintf(buf, size, "%c", "xyz"[loc]);
    else if (loc < 26)
        snprintf(buf, size, "%c", 'a' + (loc - 3));
    else
        snprintf(buf, size, "x%02d", loc - 26);
}

#define PREV(i) (((i) + n - 1) % n)
#define NEXT(i) (((i) + 1) % n)

static bool set_locations(gen_cycle *c, diag *d)
{
    int n = c->n;
    /* diy7 starts naming at the first same-location edge after the last
     * location change before the last external edge before event 0 */
    int m1 = -1;
    for (int k = 0; k < n && m1 < 0; k++) {
        int i = (n - k) % n;
        if (gen_is_ext(&c->e[i]))
            m1 = i;
    }
    int m2 = -1;
    if (m1 >= 0)
        for (int k = 0; k < n && m2 < 0; k++) {
            int i = (m1 - k + n) % n;
            if (!gen_same_loc(&c->e[i]))
                m2 = i;
        }
    if (m2 < 0) {
        for (int i = 0; i < n; i++)
            c->ev[i].loc = 0;
        c->nlocs = 1;
        return true;
    }
    int start = -1;
    for (int k = 0; k < n && start < 0; k++)
        if (gen_same_loc(&c->e[(m2 + k) % n]))
            start = (m2 + k) % n;
    if (start < 0)
        return diag_error(d, NULL, 0, 0, "every edge changes location: a location needs a same-location "
                          "edge (a communication, Pos, Fences or a same-location dependency)");
    int next = 0;
    for (int k = 0; k < n; k++) {
        int i = (start + k) % n;
        c->ev[i].loc = gen_same_loc(&c->e[PREV(i)]) ? c->ev[PREV(i)].loc : next++;
    }
    if (c->ev[PREV(start)].loc == c->ev[start].loc)
        return gen_edge_error(d, c, PREV(start), "only one edge changes location: the cycle "
                              "comes back to the location it leaves");
    c->nlocs = next;
    return true;
}

static bool is_com_rmw(const gen_edge *e)
{
    return gen_is_com(e) || e->kind == GK_RMW;
}

/* Values along one location's run of N events from FIRST. */
static void set_run_values(gen_cycle *c, int first, int len)
{
    int n = c->n, count = 0, cell = 0;
    for (int k = 0; k < len; k++) {
        gen_event *ev = &c->ev[(first + k) % n];
        if (ev->dir == GD_W)
            ev->v = cell = ++count;
        else
            ev->v = cell;
    }
}

static bool set_values(gen_cycle *c, diag *d)
{
    int n = c->n;
    int first = -1;
    for (int i = 0; i < n && first < 0; i++)
        if (c->ev[PREV(i)].loc != c->ev[i].loc && c->ev[NEXT(i)].loc == c->ev[i].loc)
            first = i;
    if (first < 0 && c->nlocs == 1) {
        /* one location: start on a communication (a read if possible) */
        for (int pass = 0; pass < 2 && first < 0; pass++)
            for (int i = 0; i < n && first < 0; i++)
                if (!is_com_rmw(&c->e[PREV(i)]) && is_com_rmw(&c->e[i]) && (pass || c->ev[i].dir == GD_R))
                    first = i;
        if (first < 0)
            return diag_error(d, NULL, 0, 0, "cannot give values to the writes of this cycle");
        set_run_values(c, first, n);
        return true;
    }
    if (first < 0)
        return diag_error(d, NULL, 0, 0, "cannot give values to the writes of this cycle");
    for (int k = 0; k < n;) {
        int i = (first + k) % n, len = 1;
        while (k + len < n && c->ev[(i + len) % n].loc == c->ev[i].loc)
            len++;
        set_run_values(c, i, len);
        k += len;
    }
    return true;
}

/* diy7 refuses a thread whose last event comes "before" its first one on
 * the same location, comparing the two event records field by field:
 * value, then direction (a write before a read), annotation, RMW flag and
 * position.  A thread that reads 1 and later writes 1 to the same
 * location is refused that way. */
static bool event_before(const gen_event *x, const gen_event *y)
{
    if (x->v != y->v)
        return x->v < y->v;
    if (x->dir != y->dir)
        return x->dir == GD_W;
    if (x->atom != y->atom)
        return x->atom < y->atom;       /* none (-1) first, then by atom */
    if (x->rmw != y->rmw)
        return !x->rmw;
    return x->idx < y->idx;
}

/* Threads from event 0, which must follow an external edge. */
static bool set_threads(gen_cycle *c, diag *d)
{
    int n = c->n, p = 0;
    c->proc_start[0] = 0;
    for (int i = 0; i < n; i++) {
        c->ev[i].proc = p;
        if (gen_is_ext(&c->e[i]))
            c->proc_start[++p] = i + 1;
    }
    c->nprocs = p;
    for (int q = 0; q < p; q++) {
        const gen_event *f = &c->ev[c->proc_start[q]], *l = &c->ev[c->proc_start[q + 1] - 1];
        if (c->proc_start[q + 1] - 1 > c->proc_start[q] && f->loc == l->loc && event_before(l, f))
            return diag_error(d, NULL, 0, 0, "thread %d's program order contradicts the cycle's "
                              "communications on one location", q);
    }
    return true;
}

/* Where diy7 starts its threads in a cycle it keeps as given. */
static int thread_start(const gen_cycle *c)
{
    int n = c->n;
    if (gen_is_ext(&c->e[n - 1]))
        return 0;
    int m = -1;
    for (int i = 0; i < n && m < 0; i++)
        if (gen_is_ext(&c->e[i]))
            m = i;
    for (int k = 1; k < n; k++)
        if (!gen_is_ext(&c->e[(m + k) % n]))
            return (m + k) % n;
    return m;
}

bool gen_place(gen_cycle *c, diag *d)
{
    for (int i = 0; i < c->n; i++)
        c->ev[i].idx = i;
    if (!set_locations(c, d) || !set_values(c, d))
        return false;
    gen_rotate(c, thread_start(c));
    return set_threads(c, d);
}

/* Is location LOC written by some event? */
static bool gen_loc_written(const gen_cycle *c, int loc)
{
    for (int i = 0; i < c->n; i++)
        if (c->ev[i].loc == loc && c->ev[i].dir == GD_W)
            return true;
    return false;
}

/* diy7 leaves out of the condition a read both of whose edges are
 * program order to other locations: nothing observes it directly. */
static bool valid_edge(const gen_edge *e)
{
    if (gen_is_com(e))
        return true;
    if (e->kind == GK_RMW)
        return false;
    return gen_same_loc(e);
}

bool gen_show_read(const gen_cycle *c, int i)
{
    int n = c->n;
    if (!c->arch->optcond)
        return true;
    if (!gen_loc_written(c, c->ev[i].loc))
        return false;
    return valid_edge(&c->e[PREV(i)]) || valid_edge(&c->e[i]);
}

void gen_locs_by_name(const gen_cycle *c, int *order, char (*names)[8])
{
    for (int l = 0; l < c->nlocs; l++) {
        order[l] = l;
        gen_loc_name(l, names[l], 8);
    }
    for (int i = 1; i < c->nlocs; i++)
        for (int j = i; j > 0 && strcmp(names[order[j - 1]], names[order[j]]) > 0; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
}

bool gen_memory_finals(const gen_cycle *c, gen_final *out, int *nout, diag *d)
{
    int order[GEN_MAX_EDGES];
    char names[GEN_MAX_EDGES][8];
    gen_locs_by_name(c, order, names);
    *nout = 0;
    for (int k = 0; k < c->nlocs; k++) {
        int loc = order[k], writes = 0, last = 0;
        bool annotated = false;
        for (int i = 0; i < c->n; i++) {
            if (c->ev[i].loc != loc)
                continue;
            annotated |= c->ev[i].atom >= 0;
            if (c->ev[i].dir == GD_W) {
                writes++;
                if (c->ev[i].v > last)
                    last = c->ev[i].v;
            }
        }
        if (writes >= 3)
            return diag_error(d, NULL, 0, 0, "location %s is written %d times: telling the coherence "
                              "order apart would need observer threads", names[loc], writes);
        if (writes == 2 || (writes == 1 && annotated && c->arch->final_single_atomic)) {
            gen_final *f = &out[(*nout)++];
            memset(f, 0, sizeof *f);
            f->proc = -1;
            f->loc = loc;
            f->v = last;
        }
    }
    return true;
}

void gen_prefetch_info(const gen_cycle *c, strbuf *out)
{
    bool first = true;
    for (int p = 0; p < c->nprocs; p++) {
        int s = c->proc_start[p], e = c->proc_start[p + 1] - 1;
        if (e <= s || c->ev[s].loc == c->ev[e].loc)
            continue;
        char l1[8], l2[8];
        gen_loc_name(c->ev[s].loc, l1, sizeof l1);
        gen_loc_name(c->ev[e].loc, l2, sizeof l2);
        sb_printf(out, "%s%d:%s=F,%d:%s=%s", first ? "" : ",", p, l1, p, l2, c->ev[e].dir == GD_W ? "W" : "T");
        first = false;
    }
}

void gen_com_info(const gen_cycle *c, strbuf *out)
{
    for (int p = 0; p < c->nprocs; p++) {
        const gen_edge *e = &c->e[c->proc_start[p + 1] - 1];
        sb_printf(out, "%s%s", p ? " " : "", e->kind == GK_FR ? "Fr" : e->kind == GK_RF ? "Rf" : "Co");
    }
}

void gen_print_condition(const gen_final *f, int n, strbuf *out)
{
    for (int i = 0; i < n; i++) {
        if (i)
            sb_add(out, " /\\ ");
        if (f[i].proc < 0) {
            char l[8];
            gen_loc_name(f[i].loc, l, sizeof l);
            sb_printf(out, "[%s]=%d", l, f[i].v);
        } else
            sb_printf(out, "%d:%s=%d", f[i].proc, f[i].reg, f[i].v);
    }
}
