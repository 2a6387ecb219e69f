/* The condition grammar (herd's stateParser), shared by every
 * architecture: `[locations [...]] [filter P] (exists|~exists|forall|final) P`,
 * over the locations and values of frontend/state.c. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/internal.h"
#include "util/mem.h"

/* ---- condition ------------------------------------------------------------ */

static fe_prop *new_prop(fe_prop_kind k, int line, int col)
{
    fe_prop *p = xcalloc(1, sizeof *p);
    p->kind = k;
    p->pos = (fe_pos){line, col};
    return p;
}

/* The connective KIND at LINE:COL over L and R, or NULL with L freed when
 * R failed to parse. */
static fe_prop *join_prop(fe_prop_kind kind, int line, int col, fe_prop *l, fe_prop *r)
{
    if (!r) {
        fe_prop_free(l);
        return NULL;
    }
    fe_prop *p = new_prop(kind, line, col);
    p->l = l;
    p->r = r;
    return p;
}

enum { MAX_PROP_DEPTH = 200 };
static fe_prop *parse_or(lexer *lx, const fe_test *t, int depth);

static fe_prop *parse_atom(lexer *lx, const fe_test *t)
{
    int line = lx->cur.line, col = lx->cur.col;
    fe_prop *p = new_prop(FE_P_ATOM, line, col);
    if (!fe_state_parse_loc(lx, t, &p->lhs))
        goto fail;
    if (lx_accept(lx, "!=") || lx_accept(lx, "<>"))
        p->ne = true;
    else if (!lx_accept(lx, "==") && !lx_accept(lx, "=")) {
        if (!lx->failed)
            lx_error(lx, "expected '=' in a condition atom");
        goto fail;
    }
    int th;
    if (lx_is(lx, "[") || fe_state_thread_prefix(lx, &th)) {
        p->rhs_is_loc = true;
        if (!fe_state_parse_loc(lx, t, &p->rhs_loc))
            goto fail;
    } else if (!fe_state_parse_value(lx, &p->rhs)) {
        goto fail;
    }
    return p;
fail:
    fe_prop_free(p);
    return NULL;
}

static fe_prop *parse_unary(lexer *lx, const fe_test *t, int depth)
{
    int line = lx->cur.line, col = lx->cur.col;
    if (!lx_node(lx, depth, MAX_PROP_DEPTH, "condition"))
        return NULL;
    if (lx_accept(lx, "~") || lx_accept(lx, "not")) {
        fe_prop *sub = parse_unary(lx, t, depth + 1);
        if (!sub)
            return NULL;
        fe_prop *p = new_prop(FE_P_NOT, line, col);
        p->l = sub;
        return p;
    }
    if (lx->failed)
        return NULL;
    if (lx_accept(lx, "(")) {
        fe_prop *p = parse_or(lx, t, depth + 1);
        if (!p)
            return NULL;
        if (!lx_expect(lx, ")")) {
            fe_prop_free(p);
            return NULL;
        }
        return p;
    }
    if (lx->failed)
        return NULL;
    if (lx_is_ident(lx, "true") || lx_is_ident(lx, "false")) {
        fe_prop *p = new_prop(lx_is_ident(lx, "true") ? FE_P_TRUE : FE_P_FALSE, line, col);
        if (!lx_next(lx)) {
            fe_prop_free(p);
            return NULL;
        }
        return p;
    }
    if (lx->cur.kind == TK_EOF) {
        lx_error(lx, "unexpected end of the condition, expected a proposition");
        return NULL;
    }
    return parse_atom(lx, t);
}

/* `=>` binds tighter than `/\` and associates to the right. */
static fe_prop *parse_implies(lexer *lx, const fe_test *t, int depth)
{
    fe_prop *l = parse_unary(lx, t, depth);
    if (!l)
        return NULL;
    int line = lx->cur.line, col = lx->cur.col;
    if (lx_accept(lx, "=>"))
        return join_prop(FE_P_IMPLIES, line, col, l, parse_implies(lx, t, depth + 1));
    if (lx->failed) {
        fe_prop_free(l);
        return NULL;
    }
    return l;
}

/* A left-associative chain `sub OP sub OP ...` of one binary connective. */
static fe_prop *parse_chain(lexer *lx, const fe_test *t, int depth, const char *op, fe_prop_kind kind,
                            fe_prop *(*sub)(lexer *, const fe_test *, int))
{
    fe_prop *l = sub(lx, t, depth);
    while (l) {
        int line = lx->cur.line, col = lx->cur.col;
        if (!lx_accept(lx, op))
            break;
        l = join_prop(kind, line, col, l, sub(lx, t, depth));
    }
    if (l && lx->failed) {
        fe_prop_free(l);
        return NULL;
    }
    return l;
}

static fe_prop *parse_and(lexer *lx, const fe_test *t, int depth)
{
    return parse_chain(lx, t, depth, "/\\", FE_P_AND, parse_implies);
}

static fe_prop *parse_or(lexer *lx, const fe_test *t, int depth)
{
    return parse_chain(lx, t, depth, "\\/", FE_P_OR, parse_and);
}

static bool parse_locations(lexer *lx, fe_test *t)
{
    if (!lx_expect(lx, "["))
        return false;
    size_t cap = (size_t)t->cond.nlocations, n = (size_t)t->cond.nlocations;
    while (!lx_is(lx, "]")) {
        if (lx->failed)
            return false;
        fe_loc l;
        bool ok = fe_state_parse_loc(lx, t, &l);
        if (!ok) {
            fe_loc_clear(&l);
            return false;
        }
        VEC_PUSH(t->cond.locations, n, cap, l);
        t->cond.nlocations = (int)n;
        if (!lx_accept(lx, ";"))
            break;
    }
    return lx_expect(lx, "]");
}

bool fe_parse_cond(fe_test *t, const section *s, const char *file, diag *d)
{
    lexer lx;
    lx_init(&lx, s->p, s->end, s->line, s->col, LX_ML_COMMENTS, file, d);
    t->cond.quant = FE_Q_EXISTS;
    t->cond.pos.line = lx.cur.line;
    t->cond.pos.col = lx.cur.col;
    for (;;) {
        if (lx.failed)
            return false;
        if (lx_is_ident(&lx, "locations")) {
            if (!lx_next(&lx) || !parse_locations(&lx, t))
                return false;
        } else if (lx_is_ident(&lx, "filter")) {
            if (t->cond.filter)
                return lx_error(&lx, "a second 'filter'");
            if (!lx_next(&lx))
                return false;
            t->cond.filter = parse_or(&lx, t, 0);
            if (!t->cond.filter)
                return false;
        } else {
            break;
        }
    }
    int line = lx.cur.line, col = lx.cur.col;
    t->cond.pos = (fe_pos){line, col};
    if (lx.cur.kind == TK_EOF) {
        t->cond.prop = new_prop(FE_P_TRUE, line, col);
        return true;
    }
    if (lx_is_ident(&lx, "exists") || lx_is_ident(&lx, "final")) {
        t->cond.quant = FE_Q_EXISTS;
        lx_next(&lx);
    } else if (lx_is_ident(&lx, "forall")) {
        t->cond.quant = FE_Q_FORALL;
        lx_next(&lx);
    } else if (lx_is(&lx, "~") || lx_is_ident(&lx, "not")) {
        lx_next(&lx);
        if (!lx_is_ident(&lx, "exists"))
            return lx_error(&lx, "expected 'exists' after '%s'", "~");
        t->cond.quant = FE_Q_NOT_EXISTS;
        lx_next(&lx);
    } else if (lx_is(&lx, "(")) {
        t->cond.quant = FE_Q_EXISTS;
    } else if (lx_is_ident(&lx, "cases") || lx_is_ident(&lx, "observed") || lx_is_ident(&lx, "Observed")) {
        return lx_error(&lx, "this condition form is not supported");
    } else {
        return lx_error(&lx, "expected a condition (exists, ~exists, forall, final)");
    }
    if (lx.failed)
        return false;
    t->cond.prop = parse_or(&lx, t, 0);
    if (!t->cond.prop)
        return false;
    lx_accept(&lx, ";");
    if (lx.failed)
        return false;
    if (lx.cur.kind != TK_EOF)
        return lx_error(&lx, "unexpected text after the condition");
    return true;
}
