/* The order in which an X86 or X86_64 thread's code is lowered.
 *
 * The lowering joins the edges into a label when it reaches the label, so
 * every edge must be made before that: code whose jumps all go forward is
 * lowered in the order it is written.  Compilers also lay out acyclic code
 * with a jump back (herd's A006: `je L1; L0: ...; ret; L1: ...; jmp L0`);
 * herd runs it, following the jumps.  Here the code is cut at its labels
 * into regions, joined by the jumps and by falling from one region into
 * the next, and the regions are lowered in an order where each comes after
 * every region with an edge into it: the written order whenever it is one.
 * A cycle is a loop, which the IR does not have. */
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "ir/lower_int.h"
#include "util/mem.h"

/* The region holding instruction I. */
static int region_of(const lw_x86_plan *p, int i)
{
    int lo = 0, hi = p->n - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (p->start[mid] <= i)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* The region a jump's label starts, or -1 when no row defines it (the
 * lowering reports that jump). */
static int target_region(const lw_x86_plan *p, const fe_thread *ft, const char *name)
{
    for (int r = 0; r < p->n; r++) {
        const char *l = ft->code[p->start[r]].label;
        if (l && !strcmp(l, name))
            return r;
    }
    return -1;
}

/* Whether control can fall out of the end of region R into R + 1: not
 * when its last instruction is a JMP or a RET. */
static bool falls(const lw_x86_plan *p, const fe_thread *ft, int r)
{
    int end = r + 1 < p->n ? p->start[r + 1] : ft->ncode;
    for (int i = end - 1; i >= p->start[r]; i--) {
        fe_x86_op op = ft->code[i].op;
        if (op != FE_X86_EMPTY)
            return op != FE_X86_JMP && op != FE_X86_RET;
    }
    return true;
}

typedef struct edge { int from, to; } edge;

static const fe_x86_opnd *jump_target(const fe_x86_instr *in)
{
    if (!FE_X86_IS_JUMP(in->op))
        return NULL;
    const fe_x86_opnd *t = in->dst.kind == FE_XO_LABEL ? &in->dst : &in->src;
    return t->kind == FE_XO_LABEL ? t : NULL;
}

/* Kahn's order over the regions, the lowest-numbered ready region first
 * (so the written order where it is one).  On a
 * cycle, the first jump in the text that goes back between two regions left
 * unordered is named. */
static bool topo(lw *w, const fe_thread *ft, lw_x86_plan *p, const edge *edges, size_t nedges)
{
    int *indeg = xcalloc((size_t)p->n, sizeof *indeg);
    bool *done = xcalloc((size_t)p->n, sizeof *done);
    for (size_t k = 0; k < nedges; k++)
        indeg[edges[k].to]++;
    int n = 0;
    for (;;) {
        int r = 0;
        while (r < p->n && (done[r] || indeg[r]))
            r++;
        if (r == p->n)
            break;
        done[r] = true;
        p->order[n++] = r;
        for (size_t k = 0; k < nedges; k++)
            if (edges[k].from == r)
                indeg[edges[k].to]--;
    }
    bool ok = n == p->n;
    for (int i = 0; !ok && i < ft->ncode; i++) {
        const fe_x86_opnd *t = jump_target(&ft->code[i]);
        int from = region_of(p, i), to = t ? target_region(p, ft, t->name) : -1;
        if (to >= 0 && to <= from && !done[from] && !done[to]) {
            lw_error(w, t->pos, "jump back to label %s: loops are not supported", t->name);
            break;
        }
    }
    if (!ok && !w->d->set)
        lw_error(w, ft->pos, "the jumps of %s make a loop: loops are not supported", ft->name);
    free(indeg);
    free(done);
    return ok;
}

bool lw_x86_plan_make(lw *w, const fe_thread *ft, lw_x86_plan *p)
{
    memset(p, 0, sizeof *p);
    size_t cap = 0, n = 0;
    int zero = 0;
    VEC_PUSH(p->start, n, cap, zero);
    for (int i = 1; i < ft->ncode; i++)
        if (ft->code[i].label)
            VEC_PUSH(p->start, n, cap, i);
    p->n = (int)n;
    p->order = xcalloc(n, sizeof *p->order);
    edge *edges = NULL;
    size_t nedges = 0, capedges = 0;
    bool forward = true;
    for (int r = 0; r < p->n; r++) {
        int end = r + 1 < p->n ? p->start[r + 1] : ft->ncode;
        for (int i = p->start[r]; i < end; i++) {
            const fe_x86_opnd *t = jump_target(&ft->code[i]);
            int to = t ? target_region(p, ft, t->name) : -1;
            if (to < 0)
                continue;
            VEC_PUSH(edges, nedges, capedges, ((edge){r, to}));
            forward = forward && to > r;
        }
        if (r + 1 < p->n && falls(p, ft, r)) {
            VEC_PUSH(edges, nedges, capedges, ((edge){r, r + 1}));
        }
    }
    bool ok = true;
    if (forward) {
        for (int r = 0; r < p->n; r++)
            p->order[r] = r;
    } else {
        ok = topo(w, ft, p, edges, nedges);
    }
    free(edges);
    if (!ok)
        lw_x86_plan_free(p);
    return ok;
}

void lw_x86_plan_free(lw_x86_plan *p)
{
    free(p->start);
    free(p->order);
    memset(p, 0, sizeof *p);
}
