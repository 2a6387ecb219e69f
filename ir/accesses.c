/* Which locations a thread's code may load and store, as bit masks: what a
 * runner needs to know before it runs two threads one after the other on
 * one CPU without a fence between (a later thread must not load what an
 * earlier one stored: it would read it from the store buffer, which no
 * other CPU can).  An access through a value (a register holding an
 * address) may touch any location, and so does a location past the 64 a
 * mask holds. */
#include "ir/ir.h"

static uint64_t location_bit(const ir_operand *addr)
{
    if (addr->kind != IR_OPND_IMM || !IR_IS_ADDR(addr->imm))
        return ~(uint64_t)0;
    int l = IR_ADDR_LOC(addr->imm);
    return l >= 0 && l < 64 ? (uint64_t)1 << l : ~(uint64_t)0;
}

void ir_thread_accesses(const ir_thread *th, uint64_t *loads, uint64_t *stores)
{
    *loads = *stores = 0;
    for (int b = 0; b < th->nblocks; b++)
        for (int i = 0; i < th->blocks[b].ninstrs; i++) {
            const ir_instr *in = &th->blocks[b].instrs[i];
            if (in->op == IR_LOAD || in->op == IR_RMW)
                *loads |= location_bit(&in->addr);
            if (in->op == IR_STORE || in->op == IR_RMW)
                *stores |= location_bit(&in->addr);
        }
}
