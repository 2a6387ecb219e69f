/* fe_parse: split the file, run the init, program and condition parsers,
 * check the names they use against each other, and settle the hash. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "frontend/internal.h"
#include "util/file.h"
#include "util/mem.h"

/* ---- name sets --------------------------------------------------------------- */
/* Names in insertion order, with an open-addressing index (slots hold
 * position + 1) so that a test with a million locations checks in linear
 * time. */
typedef struct nameset { char **v; int n, cap; int *slot; size_t nslot; } nameset;

static size_t name_hash(const char *name)
{
    size_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 16777619u;
    return h;
}

/* The slot NAME is in, or the empty slot where it would go. */
static size_t ns_find(const nameset *s, const char *name)
{
    size_t j = name_hash(name) & (s->nslot - 1);
    while (s->slot[j] && strcmp(s->v[s->slot[j] - 1], name))
        j = (j + 1) & (s->nslot - 1);
    return j;
}

static bool ns_has(const nameset *s, const char *name)
{
    return s->nslot && s->slot[ns_find(s, name)];
}

static void ns_add(nameset *s, const char *name)
{
    if (!name || ns_has(s, name))
        return;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->v = xrealloc(s->v, (size_t)s->cap * sizeof *s->v);
    }
    s->v[s->n++] = (char *)name;    /* borrowed from the tree */
    if (2 * (size_t)s->n > s->nslot) {
        free(s->slot);
        s->nslot = s->nslot ? 2 * s->nslot : 64;
        while (2 * (size_t)s->n > s->nslot)
            s->nslot *= 2;
        s->slot = xcalloc(s->nslot, sizeof *s->slot);
        for (int i = 0; i < s->n; i++)
            s->slot[ns_find(s, s->v[i])] = i + 1;
    } else {
        s->slot[ns_find(s, name)] = s->n;
    }
}

static void ns_free(nameset *s)
{
    free(s->v);
    free(s->slot);
}

static void regs_of_stmt(const fe_stmt *s, nameset *out)
{
    if (!s)
        return;
    if (s->kind == FE_S_DECL || s->kind == FE_S_ASSIGN)
        ns_add(out, s->name);
    regs_of_stmt(s->then_s, out);
    regs_of_stmt(s->else_s, out);
    for (int i = 0; i < s->nbody; i++)
        regs_of_stmt(s->body[i], out);
}

/* The registers thread TH has: C/Java locals and parameters; x86 any register. */
static void thread_regs(const fe_thread *th, nameset *out)
{
    for (int i = 0; i < th->nparams; i++)
        ns_add(out, th->params[i].name);
    regs_of_stmt(th->body, out);
}

/* fe_isa_hooks.code_locations's ADD over a nameset. */
static void add_name(void *set, const char *name)
{
    ns_add(set, name);
}

static void known_locations(const fe_test *t, nameset *out)
{
    for (int i = 0; i < t->ninit; i++) {
        const fe_init *it = &t->init[i];
        if (it->loc.kind == FE_LOC_MEM)
            ns_add(out, it->loc.name);
        if (it->has_value && it->value.kind == FE_VAL_ADDR)
            ns_add(out, it->value.sym);
    }
    const fe_isa_hooks *h = fe_isa_hooks_of(t->arch);
    for (int i = 0; i < t->nthreads; i++) {
        const fe_thread *th = &t->threads[i];
        if (h)
            h->code_locations(th, add_name, out);
        for (int j = 0; j < th->nparams; j++)
            ns_add(out, th->params[j].name);
    }
}

typedef struct checker {
    const fe_test *t;
    const char *file;
    diag *d;
    nameset locs;
    nameset *regs;      /* per thread */
} checker;

static bool check_loc(checker *c, const fe_loc *l, const char *where)
{
    const fe_test *t = c->t;
    if (l->kind == FE_LOC_REG) {
        if (l->thread < 0 || l->thread >= t->nthreads)
            return diag_error(c->d, c->file, l->pos.line, l->pos.col, "unknown thread %d in %s (the test has %d)",
                              l->thread, where, t->nthreads);
        const fe_isa_hooks *h = fe_isa_hooks_of(t->arch);
        bool ok = h ? h->reg_known(t, l) : ns_has(&c->regs[l->thread], l->name);
        if (!ok)
            return diag_error(c->d, c->file, l->pos.line, l->pos.col, "unknown register %d:%s in %s",
                              l->thread, l->name, where);
        return true;
    }
    if (!ns_has(&c->locs, l->name))
        return diag_error(c->d, c->file, l->pos.line, l->pos.col, "unknown location '%s' in %s", l->name, where);
    return true;
}

static bool check_prop(checker *c, const fe_prop *p, const char *where)
{
    if (!p)
        return true;
    if (p->kind == FE_P_ATOM) {
        if (!check_loc(c, &p->lhs, where))
            return false;
        if (p->rhs_is_loc && !check_loc(c, &p->rhs_loc, where))
            return false;
        if (!p->rhs_is_loc && p->rhs.kind == FE_VAL_ADDR && !ns_has(&c->locs, p->rhs.sym))
            return diag_error(c->d, c->file, p->rhs.pos.line, p->rhs.pos.col, "unknown location '%s' in %s",
                              p->rhs.sym, where);
        return true;
    }
    return check_prop(c, p->l, where) && check_prop(c, p->r, where);
}

bool fe_check(fe_test *t, const char *file, diag *d)
{
    checker c = {t, file, d, {0}, NULL};
    known_locations(t, &c.locs);
    c.regs = xcalloc((size_t)(t->nthreads ? t->nthreads : 1), sizeof *c.regs);
    for (int i = 0; i < t->nthreads; i++)
        thread_regs(&t->threads[i], &c.regs[i]);
    bool ok = true;
    for (int i = 0; ok && i < t->ninit; i++) {
        const fe_init *it = &t->init[i];
        if (it->loc.kind == FE_LOC_REG) {
            if (it->loc.thread >= t->nthreads)
                ok = diag_error(d, file, it->loc.pos.line, it->loc.pos.col,
                                "unknown thread %d in the initial state (the test has %d)", it->loc.thread,
                                t->nthreads);
            else if (t->arch == FE_ARCH_JAVA) {
                if (!it->has_value || it->value.kind != FE_VAL_ADDR)
                    ok = diag_error(d, file, it->loc.pos.line, it->loc.pos.col,
                                    "type mismatch: Java binds a VarHandle to a location (%d:%s=x)",
                                    it->loc.thread, it->loc.name);
            } else if (t->arch == FE_ARCH_C) {
                /* herd sets C parameters itself; other locals may be preset */
                ok = check_loc(&c, &it->loc, "the initial state");
            } else {
                ok = check_loc(&c, &it->loc, "the initial state");
            }
        }
    }
    for (int i = 0; ok && i < t->cond.nlocations; i++)
        ok = check_loc(&c, &t->cond.locations[i], "'locations'");
    if (ok)
        ok = check_prop(&c, t->cond.filter, "the filter");
    if (ok)
        ok = check_prop(&c, t->cond.prop, "the condition");
    if (ok && t->arch == FE_ARCH_JAVA)
        ok = fe_check_monitors(t, file, d);
    for (int i = 0; i < t->nthreads; i++)
        ns_free(&c.regs[i]);
    free(c.regs);
    ns_free(&c.locs);
    return ok;
}

static bool is_hex32(const char *s)
{
    if (strlen(s) != 32)
        return false;
    for (int i = 0; i < 32; i++)
        if (!isxdigit((unsigned char)s[i]))
            return false;
    return true;
}

fe_test *fe_parse(const char *text, size_t len, const char *file, diag *d)
{
    if (!file)
        file = "<input>";
    split sp;
    fe_test *t = xcalloc(1, sizeof *t);
    t->file = xstrdup(file);
    bool ok = fe_split(text, len, file, &sp, d);
    t->arch = sp.arch;
    t->arch_name = sp.arch_name;
    t->name = sp.name;
    t->doc = sp.doc;
    t->info = sp.info;
    t->ninfo = sp.ninfo;
    if (ok)
        ok = fe_parse_init(t, &sp.init, file, d);
    if (ok) {
        const fe_isa_hooks *h = fe_isa_hooks_of(t->arch);
        if (h)
            ok = h->parse(t, &sp.prog, file, d);
        else if (t->arch == FE_ARCH_C)
            ok = fe_parse_c(t, &sp.prog, file, d);
        else
            ok = fe_parse_java(t, &sp.prog, file, d);
    }
    if (ok)
        ok = fe_parse_cond(t, &sp.cond, file, d);
    if (ok)
        ok = fe_check(t, file, d);
    if (!ok) {
        if (d && !d->set)
            diag_error(d, file, 0, 0, "malformed litmus test");
        fe_test_free(t);
        return NULL;
    }
    for (int i = 0; i < t->ninfo; i++)
        if (!strcmp(t->info[i].key, "Hash") && is_hex32(t->info[i].value)) {
            for (int k = 0; k < 32; k++)
                t->hash[k] = (char)tolower((unsigned char)t->info[i].value[k]);
            t->hash[32] = 0;
            t->hash_from_info = true;
        }
    if (!t->hash_from_info)
        fe_compute_hash(t, t->hash);
    return t;
}

fe_test *fe_parse_file(const char *path, diag *d)
{
    strbuf b = {0};
    bool opened;
    if (!file_read_all(path, &b, &opened)) {
        if (errno == EFBIG)
            diag_error(d, path, 0, 0, "%s", file_error(errno));
        else
            diag_error(d, path, 0, 0, opened ? "cannot read: %s" : "cannot open: %s", strerror(errno));
        return NULL;
    }
    fe_test *t = fe_parse(b.s ? b.s : "", b.len, path, d);
    sb_free(&b);
    return t;
}
