/* A C test for a placed cycle, as diy7 prints it: each thread takes the
 * locations it uses as parameters (atomic_int* when an access to the
 * location is annotated, volatile int* otherwise), annotated accesses
 * are atomic_load_explicit / atomic_store_explicit with the memory order,
 * plain ones dereference the pointer. */
#include <stdio.h>
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

static const gen_lang c_lang = {c_load, c_store, c_fence};

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

bool gen_emit_c(const gen_cycle *c, const gen_header *h, strbuf *out, diag *d)
{
    bool atomic[GEN_MAX_EDGES];
    gen_final fin[2 * GEN_MAX_EDGES];
    int nfin = 0;
    if (!location_types(c, atomic, d) || !gen_memory_finals(c, fin, &nfin, d))
        return false;
    strbuf body = {0};
    for (int p = 0; p < c->nprocs; p++) {
        sb_printf(&body, "P%d (", p);
        unsigned long long locs = gen_thread_locs(c, p);
        bool first = true;
        /* in decreasing name order, as diy7 lists them */
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
            sb_printf(&body, "%s%s* %s", first ? "" : ",", atomic[order[k]] ? "atomic_int" : "volatile int",
                      names[k]);
            first = false;
        }
        sb_add(&body, ") {\n");
        if (!gen_lang_thread(c, &c_lang, p, &body, fin, &nfin, d)) {
            sb_free(&body);
            return false;
        }
        sb_add(&body, "}\n\n");
    }
    sb_printf(out, "C %s\n\"%s\"\n%s\n{}\n\n%sexists (", h->name, h->com, h->info, body.s);
    gen_print_condition(fin, nfin, out);
    sb_add(out, ")\n");
    sb_free(&body);
    return true;
}
