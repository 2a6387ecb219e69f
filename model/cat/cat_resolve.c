/* Name resolution for cat models, done once per model so that evaluation
 * never looks a name up: every variable becomes a global slot or a
 * (frame, slot) pair, includes are inlined into one instruction list,
 * variant tests pick their branch, and two analyses run:
 *   - liveness: a top-level `let` that no check needs is never evaluated
 *     (herd's bindings are lazy, so unused ones cost nothing there either);
 *   - candidate dependence: a value that depends only on the events and po
 *     is computed once per event structure rather than once per candidate. */
#include <stdlib.h>
#include <string.h>
#include "model/cat/cat_impl.h"
#include "util/mem.h"

/* A name in scope.  UNBOUND is set for a lazy binding whose right-hand side
 * names a variable that is not bound (res_binds): it points at that name. */
typedef struct sc_ent { const char *name; int level, slot; const cat_expr *unbound; } sc_ent;

typedef struct resolver {
    cat_model *m;
    diag *d;
    sc_ent *sc;
    size_t nsc, capsc;
    int level;              /* 0: top level; k: inside k nested functions */
    int frame_slots;        /* slots used in the current function frame */
    size_t nglob_cap;
    const char *incstack[32];
    int ninc;
    int in_try;             /* inside the first operand of a `try` */
    bool unbound_in_try;
    bool in_proc;           /* inside a procedure body */
    int in_lazy;            /* inside the right-hand side of a top-level `let` */
    const cat_expr *unbound_var;    /* the unbound name met there, if any */
    cat_expr **dead;        /* right-hand sides set aside by res_binds */
    size_t ndead, capdead;
    const cat_ins **top;
    size_t ntop, captop;
} resolver;

static bool rerr(resolver *rs, const char *file, int line, int col, const char *fmt, const char *a)
{
    char msg[DIAG_MSG_MAX];
    snprintf(msg, sizeof msg, fmt, a);
    return diag_error(rs->d, file, line, col, "%s", msg);
}

static int new_slot(resolver *rs)
{
    if (rs->level > 0) return rs->frame_slots++;
    cat_model *m = rs->m;
    if ((size_t)m->nglobals == rs->nglob_cap) {
        rs->nglob_cap = rs->nglob_cap ? 2 * rs->nglob_cap : 256;
        m->global_dyn = xrealloc(m->global_dyn, rs->nglob_cap * sizeof *m->global_dyn);
    }
    m->global_dyn[m->nglobals] = false;
    return m->nglobals++;
}

static void bind_name(resolver *rs, const char *name, int slot)
{
    sc_ent e = {name, rs->level, slot, NULL};
    VEC_PUSH(rs->sc, rs->nsc, rs->capsc, e);
}

static sc_ent *lookup(resolver *rs, const char *name)
{
    for (size_t i = rs->nsc; i-- > 0;)
        if (!strcmp(rs->sc[i].name, name)) return &rs->sc[i];
    return NULL;
}

/* Slots for a pattern's names, bound in the current scope. */
static void bind_pat(resolver *rs, cat_pat *pt)
{
    free(pt->slots);
    pt->slots = xcalloc((size_t)(pt->n ? pt->n : 1), sizeof *pt->slots);
    for (int k = 0; k < pt->n; k++) {
        pt->slots[k] = new_slot(rs);
        if (pt->names[k]) bind_name(rs, pt->names[k], pt->slots[k]);
    }
}

static int find_tag(cat_model *m, const char *name)
{
    for (int i = 0; i < m->ntags; i++)
        if (!strcmp(m->tags[i], name)) return i;
    return -1;
}

static bool res_expr(resolver *rs, cat_expr *e);

static bool res_fun(resolver *rs, cat_fun *f)
{
    int saved_slots = rs->frame_slots;
    size_t mark = rs->nsc;
    rs->level++;
    rs->frame_slots = 0;
    bind_pat(rs, &f->params);
    bool ok = res_expr(rs, f->body);
    f->nslots = rs->frame_slots;
    rs->level--;
    rs->frame_slots = saved_slots;
    rs->nsc = mark;
    return ok;
}

/* A `let` (or `let rec`) group: bind after (or before) resolving the
 * right-hand sides.  Returns whether any right-hand side depends on the
 * candidate. */
static bool res_binds(resolver *rs, cat_bind *b, int nb, bool rec, bool *dyn)
{
    *dyn = false;
    if (rec)
        for (int k = 0; k < nb; k++) bind_pat(rs, &b[k].pat);
    /* herd's top-level bindings are lazy: a right-hand side naming a variable
     * that is not bound is an error only where the binding is used (herd's
     * c11_cos.cat binds `coi = coi` beside names its models use).  Such a
     * binding becomes the empty relation, never read: a use of its name
     * reports the unbound one. */
    bool lazy = !rec && rs->level == 0 && !rs->in_proc && !rs->in_try;
    const cat_expr **unbound = xcalloc((size_t)nb + 1, sizeof *unbound);
    for (int k = 0; k < nb; k++) {
        if (lazy) rs->unbound_var = NULL;
        rs->in_lazy += lazy;
        bool ok = res_expr(rs, b[k].e);
        rs->in_lazy -= lazy;
        if (!ok && lazy && rs->unbound_var) {
            unbound[k] = rs->unbound_var;
            VEC_PUSH(rs->dead, rs->ndead, rs->capdead, b[k].e);
            cat_expr *zero = xcalloc(1, sizeof *zero);
            zero->op = CE_ZERO;
            zero->file = b[k].e->file;
            zero->line = b[k].e->line;
            zero->col = b[k].e->col;
            b[k].e = zero;
            rs->unbound_var = NULL;
            ok = true;
        }
        if (!ok) { free(unbound); return false; }
        *dyn |= b[k].e->dyn;
    }
    if (!rec)
        for (int k = 0; k < nb; k++) {
            size_t first = rs->nsc;
            bind_pat(rs, &b[k].pat);
            for (size_t i = first; i < rs->nsc; i++) rs->sc[i].unbound = unbound[k];
        }
    free(unbound);
    if (rs->level == 0) {
        for (int k = 0; k < nb; k++)
            for (int j = 0; j < b[k].pat.n; j++) rs->m->global_dyn[b[k].pat.slots[j]] = *dyn;
    }
    return true;
}

static bool res_expr(resolver *rs, cat_expr *e)
{
    if (!e) return true;
    e->dyn = false;
    switch (e->op) {
    case CE_VAR: {
        sc_ent *s = lookup(rs, e->name);
        const cat_expr *missing = !s ? e : s->unbound;
        if (missing) {
            if (rs->in_try) { rs->unbound_in_try = true; return false; }
            if (rs->in_lazy) { rs->unbound_var = missing; return false; }
            return rerr(rs, missing->file, missing->line, missing->col, "unbound name '%s'", missing->name);
        }
        e->slot = s->slot;
        e->glob = s->level == 0;
        if (e->glob && s->slot >= CB_LK && s->slot <= CB_UL) rs->m->handles_locks = true;
        e->up = e->glob ? 0 : rs->level - s->level;
        if (e->glob) e->dyn = rs->m->global_dyn[e->slot];
        return true;
    }
    case CE_TAG:
        e->tag = find_tag(rs->m, e->name);
        if (e->tag < 0) return rerr(rs, e->file, e->line, e->col, "tag '%s is not declared (use enum)", e->name);
        return true;
    case CE_FUN: {
        bool ok = res_fun(rs, e->fun);
        e->dyn = e->fun->body->dyn;
        return ok;
    }
    case CE_LET: case CE_LETREC: {
        size_t mark = rs->nsc;
        bool dyn;
        bool ok = res_binds(rs, e->binds, e->nbinds, e->op == CE_LETREC, &dyn) && res_expr(rs, e->kids[0]);
        e->dyn = dyn || (ok && e->kids[0]->dyn);
        rs->nsc = mark;
        return ok;
    }
    case CE_TRY: {
        /* An unbound name in the first operand selects the fallback for
         * good (herd: `try X with {}` where X is not defined). */
        rs->in_try++;
        bool saved = rs->unbound_in_try;
        rs->unbound_in_try = false;
        size_t mark = rs->nsc;
        bool ok = res_expr(rs, e->kids[0]);
        rs->nsc = mark;
        rs->in_try--;
        if (!ok) {
            if (!rs->unbound_in_try) { rs->unbound_in_try = saved; return false; }
            cat_expr_free(e->kids[0]);
            e->kids[0] = NULL;
        }
        rs->unbound_in_try = saved;
        int save_try = rs->in_try;
        rs->in_try = 0;
        ok = res_expr(rs, e->kids[1]);
        rs->in_try = save_try;
        e->dyn = (e->kids[0] && e->kids[0]->dyn) || (ok && e->kids[1]->dyn);
        return ok;
    }
    case CE_IF:
        if (e->cond != CC_VARIANT) {
            if (!res_expr(rs, e->cond_l) || !res_expr(rs, e->cond_r)) return false;
            e->dyn = e->cond_l->dyn || e->cond_r->dyn;
        }
        break;
    case CE_MATCH:
        for (int k = 0; k < e->ntags; k++)
            if (find_tag(rs->m, e->tags[k]) < 0)
                return rerr(rs, e->file, e->line, e->col, "tag '%s is not declared (use enum)", e->tags[k]);
        break;
    case CE_MATCHSET: {
        if (!res_expr(rs, e->kids[0]) || !res_expr(rs, e->kids[1])) return false;
        size_t mark = rs->nsc;
        e->elt_slot = new_slot(rs);
        e->rest_slot = new_slot(rs);
        if (e->elt_name) bind_name(rs, e->elt_name, e->elt_slot);
        if (e->rest_name) bind_name(rs, e->rest_name, e->rest_slot);
        bool ok = res_expr(rs, e->kids[2]);
        rs->nsc = mark;
        e->dyn = e->kids[0]->dyn || e->kids[1]->dyn || (ok && e->kids[2]->dyn);
        return ok;
    }
    default:
        break;
    }
    for (int k = 0; k < e->nkids; k++) {
        if (!res_expr(rs, e->kids[k])) return false;
        if (e->kids[k]) e->dyn |= e->kids[k]->dyn;
    }
    return true;
}

static bool res_ins_list(resolver *rs, cat_ins *ins, int n, bool toplevel, const char *path);

static bool add_top(resolver *rs, const cat_ins *in)
{
    VEC_PUSH(rs->top, rs->ntop, rs->captop, in);
    return true;
}

static bool do_include(resolver *rs, cat_ins *in, const char *from)
{
    if (rs->in_proc || rs->level > 0)
        return rerr(rs, in->file, in->line, in->col, "'include \"%s\"' is only allowed at the top level", in->name);
    for (int k = 0; k < rs->ninc; k++)
        if (rs->incstack[k] && !strcmp(rs->incstack[k], in->name))
            return rerr(rs, in->file, in->line, in->col, "'%s' includes itself", in->name);
    if (rs->ninc >= (int)(sizeof rs->incstack / sizeof rs->incstack[0]))
        return rerr(rs, in->file, in->line, in->col, "includes nested too deeply at '%s'", in->name);
    char *text, *path;
    if (!cat_find_include(in->name, from, &text, &path))
        return rerr(rs, in->file, in->line, in->col, "cannot find included file '%s'", in->name);
    const char *file = cat_model_intern_file(rs->m, path);
    free(path);
    cat_file *f = xcalloc(1, sizeof *f);
    bool ok = cat_parse(text, file, f, rs->d);
    free(text);
    if (!ok) { free(f); return false; }
    cat_model *m = rs->m;
    m->parsed = xrealloc(m->parsed, (size_t)(m->nparsed + 1) * sizeof *m->parsed);
    m->parsed[m->nparsed++] = f;
    rs->incstack[rs->ninc++] = in->name;
    ok = res_ins_list(rs, f->ins, f->nins, true, file);
    rs->ninc--;
    return ok;
}

static int flag_index(cat_model *m, const char *name)
{
    for (int i = 0; i < m->nflags; i++)
        if (!strcmp(m->flags[i], name)) return i;
    m->flags = xrealloc(m->flags, (size_t)(m->nflags + 1) * sizeof *m->flags);
    m->flags[m->nflags] = xstrdup(name);
    return m->nflags++;
}

/* A body of instructions (procedure, forall, match case) in its own scope. */
static bool res_body(resolver *rs, cat_ins *ins, int n, const char *path)
{
    size_t mark = rs->nsc;
    bool ok = res_ins_list(rs, ins, n, false, path);
    rs->nsc = mark;
    return ok;
}

static bool res_ins(resolver *rs, cat_ins *in, bool toplevel, const char *path)
{
    cat_model *m = rs->m;
    bool dyn;
    switch (in->op) {
    case CI_LET: case CI_LETREC:
        if (!res_binds(rs, in->binds, in->nbinds, in->op == CI_LETREC, &dyn)) return false;
        break;
    case CI_TEST:
        if (!res_expr(rs, in->e)) return false;
        if (in->ttype == CTT_FLAG) {
            if (m->nflags >= 64 && flag_index(m, in->name) >= 64)
                return rerr(rs, in->file, in->line, in->col, "too many flags (at '%s')", in->name);
            in->flag_index = flag_index(m, in->name);
        }
        break;
    case CI_WITH:
        if (!toplevel || rs->in_proc)
            return rerr(rs, in->file, in->line, in->col, "'with %s from' is only supported at the top level", in->name);
        if (!res_expr(rs, in->e)) return false;
        in->slot = new_slot(rs);
        in->glob = true;
        m->global_dyn[in->slot] = true;
        bind_name(rs, in->name, in->slot);
        if (!strcmp(in->name, "co")) {
            m->generates_co = true;
            m->co_slot = in->slot;
        }
        break;
    case CI_PROC: {
        /* Procedures are recursive in herd only with `procedure rec`; binding
         * the name first is harmless for non-recursive ones. */
        in->slot = new_slot(rs);
        in->glob = rs->level == 0;
        bind_name(rs, in->name, in->slot);
        int saved_slots = rs->frame_slots;
        size_t mark = rs->nsc;
        bool saved_proc = rs->in_proc;
        rs->level++;
        rs->frame_slots = 0;
        rs->in_proc = true;
        bind_pat(rs, &in->params);
        bool ok = res_body(rs, in->body[0], in->nbody[0], path);
        in->nslots = rs->frame_slots;
        rs->level--;
        rs->frame_slots = saved_slots;
        rs->in_proc = saved_proc;
        rs->nsc = mark;
        if (!ok) return false;
        if (in->glob) m->global_dyn[in->slot] = true;   /* calls are never cached */
        break;
    }
    case CI_CALL: {
        sc_ent *s = lookup(rs, in->name);
        if (!s) return rerr(rs, in->file, in->line, in->col, "unbound procedure '%s'", in->name);
        in->slot = s->slot;
        in->glob = s->level == 0;
        in->up = in->glob ? 0 : rs->level - s->level;
        if (!res_expr(rs, in->e)) return false;
        break;
    }
    case CI_FORALL: {
        if (!res_expr(rs, in->e)) return false;
        size_t mark = rs->nsc;
        in->slot = new_slot(rs);
        in->glob = rs->level == 0;
        if (in->glob) m->global_dyn[in->slot] = true;
        bind_name(rs, in->name, in->slot);
        bool ok = res_body(rs, in->body[0], in->nbody[0], path);
        rs->nsc = mark;
        if (!ok) return false;
        break;
    }
    case CI_MATCH:
        if (!res_expr(rs, in->e)) return false;
        for (int k = 0; k < in->ntags; k++)
            if (find_tag(m, in->tags[k]) < 0)
                return rerr(rs, in->file, in->line, in->col, "tag '%s is not declared (use enum)", in->tags[k]);
        for (int b = 0; b < in->nbodies; b++)
            if (!res_body(rs, in->body[b], in->nbody[b], path)) return false;
        break;
    case CI_INCLUDE:
        return do_include(rs, in, path);
    case CI_IFVARIANT: {
        int b = in->variant_value ? 0 : 1;
        return res_ins_list(rs, in->body[b], in->nbody[b], toplevel, path);
    }
    case CI_ENUM: {
        cat_val dummy;
        (void)dummy;
        for (int k = 0; k < in->ntags; k++)
            if (find_tag(m, in->tags[k]) < 0) {
                m->tags = xrealloc(m->tags, (size_t)(m->ntags + 1) * sizeof *m->tags);
                m->tags[m->ntags++] = xstrdup(in->tags[k]);
            }
        /* The enum's name is the set of its tags: bound as a global. */
        in->slot = new_slot(rs);
        in->glob = rs->level == 0;
        bind_name(rs, in->name, in->slot);
        break;
    }
    case CI_NOP:
        return true;
    }
    if (toplevel) add_top(rs, in);
    return true;
}

static bool res_ins_list(resolver *rs, cat_ins *ins, int n, bool toplevel, const char *path)
{
    for (int k = 0; k < n; k++) {
        cat_ins *in = &ins[k];
        if (!toplevel && (in->op == CI_INCLUDE))
            return rerr(rs, in->file, in->line, in->col, "'include \"%s\"' is only allowed at the top level", in->name);
        if (!res_ins(rs, in, toplevel, path)) return false;
        /* Nested bodies are evaluated through their parent, not from the top list. */
    }
    return true;
}

/* ---- liveness ---------------------------------------------------------------------- */
static void refs_expr(const cat_expr *e, bool *live);

static void refs_binds(const cat_bind *b, int nb, bool *live)
{
    for (int k = 0; k < nb; k++) refs_expr(b[k].e, live);
}

static void refs_expr(const cat_expr *e, bool *live)
{
    if (!e) return;
    if (e->op == CE_VAR && e->glob) live[e->slot] = true;
    for (int k = 0; k < e->nkids; k++) refs_expr(e->kids[k], live);
    if (e->fun) refs_expr(e->fun->body, live);
    refs_binds(e->binds, e->nbinds, live);
    refs_expr(e->cond_l, live);
    refs_expr(e->cond_r, live);
}

static void refs_ins(const cat_ins *in, bool *live)
{
    refs_binds(in->binds, in->nbinds, live);
    refs_expr(in->e, live);
    if (in->op == CI_CALL && in->glob) live[in->slot] = true;
    for (int b = 0; b < in->nbodies; b++)
        for (int k = 0; k < in->nbody[b]; k++) refs_ins(&in->body[b][k], live);
}

static bool defines_live(const cat_ins *in, const bool *live)
{
    switch (in->op) {
    case CI_LET: case CI_LETREC:
        for (int k = 0; k < in->nbinds; k++)
            for (int j = 0; j < in->binds[k].pat.n; j++)
                if (live[in->binds[k].pat.slots[j]]) return true;
        return false;
    case CI_PROC: case CI_ENUM:
        return live[in->slot];
    default:
        return true;    /* checks, with, forall, call, match */
    }
}

void cat_liveness(const cat_model *m, const int *roots, int nroots, bool *out)
{
    bool *live = xcalloc((size_t)m->nglobals + 1, sizeof *live);
    for (int k = 0; k < nroots; k++)
        if (roots[k] >= 0 && roots[k] < m->nglobals) live[roots[k]] = true;
    for (int i = m->ntop; i-- > 0;) {
        const cat_ins *in = m->top[i];
        out[i] = defines_live(in, live);
        if (out[i]) refs_ins(in, live);
    }
    free(live);
}

static void compute_liveness(cat_model *m)
{
    bool *live = xcalloc((size_t)m->ntop + 1, sizeof *live);
    cat_liveness(m, NULL, 0, live);
    for (int i = 0; i < m->ntop; i++) ((cat_ins *)m->top[i])->live = live[i];
    free(live);
}

/* The names bound at the top level when the model ends (the last binding
 * of a name wins, as in herd's final environment), for cat_show.c. */
static void keep_top_names(cat_model *m, const resolver *rs)
{
    m->top_names = xcalloc(rs->nsc + 1, sizeof *m->top_names);
    m->top_slots = xcalloc(rs->nsc + 1, sizeof *m->top_slots);
    for (size_t i = rs->nsc; i-- > 0;) {
        if (rs->sc[i].level != 0) continue;
        if (rs->sc[i].unbound) continue;
        bool seen = false;
        for (int k = 0; k < m->ntop_names && !seen; k++) seen = !strcmp(m->top_names[k], rs->sc[i].name);
        if (seen) continue;
        m->top_names[m->ntop_names] = xstrdup(rs->sc[i].name);
        m->top_slots[m->ntop_names++] = rs->sc[i].slot;
    }
}

bool cat_resolve(cat_model *m, cat_file *main_file, const char *main_path, diag *d)
{
    resolver rs;
    memset(&rs, 0, sizeof rs);
    rs.m = m;
    rs.d = d;
    m->co_slot = -1;
    for (int b = 0; b < CB_COUNT; b++) {
        int s = new_slot(&rs);
        bind_name(&rs, cat_builtin_name(b), s);
        m->global_dyn[s] = !cat_builtin_static(b);
    }
    /* herd runs its standard library before every model. */
    cat_ins std;
    memset(&std, 0, sizeof std);
    std.op = CI_INCLUDE;
    std.name = (char *)"stdlib.cat";
    std.file = main_path ? main_path : "<model>";
    bool ok = do_include(&rs, &std, NULL);
    const char *file = main_path ? cat_model_intern_file(m, main_path) : "<model>";
    m->parsed = xrealloc(m->parsed, (size_t)(m->nparsed + 1) * sizeof *m->parsed);
    m->parsed[m->nparsed++] = main_file;
    if (ok) {
        rs.incstack[rs.ninc++] = main_path;
        ok = res_ins_list(&rs, main_file->ins, main_file->nins, true, file);
    }
    if (ok) keep_top_names(m, &rs);
    free(rs.sc);
    for (size_t i = 0; i < rs.ndead; i++) cat_expr_free(rs.dead[i]);
    free(rs.dead);
    if (!ok) { free(rs.top); return false; }
    m->top = rs.top;
    m->ntop = (int)rs.ntop;
    compute_liveness(m);
    return true;
}
