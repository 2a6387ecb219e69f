/* The dot text of one execution (graph.h): one cluster per thread, the
 * base relations (po, rf, co, fr, rmw), the model's relations asked for,
 * and the racing pairs.  Transitive base relations are drawn reduced, as
 * herd draws them, so that a picture shows each fact once; a relation
 * asked for is drawn as the model computes it, every pair. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/cat/cat.h"
#include "model/cat/cat_rel.h"
#include "model/exec.h"
#include "model/graph.h"
#include "model/hb.h"
#include "model/model_impl.h"
#include "util/mem.h"

struct model_graph {
    const model *m;
    cat_run *run;
    char **show;
    int nshow;
    exec_rel *rels;         /* one per shown name, for the execution being drawn */
};

/* The edge kinds before the shown relations: their label and look.  Only
 * po takes part in the layout; the rest would pull threads out of line. */
enum { K_PO, K_RF, K_CO, K_FR, K_RMW, K_RACE, K_SHOW };
static const struct { const char *label, *attrs; } kinds[K_SHOW] = {
    [K_PO] = {"po", "color=black"},
    [K_RF] = {"rf", "color=red, fontcolor=red, constraint=false"},
    [K_CO] = {"co", "color=blue, fontcolor=blue, constraint=false"},
    [K_FR] = {"fr", "color=darkorange, fontcolor=darkorange, constraint=false"},
    [K_RMW] = {"rmw", "color=purple, fontcolor=purple, constraint=false"},
    [K_RACE] = {"race", "color=red, fontcolor=red, style=dashed, dir=none, penwidth=1.5, constraint=false"},
};
/* Colours of the shown relations, in the order asked for, then again. */
static const char *const palette[] = {"darkgreen", "magenta3", "deepskyblue4", "brown", "darkgoldenrod",
                                      "slateblue", "olivedrab", "deeppink4"};

model_graph *model_graph_new(const model *m, const char *const *show, int nshow, diag *d)
{
    const cat_model *cm = model_cat(m);
    if (!cat_model_check_relations(cm, show, nshow, d))
        return NULL;
    model_graph *g = xcalloc(1, sizeof *g);
    g->m = m;
    g->run = cat_run_new(cm);
    g->nshow = nshow;
    g->show = xcalloc((size_t)(nshow ? nshow : 1), sizeof *g->show);
    for (int k = 0; k < nshow; k++)
        g->show[k] = xstrdup(show[k]);
    g->rels = xcalloc((size_t)(nshow ? nshow : 1), sizeof *g->rels);
    return g;
}

void model_graph_free(model_graph *g)
{
    if (!g)
        return;
    cat_run_free(g->run);
    strv_free(g->show, g->nshow);
    free(g->rels);
    free(g);
}

/* S inside a dot string: quotes and backslashes escaped, newlines as \n. */
static void esc(strbuf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            sb_addc(b, '\\');
        if (*s == '\n')
            sb_add(b, "\\n");
        else
            sb_addc(b, *s);
    }
}

static const char *loc_name(const ir_test *t, int loc)
{
    return loc >= 0 && loc < t->nlocs ? t->locs[loc].name : "?";
}

/* herd's event names: a .. z, then aa, ab, ... */
static char *letters(int k)
{
    char tmp[16];
    int n = 0;
    for (k++; k > 0 && n < (int)sizeof tmp; k = (k - 1) / 26)
        tmp[n++] = (char)('a' + (k - 1) % 26);
    char *s = xcalloc((size_t)n + 1, 1);
    for (int i = 0; i < n; i++)
        s[i] = tmp[n - 1 - i];
    return s;
}

static void add_val(strbuf *b, const ir_test *t, ir_val v)
{
    char buf[128];
    ir_format_val(t, v, buf, sizeof buf);
    sb_add(b, buf);
}

/* `a: W[rlx] x=1`, `W x=0` for an initial write, `c: RMW[sc] x=0->1`,
 * `d: F[acq]`, `e: MFENCE`; x86's ordinary accesses have no brackets. */
static void event_label(strbuf *b, const exec *x, int i, const char *id)
{
    const exec_event *e = &x->ev[i];
    const ir_test *t = x->test;
    if (!(e->kind & EV_IW))
        sb_printf(b, "%s: ", id);
    if (e->kind & EV_F) {
        switch (e->fence) {
        case IR_FENCE_MFENCE: sb_add(b, "MFENCE"); break;
        case IR_FENCE_LFENCE: sb_add(b, "LFENCE"); break;
        case IR_FENCE_SFENCE: sb_add(b, "SFENCE"); break;
        case IR_FENCE_C: sb_printf(b, "F[%s]", ir_mode_name(e->mode)); break;
        default: sb_printf(b, "F[%s]", ir_fence_name(e->fence)); break;
        }
        return;
    }
    bool r = e->kind & EV_R, w = e->kind & EV_W;
    sb_add(b, r && w ? "RMW" : r ? "R" : "W");
    if (e->mode != IR_MODE_NONE && e->mode != IR_X86_PLAIN)
        sb_printf(b, "[%s]", ir_mode_name(e->mode));
    sb_printf(b, " %s=", loc_name(t, e->loc));
    add_val(b, t, r ? e->rval : e->wval);
    if (r && w) {
        sb_add(b, "->");
        add_val(b, t, e->wval);
    }
}

typedef struct edge { int a, b, kind; } edge;

typedef struct drawing {
    edge *e;
    size_t n, cap;
    exec_set used;          /* events some edge touches */
} drawing;

static void add_edge(drawing *g, int a, int b, int kind)
{
    edge e = {a, b, kind};
    VEC_PUSH(g->e, g->n, g->cap, e);
    es_add(&g->used, a);
    es_add(&g->used, b);
}

static void add_rel(drawing *g, const exec_rel *r, int n, int kind)
{
    for (int i = 0; i < n; i++)
        for (exec_set s = r->row[i]; !es_empty(s);)
            add_edge(g, i, es_pop(&s), kind);
}

/* R without the pairs that R;S explains. */
static void reduce(exec_rel *out, const exec_rel *r, const exec_rel *s, int n)
{
    exec_rel rs;
    cr_seq(&rs, r, s, n);
    cr_diff(out, r, &rs, n);
}

static void base_edges(drawing *g, const exec *x)
{
    int n = x->n;
    /* po between neighbours: a thread's events are laid out in program
     * order; the two halves of one instruction are not in po (the rmw
     * edge joins them) */
    for (int i = 0; i + 1 < n; i++)
        if (x->ev[i].thread >= 0 && x->ev[i + 1].thread == x->ev[i].thread && er_has(&x->po, i, i + 1))
            add_edge(g, i, i + 1, K_PO);
    add_rel(g, &x->rf, n, K_RF);
    exec_rel co, fr, rfinv;
    er_clear(&co, n);           /* (gcc cannot see reduce write every row) */
    reduce(&co, &x->co, &x->co, n);
    add_rel(g, &co, n, K_CO);
    cr_inv(&rfinv, &x->rf, n);
    cr_seq(&fr, &rfinv, &x->co, n);
    for (int i = 0; i < n; i++)
        es_del(&fr.row[i], i);
    exec_rel frr;
    reduce(&frr, &fr, &x->co, n);
    add_rel(g, &frr, n, K_FR);
    add_rel(g, &x->rmw, n, K_RMW);
}

static void race_edges(drawing *g, const exec *x)
{
    exec_rel sw, hb;
    hb_compute(x, &sw, &hb);
    static _Thread_local race_pair pairs[EXEC_MAX * (EXEC_MAX - 1) / 2];
    int np = hb_races(x, &hb, pairs, (int)(sizeof pairs / sizeof pairs[0]));
    for (int k = 0; k < np; k++)
        add_edge(g, pairs[k].a, pairs[k].b, K_RACE);
}

static void edge_attrs(strbuf *b, const model_graph *mg, int kind)
{
    if (kind < K_SHOW) {
        sb_printf(b, "label=\"%s\", %s", kinds[kind].label, kinds[kind].attrs);
        return;
    }
    int k = kind - K_SHOW;
    const char *c = palette[k % (int)(sizeof palette / sizeof palette[0])];
    sb_add(b, "label=\"");
    esc(b, mg->show[k]);
    sb_printf(b, "\", color=%s, fontcolor=%s, constraint=false", c, c);
}

static void node_ref(strbuf *b, char **ids, int i)
{
    sb_addc(b, '"');
    esc(b, ids[i]);
    sb_addc(b, '"');
}

/* An edge for the layout only. */
static void invisible(strbuf *b, char **ids, int i, int j)
{
    sb_add(b, "  ");
    node_ref(b, ids, i);
    sb_add(b, " -> ");
    node_ref(b, ids, j);
    sb_add(b, " [style=invis];\n");
}

static void node(strbuf *b, const exec *x, char **ids, int i, const char *indent)
{
    strbuf label = {0};
    event_label(&label, x, i, ids[i]);
    sb_add(b, indent);
    node_ref(b, ids, i);
    sb_add(b, " [label=\"");
    esc(b, label.s ? label.s : "");
    sb_add(b, "\"];\n");
    sb_free(&label);
}

static void title(strbuf *b, const model_graph *g, const exec *x, const model_exec_info *info)
{
    const ir_test *t = x->test;
    int nobs = 0;
    ir_obs *obs = ir_observables(t, &nobs);
    char *state = ir_format_state(t, obs, info->state, nobs);
    char *label = xasprintf("%s: execution %llu under %s%s\n%s", t->name, (unsigned long long)info->index,
                            model_name(g->m), info->undef ? " (undefined)" : "", state);
    sb_add(b, "  graph [label=\"");
    esc(b, label);
    sb_add(b, "\", labelloc=t, fontname=\"Helvetica\", fontsize=12, newrank=true];\n");
    free(label);
    free(state);
    free(obs);
}

/* The first event of the first thread that writes LOC (else reads it). */
static int placed_above(const exec *x, int loc, int niw)
{
    int j = -1;
    for (int k = niw; k < x->n && j < 0; k++)
        if (x->ev[k].loc == loc && (x->ev[k].kind & EV_W))
            j = k;
    for (int k = niw; k < x->n && j < 0; k++)
        if (x->ev[k].loc == loc)
            j = k;
    while (j > niw && x->ev[j - 1].thread == x->ev[j].thread)
        j--;
    return j;
}

/* A chain of invisible edges on one rank: dot keeps the nodes of one
 * cluster left to right in this order. */
static void in_order(strbuf *b, char **ids, const int *v, int n)
{
    if (n < 2)
        return;
    sb_add(b, "  { rank=same; ");
    for (int k = 0; k < n; k++) {
        if (k)
            sb_add(b, " -> ");
        node_ref(b, ids, v[k]);
    }
    sb_add(b, " [style=invis]; }\n");
}

/* The initial writes that some edge touches, in a row above the threads,
 * in the order of the first thread that writes each location (else reads
 * it), so that co and rf from them run down rather than across; then the
 * threads, left to right in their order, each a column in program order. */
static void nodes(strbuf *b, const exec *x, char **ids, exec_set used, int niw)
{
    const ir_test *t = x->test;
    int n = x->n, place[EXEC_MAX], iw[EXEC_MAX], niws = 0, first[EXEC_MAX], nth = 0;
    for (int i = 0; i < niw; i++)
        if (es_has(used, i)) {
            place[i] = placed_above(x, x->ev[i].loc, niw);
            /* in the order of the threads they stand above */
            int k = niws++;
            for (; k > 0 && (unsigned)place[iw[k - 1]] > (unsigned)place[i]; k--)
                iw[k] = iw[k - 1];
            iw[k] = i;
        }
    if (niws) {
        sb_add(b, "  subgraph cluster_init {\n    label=\"init\"; style=dotted;\n");
        for (int k = 0; k < niws; k++)
            node(b, x, ids, iw[k], "    ");
        sb_add(b, "  }\n");
    }
    for (int th = 0; th < t->nthreads; th++) {
        int id = t->threads[th].id, f = -1;
        for (int i = niw; i < n; i++) {
            if (x->ev[i].thread != id)
                continue;
            if (f < 0) {
                f = i;
                sb_printf(b, "  subgraph cluster_%d {\n    label=\"", th);
                esc(b, t->threads[th].name ? t->threads[th].name : "?");
                sb_add(b, "\";\n");
            }
            node(b, x, ids, i, "    ");
        }
        if (f < 0)
            continue;
        sb_add(b, "  }\n");
        first[nth++] = f;
    }
    /* Edges from one node to the threads, in their order, are what keeps
     * dot's columns in that order (a chain on one rank does not, across
     * clusters); the initial writes keep theirs as a chain in one cluster. */
    for (int k = 0; k < nth; k++) {
        if (niws) {
            invisible(b, ids, iw[0], first[k]);
        } else {
            if (k == 0)
                sb_add(b, "  \" threads\" [label=\"\", style=invis, width=0, height=0];\n");
            sb_add(b, "  \" threads\" -> ");
            node_ref(b, ids, first[k]);
            sb_add(b, " [style=invis];\n");
        }
    }
    in_order(b, ids, iw, niws);
}

char *model_graph_dot(model_graph *g, const exec *x, const model_exec_info *info, diag *d)
{
    if (g->nshow && !cat_run_relations(g->run, x, (const char *const *)g->show, g->nshow, g->rels, d))
        return NULL;
    const ir_test *t = x->test;
    int n = x->n, niw = 0;
    char *ids[EXEC_MAX];
    for (int i = 0; i < n; i++) {
        if (x->ev[i].kind & EV_IW) {
            niw++;
            ids[i] = xasprintf("init %s", loc_name(t, x->ev[i].loc));
        } else {
            ids[i] = letters(i - niw);
        }
    }
    drawing dr = {0};
    base_edges(&dr, x);
    for (int k = 0; k < g->nshow; k++)
        add_rel(&dr, &g->rels[k], n, K_SHOW + k);
    race_edges(&dr, x);

    strbuf b = {0};
    sb_add(&b, "digraph \"");
    esc(&b, t->name);
    sb_add(&b, "\" {\n");
    title(&b, g, x, info);
    sb_add(&b, "  node [shape=none, fontname=\"Helvetica\", fontsize=12, margin=0.05];\n"
               "  edge [fontname=\"Helvetica\", fontsize=10, arrowsize=0.7];\n");
    nodes(&b, x, ids, dr.used, niw);
    /* keep the halves of one instruction in line, as po does elsewhere */
    for (int i = 0; i + 1 < n; i++)
        if (x->ev[i].thread >= 0 && x->ev[i + 1].thread == x->ev[i].thread && !er_has(&x->po, i, i + 1))
            invisible(&b, ids, i, i + 1);
    for (size_t k = 0; k < dr.n; k++) {
        sb_add(&b, "  ");
        node_ref(&b, ids, dr.e[k].a);
        sb_add(&b, " -> ");
        node_ref(&b, ids, dr.e[k].b);
        sb_add(&b, " [");
        edge_attrs(&b, g, dr.e[k].kind);
        sb_add(&b, "];\n");
    }
    sb_add(&b, "}\n");
    free(dr.e);
    for (int i = 0; i < n; i++)
        free(ids[i]);
    return sb_take(&b);
}
