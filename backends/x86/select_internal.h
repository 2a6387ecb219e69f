#ifndef LITMUSC_BACKENDS_X86_SELECT_INTERNAL_H
#define LITMUSC_BACKENDS_X86_SELECT_INTERNAL_H
/* State shared by instruction selection (select.c, select_instr.c) and register
 * allocation (regalloc.c) for one thread.  Before allocation, register
 * operands hold virtual register numbers: SSA value v is vreg v, further
 * vregs are temporaries, and VREG_EAX is the physical EAX that CMPXCHG
 * needs. */
#include <stdbool.h>
#include <stddef.h>
#include "backends/x86/x86.h"

#define VREG_EAX (-2)

typedef struct sel {
    const ir_test *t;
    const ir_thread *th;
    diag *d;
    const char *file;
    int line, col;              /* source position of the instruction being selected */
    x86_instr *code;            /* selected code, on vregs */
    size_t ncode, capcode;
    int nvregs, capv;
    ir_val *vinit;              /* vreg holds this address from the start ... */
    bool *vinit_set;            /* ... when set */
    x86_reg *vhint;             /* preferred register, or X86_NOREG */
    int *order, norder;         /* block layout */
    int *block_label;           /* label of each block */
    int nlabels;
    int *uses;                  /* uses of each SSA value */
    int *fused;                 /* >= 0: compare emitted at its branch */
    const ir_instr **def;       /* defining instruction of each SSA value */
    char **obs_names;           /* observed source registers (borrowed strings) */
    int nobs;
    int *final_vreg;            /* vreg holding each observed register at exit */
} sel;

/* select_instr.c: a new vreg; a label; the vreg that holds address
 * constant V from the start (herd init `0:ESI=x`), one per constant; the
 * operand for value O (an immediate where ALLOW_IMM and the value is a
 * constant, else a register); the code for instruction IN of the block
 * laid out at POS.  False + S->d for what x86 cannot express. */
int sel_new_vreg(sel *s);
void sel_put_label(sel *s, int label);
int sel_addr_vreg(sel *s, ir_val v);
bool sel_value_opnd(sel *s, ir_operand o, bool allow_imm, x86_opnd *out);
bool sel_instr(sel *s, int pos, const ir_instr *in);

/* Map S's vregs onto x86 registers and store the thread's code, initial
 * registers and register-map entries in OUT and P.  False + diag when the
 * thread needs more registers than x86 has. */
bool regalloc_thread(sel *s, x86_thread *out, x86_prog *p, diag *d);

/* Set P's herd_ok, x86_64 and herd_note from its code (herd_mode.c). */
void x86_prog_judge_herd(x86_prog *p);

#endif
