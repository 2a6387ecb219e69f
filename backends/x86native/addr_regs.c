/* Which registers of a thread may hold an address, before each of its
 * instructions.  An X86 test's data are 32-bit, and the native target
 * names registers by their 32-bit parts; but an address is a host pointer,
 * 64 bits.  A register the test starts with an address in (`1:EAX=x`)
 * keeps it whole when it is only dereferenced, but a compiled address
 * dependency copies it and adds to it (`MOV EDX,EAX; ADD EDX,ECX; MOV
 * EAX,[EDX]`, the c11-x86 scheme's `x + (r0 & 128)`): in 32-bit forms
 * the copy drops the pointer's upper half and the load faults.  Such
 * instructions need their 64-bit forms, and this says where.  "May":
 * along some path from the start, through the jumps. */
#include <string.h>
#include "backends/x86native/x86native.h"

static unsigned bit(x86_reg r)
{
    return r >= 0 && r < X86_NREGS ? 1u << r : 0;
}

/* The address registers after IN, from those before it (S). */
static unsigned transfer(const x86_instr *in, unsigned s)
{
    const x86_opnd *d = &in->dst, *o = &in->src;
    if (d->kind != X86_O_REG) {
        /* XCHG [x],r and XADD [x],r leave the cell's old value in r */
        if ((in->op == X86_XCHG || in->op == X86_XADD) && o->kind == X86_O_REG)
            return s & ~bit(o->reg);
        return s;
    }
    unsigned dst = bit(d->reg), src = o->kind == X86_O_REG ? bit(o->reg) : 0;
    switch (in->op) {
    case X86_MOV:
        /* a copy carries what its source holds; a constant or a load, data */
        return (s & ~dst) | ((s & src) ? dst : 0);
    case X86_XCHG:
        if (o->kind != X86_O_REG)
            return s & ~dst;        /* the register gets the cell's value */
        return (s & ~(dst | src)) | ((s & src) ? dst : 0) | ((s & dst) ? src : 0);
    case X86_ADD: case X86_SUB: case X86_AND: case X86_OR: case X86_XOR: case X86_XADD:
        /* an address plus or minus data is still one */
        return s | ((s & src) ? dst : 0);
    default:
        return s;
    }
}

void x86native_address_regs(const x86_thread *xt, unsigned *before)
{
    int n = xt->ncode;
    unsigned start = 0;
    for (int i = 0; i < xt->ninits; i++)
        if (IR_IS_ADDR(xt->inits[i].val))
            start |= bit(xt->inits[i].reg);
    memset(before, 0, (size_t)(n > 0 ? n : 1) * sizeof *before);
    if (n == 0)
        return;
    before[0] = start;
    /* forward jumps and loops alike: to a fixpoint, each pass at most
     * adding registers, of which there are X86_NREGS */
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < n; i++) {
            const x86_instr *in = &xt->code[i];
            unsigned out = transfer(in, before[i]);
            bool falls = in->op != X86_JMP;
            if (falls && i + 1 < n && (before[i + 1] | out) != before[i + 1]) {
                before[i + 1] |= out;
                changed = true;
            }
            if ((in->op == X86_JMP || in->op == X86_JE || in->op == X86_JNE) && in->dst.kind == X86_O_LABEL)
                for (int j = 0; j < n; j++)
                    if (xt->code[j].op == X86_LABEL && xt->code[j].label == in->dst.label &&
                        (before[j] | out) != before[j]) {
                        before[j] |= out;
                        changed = true;
                    }
        }
    }
}

bool x86native_address_op(const x86_instr *in, unsigned before)
{
    const x86_opnd *d = &in->dst, *o = &in->src;
    if (in->op == X86_MOV && o->kind == X86_O_IMM)
        return false;               /* a constant: data, whatever the register held */
    /* registers only: a memory operand's cell is 32-bit data */
    if (d->kind != X86_O_REG || (o->kind != X86_O_REG && o->kind != X86_O_IMM && o->kind != X86_O_NONE))
        return false;
    unsigned used = bit(d->reg) | (o->kind == X86_O_REG ? bit(o->reg) : 0);
    return (before & used) != 0;
}
