/* One cycle to one test: parse and resolve the edges, rotate to diy7's
 * normal form, name it, place locations, values and threads, print. */
#include <stdlib.h>
#include <string.h>
#include "gen/internal.h"

static void edges_text(const gen_cycle *c, strbuf *out)
{
    for (int i = 0; i < c->n; i++) {
        if (i)
            sb_addc(out, ' ');
        gen_edge_name(c->arch, &c->e[i], out);
    }
}

bool gen_build(gen_cycle *c, const gen_one_opts *o, const char *extra_info, gen_test *out, diag *d)
{
    memset(out, 0, sizeof *out);
    if (gen_normal_start(c) < 0)
        return diag_error(d, NULL, 0, 0, "not a cycle between threads: no external communication edge");
    strbuf name = {0}, cycle = {0}, info = {0}, text = {0}, v = {0};
    {
        gen_cycle norm = *c;
        gen_normalise(&norm);
        gen_test_name(&norm, &name);
        if (!o || !o->keep_order)
            *c = norm;
    }
    edges_text(c, &cycle);
    bool ok = gen_place(c, d);
    if (ok) {
        if (extra_info)
            sb_add(&info, extra_info);
        sb_printf(&info, "Generator=%s\n", o && o->generator ? o->generator : "litmusc gen");
        gen_prefetch_info(c, &v);
        if (v.len)
            sb_printf(&info, "Prefetch=%s\n", v.s);
        v.len = 0;
        gen_com_info(c, &v);
        if (v.len)
            sb_printf(&info, "Com=%s\n", v.s);
        sb_printf(&info, "Orig=%s\n", cycle.s);
        gen_header h = {o && o->name ? o->name : name.s, cycle.s, info.s};
        switch (c->arch->id) {
        case GEN_X86: ok = gen_emit_x86(c, &h, &text, d); break;
        case GEN_C: ok = gen_emit_c(c, &h, &text, d); break;
        case GEN_JAVA: ok = gen_emit_java(c, &h, &text, d); break;
        }
    }
    if (ok) {
        out->name = xstrdup(o && o->name ? o->name : name.s);
        out->cycle = sb_take(&cycle);
        out->text = sb_take(&text);
        out->nprocs = c->nprocs;
    }
    sb_free(&name);
    sb_free(&cycle);
    sb_free(&info);
    sb_free(&text);
    sb_free(&v);
    return ok;
}

bool gen_one(gen_arch_id arch, const char *const *edges, int n, const gen_one_opts *o, gen_test *out, diag *d)
{
    gen_cycle c;
    memset(out, 0, sizeof *out);
    if (!gen_parse_cycle(gen_arch_get(arch), edges, n, &c, d))
        return false;
    return gen_build(&c, o, NULL, out, d);
}

void gen_test_free(gen_test *t)
{
    if (!t)
        return;
    free(t->name);
    free(t->cycle);
    free(t->text);
    memset(t, 0, sizeof *t);
}
