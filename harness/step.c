/* The hook through which long steps announce themselves (harness.h).  The
 * stage never prints: the command decides whether and how to show it. */
#include <stdarg.h>
#include <stdio.h>
#include "harness/harness.h"

static harness_step_fn step_fn;

void harness_on_step(harness_step_fn fn)
{
    step_fn = fn;
}

void harness_step_begin(const char *fmt, ...)
{
    if (!step_fn)
        return;
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    step_fn(buf);
}

void harness_step_end(void)
{
    if (step_fn)
        step_fn(NULL);
}
