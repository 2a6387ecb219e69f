/* RaceFuzzer on hardware (`run --race-fuzz`).  Sen's RaceFuzzer (PLDI
 * 2008) takes the pairs a hybrid detector reports as targets, steers the
 * scheduler so that both accesses of a pair are about to run at once, and
 * reports a race only when it made it happen, so the hybrid's false
 * alarms drop out.  Here the hybrid's pairs (model/detectors.h) are the
 * targets; a target's proof is a final state every consistent execution
 * of which runs the two accesses unordered by happens-before ((po | sw)+,
 * model/hb.h), so a machine that showed the state ran them unordered.  The
 * run is directed at those states (the --until-covered schedules, aimed at
 * them alone), and a target is confirmed only when a run showed one of
 * its states, as harness_races_seen proves RC11 races.  A target no state
 * proves (its accesses are ordered in some execution of every state: a
 * lock hand-off, a release/acquire message) can never be confirmed: that
 * is the hybrid's false alarm, said so. */
#include <stdlib.h>
#include <string.h>
#include "harness/harness.h"
#include "model/detect.h"
#include "model/exec.h"

/* Facts gathered over every consistent execution. */
typedef struct fuzz_scan {
    harness_fuzz *f;
    const bset *b;
    bool *ordered;      /* [target][state]: some execution giving it orders the pair, or lacks an access */
    bool *seen;         /* [state]: some execution gives it */
} fuzz_scan;

/* Event of X that is access A, or -1 (its path did not run it). */
static int event_of(const exec *x, const races_access *a)
{
    for (int i = 0; i < x->n; i++) {
        if (x->ev[i].kind & EV_IW)
            continue;
        races_access e = races_access_of(&x->ev[i]);
        if (!races_access_cmp(&e, a))
            return i;
    }
    return -1;
}

static bool scan_exec(void *ctx, const exec *x, const model_exec_info *info, diag *d)
{
    (void)d;
    fuzz_scan *s = ctx;
    int st = bset_find(s->b, info->state);
    if (st < 0)
        return true;
    s->seen[st] = true;
    detect_exec *de = xcalloc(1, sizeof *de);
    bool have_hb = detect_exec_run(x, de);
    for (int k = 0; k < s->f->ntargets; k++) {
        const detectors_pair *p = &s->f->dt->pairs[s->f->target[k]];
        int i = event_of(x, &p->a), j = event_of(x, &p->b);
        bool unordered = have_hb && i >= 0 && j >= 0 && !er_has(&de->hb, i, j) && !er_has(&de->hb, j, i);
        if (!unordered)
            s->ordered[(size_t)k * (size_t)s->b->nstates + (size_t)st] = true;
    }
    free(de);
    return true;
}

bool harness_fuzz_plan(harness_fuzz *f, const model *m, const ir_test *t, const detectors *dt, diag *d)
{
    memset(f, 0, sizeof *f);
    f->dt = dt;
    const bset *b = dt->b;
    f->target = xcalloc((size_t)dt->npairs + 1, sizeof *f->target);
    for (int k = 0; k < dt->npairs; k++)
        if (dt->pairs[k].mask & (1u << DET_HYBRID))
            f->target[f->ntargets++] = k;
    size_t ns = (size_t)b->nstates;
    f->proves = xcalloc((size_t)f->ntargets * ns + 1, sizeof *f->proves);
    f->aim = xcalloc(ns + 1, sizeof *f->aim);
    f->nproving = xcalloc((size_t)f->ntargets + 1, sizeof *f->nproving);
    if (!f->ntargets)
        return true;
    fuzz_scan s = {f, b, xcalloc((size_t)f->ntargets * ns + 1, sizeof *s.ordered), xcalloc(ns + 1, sizeof *s.seen)};
    bset *again = model_run_observed(m, t, scan_exec, &s, d);
    bool ok = again != NULL;
    bset_free(again);
    for (int k = 0; ok && k < f->ntargets; k++)
        for (size_t st = 0; st < ns; st++)
            if (s.seen[st] && !s.ordered[(size_t)k * ns + st]) {
                f->proves[(size_t)k * ns + st] = true;
                f->nproving[k]++;
                f->aim[st] = true;
            }
    free(s.ordered);
    free(s.seen);
    if (!ok)
        harness_fuzz_free(f);
    return ok;
}

void harness_fuzz_free(harness_fuzz *f)
{
    free(f->target);
    free(f->proves);
    free(f->aim);
    free(f->nproving);
    memset(f, 0, sizeof *f);
}

void harness_fuzz_seen(harness_verdict *v, const harness_fuzz *f, const harness_hist *h)
{
    if (!f || !f->dt || !v->state)
        return;
    v->fuzz = f;
    v->fuzz_count = xcalloc((size_t)f->ntargets + 1, sizeof *v->fuzz_count);
    v->fuzz_states = xcalloc((size_t)f->ntargets + 1, sizeof *v->fuzz_states);
    size_t ns = (size_t)f->dt->b->nstates;
    for (int i = 0; i < h->noutcomes; i++) {
        int s = v->state[i];
        if (s < 0 || h->outcomes[i].count == 0)
            continue;
        for (int k = 0; k < f->ntargets; k++)
            if (f->proves[(size_t)k * ns + (size_t)s]) {
                v->fuzz_count[k] += h->outcomes[i].count;
                v->fuzz_states[k]++;
            }
    }
}

const char *harness_fuzz_why(const harness_fuzz *f, const harness_verdict *v, int k)
{
    if (v->fuzz_count && v->fuzz_count[k])
        return NULL;
    if (!f->nproving[k])
        return "no allowed state shows it: in some execution of every state, happens-before orders the two "
               "accesses or one of them does not run (a false alarm of the hybrid)";
    if (v->reachable) {
        /* the proving states this machine's compilation of the test can show */
        size_t ns = (size_t)f->dt->b->nstates;
        bool any = false;
        for (size_t s = 0; s < ns && !any; s++)
            any = f->proves[(size_t)k * ns + s] && bset_find(v->reachable, f->dt->b->states[s].vals) >= 0;
        if (!any)
            return "only states this machine's x86 compilation of the test cannot show prove it";
    }
    return "none of the states that prove it was observed";
}

races_pair harness_fuzz_pair(const harness_fuzz *f, int k)
{
    const detectors_pair *p = &f->dt->pairs[f->target[k]];
    races_pair r = {p->a, p->b, p->first[DET_HYBRID], p->executions[DET_HYBRID], p->benign};
    return r;
}
