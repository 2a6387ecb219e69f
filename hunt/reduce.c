/* Delta debugging of a bug's C litmus test: each kind of edit
 * (reduce_edit.c) is tried on chunks of its places, the largest first
 * and halved down to one place, and kept whenever the predicate still
 * says the compiled test shows a state its source forbids; the kinds are
 * gone over again until a whole pass keeps nothing. */
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "hunt/internal.h"

/* Predicate calls one reduction may make: each compiles and lifts a test,
 * and a 4-thread test of a dozen accesses needs about a hundred. */
enum { REDUCE_BUDGET = 2000 };

typedef struct run {
    hunt_pred pred;
    void *ctx;
    hunt_reduce_stats *st;
    char *cur;
} run;

/* Does CAND (consumed) still show the bug?  Then it becomes the current test. */
static bool try(run *r, char *cand)
{
    if (!cand || !strcmp(cand, r->cur) || r->st->tries >= REDUCE_BUDGET) {
        free(cand);
        return false;
    }
    diag d = {0};
    r->st->tries++;
    if (r->pred(r->ctx, cand, NULL, &d) != 1) {
        free(cand);
        return false;
    }
    free(r->cur);
    r->cur = cand;
    r->st->kept++;
    return true;
}

/* One kind K over chunks of its places, halving; true if anything was kept. */
static bool pass(run *r, hunt_red_kind k)
{
    int n = hunt_red_sites(r->cur, k);
    /* dropping every thread or statement at once leaves no test */
    int chunk = (k == HUNT_RED_THREAD || k == HUNT_RED_STMT) && n > 1 ? n / 2 : n;
    bool any = false;
    while (chunk >= 1 && n > 0) {
        for (int from = 0; from < n;) {
            int cnt = chunk < n - from ? chunk : n - from;
            if (try(r, hunt_red_edit(r->cur, k, from, cnt))) {
                any = true;
                /* the places after FROM moved down: look at FROM again */
                n = hunt_red_sites(r->cur, k);
            } else {
                from += chunk;
            }
        }
        if (chunk == 1)
            break;
        chunk = chunk / 2 > 0 ? chunk / 2 : 1;
        if (chunk > n)
            chunk = n;
    }
    return any;
}

char *hunt_reduce(const char *text, hunt_pred pred, void *ctx, bool keep_threads, hunt_reduce_stats *st, diag *d)
{
    hunt_reduce_stats local;
    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    fe_test *t = fe_parse(text, strlen(text), "reduce.litmus", d);
    if (!t)
        return NULL;
    bool c = t->arch == FE_ARCH_C;
    fe_test_free(t);
    if (!c) {
        diag_error(d, "reduce.litmus", 0, 0, "hunt: only a C litmus test can be reduced");
        return NULL;
    }
    hunt_red_count(text, &st->threads_before, &st->accesses_before);
    st->tries = 1;
    int first = pred(ctx, text, NULL, d);
    if (first != 1) {
        if (!d->set)
            diag_fail(d, "hunt: the test to reduce does not show the bug to begin with");
        return NULL;
    }
    run r = {.pred = pred, .ctx = ctx, .st = st, .cur = xstrdup(text)};
    /* the test as herd's printer writes it, when that keeps the bug */
    if (try(&r, hunt_red_edit(r.cur, HUNT_RED_THREAD, 0, 0)))
        st->kept--;
    for (bool again = true; again && st->tries < REDUCE_BUDGET;) {
        again = false;
        for (int k = keep_threads ? HUNT_RED_THREAD + 1 : 0; k < HUNT_RED_KINDS; k++)
            again |= pass(&r, (hunt_red_kind)k);
    }
    hunt_red_count(r.cur, &st->threads_after, &st->accesses_after);
    return r.cur;
}
