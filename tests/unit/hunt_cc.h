#ifndef LITMUSC_TESTS_UNIT_HUNT_CC_H
#define LITMUSC_TESTS_UNIT_HUNT_CC_H
/* For the hunt tests with a real compiler: tests/hunt/broken-cc (gcc or
 * clang whose assembly loses its fences and has each xchg made a plain
 * store), the bug predicate on cc-check's pipeline, and SB.  Include
 * after <cmocka.h>. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "frontend/frontend.h"
#include "hunt/bug.h"
#include "ir/lower.h"
#include "lift/lift.h"
#include "model/model.h"

#define BROKEN "tests/hunt/broken-cc"

typedef struct cc_ctx {
    const char *cc, *cflags;
    model_set *models;
    int calls;
} cc_ctx;

/* The bug predicate hunt uses, in small: parse, lower, the source's rc11
 * states, then compile, lift and compare.  The compiler's chatter (clang's
 * bisect listing) goes to /dev/null. */
static inline int cc_pred(void *vctx, const char *text, const char *extra, diag *d)
{
    cc_ctx *c = vctx;
    c->calls++;
    fe_test *ft = fe_parse(text, strlen(text), "cand.litmus", d);
    ir_test *t = ft ? ir_lower(ft, d) : NULL;
    model *rc11 = t ? model_set_get(c->models, "rc11", d) : NULL;
    model *tso = rc11 ? model_set_get(c->models, "x86tso", d) : NULL;
    bset *sb = tso ? model_run(rc11, t, d) : NULL;
    int verdict = -1;
    if (sb) {
        char flags[4096];
        snprintf(flags, sizeof flags, "%s %s", c->cflags, extra ? extra : "");
        fflush(stderr);
        int saved = dup(2), null = open("/dev/null", O_WRONLY);
        dup2(null, 2);
        lift_result r;
        bool ok = lift_check(ft, t, sb, tso, c->cc, flags, 2, &r, d);
        dup2(saved, 2);
        close(saved), close(null);
        verdict = ok ? r.verdict == LIFT_BUG : -1;
        lift_result_free(&r);
        bset_free(sb);
    }
    if (t)
        ir_test_free(t);
    fe_test_free(ft);
    return verdict;
}

static const char *const sb =
    "C big\n"
    "{ }\n"
    "P0(atomic_int* x, atomic_int* y) {\n"
    "  atomic_store_explicit(x, 1, memory_order_seq_cst);\n"
    "  int r0 = atomic_load_explicit(y, memory_order_seq_cst);\n"
    "}\n"
    "\n"
    "P1(atomic_int* x, atomic_int* y) {\n"
    "  atomic_store_explicit(y, 1, memory_order_seq_cst);\n"
    "  int r0 = atomic_load_explicit(x, memory_order_seq_cst);\n"
    "}\n"
    "\n"
    "exists (0:r0=0 /\\ 1:r0=0)\n";

/* Whether this machine has what the tests need; else they skip. */
static inline bool cc_usable(void)
{
    return !system("gcc --version >/dev/null 2>&1") && !access(BROKEN, X_OK);
}

#endif
