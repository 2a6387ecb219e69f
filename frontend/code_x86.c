/* x86's thread code as a whole (X86 and X86_64, fe_thread.code): the
 * frontend's hooks that compare two threads' code, free one's, and list
 * the locations it names (fe_isa_hooks.code_equal, code_clear,
 * code_locations). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "frontend/internal.h"
#include "util/free_each.h"

static bool streq(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return !strcmp(a, b);
}

/* Operands equal but for their positions. */
static bool eq_opnd(const fe_x86_opnd *a, const fe_x86_opnd *b)
{
    return a->kind == b->kind && a->imm == b->imm && streq(a->name, b->name) && streq(a->index, b->index) &&
           streq(a->sym, b->sym) &&
           a->scale == b->scale && (!a->index || a->index_size == b->index_size) &&
           (a->kind != FE_XO_REG && a->kind != FE_XO_MEM_REG ? true : a->reg_size == b->reg_size);
}

/* Instructions equal but for their positions. */
static bool eq_instr(const fe_x86_instr *a, const fe_x86_instr *b)
{
    return a->op == b->op && a->size == b->size && a->lock == b->lock &&
           (a->ext == NULL) == (b->ext == NULL) && (!a->ext || !strcmp(a->ext, b->ext)) && a->row == b->row &&
           streq(a->label, b->label) && eq_opnd(&a->dst, &b->dst) && eq_opnd(&a->src, &b->src);
}

/* fe_test_equal's question for an x86 thread, with its messages. */
bool fe_code_equal_x86(const fe_thread *a, const fe_thread *b, char *why, size_t whylen)
{
    if (a->ncode != b->ncode) {
        if (why && whylen)
            snprintf(why, whylen, "%s: %d instructions vs %d", a->name, a->ncode, b->ncode);
        return false;
    }
    for (int i = 0; i < a->ncode; i++)
        if (!eq_instr(&a->code[i], &b->code[i])) {
            if (why && whylen)
                snprintf(why, whylen, "%s: instruction %d differs", a->name, i);
            return false;
        }
    return true;
}

/* What an instruction owns (FREE_EACH's element function). */
static void x86_instr_clear(fe_x86_instr *in)
{
    free(in->dst.name);
    free(in->src.name);
    free(in->dst.index);
    free(in->src.index);
    free(in->dst.sym);
    free(in->src.sym);
    free(in->label);
}

/* fe_test_free's for an x86 thread. */
void fe_code_clear_x86(fe_thread *th)
{
    FREE_EACH(th->code, th->ncode, x86_instr_clear);
}

/* x86 names memory in its operands ([x], x(%rip)) and X86_64's symbolic
 * registers (%P0_x) there too. */
void fe_code_locations_x86(const fe_thread *th, void (*add)(void *set, const char *name), void *set)
{
    for (int j = 0; j < th->ncode; j++) {
        if (th->code[j].dst.kind == FE_XO_MEM)
            add(set, th->code[j].dst.name);
        if (th->code[j].src.kind == FE_XO_MEM)
            add(set, th->code[j].src.name);
        if (th->code[j].dst.sym)
            add(set, th->code[j].dst.sym);
        if (th->code[j].src.sym)
            add(set, th->code[j].src.sym);
    }
}
