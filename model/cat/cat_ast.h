#ifndef LITMUSC_MODEL_CAT_AST_H
#define LITMUSC_MODEL_CAT_AST_H
/* Syntax tree of a cat file, as the parser builds it and the resolver
 * annotates it (variable references get a frame depth and slot).  Internal
 * to model/cat/cat_*.c. */
#include <stdbool.h>
#include "util/diag.h"

/* ---- tokens (cat_lex.c) ---------------------------------------------------- */
typedef enum cat_tok {
    CT_EOF, CT_VAR, CT_TAG, CT_STRING,
    CT_LPAR, CT_RPAR, CT_LACC, CT_RACC, CT_LBRAC, CT_RBRAC,
    CT_UNDERSCORE, CT_ZERO,
    CT_UNION, CT_ALT, CT_INTER, CT_LAND, CT_STAR, CT_COMP, CT_PLUS, CT_PLUSPLUS,
    CT_HAT, CT_INV, CT_DIFF, CT_OPT, CT_EQUAL, CT_SEMI, CT_COMMA, CT_ARROW,
    /* keywords */
    CT_LET, CT_REC, CT_AND, CT_WHEN, CT_ACYCLIC, CT_IRREFLEXIVE, CT_SHOW, CT_UNSHOW,
    CT_EMPTY, CT_SUBSET, CT_AS, CT_FUN, CT_IN, CT_UNDEFINED_UNLESS, CT_FLAG, CT_ASSERT,
    CT_INCLUDE, CT_VARIANT, CT_BEGIN, CT_END, CT_PROCEDURE, CT_CALL, CT_ENUM, CT_DEBUG,
    CT_MATCH, CT_WITH, CT_FORALL, CT_FROM, CT_DO, CT_TRY, CT_IF, CT_THEN, CT_ELSE,
    CT_CATDEP, CT_INSTRUCTIONS, CT_DEFAULT, CT_NOT,
    CT_COUNT
} cat_tok;

typedef struct cat_token {
    cat_tok kind;
    char *text;             /* VAR, TAG (without the quote), STRING (without quotes) */
    int line, col;
} cat_token;

/* Tokenise TEXT; FILE is used in diagnostics.  Returns false + diag. */
bool cat_lex(const char *text, const char *file, cat_token **toks, int *ntoks, diag *d);
void cat_tokens_free(cat_token *toks, int ntoks);
const char *cat_tok_name(cat_tok t);

/* ---- expressions ----------------------------------------------------------- */
typedef enum cat_eop {
    CE_VAR, CE_TAG, CE_ZERO /* 0: the empty relation */, CE_EMPTY /* {} */, CE_UNIV /* _ */,
    CE_SET /* {e1, ...} */, CE_TUPLE /* (e1, e2, ...) or () */,
    CE_UNION, CE_INTER, CE_DIFF, CE_SEQ, CE_CART, CE_ADD /* e ++ S */,
    CE_STAR, CE_PLUS, CE_OPT, CE_INV, CE_COMP, CE_TOID,
    CE_APP, CE_FUN, CE_LET, CE_LETREC, CE_TRY, CE_IF, CE_MATCH, CE_MATCHSET
} cat_eop;

typedef enum cat_cond_kind { CC_EQ, CC_SUBSET, CC_IN, CC_VARIANT } cat_cond_kind;

struct cat_fun;
struct cat_bind;

typedef struct cat_expr {
    cat_eop op;
    int line, col;
    const char *file;
    struct cat_expr **kids;     /* operands (UNION/SEQ n-ary); APP: fn, arg; TRY: e, fallback;
                                   IF: then, else (+ cond operands in cond_l/cond_r);
                                   LET/LETREC: body in kids[0]; MATCH: scrutinee + clause bodies;
                                   MATCHSET: scrutinee, empty-case, element-case */
    int nkids;
    int height;                 /* nodes on the longest path below it (the parser's depth limit) */
    char *name;                 /* VAR, TAG */
    /* VAR after resolution: a global slot (glob), or a slot of the frame
     * UP levels above the current function's (0 = the current one).
     * Also used by MATCHSET and FUN-free binders for their own slots. */
    int up, slot;
    bool glob;
    bool dyn;                   /* depends on the candidate (rf, co, FW, values) */
    /* FUN */
    struct cat_fun *fun;
    /* LET / LETREC */
    struct cat_bind *binds;
    int nbinds;
    /* IF */
    cat_cond_kind cond;
    struct cat_expr *cond_l, *cond_r;
    bool variant_value;         /* CC_VARIANT: decided when parsed (no variant is set) */
    /* MATCH: clause tags (nkids-1 clause bodies; a default body if has_default, last) */
    char **tags;
    int ntags;
    bool has_default;
    /* MATCHSET element case: `x ++ rest -> e`; slots of x and rest (-1 for _) */
    char *elt_name, *rest_name;
    int elt_slot, rest_slot;
    /* TAG: interned index */
    int tag;
} cat_expr;

/* A pattern: one name (maybe `_`) or a tuple of names. */
typedef struct cat_pat {
    char **names;               /* NULL entry = `_` */
    int n;
    bool tuple;                 /* (a, b) or () rather than a single name */
    int *slots;                 /* after resolution */
} cat_pat;

typedef struct cat_fun {
    cat_pat params;
    cat_expr *body;
    int nslots;                 /* frame size: params + lets in the body */
    char *name;                 /* for messages, "*fun*" for anonymous */
} cat_fun;

typedef struct cat_bind {
    cat_pat pat;
    cat_expr *e;
    int line, col;
} cat_bind;

/* ---- instructions ------------------------------------------------------------ */
typedef enum cat_iop {
    CI_LET, CI_LETREC, CI_TEST, CI_WITH, CI_PROC, CI_CALL, CI_FORALL, CI_MATCH,
    CI_INCLUDE, CI_IFVARIANT, CI_ENUM, CI_NOP /* show, unshow, debug */
} cat_iop;

typedef enum cat_test { CT_T_ACYCLIC, CT_T_IRREFLEXIVE, CT_T_EMPTY } cat_test;
typedef enum cat_ttype { CTT_CHECK, CTT_UNDEF, CTT_FLAG, CTT_ASSERT } cat_ttype;

typedef struct cat_ins {
    cat_iop op;
    int line, col;
    const char *file;
    /* LET / LETREC */
    struct cat_bind *binds;
    int nbinds;
    /* TEST */
    cat_test test;
    bool negated;               /* ~acyclic ... */
    cat_ttype ttype;
    char *name;                 /* `as NAME`; INCLUDE: file; WITH/FORALL: variable; PROC/CALL: name */
    int flag_index;             /* CTT_FLAG: index among the model's flags */
    cat_expr *e;                /* TEST/WITH/FORALL/CALL/MATCH scrutinee */
    int slot, up;               /* WITH/FORALL: bound slot; PROC: slot; CALL: up/slot of the proc */
    bool glob;                  /* slot is global */
    /* PROC: params + body, frame size */
    cat_pat params;
    int nslots;
    /* bodies: PROC/FORALL body in body[0]; IFVARIANT then/else in body[0]/body[1];
       MATCH: one per tag then default */
    struct cat_ins **body;
    int *nbody;
    int nbodies;
    char **tags;                /* MATCH clauses / ENUM tags */
    int ntags;
    bool has_default;
    bool variant_value;         /* IFVARIANT */
    bool live;                  /* resolver: needed by some check */
} cat_ins;

typedef struct cat_file {
    char *title;                /* header line, "" when none */
    bool catdep;                /* says `catdep`: it computes the dependencies itself */
    cat_ins *ins;
    int nins;
} cat_file;

/* Parse TEXT (tokens from cat_lex); FILE must outlive the tree (it is
 * referenced by every node).  Returns false + diag. */
bool cat_parse(const char *text, const char *file, cat_file *out, diag *d);
void cat_file_free(cat_file *f);
void cat_expr_free(cat_expr *e);

#endif
