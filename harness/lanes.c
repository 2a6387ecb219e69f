/* Lanes: the threads of a directed group folded onto fewer CPUs.  A group
 * is threads whose accesses must interleave both ways (harness/directed.c),
 * and with more of them than CPUs they cannot all run at once.  But an
 * execution seldom needs every thread of a cycle in flight together: in
 * WRC's state where P1 reads x=0 and P2 reads y=0 then x=1, P1 can run
 * entirely before P0, on the same CPU, with P2 beside them.  A lane is such
 * a sequence: its threads run one after the other on each instance, a full
 * fence between them, which is what the machine does when it switches from
 * one thread to the next on one CPU.  So a lane never makes up a state: its
 * executions are executions of the test in which each thread of the lane
 * begins after the one before it has finished and its stores are visible.
 *
 * Whether a folding contradicts the execution is a question of order: the
 * execution's global order (x86's preserved program order, rf between
 * threads, co and fr) plus "every event of A before every event of B" for
 * A, B one after the other on a lane must stay acyclic.  3.SB's all-zero
 * state folds onto two lanes (P0 then P1, P2 beside: only P1's read of x2
 * and P2's read of x0 race their peers' stores, as in SB), and so do
 * 6.SB's and IRIW's split readers.  Between two whole threads the fence
 * may go, where the later loads nothing the earlier stores
 * (harness/lane_order.c says how a lane orders events).
 *
 * A lane may also switch threads in the middle of one, as a machine does
 * when it preempts a thread: A runs up to an access, its stores drain, B
 * runs whole, then A goes on from that access.  3.SB+pos's state where P0
 * reads its x=1 overwritten by P1's x=2 while P2 reads x=1 needs P2 between
 * P0's store and load, and P1 in flight beside both: with no switch every
 * pair of the three threads must overlap, which takes three CPUs; with P0
 * switched out before its load, two.  What a switch runs may switch in
 * turn (6.SB's all-ones state: every store, then every load, one lane).
 * The search tries whole threads first, then switches, for the fewest
 * lanes. */
#include <string.h>
#include "backends/native.h"
#include "harness/harness.h"
#include "harness/lane_order.h"
#include "model/exec.h"

enum { MAXT = LANE_MAX_IDS };

typedef struct search {
    int n;                          /* events */
    exec_set reach[EXEC_MAX];       /* the execution's order, closed */
    exec_set of[MAXT];              /* events of each group member */
    int m;                          /* group members */
    int thread[MAXT];               /* member -> test thread */
    bool may_precede[MAXT][MAXT];   /* member a may run entirely before b */
    int lane[MAXT][MAXT], len[MAXT], nlanes, most;
    /* switches: split[a] = k > 0 when member a is switched out before its
     * k-th access (the lane's next member runs there); nacc[a] its
     * accesses, before[a][k] its events before access k */
    bool switches;
    long tried;                     /* placements tried with switches */
    int split[MAXT], nacc[MAXT];
    exec_set before[MAXT][NATIVE_GAPS];
    /* where a lane may leave out a fence (harness/lane_order.c): plain
     * loads and stores of each member, what its code may load and store */
    exec_set loads[MAXT], stores[MAXT];
    uint64_t load_locs[MAXT], store_locs[MAXT];
    bool locs_known;
} search;

/* A full fence orders a thread's stores before its later loads. */
static bool full_fence(const exec_event *e)
{
    return (e->kind & EV_F) &&
           (e->fence == IR_FENCE_MFENCE || e->fence == IR_FENCE_J_FULL ||
            (e->fence == IR_FENCE_C && e->mode == IR_MO_SC));
}

/* Whether program order from A to B holds on x86: all but a store before
 * a load, unless the store is locked (or compiled to xchg: C seq_cst,
 * Java volatile) or the load is the read of a locked instruction.  Store
 * before load through a full fence follows from the fence's own edges. */
static bool kept_in_order(const exec_event *a, const exec_event *b)
{
    bool store = (a->kind & EV_W) && !(a->kind & EV_R);
    bool load = (b->kind & EV_R) && !(b->kind & EV_W);
    if (!store || !load)
        return true;
    return a->is_rmw || b->is_rmw || a->mode == IR_X86_LOCKED || b->mode == IR_X86_LOCKED ||
           a->mode == IR_MO_SC || a->mode == IR_JM_VOLATILE;
}

/* Thread T's events in X: all of them, its plain loads and its plain
 * stores (lane_order.h's), as sets. */
static void thread_events(const exec *x, int t, exec_set *of, exec_set *loads, exec_set *stores)
{
    *of = *loads = *stores = es_none();
    for (int e = 0; e < x->n; e++) {
        if (x->ev[e].thread != t)
            continue;
        es_add(of, e);
        if (lane_plain_load(&x->ev[e]))
            es_add(loads, e);
        if (lane_plain_store(&x->ev[e]))
            es_add(stores, e);
    }
}

static void close_order(exec_set *reach, int n)
{
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            if (es_has(reach[i], k))
                reach[i] = es_or(reach[i], reach[k]);
}

void harness_exec_order(const exec *x, exec_set *reach)
{
    int n = x->n;
    memset(reach, 0, (size_t)n * sizeof *reach);
    for (int i = 0; i < n; i++) {
        const exec_event *a = &x->ev[i];
        if ((a->kind & EV_F) && !full_fence(a))
            continue;
        for (int j = 0; j < n; j++) {
            const exec_event *b = &x->ev[j];
            if ((b->kind & EV_F) && !full_fence(b))
                continue;
            if (er_has(&x->po, i, j) && kept_in_order(a, b))
                es_add(&reach[i], j);
            if (er_has(&x->rf, i, j) && a->thread != b->thread)
                es_add(&reach[i], j);
            if (er_has(&x->co, i, j))
                es_add(&reach[i], j);
            /* fr: a read comes before every store co-after the one it reads */
            if (er_has(&x->rf, i, j))
                for (int k = 0; k < n; k++)
                    if (k != j && er_has(&x->co, i, k))
                        es_add(&reach[j], k);
        }
    }
    close_order(reach, n);
}

/* The lanes placed so far, all at once, against the execution; NOFENCE
 * (unless NULL) gets the members a lane runs with no fence before. */
static bool lanes_fit(const search *s, bool *nofence)
{
    exec_set r[EXEC_MAX], pre[MAXT];
    memcpy(r, s->reach, (size_t)s->n * sizeof *r);
    for (int a = 0; a < s->m; a++)
        pre[a] = s->split[a] ? s->before[a][s->split[a]] : es_none();
    lane_view v = {s->of, pre, s->loads, s->stores, s->locs_known ? s->load_locs : NULL,
                   s->locs_known ? s->store_locs : NULL, s->reach};
    for (int l = 0; l < s->nlanes; l++)
        if (!lane_in_order(r, s->n, s->lane[l], s->len[l], &v, nofence))
            return false;
    return true;
}

/* Whether member J may go at place AT of lane L (the members there shift
 * up), switched when SWITCHED, the member before it switched to run J
 * when PREV_SWITCHED: every member before it that runs whole must be free
 * to run before it, and, when J runs whole, it before every one after.
 * (A switched member's rest runs after what its switch runs, and what
 * comes after a switched J may run inside it: those are left to
 * lanes_fit, which has the final word.) */
static bool fits_between(const search *s, int l, int at, int j, bool switched, bool prev_switched)
{
    for (int q = 0; q < s->len[l]; q++) {
        int a = s->lane[l][q];
        bool ok = q < at ? s->split[a] || (prev_switched && q == at - 1) || s->may_precede[a][j]
                         : switched || s->may_precede[j][a];
        if (!ok)
            return false;
    }
    return true;
}

static void insert_at(search *s, int l, int at, int j)
{
    memmove(&s->lane[l][at + 1], &s->lane[l][at], (size_t)(s->len[l] - at) * sizeof(int));
    s->lane[l][at] = j;
    s->len[l]++;
}

static void remove_at(search *s, int l, int at)
{
    s->len[l]--;
    memmove(&s->lane[l][at], &s->lane[l][at + 1], (size_t)(s->len[l] - at) * sizeof(int));
}

/* The last access member A can be switched out before: the runner
 * switches at gap slots 1 .. NATIVE_GAPS - 2 (the last slot stands for
 * every later access); 0 in a search without switches. */
static int last_switch(const search *s, int a)
{
    if (!s->switches)
        return 0;
    return s->nacc[a] - 1 < NATIVE_GAPS - 2 ? s->nacc[a] - 1 : NATIVE_GAPS - 2;
}

/* Placements tried in a search with switches before it gives up: the
 * choices multiply, and a group that needs them is seldom large. */
enum { SWITCH_SEARCH_MAX = 200000 };

/* Member J goes into a lane at a place where every member before it may
 * precede it and it may precede every one after; with switches, also
 * switched itself (the members after it running inside it) or inside the
 * member before it, switched for that. */
static bool place(search *s, int j)
{
    if (j == s->m)
        return lanes_fit(s, NULL);
    if (s->switches && ++s->tried > SWITCH_SEARCH_MAX)
        return false;
    for (int l = 0; l <= s->nlanes && l < s->most; l++) {
        bool fresh = l == s->nlanes;
        if (fresh) {
            s->len[l] = 0;
            s->nlanes++;
        }
        for (int at = 0; at <= s->len[l]; at++) {
            int prev = at > 0 ? s->lane[l][at - 1] : -1;
            int kp_last = prev >= 0 && !s->split[prev] ? last_switch(s, prev) : 0;
            for (int kj = 0; kj <= last_switch(s, j); kj++)
                for (int kp = 0; kp <= kp_last; kp++) {
                    if (!fits_between(s, l, at, j, kj > 0, kp > 0))
                        continue;
                    insert_at(s, l, at, j);
                    s->split[j] = kj;
                    if (kp)
                        s->split[prev] = kp;
                    if (place(s, j + 1))
                        return true;
                    if (kp)
                        s->split[prev] = 0;
                    s->split[j] = 0;
                    remove_at(s, l, at);
                }
        }
        if (fresh)
            s->nlanes--;
    }
    return false;
}

int harness_lanes(const exec *x, const exec_set *order, uint64_t members, const uint64_t *load_locs,
                  const uint64_t *store_locs, unsigned char *lane, unsigned char *pos, unsigned char *split,
                  bool *nofence)
{
    search s;
    memset(&s, 0, sizeof s);
    for (int t = 0; t < MAXT; t++)
        if ((members >> t) & 1)
            s.thread[s.m++] = t;
    bool small = s.m <= HARNESS_LANES_GROUP_MAX;
    if (small) {
        s.n = x->n;
        memcpy(s.reach, order, (size_t)x->n * sizeof *s.reach);
        int access[EXEC_MAX];
        lane_access_index(x, access);
        s.locs_known = load_locs && store_locs;
        for (int a = 0; a < s.m && s.locs_known; a++) {
            s.load_locs[a] = load_locs[s.thread[a]];
            s.store_locs[a] = store_locs[s.thread[a]];
        }
        for (int a = 0; a < s.m; a++) {
            thread_events(x, s.thread[a], &s.of[a], &s.loads[a], &s.stores[a]);
            for (int e = 0; e < x->n; e++) {
                if (!es_has(s.of[a], e))
                    continue;
                s.nacc[a] = access[e] + 1 > s.nacc[a] ? access[e] + 1 : s.nacc[a];
                for (int k = access[e] + 1; k < NATIVE_GAPS; k++)
                    es_add(&s.before[a][k], e);
            }
        }
        for (int a = 0; a < s.m; a++)
            for (int b = 0; b < s.m; b++) {
                bool back = false;
                for (int e = 0; e < x->n && !back; e++)
                    back = es_has(s.of[b], e) && es_meets(s.reach[e], s.of[a]);
                s.may_precede[a][b] = a != b && !back;
            }
        /* the fewest lanes, whole threads before switched ones */
        bool found = false;
        for (s.most = 1; s.most < s.m && !found; s.most++)
            for (int sw = 0; sw < 2 && !found; sw++) {
                s.switches = sw;
                s.tried = 0;
                s.nlanes = 0;
                found = place(&s, 0);
            }
        if (found)
            s.most--;
    }
    if (!small || s.most == s.m) {
        /* every member on a lane of its own: the group as it is */
        for (int a = 0; a < s.m; a++) {
            lane[s.thread[a]] = (unsigned char)a;
            pos[s.thread[a]] = 0;
            split[s.thread[a]] = 0;
            nofence[s.thread[a]] = false;
        }
        return s.m;
    }
    bool bare[MAXT] = {false};
    (void)lanes_fit(&s, bare);
    for (int l = 0; l < s.nlanes; l++)
        for (int q = 0; q < s.len[l]; q++) {
            int a = s.lane[l][q];
            lane[s.thread[a]] = (unsigned char)l;
            pos[s.thread[a]] = (unsigned char)q;
            split[s.thread[a]] = (unsigned char)s.split[a];
            nofence[s.thread[a]] = bare[a];
        }
    return s.nlanes;
}

/* Threads whose stores the execution may need late though nothing forces
 * them late: a store before a load of the thread, out of order on x86,
 * that lies on a cycle of the execution once program order counts whole
 * (a cycle only store buffers break), but for the threads already held,
 * whose late stores break the cycles they are on.  3.SB's all-zero state
 * is one such cycle through every thread's store and load; any one late
 * store would break it, but with none held the laned schedule (P0 and P1
 * on a lane, P2 beside) showed it only by luck: covered after 16 to 500
 * iterations, against 8 (its floor) in 7 of 8 runs with every store held
 * back, which makes it SB with both sides stalled (runtime/lrt_lane.c's
 * lrt_run_lane).  A thread already held must not take the others with it:
 * 3.SB+pos+po+po's state where P0 reads P1's x=2 needs P1's store late
 * and P0's, on the lane of P2, early. */
static void hold_sc_cycles(const exec *x, const exec_set *order, int nth, bool *hold)
{
    exec_set sc[EXEC_MAX];
    int n = x->n;
    memcpy(sc, order, (size_t)n * sizeof *sc);
    for (int a = 0; a < n; a++) {
        int t = x->ev[a].thread;
        if (t >= 0 && t < nth && !hold[t])
            sc[a] = es_or(sc[a], x->po.row[a]);
    }
    close_order(sc, n);
    bool more[MAXT] = {false};
    for (int a = 0; a < n; a++) {
        int t = x->ev[a].thread;
        if (t < 0 || t >= nth || t >= MAXT || hold[t] || !lane_plain_store(&x->ev[a]))
            continue;
        for (int b = 0; b < n; b++)
            if (er_has(&x->po, a, b) && lane_plain_load(&x->ev[b]) && !es_has(order[a], b) &&
                es_has(sc[b], a))
                more[t] = true;
    }
    for (int t = 0; t < nth && t < MAXT; t++)
        hold[t] |= more[t];
}

/* Stretches: where a directed run should hold a thread back.  When one of
 * the execution's orders runs from a thread's access out through another
 * thread and back to a later access of the first (ISA2+coi's P1 reading
 * x=1 between P0's two stores to x), that other thread's access must fall
 * between the two, and a gap before the later one (the runner's gapped
 * copy, lrt_gap_sweep_fn) leaves room for it.  MASK[t] bit k: a gap
 * before thread t's k-th access (instructions that touch memory or fence
 * it, in program order; the last bit stands for the later ones too, as
 * the runner's positions do).  GROUP, LANE and POS: the schedule's.
 * Holds: where an order runs from a later access of a thread back to an
 * earlier store of it (SB+mfence+po's all-zero state: P1's load of x, P0's
 * store and fenced load, P1's store of y), the store must wait in the
 * store buffer; HOLD[t] asks the runner to make thread t's stores wait.
 * So it does where a store before a load of the thread lies on a cycle
 * that only store buffers break (hold_sc_cycles). */
void harness_stretches(const exec *x, const exec_set *order, int nth, const uint64_t *load_locs,
                       const uint64_t *store_locs, const unsigned char *group, const unsigned char *lane,
                       const unsigned char *pos, const unsigned char *split, unsigned char *mask, bool *hold)
{
    exec_set reach[EXEC_MAX], of[MAXT] = {0}, pre[MAXT] = {0}, loads[MAXT], stores[MAXT];
    int access[EXEC_MAX];
    uint64_t inside[MAXT] = {0};    /* the threads a switch of t runs inside it */
    lane_access_index(x, access);
    memcpy(reach, order, (size_t)x->n * sizeof *reach);
    for (int t = 0; t < nth && t < MAXT; t++)
        thread_events(x, t, &of[t], &loads[t], &stores[t]);
    for (int i = 0; i < x->n; i++) {
        int t = x->ev[i].thread;
        if (t >= 0 && t < nth && t < MAXT && access[i] < split[t])
            es_add(&pre[t], i);
    }
    lane_view v = {of, pre, loads, stores, load_locs, store_locs, order};
    /* in a laned run a lane's threads follow each other: orders through
     * that count too (WRC: P2's reads around P1 then P0 on the other lane),
     * with a switched thread's two parts around what its switch runs */
    for (int u = 0; u < nth && u < MAXT; u++) {
        if (pos[u] != 0)
            continue;
        int seq[MAXT], len = 0;
        for (int v = 0; v < nth && v < MAXT; v++)
            if (group[v] == group[u] && lane[v] == lane[u] && pos[v] < MAXT)
                seq[pos[v]] = v, len++;
        (void)lane_in_order(reach, x->n, seq, len, &v, NULL);
        for (int q = 0; q < len; q++)
            if (!es_empty(pre[seq[q]]))
                for (int e = q + 1; e < lane_chain_end(seq, len, q, pre); e++)
                    inside[seq[q]] |= (uint64_t)1 << seq[e];
    }
    memset(mask, 0, (size_t)nth);
    memset(hold, 0, (size_t)nth * sizeof *hold);
    /* An order from a later access of a thread back to an earlier store of
     * it (only a store before a load can be overtaken): the store must stay
     * in the store buffer while the load and what it leads to happen. */
    for (int a = 0; a < x->n; a++)
        for (int b = a + 1; b < x->n && x->ev[b].thread == x->ev[a].thread; b++)
            if (x->ev[a].thread >= 0 && x->ev[a].thread < nth && es_has(reach[b], a))
                hold[x->ev[a].thread] = true;
    hold_sc_cycles(x, order, nth, hold);
    for (int a = 0; a < x->n; a++) {
        int t = x->ev[a].thread;
        if (t < 0 || t >= nth)
            continue;
        for (int b = 0; b < x->n; b++) {
            if (x->ev[b].thread != t || access[b] <= access[a])
                continue;
            exec_set via = reach[a];
            /* not through the threads a switch runs inside t: the switch
             * itself puts those between */
            for (int f = 0; f < x->n && !es_empty(via); f++)
                if (es_has(via, f) && x->ev[f].thread >= 0 && x->ev[f].thread != t &&
                    !((inside[t] >> x->ev[f].thread) & 1) && es_has(reach[f], b)) {
                    int k = access[b] < NATIVE_GAPS ? access[b] : NATIVE_GAPS - 1;
                    mask[t] |= (unsigned char)(1u << k);
                    break;
                }
        }
    }
}
