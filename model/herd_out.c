/* herd7's output block for one test, line for line as herd7 7.57 prints
 * it (herdtools7's herd/, e.g. on catalogue/x86/tests/SB.litmus), and the
 * verdict arithmetic behind Ok/No, Positive/Negative and Observation. */
#include <inttypes.h>
#include <stdlib.h>
#include "model/bset.h"

static const char *kind_word(ir_quant q)
{
    switch (q) {
    case IR_Q_EXISTS: return "Allowed";
    case IR_Q_NOT_EXISTS: return "Forbidden";
    default: return "Required";
    }
}

void bset_format_herd(strbuf *out, const ir_test *t, const bset *b, double time)
{
    sb_printf(out, "Test %s %s\n", t->name, kind_word(t->quant));
    sb_printf(out, "States %d\n", b->nstates);
    for (int i = 0; i < b->nstates; i++) {
        char *s = ir_format_state(t, b->obs, b->states[i].vals, b->nobs);
        sb_printf(out, "%s\n", s);
        free(s);
    }
    sb_printf(out, "%s%s\n", b->cutoff ? "Loop " : "", bset_verdict(t, b));
    sb_add(out, "Witnesses\n");
    /* ~exists swaps the two counts on this line only. */
    uint64_t p = b->pos, n = b->neg;
    if (t->quant == IR_Q_NOT_EXISTS) {
        p = b->neg;
        n = b->pos;
    }
    sb_printf(out, "Positive: %" PRIu64 " Negative: %" PRIu64 "\n", p, n);
    for (int i = 0; i < b->nflags; i++)
        sb_printf(out, "Flag %s\n", b->flags[i]);
    char *c = ir_format_cond(t);
    sb_printf(out, "Condition %s\n", c);
    free(c);
    sb_printf(out, "Observation %s %s %" PRIu64 " %" PRIu64 "\n", t->name,
              bset_observation(t, b), b->pos, b->neg);
    sb_printf(out, "Time %s %.2f\n", t->name, time);
    if (t->hash)
        sb_printf(out, "Hash=%s\n", t->hash);
    sb_add(out, "\n");
}
