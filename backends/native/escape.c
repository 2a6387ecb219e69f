/* Escaping names and text from litmus files before they reach generated C.
 * Generated identifiers never derive from source names; source text only
 * appears inside comments and string literals, through these functions. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include "backends/native/native_internal.h"

void nat_int_lit(strbuf *b, ir_val v)
{
    if (v == INT64_MIN)
        sb_add(b, "(-INT64_C(9223372036854775807) - 1)");
    else
        sb_printf(b, "INT64_C(%" PRId64 ")", v);
}

/* Only printable ASCII survives; '*' followed by '/' is split, and '?' is
 * spaced out of trigraphs (which -std=c11 honours even in comments, where
 * "??/" could splice the next line). */
void nat_comment(strbuf *b, const char *text)
{
    if (!text)
        return;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        unsigned char c = *p;
        if (c == '*' && p[1] == '/')
            sb_add(b, "* ");
        else if (c == '/' && p[1] == '*')
            sb_add(b, "/ ");
        else if (c == '?' && p[1] == '?')
            sb_add(b, "? ");
        else if (c == '\\')
            sb_add(b, "\\ ");
        else if (c == '\t' || c == '\n' || c == '\r')
            sb_addc(b, ' ');
        else if (c < 0x20 || c >= 0x7f)
            sb_printf(b, "<%02x>", c);
        else
            sb_addc(b, (char)c);
    }
}

void nat_cstring(strbuf *b, const char *text)
{
    sb_addc(b, '"');
    for (const unsigned char *p = (const unsigned char *)(text ? text : ""); *p; p++) {
        unsigned char c = *p;
        if (c == '"' || c == '\\' || c == '?')
            sb_printf(b, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            sb_printf(b, "\\%03o", c);   /* three digits: never runs into the next char */
        else
            sb_addc(b, (char)c);
    }
    sb_addc(b, '"');
}

bool nat_error(diag *d, const ir_test *t, const ir_instr *in, const char *fmt, ...)
{
    char msg[DIAG_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return diag_error(d, t->file ? t->file : t->name, in ? in->line : 0, in ? in->col : 0, "%s", msg);
}
