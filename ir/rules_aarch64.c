/* The IR's rules of AArch64 (isa_rules.h): its access modes, its
 * barriers, its exclusives and no-result atomics, and herd's order of its
 * registers. */
#include <stddef.h>
#include "ir/isa_rules.h"

/* LDR/LDAR/LDAPR, STR/STLR, and the RMWs' four orderings (the modes of
 * the halves: ir.h's IR_A64_ACQREL). */
bool ir_mode_legal_aarch64(ir_op op, ir_mode m)
{
    switch (op) {
    case IR_LOAD: return m == IR_A64_PLAIN || m == IR_A64_ACQ || m == IR_A64_ACQPC;
    case IR_STORE: return m == IR_A64_PLAIN || m == IR_A64_REL;
    case IR_RMW: return m == IR_A64_PLAIN || m == IR_A64_ACQ || m == IR_A64_REL || m == IR_A64_ACQREL;
    default: return false;
    }
}

/* DMB, DSB (each with its domain and kind) and ISB, which carry no mode. */
bool ir_fence_legal_aarch64(const ir_instr *in)
{
    return in->fence >= IR_FENCE_DMB_SY && in->fence <= IR_FENCE_ISB && in->mode == IR_MODE_NONE;
}

/* LDXR/LDAXR and STXR/STLXR. */
bool ir_excl_legal_aarch64(ir_op op)
{
    return op == IR_LOAD || op == IR_STORE;
}

/* The ST<op> aliases of the LD<op> atomics. */
bool ir_noret_legal_aarch64(ir_op op)
{
    return op == IR_RMW;
}

/* The general registers by number (X2 before X10), as herd's register
 * type declares them. */
static const char *const aarch64_regs[] = {
    "X0", "X1", "X2", "X3", "X4", "X5", "X6", "X7", "X8", "X9", "X10", "X11", "X12", "X13", "X14", "X15",
    "X16", "X17", "X18", "X19", "X20", "X21", "X22", "X23", "X24", "X25", "X26", "X27", "X28", "X29", "X30",
    NULL,
};

/* One dialect: one table. */
const char *const *ir_regs_aarch64(const isa *i)
{
    (void)i;
    return aarch64_regs;
}
