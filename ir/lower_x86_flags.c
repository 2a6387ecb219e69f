/* The X86 flags as conditions: what JE ... JA, SETcc and CMOVcc read after
 * the CMP, SUB, TEST or arithmetic that last set them (ir/lower_x86.c
 * records which, in x86.fl). */
#include "frontend/frontend.h"
#include "ir/lower_int.h"
#include "ir/lower_x86_int.h"

/* (a <unsigned b) as a value, for the carry flag of CMP a, b. */
static ir_operand below(lw *w, ir_operand a, ir_operand b)
{
    ir_operand bias = ir_imm(INT64_MIN);
    return lw_bin(w, IR_LT, lw_bin(w, IR_XOR, a, bias), lw_bin(w, IR_XOR, b, bias));
}

/* ZF as the condition of a jump: SET (JE) or clear (JNE). */
bool x86_zero_flag(x86 *x, const fe_x86_instr *in, bool set, ir_operand *out)
{
    lw *w = x->w;
    ir_binop cmp = set ? IR_EQ : IR_NE;
    switch (x->fl.kind) {
    case FL_CMP: *out = lw_bin(w, cmp, x->fl.a, x->fl.b); return true;
    case FL_RESULT: *out = lw_bin(w, cmp, lw_bin(w, x->fl.op, x->fl.a, x->fl.b), ir_imm(0)); return true;
    default: return lw_error(w, in->pos, "%s reads the flags, but no earlier instruction sets them",
                             fe_x86_op_name(in->op));
    }
}

bool x86_carry_flag(x86 *x, const fe_x86_instr *in, ir_operand *out)
{
    if (x->fl.kind != FL_CMP)
        return lw_error(x->w, in->pos, "%s reads the carry flag, which only CMP sets here", fe_x86_op_name(in->op));
    *out = below(x->w, x->fl.a, x->fl.b);
    return true;
}

/* The condition of JL ... JA after CMP A,B (Intel order: A - B): signed
 * or unsigned A < B, A >= B, A <= B, A > B on the 64-bit values. */
static bool ordered_op(x86 *x, const fe_x86_instr *in, fe_x86_op op, ir_operand *out);

bool x86_ordered(x86 *x, const fe_x86_instr *in, ir_operand *out)
{
    return ordered_op(x, in, in->op, out);
}

/* The condition of a setcc or cmovcc as 0 or 1: its jump's. */
bool x86_condition(x86 *x, const fe_x86_instr *in, ir_operand *out)
{
    static const struct {
        fe_x86_op op, jump;
    } as_jump[] = {{FE_X86_SETE, FE_X86_JE},     {FE_X86_SETNE, FE_X86_JNE},   {FE_X86_CMOVE, FE_X86_JE},
                   {FE_X86_CMOVNE, FE_X86_JNE},  {FE_X86_SETL, FE_X86_JL},     {FE_X86_SETGE, FE_X86_JGE},
                   {FE_X86_SETLE, FE_X86_JLE},   {FE_X86_SETG, FE_X86_JG},     {FE_X86_SETB, FE_X86_JB},
                   {FE_X86_SETBE, FE_X86_JBE},   {FE_X86_SETA, FE_X86_JA},     {FE_X86_CMOVL, FE_X86_JL},
                   {FE_X86_CMOVGE, FE_X86_JGE},  {FE_X86_CMOVLE, FE_X86_JLE},  {FE_X86_CMOVG, FE_X86_JG},
                   {FE_X86_CMOVAE, FE_X86_JAE},  {FE_X86_CMOVBE, FE_X86_JBE},  {FE_X86_CMOVA, FE_X86_JA},
                   {FE_X86_SETNB, FE_X86_JAE},   {FE_X86_CMOVC, FE_X86_JB}};
    for (size_t i = 0; i < sizeof as_jump / sizeof *as_jump; i++)
        if (as_jump[i].op == in->op) {
            if (as_jump[i].jump == FE_X86_JE || as_jump[i].jump == FE_X86_JNE)
                return x86_zero_flag(x, in, as_jump[i].jump == FE_X86_JE, out);
            return ordered_op(x, in, as_jump[i].jump, out);
        }
    return lw_error(x->w, in->pos, "%s: no condition", fe_x86_op_name(in->op));
}

static bool ordered_op(x86 *x, const fe_x86_instr *in, fe_x86_op op, ir_operand *out)
{
    lw *w = x->w;
    /* SUB sets the flags CMP does; the signed conditions read them the
     * same (DEC too, which leaves only CF alone) */
    bool sub = x->fl.kind == FL_RESULT && x->fl.op == IR_SUB && op >= FE_X86_JL && op <= FE_X86_JG;
    if (x->fl.kind != FL_CMP && !sub)
        return lw_error(w, in->pos, "%s reads the sign or carry flag, which only CMP and SUB set here",
                        fe_x86_op_name(in->op));
    ir_operand a = x->fl.a, b = x->fl.b;
    switch (op) {
    case FE_X86_JL: *out = lw_bin(w, IR_LT, a, b); return true;
    case FE_X86_JGE: *out = lw_bin(w, IR_GE, a, b); return true;
    case FE_X86_JLE: *out = lw_bin(w, IR_LE, a, b); return true;
    case FE_X86_JG: *out = lw_bin(w, IR_GT, a, b); return true;
    case FE_X86_JB: *out = below(w, a, b); return true;
    case FE_X86_JAE: *out = lw_bin(w, IR_EQ, below(w, a, b), ir_imm(0)); return true;
    case FE_X86_JBE: *out = lw_bin(w, IR_EQ, below(w, b, a), ir_imm(0)); return true;
    default: *out = below(w, b, a); return true;   /* JA */
    }
}
