/* Recursive-descent parser for cat expressions.  The grammar and operator
 * precedence are herd's (lib/modelParser.mly), loosest first:
 *   |  (right)   ++ (right)   ;  (right)   \  (left)   &  (right)
 *   binary * , postfix * + ? , prefix ~    ^-1    application
 * A `*` is the cartesian product when a base expression follows it and the
 * reflexive-transitive closure otherwise.  Variant tests (`if "name"`) are
 * decided here: no variant is ever set, as in a plain herd run.
 * Separate from cat_parse.c (instructions, bindings, the file header)
 * because expressions are the larger part of the grammar, with their own
 * precedence levels; the two halves call each other (cat_parse_impl.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/cat/cat_parse_impl.h"
#include "util/mem.h"

cat_expr *cat_mk(parser *p, cat_eop op, cat_token *at)
{
    cat_expr *e = xcalloc(1, sizeof *e);
    e->op = op;
    e->line = at->line;
    e->col = at->col;
    e->file = p->file;
    e->up = e->slot = e->elt_slot = e->rest_slot = -1;
    return e;
}

/* The array doubles at each power of two, so that a union of 30,000 terms
 * is built in linear time. */
static void add_kid(cat_expr *e, cat_expr *k)
{
    int n = e->nkids;
    if ((n & (n - 1)) == 0)
        e->kids = xrealloc(e->kids, (size_t)(n ? 2 * n : 1) * sizeof *e->kids);
    e->kids[e->nkids++] = k;
    cat_grow(e, k);
}

/* E, or NULL (E freed, an error at its position) when the tree under it is
 * deeper than CAT_MAX_DEPTH: the loops below build chains (r^-1^-1...,
 * f a b c ..., a \ b \ c ...) without recursing, and cat_parse_exp checks
 * what the recursive rules build. */
static cat_expr *tall(parser *p, cat_expr *e)
{
    if (!e || e->height <= CAT_MAX_DEPTH)
        return e;
    cat_token at = {.line = e->line, .col = e->col};
    char n[16];
    snprintf(n, sizeof n, "%d", CAT_MAX_DEPTH);
    cat_err_at(p, &at, "nested too deeply (more than %s levels)%s", n, "");
    cat_expr_free(e);
    return NULL;
}

static cat_expr *mk2(parser *p, cat_eop op, cat_token *at, cat_expr *a, cat_expr *b)
{
    cat_expr *e = cat_mk(p, op, at);
    add_kid(e, a);
    add_kid(e, b);
    return e;
}

static cat_expr *mk1(parser *p, cat_eop op, cat_token *at, cat_expr *a)
{
    cat_expr *e = cat_mk(p, op, at);
    add_kid(e, a);
    return e;
}

/* Tokens that may start a base expression (and so an argument). */
static bool starts_base(cat_tok k)
{
    switch (k) {
    case CT_VAR: case CT_ZERO: case CT_TAG: case CT_LACC: case CT_UNDERSCORE:
    case CT_LPAR: case CT_BEGIN: case CT_LBRAC: case CT_COMP:
        return true;
    default:
        return false;
    }
}
static bool starts_arg(cat_tok k)
{
    return k != CT_COMP && starts_base(k);
}

/* ---- variant conditions (all variants are unset) ---------------------------------- */

static bool parse_variant_atom(parser *p, bool *val)
{
    if (peek(p) == CT_NOT || peek(p) == CT_LPAR) {
        bool not = peek(p) == CT_NOT;
        if (!cat_enter(p, cur(p))) return false;
        next(p);
        bool ok = not ? parse_variant_atom(p, val) : cat_parse_variant_or(p, val) && cat_expect(p, CT_RPAR, NULL);
        cat_leave(p);
        if (not) *val = !*val;
        return ok;
    }
    if (peek(p) == CT_VARIANT) next(p);
    if (peek(p) != CT_STRING)
        return cat_err_at(p, cur(p), "syntax error: expected a variant name, found %s%s",
                          cat_tok_desc(cur(p)), "");
    next(p);
    *val = false;
    return true;
}

/* OPERAND (TOK OPERAND)*, TOK being && or ||: a level of a variant
 * condition, its value in *VAL. */
static bool variant_binary(parser *p, bool *val, bool (*operand)(parser *, bool *), cat_tok tok)
{
    if (!operand(p, val)) return false;
    while (peek(p) == tok) {
        bool r;
        next(p);
        if (!operand(p, &r)) return false;
        *val = tok == CT_LAND ? *val && r : *val || r;
    }
    return true;
}

static bool parse_variant_and(parser *p, bool *val)
{
    return variant_binary(p, val, parse_variant_atom, CT_LAND);
}

bool cat_parse_variant_or(parser *p, bool *val)
{
    return variant_binary(p, val, parse_variant_and, CT_ALT);
}

static bool starts_variant(parser *p)
{
    cat_tok k = peek(p);
    if (k == CT_STRING || k == CT_VARIANT || k == CT_NOT) return true;
    if (k == CT_LPAR) {
        int j = p->i;
        while (j < p->n && p->t[j].kind == CT_LPAR) j++;
        return j < p->n && (p->t[j].kind == CT_STRING || p->t[j].kind == CT_VARIANT ||
                            p->t[j].kind == CT_NOT);
    }
    return false;
}

/* ---- expressions --------------------------------------------------------------------- */
cat_expr *cat_parse_simple(parser *p)
{
    cat_token *at = cur(p);
    cat_expr *e;
    switch (peek(p)) {
    case CT_ZERO: next(p); return cat_mk(p, CE_ZERO, at);
    case CT_UNDERSCORE: next(p); return cat_mk(p, CE_UNIV, at);
    case CT_TAG:
        e = cat_mk(p, CE_TAG, at);
        e->name = xstrdup(at->text);
        next(p);
        return e;
    case CT_LACC:
        next(p);
        if (peek(p) == CT_RACC) { next(p); return cat_mk(p, CE_EMPTY, at); }
        e = cat_mk(p, CE_SET, at);
        for (;;) {
            cat_expr *k = cat_parse_base(p);
            if (!k) { cat_expr_free(e); return NULL; }
            add_kid(e, k);
            if (peek(p) != CT_COMMA) break;
            next(p);
        }
        if (!cat_expect(p, CT_RACC, NULL)) { cat_expr_free(e); return NULL; }
        return e;
    case CT_LPAR:
        next(p);
        if (peek(p) == CT_RPAR) { next(p); return cat_mk(p, CE_TUPLE, at); }
        e = cat_parse_exp(p);
        if (e && !cat_expect(p, CT_RPAR, NULL)) { cat_expr_free(e); return NULL; }
        return e;
    case CT_BEGIN:
        next(p);
        e = cat_parse_exp(p);
        if (e && !cat_expect(p, CT_END, NULL)) { cat_expr_free(e); return NULL; }
        return e;
    case CT_LBRAC:
        next(p);
        e = cat_parse_exp(p);
        if (!e) return NULL;
        if (!cat_expect(p, CT_RBRAC, NULL)) { cat_expr_free(e); return NULL; }
        return mk1(p, CE_TOID, at, e);
    default:
        cat_err_at(p, at, "syntax error: unexpected %s%s", cat_tok_desc(at), "");
        return NULL;
    }
}

/* A name possibly applied to arguments: f x (y, z) ... */
static cat_expr *parse_primary(parser *p)
{
    cat_token *at = cur(p);
    if (peek(p) != CT_VAR) return cat_parse_simple(p);
    cat_expr *e = cat_mk(p, CE_VAR, at);
    e->name = xstrdup(at->text);
    next(p);
    while (starts_arg(peek(p))) {
        cat_token *aat = cur(p);
        cat_expr *arg;
        if (peek(p) == CT_VAR) {
            arg = cat_mk(p, CE_VAR, aat);
            arg->name = xstrdup(aat->text);
            next(p);
        } else {
            arg = cat_parse_simple(p);
        }
        if (!arg) { cat_expr_free(e); return NULL; }
        if (!(e = tall(p, mk2(p, CE_APP, aat, e, arg)))) return NULL;
    }
    return e;
}

/* r^-1 */
static cat_expr *parse_hat(parser *p)
{
    cat_expr *e = parse_primary(p);
    while (e && peek(p) == CT_HAT) {
        cat_token *at = cur(p);
        next(p);
        if (!cat_expect(p, CT_INV, "'-1' after '^'")) { cat_expr_free(e); return NULL; }
        e = tall(p, mk1(p, CE_INV, at, e));
    }
    return e;
}

/* ~~~r: the complements applied innermost first, without recursing. */
static cat_expr *parse_prefix(parser *p)
{
    int from = p->i;
    while (peek(p) == CT_COMP)
        next(p);
    int to = p->i;
    cat_expr *e = parse_hat(p);
    for (int i = to - 1; e && i >= from; i--)
        e = tall(p, mk1(p, CE_COMP, &p->t[i], e));
    return e;
}

/* binary *, postfix * + ? */
static cat_expr *parse_star(parser *p)
{
    cat_expr *e = parse_prefix(p);
    while (e) {
        cat_token *at = cur(p);
        if (peek(p) == CT_STAR) {
            next(p);
            if (starts_base(peek(p))) {
                cat_expr *r = parse_prefix(p);
                if (!r) { cat_expr_free(e); return NULL; }
                e = mk2(p, CE_CART, at, e, r);
            } else {
                e = mk1(p, CE_STAR, at, e);
            }
        } else if (peek(p) == CT_PLUS) {
            next(p);
            e = mk1(p, CE_PLUS, at, e);
        } else if (peek(p) == CT_OPT) {
            next(p);
            e = mk1(p, CE_OPT, at, e);
        } else {
            break;
        }
        e = tall(p, e);
    }
    return e;
}

typedef cat_expr *(*level_fn)(parser *);
typedef cat_expr *(*join_fn)(parser *, cat_eop, cat_token *, cat_expr *, cat_expr *);

/* OPERAND (TOK OPERAND)*, a binary operator's level; JOIN builds each node.
 * A right-associative operator passes its level itself as RIGHT, which
 * takes all that follows TOK (one level of nesting more); a
 * left-associative one passes NULL and takes one OPERAND at a time. */
static cat_expr *binary(parser *p, level_fn operand, level_fn right, cat_tok tok, cat_eop op, join_fn join)
{
    cat_expr *e = operand(p);
    while (e && peek(p) == tok) {
        cat_token *at = cur(p);
        next(p);
        cat_expr *r = NULL;
        if (!right) {
            r = operand(p);
        } else if (cat_enter(p, at)) {
            r = right(p);
            cat_leave(p);
        }
        if (!r) { cat_expr_free(e); return NULL; }
        e = tall(p, join(p, op, at, e, r));
    }
    return e;
}

/* OPERAND (TOK OPERAND)* for an operator herd flattens (| and ;): one
 * node with every operand (those that are the same operator, in
 * parentheses, spliced in), read in a loop, as a chain of 30,000 terms
 * would recurse too deeply and copying at each join would take minutes. */
static cat_expr *flat(parser *p, level_fn operand, cat_tok tok, cat_eop op)
{
    cat_expr *e = operand(p);
    if (!e || peek(p) != tok)
        return e;
    cat_expr *n = cat_mk(p, op, cur(p));
    n->line = e->line;
    n->col = e->col;
    for (;;) {
        if (e->op == op) {
            for (int j = 0; j < e->nkids; j++) add_kid(n, e->kids[j]);
            free(e->kids);
            free(e);
        } else {
            add_kid(n, e);
        }
        if (peek(p) != tok)
            return n;
        next(p);
        if (!(e = operand(p))) { cat_expr_free(n); return NULL; }
    }
}

static cat_expr *parse_inter(parser *p)     /* & right */
{
    return binary(p, parse_star, parse_inter, CT_INTER, CE_INTER, mk2);
}

static cat_expr *parse_diff(parser *p)      /* \ left */
{
    return binary(p, parse_inter, NULL, CT_DIFF, CE_DIFF, mk2);
}

static cat_expr *parse_seq(parser *p)       /* ; right, flattened */
{
    return flat(p, parse_diff, CT_SEMI, CE_SEQ);
}

static cat_expr *parse_add(parser *p)       /* ++ right */
{
    return binary(p, parse_seq, parse_add, CT_PLUSPLUS, CE_ADD, mk2);
}

cat_expr *cat_parse_base(parser *p)         /* | right, flattened */
{
    return flat(p, parse_add, CT_UNION, CE_UNION);
}

/* match e with 'tag -> e || ... || _ -> e end   or the set form
 * match e with {} -> e || x ++ rest -> e end (either order). */
static cat_expr *parse_match(parser *p, cat_token *at)
{
    cat_expr *scrut = cat_parse_exp(p);
    if (!scrut) return NULL;
    if (!cat_expect(p, CT_WITH, NULL)) { cat_expr_free(scrut); return NULL; }
    if (peek(p) == CT_ALT) next(p);
    cat_expr *e;
    bool set_form = peek(p) == CT_LACC ||
                    ((peek(p) == CT_VAR || peek(p) == CT_UNDERSCORE) && peek2(p) == CT_PLUSPLUS);
    if (set_form) {
        e = cat_mk(p, CE_MATCHSET, at);
        add_kid(e, scrut);
        cat_expr *empty_case = NULL, *elt_case = NULL;
        for (int k = 0; k < 2; k++) {
            if (k == 1 && !cat_expect(p, CT_ALT, "'||' and a second case")) goto fail;
            if (peek(p) == CT_LACC) {
                if (empty_case) { cat_err_at(p, cur(p), "syntax error: two '{}' cases%s%s", "", ""); goto fail; }
                next(p);
                if (!cat_expect(p, CT_RACC, NULL) || !cat_expect(p, CT_ARROW, NULL)) goto fail;
                if (!(empty_case = cat_parse_exp(p))) goto fail;
            } else {
                if (elt_case) { cat_err_at(p, cur(p), "syntax error: two element cases%s%s", "", ""); goto fail; }
                cat_pat pt = {0};
                if (!cat_parse_pat0(p, &pt)) goto fail;
                e->elt_name = pt.names[0];
                free(pt.names);
                if (peek(p) == CT_UNION) {
                    cat_err_at(p, cur(p), "the 'pre | x ++ post' match case is not supported%s%s", "", "");
                    goto fail;
                }
                if (!cat_expect(p, CT_PLUSPLUS, NULL)) goto fail;
                cat_pat rt = {0};
                if (!cat_parse_pat0(p, &rt)) goto fail;
                e->rest_name = rt.names[0];
                free(rt.names);
                if (!cat_expect(p, CT_ARROW, NULL)) goto fail;
                if (!(elt_case = cat_parse_exp(p))) goto fail;
            }
        }
        add_kid(e, empty_case);
        add_kid(e, elt_case);
        if (!cat_expect(p, CT_END, NULL)) { cat_expr_free(e); return NULL; }
        return e;
    fail:
        cat_expr_free(empty_case);
        cat_expr_free(elt_case);
        cat_expr_free(e);
        return NULL;
    }
    e = cat_mk(p, CE_MATCH, at);
    add_kid(e, scrut);
    for (;;) {
        if (peek(p) == CT_UNDERSCORE) {
            next(p);
            if (!cat_expect(p, CT_ARROW, NULL)) goto fail2;
            cat_expr *b = cat_parse_exp(p);
            if (!b) goto fail2;
            add_kid(e, b);
            e->has_default = true;
            break;
        }
        if (peek(p) != CT_TAG) {
            cat_err_at(p, cur(p), "syntax error: expected a tag or '_' in a match case, found %s%s", cat_tok_desc(cur(p)), "");
            goto fail2;
        }
        e->tags = xrealloc(e->tags, (size_t)(e->ntags + 1) * sizeof *e->tags);
        e->tags[e->ntags++] = xstrdup(cur(p)->text);
        next(p);
        if (!cat_expect(p, CT_ARROW, NULL)) goto fail2;
        cat_expr *b = cat_parse_exp(p);
        if (!b) goto fail2;
        add_kid(e, b);
        if (peek(p) != CT_ALT) break;
        next(p);
    }
    if (!cat_expect(p, CT_END, NULL)) goto fail2;
    return e;
fail2:
    cat_expr_free(e);
    return NULL;
}

static cat_expr *parse_exp(parser *p)
{
    cat_token *at = cur(p);
    cat_expr *e;
    switch (peek(p)) {
    case CT_LET: {
        e = cat_mk(p, next_rec(p) ? CE_LETREC : CE_LET, at);
        if (!cat_parse_binds(p, &e->binds, &e->nbinds)) { free(e); return NULL; }
        for (int k = 0; k < e->nbinds; k++) cat_grow(e, e->binds[k].e);
        cat_expr *body = NULL;
        if (!cat_expect(p, CT_IN, NULL) || !(body = cat_parse_exp(p))) { cat_expr_free(e); return NULL; }
        add_kid(e, body);
        return e;
    }
    case CT_FUN: {
        next(p);
        cat_pat params = {0};
        bool ok = peek(p) == CT_LPAR ? cat_parse_formals_paren(p, &params) : cat_parse_pat0(p, &params);
        cat_expr *body = NULL;
        if (!ok || !cat_expect(p, CT_ARROW, NULL) || !(body = cat_parse_exp(p))) {
            cat_pat_free(&params);
            return NULL;
        }
        e = cat_mk(p, CE_FUN, at);
        e->fun = cat_mk_fun(params, body, "*fun*");
        cat_grow(e, body);
        return e;
    }
    case CT_TRY: {
        next(p);
        cat_expr *a = cat_parse_exp(p), *b = NULL;
        if (!a || !cat_expect(p, CT_WITH, NULL) || !(b = cat_parse_exp(p))) { cat_expr_free(a); return NULL; }
        return mk2(p, CE_TRY, at, a, b);
    }
    case CT_IF: {
        next(p);
        e = cat_mk(p, CE_IF, at);
        if (starts_variant(p)) {
            e->cond = CC_VARIANT;
            if (!cat_parse_variant_or(p, &e->variant_value)) { cat_expr_free(e); return NULL; }
        } else {
            if (!(e->cond_l = cat_parse_exp(p))) { cat_expr_free(e); return NULL; }
            cat_tok k = peek(p);
            if (k == CT_EQUAL) e->cond = CC_EQ;
            else if (k == CT_SUBSET) e->cond = CC_SUBSET;
            else if (k == CT_IN) e->cond = CC_IN;
            else {
                cat_err_at(p, cur(p), "syntax error: expected '=', 'subset' or 'in' in a condition, found %s%s", cat_tok_desc(cur(p)), "");
                cat_expr_free(e);
                return NULL;
            }
            next(p);
            if (!(e->cond_r = cat_parse_exp(p))) { cat_expr_free(e); return NULL; }
            cat_grow(e, e->cond_l);
            cat_grow(e, e->cond_r);
        }
        cat_expr *a = NULL, *b = NULL;
        if (!cat_expect(p, CT_THEN, NULL) || !(a = cat_parse_exp(p)) ||
            !cat_expect(p, CT_ELSE, NULL) || !(b = cat_parse_exp(p))) {
            cat_expr_free(a);
            cat_expr_free(e);
            return NULL;
        }
        add_kid(e, a);
        add_kid(e, b);
        return e;
    }
    case CT_MATCH:
        next(p);
        return parse_match(p, at);
    default:
        break;
    }
    e = cat_parse_base(p);
    if (e && peek(p) == CT_COMMA) {
        cat_expr *t = cat_mk(p, CE_TUPLE, at);
        add_kid(t, e);
        while (peek(p) == CT_COMMA) {
            next(p);
            cat_expr *k = cat_parse_base(p);
            if (!k) { cat_expr_free(t); return NULL; }
            add_kid(t, k);
        }
        e = t;
    }
    return e;
}

/* Every recursive rule of expressions comes through here: one level of
 * nesting more, and the tree it returns no deeper than CAT_MAX_DEPTH. */
cat_expr *cat_parse_exp(parser *p)
{
    if (!cat_enter(p, cur(p)))
        return NULL;
    cat_expr *e = tall(p, parse_exp(p));
    cat_leave(p);
    return e;
}
