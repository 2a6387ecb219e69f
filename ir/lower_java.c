/* Java threads: VarHandle calls and fences.
 *
 * A handle is a register bound in the init section (`0:X=x`); an access
 * through it goes to that location.  Modes follow herd's Java lexer: the
 * bare getAndOp and compareAndExchange are volatile; a compare-exchange
 * succeeds as one RMW with the merged mode (Acquire for the Acquire form,
 * Release for the Release form) and fails as a read with the read half of
 * the mode (Acquire / Plain / Volatile). */
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "ir/lower_int.h"
#include "util/mem.h"

static ir_mode j_mode(fe_jmode m)
{
    switch (m) {
    case FE_JM_PLAIN: return IR_JM_PLAIN;
    case FE_JM_OPAQUE: return IR_JM_OPAQUE;
    case FE_JM_ACQUIRE: return IR_JM_ACQUIRE;
    case FE_JM_RELEASE: return IR_JM_RELEASE;
    case FE_JM_VOLATILE: return IR_JM_VOLATILE;
    }
    return IR_JM_VOLATILE;
}

static bool handle_address(lw *w, const fe_expr *e, ir_operand *out)
{
    int r = e->name ? lw_find_reg(w, e->name) : -1;
    if (r < 0 || w->cur[r].kind != IR_OPND_IMM || !IR_IS_ADDR(w->cur[r].imm))
        return lw_error(w, e->pos, "handle %s is not bound to a location (the init section needs %d:%s=x)",
                        e->name ? e->name : "?", w->th->id, e->name ? e->name : "X");
    *out = w->cur[r];
    return true;
}

static bool j_call(lw *w, const fe_expr *e, ir_operand *out);

static bool arg(lw *w, const fe_expr *e, int i, ir_operand *out)
{
    if (i >= e->nargs)
        return lw_error(w, e->pos, "%s needs %d argument%s", fe_jmethod_name(e->jmethod, e->jmode), i + 1,
                        i ? "s" : "");
    return lw_expr(w, e->args[i], j_call, out);
}

/* Success and failure modes of a compare-and-set/exchange form. */
static void cas_modes(fe_jmode m, ir_mode *success, ir_mode *fail)
{
    switch (m) {
    case FE_JM_ACQUIRE: *success = *fail = IR_JM_ACQUIRE; break;
    case FE_JM_RELEASE: *success = IR_JM_RELEASE; *fail = IR_JM_PLAIN; break;
    case FE_JM_OPAQUE: *success = *fail = IR_JM_OPAQUE; break;
    default: *success = *fail = IR_JM_VOLATILE; break;
    }
}

static bool j_call(lw *w, const fe_expr *e, ir_operand *out)
{
    static const ir_fence_kind fences[FE_J_METHOD_COUNT] = {
        [FE_J_FENCE_FULL] = IR_FENCE_J_FULL, [FE_J_FENCE_ACQUIRE] = IR_FENCE_J_ACQUIRE,
        [FE_J_FENCE_RELEASE] = IR_FENCE_J_RELEASE, [FE_J_FENCE_LOADLOAD] = IR_FENCE_J_LOADLOAD,
        [FE_J_FENCE_STORESTORE] = IR_FENCE_J_STORESTORE,
    };
    ir_operand addr, v, exp;
    *out = ir_imm(0);
    const char *name = fe_jmethod_name(e->jmethod, e->jmode);
    switch (e->jmethod) {
    case FE_J_FENCE_FULL:
    case FE_J_FENCE_ACQUIRE:
    case FE_J_FENCE_RELEASE:
    case FE_J_FENCE_LOADLOAD:
    case FE_J_FENCE_STORESTORE:
        lw_fence(w, fences[e->jmethod], IR_MODE_NONE);
        return true;
    case FE_J_GET:
        if (!ir_mode_legal(IR_ARCH_JAVA, IR_LOAD, j_mode(e->jmode)))
            return lw_error(w, e->pos, "%s is not a read mode", name);
        if (!handle_address(w, e, &addr))
            return false;
        *out = lw_load(w, addr, j_mode(e->jmode));
        return true;
    case FE_J_SET:
        if (!ir_mode_legal(IR_ARCH_JAVA, IR_STORE, j_mode(e->jmode)))
            return lw_error(w, e->pos, "%s is not a write mode", name);
        if (!handle_address(w, e, &addr) || !arg(w, e, 0, &v))
            return false;
        lw_store(w, addr, v, j_mode(e->jmode));
        return true;
    case FE_J_CAE:
    case FE_J_CAS:
    case FE_J_WEAK_CAS: {
        if (!handle_address(w, e, &addr) || !arg(w, e, 0, &exp) || !arg(w, e, 1, &v))
            return false;
        ir_mode mode, fail_mode;
        cas_modes(e->jmethod == FE_J_CAS ? FE_JM_VOLATILE : e->jmode, &mode, &fail_mode);
        if (e->jmethod == FE_J_WEAK_CAS && e->jmode == FE_JM_PLAIN)
            mode = fail_mode = IR_JM_PLAIN;
        ir_instr *cas = lw_cas(w, addr, exp, v, mode, fail_mode);
        cas->weak = e->jmethod == FE_J_WEAK_CAS;
        ir_operand old = ir_value(cas->dst);
        /* compareAndExchange returns the witness value, compareAndSet and
         * weakCompareAndSet whether it wrote (the weak one may fail when
         * the witness equals the expected value). */
        if (e->jmethod == FE_J_CAE) {
            *out = old;
        } else {
            cas->flag = ir_new_val(w->th);
            *out = ir_value(cas->flag);
        }
        return true;
    }
    case FE_J_GET_AND_SET:
    case FE_J_GET_AND_ADD:
    case FE_J_GET_AND_OR:
    case FE_J_GET_AND_AND:
    case FE_J_GET_AND_XOR: {
        static const ir_rmw_op ops[FE_J_METHOD_COUNT] = {
            [FE_J_GET_AND_SET] = IR_RMW_XCHG, [FE_J_GET_AND_ADD] = IR_RMW_ADD, [FE_J_GET_AND_OR] = IR_RMW_OR,
            [FE_J_GET_AND_AND] = IR_RMW_AND, [FE_J_GET_AND_XOR] = IR_RMW_XOR,
        };
        ir_mode m = e->jmode == FE_JM_ACQUIRE || e->jmode == FE_JM_RELEASE ? j_mode(e->jmode) : IR_JM_VOLATILE;
        if (!handle_address(w, e, &addr) || !arg(w, e, 0, &v))
            return false;
        *out = lw_rmw(w, ops[e->jmethod], addr, v, m);
        return true;
    }
    case FE_J_METHOD_COUNT:
        break;
    }
    return lw_error(w, e->pos, "unknown VarHandle method");
}

bool lw_java_thread(lw *w)
{
    /* Registers bound to addresses in the init section are handles. */
    for (int i = 0; i < w->th->ninit_regs; i++) {
        const ir_reg *r = &w->th->init_regs[i];
        if (r->value.kind == IR_OPND_IMM && IR_IS_ADDR(r->value.imm))
            lw_add_reg(w, r->name, true);
    }
    lw_scan_stmt(w, w->ft_th->body);
    return lw_stmt(w, w->ft_th->body, j_call);
}
