#ifndef LITMUSC_IR_TEXT_H
#define LITMUSC_IR_TEXT_H
/* The one step both condition printers share, the IR text's (print.c)
 * and herd's syntax (cond.c); internal to ir/.  The reader (read*.c) has
 * its own grammar and needs none of it. */
#include <stdbool.h>
#include "ir/ir.h"
#include "util/mem.h"

/* Prints a condition node in a context (how tightly the node around it
 * binds, in the printer's own scale). */
typedef void ir_cond_printer(strbuf *b, const ir_test *t, const ir_cond *c, int ctx);
/* The connective C as "L OP R", in parentheses where PAREN, its sides
 * printed by PRINT in the contexts LCTX and RCTX: the one step both
 * condition printers (herd's syntax, the IR text) share. */
void ir_text_add_binary(strbuf *b, const ir_test *t, const ir_cond *c, ir_cond_printer *print, bool paren,
                        const char *op, int lctx, int rctx);

#endif
