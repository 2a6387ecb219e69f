/* The IR's text form (ir/README.md).  It is both the debugging output of
 * `litmusc ir` and an input (ir/read.c), so everything in an ir_test is
 * printed, and printing a test read back from this text gives the same
 * bytes. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "ir/ir.h"
#include "ir/text.h"
#include "util/mem.h"

/* An identifier ([A-Za-z_][A-Za-z0-9_]*), which the text form writes bare. */
static bool is_word(const char *s)
{
    if (!s || !(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
        return false;
    for (; *s; s++)
        if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
            return false;
    return true;
}

/* A double-quoted string with \" \\ \n \t \xHH escapes. */
static void add_string(strbuf *b, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    sb_addc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            sb_addc(b, '\\');
            sb_addc(b, (char)*p);
        } else if (*p == '\n') {
            sb_add(b, "\\n");
        } else if (*p == '\t') {
            sb_add(b, "\\t");
        } else if (*p < 0x20 || *p == 0x7f) {
            sb_add(b, "\\x");
            sb_addc(b, hex[*p >> 4]);
            sb_addc(b, hex[*p & 15]);
        } else {
            sb_addc(b, (char)*p);
        }
    }
    sb_addc(b, '"');
}

/* A source name: bare when it is an identifier, quoted otherwise. */
static void add_name(strbuf *b, const char *s)
{
    if (is_word(s))
        sb_add(b, s);
    else
        add_string(b, s ? s : "");
}

static void add_val(strbuf *b, const ir_test *t, ir_val v)
{
    if (IR_IS_ADDR(v) && IR_ADDR_LOC(v) >= 0 && IR_ADDR_LOC(v) < t->nlocs) {
        sb_addc(b, '&');
        add_name(b, t->locs[IR_ADDR_LOC(v)].name);
    } else {
        sb_printf(b, "%" PRId64, v);
    }
}

static void add_operand(strbuf *b, const ir_test *t, ir_operand o)
{
    switch (o.kind) {
    case IR_OPND_VAL: sb_printf(b, "%%%d", o.val); break;
    case IR_OPND_IMM: add_val(b, t, o.imm); break;
    default: sb_add(b, "none"); break;
    }
}

static void add_operands(strbuf *b, const ir_test *t, ir_operand x, ir_operand y)
{
    add_operand(b, t, x);
    sb_add(b, ", ");
    add_operand(b, t, y);
}

static void add_obs(strbuf *b, const ir_test *t, const ir_obs *o)
{
    if (o->kind == IR_OBS_REG) {
        sb_printf(b, "%d:", o->thread);
        add_name(b, o->reg);
    } else {
        sb_addc(b, '[');
        if (o->loc >= 0 && o->loc < t->nlocs)
            add_name(b, t->locs[o->loc].name);
        else
            sb_printf(b, "#%d", o->loc);
        sb_addc(b, ']');
    }
}

/* Binding strength of each connective, loosest first, as in herd's grammar:
 * \/ (left), /\ (left), => (right), ~.  Parentheses are printed exactly
 * where the tree differs from what the grammar would rebuild. */
enum { P_OR = 1, P_AND, P_IMPLIES, P_NOT };

static void add_prop(strbuf *b, const ir_test *t, const ir_cond *c, int need)
{
    int prec, lneed, rneed;
    const char *op;
    switch (c->kind) {
    case IR_C_TRUE: sb_add(b, "true"); return;
    case IR_C_FALSE: sb_add(b, "false"); return;
    case IR_C_ATOM:
        add_obs(b, t, &c->lhs);
        sb_add(b, c->ne ? "!=" : "=");
        if (c->rhs_is_obs)
            add_obs(b, t, &c->rhs_obs);
        else
            add_val(b, t, c->rhs);
        return;
    case IR_C_NOT:
        sb_addc(b, '~');
        add_prop(b, t, c->l, P_NOT);
        return;
    case IR_C_OR: prec = P_OR; lneed = P_OR; rneed = P_AND; op = " \\/ "; break;
    case IR_C_AND: prec = P_AND; lneed = P_AND; rneed = P_IMPLIES; op = " /\\ "; break;
    default: prec = P_IMPLIES; lneed = P_NOT; rneed = P_IMPLIES; op = " => "; break;
    }
    ir_text_add_binary(b, t, c, add_prop, prec < need, op, lneed, rneed);
}

void ir_text_add_binary(strbuf *b, const ir_test *t, const ir_cond *c, ir_cond_printer *print, bool paren,
                        const char *op, int lctx, int rctx)
{
    if (paren)
        sb_addc(b, '(');
    print(b, t, c->l, lctx);
    sb_add(b, op);
    print(b, t, c->r, rctx);
    if (paren)
        sb_addc(b, ')');
}

static const char *const type_names[] = {"int", "int128", "ptr"};

static void add_instr(strbuf *b, const ir_test *t, const ir_block *bl, const ir_instr *in)
{
    size_t start = b->len;
    sb_add(b, "    ");
    if (in->dst >= 0)
        sb_printf(b, "%%%d = ", in->dst);
    switch (in->op) {
    case IR_LOAD:
        sb_printf(b, "load.%s ", ir_mode_name(in->mode));
        add_operand(b, t, in->addr);
        if (in->excl)
            sb_add(b, ", excl");
        break;
    case IR_STORE:
        sb_printf(b, "store.%s ", ir_mode_name(in->mode));
        add_operands(b, t, in->addr, in->a);
        if (in->excl)
            sb_add(b, ", excl");
        break;
    case IR_RMW:
        sb_printf(b, "rmw.%s.%s ", ir_rmw_name(in->rmw_op), ir_mode_name(in->mode));
        if (in->rmw_op == IR_RMW_CAS) {
            add_operand(b, t, in->addr);
            sb_add(b, ", expected ");
            add_operand(b, t, in->b);
            sb_add(b, ", new ");
            add_operand(b, t, in->a);
            if (in->fail_mode != IR_MODE_NONE)
                sb_printf(b, ", fail %s", ir_mode_name(in->fail_mode));
            if (in->weak)
                sb_add(b, ", weak");
            if (in->flag >= 0)
                sb_printf(b, ", ok %%%d", in->flag);
        } else {
            add_operands(b, t, in->addr, in->a);
            if (in->waits)
                sb_add(b, ", waits");
        }
        if (in->noret)
            sb_add(b, ", noret");
        break;
    case IR_FENCE:
        sb_printf(b, "fence.%s", ir_fence_name(in->fence));
        if (in->mode != IR_MODE_NONE)
            sb_printf(b, ".%s", ir_mode_name(in->mode));
        break;
    case IR_LOCK:
    case IR_UNLOCK:
        sb_printf(b, "%s.%s ", in->op == IR_UNLOCK ? "unlock" : in->dst >= 0 ? "trylock" : "lock",
                  ir_lock_name(in->lock));
        add_operand(b, t, in->addr);
        break;
    case IR_BIN:
        sb_printf(b, "%s ", ir_binop_name(in->binop));
        add_operands(b, t, in->a, in->b);
        break;
    case IR_PHI:
        sb_add(b, "phi");
        for (int k = 0; k < in->nphi_args; k++) {
            sb_add(b, k ? ", [" : " [");
            add_operand(b, t, in->phi_args[k]);
            /* The predecessor each argument comes from, so that the text
             * reads on its own and the reader can check the order. */
            sb_printf(b, ", b%d]", k < bl->npreds ? bl->preds[k] : -1);
        }
        break;
    case IR_BR:
        sb_add(b, "br ");
        add_operand(b, t, in->a);
        sb_printf(b, ", b%d, b%d", in->then_block, in->else_block);
        if (in->select)
            sb_add(b, ", select");
        break;
    case IR_JMP:
        sb_printf(b, "jmp b%d", in->then_block);
        break;
    case IR_RET:
        sb_add(b, "ret");
        break;
    case IR_CUT:
        sb_printf(b, "cut %lld%s", (long long)in->a.imm, in->spin ? ", spin" : "");
        break;
    default:
        sb_printf(b, "op%d", (int)in->op);
        break;
    }
    if (in->line > 0 || in->col > 0 || in->src) {
        /* Align source positions into a column for readability. */
        size_t w = b->len - start;
        for (; w < 40; w++)
            sb_addc(b, ' ');
        sb_printf(b, " @%d:%d", in->line, in->col);
        if (in->src) {
            sb_addc(b, ' ');
            add_string(b, in->src);
        }
    }
    sb_addc(b, '\n');
}

static void add_reg(strbuf *b, const ir_test *t, const char *kw, const ir_reg *r)
{
    sb_printf(b, "  %s ", kw);
    add_name(b, r->name);
    sb_add(b, " = ");
    add_operand(b, t, r->value);
    if (r->ctype) {
        sb_add(b, " ctype ");
        add_string(b, r->ctype);
    }
    sb_addc(b, '\n');
}

char *ir_print_str(const ir_test *t)
{
    strbuf b = {0};
    sb_add(&b, "test ");
    add_string(&b, t->name ? t->name : "");
    sb_printf(&b, "\narch %s\n", ir_arch_name(t->arch));
    if (t->doc) {
        sb_add(&b, "doc ");
        add_string(&b, t->doc);
        sb_addc(&b, '\n');
    }
    for (int i = 0; i < t->ninfo; i++) {
        sb_add(&b, "info ");
        add_string(&b, t->info[i].key);
        sb_addc(&b, ' ');
        add_string(&b, t->info[i].value);
        sb_addc(&b, '\n');
    }
    if (t->hash) {
        sb_add(&b, "hash ");
        add_string(&b, t->hash);
        sb_addc(&b, '\n');
    }
    for (int i = 0; i < t->nlocs; i++) {
        const ir_loc *l = &t->locs[i];
        sb_add(&b, "loc ");
        add_name(&b, l->name);
        sb_printf(&b, " %s", (unsigned)l->type <= IR_T_PTR ? type_names[l->type] : "?");
        if (l->ctype) {
            sb_add(&b, " ctype ");
            add_string(&b, l->ctype);
        }
        if (l->atomic)
            sb_add(&b, " atomic");
        sb_add(&b, " init ");
        add_val(&b, t, l->init);
        if (l->init_given)
            sb_add(&b, " given");
        if (l->end_flag)
            sb_printf(&b, " ends %d", l->end_of);
        sb_addc(&b, '\n');
    }
    for (int i = 0; i < t->nthreads; i++) {
        const ir_thread *th = &t->threads[i];
        sb_printf(&b, "thread %d ", th->id);
        add_name(&b, th->name);
        sb_addc(&b, '\n');
        for (int r = 0; r < th->ninit_regs; r++)
            add_reg(&b, t, "init", &th->init_regs[r]);
        for (int k = 0; k < th->nblocks; k++) {
            const ir_block *bl = &th->blocks[k];
            sb_printf(&b, "  b%d:\n", k);
            for (int j = 0; j < bl->ninstrs; j++)
                add_instr(&b, t, bl, &bl->instrs[j]);
        }
        for (int r = 0; r < th->nfinal_regs; r++)
            add_reg(&b, t, "final", &th->final_regs[r]);
        sb_add(&b, "end\n");
    }
    sb_printf(&b, "cond %s ", ir_quant_name(t->quant));
    if (t->cond)
        add_prop(&b, t, t->cond, 0);
    else
        sb_add(&b, "true");
    sb_addc(&b, '\n');
    if (t->filter) {
        sb_add(&b, "filter ");
        add_prop(&b, t, t->filter, 0);
        sb_addc(&b, '\n');
    }
    if (t->nlocations) {
        sb_add(&b, "locations");
        for (int i = 0; i < t->nlocations; i++) {
            sb_addc(&b, ' ');
            add_obs(&b, t, &t->locations[i]);
        }
        sb_addc(&b, '\n');
    }
    return sb_take(&b);
}

void ir_print(FILE *out, const ir_test *t)
{
    char *s = ir_print_str(t);
    fputs(s, out);
    free(s);
}
