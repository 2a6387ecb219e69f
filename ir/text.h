#ifndef LITMUSC_IR_TEXT_H
#define LITMUSC_IR_TEXT_H
/* Pieces of the IR text form shared by the printer and the reader, and
 * the condition printers' common step (internal to ir/). */
#include <stdbool.h>
#include "ir/ir.h"
#include "util/mem.h"

/* An identifier ([A-Za-z_][A-Za-z0-9_]*), which the text form writes bare. */
bool ir_text_is_word(const char *s);
/* A double-quoted string with \" \\ \n \t \xHH escapes. */
void ir_text_add_string(strbuf *b, const char *s);
/* A proposition in the text form's exact syntax (ir/README.md). */
void ir_text_add_prop(strbuf *b, const ir_test *t, const ir_cond *c);

/* Prints a condition node in a context (how tightly the node around it
 * binds, in the printer's own scale). */
typedef void ir_cond_printer(strbuf *b, const ir_test *t, const ir_cond *c, int ctx);
/* The connective C as "L OP R", in parentheses where PAREN, its sides
 * printed by PRINT in the contexts LCTX and RCTX: the one step both
 * condition printers (herd's syntax, the IR text) share. */
void ir_text_add_binary(strbuf *b, const ir_test *t, const ir_cond *c, ir_cond_printer *print, bool paren,
                        const char *op, int lctx, int rctx);

#endif
