/* libFuzzer target for the frontend and the lowering.
 *
 * Any byte string: parse it.  When it parses, three more oracles apply:
 * the printed form parses back to an equal tree, printing that tree gives
 * the same text, and lowering to IR either succeeds (and the IR verifies)
 * or reports an error with a message.  A crash, a sanitizer report or an
 * abort() here is a bug. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "ir/ir.h"
#include "ir/lower.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    diag d = {0};
    fe_test *t = fe_parse((const char *)data, size, "fuzz.litmus", &d);
    if (!t) {
        if (!d.set || !d.msg[0])
            abort();    /* a failure must say why */
        return 0;
    }
    char *text = fe_print(t);
    diag d2 = {0};
    fe_test *u = fe_parse(text, strlen(text), "fuzz.litmus", &d2);
    if (!u) {
        fprintf(stderr, "printed test does not parse: %d:%d %s\n%s\n", d2.line, d2.col, d2.msg, text);
        abort();
    }
    char why[256];
    if (!fe_test_equal(t, u, why, sizeof why)) {
        fprintf(stderr, "round trip differs: %s\n%s\n", why, text);
        abort();
    }
    char *again = fe_print(u);
    if (strcmp(text, again)) {
        fprintf(stderr, "printing is not a fixed point:\n%s\n---\n%s\n", text, again);
        abort();
    }
    free(again);
    fe_test_free(u);
    free(text);
    diag d3 = {0};
    ir_test *ir = ir_lower(t, &d3);
    if (ir) {
        diag d4 = {0};
        if (!ir_verify(ir, &d4)) {
            fprintf(stderr, "lowered IR does not verify: %s\n", d4.msg);
            abort();
        }
        ir_test_free(ir);
    } else if (!d3.set || !d3.msg[0]) {
        abort();
    }
    fe_test_free(t);
    return 0;
}
