/* Register allocation for one selected thread: linear scan over live
 * intervals.  Jumps only go forward in the layout, so a value is live on
 * every path between its first and last mention in that order, and the
 * interval [first, last] is a safe (if cautious) summary of its lifetime.
 * Intervals that touch at one instruction conflict, which keeps two-address
 * sequences such as `MOV d,a; ADD d,b` from clobbering b. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "backends/x86/select_internal.h"
#include "util/mem.h"

static void mention(int *start, int *end, int nv, x86_opnd o, int pos)
{
    if ((o.kind != X86_O_REG && o.kind != X86_O_MEM_REG) || o.reg < 0 || o.reg >= nv)
        return;
    if (pos < start[o.reg])
        start[o.reg] = pos;
    if (pos > end[o.reg])
        end[o.reg] = pos;
}

static void rename_opnd(x86_opnd *o, const x86_reg *assign)
{
    if (o->kind != X86_O_REG && o->kind != X86_O_MEM_REG)
        return;
    o->reg = (int)o->reg == VREG_EAX ? X86_EAX : assign[o->reg];
}

static const int *sort_start;
static int by_start(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    if (sort_start[x] != sort_start[y])
        return sort_start[x] < sort_start[y] ? -1 : 1;
    return x < y ? -1 : x > y;
}

bool regalloc_thread(sel *s, x86_thread *out, x86_prog *p, diag *d)
{
    int nv = s->nvregs, ncode = (int)s->ncode;
    int *start = xmalloc(((size_t)nv + 1) * sizeof *start), *end = xmalloc(((size_t)nv + 1) * sizeof *end);
    for (int v = 0; v < nv; v++) {
        start[v] = INT_MAX;
        end[v] = -2;
    }
    bool has_cas = false;
    for (int i = 0; i < ncode; i++) {
        mention(start, end, nv, s->code[i].dst, i);
        mention(start, end, nv, s->code[i].src, i);
        has_cas = has_cas || s->code[i].op == X86_CMPXCHG;
    }
    for (int v = 0; v < nv; v++)
        if (s->vinit_set[v]) {
            start[v] = -1;
            if (end[v] < -1)
                end[v] = -1;
        }
    for (int i = 0; i < s->nobs; i++) {
        int v = s->final_vreg[i];
        if (v >= 0 && v < nv) {
            if (start[v] == INT_MAX)
                start[v] = ncode;
            end[v] = ncode;
        }
    }
    int *ord = xmalloc(((size_t)nv + 1) * sizeof *ord), nord = 0;
    for (int v = 0; v < nv; v++)
        if (start[v] <= end[v])
            ord[nord++] = v;
    sort_start = start;
    qsort(ord, (size_t)nord, sizeof *ord, by_start);
    x86_reg *assign = xmalloc(((size_t)nv + 1) * sizeof *assign);
    for (int v = 0; v < nv; v++)
        assign[v] = X86_NOREG;
    int busy_until[X86_NREGS];
    for (int r = 0; r < X86_NREGS; r++)
        busy_until[r] = INT_MIN;
    bool ok = true;
    for (int k = 0; ok && k < nord; k++) {
        int v = ord[k];
        x86_reg pick = X86_NOREG;
        x86_reg hint = s->vhint[v];
        if (hint != X86_NOREG && busy_until[hint] < start[v] && !(has_cas && hint == X86_EAX))
            pick = hint;
        for (int r = 0; pick == X86_NOREG && r < X86_NREGS; r++)
            if (busy_until[r] < start[v] && !(has_cas && r == X86_EAX))
                pick = (x86_reg)r;
        if (pick == X86_NOREG) {
            ok = diag_error(d, s->file, 0, 0, "thread %d needs more than the %d x86 registers at once",
                            s->th->id, has_cas ? X86_NREGS - 1 : X86_NREGS);
            break;
        }
        assign[v] = pick;
        busy_until[pick] = end[v];
    }
    if (ok) {
        /* Keep only labels that some jump targets. */
        bool *used = xcalloc((size_t)s->nlabels + 1, sizeof *used);
        for (int i = 0; i < ncode; i++)
            if (s->code[i].dst.kind == X86_O_LABEL && s->code[i].dst.label < s->nlabels)
                used[s->code[i].dst.label] = true;
        out->code = xcalloc((size_t)ncode + 1, sizeof *out->code);
        out->ncode = 0;
        for (int i = 0; i < ncode; i++) {
            x86_instr in = s->code[i];
            if (in.op == X86_LABEL && !used[in.label])
                continue;
            rename_opnd(&in.dst, assign);
            rename_opnd(&in.src, assign);
            out->code[out->ncode++] = in;
        }
        out->cap = ncode + 1;
        /* Renumber the labels densely in order of appearance. */
        int *renum = xmalloc(((size_t)s->nlabels + 1) * sizeof *renum);
        for (int l = 0; l < s->nlabels; l++)
            renum[l] = -1;
        out->nlabels = 0;
        for (int i = 0; i < out->ncode; i++)
            if (out->code[i].op == X86_LABEL)
                renum[out->code[i].label] = out->nlabels++;
        for (int i = 0; i < out->ncode; i++) {
            if (out->code[i].op == X86_LABEL)
                out->code[i].label = renum[out->code[i].label];
            else if (out->code[i].dst.kind == X86_O_LABEL)
                out->code[i].dst.label = renum[out->code[i].dst.label];
        }
        free(renum);
        free(used);
        size_t ni = 0, ci = 0;
        for (int v = 0; v < nv; v++)
            if (s->vinit_set[v] && assign[v] != X86_NOREG)
                VEC_PUSH(out->inits, ni, ci, ((x86_init_reg){assign[v], s->vinit[v]}));
        out->ninits = (int)ni;
        size_t nm = (size_t)p->nmap, cm = (size_t)p->nmap;
        for (int i = 0; i < s->nobs; i++) {
            int v = s->final_vreg[i];
            x86_regmap m = {s->th->id, xstrdup(s->obs_names[i]), v >= 0 && v < nv ? assign[v] : X86_NOREG};
            VEC_PUSH(p->map, nm, cm, m);
        }
        p->nmap = (int)nm;
    }
    free(start);
    free(end);
    free(ord);
    free(assign);
    return ok;
}
