/* How a lane orders an execution's events.  A lane runs its threads one
 * after the other on one CPU: a thread that runs whole comes entirely
 * before the next, a fence between; a switched thread's part before the
 * switch, then what the switch runs (the next thread, perhaps switched
 * in turn), then its rest, a fence at each change.  Between two whole
 * threads the fence may go: the later then runs as more code of the
 * earlier, its loads free to go ahead of the earlier's stores, as they
 * may on two CPUs.  That is sound only when the later loads nothing the
 * earlier stored (it would read that from the store buffer, which no
 * other CPU can), and worth it only when the execution does not need the
 * earlier's stores seen before the later's loads (then the fence is what
 * makes them so): 4.SB's all-zero state on two CPUs, P0, P1 and P2 on one
 * lane, needs P3's store to stay in its buffer across the whole lane when
 * fenced, but is SB's weak state between the two lanes without fences. */
#include "harness/lane_order.h"
#include "ir/ir.h"

/* Every event of FROM before every event of TO, added to R; false when
 * that closes a cycle. */
static bool lane_add_before(exec_set *r, int n, exec_set from, exec_set to)
{
    exec_set after = to;
    for (int e = 0; e < n; e++)
        if (es_has(to, e))
            after = es_or(after, r[e]);
    for (int u = 0; u < n; u++)
        if (es_has(from, u) || es_meets(r[u], from)) {
            r[u] = es_or(r[u], after);
            if (es_has(r[u], u))
                return false;
        }
    return true;
}

void lane_access_index(const exec *x, int *access)
{
    for (int i = 0, k = 0; i < x->n; i++) {
        bool next = i > 0 && x->ev[i - 1].thread == x->ev[i].thread;
        k = !next ? 0 : x->ev[i].instr == x->ev[i - 1].instr ? k : k + 1;
        access[i] = k;
    }
}

bool lane_plain_load(const exec_event *e)
{
    return (e->kind & EV_R) && !(e->kind & EV_W) && !e->is_rmw && e->mode != IR_X86_LOCKED;
}

bool lane_plain_store(const exec_event *e)
{
    return (e->kind & EV_W) && !(e->kind & EV_R) && !e->is_rmw && e->mode != IR_X86_LOCKED &&
           e->mode != IR_MO_SC && e->mode != IR_JM_VOLATILE;
}

/* The segments of a lane one after the other in R: SEG[q] entirely
 * before SEG[q + 1].  False on a cycle. */
static bool segments_in_order(exec_set *r, int n, const exec_set *seg, int nseg)
{
    for (int q = 0; q + 1 < nseg; q++)
        if (!lane_add_before(r, n, seg[q], seg[q + 1]))
            return false;
    return true;
}

/* The segments the chain from place Q runs, in order, appended to SEG:
 * id A's events; or, when A is switched, those before the switch, then
 * the chain its switch runs (the next id), then the rest of A.  Returns
 * the place after the chain. */
static int lane_chain(const int *seq, int len, int q, const lane_view *v, exec_set *seg, int *nseg)
{
    int a = seq[q];
    if (es_empty(v->pre[a]) || q + 1 == len) {
        seg[(*nseg)++] = v->of[a];
        return q + 1;
    }
    seg[(*nseg)++] = v->pre[a];
    int next = lane_chain(seq, len, q + 1, v, seg, nseg);
    seg[(*nseg)++] = es_minus(v->of[a], v->pre[a]);
    return next;
}

int lane_chain_end(const int *seq, int len, int q, const exec_set *pre)
{
    while (!es_empty(pre[seq[q]]) && q + 1 < len)
        q++;
    return q + 1;
}

/* Whether whole thread A may follow, with no fence, the whole threads
 * since the last one (their plain stores STORES, at locations LOCS). */
static bool fence_left_out(const lane_view *v, int n, int a, exec_set stores, uint64_t locs)
{
    if (!v->load_locs || !v->store_locs || (v->load_locs[a] & locs))
        return false;
    for (int e = 0; e < n; e++)
        if (es_has(stores, e) && es_meets(v->order[e], v->loads[a]))
            return false;
    return true;
}

bool lane_in_order(exec_set *r, int n, const int *seq, int len, const lane_view *v, bool *nofence)
{
    /* since the last fence: the events, the plain stores and their places;
     * FENCED: a fence must come next (after a switch there always is) */
    exec_set since = es_none(), stores = es_none();
    uint64_t locs = 0;
    bool fenced = true;
    for (int q = 0; q < len;) {
        int a = seq[q], end = lane_chain_end(seq, len, q, v->pre);
        bool whole = end == q + 1;
        if (whole && !fenced && fence_left_out(v, n, a, stores, locs)) {
            /* as more code of the thread before: all but its stores
             * before all of A, its stores before all but A's loads */
            if (!lane_add_before(r, n, es_minus(since, stores), v->of[a]) ||
                !lane_add_before(r, n, stores, es_minus(v->of[a], v->loads[a])))
                return false;
            if (nofence)
                nofence[a] = true;
            since = es_or(since, v->of[a]);
            stores = es_or(stores, v->stores[a]);
            locs |= v->store_locs[a];
        } else {
            exec_set seg[2 * LANE_MAX_IDS];
            int nseg = 0;
            (void)lane_chain(seq, len, q, v, seg, &nseg);
            if ((!es_empty(since) && !lane_add_before(r, n, since, seg[0])) || !segments_in_order(r, n, seg, nseg))
                return false;
            since = es_none();
            for (int k = 0; k < nseg; k++)
                since = es_or(since, seg[k]);
            stores = whole ? v->stores[a] : es_none();
            locs = whole && v->store_locs ? v->store_locs[a] : 0;
            fenced = !whole;
        }
        q = end;
    }
    return true;
}
