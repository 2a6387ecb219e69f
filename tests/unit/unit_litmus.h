#ifndef LITMUSC_TESTS_UNIT_LITMUS_H
#define LITMUSC_TESTS_UNIT_LITMUS_H
/* For unit tests: a litmus test written as text, parsed and lowered to
 * IR; on an error the calling test fails with the stage and position.
 * Include after <cmocka.h>. */
#include <string.h>
#include "frontend/frontend.h"
#include "ir/lower.h"

/* TEXT parsed as "t.litmus"; the calling test fails on a parse error. */
static inline fe_test *unit_parse(const char *text, diag *d)
{
    fe_test *ft = fe_parse(text, strlen(text), "t.litmus", d);
    if (!ft)
        fail_msg("parse: %d:%d: %s", d->line, d->col, d->msg);
    return ft;
}

static inline ir_test *unit_litmus(const char *text)
{
    diag d = {0};
    fe_test *ft = unit_parse(text, &d);
    ir_test *t = ir_lower(ft, &d);
    fe_test_free(ft);
    if (!t)
        fail_msg("lower: %d:%d: %s", d.line, d.col, d.msg);
    return t;
}

#endif
