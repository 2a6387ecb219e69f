/* A Java test for a placed cycle, in herd's Java syntax: each location x
 * is an int reached through the VarHandle X, every thread is given the
 * handles it uses, and an access's annotation is its VarHandle mode
 * (none: plain get/set; Op: opaque; Acq/Rel: acquire/release; Vo:
 * volatile).  Dependencies are written as in C, with (r ^ r) for the
 * zero that carries a data dependency, since herd's Java has no '&'. */
#include <stdio.h>
#include <string.h>
#include "gen/lang.h"

/* Modes in the arch's atom order (Op Acq Rel Vo). */
static const char *const get_names[] = {"getOpaque", "getAcquire", "get", "getVolatile"};
static const char *const set_names[] = {"setOpaque", "set", "setRelease", "setVolatile"};
static const char *const fence_calls[] = {"fullFence", "acquireFence", "releaseFence", "loadLoadFence",
                                          "storeStoreFence"};

static void handle(char *out, size_t size, const char *loc)
{
    snprintf(out, size, "%s", loc);
    for (char *p = out; *p; p++)
        if (*p >= 'a' && *p <= 'z')
            *p = (char)(*p - 'a' + 'A');
}

static void java_load(strbuf *out, const gen_arch *a, int reg, const char *loc, int atom, const char *addr)
{
    (void)a;
    (void)addr;     /* no address dependencies in Java: refused when parsing */
    char h[8];
    handle(h, sizeof h, loc);
    sb_printf(out, "int r%d = %s.%s();\n", reg, h, atom >= 0 ? get_names[atom] : "get");
}

static void java_store(strbuf *out, const gen_arch *a, const char *loc, int v, int atom, const char *addr,
                       const char *data)
{
    (void)a;
    (void)addr;
    char h[8];
    handle(h, sizeof h, loc);
    sb_printf(out, "%s.%s(", h, atom >= 0 ? set_names[atom] : "set");
    if (data)
        sb_printf(out, "%d + (%s ^ %s)", v, data, data);
    else
        sb_printf(out, "%d", v);
    sb_add(out, ");\n");
}

static void java_fence(strbuf *out, const gen_arch *a, int fence)
{
    (void)a;
    sb_printf(out, "%s();\n", fence_calls[fence]);
}

static const gen_lang java_lang = {java_load, java_store, java_fence, NULL};

bool gen_emit_java(const gen_cycle *c, const gen_header *h, strbuf *out, diag *d)
{
    gen_final fin[2 * GEN_MAX_EDGES];
    int nfin = 0;
    if (!gen_memory_finals(c, fin, &nfin, d))
        return false;
    int order[GEN_MAX_EDGES];
    char names[GEN_MAX_EDGES][8];
    gen_locs_by_name(c, order, names);
    strbuf body = {0};
    for (int p = 0; p < c->nprocs; p++) {
        sb_printf(&body, "\nThread%d {\n", p);
        gen_extras x = {0};
        if (!gen_lang_thread(c, &java_lang, p, &body, fin, &nfin, &x, d)) {
            sb_free(&body);
            return false;
        }
        sb_add(&body, "}\n");
    }
    sb_printf(out, "Java %s\n\"%s\"\n%s{\n", h->name, h->com, h->info);
    for (int k = 0; k < c->nlocs; k++)
        sb_printf(out, "%s%s = 0;", k ? " " : "", names[order[k]]);
    sb_addc(out, '\n');
    for (int p = 0; p < c->nprocs; p++) {
        unsigned long long locs = gen_thread_locs(c, p);
        bool first = true;
        for (int k = 0; k < c->nlocs; k++)
            if ((locs >> order[k]) & 1) {
                char hn[8];
                handle(hn, sizeof hn, names[order[k]]);
                sb_printf(out, "%s%d:%s=%s;", first ? "" : " ", p, hn, names[order[k]]);
                first = false;
            }
        sb_addc(out, '\n');
    }
    sb_printf(out, "}\n%s\nexists (", body.s);
    gen_print_condition(fin, nfin, out);
    sb_add(out, ")\n");
    sb_free(&body);
    return true;
}
