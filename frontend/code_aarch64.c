/* AArch64's thread code as a whole (fe_thread.a64, frontend/ast_aarch64.h):
 * the frontend's hooks that compare two threads' code, free one's, and list
 * the locations it names (fe_isa_hooks.code_equal, code_clear,
 * code_locations), over print_aarch64.c's instruction-level equality and
 * freeing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "frontend/internal.h"
#include "util/free_each.h"

/* fe_test_equal's question for an AArch64 thread, with its message. */
bool fe_code_equal_aarch64(const fe_thread *a, const fe_thread *b, char *why, size_t whylen)
{
    if (fe_a64_code_equal(a, b))
        return true;
    if (why && whylen)
        snprintf(why, whylen, "%s: AArch64 code differs", a->name);
    return false;
}

/* fe_test_free's for an AArch64 thread. */
void fe_code_clear_aarch64(fe_thread *th)
{
    FREE_EACH(th->a64, th->na64, fe_a64_instr_clear);
}

/* AArch64 code names no location: its addresses are registers, which the
 * init sets (`0:X1=x`), so the init already named them. */
void fe_code_locations_aarch64(const fe_thread *th, void (*add)(void *set, const char *name), void *set)
{
    (void)th;
    (void)add;
    (void)set;
}
