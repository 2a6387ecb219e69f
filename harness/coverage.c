/* Coverage: how much of the behaviour set a run showed.  A stress run that
 * never shows an allowed state says nothing about it, so the count of
 * allowed states seen, and when each was first seen, is a result of its
 * own (`Coverage NAME 14/16 first=...` and the JSON "coverage" block). */
#include <inttypes.h>
#include <stdlib.h>
#include "harness/harness.h"

void harness_coverage(const bset *b, const harness_hist *h, const harness_verdict *v, harness_cover *c)
{
    c->allowed = b->nstates;
    c->seen = 0;
    c->first = xcalloc((size_t)b->nstates + 1, sizeof *c->first);
    c->known = h->noutcomes > 0;
    c->complete_at = 0;
    bool *seen = xcalloc((size_t)b->nstates + 1, sizeof *seen);
    for (int i = 0; i < h->noutcomes; i++) {
        int s = v->state[i];
        if (s < 0 || h->outcomes[i].count == 0)
            continue;
        if (!seen[s])
            c->seen++;
        seen[s] = true;
        c->first[s] = h->outcomes[i].first;
        if (!h->outcomes[i].first)
            c->known = false;
        else if (h->outcomes[i].first > c->complete_at)
            c->complete_at = h->outcomes[i].first;
    }
    c->reachable = c->reachable_seen = 0;
    for (int s = 0; v->reachable && s < b->nstates; s++)
        if (bset_find(v->reachable, b->states[s].vals) >= 0) {
            c->reachable++;
            c->reachable_seen += seen[s];
        }
    if (c->seen < c->allowed || !c->known)
        c->complete_at = 0;
    free(seen);
}

char *harness_states_arg(const ir_test *t, const bset *b, diag *d)
{
    int n = 0;
    ir_obs *obs = ir_observables(t, &n);
    int *at = xcalloc((size_t)n + 1, sizeof *at);  /* observable i of T is b->obs[at[i]] */
    bool ok = n == b->nobs;
    for (int i = 0; ok && i < n; i++) {
        at[i] = -1;
        for (int j = 0; j < b->nobs; j++)
            if (ir_obs_equal(&obs[i], &b->obs[j]))
                at[i] = j;
        ok = at[i] >= 0;
    }
    char *arg = NULL;
    if (!ok)
        diag_fail(d, "%s: the behaviour set's observables are not the test's", t->name);
    else if (n == 0 || b->nstates == 0)
        diag_fail(d, "%s: --until-covered needs a test with observables and allowed states", t->name);
    else {
        strbuf s = {0};
        for (int k = 0; k < b->nstates; k++)
            for (int i = 0; i < n; i++)
                sb_printf(&s, "%s%" PRId64, i ? "," : k ? ";" : "", (int64_t)b->states[k].vals[at[i]]);
        arg = sb_take(&s);
    }
    free(at);
    free(obs);
    return arg;
}

void harness_cover_free(harness_cover *c)
{
    free(c->first);
    c->first = NULL;
}

void harness_format_coverage(strbuf *out, const ir_test *t, const bset *b, const harness_hist *h,
                             const harness_verdict *v)
{
    harness_cover c;
    harness_coverage(b, h, v, &c);
    sb_printf(out, "Coverage %s %d/%d", t->name, c.seen, c.allowed);
    if (c.known) {
        /* per allowed state in herd's order: the iterations done when it was
         * first seen, '-' for never */
        sb_add(out, " first=");
        for (int s = 0; s < c.allowed; s++) {
            if (s)
                sb_addc(out, ',');
            if (c.first[s])
                sb_printf(out, "%" PRIu64, c.first[s]);
            else
                sb_addc(out, '-');
        }
    }
    /* of the states x86 can show, how many were seen */
    if (v->reachable)
        sb_printf(out, " x86=%d/%d", c.reachable_seen, c.reachable);
    if (h->covered == HARNESS_COVERED)
        sb_printf(out, " (covered after %" PRIu64 " iterations)", c.complete_at ? c.complete_at : h->iterations);
    else if (h->covered == HARNESS_UNCOVERED)
        sb_printf(out, " (not covered within %" PRIu64 " iterations)", h->iterations);
    sb_addc(out, '\n');
    harness_cover_free(&c);
}

void harness_json_coverage(json *j, const bset *b, const harness_hist *h, const harness_verdict *v)
{
    harness_cover c;
    harness_coverage(b, h, v, &c);
    json_key(j, "coverage");
    json_object(j);
    json_key(j, "allowed");
    json_int(j, c.allowed);
    json_key(j, "seen");
    json_int(j, c.seen);
    if (c.known) {
        json_key(j, "first");
        json_array(j);
        for (int s = 0; s < c.allowed; s++)
            if (c.first[s])
                json_uint(j, c.first[s]);
            else
                json_null(j);
        json_end_array(j);
    }
    if (c.complete_at) {
        json_key(j, "complete_at");
        json_uint(j, c.complete_at);
    }
    if (v->reachable) {
        json_key(j, "x86_reachable");
        json_int(j, c.reachable);
        json_key(j, "x86_seen");
        json_int(j, c.reachable_seen);
    }
    if (h->covered) {
        json_key(j, "until_covered");
        json_bool(j, h->covered == HARNESS_COVERED);
    }
    json_end_object(j);
    harness_cover_free(&c);
}
