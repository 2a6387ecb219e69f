/* Recursive-descent parser for cat files.  The grammar and operator
 * precedence are herd's (lib/modelParser.mly), loosest first:
 *   |  (right)   ++ (right)   ;  (right)   \  (left)   &  (right)
 *   binary * , postfix * + ? , prefix ~    ^-1    application
 * A `*` is the cartesian product when a base expression follows it and the
 * reflexive-transitive closure otherwise.  Variant tests (`if "name"`) are
 * decided here: no variant is ever set, as in a plain herd run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/cat_ast.h"
#include "util/mem.h"

typedef struct parser {
    cat_token *t;
    int n, i;
    const char *file;
    diag *d;
    bool failed;
} parser;

static cat_token *cur(parser *p) { return &p->t[p->i]; }
static cat_tok peek(parser *p) { return p->t[p->i].kind; }
static cat_tok peek2(parser *p) { return p->i + 1 < p->n ? p->t[p->i + 1].kind : CT_EOF; }
static void next(parser *p) { if (p->i + 1 < p->n) p->i++; }

static bool err_at(parser *p, cat_token *t, const char *fmt, const char *a, const char *b) {
    if (!p->failed) {
        char msg[DIAG_MSG_MAX];
        snprintf(msg, sizeof msg, fmt, a, b);
        diag_error(p->d, p->file, t->line, t->col, "%s", msg);
    }
    p->failed = true;
    return false;
}

static const char *tok_desc(cat_token *t) {
    return (t->kind == CT_VAR || t->kind == CT_TAG) ? t->text : cat_tok_name(t->kind);
}

static bool expect(parser *p, cat_tok k, const char *what) {
    if (peek(p) == k) { next(p); return true; }
    return err_at(p, cur(p), "syntax error: expected %s, found %s", what ? what : cat_tok_name(k),
                  tok_desc(cur(p)));
}

static cat_expr *mk(parser *p, cat_eop op, cat_token *at) {
    cat_expr *e = xcalloc(1, sizeof *e);
    e->op = op;
    e->line = at->line;
    e->col = at->col;
    e->file = p->file;
    e->up = e->slot = e->elt_slot = e->rest_slot = -1;
    return e;
}

static void add_kid(cat_expr *e, cat_expr *k) {
    e->kids = xrealloc(e->kids, (size_t)(e->nkids + 1) * sizeof *e->kids);
    e->kids[e->nkids++] = k;
}

static cat_expr *mk2(parser *p, cat_eop op, cat_token *at, cat_expr *a, cat_expr *b) {
    cat_expr *e = mk(p, op, at);
    add_kid(e, a);
    add_kid(e, b);
    return e;
}

static cat_expr *mk1(parser *p, cat_eop op, cat_token *at, cat_expr *a) {
    cat_expr *e = mk(p, op, at);
    add_kid(e, a);
    return e;
}

/* a op b for associative operators: flatten nested applications of op. */
static cat_expr *mk_nary(parser *p, cat_eop op, cat_token *at, cat_expr *a, cat_expr *b) {
    cat_expr *e = mk(p, op, at);
    cat_expr *parts[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        if (parts[k]->op == op) {
            for (int j = 0; j < parts[k]->nkids; j++) add_kid(e, parts[k]->kids[j]);
            free(parts[k]->kids);
            free(parts[k]);
        } else {
            add_kid(e, parts[k]);
        }
    }
    e->line = a->line;
    e->col = a->col;
    return e;
}

static cat_expr *parse_exp(parser *p);
static cat_expr *parse_base(parser *p);

/* Tokens that may start a base expression (and so an argument). */
static bool starts_base(cat_tok k) {
    switch (k) {
    case CT_VAR: case CT_ZERO: case CT_TAG: case CT_LACC: case CT_UNDERSCORE:
    case CT_LPAR: case CT_BEGIN: case CT_LBRAC: case CT_COMP:
        return true;
    default:
        return false;
    }
}
static bool starts_arg(cat_tok k) { return k != CT_COMP && starts_base(k); }

/* ---- patterns ---------------------------------------------------------------- */
static void pat_add(cat_pat *pt, const char *name) {
    pt->names = xrealloc(pt->names, (size_t)(pt->n + 1) * sizeof *pt->names);
    pt->names[pt->n++] = name ? xstrdup(name) : NULL;
}

/* pat0: `_` or a name */
static bool parse_pat0(parser *p, cat_pat *pt) {
    if (peek(p) == CT_UNDERSCORE) { pat_add(pt, NULL); next(p); return true; }
    if (peek(p) == CT_VAR) { pat_add(pt, cur(p)->text); next(p); return true; }
    return err_at(p, cur(p), "syntax error: expected a name, found %s%s", tok_desc(cur(p)), "");
}

/* formals inside parentheses (possibly none); a single one is not a tuple. */
static bool parse_formals_paren(parser *p, cat_pat *pt) {
    if (!expect(p, CT_LPAR, NULL)) return false;
    if (peek(p) != CT_RPAR) {
        for (;;) {
            if (!parse_pat0(p, pt)) return false;
            if (peek(p) != CT_COMMA) break;
            next(p);
        }
    }
    pt->tuple = pt->n != 1;
    return expect(p, CT_RPAR, NULL);
}

/* ---- bindings ------------------------------------------------------------------ */
static cat_fun *mk_fun(cat_pat params, cat_expr *body, const char *name) {
    cat_fun *f = xcalloc(1, sizeof *f);
    f->params = params;
    f->body = body;
    f->name = xstrdup(name);
    return f;
}

static bool parse_bind(parser *p, cat_bind *b) {
    memset(b, 0, sizeof *b);
    cat_token *at = cur(p);
    b->line = at->line;
    b->col = at->col;
    if (peek(p) == CT_LPAR) {                       /* let (a, b) = e */
        if (!parse_formals_paren(p, &b->pat)) return false;
    } else if (peek(p) == CT_VAR && (peek2(p) == CT_VAR || peek2(p) == CT_UNDERSCORE ||
                                     peek2(p) == CT_LPAR)) {
        /* let f x = e   or   let f(x, y) = e */
        const char *name = at->text;
        next(p);
        cat_pat params = {0};
        if (peek(p) == CT_LPAR) {
            if (!parse_formals_paren(p, &params)) goto fail_params;
        } else if (!parse_pat0(p, &params)) {
            goto fail_params;
        }
        if (!expect(p, CT_EQUAL, NULL)) goto fail_params;
        cat_expr *body = parse_exp(p);
        if (!body) goto fail_params;
        cat_expr *fn = mk(p, CE_FUN, at);
        fn->fun = mk_fun(params, body, name);
        pat_add(&b->pat, name);
        b->e = fn;
        return true;
    fail_params:
        for (int k = 0; k < params.n; k++) free(params.names[k]);
        free(params.names);
        return false;
    } else {                                         /* let a = e   or   let a, b = e */
        for (;;) {
            if (!parse_pat0(p, &b->pat)) return false;
            if (peek(p) != CT_COMMA) break;
            next(p);
        }
        b->pat.tuple = b->pat.n > 1;
    }
    if (!expect(p, CT_EQUAL, NULL)) return false;
    b->e = parse_exp(p);
    return b->e != NULL;
}

static void bind_free(cat_bind *b) {
    for (int k = 0; k < b->pat.n; k++) free(b->pat.names[k]);
    free(b->pat.names);
    free(b->pat.slots);
    cat_expr_free(b->e);
}

static bool parse_binds(parser *p, cat_bind **out, int *nout) {
    cat_bind *v = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        cat_bind b;
        bool ok = parse_bind(p, &b);
        VEC_PUSH(v, n, cap, b);
        if (!ok) break;
        if (peek(p) != CT_AND) { *out = v; *nout = (int)n; return true; }
        next(p);
    }
    for (size_t k = 0; k < n; k++) bind_free(&v[k]);
    free(v);
    return false;
}

/* ---- variant conditions (all variants are unset) ---------------------------------- */
static bool parse_variant_or(parser *p, bool *val);

static bool parse_variant_atom(parser *p, bool *val) {
    if (peek(p) == CT_NOT) {
        next(p);
        if (!parse_variant_atom(p, val)) return false;
        *val = !*val;
        return true;
    }
    if (peek(p) == CT_LPAR) {
        next(p);
        if (!parse_variant_or(p, val)) return false;
        return expect(p, CT_RPAR, NULL);
    }
    if (peek(p) == CT_VARIANT) next(p);
    if (peek(p) != CT_STRING)
        return err_at(p, cur(p), "syntax error: expected a variant name, found %s%s", tok_desc(cur(p)), "");
    next(p);
    *val = false;
    return true;
}

static bool parse_variant_and(parser *p, bool *val) {
    if (!parse_variant_atom(p, val)) return false;
    while (peek(p) == CT_LAND) {
        bool r;
        next(p);
        if (!parse_variant_atom(p, &r)) return false;
        *val = *val && r;
    }
    return true;
}

static bool parse_variant_or(parser *p, bool *val) {
    if (!parse_variant_and(p, val)) return false;
    while (peek(p) == CT_ALT) {
        bool r;
        next(p);
        if (!parse_variant_and(p, &r)) return false;
        *val = *val || r;
    }
    return true;
}

static bool starts_variant(parser *p) {
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
static cat_expr *parse_simple(parser *p) {
    cat_token *at = cur(p);
    cat_expr *e;
    switch (peek(p)) {
    case CT_ZERO: next(p); return mk(p, CE_ZERO, at);
    case CT_UNDERSCORE: next(p); return mk(p, CE_UNIV, at);
    case CT_TAG:
        e = mk(p, CE_TAG, at);
        e->name = xstrdup(at->text);
        next(p);
        return e;
    case CT_LACC:
        next(p);
        if (peek(p) == CT_RACC) { next(p); return mk(p, CE_EMPTY, at); }
        e = mk(p, CE_SET, at);
        for (;;) {
            cat_expr *k = parse_base(p);
            if (!k) { cat_expr_free(e); return NULL; }
            add_kid(e, k);
            if (peek(p) != CT_COMMA) break;
            next(p);
        }
        if (!expect(p, CT_RACC, NULL)) { cat_expr_free(e); return NULL; }
        return e;
    case CT_LPAR:
        next(p);
        if (peek(p) == CT_RPAR) { next(p); return mk(p, CE_TUPLE, at); }
        e = parse_exp(p);
        if (e && !expect(p, CT_RPAR, NULL)) { cat_expr_free(e); return NULL; }
        return e;
    case CT_BEGIN:
        next(p);
        e = parse_exp(p);
        if (e && !expect(p, CT_END, NULL)) { cat_expr_free(e); return NULL; }
        return e;
    case CT_LBRAC:
        next(p);
        e = parse_exp(p);
        if (!e) return NULL;
        if (!expect(p, CT_RBRAC, NULL)) { cat_expr_free(e); return NULL; }
        return mk1(p, CE_TOID, at, e);
    default:
        err_at(p, at, "syntax error: unexpected %s%s", tok_desc(at), "");
        return NULL;
    }
}

/* A name possibly applied to arguments: f x (y, z) ... */
static cat_expr *parse_primary(parser *p) {
    cat_token *at = cur(p);
    if (peek(p) != CT_VAR) return parse_simple(p);
    cat_expr *e = mk(p, CE_VAR, at);
    e->name = xstrdup(at->text);
    next(p);
    while (starts_arg(peek(p))) {
        cat_token *aat = cur(p);
        cat_expr *arg;
        if (peek(p) == CT_VAR) {
            arg = mk(p, CE_VAR, aat);
            arg->name = xstrdup(aat->text);
            next(p);
        } else {
            arg = parse_simple(p);
        }
        if (!arg) { cat_expr_free(e); return NULL; }
        e = mk2(p, CE_APP, aat, e, arg);
    }
    return e;
}

/* r^-1 */
static cat_expr *parse_hat(parser *p) {
    cat_expr *e = parse_primary(p);
    while (e && peek(p) == CT_HAT) {
        cat_token *at = cur(p);
        next(p);
        if (!expect(p, CT_INV, "'-1' after '^'")) { cat_expr_free(e); return NULL; }
        e = mk1(p, CE_INV, at, e);
    }
    return e;
}

static cat_expr *parse_prefix(parser *p) {
    if (peek(p) == CT_COMP) {
        cat_token *at = cur(p);
        next(p);
        cat_expr *e = parse_prefix(p);
        return e ? mk1(p, CE_COMP, at, e) : NULL;
    }
    return parse_hat(p);
}

/* binary *, postfix * + ? */
static cat_expr *parse_star(parser *p) {
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
    }
    return e;
}

typedef cat_expr *(*level_fn)(parser *);

static cat_expr *parse_inter(parser *p) {   /* & right */
    cat_expr *e = parse_star(p);
    if (e && peek(p) == CT_INTER) {
        cat_token *at = cur(p);
        next(p);
        cat_expr *r = parse_inter(p);
        if (!r) { cat_expr_free(e); return NULL; }
        e = mk2(p, CE_INTER, at, e, r);
    }
    return e;
}

static cat_expr *parse_diff(parser *p) {    /* \ left */
    cat_expr *e = parse_inter(p);
    while (e && peek(p) == CT_DIFF) {
        cat_token *at = cur(p);
        next(p);
        cat_expr *r = parse_inter(p);
        if (!r) { cat_expr_free(e); return NULL; }
        e = mk2(p, CE_DIFF, at, e, r);
    }
    return e;
}

static cat_expr *parse_seq(parser *p) {     /* ; right, flattened */
    cat_expr *e = parse_diff(p);
    if (e && peek(p) == CT_SEMI) {
        cat_token *at = cur(p);
        next(p);
        cat_expr *r = parse_seq(p);
        if (!r) { cat_expr_free(e); return NULL; }
        e = mk_nary(p, CE_SEQ, at, e, r);
    }
    return e;
}

static cat_expr *parse_add(parser *p) {     /* ++ right */
    cat_expr *e = parse_seq(p);
    if (e && peek(p) == CT_PLUSPLUS) {
        cat_token *at = cur(p);
        next(p);
        cat_expr *r = parse_add(p);
        if (!r) { cat_expr_free(e); return NULL; }
        e = mk2(p, CE_ADD, at, e, r);
    }
    return e;
}

static cat_expr *parse_base(parser *p) {    /* | right, flattened */
    cat_expr *e = parse_add(p);
    if (e && peek(p) == CT_UNION) {
        cat_token *at = cur(p);
        next(p);
        cat_expr *r = parse_base(p);
        if (!r) { cat_expr_free(e); return NULL; }
        e = mk_nary(p, CE_UNION, at, e, r);
    }
    return e;
}

/* match e with 'tag -> e || ... || _ -> e end   or the set form
 * match e with {} -> e || x ++ rest -> e end (either order). */
static cat_expr *parse_match(parser *p, cat_token *at) {
    cat_expr *scrut = parse_exp(p);
    if (!scrut) return NULL;
    if (!expect(p, CT_WITH, NULL)) { cat_expr_free(scrut); return NULL; }
    if (peek(p) == CT_ALT) next(p);
    cat_expr *e;
    bool set_form = peek(p) == CT_LACC ||
                    ((peek(p) == CT_VAR || peek(p) == CT_UNDERSCORE) && peek2(p) == CT_PLUSPLUS);
    if (set_form) {
        e = mk(p, CE_MATCHSET, at);
        add_kid(e, scrut);
        cat_expr *empty_case = NULL, *elt_case = NULL;
        for (int k = 0; k < 2; k++) {
            if (k == 1 && !expect(p, CT_ALT, "'||' and a second case")) goto fail;
            if (peek(p) == CT_LACC) {
                if (empty_case) { err_at(p, cur(p), "syntax error: two '{}' cases%s%s", "", ""); goto fail; }
                next(p);
                if (!expect(p, CT_RACC, NULL) || !expect(p, CT_ARROW, NULL)) goto fail;
                if (!(empty_case = parse_exp(p))) goto fail;
            } else {
                if (elt_case) { err_at(p, cur(p), "syntax error: two element cases%s%s", "", ""); goto fail; }
                cat_pat pt = {0};
                if (!parse_pat0(p, &pt)) goto fail;
                e->elt_name = pt.names[0];
                free(pt.names);
                if (peek(p) == CT_UNION) {
                    err_at(p, cur(p), "the 'pre | x ++ post' match case is not supported%s%s", "", "");
                    goto fail;
                }
                if (!expect(p, CT_PLUSPLUS, NULL)) goto fail;
                cat_pat rt = {0};
                if (!parse_pat0(p, &rt)) goto fail;
                e->rest_name = rt.names[0];
                free(rt.names);
                if (!expect(p, CT_ARROW, NULL)) goto fail;
                if (!(elt_case = parse_exp(p))) goto fail;
            }
        }
        add_kid(e, empty_case);
        add_kid(e, elt_case);
        if (!expect(p, CT_END, NULL)) { cat_expr_free(e); return NULL; }
        return e;
    fail:
        cat_expr_free(empty_case);
        cat_expr_free(elt_case);
        cat_expr_free(e);
        return NULL;
    }
    e = mk(p, CE_MATCH, at);
    add_kid(e, scrut);
    for (;;) {
        if (peek(p) == CT_UNDERSCORE) {
            next(p);
            if (!expect(p, CT_ARROW, NULL)) goto fail2;
            cat_expr *b = parse_exp(p);
            if (!b) goto fail2;
            add_kid(e, b);
            e->has_default = true;
            break;
        }
        if (peek(p) != CT_TAG) {
            err_at(p, cur(p), "syntax error: expected a tag or '_' in a match case, found %s%s", tok_desc(cur(p)), "");
            goto fail2;
        }
        e->tags = xrealloc(e->tags, (size_t)(e->ntags + 1) * sizeof *e->tags);
        e->tags[e->ntags++] = xstrdup(cur(p)->text);
        next(p);
        if (!expect(p, CT_ARROW, NULL)) goto fail2;
        cat_expr *b = parse_exp(p);
        if (!b) goto fail2;
        add_kid(e, b);
        if (peek(p) != CT_ALT) break;
        next(p);
    }
    if (!expect(p, CT_END, NULL)) goto fail2;
    return e;
fail2:
    cat_expr_free(e);
    return NULL;
}

static cat_expr *parse_exp(parser *p) {
    cat_token *at = cur(p);
    cat_expr *e;
    switch (peek(p)) {
    case CT_LET: {
        next(p);
        bool rec = peek(p) == CT_REC;
        if (rec) next(p);
        e = mk(p, rec ? CE_LETREC : CE_LET, at);
        if (!parse_binds(p, &e->binds, &e->nbinds)) { free(e); return NULL; }
        cat_expr *body = NULL;
        if (!expect(p, CT_IN, NULL) || !(body = parse_exp(p))) { cat_expr_free(e); return NULL; }
        add_kid(e, body);
        return e;
    }
    case CT_FUN: {
        next(p);
        cat_pat params = {0};
        bool ok = peek(p) == CT_LPAR ? parse_formals_paren(p, &params) : parse_pat0(p, &params);
        cat_expr *body = NULL;
        if (!ok || !expect(p, CT_ARROW, NULL) || !(body = parse_exp(p))) {
            for (int k = 0; k < params.n; k++) free(params.names[k]);
            free(params.names);
            return NULL;
        }
        e = mk(p, CE_FUN, at);
        e->fun = mk_fun(params, body, "*fun*");
        return e;
    }
    case CT_TRY: {
        next(p);
        cat_expr *a = parse_exp(p), *b = NULL;
        if (!a || !expect(p, CT_WITH, NULL) || !(b = parse_exp(p))) { cat_expr_free(a); return NULL; }
        return mk2(p, CE_TRY, at, a, b);
    }
    case CT_IF: {
        next(p);
        e = mk(p, CE_IF, at);
        if (starts_variant(p)) {
            e->cond = CC_VARIANT;
            if (!parse_variant_or(p, &e->variant_value)) { cat_expr_free(e); return NULL; }
        } else {
            if (!(e->cond_l = parse_exp(p))) { cat_expr_free(e); return NULL; }
            cat_tok k = peek(p);
            if (k == CT_EQUAL) e->cond = CC_EQ;
            else if (k == CT_SUBSET) e->cond = CC_SUBSET;
            else if (k == CT_IN) e->cond = CC_IN;
            else {
                err_at(p, cur(p), "syntax error: expected '=', 'subset' or 'in' in a condition, found %s%s", tok_desc(cur(p)), "");
                cat_expr_free(e);
                return NULL;
            }
            next(p);
            if (!(e->cond_r = parse_exp(p))) { cat_expr_free(e); return NULL; }
        }
        cat_expr *a = NULL, *b = NULL;
        if (!expect(p, CT_THEN, NULL) || !(a = parse_exp(p)) ||
            !expect(p, CT_ELSE, NULL) || !(b = parse_exp(p))) {
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
    e = parse_base(p);
    if (e && peek(p) == CT_COMMA) {
        cat_expr *t = mk(p, CE_TUPLE, at);
        add_kid(t, e);
        while (peek(p) == CT_COMMA) {
            next(p);
            cat_expr *k = parse_base(p);
            if (!k) { cat_expr_free(t); return NULL; }
            add_kid(t, k);
        }
        e = t;
    }
    return e;
}

/* ---- instructions ---------------------------------------------------------------------- */
typedef struct ins_vec { cat_ins *v; size_t n, cap; } ins_vec;

static bool parse_ins_list(parser *p, ins_vec *out);

static cat_ins mk_ins(parser *p, cat_iop op, cat_token *at) {
    cat_ins in;
    memset(&in, 0, sizeof in);
    in.op = op;
    in.line = at->line;
    in.col = at->col;
    in.file = p->file;
    in.slot = in.up = -1;
    return in;
}

static void ins_add_body(cat_ins *in, ins_vec *b) {
    in->body = xrealloc(in->body, (size_t)(in->nbodies + 1) * sizeof *in->body);
    in->nbody = xrealloc(in->nbody, (size_t)(in->nbodies + 1) * sizeof *in->nbody);
    in->body[in->nbodies] = b->v;
    in->nbody[in->nbodies] = (int)b->n;
    in->nbodies++;
}

static void ins_free(cat_ins *in);

static void ins_vec_free(ins_vec *b) {
    for (size_t k = 0; k < b->n; k++) ins_free(&b->v[k]);
    free(b->v);
    b->v = NULL;
    b->n = b->cap = 0;
}

static bool starts_ins(cat_tok k) {
    switch (k) {
    case CT_LET: case CT_MATCH: case CT_ACYCLIC: case CT_IRREFLEXIVE: case CT_EMPTY:
    case CT_COMP: case CT_UNDEFINED_UNLESS: case CT_FLAG: case CT_ASSERT: case CT_SHOW:
    case CT_UNSHOW: case CT_INCLUDE: case CT_PROCEDURE: case CT_CALL: case CT_DEBUG:
    case CT_FORALL: case CT_WITH: case CT_IF: case CT_INSTRUCTIONS: case CT_DEFAULT:
    case CT_ENUM:
        return true;
    default:
        return false;
    }
}

static bool parse_test(parser *p, cat_ins *in) {
    in->negated = false;
    if (peek(p) == CT_COMP) { in->negated = true; next(p); }
    switch (peek(p)) {
    case CT_ACYCLIC: in->test = CT_T_ACYCLIC; break;
    case CT_IRREFLEXIVE: in->test = CT_T_IRREFLEXIVE; break;
    case CT_EMPTY: in->test = CT_T_EMPTY; break;
    default:
        return err_at(p, cur(p), "syntax error: expected 'acyclic', 'irreflexive' or 'empty', found %s%s",
                      tok_desc(cur(p)), "");
    }
    next(p);
    if (!(in->e = parse_exp(p))) return false;
    if (peek(p) == CT_AS) {
        next(p);
        if (peek(p) != CT_VAR)
            return err_at(p, cur(p), "syntax error: expected a name after 'as', found %s%s", tok_desc(cur(p)), "");
        in->name = xstrdup(cur(p)->text);
        next(p);
    }
    return true;
}

static bool parse_one_ins(parser *p, ins_vec *out) {
    cat_token *at = cur(p);
    cat_ins in;
    switch (peek(p)) {
    case CT_LET: {
        next(p);
        bool rec = peek(p) == CT_REC;
        if (rec) next(p);
        in = mk_ins(p, rec ? CI_LETREC : CI_LET, at);
        if (!parse_binds(p, &in.binds, &in.nbinds)) return false;
        if (peek(p) == CT_WHEN) {
            ins_free(&in);
            return err_at(p, cur(p), "'let rec ... when' is not supported%s%s", "", "");
        }
        if (peek(p) == CT_IN) next(p);
        break;
    }
    case CT_MATCH: {
        next(p);
        in = mk_ins(p, CI_MATCH, at);
        if (!(in.e = parse_exp(p)) || !expect(p, CT_WITH, NULL)) { ins_free(&in); return false; }
        if (peek(p) == CT_ALT) next(p);
        for (;;) {
            bool dflt = peek(p) == CT_UNDERSCORE;
            if (!dflt && peek(p) != CT_TAG) {
                err_at(p, cur(p), "syntax error: expected a tag or '_' in a match case, found %s%s", tok_desc(cur(p)), "");
                ins_free(&in);
                return false;
            }
            if (!dflt) {
                in.tags = xrealloc(in.tags, (size_t)(in.ntags + 1) * sizeof *in.tags);
                in.tags[in.ntags++] = xstrdup(cur(p)->text);
            }
            next(p);
            ins_vec b = {0};
            if (!expect(p, CT_ARROW, NULL) || !parse_ins_list(p, &b)) { ins_vec_free(&b); ins_free(&in); return false; }
            ins_add_body(&in, &b);
            if (dflt) { in.has_default = true; break; }
            if (peek(p) != CT_ALT) break;
            next(p);
        }
        if (!expect(p, CT_END, NULL)) { ins_free(&in); return false; }
        break;
    }
    case CT_ACYCLIC: case CT_IRREFLEXIVE: case CT_EMPTY: case CT_COMP:
    case CT_UNDEFINED_UNLESS: case CT_FLAG: case CT_ASSERT:
        in = mk_ins(p, CI_TEST, at);
        in.ttype = CTT_CHECK;
        if (peek(p) == CT_UNDEFINED_UNLESS) { in.ttype = CTT_UNDEF; next(p); }
        else if (peek(p) == CT_FLAG) { in.ttype = CTT_FLAG; next(p); }
        else if (peek(p) == CT_ASSERT) { in.ttype = CTT_ASSERT; next(p); }
        if (!parse_test(p, &in)) { ins_free(&in); return false; }
        if (in.ttype == CTT_FLAG && !in.name) {
            ins_free(&in);
            return err_at(p, at, "a flag needs a name ('as NAME')%s%s", "", "");
        }
        break;
    case CT_SHOW: case CT_UNSHOW: {
        /* show/unshow only affect herd's pictures: parsed and ignored. */
        next(p);
        in = mk_ins(p, CI_NOP, at);
        for (;;) {
            cat_expr *e = parse_base(p);
            if (!e) return false;
            cat_expr_free(e);
            if (peek(p) == CT_AS) {
                next(p);
                if (!expect(p, CT_VAR, "a name after 'as'")) return false;
            }
            if (peek(p) != CT_COMMA) break;
            next(p);
        }
        break;
    }
    case CT_DEBUG: {
        next(p);
        in = mk_ins(p, CI_NOP, at);
        cat_expr *e = parse_exp(p);
        if (!e) return false;
        cat_expr_free(e);
        break;
    }
    case CT_INCLUDE:
        next(p);
        if (peek(p) != CT_STRING)
            return err_at(p, cur(p), "syntax error: expected a file name string after 'include', found %s%s",
                          tok_desc(cur(p)), "");
        in = mk_ins(p, CI_INCLUDE, at);
        in.name = xstrdup(cur(p)->text);
        next(p);
        break;
    case CT_PROCEDURE: {
        next(p);
        if (peek(p) == CT_REC) next(p);
        if (peek(p) != CT_VAR)
            return err_at(p, cur(p), "syntax error: expected a procedure name, found %s%s", tok_desc(cur(p)), "");
        in = mk_ins(p, CI_PROC, at);
        in.name = xstrdup(cur(p)->text);
        next(p);
        bool ok = peek(p) == CT_LPAR ? parse_formals_paren(p, &in.params) : parse_pat0(p, &in.params);
        ins_vec b = {0};
        if (!ok || !expect(p, CT_EQUAL, NULL) || !parse_ins_list(p, &b) || !expect(p, CT_END, NULL)) {
            ins_vec_free(&b);
            ins_free(&in);
            return false;
        }
        ins_add_body(&in, &b);
        break;
    }
    case CT_CALL:
        next(p);
        if (peek(p) != CT_VAR)
            return err_at(p, cur(p), "syntax error: expected a procedure name, found %s%s", tok_desc(cur(p)), "");
        in = mk_ins(p, CI_CALL, at);
        in.name = xstrdup(cur(p)->text);
        next(p);
        if (!(in.e = parse_simple(p))) { ins_free(&in); return false; }
        if (peek(p) == CT_AS) {
            next(p);
            if (!expect(p, CT_VAR, "a name after 'as'")) { ins_free(&in); return false; }
        }
        break;
    case CT_FORALL: {
        next(p);
        if (peek(p) != CT_VAR)
            return err_at(p, cur(p), "syntax error: expected a name after 'forall', found %s%s", tok_desc(cur(p)), "");
        in = mk_ins(p, CI_FORALL, at);
        in.name = xstrdup(cur(p)->text);
        next(p);
        ins_vec b = {0};
        if (!expect(p, CT_IN, NULL) || !(in.e = parse_exp(p)) || !expect(p, CT_DO, NULL) ||
            !parse_ins_list(p, &b) || !expect(p, CT_END, NULL)) {
            ins_vec_free(&b);
            ins_free(&in);
            return false;
        }
        ins_add_body(&in, &b);
        break;
    }
    case CT_WITH:
        next(p);
        if (peek(p) != CT_VAR)
            return err_at(p, cur(p), "syntax error: expected a name after 'with', found %s%s", tok_desc(cur(p)), "");
        in = mk_ins(p, CI_WITH, at);
        in.name = xstrdup(cur(p)->text);
        next(p);
        if (!expect(p, CT_FROM, NULL) || !(in.e = parse_exp(p))) { ins_free(&in); return false; }
        break;
    case CT_IF: {
        next(p);
        in = mk_ins(p, CI_IFVARIANT, at);
        ins_vec a = {0}, b = {0};
        if (!parse_variant_or(p, &in.variant_value) || !parse_ins_list(p, &a)) {
            ins_vec_free(&a);
            ins_free(&in);
            return false;
        }
        ins_add_body(&in, &a);
        if (peek(p) == CT_ELSE) {
            next(p);
            if (!parse_ins_list(p, &b)) { ins_vec_free(&b); ins_free(&in); return false; }
        }
        ins_add_body(&in, &b);
        if (!expect(p, CT_END, NULL)) { ins_free(&in); return false; }
        break;
    }
    case CT_ENUM: {
        next(p);
        if (peek(p) != CT_VAR)
            return err_at(p, cur(p), "syntax error: expected a name after 'enum', found %s%s", tok_desc(cur(p)), "");
        in = mk_ins(p, CI_ENUM, at);
        in.name = xstrdup(cur(p)->text);
        next(p);
        if (!expect(p, CT_EQUAL, NULL)) { ins_free(&in); return false; }
        if (peek(p) == CT_ALT) next(p);
        for (;;) {
            if (peek(p) != CT_TAG) {
                err_at(p, cur(p), "syntax error: expected a tag, found %s%s", tok_desc(cur(p)), "");
                ins_free(&in);
                return false;
            }
            in.tags = xrealloc(in.tags, (size_t)(in.ntags + 1) * sizeof *in.tags);
            in.tags[in.ntags++] = xstrdup(cur(p)->text);
            next(p);
            if (peek(p) != CT_ALT) break;
            next(p);
        }
        break;
    }
    case CT_INSTRUCTIONS: case CT_DEFAULT:
        return err_at(p, at, "bell declarations ('%s') are not supported in a model%s", cat_tok_name(peek(p)), "");
    default:
        return err_at(p, at, "syntax error: unexpected %s at the start of an instruction%s", tok_desc(at), "");
    }
    VEC_PUSH(out->v, out->n, out->cap, in);
    return true;
}

static bool parse_ins_list(parser *p, ins_vec *out) {
    while (starts_ins(peek(p)))
        if (!parse_one_ins(p, out)) return false;
    return true;
}

bool cat_parse(const char *text, const char *file, cat_file *out, diag *d) {
    memset(out, 0, sizeof *out);
    parser p = {0};
    p.file = file;
    p.d = d;
    if (!cat_lex(text, file, &p.t, &p.n, d)) return false;
    /* The header: a name, two names, a name and a string, or a string. */
    strbuf title = {0};
    if (peek(&p) == CT_STRING || peek(&p) == CT_VAR) {
        sb_add(&title, cur(&p)->text);
        bool was_var = peek(&p) == CT_VAR;
        next(&p);
        if (was_var && (peek(&p) == CT_VAR || peek(&p) == CT_STRING)) {
            sb_addc(&title, ' ');
            sb_add(&title, cur(&p)->text);
            next(&p);
        }
    }
    out->title = sb_take(&title);
    if (peek(&p) == CT_CATDEP) next(&p);
    ins_vec v = {0};
    bool ok = parse_ins_list(&p, &v);
    if (ok && peek(&p) != CT_EOF) {
        cat_token *t = cur(&p);
        if (t->kind == CT_VAR)
            err_at(&p, t, "syntax error: unexpected name '%s' (an instruction starts with let, include, acyclic, ...)%s",
                   t->text, "");
        else
            err_at(&p, t, "syntax error: unexpected %s%s", tok_desc(t), "");
        ok = false;
    }
    cat_tokens_free(p.t, p.n);
    if (!ok) {
        ins_vec_free(&v);
        free(out->title);
        out->title = NULL;
        return false;
    }
    out->ins = v.v;
    out->nins = (int)v.n;
    return true;
}

/* ---- freeing ------------------------------------------------------------------------------ */
static void fun_free(cat_fun *f) {
    if (!f) return;
    for (int k = 0; k < f->params.n; k++) free(f->params.names[k]);
    free(f->params.names);
    free(f->params.slots);
    cat_expr_free(f->body);
    free(f->name);
    free(f);
}

void cat_expr_free(cat_expr *e) {
    if (!e) return;
    for (int k = 0; k < e->nkids; k++) cat_expr_free(e->kids[k]);
    free(e->kids);
    free(e->name);
    fun_free(e->fun);
    for (int k = 0; k < e->nbinds; k++) bind_free(&e->binds[k]);
    free(e->binds);
    cat_expr_free(e->cond_l);
    cat_expr_free(e->cond_r);
    for (int k = 0; k < e->ntags; k++) free(e->tags[k]);
    free(e->tags);
    free(e->elt_name);
    free(e->rest_name);
    free(e);
}

static void ins_free(cat_ins *in) {
    for (int k = 0; k < in->nbinds; k++) bind_free(&in->binds[k]);
    free(in->binds);
    free(in->name);
    cat_expr_free(in->e);
    for (int k = 0; k < in->params.n; k++) free(in->params.names[k]);
    free(in->params.names);
    free(in->params.slots);
    for (int b = 0; b < in->nbodies; b++) {
        for (int k = 0; k < in->nbody[b]; k++) ins_free(&in->body[b][k]);
        free(in->body[b]);
    }
    free(in->body);
    free(in->nbody);
    for (int k = 0; k < in->ntags; k++) free(in->tags[k]);
    free(in->tags);
}

void cat_file_free(cat_file *f) {
    for (int k = 0; k < f->nins; k++) ins_free(&f->ins[k]);
    free(f->ins);
    free(f->title);
    f->ins = NULL;
    f->nins = 0;
    f->title = NULL;
}
