#include "util/diag.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void set_msg(diag *d, const char *fmt, va_list ap)
{
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
}

bool diag_error(diag *d, const char *file, int line, int col, const char *fmt, ...)
{
    if (!d || d->set)
        return false;
    d->set = true;
    d->status = 2;
    snprintf(d->file, sizeof d->file, "%s", file ? file : "");
    d->line = line;
    d->col = col;
    va_list ap;
    va_start(ap, fmt);
    set_msg(d, fmt, ap);
    va_end(ap);
    return false;
}

bool diag_fail(diag *d, const char *fmt, ...)
{
    if (!d || d->set)
        return false;
    d->set = true;
    d->status = 3;
    d->file[0] = 0;
    d->line = d->col = 0;
    va_list ap;
    va_start(ap, fmt);
    set_msg(d, fmt, ap);
    va_end(ap);
    return false;
}

void diag_format(const diag *d, char *buf, int size)
{
    if (d->file[0] && d->line > 0)
        snprintf(buf, size, "%s:%d:%d: error: %s", d->file, d->line, d->col > 0 ? d->col : 1, d->msg);
    else if (d->file[0])
        snprintf(buf, size, "%s: error: %s", d->file, d->msg);
    else
        snprintf(buf, size, "error: %s", d->msg);
}
