/* Which herd7 mode can run a compiled program, if any: the choice between
 * printing it as X86 and as X86_64, and the note that says why herd7
 * cannot run it. */
#include <stdlib.h>
#include "backends/x86/select_internal.h"
#include "util/mem.h"

const x86_instr *x86_prog_first_wait(const x86_prog *p, int *thread)
{
    for (int ti = 0; ti < p->nthreads; ti++)
        for (int i = 0; i < p->threads[ti].ncode; i++)
            if (p->threads[ti].code[i].waits) {
                *thread = p->threads[ti].id;
                return &p->threads[ti].code[i];
            }
    return NULL;
}

void x86_prog_judge_herd(x86_prog *p)
{
    /* X86 when herd runs it there, else X86_64 when that mode does (it has
     * CMPXCHG), else X86 with a note saying what herd lacks. */
    const x86_instr *bad32 = NULL, *bad64 = NULL;
    int t64 = -1;
    for (int ti = 0; ti < p->nthreads; ti++)
        for (int i = 0; i < p->threads[ti].ncode; i++) {
            const x86_instr *in = &p->threads[ti].code[i];
            if (!bad32 && !x86_instr_herd_ok(in))
                bad32 = in;
            if (!bad64 && !x86_instr_herd64_ok(in)) {
                bad64 = in;
                t64 = p->threads[ti].id;
            }
        }
    p->x86_64 = bad32 && !bad64;
    p->herd_ok = !bad32 || !bad64;
    if (!p->herd_ok)
        p->herd_note = xasprintf("thread %d uses %s%s, which herd7 7.57 runs in neither X86 nor X86_64 mode", t64,
                                 bad64->lock ? "LOCK " : "", x86_op_name(bad64->op));
    /* A lock's XCHG is repeated until it reads the mutex free: herd7 would
     * need a loop, which it unrolls past any use; litmusc's own x86tso runs
     * the test (the XCHG takes only the try that read 0). */
    const ir_instr *cut = ir_first_cut(p->target);
    if (cut) {
        free(p->herd_note);
        p->herd_ok = false;
        p->herd_note = xasprintf("the loop at line %d is unrolled for the model (a cut ends the runs past its "
                                 "bound), which herd7's loop-free text cannot say",
                                 cut->line);
        return;
    }
    int wt;
    const x86_instr *w = p->herd_ok ? x86_prog_first_wait(p, &wt) : NULL;
    if (w) {
        p->herd_ok = false;
        p->herd_note = xasprintf("thread %d's XCHG at line %d is a lock, repeated until it reads the mutex free, "
                                 "which herd7 runs only as a loop", wt, w->line);
    }
}
