/* AArch64 programs back to herd's text (the `parse --print` table and the
 * hash's instructions), their equality for the round-trip check, and
 * freeing them. */
#include <stdlib.h>
#include <string.h>
#include "frontend/aarch64_lex.h"
#include "frontend/frontend.h"
#include "frontend/internal.h"
#include "util/mem.h"

/* Registers as herd prints them: W0, X1, WZR. */
static void reg(strbuf *b, int r, bool wide)
{
    if (r == FE_A64_ZR)
        sb_add(b, wide ? "XZR" : "WZR");
    else
        sb_printf(b, "%c%d", wide ? 'X' : 'W', r);
}

/* An operand without blanks, as herd's printer (and so its hash) has it. */
static void operand(strbuf *b, const fe_a64_opnd *o, const char *label)
{
    static const char *const exts[] = {"", "LSL", "UXTW", "SXTW", "SXTX"};
    switch (o->kind) {
    case FE_AO_REG:
        reg(b, o->reg, o->wide);
        break;
    case FE_AO_IMM:
        sb_printf(b, "#%lld", (long long)o->imm);
        break;
    case FE_AO_MEM:
        sb_add(b, "[");
        reg(b, o->reg, true);
        if (o->index >= 0) {
            sb_add(b, ",");
            reg(b, o->index, o->index_wide);
            if (o->ext != FE_A64_X_NONE)
                sb_printf(b, ",%s", exts[o->ext]);
            if (o->shift)
                sb_printf(b, " #%d", o->shift);
        } else if (o->imm) {
            sb_printf(b, ",#%lld", (long long)o->imm);
        }
        sb_add(b, "]");
        break;
    case FE_AO_LABEL:
        sb_add(b, label ? label : o->label);
        break;
    case FE_AO_NONE:
        break;
    }
}

/* One instruction as herd prints it ("LDR W0,[X1]"), without its label;
 * LABEL, when not NULL, replaces the name of a branch target. */
void fe_print_a64_instr(strbuf *b, const fe_a64_instr *in, const char *label)
{
    if (in->op == FE_A64_EMPTY)
        return;
    sb_add(b, in->mnem);
    if (in->option)
        sb_printf(b, " %s", in->option);
    for (int i = 0; i < in->nops; i++) {
        sb_add(b, i ? "," : " ");
        operand(b, &in->o[i], label);
    }
    if (in->op == FE_A64_CSET || in->op == FE_A64_CSEL || in->op == FE_A64_CSETM ||
        (in->op >= FE_A64_CSINC && in->op <= FE_A64_CSNEG))
        sb_printf(b, ",%s", a64_cond_name(in->cond));
}

/* The source text the lowering records for an instruction. */
char *fe_a64_instr_text(const fe_a64_instr *in)
{
    strbuf b = {0};
    sb_add(&b, "");
    fe_print_a64_instr(&b, in, NULL);
    return sb_take(&b);
}

/* The cell of thread TH in row R ("" when empty): label and instruction. */
static char *cell_text(const fe_thread *th, int r)
{
    strbuf c = {0};
    sb_add(&c, "");
    for (int k = 0; k < th->na64; k++) {
        const fe_a64_instr *in = &th->a64[k];
        if (in->row != r)
            continue;
        if (in->label)
            sb_printf(&c, "%s:%s", in->label, in->op == FE_A64_EMPTY ? "" : " ");
        fe_print_a64_instr(&c, in, NULL);
    }
    return sb_take(&c);
}

/* The table, columns padded to their widest cell. */
void fe_print_aarch64(strbuf *b, const fe_test *t)
{
    int nt = t->nthreads, nr = t->nrows;
    char **cells = xcalloc((size_t)(nr + 1) * (size_t)(nt ? nt : 1), sizeof *cells);
    size_t *width = xcalloc((size_t)(nt ? nt : 1), sizeof *width);
    for (int j = 0; j < nt; j++) {
        cells[j] = xstrdup(t->threads[j].name);
        for (int r = 0; r < nr; r++)
            cells[(size_t)(r + 1) * (size_t)nt + (size_t)j] = cell_text(&t->threads[j], r);
    }
    for (int j = 0; j < nt; j++)
        for (int r = 0; r <= nr; r++) {
            size_t n = strlen(cells[(size_t)r * (size_t)nt + (size_t)j]);
            if (n > width[j])
                width[j] = n;
        }
    for (int r = 0; r <= nr; r++) {
        for (int j = 0; j < nt; j++)
            sb_printf(b, "%s %-*s ", j ? "|" : "", (int)width[j], cells[(size_t)r * (size_t)nt + (size_t)j]);
        sb_add(b, ";\n");
    }
    for (int i = 0; i < (nr + 1) * nt; i++)
        free(cells[i]);
    free(cells);
    free(width);
}

/* Two strings, either of which may be absent. */
static bool streq(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

/* Operands equal but for their positions. */
static bool opnd_equal(const fe_a64_opnd *a, const fe_a64_opnd *b)
{
    return a->kind == b->kind && a->reg == b->reg && a->wide == b->wide && a->imm == b->imm &&
           a->index == b->index && a->index_wide == b->index_wide && a->ext == b->ext && a->shift == b->shift &&
           streq(a->label, b->label);
}

/* Same instructions, labels and rows (positions aside). */
bool fe_a64_code_equal(const fe_thread *a, const fe_thread *b)
{
    if (a->na64 != b->na64)
        return false;
    for (int i = 0; i < a->na64; i++) {
        const fe_a64_instr *x = &a->a64[i], *y = &b->a64[i];
        if (x->op != y->op || !streq(x->mnem, y->mnem) || x->size != y->size || x->acq != y->acq ||
            x->acqpc != y->acqpc || x->rel != y->rel || x->noret != y->noret || x->barrier != y->barrier ||
            x->cond != y->cond || x->nops != y->nops || !streq(x->label, y->label) || x->row != y->row)
            return false;
        for (int k = 0; k < x->nops; k++)
            if (!opnd_equal(&x->o[k], &y->o[k]))
                return false;
    }
    return true;
}

/* What an instruction owns (FREE_EACH's element function). */
void fe_a64_instr_clear(fe_a64_instr *in)
{
    free(in->mnem);
    free(in->option);
    free(in->label);
    for (int i = 0; i < in->nops; i++)
        free(in->o[i].label);
}
