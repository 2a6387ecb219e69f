/* Comparing what a run observed with what the model allows.  A state the
 * model forbids is the interesting finding (a hardware, compiler or model
 * bug); an allowed state never seen only says the run was too short or the
 * machine too strong. */
#include <stdlib.h>
#include <string.h>
#include "harness/harness.h"

/* perm[j] = index in the test's observables of b->obs[j]. */
static int *match_observables(const ir_test *t, const bset *b, const ir_obs *obs, int n, diag *d)
{
    if (b->nobs != n) {
        diag_fail(d, "%s: the behaviour set has %d observables, the test %d", t->name, b->nobs, n);
        return NULL;
    }
    int *perm = xmalloc(((size_t)n + 1) * sizeof *perm);
    for (int j = 0; j < n; j++) {
        perm[j] = -1;
        for (int i = 0; i < n; i++)
            if (ir_obs_equal(&b->obs[j], &obs[i]))
                perm[j] = i;
        if (perm[j] < 0) {
            free(perm);
            diag_fail(d, "%s: the behaviour set shows an observable the test does not have", t->name);
            return NULL;
        }
    }
    return perm;
}

static bool state_equals(const bset_state *s, const int *perm, const ir_val *vals, int n)
{
    for (int j = 0; j < n; j++)
        if (s->vals[j] != vals[perm[j]])
            return false;
    return true;
}

bool harness_compare(const ir_test *t, const bset *b, const harness_hist *h,
                     harness_verdict *v, diag *d)
{
    memset(v, 0, sizeof *v);
    int n = 0;
    ir_obs *obs = ir_observables(t, &n);
    if (n != h->nobs) {
        free(obs);
        return diag_fail(d, "%s: the histogram has %d observables, the test %d", t->name, h->nobs, n);
    }
    int *perm = match_observables(t, b, obs, n, d);
    if (!perm) {
        free(obs);
        return false;
    }
    v->undef = b->undef;
    v->allowed = xcalloc((size_t)h->noutcomes + 1, sizeof *v->allowed);
    v->state = xcalloc((size_t)h->noutcomes + 1, sizeof *v->state);
    bool *seen = xcalloc((size_t)b->nstates + 1, sizeof *seen);
    for (int i = 0; i < h->noutcomes; i++) {
        const harness_outcome *o = &h->outcomes[i];
        int found = -1;
        for (int s = 0; s < b->nstates && found < 0; s++)
            if (state_equals(&b->states[s], perm, o->vals, n))
                found = s;
        if (found >= 0)
            seen[found] = true;
        v->state[i] = found;
        /* herd drops states failing the filter before it lists them, so such
         * a state is absent from B without being forbidden. */
        bool filtered = t->filter && !ir_cond_eval(t->filter, obs, o->vals, n);
        /* An undefined (racy) program allows anything. */
        v->allowed[i] = found >= 0 || filtered || b->undef;
        if (!v->allowed[i] && o->count > 0) {
            v->nforbidden++;
            v->forbidden_count += o->count;
        }
    }
    v->unseen = xmalloc(((size_t)b->nstates + 1) * sizeof *v->unseen);
    for (int s = 0; s < b->nstates; s++)
        if (!seen[s])
            v->unseen[v->nunseen++] = s;
    free(seen);
    free(perm);
    free(obs);
    return true;
}

void harness_verdict_free(harness_verdict *v)
{
    free(v->allowed);
    free(v->unseen);
    free(v->state);
    free(v->race_count);
    free(v->race_states);
    free(v->fuzz_count);
    free(v->fuzz_states);
    memset(v, 0, sizeof *v);
}
