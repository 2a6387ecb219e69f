/* The behaviour-set API (model.h): loading a model and running a test. */
#include <stdlib.h>
#include <string.h>
#include "isa/isa.h"
#include "model/cat/cat.h"
#include "model/bset_build.h"
#include "model/enum/enum.h"
#include "model/jls04/jls04.h"
#include "model/model.h"
#include "model/model_impl.h"
#include "util/embed.h"
#include "util/mem.h"

struct model {
    cat_model *cat;
    bool prune;
    bool cut_loops;         /* model_set_cut_loops */
    bool jls04;             /* the multi-execution JLS04 (model/jls04/jls04.h), not CAT */
};

/* The project's models for which enumeration may skip candidates that
 * break per-location coherence or RMW atomicity: each of them rejects
 * every such candidate (sc: acyclic po|com; x86tso and x86tso-rmw:
 * uniproc and atomicity; rc11: coherence, atomicity and no-thin-air), so herd's
 * counts are unchanged.  Any other model gets every candidate. */
static bool prunable(const char *name)
{
    static const char *const names[] = {"sc", "x86tso", "x86tso-rmw", "rc11"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

const char *const *model_builtin_names(void)
{
    static const char *const names[] = {"sc", "x86tso", "x86tso-rmw", "rc11", "rc11-lb", "jam21", "aarch64", NULL};
    return names;
}

const char *const *model_multi_names(void)
{
    static const char *const names[] = {"jls04", NULL};
    return names;
}

/* JLS04 has no cat file.  It keeps an empty cat model of its name so that
 * what asks a model for its cat side (pictures: the relations a model
 * names) finds one that names none and accepts every execution it is
 * shown; the executions themselves come from model/jls04/jls04.c. */
static model *load_jls04(diag *d)
{
    cat_model *c = cat_load_text("\"JLS04: the Java 5 memory model (multi-execution, no cat file)\"\n", "jls04", d);
    if (!c)
        return NULL;
    model *m = xcalloc(1, sizeof *m);
    m->cat = c;
    m->jls04 = true;
    return m;
}

static bool listed(const char *const *names, const char *name)
{
    for (; *names; names++)
        if (strcmp(*names, name) == 0)
            return true;
    return false;
}

/* A name (no '/' and no '.') must be one of the models: the other embedded
 * model/cat files (cos, stdlib, fences, ...) are pieces the models include,
 * and one of them run as a model would print a verdict that means nothing. */
static bool known_name(const char *name, diag *d)
{
    if (strchr(name, '/') || strchr(name, '.') || listed(model_builtin_names(), name) ||
        listed(model_multi_names(), name))
        return true;
    strbuf known = {0};
    for (const char *const *n = model_builtin_names(); *n; n++)
        sb_printf(&known, "%s%s", n == model_builtin_names() ? "" : ", ", *n);
    for (const char *const *n = model_multi_names(); *n; n++)
        sb_printf(&known, ", %s", *n);
    char *file = xasprintf("model/cat/%s.cat", name);
    if (embed_find(file))
        diag_error(d, NULL, 0, 0, "'%s' is a file the built-in models include, not a model (built-in models: %s; "
                   "or give a .cat file)", name, known.s);
    else
        diag_error(d, NULL, 0, 0, "unknown model '%s' (built-in models: %s; or give a .cat file)", name, known.s);
    free(file);
    sb_free(&known);
    return false;
}

model *model_load(const char *name_or_path, diag *d)
{
    if (!known_name(name_or_path, d))
        return NULL;
    if (strcmp(name_or_path, "jls04") == 0)
        return load_jls04(d);
    cat_model *c = cat_load(name_or_path, d);
    if (!c)
        return NULL;
    model *m = xcalloc(1, sizeof *m);
    m->cat = c;
    m->prune = cat_model_generates_co(c) && prunable(cat_model_name(c));
    const char *env = getenv("LITMUSC_NO_PRUNE");
    if (env && *env && strcmp(env, "0") != 0)
        m->prune = false;
    return m;
}

void model_free(model *m)
{
    if (!m)
        return;
    cat_free(m->cat);
    free(m);
}

const cat_model *model_cat(const model *m)
{
    return m->cat;
}

const char *model_name(const model *m)
{
    return cat_model_name(m->cat);
}

void model_set_pruning(model *m, bool on)
{
    m->prune = on && !m->jls04 && cat_model_generates_co(m->cat);
}

void model_set_cut_loops(model *m, bool on)
{
    m->cut_loops = on;
}

/* Process-wide, as --unroll is (ir_lower_unroll): a command sets it once
 * from its options, before any run. */
static model_budget budget = {MODEL_MAX_CANDIDATES_DEFAULT, MODEL_TIMEOUT_DEFAULT};

void model_set_budget(const model_budget *b)
{
    budget = *b;
}

model_budget model_get_budget(void)
{
    return budget;
}

const char *model_default_name(ir_arch arch)
{
    const isa *i = isa_of(arch);
    if (i)
        return i->model;
    switch (arch) {
    case IR_ARCH_C: return "rc11";
    case IR_ARCH_JAVA: return "jam21";
    default: return "sc";
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

bset *model_run(const model *m, const ir_test *t, diag *d)
{
    return model_run_observed(m, t, NULL, NULL, d);
}

bset *model_run_observed(const model *m, const ir_test *t, model_exec_fn fn, void *ctx, diag *d)
{
    bset *b = xcalloc(1, sizeof *b);
    uint64_t flags = 0;
    enum_observer obs = {fn, ctx};
    model_meter meter;
    model_meter_start(&meter, &budget, t->name, d);
    if (m->jls04) {
        if (!jls04_run(t, fn, ctx, &meter, b, d)) {
            bset_free(b);
            return NULL;
        }
        return b;
    }
    if (!enum_run(t, m->cat, m->prune, m->cut_loops, fn ? &obs : NULL, &meter, b, &flags, d)) {
        bset_free(b);
        return NULL;
    }
    /* herd lists *undef* first, then named flags in string order. */
    if (b->undef)
        bset_add_flag(b, "*undef*");
    int first = b->nflags;
    for (int i = 0; i < cat_model_nflags(m->cat) && i < 64; i++)
        if ((flags >> i) & 1)
            bset_add_flag(b, cat_model_flag_name(m->cat, i));
    if (b->nflags - first > 1)
        qsort(b->flags + first, (size_t)(b->nflags - first), sizeof *b->flags, cmp_str);
    return b;
}
