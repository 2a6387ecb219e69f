#ifndef LITMUSC_IR_LOWER_X86_INT_H
#define LITMUSC_IR_LOWER_X86_INT_H
/* What the X86 lowering's files share (ir/lower_x86.c, the instructions;
 * ir/lower_x86_flags.c, the conditions the flags give). */
#include "frontend/ast.h"
#include "ir/lower_int.h"

/* What the flags say after the last flag-setting instruction. */
typedef struct flags {
    enum { FL_NONE, FL_CMP, FL_RESULT } kind;
    ir_operand a, b;        /* CMP a, b; RESULT: the result is `a op b`, computed only if a jump needs it */
    ir_binop op;
} flags;

typedef struct label {
    const char *name;
    bool defined;
    lw_edges pending;
    flags fl;               /* the flags every edge so far brings, when fl_any and not fl_mixed */
    bool fl_any, fl_mixed;
} label;

typedef struct x86 {
    lw *w;
    flags fl;
    label *labels;
    size_t nlabels, caplabels;
    lw_edges end;           /* RET and jumps past the last row */
    const char *acc;        /* the accumulator: EAX, or rax in X86_64 */
} x86;

/* The conditions an instruction IN reads from the flags, as a value of 0 or
 * 1, or an error at IN when no earlier instruction set the flags it needs:
 * ZF set (SET) or clear; CF; JL ... JA's; a setcc's or cmovcc's. */
bool x86_zero_flag(x86 *x, const fe_x86_instr *in, bool set, ir_operand *out);
bool x86_carry_flag(x86 *x, const fe_x86_instr *in, ir_operand *out);
bool x86_ordered(x86 *x, const fe_x86_instr *in, ir_operand *out);
bool x86_condition(x86 *x, const fe_x86_instr *in, ir_operand *out);

#endif
