/* The value solver on z3 (see solver.h).  Values are 64-bit bit-vectors,
 * as herd computes in 64 bits. */
#include <stdio.h>
#include <string.h>
#include <z3.h>
#include "model/enum/solver.h"
#include <stdlib.h>
#include "util/mem.h"

struct sv_ctx {
    Z3_context z;
    Z3_sort bv;
};

sv_ctx *sv_new(void)
{
    sv_ctx *s = xcalloc(1, sizeof *s);
    Z3_config cfg = Z3_mk_config();
    s->z = Z3_mk_context(cfg);
    Z3_del_config(cfg);
    s->bv = Z3_mk_bv_sort(s->z, 64);
    return s;
}

void sv_free(sv_ctx *s)
{
    if (!s)
        return;
    Z3_del_context(s->z);
    free(s);
}

static Z3_ast num(sv_ctx *s, ir_val v)
{
    return Z3_mk_unsigned_int64(s->z, (uint64_t)v, s->bv);
}

static Z3_ast slot_var(sv_ctx *s, const sv_problem *p, int th, int slot)
{
    if (p->known[th] & ((uint64_t)1 << slot))
        return num(s, p->vals[th][slot]);
    char name[32];
    snprintf(name, sizeof name, "t%d.r%d", th, slot);
    return Z3_mk_const(s->z, Z3_mk_string_symbol(s->z, name), s->bv);
}

static Z3_ast bool_to_bv(sv_ctx *s, Z3_ast b)
{
    return Z3_mk_ite(s->z, b, num(s, 1), num(s, 0));
}

static Z3_ast expr(sv_ctx *s, const sv_problem *p, int th, int e)
{
    const vexpr *x = &p->pools[th].e[e];
    Z3_context z = s->z;
    switch (x->op) {
    case VX_CONST:
        return num(s, x->c);
    case VX_READ:
        return slot_var(s, p, th, x->slot);
    case VX_BIN:
        break;
    }
    Z3_ast a = expr(s, p, th, x->a), b = expr(s, p, th, x->b);
    switch (x->bop) {
    case IR_ADD: return Z3_mk_bvadd(z, a, b);
    case IR_SUB: return Z3_mk_bvsub(z, a, b);
    case IR_MUL: return Z3_mk_bvmul(z, a, b);
    case IR_DIV: return Z3_mk_bvsdiv(z, a, b);
    case IR_REM: return Z3_mk_bvsrem(z, a, b);
    case IR_AND: return Z3_mk_bvand(z, a, b);
    case IR_OR:  return Z3_mk_bvor(z, a, b);
    case IR_XOR: return Z3_mk_bvxor(z, a, b);
    case IR_SHL: return Z3_mk_bvshl(z, a, b);
    case IR_SHR: return Z3_mk_bvashr(z, a, b);
    case IR_EQ: return bool_to_bv(s, Z3_mk_eq(z, a, b));
    case IR_NE: return bool_to_bv(s, Z3_mk_not(z, Z3_mk_eq(z, a, b)));
    case IR_LT: return bool_to_bv(s, Z3_mk_bvslt(z, a, b));
    case IR_LE: return bool_to_bv(s, Z3_mk_bvsle(z, a, b));
    case IR_GT: return bool_to_bv(s, Z3_mk_bvsgt(z, a, b));
    case IR_GE: return bool_to_bv(s, Z3_mk_bvsge(z, a, b));
    default: break;
    }
    return num(s, 0);
}

static Z3_ast term(sv_ctx *s, const sv_problem *p, sv_term t)
{
    return t.th < 0 ? num(s, t.c) : expr(s, p, t.th, t.e);
}

static bool model_value(sv_ctx *s, Z3_model m, Z3_ast t, ir_val *out)
{
    Z3_ast v;
    uint64_t u;
    if (!Z3_model_eval(s->z, m, t, true, &v) || !Z3_get_numeral_uint64(s->z, v, &u))
        return false;
    *out = (ir_val)u;
    return true;
}

int sv_solve_all(sv_ctx *s, const sv_problem *p, int limit, sv_callback cb, void *ctx, diag *d)
{
    Z3_context z = s->z;
    Z3_solver so = Z3_mk_solver(z);
    Z3_solver_inc_ref(z, so);
    for (int i = 0; i < p->neq; i++)
        Z3_solver_assert(z, so, Z3_mk_eq(z, slot_var(s, p, p->eq_th[i], p->eq_slot[i]),
                                         term(s, p, p->eq_val[i])));
    for (int i = 0; i < p->ncond; i++) {
        Z3_ast zero = Z3_mk_eq(z, term(s, p, p->cond[i]), num(s, 0));
        Z3_solver_assert(z, so, p->nonzero[i] ? Z3_mk_not(z, zero) : zero);
    }
    /* The distinguishing predicates, evaluated on each solution and then
     * blocked, so the next solution differs in one of them. */
    int npred = p->natoms + p->npairs;
    Z3_ast *pred = xmalloc((size_t)(npred ? npred : 1) * sizeof *pred);
    Z3_ast *obs = xmalloc((size_t)(p->nobs ? p->nobs : 1) * sizeof *obs);
    for (int i = 0; i < p->nobs; i++)
        obs[i] = term(s, p, p->obs[i]);
    for (int i = 0; i < p->natoms; i++)
        pred[i] = Z3_mk_eq(z, obs[p->atom_obs[i]], num(s, p->atom_val[i]));
    for (int i = 0; i < p->npairs; i++)
        pred[p->natoms + i] = Z3_mk_eq(z, obs[p->pair_a[i]], obs[p->pair_b[i]]);
    int found = 0;
    while (found < limit) {
        Z3_lbool r = Z3_solver_check(z, so);
        if (r == Z3_L_FALSE)
            break;
        if (r != Z3_L_TRUE) {
            diag_fail(d, "the value solver gave up: %s", Z3_solver_get_reason_unknown(z, so));
            found = -1;
            break;
        }
        Z3_model m = Z3_solver_get_model(z, so);
        Z3_model_inc_ref(z, m);
        bool ok = true;
        for (int th = 0; th < p->nthreads && ok; th++)
            for (int sl = 0; sl < 64 && ok; sl++) {
                uint64_t bit = (uint64_t)1 << sl;
                if ((p->used[th] & bit) && !(p->known[th] & bit))
                    ok = model_value(s, m, slot_var(s, p, th, sl), &p->vals[th][sl]);
            }
        Z3_ast *diff = xmalloc((size_t)(npred ? npred : 1) * sizeof *diff);
        for (int i = 0; i < npred && ok; i++) {
            Z3_ast v;
            ok = Z3_model_eval(z, m, pred[i], true, &v);
            diff[i] = Z3_get_bool_value(z, v) == Z3_L_TRUE ? Z3_mk_not(z, pred[i]) : pred[i];
        }
        Z3_model_dec_ref(z, m);
        if (!ok) {
            free(diff);
            diag_fail(d, "the value solver returned an incomplete model");
            found = -1;
            break;
        }
        found++;
        bool go_on = cb(ctx);
        if (npred == 0 || !go_on) {
            free(diff);
            break;
        }
        Z3_solver_assert(z, so, Z3_mk_or(z, (unsigned)npred, diff));
        free(diff);
    }
    free(pred);
    free(obs);
    Z3_solver_dec_ref(z, so);
    return found;
}
