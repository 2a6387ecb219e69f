/* A thread of a C or Java test: one statement per event in program
 * order, a fence after an access whose edge is fenced, and the three
 * dependencies diy7 makes: an address dependency adds (r & 128), which is
 * 0, to the next access's address; a data dependency adds it to the value
 * stored; a control dependency puts the rest of the thread under
 * `if (r == v)`, v being the value the witness reads. */
#include <stdio.h>
#include <string.h>
#include "gen/lang.h"

unsigned long long gen_thread_locs(const gen_cycle *c, int p)
{
    unsigned long long set = 0;
    for (int i = c->proc_start[p]; i < c->proc_start[p + 1]; i++)
        set |= 1ull << c->ev[i].loc;
    return set;
}

static void indent(strbuf *out, int depth)
{
    for (int k = 0; k < depth; k++)
        sb_add(out, "  ");
}

bool gen_lang_thread(const gen_cycle *c, const gen_lang *l, int p, strbuf *out, gen_final *fin, int *nfin,
                     diag *d)
{
    const gen_arch *a = c->arch;
    int depth = 1, nreg = 0;
    char dep_reg[16] = "";
    int dep_kind = -1;
    for (int i = c->proc_start[p]; i < c->proc_start[p + 1]; i++) {
        const gen_event *ev = &c->ev[i];
        const gen_edge *e = &c->e[i];
        char loc[8], reg[16];
        gen_loc_name(ev->loc, loc, sizeof loc);
        const char *addr = dep_kind == GEN_DP_ADDR ? dep_reg : NULL;
        const char *data = dep_kind == GEN_DP_DATA ? dep_reg : NULL;
        int r = -1;
        if (ev->rmw) {
            /* parsing refuses Rmw where the arch has no exchange */
            return gen_edge_error(d, c, i, "%s has no exchange", a->name);
        } else if (ev->dir == GD_R) {
            r = nreg++;
            indent(out, depth);
            l->load(out, a, r, loc, ev->atom, addr);
        } else {
            indent(out, depth);
            l->store(out, a, loc, ev->v, ev->atom, addr, data);
        }
        if (r >= 0) {
            gen_final *f = &fin[(*nfin)++];
            memset(f, 0, sizeof *f);
            f->proc = p;
            snprintf(f->reg, sizeof f->reg, "r%d", r);
            f->v = ev->v;
            snprintf(reg, sizeof reg, "r%d", r);
        }
        dep_kind = -1;
        if (e->kind == GK_FENCED && e->afence)
            return gen_edge_error(d, c, i, "access fences are not printed yet");
        if (e->kind == GK_FENCED) {
            indent(out, depth);
            l->fence(out, a, e->fence);
        } else if (e->kind == GK_DP && i + 1 < c->proc_start[p + 1]) {
            if (r < 0)
                return gen_edge_error(d, c, i, "a dependency must start from a read");
            if (e->dp == GEN_DP_CTRL) {
                indent(out, depth);
                sb_printf(out, "if (%s == %d) {\n", reg, ev->v);
                depth++;
            } else {
                dep_kind = e->dp;
                snprintf(dep_reg, sizeof dep_reg, "%s", reg);
            }
        }
    }
    while (--depth > 0) {
        indent(out, depth);
        sb_add(out, "}\n");
    }
    return true;
}
