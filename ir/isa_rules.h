#ifndef LITMUSC_IR_ISA_RULES_H
#define LITMUSC_IR_ISA_RULES_H
/* What the IR's own code (ir/verify.c, ir/cond.c) asks each instruction
 * set (isa/isa.h), one row per ISA_LIST entry, built in isa_rules.c from
 * the functions named after the entry's stem: stem S gives ir_mode_legal_S,
 * ir_fence_legal_S, ir_excl_legal_S, ir_noret_legal_S and ir_regs_S, in
 * ir/rules_S.c.  A family of dialects (X86, X86_64) shares one set and
 * reads its differences from the row.  Internal to ir/. */
#include <stdbool.h>
#include "ir/ir.h"
#include "isa/isa.h"

typedef struct ir_isa_rules {
    /* Whether M is a legal mode of an OP (ir_mode_legal). */
    bool (*mode_legal)(ir_op op, ir_mode m);
    /* Whether the fence IN is one of the set's barriers, with its mode. */
    bool (*fence_legal)(const ir_instr *in);
    /* Whether an OP may be exclusive (a load- or store-exclusive). */
    bool (*excl_legal)(ir_op op);
    /* Whether an OP may discard its result (noret). */
    bool (*noret_legal)(ir_op op);
    /* herd's order of row I's registers, the declaration order of its
     * register type: names, NULL-terminated. */
    const char *const *(*regs)(const isa *i);
} ir_isa_rules;

/* The rules of test architecture ARCH; NULL for C and Java. */
const ir_isa_rules *ir_isa_rules_of(ir_arch arch);

bool ir_mode_legal_x86(ir_op op, ir_mode m);
bool ir_fence_legal_x86(const ir_instr *in);
bool ir_excl_legal_x86(ir_op op);
bool ir_noret_legal_x86(ir_op op);
const char *const *ir_regs_x86(const isa *i);
bool ir_mode_legal_aarch64(ir_op op, ir_mode m);
bool ir_fence_legal_aarch64(const ir_instr *in);
bool ir_excl_legal_aarch64(ir_op op);
bool ir_noret_legal_aarch64(ir_op op);
const char *const *ir_regs_aarch64(const isa *i);

#endif
