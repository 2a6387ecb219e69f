/* Each instruction set's event shapes (paths_impl.h's paths_shape), one
 * row per ISA_LIST entry of isa/isa.h, and the rows of x86 and AArch64. */
#include "isa/isa.h"
#include "model/paths/paths_impl.h"

#define ROW(id, stem) [ISA_##id] = &paths_shape_##stem,
static const paths_shape *const rows[ISA_COUNT] = {ISA_LIST(ROW)};
#undef ROW

/* ir_arch lists the instruction sets first, in isa.h's order: past them
 * come C and Java, with no shapes. */
const paths_shape *paths_shape_of(ir_arch arch)
{
    const isa *i = isa_of((int)arch);
    return i ? rows[i->id] : NULL;
}

/* x86: both halves of a locked instruction keep its mode. */
static void x86_rmw_modes(ir_mode m, ir_mode *r, ir_mode *w)
{
    *r = m;
    *w = m;
}

const paths_shape paths_shape_x86 = {.rmw_modes = x86_rmw_modes, .cas_forms = false};

/* herd's AArch64 RMW: the read acquires (A) for an acquire or
 * acquire-release instruction, the write releases (L) for a release or
 * acquire-release one (ir.h, IR_A64_ACQREL). */
static void aarch64_rmw_modes(ir_mode m, ir_mode *r, ir_mode *w)
{
    bool acq = m == IR_A64_ACQ || m == IR_A64_ACQREL;
    bool rel = m == IR_A64_REL || m == IR_A64_ACQREL;
    *r = acq ? IR_A64_ACQ : IR_A64_PLAIN;
    *w = rel ? IR_A64_REL : IR_A64_PLAIN;
}

const paths_shape paths_shape_aarch64 = {.rmw_modes = aarch64_rmw_modes, .cas_forms = true};
