/* Directed stress: schedules that make the orders between threads an
 * allowed state needs happen on every instance.  RaceFuzzer postpones a
 * thread at one access until its partner arrives; the model says more:
 * for each allowed state, one of its executions says which thread's access
 * must come before which other thread's (rf, fr and co edges between
 * threads).  Threads with no such order both ways can simply run one after
 * the other; those that need each other both ways (a cycle, like SB's two
 * store buffers) must run together.  So a schedule is the strongly
 * connected components of that order, run group by group in topological
 * order (runtime/lrt_round.c picks them, lrt_sweep.c and lrt_lane.c run
 * them).  Nothing is made up: the runner still runs the test's own code,
 * the histogram counts only what the machine did, and a state the model
 * forbids still shows as forbidden. */
#include <stdlib.h>
#include <string.h>
#include "harness/harness.h"
#include "model/exec.h"

enum { MAXT = 32 };

typedef struct plan {
    int nth;
    int nstates;
    const bset *b;
    /* NULL, or where each of B's observables is in the planned test's
     * states (a compiled test planned for its source's states) */
    const int *obs_at;
    ir_val *vals;
    /* per allowed state: the groups of the best execution found, their
     * lanes (harness/lanes.c), the most lanes of one group (the CPUs it
     * needs) and the most threads in one group; best: fewest lanes, then
     * the smallest largest group; largest 0: none found yet */
    unsigned char (*group)[MAXT], (*lane)[MAXT], (*pos)[MAXT], (*split)[MAXT], (*stretch)[MAXT];
    bool (*hold)[MAXT], (*nofence)[MAXT];
    /* per allowed state: an interleaving on one CPU (harness/interleave.c),
     * when one of its executions has one; npieces 0: none */
    unsigned char (*piece_thread)[HARNESS_MAX_PIECES], (*piece_end)[HARNESS_MAX_PIECES];
    int *npieces;
    /* per test thread: the locations its code may load and store */
    uint64_t load_locs[MAXT], store_locs[MAXT];
    int *ngroups, *largest, *lanes;
} plan;

/* reach[a] bit b: thread a's access must come before one of thread b's */
static void thread_order(const exec *x, uint64_t *reach, int nth)
{
    memset(reach, 0, (size_t)nth * sizeof *reach);
    for (int i = 0; i < x->n; i++)
        for (int j = 0; j < x->n; j++) {
            int a = x->ev[i].thread, b = x->ev[j].thread;
            bool rf = er_has(&x->rf, i, j), co = er_has(&x->co, i, j);
            if (co && a >= 0 && b >= 0 && a != b)
                reach[a] |= (uint64_t)1 << b;
            if (!rf || b < 0)
                continue;
            if (a >= 0 && a != b)
                reach[a] |= (uint64_t)1 << b;
            /* fr: the read comes before every write co-after the one it reads */
            for (int k = 0; k < x->n; k++) {
                int c = x->ev[k].thread;
                if (er_has(&x->co, i, k) && c >= 0 && c != b)
                    reach[b] |= (uint64_t)1 << c;
            }
        }
    /* transitive closure over threads */
    for (int k = 0; k < nth; k++)
        for (int a = 0; a < nth; a++)
            if ((reach[a] >> k) & 1)
                reach[a] |= reach[k];
}

static bool observe(void *ctx, const struct exec *x, const model_exec_info *info, diag *d)
{
    (void)d;
    plan *p = ctx;
    const ir_val *state = info->state;
    if (p->obs_at) {
        for (int i = 0; i < p->b->nobs; i++)
            p->vals[i] = info->state[p->obs_at[i]];
        state = p->vals;
    }
    int s = bset_find(p->b, state);
    if (s < 0 || p->nth > MAXT)
        return true;
    /* a state with an interleaving runs as that: no lanes to search */
    if (p->npieces[s] ||
        (p->npieces[s] = harness_interleaving(x, p->nth, p->piece_thread[s], p->piece_end[s], HARNESS_MAX_PIECES)))
        return true;
    uint64_t reach[MAXT];
    thread_order(x, reach, p->nth);
    /* components: a and b together when each must precede the other */
    int comp[MAXT], ncomp = 0, largest = 0;
    for (int a = 0; a < p->nth; a++)
        comp[a] = -1;
    for (int a = 0; a < p->nth; a++) {
        if (comp[a] >= 0)
            continue;
        int size = 0;
        for (int b = a; b < p->nth; b++)
            if (b == a || (((reach[a] >> b) & 1) && ((reach[b] >> a) & 1))) {
                comp[b] = ncomp;
                size++;
            }
        largest = size > largest ? size : largest;
        ncomp++;
    }
    /* lanes cost a search: none when this execution cannot do better */
    if (p->largest[s] && p->lanes[s] == 1 && p->largest[s] <= largest)
        return true;
    exec_set order[EXEC_MAX];
    harness_exec_order(x, order);
    unsigned char lane[MAXT], pos[MAXT], split[MAXT];
    bool nofence[MAXT];
    int lanes = 1;
    for (int c = 0; c < ncomp; c++) {
        uint64_t members = 0;
        for (int a = 0; a < p->nth; a++)
            if (comp[a] == c)
                members |= (uint64_t)1 << a;
        int n = harness_lanes(x, order, members, p->load_locs, p->store_locs, lane, pos, split, nofence);
        lanes = n > lanes ? n : lanes;
    }
    if (p->largest[s] && (p->lanes[s] < lanes || (p->lanes[s] == lanes && p->largest[s] <= largest)))
        return true;
    /* groups in topological order: a component goes after every component
     * that must precede it */
    int rank[MAXT], placed = 0;
    bool done[MAXT] = {false};
    while (placed < ncomp) {
        int pick = -1;
        for (int c = 0; c < ncomp && pick < 0; c++) {
            if (done[c])
                continue;
            bool ready = true;
            for (int a = 0; a < p->nth && ready; a++)
                for (int b = 0; b < p->nth && ready; b++)
                    if (comp[b] == c && comp[a] != c && !done[comp[a]] && ((reach[a] >> b) & 1))
                        ready = false;
            if (ready)
                pick = c;
        }
        if (pick < 0)
            return true;            /* cannot happen for components of a closure */
        done[pick] = true;
        rank[pick] = placed++;
    }
    for (int a = 0; a < p->nth; a++) {
        p->group[s][a] = (unsigned char)rank[comp[a]];
        p->lane[s][a] = lane[a];
        p->pos[s][a] = pos[a];
        p->split[s][a] = split[a];
        p->nofence[s][a] = nofence[a];
    }
    harness_stretches(x, order, p->nth, p->load_locs, p->store_locs, p->group[s], p->lane[s], p->pos[s],
                      p->split[s], p->stretch[s], p->hold[s]);
    p->ngroups[s] = ncomp;
    p->largest[s] = largest;
    p->lanes[s] = lanes;
    return true;
}

char *harness_schedules_arg(const model *m, const ir_test *t, const bset *b, diag *d)
{
    return harness_schedules_arg_at(m, t, b, NULL, d);
}

char *harness_schedules_arg_at(const model *m, const ir_test *t, const bset *b, const int *obs_at, diag *d)
{
    if (t->nthreads > MAXT || b->nstates == 0)
        return NULL;
    plan p;
    memset(&p, 0, sizeof p);
    p.nth = t->nthreads;
    p.nstates = b->nstates;
    p.b = b;
    p.obs_at = obs_at;
    p.vals = xcalloc((size_t)b->nobs + 1, sizeof *p.vals);
    for (int a = 0; a < t->nthreads; a++)
        ir_thread_accesses(&t->threads[a], &p.load_locs[a], &p.store_locs[a]);
    p.hold = xcalloc((size_t)b->nstates, sizeof *p.hold);
    p.nofence = xcalloc((size_t)b->nstates, sizeof *p.nofence);
    p.stretch = xcalloc((size_t)b->nstates, sizeof *p.stretch);
    p.group = xcalloc((size_t)b->nstates, sizeof *p.group);
    p.lane = xcalloc((size_t)b->nstates, sizeof *p.lane);
    p.pos = xcalloc((size_t)b->nstates, sizeof *p.pos);
    p.split = xcalloc((size_t)b->nstates, sizeof *p.split);
    p.ngroups = xcalloc((size_t)b->nstates, sizeof *p.ngroups);
    p.largest = xcalloc((size_t)b->nstates, sizeof *p.largest);
    p.lanes = xcalloc((size_t)b->nstates, sizeof *p.lanes);
    p.piece_thread = xcalloc((size_t)b->nstates, sizeof *p.piece_thread);
    p.piece_end = xcalloc((size_t)b->nstates, sizeof *p.piece_end);
    p.npieces = xcalloc((size_t)b->nstates, sizeof *p.npieces);
    diag md = {0};
    bset *again = model_run_observed(m, t, observe, &p, &md);
    strbuf s = {0};
    if (!again) {
        diag_fail(d, "%s: directed schedules: %s", t->name, md.msg);
    } else {
        /* A state some sequentially consistent execution makes gets that
         * execution's interleaving, "K:=T.E,T,..." (each piece: thread T
         * up to its access E, or to its end), which one CPU makes on
         * every instance.  Else a state whose threads all run together,
         * each on a CPU of its own, unstretched, needs no schedule: that
         * is what a free run does.  A thread is "G" (its group) or, when the state folds a
         * group onto fewer lanes than threads, "G.L.P" (lane, place in the
         * lane), then "/M" when it has stretches, "sK" when the lane
         * switches to its next thread before this one's K-th access
         * (harness_lanes), "h" when its stores are to be held back
         * (harness_stretches) and "n" when it follows the thread before
         * it in its lane with no fence between (harness_lanes). */
        for (int k = 0; k < b->nstates; k++) {
            if (p.npieces[k]) {
                sb_printf(&s, "%s%d:=", s.len ? ";" : "", k);
                for (int q = 0; q < p.npieces[k]; q++) {
                    sb_printf(&s, "%s%d", q ? "," : "", p.piece_thread[k][q]);
                    if (p.piece_end[k][q])
                        sb_printf(&s, ".%d", p.piece_end[k][q]);
                }
                continue;
            }
            bool folded = false, stretched = false;
            for (int a = 0; a < t->nthreads; a++) {
                folded |= p.pos[k][a] > 0;
                stretched |= p.stretch[k][a] != 0 || p.hold[k][a];
            }
            if (!p.largest[k] || (p.ngroups[k] < 2 && !folded && !stretched))
                continue;
            sb_printf(&s, "%s%d:", s.len ? ";" : "", k);
            for (int a = 0; a < t->nthreads; a++) {
                sb_printf(&s, "%s%d", a ? "," : "", p.group[k][a]);
                if (folded)
                    sb_printf(&s, ".%d.%d", p.lane[k][a], p.pos[k][a]);
                if (p.stretch[k][a])
                    sb_printf(&s, "/%d", p.stretch[k][a]);
                if (p.split[k][a])
                    sb_printf(&s, "s%d", p.split[k][a]);
                if (p.hold[k][a])
                    sb_add(&s, "h");
                if (p.nofence[k][a])
                    sb_add(&s, "n");
            }
        }
    }
    bset_free(again);
    free(p.group);
    free(p.lane);
    free(p.pos);
    free(p.split);
    free(p.stretch);
    free(p.hold);
    free(p.nofence);
    free(p.ngroups);
    free(p.largest);
    free(p.lanes);
    free(p.piece_thread);
    free(p.piece_end);
    free(p.npieces);
    free(p.vals);
    if (!again)
        return NULL;
    if (!s.len) {
        sb_free(&s);
        return xstrdup("");
    }
    return sb_take(&s);
}
