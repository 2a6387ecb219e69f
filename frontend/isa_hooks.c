/* The frontend's hooks of each instruction set (internal.h's
 * fe_isa_hooks), one row per ISA_LIST entry of isa/isa.h: an instruction
 * set whose stem is S gives the frontend fe_parse_S, fe_reg_known_S,
 * fe_reg_canon_S, fe_print_S, fe_digest_S, fe_code_equal_S,
 * fe_code_clear_S and fe_code_locations_S. */
#include "frontend/internal.h"
#include "isa/isa.h"

#define ROW(id, stem) \
    [ISA_##id] = {fe_parse_##stem, fe_reg_known_##stem, fe_reg_canon_##stem, fe_print_##stem, fe_digest_##stem, \
                   fe_code_equal_##stem, fe_code_clear_##stem, fe_code_locations_##stem},
static const fe_isa_hooks hooks[ISA_COUNT] = {ISA_LIST(ROW)};
#undef ROW

/* fe_arch lists the instruction sets first, in isa.h's order
 * (ir/lower.c asserts it): past them come C and Java, with no hooks. */
const fe_isa_hooks *fe_isa_hooks_of(fe_arch a)
{
    const isa *i = isa_of((int)a);
    return i ? &hooks[i->id] : NULL;
}
