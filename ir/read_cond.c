/* The condition part of the IR text form: values, observables and the
 * propositions of `cond` and `filter` (the inverse of print.c's add_prop).
 * A grammar of its own, shared by the header (`locations`) and the
 * threads (operands), hence apart from the rest of ir/read.c. */
#include <stdlib.h>
#include <string.h>
#include "ir/read_int.h"

static bool take_loc_ref(reader *r, int *loc)
{
    int line = r->tok.line, col = r->tok.col;
    char *name = rd_take_name(r, "a location name");
    if (!name)
        return false;
    *loc = ir_find_loc(r->t, name);
    if (*loc < 0) {
        rd_err(r, line, col, "unknown location '%s'", name);
        free(name);
        return false;
    }
    free(name);
    return true;
}

/* A value: a number, or &NAME (the address of a declared location). */
bool rd_take_val(reader *r, ir_val *v)
{
    if (rd_accept_punct(r, "&")) {
        int loc;
        if (!take_loc_ref(r, &loc))
            return false;
        *v = IR_ADDR(loc);
        return true;
    }
    if (r->failed)
        return false;
    return rd_take_num(r, "a number or &location", v);
}

bool rd_take_obs(reader *r, ir_obs *o)
{
    memset(o, 0, sizeof *o);
    if (rd_accept_punct(r, "[")) {
        o->kind = IR_OBS_MEM;
        o->thread = -1;
        return take_loc_ref(r, &o->loc) && rd_expect_punct(r, "]");
    }
    if (r->failed)
        return false;
    o->kind = IR_OBS_REG;
    o->loc = -1;
    if (!rd_take_int(r, "a thread number or [location]", &o->thread) || !rd_expect_punct(r, ":"))
        return false;
    o->reg = rd_take_name(r, "a register name");
    return o->reg != NULL;
}

static ir_cond *parse_unary(reader *r)
{
    if (rd_is_punct(r, "~") || rd_is_word(r, "not")) {
        if (!rd_next(r))
            return NULL;
        ir_cond *inner = parse_unary(r);
        if (!inner)
            return NULL;
        return ir_cond_join(IR_C_NOT, inner, NULL);
    }
    if (rd_accept_punct(r, "(")) {
        ir_cond *c = rd_parse_or(r);
        if (c && !rd_expect_punct(r, ")")) {
            ir_cond_free(c);
            return NULL;
        }
        return c;
    }
    if (r->failed)
        return NULL;
    if (rd_is_word(r, "true") || rd_is_word(r, "false")) {
        ir_cond *c = ir_cond_new(rd_is_word(r, "true") ? IR_C_TRUE : IR_C_FALSE);
        if (!rd_next(r)) {
            ir_cond_free(c);
            return NULL;
        }
        return c;
    }
    ir_cond *c = ir_cond_new(IR_C_ATOM);
    if (!rd_take_obs(r, &c->lhs))
        goto fail;
    if (rd_is_punct(r, "!="))
        c->ne = true;
    else if (!rd_is_punct(r, "="))
        goto fail_tok;
    if (!rd_next(r))
        goto fail;
    if (r->tok.kind == T_PUNCT && !strcmp(r->tok.text, "[")) {
        c->rhs_is_obs = true;
        if (!rd_take_obs(r, &c->rhs_obs))
            goto fail;
    } else if (r->tok.kind == T_NUM && rd_peekc(r, 0) == ':') {
        c->rhs_is_obs = true;
        if (!rd_take_obs(r, &c->rhs_obs))
            goto fail;
    } else {
        c->rhs_obs.thread = c->rhs_obs.loc = -1;
        if (!rd_take_val(r, &c->rhs))
            goto fail;
    }
    return c;
fail_tok:
    rd_err_tok(r, "'=' or '!='");
fail:
    ir_cond_free(c);
    return NULL;
}

static ir_cond *parse_implies(reader *r)
{
    ir_cond *l = parse_unary(r);
    if (!l || !rd_is_punct(r, "=>"))
        return l;
    ir_cond *rhs = rd_next(r) ? parse_implies(r) : NULL;
    if (!rhs) {
        ir_cond_free(l);
        return NULL;
    }
    return ir_cond_join(IR_C_IMPLIES, l, rhs);
}

/* OPERAND (OP OPERAND)*, grouped to the left. */
static ir_cond *parse_chain(reader *r, ir_cond *(*operand)(reader *), const char *op, ir_cond_kind kind)
{
    ir_cond *l = operand(r);
    while (l && rd_is_punct(r, op)) {
        ir_cond *rhs = rd_next(r) ? operand(r) : NULL;
        if (!rhs) {
            ir_cond_free(l);
            return NULL;
        }
        l = ir_cond_join(kind, l, rhs);
    }
    return l;
}

static ir_cond *parse_and(reader *r)
{
    return parse_chain(r, parse_implies, "/\\", IR_C_AND);
}

ir_cond *rd_parse_or(reader *r)
{
    return parse_chain(r, parse_and, "\\/", IR_C_OR);
}
