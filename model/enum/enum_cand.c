/* Stage 2 of enumeration, one candidate (see enum.h and enum.c): values
 * propagated by substitution while rf is chosen, then, once rf and co (or
 * the final writes) are set, the final state, the cat model's verdict, and
 * the solver for values that substitution cannot settle.  Separate from
 * the search in enum.c: this is about what one candidate's values are,
 * not about which candidates there are. */
#include <string.h>
#include "model/enum/enum_impl.h"
#include "model/hb.h"
#include <stdlib.h>
#include "util/mem.h"

#define MAX_SOLUTIONS 256

/* ---- values ---------------------------------------------------------- */

static bool write_value(enumr *e, int w, ir_val *v)
{
    if (e->evth[w] < 0) {
        *v = e->x.ev[w].wval;
        return true;
    }
    int th = e->evth[w];
    const tev *te = &e->cur[th]->ev[e->evix[w]];
    return vx_eval(&e->tp[th].pool, te->wval, e->vals[th], e->known[th], v);
}

/* Settle every read whose write's value is known; repeat to a fixpoint. */
void enum_propagate(enumr *e, int upto)
{
    bool changed = true;
    while (changed) {
        changed = false;
        for (int j = 0; j < upto; j++) {
            int r = e->reads[j];
            int th = e->evth[r];
            int slot = e->cur[th]->ev[e->evix[r]].rslot;
            uint64_t bit = (uint64_t)1 << slot;
            if (e->known[th] & bit)
                continue;
            ir_val v;
            if (write_value(e, e->src[r], &v)) {
                e->vals[th][slot] = v;
                e->known[th] |= bit;
                changed = true;
            }
        }
    }
}

/* Path assumptions that can be decided now all hold. */
bool enum_conds_ok(enumr *e)
{
    for (int th = 0; th < e->nth; th++) {
        const tpath *p = e->cur[th];
        for (int i = 0; i < p->ncond; i++) {
            ir_val v;
            if (vx_eval(&e->tp[th].pool, p->cond[i].e, e->vals[th], e->known[th], &v) &&
                (v != 0) != p->cond[i].nonzero)
                return false;
        }
    }
    return true;
}

bool enum_all_known(enumr *e)
{
    for (int th = 0; th < e->nth; th++)
        if ((e->known[th] & e->used[th]) != e->used[th])
            return false;
    return true;
}

/* ---- final state and the model ------------------------------------------ */

static ir_val final_reg(enumr *e, int i)
{
    int th = e->out.obs_th[i];
    if (th < 0 || e->out.obs_reg[i] < 0)
        return 0;
    ir_val v = 0;
    vx_eval(&e->tp[th].pool, e->cur[th]->final[e->out.obs_reg[i]], e->vals[th], ~(uint64_t)0, &v);
    return v;
}

/* Fill e->out.state from settled values; false if the filter rejects it. */
static bool make_state(enumr *e)
{
    for (int i = 0; i < e->out.nall; i++) {
        if (e->out.obs[i].kind == IR_OBS_REG) {
            e->out.state[i] = final_reg(e, i);
        } else {
            ir_val v = 0;
            int w = e->fw[e->out.obs[i].loc];
            uint64_t saved[e->nth > 0 ? e->nth : 1];   /* never a VLA of size 0 */
            for (int th = 0; th < e->nth; th++) {
                saved[th] = e->known[th];
                e->known[th] = ~(uint64_t)0;
            }
            write_value(e, w, &v);
            for (int th = 0; th < e->nth; th++)
                e->known[th] = saved[th];
            e->out.state[i] = v;
        }
        e->out.state[i] = ir_obs_shown(e->t, &e->out.obs[i], e->out.state[i]);
    }
    return outcome_kept(&e->out);
}

/* False when the observer stops the run. */
static bool record(enumr *e, const cat_verdict *v)
{
    bool c = outcome_add(&e->out, v->consistent);
    if (v->undef) {
        e->b->undef = true;
        if (!e->b->race && e->t->arch == IR_ARCH_C)
            e->b->race = hb_race_describe(&e->x);
    }
    e->flags |= v->flags;
    if (!outcome_tell(&e->out, &e->x, c, v->undef, e->d))
        return enum_fail(e);
    return true;
}

static bool check_model(enumr *e, cat_verdict *v)
{
    e->b->candidates++;
    memset(v, 0, sizeof *v);
    if (!cat_run_check(e->run, &e->x, v, e->d))
        return enum_fail(e);
    return true;
}

/* Fill the values of every event of the candidate (for the model). */
void enum_fill_values(enumr *e)
{
    for (int i = 0; i < e->x.n; i++) {
        exec_event *ev = &e->x.ev[i];
        int th = e->evth[i];
        if (th < 0)
            continue;
        const tev *te = &e->cur[th]->ev[e->evix[i]];
        if (ev->kind & EV_R)
            ev->rval = e->vals[th][te->rslot];
        if (ev->kind & EV_W) {
            ir_val v = 0;
            vx_eval(&e->tp[th].pool, te->wval, e->vals[th], ~(uint64_t)0, &v);
            ev->wval = v;
        }
    }
}

/* The path of the current candidate that stops at a cut, or NULL. */
static const ir_instr *cand_cut(const enumr *e)
{
    for (int th = 0; th < e->nth; th++)
        if (e->cur[th]->cut)
            return e->cur[th]->cut;
    return NULL;
}

/* A consistent candidate stops at CUT.  A spin loop's cut loses nothing
 * (ir/lower_loop.c says why); any other means the bound may hide outcomes,
 * which is a stated limit: exit 3, unless the caller asked to drop such
 * candidates as herd7 does (the first such loop is then recorded).  False
 * stops the run. */
static bool cut_reached(enumr *e, const ir_instr *cut)
{
    if (cut->spin || e->cut_loops) {
        e->b->cutoff = true;
        if (!cut->spin && !e->b->lossy_line) {
            e->b->lossy_line = cut->line;
            e->b->lossy_col = cut->col;
            e->b->lossy_bound = (int)cut->a.imm;
        }
        return true;
    }
    diag_error(e->d, e->t->file ? e->t->file : "", cut->line, cut->col,
               "the loop runs past its bound of %lld iteration%s in an execution the model allows, so "
               "outcomes may be missing: raise the bound (Unroll=N in the test, or --unroll N), or drop "
               "such executions as herd7 does (--cut-loops, in model and races)",
               (long long)cut->a.imm, cut->a.imm == 1 ? "" : "s");
    e->d->status = 3;
    return enum_fail(e);
}

static bool solution(void *ctx)
{
    enumr *e = ctx;
    const ir_instr *cut = cand_cut(e);
    if (cut)
        return cut_reached(e, cut);
    enum_fill_values(e);
    if (make_state(e) && !record(e, &e->verdict))
        return false;
    return true;
}

/* Terms and atoms for the solver. */
static void collect_atoms(const ir_cond *c, const ir_obs *obs, int n,
                          int **ao, ir_val **av, size_t *na, size_t *ca,
                          int **pa, int **pb, size_t *np, size_t *cp)
{
    if (!c)
        return;
    if (c->kind == IR_C_ATOM) {
        int i = -1, j = -1;
        for (int k = 0; k < n; k++) {
            if (ir_obs_equal(&obs[k], &c->lhs))
                i = k;
            if (c->rhs_is_obs && ir_obs_equal(&obs[k], &c->rhs_obs))
                j = k;
        }
        if (i < 0)
            return;
        if (!c->rhs_is_obs) {
            size_t nn = *na, cc = *ca;
            VEC_PUSH(*ao, nn, cc, i);
            cc = *ca;
            VEC_PUSH(*av, *na, cc, c->rhs);
            *ca = cc;
        } else if (j >= 0) {
            size_t nn = *np, cc = *cp;
            VEC_PUSH(*pa, nn, cc, i);
            cc = *cp;
            VEC_PUSH(*pb, *np, cc, j);
            *cp = cc;
        }
        return;
    }
    collect_atoms(c->l, obs, n, ao, av, na, ca, pa, pb, np, cp);
    collect_atoms(c->r, obs, n, ao, av, na, ca, pa, pb, np, cp);
}

static sv_term obs_term(enumr *e, int i)
{
    sv_term t = {-1, -1, 0};
    if (e->out.obs[i].kind == IR_OBS_REG) {
        if (e->out.obs_th[i] >= 0 && e->out.obs_reg[i] >= 0) {
            t.th = e->out.obs_th[i];
            t.e = e->cur[t.th]->final[e->out.obs_reg[i]];
        }
    } else {
        int w = e->fw[e->out.obs[i].loc];
        if (e->evth[w] < 0)
            t.c = e->x.ev[w].wval;
        else {
            t.th = e->evth[w];
            t.e = e->cur[t.th]->ev[e->evix[w]].wval;
        }
    }
    return t;
}

static bool solve_symbolic(enumr *e)
{
    if (!e->sv)
        e->sv = sv_new();
    int neq = 0, ncond = 0;
    int eq_th[EXEC_MAX], eq_slot[EXEC_MAX];
    sv_term eq_val[EXEC_MAX];
    for (int j = 0; j < e->nreads; j++) {
        int r = e->reads[j], th = e->evth[r];
        int slot = e->cur[th]->ev[e->evix[r]].rslot;
        if (e->known[th] & ((uint64_t)1 << slot))
            continue;
        int w = e->src[r];
        eq_th[neq] = th;
        eq_slot[neq] = slot;
        if (e->evth[w] < 0)
            eq_val[neq] = (sv_term){-1, -1, e->x.ev[w].wval};
        else
            eq_val[neq] = (sv_term){e->evth[w], e->cur[e->evth[w]]->ev[e->evix[w]].wval, 0};
        neq++;
    }
    size_t maxc = 0;
    for (int th = 0; th < e->nth; th++)
        maxc += (size_t)e->cur[th]->ncond;
    sv_term *cond = xmalloc((maxc ? maxc : 1) * sizeof *cond);
    bool *nz = xmalloc((maxc ? maxc : 1) * sizeof *nz);
    for (int th = 0; th < e->nth; th++)
        for (int i = 0; i < e->cur[th]->ncond; i++) {
            cond[ncond] = (sv_term){th, e->cur[th]->cond[i].e, 0};
            nz[ncond++] = e->cur[th]->cond[i].nonzero;
        }
    sv_term *obs = xmalloc((size_t)(e->out.nall ? e->out.nall : 1) * sizeof *obs);
    for (int i = 0; i < e->out.nall; i++)
        obs[i] = obs_term(e, i);
    int *ao = NULL, *pa = NULL, *pb = NULL;
    ir_val *av = NULL;
    size_t na = 0, ca = 0, np = 0, cp = 0;
    collect_atoms(e->t->cond, e->out.obs, e->out.nall, &ao, &av, &na, &ca, &pa, &pb, &np, &cp);
    collect_atoms(e->t->filter, e->out.obs, e->out.nall, &ao, &av, &na, &ca, &pa, &pb, &np, &cp);
    vpool *pools = xmalloc((size_t)e->nth * sizeof *pools);
    for (int th = 0; th < e->nth; th++)
        pools[th] = e->tp[th].pool;
    sv_problem p = {
        .nthreads = e->nth, .pools = pools, .vals = e->vals, .known = e->known, .used = e->used,
        .eq_th = eq_th, .eq_slot = eq_slot, .eq_val = eq_val, .neq = neq,
        .cond = cond, .nonzero = nz, .ncond = ncond,
        .obs = obs, .nobs = e->out.nall,
        .atom_obs = ao, .atom_val = av, .natoms = (int)na,
        .pair_a = pa, .pair_b = pb, .npairs = (int)np,
    };
    /* The solver fills unknown slots; keep the settled mask as it was. */
    int n = sv_solve_all(e->sv, &p, MAX_SOLUTIONS, solution, e, e->d);
    free(pools); free(cond); free(nz); free(obs); free(ao); free(av); free(pa); free(pb);
    if (n < 0)
        return enum_fail(e);
    if (n > 0)
        e->b->symbolic = true;
    return true;
}

/* One complete candidate: rf, co (or final writes) are set. */
bool enum_candidate(enumr *e)
{
    e->x.fw = es_none();
    for (int l = 0; l < e->nlocs; l++)
        if (e->loc_obs[l])
            es_add(&e->x.fw, e->fw[l]);
    const ir_instr *cut = cand_cut(e);
    if (!e->symbolic) {
        cat_verdict v;
        if (cut) {              /* no final state; only whether it is consistent */
            if (!check_model(e, &v))
                return false;
            return !v.consistent || cut_reached(e, cut);
        }
        if (!make_state(e))
            return true;            /* herd filters before the model runs */
        if (!check_model(e, &v))
            return false;
        if (v.consistent && !record(e, &v))
            return false;
        return true;
    }
    if (!check_model(e, &e->verdict))
        return false;
    if (!e->verdict.consistent)
        return true;
    return solve_symbolic(e);
}
