/* The litmus7-compatible log of one test (the log of litmus7 7.57's .exe on the catalogue's SB), so that
 * mcompare7, msum7 and people used to litmus7 read litmusc runs unchanged. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "harness/harness.h"

/* Outcomes failing the test's `filter` are left out, as herd leaves those
 * states out before counting. */
static bool passes_filter(const ir_test *t, const ir_obs *obs, const harness_outcome *o, int n)
{
    return !t->filter || ir_cond_eval(t->filter, obs, o->vals, n);
}

harness_tally harness_tally_of(const ir_test *t, const harness_hist *h)
{
    harness_tally r = {0, 0, false};
    int n = 0;
    ir_obs *obs = ir_observables(t, &n);
    for (int i = 0; i < h->noutcomes; i++) {
        const harness_outcome *o = &h->outcomes[i];
        if (!passes_filter(t, obs, o, n < h->nobs ? n : h->nobs))
            continue;
        if (ir_cond_eval(t->cond, obs, o->vals, n < h->nobs ? n : h->nobs))
            r.pos += o->count;
        else
            r.neg += o->count;
    }
    free(obs);
    switch (t->quant) {
    case IR_Q_EXISTS: r.ok = r.pos > 0; break;
    case IR_Q_NOT_EXISTS: r.ok = r.pos == 0; break;
    case IR_Q_FORALL: r.ok = r.neg == 0; break;
    }
    return r;
}

static const harness_hist *sort_hist;

/* litmus7 keeps outcomes in a trie keyed by the observables with the last
 * one at the root, so the last observable is the most significant. */
static int trie_cmp(const void *a, const void *b)
{
    const ir_val *x = sort_hist->outcomes[*(const int *)a].vals;
    const ir_val *y = sort_hist->outcomes[*(const int *)b].vals;
    for (int i = sort_hist->nobs - 1; i >= 0; i--)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

int *harness_trie_order(const harness_hist *h)
{
    int *idx = xmalloc(((size_t)h->noutcomes + 1) * sizeof *idx);
    for (int i = 0; i < h->noutcomes; i++)
        idx[i] = i;
    sort_hist = h;
    qsort(idx, (size_t)h->noutcomes, sizeof *idx, trie_cmp);
    sort_hist = NULL;
    return idx;
}

static const char *kind_word(ir_quant q)
{
    return q == IR_Q_EXISTS ? "Allowed" : q == IR_Q_NOT_EXISTS ? "Forbidden" : "Required";
}

static const char *observation_word(const harness_tally *r)
{
    if (r->pos == 0)
        return "Never";
    return r->neg == 0 ? "Always" : "Sometimes";
}

/* litmus7 reprints the source's info lines after Hash=, dropping Prefetch
 * (only shown with static preload) and turning Relax into a verdict. */
static void format_info(strbuf *out, const ir_test *t, const harness_tally *r)
{
    if (t->hash)
        sb_printf(out, "Hash=%s\n", t->hash);
    for (int i = 0; i < t->ninfo; i++) {
        const ir_info *in = &t->info[i];
        if (!strcmp(in->key, "Hash") || !strcmp(in->key, "Prefetch"))
            continue;
        if (!strcmp(in->key, "Relax"))
            sb_printf(out, "Relax %s %s %s\n", t->name, r->ok ? "Ok" : "No", in->value);
        else
            sb_printf(out, "%s=%s\n", in->key, in->value);
    }
}

void harness_format_log(strbuf *out, const ir_test *t, const harness_hist *h)
{
    int n = 0;
    ir_obs *obs = ir_observables(t, &n);
    if (n > h->nobs)
        n = h->nobs;
    int *order = harness_trie_order(h);
    int shown = 0;
    for (int i = 0; i < h->noutcomes; i++)
        shown += passes_filter(t, obs, &h->outcomes[i], n);
    sb_printf(out, "Test %s %s\n", t->name, kind_word(t->quant));
    sb_printf(out, "Histogram (%d states)\n", shown);
    for (int k = 0; k < h->noutcomes; k++) {
        const harness_outcome *o = &h->outcomes[order[k]];
        if (!passes_filter(t, obs, o, n))
            continue;
        bool p = ir_cond_eval(t->cond, obs, o->vals, n);
        /* `*` marks final_ok: P for exists and ~exists, a violation for forall. */
        bool star = t->quant == IR_Q_FORALL ? !p : p;
        char *state = ir_format_state(t, obs, o->vals, n);
        sb_printf(out, "%-6" PRIu64 "%c>%s\n", o->count, star ? '*' : ':', state);
        free(state);
    }
    harness_tally r = harness_tally_of(t, h);
    bool swapped = t->quant == IR_Q_NOT_EXISTS;
    char *cond = ir_format_cond(t);
    sb_printf(out, "%s\n\nWitnesses\n", r.ok ? "Ok" : "No");
    sb_printf(out, "Positive: %" PRIu64 ", Negative: %" PRIu64 "\n",
              swapped ? r.neg : r.pos, swapped ? r.pos : r.neg);
    sb_printf(out, "Condition %s is %svalidated\n", cond, r.ok ? "" : "NOT ");
    format_info(out, t, &r);
    sb_printf(out, "Observation %s %s %" PRIu64 " %" PRIu64 "\n", t->name,
              observation_word(&r), r.pos, r.neg);
    sb_printf(out, "Time %s %.2f\n\n", t->name, h->elapsed);
    free(cond);
    free(order);
    free(obs);
}
