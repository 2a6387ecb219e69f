/* C threads: parameters, the atomic builtins and their memory orders.
 *
 * As in herd: a parameter `T* x` is a register holding &x; a plain `*x`
 * is a non-atomic access (IR_MO_NA); the non-explicit builtins are seq_cst;
 * a compare-exchange reads *expected non-atomically, then either succeeds
 * as one RMW with the success order, or fails as a read with the failure
 * order followed by a non-atomic write of the value read back to
 * *expected; its result is 1 or 0. */
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "ir/lower_int.h"
#include "util/mem.h"

static ir_mode c_mode(fe_mo mo)
{
    switch (mo) {
    case FE_MO_RELAXED: return IR_MO_RLX;
    case FE_MO_CONSUME: return IR_MO_CON;
    case FE_MO_ACQUIRE: return IR_MO_ACQ;
    case FE_MO_RELEASE: return IR_MO_REL;
    case FE_MO_ACQ_REL: return IR_MO_ACQ_REL;
    case FE_MO_SEQ_CST: return IR_MO_SC;
    case FE_MO_NONE: break;
    }
    return IR_MO_SC;
}

static bool check_mode(lw *w, const fe_expr *e, ir_op op, fe_mo mo)
{
    if (ir_mode_legal(IR_ARCH_C, op, c_mode(mo)))
        return true;
    return lw_error(w, e->pos, "%s takes no %s", fe_c_call_name(e->ccall, e->explicit_form), fe_mo_name(mo));
}

static bool c_call(lw *w, const fe_expr *e, ir_operand *out);

static bool address_arg(lw *w, const fe_expr *e, int i, ir_operand *out)
{
    if (i >= e->nargs)
        return lw_error(w, e->pos, "%s needs %d arguments", fe_c_call_name(e->ccall, e->explicit_form), i + 1);
    if (!lw_expr(w, e->args[i], c_call, out))
        return false;
    if (out->kind == IR_OPND_IMM && !IR_IS_ADDR(out->imm))
        return lw_error(w, e->args[i]->pos, "argument %d of %s is %lld, not the address of a location", i + 1,
                        fe_c_call_name(e->ccall, e->explicit_form), (long long)out->imm);
    return true;
}

static bool value_arg(lw *w, const fe_expr *e, int i, ir_operand *out);

static bool c_call(lw *w, const fe_expr *e, ir_operand *out)
{
    ir_operand addr, v, exp_addr;
    *out = ir_imm(0);
    switch (e->ccall) {
    case FE_C_LOAD:
        if (!check_mode(w, e, IR_LOAD, e->mo) || !address_arg(w, e, 0, &addr))
            return false;
        *out = lw_load(w, addr, c_mode(e->mo));
        return true;
    case FE_C_STORE:
        if (!check_mode(w, e, IR_STORE, e->mo) || !address_arg(w, e, 0, &addr) || !value_arg(w, e, 1, &v))
            return false;
        lw_store(w, addr, v, c_mode(e->mo));
        return true;
    case FE_C_EXCHANGE:
    case FE_C_FETCH_ADD:
    case FE_C_FETCH_SUB:
    case FE_C_FETCH_AND:
    case FE_C_FETCH_OR:
    case FE_C_FETCH_XOR: {
        static const ir_rmw_op ops[] = {
            [FE_C_EXCHANGE] = IR_RMW_XCHG, [FE_C_FETCH_ADD] = IR_RMW_ADD, [FE_C_FETCH_SUB] = IR_RMW_SUB,
            [FE_C_FETCH_AND] = IR_RMW_AND, [FE_C_FETCH_OR] = IR_RMW_OR, [FE_C_FETCH_XOR] = IR_RMW_XOR,
        };
        if (!check_mode(w, e, IR_RMW, e->mo) || !address_arg(w, e, 0, &addr) || !value_arg(w, e, 1, &v))
            return false;
        *out = lw_rmw(w, ops[e->ccall], addr, v, c_mode(e->mo));
        return true;
    }
    case FE_C_CAS_STRONG:
    case FE_C_CAS_WEAK: {
        fe_mo fail = e->mo_fail == FE_MO_NONE ? e->mo : e->mo_fail;
        if (!check_mode(w, e, IR_RMW, e->mo))
            return false;
        if (!ir_mode_legal(IR_ARCH_C, IR_LOAD, c_mode(fail)))
            return lw_error(w, e->pos, "%s takes no failure order %s", fe_c_call_name(e->ccall, e->explicit_form),
                            fe_mo_name(fail));
        if (!address_arg(w, e, 0, &addr) || !address_arg(w, e, 1, &exp_addr))
            return false;
        ir_operand expected = lw_load(w, exp_addr, IR_MO_NA);
        if (!value_arg(w, e, 2, &v))
            return false;
        ir_instr *cas = lw_cas(w, addr, expected, v, c_mode(e->mo), c_mode(fail));
        cas->weak = e->ccall == FE_C_CAS_WEAK;
        cas->flag = ir_new_val(w->th);
        ir_operand old = ir_value(cas->dst);
        /* Success joins directly; failure writes the value read back.  The
         * flag, not old == expected, tells them apart: a weak CAS may fail
         * even when they are equal. */
        ir_operand ok = ir_value(cas->flag);
        lw_edges success = {0}, join = {0};
        lw_branch_then(w, ok, &success);
        lw_store(w, exp_addr, old, IR_MO_NA);
        lw_add_fall(w, &join);
        lw_edges_append(&join, &success);
        /* The result is a phi of 1 (success) and 0 (failure): carried by a
         * scratch register slot so that lw_join builds it. */
        int scratch = w->nregs - 1;
        for (size_t i = 0; i < join.n; i++)
            join.v[i].vals[scratch] = ir_imm(join.v[i].side == LW_FALL ? 0 : 1);
        lw_join(w, &join);
        *out = w->cur[scratch];
        w->cur[scratch] = ir_imm(0);
        return true;
    }
    case FE_C_THREAD_FENCE:
        if (!ir_mode_legal(IR_ARCH_C, IR_FENCE, c_mode(e->mo)))
            return lw_error(w, e->pos, "atomic_thread_fence takes no %s", fe_mo_name(e->mo));
        lw_fence(w, IR_FENCE_C, c_mode(e->mo));
        return true;
    case FE_C_SIGNAL_FENCE:
        return lw_error(w, e->pos, "atomic_signal_fence is not supported (herd has no semantics for it)");
    case FE_C_SPIN_LOCK: case FE_C_SPIN_UNLOCK: case FE_C_SPIN_TRYLOCK:
    case FE_C_MTX_LOCK: case FE_C_MTX_UNLOCK: case FE_C_MTX_TRYLOCK: {
        bool spin = e->ccall <= FE_C_SPIN_TRYLOCK;
        int what = (int)(e->ccall - (spin ? FE_C_SPIN_LOCK : FE_C_MTX_LOCK));  /* lock, unlock, trylock */
        if (!address_arg(w, e, 0, &addr))
            return false;
        if (addr.kind != IR_OPND_IMM)
            return lw_error(w, e->args[0]->pos, "%s takes a mutex parameter of the thread, not a computed pointer",
                            fe_c_call_name(e->ccall, e->explicit_form));
        ir_operand r = lw_lock(w, what == 1 ? IR_UNLOCK : IR_LOCK, spin ? IR_LK_SPIN : IR_LK_MTX, addr, what == 2);
        /* C11's mtx_trylock gives thrd_success (0) when it took the mutex. */
        *out = what == 2 && !spin ? lw_bin(w, IR_EQ, r, ir_imm(0)) : r;
        return true;
    }
    case FE_C_CALL_COUNT:
        break;
    }
    return lw_error(w, e->pos, "unknown atomic builtin");
}

static bool value_arg(lw *w, const fe_expr *e, int i, ir_operand *out)
{
    if (i >= e->nargs)
        return lw_error(w, e->pos, "%s needs %d arguments", fe_c_call_name(e->ccall, e->explicit_form), i + 1);
    return lw_expr(w, e->args[i], c_call, out);
}

/* Set a location's C type from a declaration, unless the init section gave one. */
static void type_loc(lw *w, int loc, const char *ctype)
{
    ir_loc *l = &w->t->locs[loc];
    if (l->ctype || !ctype)
        return;
    l->ctype = xstrdup(ctype);
    size_t n = strlen(ctype);
    l->type = n && ctype[n - 1] == '*' ? IR_T_PTR : strstr(ctype, "128") ? IR_T_INT128 : IR_T_INT;
    l->atomic = !strncmp(ctype, "atomic_", 7) || strstr(ctype, "_Atomic") != NULL;
}

bool lw_c_thread(lw *w)
{
    const fe_thread *ft = w->ft_th;
    for (int i = 0; i < ft->nparams; i++) {
        const fe_param *p = &ft->params[i];
        int loc = lw_loc(w, p->name);
        type_loc(w, loc, p->type);
        int r = lw_add_reg(w, p->name, true);
        w->cur[r] = ir_imm(IR_ADDR(loc));
    }
    lw_scan_stmt(w, ft->body);
    /* The scratch slot that carries a compare-exchange's result into its join. */
    lw_add_reg(w, "", true);
    bool ok = lw_stmt(w, ft->body, c_call);
    w->nregs--;
    free(w->regs[w->nregs]);
    return ok;
}
