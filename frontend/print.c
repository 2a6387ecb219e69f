/* Print a test back in canonical herd syntax.  The output is meant to be
 * read again by fe_parse and give an equal tree, so it keeps every
 * distinction the tree keeps (typed init items, explicit vs default C
 * orders, Java access modes) and adds parentheses only where precedence
 * needs them. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "frontend/frontend.h"
#include "frontend/internal.h"
#include "util/mem.h"

void fe_print_value(strbuf *b, const fe_value *v)
{
    if (v->kind == FE_VAL_ADDR)
        sb_add(b, v->sym);
    else if (v->text)
        sb_add(b, v->text);     /* the spelling is part of herd's hash */
    else
        sb_printf(b, "%" PRId64, v->i);
}

void fe_print_loc(strbuf *b, const fe_loc *l, bool brackets)
{
    if (l->kind == FE_LOC_REG && l->symbolic)
        sb_printf(b, "%%%s", l->name);     /* herd's symbolic register: no thread written */
    else if (l->kind == FE_LOC_REG) {
        sb_printf(b, "%d:%s", l->thread, l->text ? l->text : l->name);
    } else if (l->index >= 0) {
        sb_printf(b, "%s[%d]", l->name, l->index);
    } else if (brackets) {
        sb_printf(b, "[%s]", l->name);
    } else {
        sb_add(b, l->name);
    }
}

static void print_init(strbuf *b, const fe_test *t)
{
    sb_add(b, "{");
    for (int i = 0; i < t->ninit; i++) {
        const fe_init *it = &t->init[i];
        sb_addc(b, ' ');
        if (it->type) {
            sb_add(b, it->type);
            sb_addc(b, ' ');
        }
        fe_print_loc(b, &it->loc, false);
        if (it->array_size) {
            sb_printf(b, "[%d]", it->array_size);
            if (it->has_value) {
                sb_add(b, "={");
                for (int j = 0; j < it->nelems; j++) {
                    if (j)
                        sb_addc(b, ',');
                    fe_print_value(b, &it->elems[j]);
                }
                sb_addc(b, '}');
            }
        } else if (it->has_value) {
            sb_addc(b, '=');
            fe_print_value(b, &it->value);
        }
        sb_addc(b, ';');
    }
    sb_add(b, " }\n");
}

/* ---- x86 ------------------------------------------------------------------- */
/* HERD_HASH: as herd's dump_instruction writes it, a blank after the base
 * of a scaled operand, and a scale of 0 left out as a displacement of 0 is:
 * `(%rax, %rbx,8)`, `(%rax, %rbx,)`. */
static void print_x86_opnd(strbuf *b, const fe_test *t, const fe_x86_opnd *o, bool herd_hash)
{
    bool att = isa_of(t->arch)->att;
    switch (o->kind) {
    case FE_XO_NONE: break;
    case FE_XO_IMM: sb_printf(b, "$%" PRId64, o->imm); break;
    case FE_XO_REG:
        if (att)
            sb_printf(b, "%%%s", x86_64_reg_sized(o->name, o->reg_size));
        else
            sb_add(b, o->name);
        break;
    case FE_XO_MEM: sb_printf(b, att ? "(%s)" : "[%s]", o->name); break;
    case FE_XO_MEM_REG:
        if (att && o->sym)
            sb_add(b, o->sym);
        if (att && o->imm)
            sb_printf(b, "%" PRId64, o->imm);
        if (att && o->index)
            sb_printf(b, "(%s%s,%s%%%s,%.*d)", o->name ? "%" : "",
                      o->name ? x86_64_reg_sized(o->name, o->reg_size) : "", herd_hash ? " " : "",
                      x86_64_reg_sized(o->index, o->index_size), herd_hash ? 0 : 1, o->scale);
        else if (att)
            sb_printf(b, "(%%%s)", x86_64_reg_sized(o->name, o->reg_size));
        else
            sb_printf(b, "[%s]", o->name);
        break;
    case FE_XO_MEM_ABS: sb_printf(b, att ? "(%" PRId64 ")" : "[%" PRId64 "]", o->imm); break;
    case FE_XO_LABEL: sb_add(b, o->name); break;
    }
}

void fe_print_x86_instr(strbuf *b, const fe_test *t, const fe_x86_instr *in, bool herd_hash)
{
    bool att = isa_of(t->arch)->att;
    if (in->label && !herd_hash)
        sb_printf(b, "%s: ", in->label);
    if (in->op == FE_X86_EMPTY)
        return;
    if (herd_hash && in->op == FE_X86_NOP) {   /* herd prints NOP in capitals in both syntaxes */
        sb_add(b, "NOP");
        return;
    }
    if (in->lock)
        sb_add(b, herd_hash ? (att ? "lock; " : "LOCK; ") : (att ? "lock " : "LOCK "));
    const char *nm = fe_x86_op_name(in->op);
    static const char suffix[9] = {0, 'B', 'W', 0, 'L', 0, 0, 0, 'Q'};
    char mn[24];
    size_t k = 0;
    for (; nm[k] && k < 20; k++)
        mn[k] = att ? (char)tolower((unsigned char)nm[k]) : nm[k];
    /* herd's hash folds MOVB/W/L/Q into MOV in 32-bit mode */
    if (in->size > 0 && in->size <= 8 && suffix[in->size] && !(herd_hash && !att && in->op == FE_X86_MOV))
        mn[k++] = att ? (char)tolower((unsigned char)suffix[in->size]) : suffix[in->size];
    mn[k] = 0;
    sb_add(b, in->ext ? in->ext : mn);
    /* herd's own printer leaves two blanks after DEC, INC and CMP */
    if (herd_hash && !att && (in->op == FE_X86_DEC || in->op == FE_X86_INC || in->op == FE_X86_CMP))
        sb_addc(b, ' ');
    if (in->dst.kind == FE_XO_NONE)
        return;
    sb_addc(b, ' ');
    if (att && in->src.kind != FE_XO_NONE && in->op != FE_X86_CMPXCHG) {
        print_x86_opnd(b, t, &in->src, herd_hash);
        sb_addc(b, ',');
        print_x86_opnd(b, t, &in->dst, herd_hash);
    } else {
        print_x86_opnd(b, t, &in->dst, herd_hash);
        if (in->src.kind != FE_XO_NONE) {
            sb_addc(b, ',');
            print_x86_opnd(b, t, &in->src, herd_hash);
        }
    }
}

char *fe_x86_instr_text(const fe_test *t, const fe_x86_instr *in)
{
    strbuf b = {0};
    sb_add(&b, "");
    fe_print_x86_instr(&b, t, in, false);
    while (b.len && b.s[b.len - 1] == ' ')
        b.s[--b.len] = 0;
    return sb_take(&b);
}

/* The instruction in ROW of TH, or NULL; *K is a cursor into th->code that
 * only moves forward, so printing a whole program stays linear (code is
 * kept in row order). */
static const fe_x86_instr *cell_at(const fe_thread *th, int row, int *k)
{
    while (*k < th->ncode && th->code[*k].row < row)
        (*k)++;
    return *k < th->ncode && th->code[*k].row == row ? &th->code[*k] : NULL;
}

void fe_print_x86(strbuf *b, const fe_test *t)
{
    int nt = t->nthreads, nr = t->nrows;
    char **cells = xcalloc((size_t)(nr + 1) * (size_t)(nt ? nt : 1), sizeof *cells);
    size_t *width = xcalloc((size_t)(nt ? nt : 1), sizeof *width);
    for (int j = 0; j < nt; j++) {
        cells[j] = xstrdup(t->threads[j].name);
        int k = 0;
        for (int r = 0; r < nr; r++) {
            strbuf c = {0};
            const fe_x86_instr *in = cell_at(&t->threads[j], r, &k);
            if (in)
                fe_print_x86_instr(&c, t, in, false);
            /* a cell holding only a label prints as "L:" */
            while (c.len && c.s[c.len - 1] == ' ')
                c.s[--c.len] = 0;
            cells[(size_t)(r + 1) * (size_t)nt + (size_t)j] = sb_take(&c);
        }
    }
    for (int j = 0; j < nt; j++)
        for (int r = 0; r <= nr; r++) {
            size_t n = strlen(cells[(size_t)r * (size_t)nt + (size_t)j]);
            if (n > width[j])
                width[j] = n;
        }
    for (int r = 0; r <= nr; r++) {
        for (int j = 0; j < nt; j++) {
            const char *c = cells[(size_t)r * (size_t)nt + (size_t)j];
            sb_printf(b, "%s %-*s ", j ? "|" : "", (int)width[j], c);
        }
        sb_add(b, ";\n");
    }
    for (size_t i = 0; i < (size_t)(nr + 1) * (size_t)nt; i++)
        free(cells[i]);
    free(cells);
    free(width);
}

/* ---- C and Java -------------------------------------------------------------- */
static int binop_level(fe_binop op)
{
    switch (op) {
    case FE_OR: return 0;
    case FE_XOR: return 1;
    case FE_AND: return 2;
    case FE_EQ: case FE_NE: case FE_LT: case FE_LE: case FE_GT: case FE_GE: return 3;
    case FE_ADD: case FE_SUB: return 4;
    default: return 5;
    }
}

static void print_expr(strbuf *b, const fe_test *t, const fe_expr *e, int minlvl);

void fe_print_call_open(strbuf *b, const fe_expr *e)
{
    if (e->kind == FE_E_CCALL) {
        sb_add(b, fe_c_call_name(e->ccall, e->explicit_form));
    } else {
        if (e->name)
            sb_printf(b, "%s.", e->name);
        sb_add(b, fe_jmethod_name(e->jmethod, e->jmode));
    }
    sb_addc(b, '(');
}

static void print_args(strbuf *b, const fe_test *t, const fe_expr *e)
{
    for (int i = 0; i < e->nargs; i++) {
        if (i)
            sb_add(b, ", ");
        print_expr(b, t, e->args[i], 0);
    }
}

/* *ADDR, read or written: a bare register needs no parentheses, any other
 * address does (unary * binds tighter than every binary operator). */
static void print_deref(strbuf *b, const fe_test *t, const fe_expr *addr)
{
    sb_addc(b, '*');
    if (addr->kind == FE_E_REG) {
        sb_add(b, addr->name);
    } else {
        sb_addc(b, '(');
        print_expr(b, t, addr, 0);
        sb_addc(b, ')');
    }
}

static void print_expr(strbuf *b, const fe_test *t, const fe_expr *e, int minlvl)
{
    switch (e->kind) {
    case FE_E_CONST: sb_printf(b, "%" PRId64, e->value); break;
    case FE_E_REG: sb_add(b, e->name); break;
    case FE_E_DEREF:
        print_deref(b, t, e->l);
        break;
    case FE_E_CAST:
        sb_printf(b, "(%s)", e->type);
        if (e->l->kind == FE_E_BIN) {
            sb_addc(b, '(');
            print_expr(b, t, e->l, 0);
            sb_addc(b, ')');
        } else {
            print_expr(b, t, e->l, 6);
        }
        break;
    case FE_E_BIN: {
        int lvl = binop_level(e->op);
        bool paren = lvl < minlvl;
        if (paren)
            sb_addc(b, '(');
        print_expr(b, t, e->l, lvl == 3 ? 4 : lvl);
        sb_printf(b, " %s ", fe_binop_name(e->op, t->arch));
        print_expr(b, t, e->r, lvl + 1);
        if (paren)
            sb_addc(b, ')');
        break;
    }
    case FE_E_CCALL:
    case FE_E_JCALL:
        fe_print_call_open(b, e);
        print_args(b, t, e);
        if (e->explicit_form && !(e->kind == FE_E_CCALL && e->ccall >= FE_C_SPIN_LOCK)) {
            if (e->nargs)
                sb_add(b, ", ");
            sb_add(b, fe_mo_name(e->mo));
            if (e->ccall == FE_C_CAS_STRONG || e->ccall == FE_C_CAS_WEAK)
                sb_printf(b, ", %s", fe_mo_name(e->mo_fail));
        }
        sb_addc(b, ')');
        break;
    }
}

static void indent(strbuf *b, int n)
{
    for (int i = 0; i < n; i++)
        sb_add(b, "  ");
}

static void print_stmt(strbuf *b, const fe_test *t, const fe_stmt *s, int ind);

static void print_block_items(strbuf *b, const fe_test *t, const fe_stmt *blk, int ind)
{
    for (int i = 0; i < blk->nbody; i++)
        print_stmt(b, t, blk->body[i], ind);
}

/* A branch of an if: a block prints inline ` {...}` and leaves the line
 * open; anything else goes on its own lines, one level deeper. */
/* Would an `else` printed after S attach to an if inside S? */
static bool dangles(const fe_stmt *s)
{
    if (s->kind != FE_S_IF)
        return false;
    if (!s->else_s)
        return true;
    return s->else_s->kind != FE_S_BLOCK && dangles(s->else_s);
}

static bool print_branch(strbuf *b, const fe_test *t, const fe_stmt *s, int ind, bool guard)
{
    if (guard) {
        /* braces keep a following else on this if; they carry no meaning */
        sb_add(b, " {\n");
        print_stmt(b, t, s, ind + 1);
        indent(b, ind);
        sb_addc(b, '}');
        return true;
    }
    if (s->kind == FE_S_BLOCK) {
        sb_add(b, " {\n");
        print_block_items(b, t, s, ind + 1);
        indent(b, ind);
        sb_addc(b, '}');
        return true;
    }
    sb_addc(b, '\n');
    print_stmt(b, t, s, ind + 1);
    return false;
}

static void print_stmt(strbuf *b, const fe_test *t, const fe_stmt *s, int ind)
{
    indent(b, ind);
    switch (s->kind) {
    case FE_S_DECL:
        sb_printf(b, "%s %s", s->type, s->name);
        if (s->e) {
            sb_add(b, " = ");
            print_expr(b, t, s->e, 0);
        }
        sb_add(b, ";\n");
        break;
    case FE_S_ASSIGN:
        sb_printf(b, "%s = ", s->name);
        print_expr(b, t, s->e, 0);
        sb_add(b, ";\n");
        break;
    case FE_S_STORE:
        print_deref(b, t, s->addr);
        sb_add(b, " = ");
        print_expr(b, t, s->e, 0);
        sb_add(b, ";\n");
        break;
    case FE_S_EXPR:
        print_expr(b, t, s->e, 0);
        sb_add(b, ";\n");
        break;
    case FE_S_IF: {
        sb_add(b, "if (");
        print_expr(b, t, s->e, 0);
        sb_addc(b, ')');
        bool open = print_branch(b, t, s->then_s, ind, s->else_s && dangles(s->then_s));
        if (s->else_s) {
            if (open) {
                sb_add(b, " else");
            } else {
                indent(b, ind);
                sb_add(b, "else");
            }
            open = print_branch(b, t, s->else_s, ind, false);
        }
        if (open)
            sb_addc(b, '\n');
        break;
    }
    case FE_S_BLOCK:
        sb_add(b, "{\n");
        print_block_items(b, t, s, ind + 1);
        indent(b, ind);
        sb_add(b, "}\n");
        break;
    case FE_S_SYNC:
        sb_printf(b, "synchronized (%s) {\n", s->name);
        print_block_items(b, t, s->then_s, ind + 1);
        indent(b, ind);
        sb_add(b, "}\n");
        break;
    case FE_S_WHILE:
        sb_add(b, "while (");
        print_expr(b, t, s->e, 0);
        sb_addc(b, ')');
        if (print_branch(b, t, s->then_s, ind, false))
            sb_addc(b, '\n');
        break;
    case FE_S_DO:
        sb_add(b, "do");
        if (!print_branch(b, t, s->then_s, ind, s->then_s->kind != FE_S_BLOCK))
            indent(b, ind);
        else
            sb_addc(b, ' ');
        sb_add(b, "while (");
        print_expr(b, t, s->e, 0);
        sb_add(b, ");\n");
        break;
    case FE_S_JOIN:
        sb_printf(b, "%s.join();\n", s->name);
        break;
    }
}

static void print_threads(strbuf *b, const fe_test *t)
{
    for (int i = 0; i < t->nthreads; i++) {
        const fe_thread *th = &t->threads[i];
        if (i)
            sb_addc(b, '\n');
        if (t->arch == FE_ARCH_C) {
            sb_printf(b, "%s(", th->name);
            for (int j = 0; j < th->nparams; j++)
                sb_printf(b, "%s%s* %s", j ? ", " : "", th->params[j].type, th->params[j].name);
            sb_add(b, ") {\n");
        } else {
            sb_printf(b, "%s {\n", th->name);
        }
        if (th->body)
            print_block_items(b, t, th->body, 1);
        sb_add(b, "}\n");
    }
}

/* ---- condition ---------------------------------------------------------------- */
/* Does P hold an atom KEEP leaves out? */
static bool holds_gone(const fe_prop *p, fe_prop_keep keep, void *ctx)
{
    if (!p || !keep)
        return false;
    if (p->kind == FE_P_ATOM)
        return !keep(p, ctx);
    return holds_gone(p->l, keep, ctx) || holds_gone(p->r, keep, ctx);
}

bool fe_prop_kept(const fe_prop *p, fe_prop_keep keep, void *ctx)
{
    if (p->kind == FE_P_AND)
        return fe_prop_kept(p->l, keep, ctx) || fe_prop_kept(p->r, keep, ctx);
    return !holds_gone(p, keep, ctx);
}

/* P's precedence as printed: an and with one side gone prints as that side. */
static int prop_level(const fe_prop *p, fe_prop_keep keep, void *ctx)
{
    switch (p->kind) {
    case FE_P_OR: return 1;
    case FE_P_AND:
        if (!fe_prop_kept(p->l, keep, ctx))
            return prop_level(p->r, keep, ctx);
        if (!fe_prop_kept(p->r, keep, ctx))
            return prop_level(p->l, keep, ctx);
        return 2;
    case FE_P_IMPLIES: return 3;
    default: return 5;
    }
}

/* P at least at level MINLVL (parenthesised below it); one printer for
 * whole conditions and for those a reducer has dropped atoms from. */
static void print_prop(strbuf *b, const fe_prop *p, int minlvl, fe_prop_keep keep, void *ctx)
{
    if (p->kind == FE_P_AND && keep && (!fe_prop_kept(p->l, keep, ctx) || !fe_prop_kept(p->r, keep, ctx))) {
        print_prop(b, fe_prop_kept(p->l, keep, ctx) ? p->l : p->r, minlvl, keep, ctx);
        return;
    }
    int lvl = prop_level(p, keep, ctx);
    bool paren = lvl < minlvl;
    if (paren)
        sb_addc(b, '(');
    switch (p->kind) {
    case FE_P_TRUE: sb_add(b, "true"); break;
    case FE_P_FALSE: sb_add(b, "false"); break;
    case FE_P_ATOM:
        fe_print_loc(b, &p->lhs, true);
        sb_add(b, p->ne ? "!=" : "=");
        if (p->rhs_is_loc)
            fe_print_loc(b, &p->rhs_loc, true);
        else
            fe_print_value(b, &p->rhs);
        break;
    case FE_P_NOT:
        sb_add(b, "~");
        print_prop(b, p->l, 5, keep, ctx);
        break;
    case FE_P_AND:
    case FE_P_OR:
    case FE_P_IMPLIES: {
        /* The least level each side may have bare: /\ and \/ associate to
         * the left, => to the right and tighter than /\. */
        static const struct { const char *op; int l, r; } bin[] = {
            [FE_P_AND] = {" /\\ ", 2, 3}, [FE_P_OR] = {" \\/ ", 1, 2}, [FE_P_IMPLIES] = {" => ", 4, 3},
        };
        print_prop(b, p->l, bin[p->kind].l, keep, ctx);
        sb_add(b, bin[p->kind].op);
        print_prop(b, p->r, bin[p->kind].r, keep, ctx);
        break;
    }
    }
    if (paren)
        sb_addc(b, ')');
}

void fe_print_prop(strbuf *b, const fe_prop *p, fe_prop_keep keep, void *ctx)
{
    if (fe_prop_kept(p, keep, ctx))
        print_prop(b, p, 0, keep, ctx);
    else
        sb_add(b, "true");
}

static void print_cond(strbuf *b, const fe_test *t)
{
    const fe_cond *c = &t->cond;
    if (c->nlocations) {
        sb_add(b, "locations [");
        for (int i = 0; i < c->nlocations; i++) {
            fe_print_loc(b, &c->locations[i], false);
            sb_add(b, "; ");
        }
        b->len--;
        b->s[b->len] = 0;
        sb_add(b, "]\n");
    }
    if (c->filter) {
        sb_add(b, "filter ");
        print_prop(b, c->filter, 0, NULL, NULL);
        sb_addc(b, '\n');
    }
    static const char *const q[] = {"exists", "~exists", "forall"};
    sb_printf(b, "%s (", q[c->quant]);
    if (c->prop)
        print_prop(b, c->prop, 0, NULL, NULL);
    else
        sb_add(b, "true");
    sb_add(b, ")\n");
}

char *fe_print(const fe_test *t)
{
    strbuf b = {0};
    sb_printf(&b, "%s %s\n", t->arch_name ? t->arch_name : fe_arch_name(t->arch), t->name);
    if (t->doc)
        sb_printf(&b, "\"%s\"\n", t->doc);
    for (int i = 0; i < t->ninfo; i++)
        sb_printf(&b, "%s=%s\n", t->info[i].key, t->info[i].value);
    print_init(&b, t);
    const fe_isa_hooks *h = fe_isa_hooks_of(t->arch);
    if (h)
        h->print(&b, t);
    else
        print_threads(&b, t);
    if (t->extra)
        sb_printf(&b, "\n%s\n", t->extra);
    sb_addc(&b, '\n');
    print_cond(&b, t);
    return sb_take(&b);
}

