#ifndef LITMUSC_IR_READ_INT_H
#define LITMUSC_IR_READ_INT_H
/* Shared state of the IR text reader (internal to ir/read*.c): the tokens
 * and the reader, the lexer and token takers (ir/read_lex.c) and the
 * condition grammar (ir/read_cond.c) that ir/read.c builds on.
 *
 * Every function reports through rd_err, which keeps only the first error
 * of a text and sets r->failed; a taker that fails returns false or NULL. */
#include <stdbool.h>
#include <stddef.h>
#include "ir/ir.h"
#include "util/diag.h"

typedef enum tok_kind { T_EOF, T_WORD, T_NUM, T_STR, T_PUNCT } tok_kind;

typedef struct token {
    tok_kind kind;
    char *text;         /* WORD, STR (unescaped), PUNCT spelling */
    ir_val num;
    int line, col;
} token;

typedef struct reader {
    const char *s;
    size_t pos;
    int line, col;
    token tok;
    const char *file;
    diag *d;
    bool failed;
    ir_test *t;
} reader;

/* ---- lexer (ir/read_lex.c) ------------------------------------------------ */
/* An error at LINE:COL (always false). */
bool rd_err(reader *r, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* "expected WHAT, found ..." at the current token (always false). */
bool rd_err_tok(reader *r, const char *what);
/* The character AHEAD bytes past the end of the current token. */
char rd_peekc(const reader *r, size_t ahead);
bool rd_is_digit(char c);
/* Read the next token into r->tok. */
bool rd_next(reader *r);
/* Is the current token the punctuation P / the word W? */
bool rd_is_punct(const reader *r, const char *p);
bool rd_is_word(const reader *r, const char *w);
/* Consume P if it is the current token (false if not). */
bool rd_accept_punct(reader *r, const char *p);
/* Consume P / W, or report "expected 'P'". */
bool rd_expect_punct(reader *r, const char *p);
bool rd_expect_word(reader *r, const char *w);
/* Take one token; WHAT names what was expected in the error.  Strings are
 * malloc'd copies. */
char *rd_take_name(reader *r, const char *what);     /* a word or a string */
char *rd_take_string(reader *r, const char *what);
bool rd_take_num(reader *r, const char *what, ir_val *out);
bool rd_take_int(reader *r, const char *what, int *out);     /* |v| <= 10^9 */
bool rd_take_enum(reader *r, int (*from)(const char *), const char *what, int *out);
bool rd_take_label(reader *r, int *block);   /* bN */

/* ---- conditions (ir/read_cond.c) ---------------------------------------- */
/* A number or &NAME (a location declared so far). */
bool rd_take_val(reader *r, ir_val *v);
/* An observable: THREAD:REG or [LOC]. */
bool rd_take_obs(reader *r, ir_obs *o);
/* A proposition (its loosest operator is \/). */
ir_cond *rd_parse_or(reader *r);

#endif
