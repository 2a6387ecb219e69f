#ifndef LITMUSC_FRONTEND_AARCH64_LEX_H
#define LITMUSC_FRONTEND_AARCH64_LEX_H
/* The AArch64 dialect's own reader of one cell of the program table
 * (frontend/aarch64_*.c only).  herd's AArch64 syntax has `#1` immediates
 * and `B.EQ` mnemonics, which the shared lexer does not tokenise, so a cell
 * is read here character by character, keeping file positions. */
#include <stdbool.h>
#include <stdint.h>
#include "frontend/internal.h"

typedef enum a64_tok_kind { A64_EOF, A64_IDENT, A64_NUM, A64_PUNCT } a64_tok_kind;

typedef struct a64_tok {
    a64_tok_kind kind;
    const char *s;
    int len;
    int64_t num;            /* A64_NUM, its sign included */
    int line, col;
} a64_tok;

typedef struct a64_cell {
    const char *p, *end;    /* the cell's text, between its delimiters */
    int line, col;          /* where p is */
    const char *file;
    diag *d;
    a64_tok cur;
    bool failed;
} a64_cell;

/* Start reading the cell [P, END) that begins at LINE:COL. */
bool a64_cell_init(a64_cell *c, const char *p, const char *end, int line, int col, const char *file, diag *d);
/* Move to the next token; false (diag set) on a character no token starts with. */
bool a64_next(a64_cell *c);
/* Is the current token the punctuation character CH? */
bool a64_is(const a64_cell *c, char ch);
/* Consume CH, or report that it was expected. */
bool a64_expect(a64_cell *c, char ch, const char *what);
/* Error at the current token. */
bool a64_error(a64_cell *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The current token upper-cased into BUF (SIZE bytes), for look-ups. */
void a64_upper(const a64_tok *t, char *buf, int size);

/* Operands (frontend/aarch64_operand.c). */
/* A general register W<n>, X<n>, WZR or XZR (any case) at T: false if T is none. */
bool a64_reg_of(const a64_tok *t, int *reg, bool *wide);
/* One operand: a register, #imm, [address], or (WANT_LABEL) a label. */
bool a64_parse_operand(a64_cell *c, fe_a64_opnd *o, bool want_label);
/* A condition name (EQ, NE, ...) in upper case: its value, or -1. */
int a64_cond_of(const char *name);
/* The printed name of a condition. */
const char *a64_cond_name(fe_a64_cond k);

/* One instruction cell into IN (frontend/aarch64_instr.c). */
bool a64_parse_instr(a64_cell *c, fe_a64_instr *in);

#endif
