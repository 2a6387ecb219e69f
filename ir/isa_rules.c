/* The IR's rules of each instruction set (isa_rules.h), one row per
 * ISA_LIST entry of isa/isa.h. */
#include "ir/isa_rules.h"

#define ROW(id, stem) \
    [ISA_##id] = {ir_mode_legal_##stem, ir_fence_legal_##stem, ir_excl_legal_##stem, ir_noret_legal_##stem, \
                  ir_regs_##stem},
static const ir_isa_rules rows[ISA_COUNT] = {ISA_LIST(ROW)};
#undef ROW

/* ir_arch lists the instruction sets first, in isa.h's order (ir/lower.c
 * asserts it): past them come C and Java, with no rules. */
const ir_isa_rules *ir_isa_rules_of(ir_arch arch)
{
    const isa *i = isa_of((int)arch);
    return i ? &rows[i->id] : NULL;
}
