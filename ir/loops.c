/* Which tests have unrolled loops: the backends run a test's code for
 * real, and a cut (ir/lower_loop.c) has no meaning on hardware, where the
 * loop would go on; they refuse such a test rather than run a program the
 * source did not write. */
#include "ir/ir.h"

const ir_instr *ir_first_cut(const ir_test *t)
{
    for (int th = 0; th < t->nthreads; th++)
        for (int b = 0; b < t->threads[th].nblocks; b++) {
            const ir_block *bl = &t->threads[th].blocks[b];
            if (bl->ninstrs && bl->instrs[bl->ninstrs - 1].op == IR_CUT)
                return &bl->instrs[bl->ninstrs - 1];
        }
    return NULL;
}

bool ir_refuse_loops(const ir_test *t, const char *target, diag *d)
{
    const ir_instr *cut = ir_first_cut(t);
    if (!cut)
        return true;
    diag_error(d, t->file ? t->file : "", cut->line, cut->col,
               "%s cannot run this loop: the IR has no loops, only the model's unrolling of them "
               "(litmusc model and races take the test)",
               target);
    return false;
}
