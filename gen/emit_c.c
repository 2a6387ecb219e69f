/* A C test for a placed cycle, as diy7 prints it: each thread takes the
 * locations it uses as parameters (atomic_int* when an access to the
 * location is annotated, volatile int* otherwise), annotated accesses
 * are atomic_load_explicit / atomic_store_explicit with the memory order,
 * plain ones dereference the pointer.
 *
 * Read-modify-writes and access fences (gen/rmw.c) are atomic_*_explicit
 * calls, seq_cst included: diy7's code would print a seq_cst exchange as
 * atomic_exchange, which herd7 7.57 does not know.  A
 * location an or (an and) writes takes values whose bits only grow
 * (shrink) along its coherence order: 0 1 3 (7 3 1 from 7), so that each
 * write is its predecessor or'ed (and'ed) with the value written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen/lang.h"

/* Memory orders in the arch's atom order (Acq Rel AR Sc Rlx Con). */
static const char *const orders[] = {
    "memory_order_acquire", "memory_order_release", "memory_order_acq_rel",
    "memory_order_seq_cst", "memory_order_relaxed", "memory_order_consume",
};

static void address(strbuf *out, const char *loc, const char *addr)
{
    if (addr)
        sb_printf(out, "%s + (%s & 128)", loc, addr);
    else
        sb_add(out, loc);
}

static void c_load(strbuf *out, const gen_arch *a, int reg, const char *loc, int atom, const char *addr)
{
    (void)a;
    sb_printf(out, "int r%d = ", reg);
    if (atom >= 0) {
        sb_add(out, "atomic_load_explicit(");
        address(out, loc, addr);
        sb_printf(out, ",%s);\n", orders[atom]);
    } else if (addr) {
        sb_add(out, "*(");
        address(out, loc, addr);
        sb_add(out, ");\n");
    } else
        sb_printf(out, "*%s;\n", loc);
}

static void c_store(strbuf *out, const gen_arch *a, const char *loc, int v, int atom, const char *addr,
                    const char *data)
{
    (void)a;
    char value[48];
    if (data)
        snprintf(value, sizeof value, "%d + (%s & 128)", v, data);
    else
        snprintf(value, sizeof value, "%d", v);
    if (atom >= 0) {
        sb_add(out, "atomic_store_explicit(");
        address(out, loc, addr);
        sb_printf(out, ",%s,%s);\n", value, orders[atom]);
    } else if (addr) {
        sb_add(out, "*(");
        address(out, loc, addr);
        sb_printf(out, ") = %s;\n", value);
    } else
        sb_printf(out, "*%s = %s;\n", loc, value);
}

static void c_fence(strbuf *out, const gen_arch *a, int fence)
{
    (void)a;
    sb_printf(out, "atomic_thread_fence(%s);\n", orders[fence]);
}

static const char *const op_fn[GEN_NOPS] = {
    "exchange", "fetch_add", "fetch_sub", "fetch_and", "fetch_or", "fetch_xor", "compare_exchange_strong",
    "compare_exchange_weak", "load", "store",
};

static void c_rmw(strbuf *out, const gen_arch *a, const gen_rmw_call *k)
{
    (void)a;
    if (k->reg >= 0)
        sb_printf(out, "int r%d = ", k->reg);
    sb_printf(out, "atomic_%s_explicit(", op_fn[k->op]);
    address(out, k->loc, k->addr);
    if (k->expected)
        sb_printf(out, ",%s", k->expected);
    if (k->op != GEN_OP_LD)
        sb_printf(out, ",%d", k->operand);
    sb_printf(out, ",%s", orders[k->mo]);
    if (k->expected)
        sb_printf(out, ",%s", orders[k->fail]);
    sb_add(out, ");\n");
}

static const gen_lang c_lang = {c_load, c_store, c_fence, c_rmw};

/* The value map of each location (see the top of the file):
 * VALS[l][i] is the value of the cycle's value i (0 the initial one,
 * then the writes in coherence order).  On a location an or writes,
 * write i brings bit i-1 of its own, or'ed into what an or reads; on one
 * an and writes, the location starts with all bits set and write i
 * clears bit i-1, and'ed into what an and reads: so a write is always
 * told apart from the others, whatever the or or the and read. */
static bool value_maps(const gen_cycle *c, int (*vals)[4], diag *d)
{
    int writes[GEN_MAX_EDGES] = {0}, kind[GEN_MAX_EDGES] = {0};     /* kind: 1 or, 2 and */
    int op_of[GEN_MAX_EDGES][4];
    for (int i = 0; i < c->n; i++) {
        int l = c->ev[i].loc;
        if (c->ev[i].dir == GD_W && c->ev[i].v < 4) {
            writes[l]++;
            const gen_edge *in = &c->e[(i + c->n - 1) % c->n];
            op_of[l][c->ev[i].v] = in->kind == GK_RMW ? in->op : -1;
        }
        if (c->e[i].kind != GK_RMW || (c->e[i].op != GEN_OP_OR && c->e[i].op != GEN_OP_AND))
            continue;
        int k = c->e[i].op == GEN_OP_OR ? 1 : 2;
        if (kind[l] && kind[l] != k)
            return gen_edge_error(d, c, i, "an or and an and on one location: no values let both "
                                  "write what the cycle says");
        kind[l] = k;
    }
    for (int l = 0; l < c->nlocs; l++) {
        int full = (1 << writes[l]) - 1;
        vals[l][0] = kind[l] == 2 ? full : 0;
        for (int i = 1; i < 4; i++) {
            int bit = 1 << (i - 1);
            if (kind[l] == 0 || i > writes[l])
                vals[l][i] = i;
            else if (kind[l] == 1)
                vals[l][i] = op_of[l][i] == GEN_OP_OR ? vals[l][i - 1] | bit : bit;
            else
                vals[l][i] = op_of[l][i] == GEN_OP_AND ? vals[l][i - 1] & ~bit : full & ~bit;
        }
    }
    return true;
}

/* What write W (event index) makes when it reads OLD: its value for a
 * store or an exchange, OLD combined with its operand for the others.
 * A compare-exchange that reads another value than it expects writes
 * nothing (-1). */
static int write_from(const gen_cycle *c, int w, int old)
{
    const gen_edge *in = &c->e[(w + c->n - 1) % c->n];
    int vr = c->ev[(w + c->n - 1) % c->n].v, vw = c->ev[w].v;
    if (in->kind != GK_RMW)
        return vw;
    switch (in->op) {
    case GEN_OP_ADD: return old + (vw - vr);
    case GEN_OP_SUB: return old - (vr - vw);
    case GEN_OP_XOR: return old ^ (vr ^ vw);
    case GEN_OP_OR: return old | vw;
    case GEN_OP_AND: return old & vw;
    case GEN_OP_CAS: case GEN_OP_CASW: return old == vr ? vw : -1;
    default: return vw;
    }
}

/* A read-modify-write whose result the test does not keep is only known
 * to have read what the cycle says by the final value of its location:
 * the two writes in the other coherence order must leave another value
 * (a kept result that would read otherwise rules that order out too). */
static bool final_tells(const gen_cycle *c0, const gen_cycle *c, int (*vals)[4], diag *d)
{
    for (int l = 0; l < c->nlocs; l++) {
        int w[2], nw = 0, ig = -1;
        for (int i = 0; i < c->n; i++)
            if (c->ev[i].loc == l && c->ev[i].dir == GD_W) {
                if (nw < 2)
                    w[nw] = i;
                nw++;
                const gen_edge *in = &c->e[(i + c->n - 1) % c->n];
                if (in->kind == GK_RMW && in->unused)
                    ig = (i + c->n - 1) % c->n;
            }
        if (ig < 0 || nw != 2)
            continue;
        /* coherence order from the cycle's value numbers, values from C's */
        int first = c0->ev[w[0]].v < c0->ev[w[1]].v ? w[0] : w[1], last = first == w[0] ? w[1] : w[0];
        int init = vals[l][0];
        /* the other order: LAST first, reading the initial value */
        bool ruled_out = false;
        int v = init, seq[2] = {last, first};
        for (int k = 0; k < 2; k++) {
            const gen_edge *in = &c->e[(seq[k] + c->n - 1) % c->n];
            int vr = c->ev[(seq[k] + c->n - 1) % c->n].v;
            if (in->kind == GK_RMW && !in->unused && v != vr)
                ruled_out = true;
            int nv = write_from(c, seq[k], v);
            if (nv < 0)
                ruled_out = true;
            v = nv;
        }
        if (!ruled_out && v == c->ev[last].v)
            return gen_edge_error(d, c, ig, "the final value of its location is the same in either "
                                  "coherence order: keep its result (without Ig)");
    }
    return true;
}

/* One type per location: every access atomic or every access plain. */
static bool location_types(const gen_cycle *c, bool *atomic, diag *d)
{
    int seen[GEN_MAX_EDGES];
    for (int l = 0; l < c->nlocs; l++)
        seen[l] = -1;
    for (int i = 0; i < c->n; i++) {
        int l = c->ev[i].loc;
        bool at = c->ev[i].atom >= 0;
        if (seen[l] >= 0 && atomic[l] != at) {
            char name[8];
            gen_loc_name(l, name, sizeof name);
            return gen_edge_error(d, c, i, "location %s has both plain and atomic accesses, "
                                  "which C cannot type", name);
        }
        seen[l] = i;
        atomic[l] = at;
    }
    return true;
}

/* Thread P's parameters in decreasing name order, as diy7 lists them,
 * then its extra locations. */
static void params(const gen_cycle *c, int p, const bool *atomic, const gen_extras *x, strbuf *out)
{
    unsigned long long locs = gen_thread_locs(c, p);
    bool first = true;
    char names[GEN_MAX_EDGES][8];
    int order[GEN_MAX_EDGES], nl = 0;
    for (int l = 0; l < c->nlocs; l++)
        if ((locs >> l) & 1) {
            gen_loc_name(l, names[nl], sizeof names[nl]);
            order[nl++] = l;
        }
    for (int i = 1; i < nl; i++)
        for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) < 0; j--) {
            char t[8];
            memcpy(t, names[j], sizeof t);
            memcpy(names[j], names[j - 1], sizeof t);
            memcpy(names[j - 1], t, sizeof t);
            int o = order[j];
            order[j] = order[j - 1];
            order[j - 1] = o;
        }
    for (int k = 0; k < nl; k++) {
        sb_printf(out, "%s%s* %s", first ? "" : ",", atomic[order[k]] ? "atomic_int" : "volatile int", names[k]);
        first = false;
    }
    for (int k = 0; k < x->n; k++) {
        sb_printf(out, "%s%s* %s", first ? "" : ",", x->atomic[k] ? "atomic_int" : "int", x->name[k]);
        first = false;
    }
}

bool gen_emit_c(const gen_cycle *c0, const gen_header *h, strbuf *out, diag *d)
{
    bool atomic[GEN_MAX_EDGES];
    gen_final fin[2 * GEN_MAX_EDGES];
    int nfin = 0;
    int vals[GEN_MAX_EDGES][4];
    if (!location_types(c0, atomic, d) || !gen_memory_finals(c0, fin, &nfin, d) || !value_maps(c0, vals, d))
        return false;
    /* the values the test shows */
    gen_cycle *c = xmalloc(sizeof *c);
    *c = *c0;
    for (int i = 0; i < c->n; i++)
        c->ev[i].v = vals[c->ev[i].loc][c->ev[i].v];
    for (int k = 0; k < nfin; k++)
        fin[k].v = vals[fin[k].loc][fin[k].v];
    if (!final_tells(c0, c, vals, d)) {
        free(c);
        return false;
    }
    strbuf body = {0}, init = {0};
    bool ok = true;
    for (int l = 0; l < c->nlocs; l++)
        if (vals[l][0]) {
            char name[8];
            gen_loc_name(l, name, sizeof name);
            sb_printf(&init, " %s=%d;", name, vals[l][0]);
        }
    for (int p = 0; p < c->nprocs && ok; p++) {
        gen_extras x = {0};
        strbuf th = {0};
        ok = gen_lang_thread(c, &c_lang, p, &th, fin, &nfin, &x, d);
        if (ok) {
            sb_printf(&body, "P%d (", p);
            params(c, p, atomic, &x, &body);
            sb_printf(&body, ") {\n%s}\n\n", th.s ? th.s : "");
            for (int k = 0; k < x.n; k++)
                if (x.init[k])
                    sb_printf(&init, " %s=%d;", x.name[k], x.init[k]);
        }
        sb_free(&th);
    }
    if (ok) {
        sb_printf(out, "C %s\n\"%s\"\n%s\n{%s%s}\n\n%s", h->name, h->com, h->info, init.s ? init.s : "",
                  init.len ? " " : "", body.s);
        sb_add(out, "exists (");
        gen_print_condition(fin, nfin, out);
        sb_add(out, ")\n");
    }
    sb_free(&body);
    sb_free(&init);
    free(c);
    return ok;
}
