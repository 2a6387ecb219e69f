/* Naming the data race behind an undefined C test (race.h): the first
 * racing pair of one flagged execution; whether a test is undefined is the
 * model's verdict, not this file's. */
#include "model/race.h"
#include "model/hb.h"
#include "util/mem.h"

static const char *src_text(const exec_event *e)
{
    return e->instr && e->instr->src ? e->instr->src : "?";
}

char *race_describe(const exec *x)
{
    exec_rel sw, hb;
    hb_sync(x, &sw);
    if (!hb_clocks(x, &sw, &hb))
        hb_closure(x, &sw, &hb);
    race_pair p;
    if (hb_races(x, &hb, &p, 1) == 0)
        return NULL;
    /* in the order of the events, as the file reads */
    const exec_event *a = &x->ev[p.a < p.b ? p.a : p.b], *b = &x->ev[p.a < p.b ? p.b : p.a];
    return xasprintf("line %d: `%s` and line %d: `%s`", a->instr ? a->instr->line : 0, src_text(a),
                     b->instr ? b->instr->line : 0, src_text(b));
}
