/* The IR's rules of x86 (X86 and X86_64, isa_rules.h): its access modes,
 * its fences, and herd's order of its registers. */
#include <stddef.h>
#include "ir/isa_rules.h"

/* An RMW is a locked instruction; a load or a store is a plain MOV or,
 * inside a locked instruction's lowering, a locked half. */
bool ir_mode_legal_x86(ir_op op, ir_mode m)
{
    if (op == IR_RMW)
        return m == IR_X86_LOCKED;
    return m == IR_X86_PLAIN || m == IR_X86_LOCKED;
}

/* MFENCE, LFENCE and SFENCE, which carry no mode. */
bool ir_fence_legal_x86(const ir_instr *in)
{
    return (in->fence == IR_FENCE_MFENCE || in->fence == IR_FENCE_LFENCE || in->fence == IR_FENCE_SFENCE) &&
           in->mode == IR_MODE_NONE;
}

/* x86 has no exclusives. */
bool ir_excl_legal_x86(ir_op op)
{
    (void)op;
    return false;
}

/* Every x86 RMW gives back the old value. */
bool ir_noret_legal_x86(ir_op op)
{
    (void)op;
    return false;
}

/* herd orders an architecture's registers by the declaration order of its
 * register type; names outside these tables (symbolic registers) come
 * after them, by name. */
static const char *const x86_regs[] = {
    "EAX", "EBX", "ECX", "EDX", "ESI", "EDI", "EBP", "ESP", "EIP", "ZF", "SF", "CF", NULL,
};
/* X86_64: RIP, CS, then the integer registers by base (whatever the width
 * written), then the xmm registers. */
static const char *const x86_64_regs[] = {
    "rip", "cs", "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp",
    "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
    "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", NULL,
};

/* The two dialects name different registers: the row's width tells them
 * apart. */
const char *const *ir_regs_x86(const isa *i)
{
    return i->wide ? x86_64_regs : x86_regs;
}
