/* What x86 hardware can show of a C or Java test: the states of its x86
 * compilation under x86-TSO, in the source's terms.  check-scheme compares
 * them with the source model's; `run --target c11` on an x86 machine
 * counts its coverage against them too, since the compiler maps the test's
 * atomics the way the arch's default scheme does (c11-x86-xchg: relaxed,
 * acquire and release accesses are plain moves, seq_cst stores and RMWs
 * locked or fenced), so a state the source model allows but the
 * compilation cannot reach (rc11's MP+rlx weak state) is one no run on
 * this machine will ever show. */
#include <stdlib.h>
#include <string.h>
#include "backends/x86/x86.h"
#include "backends/x86native/x86native.h"
#include "harness/harness.h"
#include "isa/isa.h"
#include "model/bset_build.h"
#include "model/exec.h"
#include "util/mem.h"

/* Index of the observable of B that shows source observable O of test
 * SRC: the same one, or (BY_MAP) its x86 register under P's map, or the
 * location of the same name. -1 if none. */
static int find_obs(const bset *b, const ir_test *bt, const ir_obs *o, const ir_test *src, const x86_prog *p,
                    bool by_map)
{
    for (int j = 0; j < b->nobs; j++) {
        const ir_obs *q = &b->obs[j];
        if (!by_map) {
            if (ir_obs_equal(o, q))
                return j;
        } else if (o->kind == IR_OBS_MEM && q->kind == IR_OBS_MEM) {
            if (!strcmp(src->locs[o->loc].name, bt->locs[q->loc].name))
                return j;
        } else if (o->kind == IR_OBS_REG && q->kind == IR_OBS_REG && q->thread == o->thread && q->reg) {
            x86_reg r = x86_prog_lookup(p, o->thread, o->reg);
            if (r != X86_NOREG && !strcmp(q->reg, x86_prog_reg_name(p, r)))
                return j;
        }
    }
    return -1;
}

/* Where each of BS's observables (SRC's) is in the states of B (the
 * compiled test BT's), by find_obs; NULL + diag when one is missing. */
static int *obs_positions(const bset *bs, const bset *b, const ir_test *bt, const ir_test *src, const x86_prog *p,
                          bool by_map, diag *d)
{
    int *idx = xcalloc((size_t)bs->nobs + 1, sizeof *idx);
    for (int i = 0; i < bs->nobs; i++)
        if ((idx[i] = find_obs(b, bt, &bs->obs[i], src, p, by_map)) < 0) {
            free(idx);
            diag_fail(d, "internal error: %s: the compiled test does not show every source observable", src->name);
            return NULL;
        }
    return idx;
}

bset *harness_project_states(const bset *bs, const bset *b, const ir_test *bt, const ir_test *src, const x86_prog *p,
                             bool by_map, diag *d)
{
    int *idx = obs_positions(bs, b, bt, src, p, by_map, d);
    if (!idx)
        return NULL;
    /* the accumulator copies the observables and sorts as herd does */
    bset *r = xcalloc(1, sizeof *r);
    bset_acc acc;
    bset_acc_init(&acc, r, bs->obs, bs->nobs);
    ir_val *v = xcalloc((size_t)bs->nobs + 1, sizeof *v);
    for (int k = 0; k < b->nstates; k++) {
        for (int i = 0; i < bs->nobs; i++)
            v[i] = b->states[k].vals[idx[i]];
        bset_acc_add(&acc, v, b->states[k].cond, 0);
    }
    bset_acc_finish(&acc);
    free(v);
    free(idx);
    return r;
}

/* The states K of B with KEEP[K], in B's order, as a bset of their own. */
static bset *states_kept(const bset *b, const bool *keep)
{
    bset *r = xcalloc(1, sizeof *r);
    bset_acc acc;
    bset_acc_init(&acc, r, b->obs, b->nobs);
    for (int k = 0; k < b->nstates; k++)
        if (keep[k])
            bset_acc_add(&acc, b->states[k].vals, b->states[k].cond, 0);
    bset_acc_finish(&acc);
    return r;
}

/* T compiled through a scheme and the compilation's behaviour set under
 * x86tso: what both the reachable states and the x86 runner's schedules
 * are read off, compiled and run once. */
typedef struct x86_compiled {
    x86_prog *p;
    bset *bt;
} x86_compiled;

/* Compile T through SCHEME (NULL: its arch's default) and run X86TSO on
 * the result; false + diag when it does not compile. */
static bool compile_for_x86(const ir_test *t, const model *x86tso, const char *scheme, x86_compiled *c, diag *d)
{
    memset(c, 0, sizeof *c);
    const char *name = scheme ? scheme : x86native_default_scheme(t->arch);
    if (!name)
        return diag_fail(d, "%s: no x86 scheme for %s tests", t->name, ir_arch_name(t->arch)), false;
    x86_scheme *s = x86_scheme_load(name, d);
    c->p = s ? x86_compile(t, s, d) : NULL;
    x86_scheme_free(s);
    c->bt = c->p ? model_run(x86tso, c->p->target, d) : NULL;
    return c->bt != NULL;
}

static void x86_compiled_free(x86_compiled *c)
{
    bset_free(c->bt);
    x86_prog_free(c->p);
    memset(c, 0, sizeof *c);
}

/* B's states (T's) that the compilation C shows, in B's order. */
static bset *reachable_of(const ir_test *t, const bset *b, const x86_compiled *c, diag *d)
{
    bset *shown = harness_project_states(b, c->bt, c->p->target, t, c->p, false, d);
    if (!shown)
        return NULL;
    bool *keep = xcalloc((size_t)b->nstates + 1, sizeof *keep);
    for (int k = 0; k < b->nstates; k++)
        keep[k] = bset_find(shown, b->states[k].vals) >= 0;
    bset *r = states_kept(b, keep);
    free(keep);
    bset_free(shown);
    return r;
}

bset *harness_x86_reachable(const ir_test *t, const bset *b, const model *x86tso, const char *scheme, diag *d)
{
    x86_compiled c;
    bset *r = compile_for_x86(t, x86tso, scheme, &c, d) ? reachable_of(t, b, &c, d) : NULL;
    x86_compiled_free(&c);
    return r;
}

/* Locked instructions split: herd's x86tso does not relate the two halves
 * of a locked instruction by program order, so it allows states in which
 * another thread's store falls between XCHG's read and its write, or the
 * write goes co-before the store its read read (LB+po+rmw-po's
 * 0:EAX=0; 1:EAX=1; [y]=1).  No x86 does that: a locked instruction holds
 * its line from the read to the write.  A state is one x86 can show when
 * one of its executions keeps every locked instruction whole: its write
 * immediately co-after the write its read read. */
typedef struct whole_ctx {
    const bset *b;
    bool *whole;
} whole_ctx;

static bool locked_whole(const exec *x)
{
    for (int r = 0; r < x->n; r++)
        for (int w = 0; w < x->n; w++) {
            if (!er_has(&x->rmw, r, w))
                continue;
            int from = -1;
            for (int i = 0; i < x->n && from < 0; i++)
                if (er_has(&x->rf, i, r))
                    from = i;
            if (from < 0 || !er_has(&x->co, from, w))
                return false;
            for (int k = 0; k < x->n; k++)
                if (er_has(&x->co, from, k) && er_has(&x->co, k, w))
                    return false;
        }
    return true;
}

static bool note_whole(void *ctx, const exec *x, const model_exec_info *info, diag *d)
{
    (void)d;
    whole_ctx *c = ctx;
    int s = bset_find(c->b, info->state);
    if (s >= 0 && !c->whole[s] && locked_whole(x))
        c->whole[s] = true;
    return true;
}

static bool has_rmw(const ir_test *t)
{
    for (int th = 0; th < t->nthreads; th++)
        for (int k = 0; k < t->threads[th].nblocks; k++)
            for (int i = 0; i < t->threads[th].blocks[k].ninstrs; i++)
                if (t->threads[th].blocks[k].instrs[i].op == IR_RMW)
                    return true;
    return false;
}

bset *harness_x86_whole_locked(const model *m, const ir_test *t, const bset *b, diag *d)
{
    whole_ctx c = {b, xcalloc((size_t)b->nstates + 1, sizeof *c.whole)};
    bset *again = model_run_observed(m, t, note_whole, &c, d);
    bset *r = again ? states_kept(b, c.whole) : NULL;
    bset_free(again);
    free(c.whole);
    return r;
}

/* The x86 runner on a C or Java test runs its compilation C, whose
 * threads and accesses need not be the source's one for one: the
 * schedules for AIM (T's states) come from C's executions under X86TSO,
 * their states read back in T's observables. */
static char *compiled_schedules(const ir_test *t, const bset *aim, const model *x86tso, const x86_compiled *c, diag *d)
{
    int *at = obs_positions(aim, c->bt, c->p->target, t, c->p, false, d);
    char *r = at ? harness_schedules_arg_at(x86tso, c->p->target, aim, at, d) : NULL;
    free(at);
    return r;
}

bool harness_aim_init(harness_aim *a, model_set *models, const model *m, const ir_test *t, const bset *b,
                      const native_opts *gen, bool until_covered, diag *d)
{
    return harness_aim_init_only(a, models, m, t, b, gen, until_covered, NULL, d);
}

bool harness_aim_init_only(harness_aim *a, model_set *models, const model *m, const ir_test *t, const bset *b,
                           const native_opts *gen, bool until_covered, const bool *only, diag *d)
{
    native_target target = gen->target;
    memset(a, 0, sizeof *a);
    bool x86_source = !strcmp(isa_native_target(t->arch, ""), "x86");
    const model *x86tso = NULL;
    x86_compiled cx = {0};
#if defined(__x86_64__) || defined(__i386__)
    if (!b->undef && (target == NATIVE_C11 || !x86_source)) {
        /* The C11 runner, or the x86 runner on a C or Java test's
         * compilation through its scheme: what that compilation shows
         * (a state only the source model allows would keep --until-covered
         * running to the bound).  A test that does not compile keeps B:
         * no claim. */
        diag rd = {0};
        x86tso = model_set_get(models, "x86tso", &rd);
        if (x86tso && compile_for_x86(t, x86tso, target == NATIVE_X86 ? gen->scheme : NULL, &cx, &rd))
            a->reachable = reachable_of(t, b, &cx, &rd);
    } else if (target == NATIVE_X86 && x86_source && has_rmw(t) &&
               !strcmp(model_name(m), "x86tso")) {
        diag rd = {0};
        a->reachable = harness_x86_whole_locked(m, t, b, &rd);
        if (a->reachable && a->reachable->nstates == b->nstates) {
            bset_free(a->reachable);    /* nothing split: B itself, no second count */
            a->reachable = NULL;
        }
    }
#else
    (void)models;
    (void)target;
    (void)x86_source;
#endif
    const bset *aim = a->reachable && a->reachable->nstates ? a->reachable : b;
    if (only) {
        /* aimed at B's states ONLY marks (run --race-fuzz), those the
         * machine can show */
        bool *keep = xcalloc((size_t)aim->nstates + 1, sizeof *keep);
        for (int k = 0; k < aim->nstates; k++) {
            int s = bset_find(b, aim->states[k].vals);
            keep[k] = s >= 0 && only[s];
        }
        a->aimed = states_kept(aim, keep);
        free(keep);
        aim = a->aimed;
        if (!aim->nstates)
            until_covered = false;      /* nothing to aim at: a plain run */
    }
    /* A test with no observables has one state, which any run shows. */
    if (!until_covered || !aim->nobs) {
        x86_compiled_free(&cx);
        return true;
    }
    a->states = aim;
    if (target == NATIVE_X86 && cx.bt) {
        /* planned on the compilation the x86 runner runs: on the source's
         * accesses, tests/corpus/c11 left 14 tests short of a state in 1M */
        diag rd = {0};
        a->schedules = compiled_schedules(t, aim, x86tso, &cx, &rd);
    }
    x86_compiled_free(&cx);
    if (a->schedules)
        return true;
    /* The schedules come from executions' po, rf, co and fr.  A Java
     * model's executions order plain writes by no coherence, so every
     * interleaving came out as the threads in order, whatever the state:
     * a Java test is planned on the runner's own model instead (its C11
     * code under rc11).  tests/corpus/java under --until-covered 1M: 643 of
     * 643 x86 states, against 529. */
    const model *plan = m;
    if (t->arch == IR_ARCH_JAVA) {
        diag pd = {0};
        const model *own = model_set_get(models, "rc11", &pd);
        plan = own ? own : m;
    }
    if (!(a->schedules = harness_schedules_arg(plan, t, aim, d))) {
        harness_aim_free(a);
        return false;
    }
    return true;
}

void harness_aim_free(harness_aim *a)
{
    bset_free(a->reachable);
    bset_free(a->aimed);
    free(a->schedules);
    memset(a, 0, sizeof *a);
}
