/* The reducer's candidates: one edit on a C litmus test (drop threads or
 * statements, weaken an order, rename a constant to a smaller one), then
 * the tidying every candidate gets (parameters no statement uses,
 * locations no thread names, condition atoms on registers or locations
 * that are gone), printed in herd's C syntax by the frontend's printer.
 *
 * The tree is edited in place and never has a node freed mid-edit: what
 * goes is moved past the end of its array and the array's count lowered,
 * and the counts are put back before fe_test_free, so the tree owns
 * everything it owned when parsed. */
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "hunt/internal.h"

typedef struct edit {
    fe_test *t;
    int **cnt;              /* counts lowered, and their first values, to put back */
    int *was;
    int ncnt;
    int *map;               /* old thread number -> new, -1 when dropped */
    int nmap;
    char **locs;            /* locations some thread of the parsed test names */
    int nlocs;
    char **used;            /* ... and those the edited test's threads name */
    int nused;
    bool changed;
} edit;

/* Lower *P to V, remembering its value to restore. */
static void lower_count(edit *e, int *p, int v)
{
    e->cnt = xrealloc(e->cnt, (size_t)(e->ncnt + 1) * sizeof *e->cnt);
    e->was = xrealloc(e->was, (size_t)(e->ncnt + 1) * sizeof *e->was);
    e->cnt[e->ncnt] = p;
    e->was[e->ncnt++] = *p;
    *p = v;
}

/* The N elements of ARR (SIZE bytes each) with those DROP marks after the
 * others, both in their order; returns how many are kept. */
static int partition(void *arr, size_t size, int n, const bool *drop)
{
    if (n == 0)
        return 0;
    char *a = arr, *tmp = xmalloc(size * (size_t)n);
    int k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++)
            if (drop[i] == (pass == 1))
                memcpy(tmp + size * (size_t)k++, a + size * (size_t)i, size);
    int kept = 0;
    for (int i = 0; i < n; i++)
        kept += !drop[i];
    memcpy(a, tmp, size * (size_t)n);
    free(tmp);
    return kept;
}

/* Is S among the N names of V? */
static bool in_list(char **v, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(v[i], s))
            return true;
    return false;
}

/* S added to the names V (borrowed, not copied) unless it is there. */
static void add_name(char ***v, int *n, const char *s)
{
    if (in_list(*v, *n, s))
        return;
    *v = xrealloc(*v, (size_t)(*n + 1) * sizeof **v);
    (*v)[(*n)++] = (char *)s;
}

/* ---- sites ---------------------------------------------------------------------- */

typedef struct sites {
    void **p;               /* statements (fe_stmt *) or calls (fe_expr *) */
    int n;
    int64_t *vals;          /* HUNT_RED_VALUE: the constants above 1, ascending */
    int nvals;
    hunt_red_kind k;
} sites;

/* One more place for an edit. */
static void add_site(sites *s, void *p)
{
    s->p = xrealloc(s->p, (size_t)(s->n + 1) * sizeof *s->p);
    s->p[s->n++] = p;
}

/* Every statement of a block is a place to drop. */
static void site_stmt(fe_stmt *st, fe_stmt *b, int i, void *ctx)
{
    (void)b, (void)i;
    add_site(ctx, st);
}

/* The order one step weaker than MO for call C (FE_MO_NONE: none is):
 * each kind of access keeps to the orders C11 gives it; acq_rel goes to
 * acquire, or to release when REL. */
static fe_mo weaker(fe_c_call c, fe_mo mo, bool rel)
{
    bool fence = c == FE_C_THREAD_FENCE;
    bool rmw = c == FE_C_EXCHANGE || (c >= FE_C_FETCH_ADD && c <= FE_C_CAS_WEAK);
    switch (mo) {
    case FE_MO_SEQ_CST:
        return c == FE_C_LOAD ? FE_MO_ACQUIRE : c == FE_C_STORE ? FE_MO_RELEASE : FE_MO_ACQ_REL;
    case FE_MO_ACQ_REL:
        return rel ? FE_MO_RELEASE : FE_MO_ACQUIRE;
    case FE_MO_ACQUIRE:
    case FE_MO_RELEASE:
    case FE_MO_CONSUME:
        /* a relaxed fence does nothing: dropping the statement says that */
        return fence || !(rmw || c == FE_C_LOAD || c == FE_C_STORE) ? FE_MO_NONE : FE_MO_RELAXED;
    default:
        return FE_MO_NONE;
    }
}

/* Can call X be weakened one step (for REL: acq_rel to release)? */
static bool weakenable(const fe_expr *x, bool rel)
{
    if (x->kind != FE_E_CCALL || x->ccall > FE_C_THREAD_FENCE)
        return false;
    if (rel && x->mo != FE_MO_ACQ_REL)
        return false;
    return weaker(x->ccall, x->mo, rel) != FE_MO_NONE;
}

/* Each call whose order can be weaker is a place. */
static void site_weak(fe_expr *x, void *ctx)
{
    sites *s = ctx;
    if (weakenable(x, s->k == HUNT_RED_WEAKEN_REL))
        add_site(s, x);
}

/* V added to the sorted set of values, once. */
static void add_val(sites *s, int64_t v)
{
    for (int i = 0; i < s->nvals; i++)
        if (s->vals[i] == v)
            return;
    s->vals = xrealloc(s->vals, (size_t)(s->nvals + 1) * sizeof *s->vals);
    int i = s->nvals++;
    for (; i > 0 && s->vals[i - 1] > v; i--)
        s->vals[i] = s->vals[i - 1];
    s->vals[i] = v;
}

/* Each constant above 1 is a place (0 and 1 are as small as values go). */
static void site_val(fe_expr *x, void *ctx)
{
    if (x->kind == FE_E_CONST && x->value > 1)
        add_val(ctx, x->value);
}

/* The places of kind K in T, in the order the edits number them. */
static void find_sites(fe_test *t, hunt_red_kind k, sites *s)
{
    memset(s, 0, sizeof *s);
    s->k = k;
    switch (k) {
    case HUNT_RED_THREAD:
        s->n = t->nthreads;
        break;
    case HUNT_RED_STMT:
        hunt_walk_threads(t, site_stmt, NULL, s);
        break;
    case HUNT_RED_WEAKEN:
    case HUNT_RED_WEAKEN_REL:
        hunt_walk_threads(t, NULL, site_weak, s);
        break;
    case HUNT_RED_VALUE:
        hunt_walk_threads(t, NULL, site_val, s);
        s->n = s->nvals;
        break;
    default:
        break;
    }
}

/* S's arrays (the places themselves belong to the tree). */
static void sites_free(sites *s)
{
    free(s->p);
    free(s->vals);
}

/* ---- the edits ------------------------------------------------------------------ */

/* A register of thread n becomes one of thread map[n] (-1: dropped). */
static void renumber_loc(edit *e, fe_loc *l)
{
    if (l->kind == FE_LOC_REG && !l->symbolic && l->thread >= 0 && l->thread < e->nmap)
        l->thread = e->map[l->thread];
}

/* Every location of P renumbered. */
static void renumber_prop(edit *e, fe_prop *p)
{
    if (!p)
        return;
    renumber_loc(e, &p->lhs);
    if (p->rhs_is_loc)
        renumber_loc(e, &p->rhs_loc);
    renumber_prop(e, p->l);
    renumber_prop(e, p->r);
}

/* Threads FROM.. FROM+COUNT-1 moved past the end, the rest renumbered
 * P0.. in their order, and every register location with them. */
static void drop_threads(edit *e, int from, int count)
{
    fe_test *t = e->t;
    bool *drop = xcalloc((size_t)t->nthreads, sizeof *drop);
    for (int i = from; i < from + count && i < t->nthreads; i++)
        drop[i] = true;
    for (int i = 0, k = 0; i < t->nthreads; i++)
        e->map[i] = drop[i] ? -1 : k++;
    int kept = partition(t->threads, sizeof *t->threads, t->nthreads, drop);
    for (int i = 0; i < kept; i++) {
        fe_thread *th = &t->threads[i];
        th->id = i;
        /* herd's C threads are P<n>: the new number is never longer */
        if (th->name && th->name[0] == 'P')
            snprintf(th->name, strlen(th->name) + 1, "P%d", i);
    }
    e->changed = kept < t->nthreads;
    lower_count(e, &t->nthreads, kept);
    free(drop);
    renumber_prop(e, t->cond.prop);
    renumber_prop(e, t->cond.filter);
    for (int i = 0; i < t->cond.nlocations; i++)
        renumber_loc(e, &t->cond.locations[i]);
    for (int i = 0; i < t->ninit; i++)
        renumber_loc(e, &t->init[i].loc);
}

typedef struct mark {
    fe_stmt **drop;
    int n;
} mark;

/* The statements of block B that M marks moved past its end. */
static void drop_in_block(edit *e, fe_stmt *b, const mark *m)
{
    bool *drop = xcalloc((size_t)(b->nbody ? b->nbody : 1), sizeof *drop);
    bool any = false;
    for (int i = 0; i < b->nbody; i++)
        for (int j = 0; j < m->n; j++)
            if (b->body[i] == m->drop[j])
                drop[i] = any = true;
    if (any) {
        int kept = partition(b->body, sizeof *b->body, b->nbody, drop);
        lower_count(e, &b->nbody, kept);
        e->changed = true;
    }
    free(drop);
}

typedef struct drop_ctx {
    fe_stmt **blocks;
    int nblocks;
} drop_ctx;

/* Each block that holds statements, once (at its first). */
static void blocks_of(fe_stmt *s, fe_stmt *b, int i, void *ctx)
{
    (void)s;
    drop_ctx *c = ctx;
    if (i == 0) {
        c->blocks = xrealloc(c->blocks, (size_t)(c->nblocks + 1) * sizeof *c->blocks);
        c->blocks[c->nblocks++] = b;
    }
}

/* Statements FROM.. FROM+COUNT-1 (numbered as find_sites does) dropped. */
static void drop_stmts(edit *e, const sites *s, int from, int count)
{
    mark m = {.drop = (fe_stmt **)s->p + from, .n = count};
    drop_ctx c = {0};
    /* every block that has statements, found before any is changed */
    hunt_walk_threads(e->t, blocks_of, NULL, &c);
    for (int i = 0; i < c.nblocks; i++)
        drop_in_block(e, c.blocks[i], &m);
    free(c.blocks);
}

/* Calls FROM.. FROM+COUNT-1 a step weaker, written _explicit. */
static void weaken(edit *e, const sites *s, int from, int count, bool rel)
{
    static const fe_mo fail_cap[] = {
        [FE_MO_RELAXED] = FE_MO_RELAXED, [FE_MO_CONSUME] = FE_MO_CONSUME, [FE_MO_ACQUIRE] = FE_MO_ACQUIRE,
        [FE_MO_RELEASE] = FE_MO_RELAXED, [FE_MO_ACQ_REL] = FE_MO_ACQUIRE, [FE_MO_SEQ_CST] = FE_MO_SEQ_CST,
    };
    for (int i = from; i < from + count; i++) {
        fe_expr *x = s->p[i];
        fe_mo mo = weaker(x->ccall, x->mo, rel);
        x->mo = mo;
        x->explicit_form = true;
        /* a failure order is never release nor stronger than the success one */
        if (x->ccall == FE_C_CAS_STRONG || x->ccall == FE_C_CAS_WEAK) {
            fe_mo f = x->mo_fail == FE_MO_NONE ? FE_MO_SEQ_CST : x->mo_fail;
            x->mo_fail = f < fail_cap[mo] ? f : fail_cap[mo];
        }
        e->changed = true;
    }
}

/* ---- tidying --------------------------------------------------------------------- */

typedef struct names_ctx {
    char **v;
    int n;
    bool decls;             /* registers declared, rather than names read */
} names_ctx;

/* The names a thread's expressions read (its parameters among them). */
static void name_expr(fe_expr *x, void *ctx)
{
    names_ctx *c = ctx;
    if (!c->decls && x->kind == FE_E_REG && x->name)
        add_name(&c->v, &c->n, x->name);
}

/* The registers a thread declares. */
static void name_stmt(fe_stmt *s, fe_stmt *b, int i, void *ctx)
{
    (void)b, (void)i;
    names_ctx *c = ctx;
    if (c->decls && s->kind == FE_S_DECL && s->name)
        add_name(&c->v, &c->n, s->name);
}

/* The parameters thread TH's statements never name, dropped; the names
 * of the rest added to E->used. */
static void tidy_params(edit *e, fe_thread *th)
{
    names_ctx c = {0};
    if (th->body)
        hunt_walk_block(th->body, NULL, name_expr, &c);
    bool *drop = xcalloc((size_t)(th->nparams ? th->nparams : 1), sizeof *drop);
    for (int p = 0; p < th->nparams; p++) {
        drop[p] = !in_list(c.v, c.n, th->params[p].name);
        if (!drop[p])
            add_name(&e->used, &e->nused, th->params[p].name);
    }
    int kept = partition(th->params, sizeof *th->params, th->nparams, drop);
    if (kept < th->nparams)
        lower_count(e, &th->nparams, kept);
    free(drop);
    free(c.v);
}

/* Is location L gone: a register of a dropped thread or one its thread no
 * longer declares, or a location the threads named and no longer do? */
static bool loc_gone(const edit *e, const fe_loc *l)
{
    if (l->kind == FE_LOC_REG) {
        if (l->symbolic)
            return false;
        if (l->thread < 0 || l->thread >= e->t->nthreads)
            return true;
        names_ctx c = {.decls = true};
        if (e->t->threads[l->thread].body)
            hunt_walk_block(e->t->threads[l->thread].body, name_stmt, NULL, &c);
        bool gone = !in_list(c.v, c.n, l->name);
        free(c.v);
        return gone;
    }
    return in_list(e->locs, e->nlocs, l->name) && !in_list(e->used, e->nused, l->name);
}

/* Is condition atom P on nothing gone (the printer's keep-predicate)? */
static bool atom_kept(const fe_prop *p, void *ctx)
{
    const edit *e = ctx;
    return !loc_gone(e, &p->lhs) && !(p->rhs_is_loc && loc_gone(e, &p->rhs_loc));
}

/* A call's default order written out: herd7 7.57 reads the _explicit
 * forms only (it calls atomic_store(x,1) an unknown procedure), and the
 * order is the same seq_cst. */
static void explicit(fe_expr *x, void *ctx)
{
    (void)ctx;
    if (x->kind == FE_E_CCALL && x->ccall < FE_C_SPIN_LOCK && !x->explicit_form)
        x->explicit_form = true;
}

/* What an edit leaves unused goes: parameters, init items, entries of
 * `locations`; every call is written in its _explicit form. */
static void tidy(edit *e)
{
    fe_test *t = e->t;
    hunt_walk_threads(t, NULL, explicit, NULL);
    for (int n = 0; n < t->nthreads; n++)
        tidy_params(e, &t->threads[n]);
    bool *drop = xcalloc((size_t)(t->ninit ? t->ninit : 1), sizeof *drop);
    for (int i = 0; i < t->ninit; i++) {
        const fe_init *it = &t->init[i];
        drop[i] = loc_gone(e, &it->loc) && !it->array_size &&
                  (!it->has_value || it->value.kind == FE_VAL_INT);
    }
    int kept = partition(t->init, sizeof *t->init, t->ninit, drop);
    if (kept < t->ninit)
        lower_count(e, &t->ninit, kept);
    free(drop);
    drop = xcalloc((size_t)(t->cond.nlocations ? t->cond.nlocations : 1), sizeof *drop);
    for (int i = 0; i < t->cond.nlocations; i++)
        drop[i] = loc_gone(e, &t->cond.locations[i]);
    kept = partition(t->cond.locations, sizeof *t->cond.locations, t->cond.nlocations, drop);
    if (kept < t->cond.nlocations)
        lower_count(e, &t->cond.nlocations, kept);
    free(drop);
}

/* The edited test: the frontend prints all but the condition (given as
 * `exists (true)` and cut off), which reduce_cond.c prints without the
 * atoms that are gone. */
static char *print_edited(edit *e)
{
    fe_test *t = e->t;
    fe_cond keep = t->cond;
    /* the doc string and info lines (Orig=, Com=, ...) describe the test
     * before reduction: the reduced one goes without them */
    char *doc = t->doc;
    t->doc = NULL;
    lower_count(e, &t->ninfo, 0);
    fe_prop truth = {.kind = FE_P_TRUE};
    t->cond.prop = &truth;
    t->cond.filter = NULL;
    t->cond.nlocations = 0;
    t->cond.quant = FE_Q_EXISTS;
    char *head = fe_print(t);
    t->cond = keep;
    t->doc = doc;
    strbuf b = {0};
    const char *tail = "exists (true)\n";
    size_t hl = strlen(head), tl = strlen(tail);
    sb_addn(&b, head, hl >= tl && !strcmp(head + hl - tl, tail) ? hl - tl : hl);
    free(head);
    hunt_red_print_cond(&b, t, atom_kept, e);
    return sb_take(&b);
}

char *hunt_red_edit(const char *text, hunt_red_kind k, int from, int count)
{
    diag d = {0};
    fe_test *t = fe_parse(text, strlen(text), "reduce.litmus", &d);
    if (!t)
        return NULL;
    if (t->arch != FE_ARCH_C) {
        fe_test_free(t);
        return NULL;
    }
    edit e = {.t = t, .nmap = t->nthreads};
    e.map = xmalloc(sizeof *e.map * (size_t)(t->nthreads ? t->nthreads : 1));
    for (int i = 0; i < t->nthreads; i++) {
        e.map[i] = i;
        for (int p = 0; p < t->threads[i].nparams; p++)
            add_name(&e.locs, &e.nlocs, t->threads[i].params[p].name);
    }
    sites s;
    find_sites(t, k, &s);
    if (from < 0 || count < 0 || from + count > s.n)
        count = 0;
    if (count > 0) {
        switch (k) {
        case HUNT_RED_THREAD: drop_threads(&e, from, count); break;
        case HUNT_RED_STMT: drop_stmts(&e, &s, from, count); break;
        case HUNT_RED_WEAKEN: weaken(&e, &s, from, count, false); break;
        case HUNT_RED_WEAKEN_REL: weaken(&e, &s, from, count, true); break;
        case HUNT_RED_VALUE:
            for (int i = from; i < from + count; i++)
                e.changed |= hunt_red_shrink_value(t, s.vals[i]);
            break;
        default: break;
        }
    }
    char *out = NULL;
    if ((e.changed || count == 0) && t->nthreads > 0) {
        tidy(&e);
        /* a test whose condition lost every atom observes nothing the bug
         * could be named by: the predicate's comparison of state sets may
         * still differ there, and reduction would slip into it */
        if (hunt_red_cond_kept(t, atom_kept, &e))
            out = print_edited(&e);
    }
    for (int i = e.ncnt - 1; i >= 0; i--)
        *e.cnt[i] = e.was[i];
    sites_free(&s);
    free(e.cnt), free(e.was), free(e.map), free(e.locs), free(e.used);
    fe_test_free(t);
    return out;
}

int hunt_red_sites(const char *text, hunt_red_kind k)
{
    diag d = {0};
    fe_test *t = fe_parse(text, strlen(text), "reduce.litmus", &d);
    if (!t)
        return 0;
    sites s;
    find_sites(t, k, &s);
    int n = s.n;
    sites_free(&s);
    fe_test_free(t);
    return n;
}
