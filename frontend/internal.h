#ifndef LITMUSC_FRONTEND_INTERNAL_H
#define LITMUSC_FRONTEND_INTERNAL_H
/* Private to frontend/: the lexer, the split of a file into sections, and
 * the per-section parsers.  Positions are absolute in the file, because
 * every section is lexed in place inside the whole buffer. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "frontend/ast.h"
#include "util/diag.h"
#include "util/mem.h"

/* ---- lexer ---------------------------------------------------------------- */
typedef enum tok_kind {
    TK_EOF,
    TK_IDENT,       /* [A-Za-z_][A-Za-z0-9_]* */
    TK_NUM,         /* decimal or 0x hex, unsigned; a leading '-' is a TK_PUNCT */
    TK_PUNCT        /* one of the operators below, text in s/len */
} tok_kind;

typedef struct tok {
    tok_kind kind;
    const char *s;
    size_t len;
    int line, col;
    uint64_t num;       /* TK_NUM */
    bool big;           /* TK_NUM did not fit in 64 bits */
    const char *end;    /* one past the token */
} tok;

/* Comment styles a section allows. */
enum {
    LX_ML_COMMENTS = 1,     /* (* ... *), nested */
    LX_C_COMMENTS = 2,      /* slash-star ... star-slash and // */
    LX_HASH_COMMENTS = 4    /* # to end of line (x86 annotations) */
};

typedef struct lexer {
    const char *p, *end;
    int line, col;
    int flags;
    const char *file;
    diag *d;
    tok cur;            /* the current token (after lx_next) */
    bool failed;
    int nodes;          /* tree nodes built from this section (see lx_node) */
} lexer;

/* Tree nodes a section may build.  Later passes walk trees recursively,
 * so a bound on the node count bounds their stack depth too. */
enum { LX_MAX_NODES = 10000 };
/* Count one node at nesting DEPTH; false (diag set at the current token)
 * past the node bound or past MAX_DEPTH ("WHAT nested too deeply"): the
 * recursive parsers' guard against a stack overflow. */
bool lx_node(lexer *lx, int depth, int max_depth, const char *what);

/* Start lexing [p, end) which begins at LINE:COL, and read the first token. */
void lx_init(lexer *lx, const char *p, const char *end, int line, int col, int flags,
             const char *file, diag *d);
/* Advance to the next token; returns false (diag set) on a lexical error. */
bool lx_next(lexer *lx);
/* Is the current token the punctuation / identifier S? */
bool lx_is(const lexer *lx, const char *s);
bool lx_is_ident(const lexer *lx, const char *s);
bool lx_is_ident_ci(const lexer *lx, const char *s);   /* case-insensitive */
/* Error at the current token: "MSG, found 'TOK'" (token text shortened). */
bool lx_error(lexer *lx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Error at an explicit position. */
bool lx_error_at(lexer *lx, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* If the current token is S, consume it and return true. */
bool lx_accept(lexer *lx, const char *s);
/* Require S: consume it, or report "expected 'S'". */
bool lx_expect(lexer *lx, const char *s);
/* Describe the current token for messages ("'foo'", "end of file"). */
void lx_describe(const tok *t, char *buf, size_t size);
/* The token's text as a fresh string. */
char *tok_str(const tok *t);

/* Skip blanks and comments of the given style from P; keeps line/col. */
const char *skip_blanks(const char *p, const char *end, int *line, int *col, int flags, bool *unterminated);
/* Advance line/col over [p, q). */
void advance_pos(const char *p, const char *q, int *line, int *col);

/* ---- split --------------------------------------------------------------- */
typedef struct section {
    const char *p, *end;
    int line, col;
} section;

typedef struct split {
    fe_arch arch;
    char *arch_name, *name, *doc;
    fe_info *info;
    int ninfo;
    section init, prog, cond;
    bool has_init;
} split;

bool fe_split(const char *text, size_t len, const char *file, split *sp, diag *d);

/* ---- section parsers -------------------------------------------------------- */
bool fe_parse_init(fe_test *t, const section *s, const char *file, diag *d);
bool fe_parse_cond(fe_test *t, const section *s, const char *file, diag *d);
bool fe_parse_x86(fe_test *t, const section *s, const char *file, diag *d);
bool fe_parse_c(fe_test *t, const section *s, const char *file, diag *d);
bool fe_parse_java(fe_test *t, const section *s, const char *file, diag *d);

/* ---- instruction sets ------------------------------------------------------
 * What the frontend does differently for each instruction set (isa/isa.h),
 * one row per ISA_LIST entry, built in isa_hooks.c from the functions named
 * after the entry's stem.  The hooks take the row, so a family of dialects
 * (X86 and X86_64) shares one set and reads its differences from the row. */
typedef struct fe_isa_hooks {
    /* The program table of the section S into T's threads. */
    bool (*parse)(fe_test *t, const section *s, const char *file, diag *d);
    /* Whether the init or the condition may name register L. */
    bool (*reg_known)(const fe_test *t, const fe_loc *l);
    /* The canonical spelling of register NAME (NULL if it is none), and
     * whether it is narrower than the registers an init or condition names. */
    const char *(*reg_canon)(const fe_test *t, const char *name, bool *narrow);
    /* The program table in herd's syntax (fe_print). */
    void (*print)(strbuf *b, const fe_test *t);
    /* The program's part of herd's test hash (fe_compute_hash). */
    void (*digest)(const fe_test *t, unsigned char out[16]);
    /* Whether threads A and B have the same code, positions aside; if not,
     * why (for fe_test_equal's message) in the WHYLEN bytes at WHY. */
    bool (*code_equal)(const fe_thread *a, const fe_thread *b, char *why, size_t whylen);
    /* Free what thread TH's code owns (fe_test_free). */
    void (*code_clear)(fe_thread *th);
    /* Each location (and symbolic register) thread TH's code names, given
     * to ADD with SET: the locations the condition may name besides the
     * init's (fe_check). */
    void (*code_locations)(const fe_thread *th, void (*add)(void *set, const char *name), void *set);
} fe_isa_hooks;

/* The hooks of test architecture A; NULL for C and Java. */
const fe_isa_hooks *fe_isa_hooks_of(fe_arch a);
bool fe_reg_known_x86(const fe_test *t, const fe_loc *l);
const char *fe_reg_canon_x86(const fe_test *t, const char *name, bool *narrow);
void fe_print_x86(strbuf *b, const fe_test *t);
void fe_digest_x86(const fe_test *t, unsigned char out[16]);
bool fe_code_equal_x86(const fe_thread *a, const fe_thread *b, char *why, size_t whylen);
void fe_code_clear_x86(fe_thread *th);
void fe_code_locations_x86(const fe_thread *th, void (*add)(void *set, const char *name), void *set);
bool fe_parse_aarch64(fe_test *t, const section *s, const char *file, diag *d);
bool fe_reg_known_aarch64(const fe_test *t, const fe_loc *l);
const char *fe_reg_canon_aarch64(const fe_test *t, const char *name, bool *narrow);
void fe_print_aarch64(strbuf *b, const fe_test *t);
void fe_digest_aarch64(const fe_test *t, unsigned char out[16]);
bool fe_code_equal_aarch64(const fe_thread *a, const fe_thread *b, char *why, size_t whylen);
void fe_code_clear_aarch64(fe_thread *th);
void fe_code_locations_aarch64(const fe_thread *th, void (*add)(void *set, const char *name), void *set);
/* AArch64 instructions (frontend/print_aarch64.c): one as herd prints it
 * (LABEL, when not NULL, names its branch target), equality of two
 * threads' code, and freeing one. */
void fe_print_a64_instr(strbuf *b, const fe_a64_instr *in, const char *label);
bool fe_a64_code_equal(const fe_thread *a, const fe_thread *b);
void fe_a64_instr_clear(fe_a64_instr *in);

/* The program table's digest (frontend/hash.c) that each instruction set's
 * fe_digest_STEM builds: one column of printed lines per thread, hashed as
 * herd's Misc.string_of_prog lays them out. */
typedef struct fe_column { char **lines; int n, cap; } fe_column;
void fe_col_add(fe_column *c, char *s);
void fe_digest_columns(fe_column *cols, int ncols, unsigned char out[16]);
/* The labels a digest renames L00, L01, ... in the sorted order of their
 * names (herd walks a string set): added once each, then sorted, then
 * looked up by name. */
typedef struct fe_labels { const char **names; size_t n, cap; } fe_labels;
void fe_labels_add(fe_labels *l, const char *name);  /* NULL and a name already there: nothing */
void fe_labels_sort(fe_labels *l);
/* "L%02d" for NAME's place (SUFFIX after it, "" or ":") into OUT; false
 * when NAME is not there. */
bool fe_labels_rename(const fe_labels *l, const char *name, const char *suffix, char out[16]);
/* Cross-section checks: threads, registers and locations named by the
 * init and the condition exist; C/Java programs use known names. */
bool fe_check(fe_test *t, const char *file, diag *d);
/* Java: each synchronized names a bound handle, and its monitor is used as
 * nothing else (frontend/monitors.c). */
bool fe_check_monitors(const fe_test *t, const char *file, diag *d);

/* ---- shared helpers ------------------------------------------------------------ */
/* X86_64 register NAME (no '%', any case) -> its 64-bit name and size in
 * bytes; NULL if it is not a register. */
const char *x86_64_reg(const char *name, int *size);
/* X86 register NAME (any case) -> canonical upper-case spelling, or NULL. */
const char *x86_reg(const char *name);
/* The spelling of 64-bit register FULL at SIZE bytes ("rax",4 -> "eax"). */
const char *x86_64_reg_sized(const char *full, int size);

/* Free helpers for AST parts (frontend/ast.c). */
void fe_expr_free(fe_expr *e);
void fe_stmt_free(fe_stmt *s);
void fe_prop_free(fe_prop *p);
void fe_loc_clear(fe_loc *l);

/* Print helpers shared by the printer and the hash (frontend/print.c). */
typedef struct strbuf strbuf;
void fe_print_x86_instr(strbuf *b, const fe_test *t, const fe_x86_instr *in, bool herd_hash);
void fe_print_value(strbuf *b, const fe_value *v);
void fe_print_loc(strbuf *b, const fe_loc *l, bool brackets);



/* ---- the state grammar (frontend/state.c, cond.c) ------------------------- */
/* Is the current token `P<digits>` or a number, followed by ':'?  Sets *thread. */
bool fe_state_thread_prefix(lexer *lx, int *thread);
/* A location or register (`x`, `[x]`, `0:EAX`, `P1:r0`). */
bool fe_state_parse_loc(lexer *lx, const fe_test *t, fe_loc *loc);
/* A value (a number, possibly negative, or a location's address). */
bool fe_state_parse_value(lexer *lx, fe_value *v);

/* ---- X86 and X86_64 programs (frontend/parse_x86.c, x86_operand.c) ------- */
/* The program table's reader. */
typedef struct fe_x86_parser {
    lexer lx;
    fe_test *t;
    bool att;       /* X86_64: AT&T syntax */
    int thread;     /* the thread whose cell is being read */
} fe_x86_parser;
/* A memory operand (any addressing form). */
bool fe_x86_is_mem(const fe_x86_opnd *o);
/* One operand at the lexer's position (a label where WANT_LABEL). */
bool fe_x86_parse_operand(fe_x86_parser *p, fe_x86_opnd *o, bool want_label);

/* ---- C and Java thread bodies (frontend/code.c, code_expr.c, code_scope.c) */
typedef struct code_scope {
    fe_test *t;
    fe_thread *th;
    bool java;
    char **names;       /* declared locals (registers) */
    bool *is_ptr;       /* C: the local holds a pointer */
    int nnames, cap;
} code_scope;

/* Start lexing the program section S of a C or Java test; false (diag
 * set) when it cannot be read or is empty, SHAPE saying what a thread
 * looks like ("P0(...) { ... }"). */
bool code_open(lexer *lx, const section *s, const char *file, diag *d, const char *shape);
/* Parse `{ stmts }` at the current token into an FE_S_BLOCK. */
fe_stmt *code_parse_block(lexer *lx, code_scope *sc);

/* frontend/code_scope.c */
void code_scope_add(code_scope *sc, const char *name, bool is_ptr);
int code_scope_find(const code_scope *sc, const char *name);
void code_scope_free(code_scope *sc);
/* Is this C identifier a type word that can start a declaration? */
bool code_is_c_type_word(const char *s, size_t len);
/* A C type: type words and stars, as "volatile int*" (malloc'd). */
char *code_parse_c_type(lexer *lx);

/* Between the statements (frontend/code.c) and the expressions
 * (frontend/code_expr.c).  DEPTH is the nesting so far, bounded by
 * CODE_MAX_DEPTH. */
enum { CODE_MAX_DEPTH = 200 };
fe_expr *code_parse_expr(lexer *lx, code_scope *sc, int depth);
/* An expression used for its value (not a store or a fence). */
fe_expr *code_parse_value_expr(lexer *lx, code_scope *sc, int depth);
/* A unary expression: a primary, possibly negated, dereferenced or cast. */
fe_expr *code_parse_unary(lexer *lx, code_scope *sc, int depth);
/* True when E is a pointer; else "type mismatch: PRE<AT's text>POST" at AT. */
bool code_want_ptr(lexer *lx, const code_scope *sc, const fe_expr *e, const tok *at, const char *pre,
                   const char *post);
/* A Java VarHandle name: an identifier starting with an upper-case letter. */
bool code_is_java_handle(const tok *t);
#endif
