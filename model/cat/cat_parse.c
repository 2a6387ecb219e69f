/* Recursive-descent parser for cat files: the token cursor and its error
 * messages, patterns and bindings, instructions, the file header, and
 * freeing the tree.  The grammar is herd's (lib/modelParser.mly).
 * Expressions, the larger part of the grammar, are parsed by
 * cat_parse_expr.c; the two call each other through cat_parse_impl.h (a
 * let binds an expression, an expression may hold a let). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/cat/cat_parse_impl.h"
#include "util/mem.h"

bool cat_err_at(parser *p, cat_token *t, const char *fmt, const char *a, const char *b)
{
    if (!p->failed) {
        char msg[DIAG_MSG_MAX];
        snprintf(msg, sizeof msg, fmt, a, b);
        diag_error(p->d, p->file, t->line, t->col, "%s", msg);
    }
    p->failed = true;
    return false;
}

bool cat_enter(parser *p, cat_token *t)
{
    if (p->depth >= CAT_MAX_DEPTH) {
        char n[16];
        snprintf(n, sizeof n, "%d", CAT_MAX_DEPTH);
        return cat_err_at(p, t, "nested too deeply (more than %s levels)%s", n, "");
    }
    p->depth++;
    return true;
}

void cat_grow(cat_expr *e, const cat_expr *k)
{
    if (k && k->height >= e->height)
        e->height = k->height + 1;
}

const char *cat_tok_desc(cat_token *t)
{
    return (t->kind == CT_VAR || t->kind == CT_TAG) ? t->text : cat_tok_name(t->kind);
}

bool cat_expect(parser *p, cat_tok k, const char *what)
{
    if (peek(p) == k) { next(p); return true; }
    return cat_err_at(p, cur(p), "syntax error: expected %s, found %s", what ? what : cat_tok_name(k),
                      cat_tok_desc(cur(p)));
}

/* ---- patterns ---------------------------------------------------------------- */
static void pat_add(cat_pat *pt, const char *name)
{
    pt->names = xrealloc(pt->names, (size_t)(pt->n + 1) * sizeof *pt->names);
    pt->names[pt->n++] = name ? xstrdup(name) : NULL;
}

void cat_pat_free(cat_pat *pt)
{
    strv_free(pt->names, pt->n);
    free(pt->slots);
}

/* pat0: `_` or a name */
bool cat_parse_pat0(parser *p, cat_pat *pt)
{
    if (peek(p) == CT_UNDERSCORE) { pat_add(pt, NULL); next(p); return true; }
    if (peek(p) == CT_VAR) { pat_add(pt, cur(p)->text); next(p); return true; }
    return cat_err_at(p, cur(p), "syntax error: expected a name, found %s%s", cat_tok_desc(cur(p)), "");
}

/* formals inside parentheses (possibly none); a single one is not a tuple. */
bool cat_parse_formals_paren(parser *p, cat_pat *pt)
{
    if (!cat_expect(p, CT_LPAR, NULL)) return false;
    if (peek(p) != CT_RPAR) {
        for (;;) {
            if (!cat_parse_pat0(p, pt)) return false;
            if (peek(p) != CT_COMMA) break;
            next(p);
        }
    }
    pt->tuple = pt->n != 1;
    return cat_expect(p, CT_RPAR, NULL);
}

/* ---- bindings ------------------------------------------------------------------ */
cat_fun *cat_mk_fun(cat_pat params, cat_expr *body, const char *name)
{
    cat_fun *f = xcalloc(1, sizeof *f);
    f->params = params;
    f->body = body;
    f->name = xstrdup(name);
    return f;
}

static bool parse_bind(parser *p, cat_bind *b)
{
    memset(b, 0, sizeof *b);
    cat_token *at = cur(p);
    b->line = at->line;
    b->col = at->col;
    if (peek(p) == CT_LPAR) {                       /* let (a, b) = e */
        if (!cat_parse_formals_paren(p, &b->pat)) return false;
    } else if (peek(p) == CT_VAR && (peek2(p) == CT_VAR || peek2(p) == CT_UNDERSCORE ||
                                     peek2(p) == CT_LPAR)) {
        /* let f x = e   or   let f(x, y) = e */
        const char *name = at->text;
        next(p);
        cat_pat params = {0};
        if (peek(p) == CT_LPAR) {
            if (!cat_parse_formals_paren(p, &params)) goto fail_params;
        } else if (!cat_parse_pat0(p, &params)) {
            goto fail_params;
        }
        if (!cat_expect(p, CT_EQUAL, NULL)) goto fail_params;
        cat_expr *body = cat_parse_exp(p);
        if (!body) goto fail_params;
        cat_expr *fn = cat_mk(p, CE_FUN, at);
        fn->fun = cat_mk_fun(params, body, name);
        cat_grow(fn, body);
        pat_add(&b->pat, name);
        b->e = fn;
        return true;
    fail_params:
        cat_pat_free(&params);
        return false;
    } else {                                         /* let a = e   or   let a, b = e */
        for (;;) {
            if (!cat_parse_pat0(p, &b->pat)) return false;
            if (peek(p) != CT_COMMA) break;
            next(p);
        }
        b->pat.tuple = b->pat.n > 1;
    }
    if (!cat_expect(p, CT_EQUAL, NULL)) return false;
    b->e = cat_parse_exp(p);
    return b->e != NULL;
}

static void bind_free(cat_bind *b)
{
    cat_pat_free(&b->pat);
    cat_expr_free(b->e);
}

bool cat_parse_binds(parser *p, cat_bind **out, int *nout)
{
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

/* ---- instructions ---------------------------------------------------------------------- */
typedef struct ins_vec { cat_ins *v; size_t n, cap; } ins_vec;

static bool parse_ins_list(parser *p, ins_vec *out);

static cat_ins mk_ins(parser *p, cat_iop op, cat_token *at)
{
    cat_ins in;
    memset(&in, 0, sizeof in);
    in.op = op;
    in.line = at->line;
    in.col = at->col;
    in.file = p->file;
    in.slot = in.up = -1;
    return in;
}

static void ins_add_body(cat_ins *in, ins_vec *b)
{
    in->body = xrealloc(in->body, (size_t)(in->nbodies + 1) * sizeof *in->body);
    in->nbody = xrealloc(in->nbody, (size_t)(in->nbodies + 1) * sizeof *in->nbody);
    in->body[in->nbodies] = b->v;
    in->nbody[in->nbodies] = (int)b->n;
    in->nbodies++;
}

static void ins_free(cat_ins *in);

static void ins_vec_free(ins_vec *b)
{
    for (size_t k = 0; k < b->n; k++) ins_free(&b->v[k]);
    free(b->v);
    b->v = NULL;
    b->n = b->cap = 0;
}

static bool starts_ins(cat_tok k)
{
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

static bool parse_test(parser *p, cat_ins *in)
{
    in->negated = false;
    if (peek(p) == CT_COMP) { in->negated = true; next(p); }
    switch (peek(p)) {
    case CT_ACYCLIC: in->test = CT_T_ACYCLIC; break;
    case CT_IRREFLEXIVE: in->test = CT_T_IRREFLEXIVE; break;
    case CT_EMPTY: in->test = CT_T_EMPTY; break;
    default:
        return cat_err_at(p, cur(p), "syntax error: expected 'acyclic', 'irreflexive' or 'empty', found %s%s",
                          cat_tok_desc(cur(p)), "");
    }
    next(p);
    if (!(in->e = cat_parse_exp(p))) return false;
    if (peek(p) == CT_AS) {
        next(p);
        if (peek(p) != CT_VAR)
            return cat_err_at(p, cur(p), "syntax error: expected a name after 'as', found %s%s", cat_tok_desc(cur(p)), "");
        in->name = xstrdup(cur(p)->text);
        next(p);
    }
    return true;
}

/* An instruction KIND at AT named by the variable that comes next (WHAT
 * describes it in the error when something else does). */
static bool named_ins(parser *p, cat_iop kind, cat_token *at, const char *what, cat_ins *in)
{
    if (peek(p) != CT_VAR)
        return cat_err_at(p, cur(p), "syntax error: expected %s, found %s", what, cat_tok_desc(cur(p)));
    *in = mk_ins(p, kind, at);
    in->name = xstrdup(cur(p)->text);
    next(p);
    return true;
}

/* KEYWORD NAME [SEP] EXPR, what `call`, `forall` and `with` start with:
 * the instruction KIND at AT (the keyword), its name, and IN->e parsed by
 * EXPR.  SEP is CT_EOF where nothing stands between name and expression. */
static bool named_expr_ins(parser *p, cat_iop kind, cat_token *at, const char *what, cat_tok sep,
                           cat_expr *(*expr)(parser *), cat_ins *in)
{
    next(p);
    if (!named_ins(p, kind, at, what, in))
        return false;
    if ((sep != CT_EOF && !cat_expect(p, sep, NULL)) || !(in->e = expr(p))) {
        ins_free(in);
        return false;
    }
    return true;
}

/* The instructions up to `end` (consumed), as IN's next body. */
static bool body_to_end(parser *p, cat_ins *in)
{
    ins_vec b = {0};
    if (!parse_ins_list(p, &b) || !cat_expect(p, CT_END, NULL)) {
        ins_vec_free(&b);
        return false;
    }
    ins_add_body(in, &b);
    return true;
}

static bool parse_one_ins(parser *p, ins_vec *out)
{
    cat_token *at = cur(p);
    cat_ins in;
    switch (peek(p)) {
    case CT_LET: {
        in = mk_ins(p, next_rec(p) ? CI_LETREC : CI_LET, at);
        if (!cat_parse_binds(p, &in.binds, &in.nbinds)) return false;
        if (peek(p) == CT_WHEN) {
            ins_free(&in);
            return cat_err_at(p, cur(p), "'let rec ... when' is not supported%s%s", "", "");
        }
        if (peek(p) == CT_IN) next(p);
        break;
    }
    case CT_MATCH: {
        next(p);
        in = mk_ins(p, CI_MATCH, at);
        if (!(in.e = cat_parse_exp(p)) || !cat_expect(p, CT_WITH, NULL)) { ins_free(&in); return false; }
        if (peek(p) == CT_ALT) next(p);
        for (;;) {
            bool dflt = peek(p) == CT_UNDERSCORE;
            if (!dflt && peek(p) != CT_TAG) {
                cat_err_at(p, cur(p), "syntax error: expected a tag or '_' in a match case, found %s%s", cat_tok_desc(cur(p)), "");
                ins_free(&in);
                return false;
            }
            if (!dflt) {
                in.tags = xrealloc(in.tags, (size_t)(in.ntags + 1) * sizeof *in.tags);
                in.tags[in.ntags++] = xstrdup(cur(p)->text);
            }
            next(p);
            ins_vec b = {0};
            if (!cat_expect(p, CT_ARROW, NULL) || !parse_ins_list(p, &b)) { ins_vec_free(&b); ins_free(&in); return false; }
            ins_add_body(&in, &b);
            if (dflt) { in.has_default = true; break; }
            if (peek(p) != CT_ALT) break;
            next(p);
        }
        if (!cat_expect(p, CT_END, NULL)) { ins_free(&in); return false; }
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
            return cat_err_at(p, at, "a flag needs a name ('as NAME')%s%s", "", "");
        }
        break;
    case CT_SHOW: case CT_UNSHOW: {
        /* show/unshow only affect herd's pictures: parsed and ignored. */
        next(p);
        in = mk_ins(p, CI_NOP, at);
        for (;;) {
            cat_expr *e = cat_parse_base(p);
            if (!e) return false;
            cat_expr_free(e);
            if (peek(p) == CT_AS) {
                next(p);
                if (!cat_expect(p, CT_VAR, "a name after 'as'")) return false;
            }
            if (peek(p) != CT_COMMA) break;
            next(p);
        }
        break;
    }
    case CT_DEBUG: {
        next(p);
        in = mk_ins(p, CI_NOP, at);
        cat_expr *e = cat_parse_exp(p);
        if (!e) return false;
        cat_expr_free(e);
        break;
    }
    case CT_INCLUDE:
        next(p);
        if (peek(p) != CT_STRING)
            return cat_err_at(p, cur(p),
                              "syntax error: expected a file name string after 'include', found %s%s",
                              cat_tok_desc(cur(p)), "");
        in = mk_ins(p, CI_INCLUDE, at);
        in.name = xstrdup(cur(p)->text);
        next(p);
        break;
    case CT_PROCEDURE: {
        next_rec(p);
        if (!named_ins(p, CI_PROC, at, "a procedure name", &in))
            return false;
        bool ok = peek(p) == CT_LPAR ? cat_parse_formals_paren(p, &in.params) : cat_parse_pat0(p, &in.params);
        if (!ok || !cat_expect(p, CT_EQUAL, NULL) || !body_to_end(p, &in)) {
            ins_free(&in);
            return false;
        }
        break;
    }
    case CT_CALL:
        if (!named_expr_ins(p, CI_CALL, at, "a procedure name", CT_EOF, cat_parse_simple, &in))
            return false;
        if (peek(p) == CT_AS) {
            next(p);
            if (!cat_expect(p, CT_VAR, "a name after 'as'")) { ins_free(&in); return false; }
        }
        break;
    case CT_FORALL:
        if (!named_expr_ins(p, CI_FORALL, at, "a name after 'forall'", CT_IN, cat_parse_exp, &in))
            return false;
        if (!cat_expect(p, CT_DO, NULL) || !body_to_end(p, &in)) { ins_free(&in); return false; }
        break;
    case CT_WITH:
        if (!named_expr_ins(p, CI_WITH, at, "a name after 'with'", CT_FROM, cat_parse_exp, &in))
            return false;
        break;
    case CT_IF: {
        next(p);
        in = mk_ins(p, CI_IFVARIANT, at);
        ins_vec a = {0}, b = {0};
        if (!cat_parse_variant_or(p, &in.variant_value) || !parse_ins_list(p, &a)) {
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
        if (!cat_expect(p, CT_END, NULL)) { ins_free(&in); return false; }
        break;
    }
    case CT_ENUM: {
        next(p);
        if (!named_ins(p, CI_ENUM, at, "a name after 'enum'", &in))
            return false;
        if (!cat_expect(p, CT_EQUAL, NULL)) { ins_free(&in); return false; }
        if (peek(p) == CT_ALT) next(p);
        for (;;) {
            if (peek(p) != CT_TAG) {
                cat_err_at(p, cur(p), "syntax error: expected a tag, found %s%s", cat_tok_desc(cur(p)), "");
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
        return cat_err_at(p, at, "bell declarations ('%s') are not supported in a model%s", cat_tok_name(peek(p)), "");
    default:
        return cat_err_at(p, at, "syntax error: unexpected %s at the start of an instruction%s", cat_tok_desc(at), "");
    }
    VEC_PUSH(out->v, out->n, out->cap, in);
    return true;
}

static bool parse_ins_list(parser *p, ins_vec *out)
{
    if (!cat_enter(p, cur(p))) return false;
    bool ok = true;
    while (ok && starts_ins(peek(p)))
        ok = parse_one_ins(p, out);
    cat_leave(p);
    return ok;
}

bool cat_parse(const char *text, const char *file, cat_file *out, diag *d)
{
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
    if (peek(&p) == CT_CATDEP) {
        out->catdep = true;
        next(&p);
    }
    ins_vec v = {0};
    bool ok = parse_ins_list(&p, &v);
    if (ok && peek(&p) != CT_EOF) {
        cat_token *t = cur(&p);
        if (t->kind == CT_VAR)
            cat_err_at(&p, t, "syntax error: unexpected name '%s' (an instruction starts with let, include, acyclic, ...)%s",
                       t->text, "");
        else
            cat_err_at(&p, t, "syntax error: unexpected %s%s", cat_tok_desc(t), "");
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
static void fun_free(cat_fun *f)
{
    if (!f) return;
    cat_pat_free(&f->params);
    cat_expr_free(f->body);
    free(f->name);
    free(f);
}

void cat_expr_free(cat_expr *e)
{
    if (!e) return;
    for (int k = 0; k < e->nkids; k++) cat_expr_free(e->kids[k]);
    free(e->kids);
    free(e->name);
    fun_free(e->fun);
    for (int k = 0; k < e->nbinds; k++) bind_free(&e->binds[k]);
    free(e->binds);
    cat_expr_free(e->cond_l);
    cat_expr_free(e->cond_r);
    strv_free(e->tags, e->ntags);
    free(e->elt_name);
    free(e->rest_name);
    free(e);
}

static void ins_free(cat_ins *in)
{
    for (int k = 0; k < in->nbinds; k++) bind_free(&in->binds[k]);
    free(in->binds);
    free(in->name);
    cat_expr_free(in->e);
    cat_pat_free(&in->params);
    for (int b = 0; b < in->nbodies; b++) {
        for (int k = 0; k < in->nbody[b]; k++) ins_free(&in->body[b][k]);
        free(in->body[b]);
    }
    free(in->body);
    free(in->nbody);
    strv_free(in->tags, in->ntags);
}

void cat_file_free(cat_file *f)
{
    for (int k = 0; k < f->nins; k++) ins_free(&f->ins[k]);
    free(f->ins);
    free(f->title);
    f->ins = NULL;
    f->nins = 0;
    f->title = NULL;
}
