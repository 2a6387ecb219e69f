#ifndef LITMUSC_LIFT_TEXT_H
#define LITMUSC_LIFT_TEXT_H
/* lift/'s own: what the X86_64 and AArch64 lifted tests print alike. */
#include "ir/ir.h"
#include "util/mem.h"

/* herd's integer type for a location of C type CTYPE (NULL: int). */
const char *lift_text_int_type(const char *ctype);
/* The condition C over the globals: 0:r0 -> P0_r0, [x] -> x. */
void lift_text_cond(strbuf *b, const ir_test *t, const ir_cond *c);
/* The end of a lifted test: `locations` (the source's, and the unrolling
 * bound's when CUT), then the quantified condition over the globals. */
void lift_text_tail(strbuf *b, const ir_test *t, bool cut);
/* The init's declarations, each line starting with INDENT: the source's
 * locations with their types and values, a location P<n>_<reg> (0) for
 * each register the condition reads, and the unrolling bound's when a
 * loop was cut. */
void lift_text_decls(strbuf *b, const ir_test *t, bool cut, const char *indent);
/* S in a comment: anything that could end it or break a line becomes '_'. */
void lift_text_comment(strbuf *b, const char *s);
#endif
