/* Source text recorded in each IR instruction: the litmus instruction or
 * statement it comes from, in the source language's own syntax, so that a
 * model can name a racing pair and a backend can comment generated code. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "ir/lower_int.h"
#include "isa/isa.h"
#include "util/mem.h"

static void add_operand_src(strbuf *b, const fe_test *ft, const fe_x86_opnd *o)
{
    bool att = isa_of(ft->arch)->att;
    switch (o->kind) {
    case FE_XO_IMM: sb_printf(b, "$%" PRId64, o->imm); break;
    case FE_XO_REG: sb_printf(b, att ? "%%%s" : "%s", o->name); break;
    case FE_XO_MEM: sb_printf(b, att ? "(%s)" : "[%s]", o->name); break;
    case FE_XO_MEM_REG:
        if (att && o->sym)
            sb_add(b, o->sym);
        if (att && o->imm)
            sb_printf(b, "%" PRId64, o->imm);
        if (att && o->index)
            sb_printf(b, "(%s%s,%%%s,%d)", o->name ? "%" : "", o->name ? o->name : "", o->index, o->scale);
        else
            sb_printf(b, att ? "(%%%s)" : "[%s]", o->name);
        break;
    case FE_XO_MEM_ABS: sb_printf(b, att ? "(%" PRId64 ")" : "[%" PRId64 "]", o->imm); break;
    case FE_XO_LABEL: sb_add(b, o->name); break;
    case FE_XO_NONE: break;
    }
}

/* X86 in herd's canonical Intel form ("LOCK; XCHG [x],EAX"); X86_64 in
 * AT&T order with a lower-case mnemonic ("movl $1,(x)"). */
char *lw_src_x86(const fe_test *ft, const fe_x86_instr *in)
{
    strbuf b = {0};
    bool att = isa_of(ft->arch)->att;
    if (in->lock)
        sb_add(&b, att ? "lock " : "LOCK; ");
    const char *name = fe_x86_op_name(in->op);
    if (att) {
        for (const char *p = name; *p; p++)
            sb_addc(&b, (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p));
        static const char suffix[9] = {0, 'b', 'w', 0, 'l', 0, 0, 0, 'q'};
        if (in->size > 0 && in->size <= 8 && suffix[in->size])
            sb_addc(&b, suffix[in->size]);
    } else {
        sb_add(&b, name);
    }
    const fe_x86_opnd *first = att ? &in->src : &in->dst, *second = att ? &in->dst : &in->src;
    if (first->kind == FE_XO_NONE && second->kind != FE_XO_NONE) {
        const fe_x86_opnd *t = first;
        first = second;
        second = t;
    }
    if (first->kind != FE_XO_NONE) {
        sb_addc(&b, ' ');
        add_operand_src(&b, ft, first);
        if (second->kind != FE_XO_NONE) {
            sb_addc(&b, ',');
            add_operand_src(&b, ft, second);
        }
    }
    return sb_take(&b);
}

static void expr(strbuf *b, const fe_test *ft, const fe_expr *e);
static void expr_top(strbuf *b, const fe_test *ft, const fe_expr *e);

static void args(strbuf *b, const fe_test *ft, const fe_expr *e)
{
    for (int i = 0; i < e->nargs; i++) {
        if (i)
            sb_add(b, ", ");
        expr_top(b, ft, e->args[i]);
    }
}

static void expr(strbuf *b, const fe_test *ft, const fe_expr *e)
{
    if (!e) {
        sb_add(b, "?");
        return;
    }
    switch (e->kind) {
    case FE_E_CONST: sb_printf(b, "%" PRId64, e->value); break;
    case FE_E_REG: sb_add(b, e->name ? e->name : "?"); break;
    case FE_E_DEREF:
        sb_addc(b, '*');
        if (e->l && e->l->kind == FE_E_BIN)
            sb_addc(b, '(');
        expr(b, ft, e->l);
        if (e->l && e->l->kind == FE_E_BIN)
            sb_addc(b, ')');
        break;
    case FE_E_BIN:
        sb_addc(b, '(');
        expr(b, ft, e->l);
        sb_printf(b, " %s ", fe_binop_name(e->op, ft->arch));
        expr(b, ft, e->r);
        sb_addc(b, ')');
        break;
    case FE_E_CAST:
        sb_printf(b, "(%s)", e->type ? e->type : "?");
        expr(b, ft, e->l);
        break;
    case FE_E_CCALL:
    case FE_E_JCALL:
        fe_print_call_open(b, e);
        args(b, ft, e);
        if (e->explicit_form && e->mo != FE_MO_NONE)
            sb_printf(b, "%s%s", e->nargs ? ", " : "", fe_mo_name(e->mo));
        if (e->explicit_form && e->mo_fail != FE_MO_NONE)
            sb_printf(b, ", %s", fe_mo_name(e->mo_fail));
        sb_addc(b, ')');
        break;
    }
}

/* A statement-level expression: no parentheses around a top binary operator. */
static void expr_top(strbuf *b, const fe_test *ft, const fe_expr *e)
{
    if (e && e->kind == FE_E_BIN) {
        expr(b, ft, e->l);
        sb_printf(b, " %s ", fe_binop_name(e->op, ft->arch));
        expr(b, ft, e->r);
    } else {
        expr(b, ft, e);
    }
}

char *lw_src_stmt(const fe_test *ft, const fe_stmt *s)
{
    strbuf b = {0};
    switch (s->kind) {
    case FE_S_DECL:
        sb_printf(&b, "%s %s", s->type ? s->type : "int", s->name);
        if (s->e) {
            sb_add(&b, " = ");
            expr_top(&b, ft, s->e);
        }
        sb_addc(&b, ';');
        break;
    case FE_S_ASSIGN:
        sb_printf(&b, "%s = ", s->name);
        expr_top(&b, ft, s->e);
        sb_addc(&b, ';');
        break;
    case FE_S_STORE:
        sb_addc(&b, '*');
        expr(&b, ft, s->addr);
        sb_add(&b, " = ");
        expr_top(&b, ft, s->e);
        sb_addc(&b, ';');
        break;
    case FE_S_EXPR:
        expr_top(&b, ft, s->e);
        sb_addc(&b, ';');
        break;
    case FE_S_IF:
        sb_add(&b, "if (");
        expr_top(&b, ft, s->e);
        sb_addc(&b, ')');
        break;
    case FE_S_BLOCK:
        sb_add(&b, "{...}");
        break;
    case FE_S_SYNC:
        sb_printf(&b, "synchronized (%s)", s->name);
        break;
    case FE_S_WHILE:
    case FE_S_DO:
        sb_add(&b, "while (");
        expr_top(&b, ft, s->e);
        sb_addc(&b, ')');
        break;
    case FE_S_JOIN:
        sb_printf(&b, "%s.join();", s->name);
        break;
    }
    return sb_take(&b);
}
