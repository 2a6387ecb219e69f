/* Operands of X86 and X86_64 instructions: immediates, registers of every
 * width, memory operands (`[x]`, `(x)`, `x(%rip)`, through a register,
 * symbolic registers), and labels; the part of the program table's
 * grammar (frontend/parse_x86.c) that the two syntaxes differ in most. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "frontend/internal.h"
#include "util/mem.h"


/* The init item declaring symbolic register NAME (`uint64_t %NAME=x`), or NULL. */
static fe_init *symbolic_init(fe_test *t, const char *name)
{
    for (int i = 0; i < t->ninit; i++)
        if (t->init[i].loc.symbolic && !strcmp(t->init[i].loc.name, name))
            return &t->init[i];
    return NULL;
}

bool fe_x86_is_mem(const fe_x86_opnd *o)
{
    return o->kind == FE_XO_MEM || o->kind == FE_XO_MEM_REG || o->kind == FE_XO_MEM_ABS;
}

static bool parse_imm(fe_x86_parser *p, fe_x86_opnd *o)
{
    lexer *lx = &p->lx;
    bool neg = lx_accept(lx, "-");
    if (lx->failed)
        return false;
    if (lx->cur.kind != TK_NUM)
        return lx_error(lx, "expected a number");
    if (lx->cur.big || lx->cur.num > (uint64_t)INT64_MAX + (neg ? 1 : 0))
        return lx_error(lx, "immediate out of range");
    o->kind = FE_XO_IMM;
    o->imm = neg ? (int64_t)(0 - lx->cur.num) : (int64_t)lx->cur.num;
    return lx_next(lx);
}

/* Register token -> operand fields; reports unknown registers. */
static bool set_reg(fe_x86_parser *p, fe_x86_opnd *o, const tok *rt)
{
    char name[24];
    if (rt->len >= sizeof name) {
        return lx_error_at(&p->lx, rt->line, rt->col, "unknown register '%.20s...'", rt->s);
    }
    memcpy(name, rt->s, rt->len);
    name[rt->len] = 0;
    if (p->att) {
        int size;
        const char *r = x86_64_reg(name, &size);
        fe_init *sym = r ? NULL : symbolic_init(p->t, name);
        if (!r && !sym)
            return lx_error_at(&p->lx, rt->line, rt->col, "unknown register '%%%s'", name);
        if (sym) {
            /* herd's rule: one thread uses a symbolic register, and that
             * thread's register it is */
            if (sym->loc.thread >= 0 && sym->loc.thread != p->thread)
                return lx_error_at(&p->lx, rt->line, rt->col,
                                   "symbolic register '%%%s' used by P%d and P%d: a symbolic register is one "
                                   "thread's", name, sym->loc.thread, p->thread);
            sym->loc.thread = p->thread;
            o->name = xstrdup(name);
            o->reg_size = 8;
            return true;
        }
        o->name = xstrdup(r);
        o->reg_size = size;
    } else {
        const char *r = x86_reg(name);
        if (!r)
            return lx_error_at(&p->lx, rt->line, rt->col, "unknown register '%s'", name);
        o->name = xstrdup(r);
        o->reg_size = 4;
    }
    return true;
}

/* herd takes any number as a scale; here 0, which LLVM's padding `nopw
 * 0(%rax,%rax,0)` as herd's tests write it has, and the hardware's four. */
static bool scale_ok(uint64_t k)
{
    return k == 0 || k == 1 || k == 2 || k == 4 || k == 8;
}

/* Inside [ ] or ( ): a location, a register, or an absolute address. */
static bool parse_mem_inner(fe_x86_parser *p, fe_x86_opnd *o, const char *close)
{
    lexer *lx = &p->lx;
    if (lx->cur.kind == TK_NUM) {
        if (lx->cur.big || lx->cur.num > (uint64_t)INT64_MAX)
            return lx_error(lx, "address out of range");
        o->kind = FE_XO_MEM_ABS;
        o->imm = (int64_t)lx->cur.num;
        if (!lx_next(lx))
            return false;
        return lx_expect(lx, close);
    }
    if (p->att && o->sym && lx_is(lx, ",")) {
        /* x(,%rdx,4): no base */
        o->kind = FE_XO_MEM_REG;
        goto index;
    }
    bool pct = lx_accept(lx, "%");
    if (lx->failed)
        return false;
    if (lx->cur.kind != TK_IDENT)
        return lx_error(lx, "expected a location or a register");
    tok id = lx->cur;
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(id.len > 60 ? 60 : id.len), id.s);
    int size;
    bool isreg = pct || (p->att ? false : x86_reg(name) != NULL);
    if (!p->att && !pct && x86_reg(name) == NULL && x86_64_reg(name, &size) && size == 8)
        return lx_error(lx, "unknown register '%s' (X86 has 32-bit registers)", name);
    if (isreg) {
        o->kind = FE_XO_MEM_REG;
        if (!set_reg(p, o, &id))
            return false;
        if (!lx_next(lx))
            return false;
    index:
        if (p->att && lx_accept(lx, ",")) {
            /* (%base,%index,scale), herd's Rm64_scaled */
            if (!lx_expect(lx, "%"))
                return false;
            if (lx->cur.kind != TK_IDENT)
                return lx_error(lx, "expected an index register");
            fe_x86_opnd ix = {0};
            if (!set_reg(p, &ix, &lx->cur))
                return false;
            o->index = ix.name;
            o->index_size = ix.reg_size;
            if (!lx_next(lx) || !lx_expect(lx, ","))
                return false;
            if (lx->cur.kind != TK_NUM || lx->cur.big || !scale_ok(lx->cur.num))
                return lx_error(lx, "expected a scale of 0, 1, 2, 4 or 8");
            o->scale = (int)lx->cur.num;
            if (!lx_next(lx))
                return false;
        }
        if (lx->failed)
            return false;
        return lx_expect(lx, close);
    } else {
        o->kind = FE_XO_MEM;
        o->name = tok_str(&id);
    }
    if (!lx_next(lx))
        return false;
    return lx_expect(lx, close);
}

/* `%cs:0(%rax,%rdx,1)`, a segment override before a memory operand (the
 * current token is the register after the '%', a ':' follows).  herd's
 * grammar takes it and drops it (lib/X86_64Parser.mly); in 64-bit mode the
 * code segment's base is 0, so the operand is the memory operand alone and
 * the tree keeps no trace of the prefix.  Other segments (%fs, %gs: thread
 * storage) are refused by name. */
static bool segment(fe_x86_parser *p, fe_x86_opnd *o)
{
    lexer *lx = &p->lx;
    fe_pos at = o->pos;
    if (lx->cur.len != 2 || strncasecmp(lx->cur.s, "cs", 2) != 0)
        return lx_error_at(lx, at.line, at.col, "segment override %%%.*s: is not supported (only %%cs:)",
                           (int)(lx->cur.len > 20 ? 20 : lx->cur.len), lx->cur.s);
    if (!lx_next(lx) || !lx_expect(lx, ":"))
        return false;
    if (!fe_x86_parse_operand(p, o, false))
        return false;
    o->pos = at;
    if (!fe_x86_is_mem(o))
        return lx_error_at(lx, at.line, at.col, "a segment override needs a memory operand after it");
    return true;
}

bool fe_x86_parse_operand(fe_x86_parser *p, fe_x86_opnd *o, bool want_label)
{
    lexer *lx = &p->lx;
    memset(o, 0, sizeof *o);
    o->pos.line = lx->cur.line;
    o->pos.col = lx->cur.col;
    if (want_label) {
        if (lx->cur.kind != TK_IDENT)
            return lx_error(lx, "expected a label");
        o->kind = FE_XO_LABEL;
        o->name = tok_str(&lx->cur);
        return lx_next(lx);
    }
    if (lx_accept(lx, "$"))
        return parse_imm(p, o);
    if (lx->failed)
        return false;
    if (lx_accept(lx, "["))
        return parse_mem_inner(p, o, "]");
    if (lx->failed)
        return false;
    if (lx_accept(lx, "("))
        return parse_mem_inner(p, o, ")");
    if (lx->failed)
        return false;
    if (lx_accept(lx, "%")) {
        if (!p->att)
            return lx_error_at(lx, o->pos.line, o->pos.col,
                               "symbolic registers '%%name' are not supported");
        if (lx->cur.kind != TK_IDENT)
            return lx_error(lx, "expected a register name after '%%'");
        const char *q = lx->cur.end;
        while (q < lx->end && (*q == ' ' || *q == '\t'))
            q++;
        if (p->att && q < lx->end && *q == ':')
            return segment(p, o);
        o->kind = FE_XO_REG;
        if (!set_reg(p, o, &lx->cur))
            return false;
        return lx_next(lx);
    }
    if (lx->failed)
        return false;
    if (lx->cur.kind == TK_NUM || lx_is(lx, "-")) {
        if (!p->att)
            return parse_imm(p, o);
        /* 8(%rax), -4(%rax,%rdx,4): a displacement before a register base;
         * a number not followed by '(' is an immediate without its '$',
         * which herd reads as one (its `k` operand: `shl 2,%eax`) */
        const char *q = lx->cur.end;
        if (lx_is(lx, "-")) {
            while (q < lx->end && (*q == ' ' || *q == '\t'))
                q++;
            while (q < lx->end && (isalnum((unsigned char)*q)))
                q++;
        }
        while (q < lx->end && (*q == ' ' || *q == '\t'))
            q++;
        if (q >= lx->end || *q != '(')
            return parse_imm(p, o);
        fe_x86_opnd d;
        if (!parse_imm(p, &d))
            return false;
        if (!lx_next(lx) || !lx_is(lx, "%"))
            return lx_error(lx, "expected a base register after the displacement");
        if (!parse_mem_inner(p, o, ")"))
            return false;
        o->imm = d.imm;
        return true;
    }
    if (lx->cur.kind == TK_IDENT) {
        if (p->att) {
            /* bare symbol: memory at that location; `x(%rip)`, the form
               compilers write for a global, is the same location */
            o->kind = FE_XO_MEM;
            o->name = tok_str(&lx->cur);
            if (!lx_next(lx))
                return false;
            if (!lx_accept(lx, "("))
                return !lx->failed;
            const char *q = lx->cur.end;
            if (lx_is(lx, "%") && q + 3 <= lx->end && !strncasecmp(q, "rip", 3)) {
                if (!lx_next(lx) || !lx_next(lx))
                    return false;
                return lx_expect(lx, ")");
            }
            /* x(%rax), x(,%rdx,4), x(%rax,%rdx,4): x's address plus registers */
            if (!lx_is(lx, "%") && !lx_is(lx, ","))
                return lx_error(lx, "expected %%rip or a register after '%s('", o->name);
            o->sym = o->name;
            o->name = NULL;
            if (!parse_mem_inner(p, o, ")"))
                return false;
            if (o->kind != FE_XO_MEM_REG)
                return lx_error_at(lx, o->pos.line, o->pos.col, "expected a register after '%s('", o->sym);
            return true;
        }
        o->kind = FE_XO_REG;
        if (!set_reg(p, o, &lx->cur))
            return false;
        return lx_next(lx);
    }
    return lx_error(lx, "expected an operand");
}

