#ifndef LITMUSC_MODEL_CAT_PARSE_IMPL_H
#define LITMUSC_MODEL_CAT_PARSE_IMPL_H
/* The cat parser's state and the calls between its two halves:
 * instructions, bindings and the entry point (cat_parse.c), expressions
 * (cat_parse_expr.c).  Internal to those two files.  A parse function
 * that fails returns NULL or false; the parse's first error is in P->d. */
#include <stdbool.h>
#include "model/cat/cat_ast.h"

typedef struct parser {
    cat_token *t;
    int n, i;
    const char *file;
    diag *d;
    bool failed;
    int depth;          /* recursive rules entered (cat_enter) */
} parser;

/* How deeply a model's expressions and instructions may nest, in the
 * parser's recursion and in the tree it builds: far past any model herd
 * ships (about 20), and low enough that parsing, resolving and evaluating
 * the tree fit a 1 MB stack, so that 30,000 parentheses or a chain of
 * 10,000 `^-1` are an error at their position rather than a crash. */
#define CAT_MAX_DEPTH 500

static inline cat_token *cur(parser *p)
{
    return &p->t[p->i];
}

static inline cat_tok peek(parser *p)
{
    return p->t[p->i].kind;
}

static inline cat_tok peek2(parser *p)
{
    return p->i + 1 < p->n ? p->t[p->i + 1].kind : CT_EOF;
}

static inline void next(parser *p)
{
    if (p->i + 1 < p->n) p->i++;
}

/* Consume a keyword and the `rec` that may follow it (`let rec`,
 * `procedure rec`); true when it was there. */
static inline bool next_rec(parser *p)
{
    next(p);
    if (peek(p) != CT_REC) return false;
    next(p);
    return true;
}

/* cat_parse.c */
/* Report FMT (with two string arguments) at T, once per parse; returns false. */
bool cat_err_at(parser *p, cat_token *t, const char *fmt, const char *a, const char *b);
/* How T is named in a message: its text for names and tags. */
const char *cat_tok_desc(cat_token *t);
/* One more level of nesting at T before a recursive rule recurses; false
 * (an error at T) past CAT_MAX_DEPTH.  cat_leave after the recursion. */
bool cat_enter(parser *p, cat_token *t);
static inline void cat_leave(parser *p)
{
    p->depth--;
}
/* Make K count towards E's height (E's kids do through add_kid; a
 * function's body, a let's bindings, an if's condition through this). */
void cat_grow(cat_expr *e, const cat_expr *k);
/* Consume a K or report "expected WHAT" (NULL: K's name). */
bool cat_expect(parser *p, cat_tok k, const char *what);
bool cat_parse_pat0(parser *p, cat_pat *pt);
void cat_pat_free(cat_pat *pt);     /* its names and slots, not PT itself */
bool cat_parse_formals_paren(parser *p, cat_pat *pt);
/* One or more `and`-separated bindings of a let. */
bool cat_parse_binds(parser *p, cat_bind **out, int *nout);
cat_fun *cat_mk_fun(cat_pat params, cat_expr *body, const char *name);

/* cat_parse_expr.c */
/* A new node of kind OP at token AT. */
cat_expr *cat_mk(parser *p, cat_eop op, cat_token *at);
/* A whole expression: let, fun, try, if, match, or a base expression
 * possibly followed by `, e, ...` (a tuple). */
cat_expr *cat_parse_exp(parser *p);
/* An expression without let/fun/if/match/tuple at its top: the operators. */
cat_expr *cat_parse_base(parser *p);
/* A constant, a set, a parenthesised or bracketed expression. */
cat_expr *cat_parse_simple(parser *p);
/* A variant condition (`"name"`, not, &&, ||); *VAL is its value with no
 * variant set. */
bool cat_parse_variant_or(parser *p, bool *val);

#endif
