/* The parts of a lifted test's text that do not depend on the machine:
 * the globals' C types, the condition over the globals, the header
 * comment.  Both dialects' printers (lift.c, a64_text.c) use them. */
#include <string.h>
#include "lift/lift.h"
#include "lift/text.h"

const char *lift_text_int_type(const char *ctype)
{
    if (!ctype)
        return "int32_t";
    if (strstr(ctype, "long"))
        return "int64_t";
    if (strstr(ctype, "short"))
        return "int16_t";
    if (strstr(ctype, "char"))
        return "int8_t";
    return "int32_t";
}

static void print_obs(strbuf *b, const ir_test *t, const ir_obs *o)
{
    if (o->kind == IR_OBS_REG)
        sb_printf(b, "P%d_%s", o->thread, o->reg);
    else
        sb_add(b, t->locs[o->loc].name);
}

/* The condition over the globals: 0:r0 -> P0_r0, [x] -> x. */
void lift_text_cond(strbuf *b, const ir_test *t, const ir_cond *c)
{
    switch (c->kind) {
    case IR_C_TRUE: sb_add(b, "true"); break;
    case IR_C_FALSE: sb_add(b, "false"); break;
    case IR_C_ATOM:
        if (c->ne)
            sb_add(b, "not (");
        print_obs(b, t, &c->lhs);
        sb_add(b, "=");
        if (c->rhs_is_obs)
            print_obs(b, t, &c->rhs_obs);
        else
            sb_printf(b, "%lld", (long long)c->rhs);
        if (c->ne)
            sb_add(b, ")");
        break;
    case IR_C_NOT: sb_add(b, "not ("); lift_text_cond(b, t, c->l); sb_add(b, ")"); break;
    default:
        sb_add(b, "(");
        lift_text_cond(b, t, c->l);
        sb_add(b, c->kind == IR_C_AND ? " /\\ " : c->kind == IR_C_OR ? " \\/ " : " => ");
        lift_text_cond(b, t, c->r);
        sb_add(b, ")");
    }
}

/* ORIGIN in a comment: anything that could end it or break a line becomes '_'. */
void lift_text_comment(strbuf *b, const char *s)
{
    for (; *s; s++)
        sb_printf(b, "%c", *s < ' ' || *s > '~' || *s == '*' || *s == '(' || *s == ')' ? '_' : *s);
}


void lift_text_decls(strbuf *b, const ir_test *t, bool cut, const char *indent)
{
    for (int i = 0; i < t->nlocs; i++)
        sb_printf(b, "%s%s %s=%lld;\n", indent, lift_text_int_type(t->locs[i].ctype), t->locs[i].name,
                  (long long)t->locs[i].init);
    for (int n = 0; n < t->nthreads; n++)
        for (int r = 0; r < t->threads[n].nfinal_regs; r++)
            sb_printf(b, "%sint32_t P%d_%s=0;\n", indent, n, t->threads[n].final_regs[r].name);
    if (cut)
        sb_printf(b, "%sint32_t " LIFT_UNROLL_LOC "=0;\n", indent);
}

/* The lifted test's end: the source's `locations` (so that every
 * observable of the source's states is one of the compiled test's:
 * 1:r0 -> P1_r0, [x] -> x), the unrolling bound's location when a loop was
 * cut, and the quantified condition. */
void lift_text_tail(strbuf *b, const ir_test *t, bool cut)
{
    if (cut || t->nlocations) {
        sb_add(b, "locations [");
        for (int i = 0; i < t->nlocations; i++) {
            const ir_obs *o = &t->locations[i];
            if (o->kind == IR_OBS_REG)
                sb_printf(b, "P%d_%s;", o->thread, o->reg);
            else if (o->kind == IR_OBS_MEM)
                sb_printf(b, "%s;", t->locs[o->loc].name);
        }
        sb_add(b, cut ? LIFT_UNROLL_LOC ";]\n" : "]\n");
    }
    sb_add(b, t->quant == IR_Q_EXISTS ? "exists " : t->quant == IR_Q_FORALL ? "forall " : "~exists ");
    sb_add(b, "(");
    lift_text_cond(b, t, t->cond);
    sb_add(b, ")\n");
}
