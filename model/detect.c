/* The four race detectors on one candidate execution (detect.h).  Every
 * detector judges the same conflicting pairs of events; they differ in what
 * may order a pair or excuse it, which is what makes their reports nest:
 * exact adds "not both atomic" to hb, hb orders by more than the hybrid's
 * limited relation, and the hybrid adds an ordering condition to the
 * lockset check. */
#include <string.h>
#include "isa/isa.h"
#include "model/detect.h"
#include "model/hb.h"
#include "util/mem.h"

const char *const detect_names[DET_N] = {"exact", "hb", "hybrid", "lockset"};

unsigned detect_parse(const char *name)
{
    if (!strcmp(name, "all"))
        return DET_ALL;
    for (int d = 0; d < DET_N; d++)
        if (!strcmp(name, detect_names[d]))
            return 1u << d;
    return 0;
}

/* Lock and unlock events touch their mutex, but to every detector they are
 * synchronisation, never an access (the survey's MEM events exclude them). */
static bool is_lock_event(const exec_event *e)
{
    return e->instr && (e->instr->op == IR_LOCK || e->instr->op == IR_UNLOCK);
}

/* The flag a joined thread ends with and its joiner waits for
 * (ir/lower_loop.c) is the join itself: a message, never an access. */
static bool is_join_event(const exec *x, const exec_event *e)
{
    return x->test && e->loc >= 0 && e->loc < x->test->nlocs && x->test->locs[e->loc].end_flag;
}

static bool is_access(const exec *x, const exec_event *e)
{
    return !(e->kind & EV_IW) && (e->kind & (EV_R | EV_W)) && !is_lock_event(e) && !is_join_event(x, e);
}

/* The hybrid's limited happens-before: program order and the joins (a
 * joined thread's events before what its joiner does once the join
 * returns), transitively.  A litmus test starts its threads together, so
 * there is no start edge, and it sends no other message. */
static void limited_hb(const exec *x, exec_rel *out)
{
    er_clear(out, x->n);
    for (int i = 0; i < x->n; i++)
        out->row[i] = x->po.row[i];
    bool joins = false;
    for (int w = 0; w < x->n; w++) {
        const exec_event *e = &x->ev[w];
        if (!(e->kind & EV_W) || (e->kind & EV_IW) || !is_join_event(x, e))
            continue;
        out->row[w] = es_or(out->row[w], x->rf.row[w]);
        joins = !es_empty(x->rf.row[w]) || joins;
    }
    if (!joins)
        return;
    for (int k = 0; k < x->n; k++)          /* closure: a test has few events */
        for (int i = 0; i < x->n; i++)
            if (er_has(out, i, k))
                out->row[i] = es_or(out->row[i], out->row[k]);
}

static int nthreads(const exec *x)
{
    int n = 0;
    for (int i = 0; i < x->n; i++)
        if (x->ev[i].thread + 1 > n)
            n = x->ev[i].thread + 1;
    return n;
}

void detect_locksets(const exec *x, detect_locks held[EXEC_MAX])
{
    /* Events are laid out thread by thread in program order, so one walk
     * per thread sees its lock and unlock events in the order they run.  A
     * lock that took its mutex (an RMW; a failed trylock only reads) adds
     * the mutex, lock k being location k, and an unlock removes it; a lock
     * event itself holds what was held before it. */
    for (int t = 0, nth = nthreads(x); t < nth; t++) {
        detect_locks cur = 0;
        for (int i = 0; i < x->n; i++) {
            const exec_event *e = &x->ev[i];
            if (e->thread != t)
                continue;
            held[i] = cur;
            if (!is_lock_event(e) || e->loc < 0 || e->loc >= 64)
                continue;
            if (e->instr->op == IR_UNLOCK)
                cur &= ~((detect_locks)1 << e->loc);
            else if (e->kind & EV_W)
                cur |= (detect_locks)1 << e->loc;
        }
    }
    for (int i = 0; i < x->n; i++)
        if (x->ev[i].thread < 0)
            held[i] = 0;
}

/* Eraser's states of one location (the survey's Figure: virgin until the
 * first access, exclusive to the thread that made it, shared once another
 * thread reads, shared-modified once it is written while shared). */
enum { VIRGIN, EXCLUSIVE, SHARED, SHARED_MOD };

/* The locations Eraser warns about when the threads run one after another,
 * FIRST first and then the others in order.  The candidate set C(v) is
 * refined from the access that leaves exclusive on (the owner's accesses
 * never enter it), and a warning is an access that leaves v shared-modified
 * with C(v) empty.  An RMW counts as a write. */
static exec_set eraser_schedule(const exec *x, const detect_locks *held, int first, int nth)
{
    int state[EXEC_MAX] = {0}, owner[EXEC_MAX] = {0};
    detect_locks c[EXEC_MAX] = {0};
    exec_set warned = es_none();
    for (int k = 0; k < nth; k++) {
        int t = k == 0 ? first : k <= first ? k - 1 : k;
        for (int i = 0; i < x->n; i++) {
            const exec_event *e = &x->ev[i];
            if (e->thread != t || !is_access(x, e))
                continue;
            int v = e->loc;
            bool w = (e->kind & EV_W) != 0;
            switch (state[v]) {
            case VIRGIN:
                state[v] = EXCLUSIVE;
                owner[v] = t;
                continue;
            case EXCLUSIVE:
                if (owner[v] == t)
                    continue;
                state[v] = w ? SHARED_MOD : SHARED;
                c[v] = held[i];
                break;
            case SHARED:
                c[v] &= held[i];
                if (w)
                    state[v] = SHARED_MOD;
                break;
            default:
                c[v] &= held[i];
            }
            if (state[v] == SHARED_MOD && !c[v])
                es_add(&warned, v);
        }
    }
    return warned;
}

/* Eraser's verdict depends on the schedule (the survey: "more schedule-
 * dependent than they would like"); the union over the schedules where
 * each thread runs first is the set of locations some such schedule warns
 * about.  Without locks it is every location with a conflicting pair: the
 * schedule that starts with the other thread's access makes the write leave
 * v shared-modified. */
static exec_set eraser(const exec *x, const detect_locks *held)
{
    exec_set warned = es_none();
    int nth = nthreads(x);
    for (int t = 0; t < nth; t++)
        warned = es_or(warned, eraser_schedule(x, held, t, nth));
    return warned;
}

static bool atomic_in(const exec *x, const exec_event *e)
{
    /* every x86 access is atomic (model/races.h) */
    bool x86 = x->test && isa_all_atomic(x->test->arch);
    return x86 || hb_atomic(e);
}

bool detect_exec_run(const exec *x, detect_exec *d)
{
    hb_compute(x, &d->sw, &d->hb);
    limited_hb(x, &d->limited);
    detect_locksets(x, d->held);
    exec_set warned = eraser(x, d->held);
    /* exact is today's `races`, hb.c's own race list, computed apart from
     * the hb detector so that the nesting check compares two computations */
    static _Thread_local race_pair exact[EXEC_MAX * (EXEC_MAX - 1) / 2];
    bool x86 = x->test && isa_all_atomic(x->test->arch);
    int nexact = x86 ? 0 : hb_races(x, &d->hb, exact, EXEC_MAX * (EXEC_MAX - 1) / 2);
    for (int i = 0; i < x->n; i++) {
        const exec_event *a = &x->ev[i];
        for (int j = i + 1; j < x->n; j++) {
            const exec_event *b = &x->ev[j];
            d->rep[i][j] = 0;
            d->conflict[i][j] = is_access(x, a) && is_access(x, b) && a->thread != b->thread && a->loc == b->loc &&
                                ((a->kind | b->kind) & EV_W);
            if (!d->conflict[i][j])
                continue;
            bool hb_ordered = er_has(&d->hb, i, j) || er_has(&d->hb, j, i);
            bool limited = er_has(&d->limited, i, j) || er_has(&d->limited, j, i);
            unsigned r = 0;
            /* atomics are synchronisation, not data, to a happens-before
             * detector (as ThreadSanitizer treats them): a pair of them
             * never races */
            if (!hb_ordered && !(atomic_in(x, a) && atomic_in(x, b)))
                r |= 1u << DET_HB;
            if (!limited && !(d->held[i] & d->held[j]))
                r |= 1u << DET_HYBRID;
            /* Eraser's warning on the location, or no common lock at the
             * pair (the survey's pairwise lockset check): Eraser alone
             * lets the first thread's accesses pass as thread-local, so a
             * write made under a lock after another thread's unlocked read
             * (the field of double-checked locking) would go unreported,
             * and the hybrid, which checks pairs, would report more. */
            if (es_has(warned, a->loc) || !(d->held[i] & d->held[j]))
                r |= 1u << DET_LOCKSET;
            d->rep[i][j] = (unsigned char)r;
        }
    }
    for (int k = 0; k < nexact; k++) {
        int i = exact[k].a < exact[k].b ? exact[k].a : exact[k].b, j = exact[k].a ^ exact[k].b ^ i;
        d->rep[i][j] |= 1u << DET_EXACT;
    }
    return true;
}

static int line_of(const exec_event *e)
{
    return e->instr ? e->instr->line : 0;
}

/* The first sw edge on an hb path from FIRST to SECOND: what orders them. */
static bool sw_between(const exec *x, const detect_exec *d, int first, int second, int *s, int *r)
{
    for (int i = 0; i < x->n; i++) {
        if (i != first && !er_has(&d->hb, first, i))
            continue;
        for (int j = 0; j < x->n; j++)
            if (er_has(&d->sw, i, j) && (j == second || er_has(&d->hb, j, second))) {
                *s = i;
                *r = j;
                return true;
            }
    }
    return false;
}

/* A join read on the limited path from FIRST to SECOND: "the join at
 * line L (THREAD's end)", or NULL when the pair is ordered otherwise. */
static char *join_between(const exec *x, const exec_rel *rel, int first, int second)
{
    for (int r = 0; r < x->n; r++) {
        const exec_event *e = &x->ev[r];
        if (!(e->kind & EV_R) || !is_join_event(x, e) || !er_has(rel, first, r) ||
            !(er_has(rel, r, second) || er_has(&x->po, r, second)))
            continue;
        const ir_loc *l = &x->test->locs[e->loc];
        return xasprintf("ordered by the join at line %d (it returns once thread %s has ended)", line_of(e),
                         x->test->threads[l->end_of].name);
    }
    return NULL;
}

static const char *what(const exec_event *e, bool release)
{
    if (is_lock_event(e))
        return release ? "unlock" : "lock";
    if (e->kind & EV_F)
        return release ? "release fence" : "acquire fence";
    return release ? "release" : "acquire";
}

char *detect_why_not(const exec *x, const detect_exec *d, int det, int i, int j)
{
    switch (det) {
    case DET_EXACT:
        return xstrdup("not a race under RC11");
    case DET_HB: {
        if (!er_has(&d->hb, i, j) && !er_has(&d->hb, j, i))
            return xstrdup("both accesses are atomic: synchronisation, not data");
        int first = er_has(&d->hb, i, j) ? i : j, second = first == i ? j : i, s, r;
        char *join = join_between(x, &d->hb, first, second);
        if (join)
            return join;
        if (!sw_between(x, d, first, second, &s, &r))
            return xstrdup("ordered by happens-before");
        if (is_lock_event(&x->ev[s]) && is_lock_event(&x->ev[r]))
            return xasprintf("ordered by the lock hand-off from the unlock at line %d to the lock at line %d",
                             line_of(&x->ev[s]), line_of(&x->ev[r]));
        return xasprintf("ordered by the %s at line %d synchronising with the %s at line %d",
                         what(&x->ev[s], true), line_of(&x->ev[s]), what(&x->ev[r], false), line_of(&x->ev[r]));
    }
    case DET_HYBRID:
        if (d->held[i] & d->held[j]) {
            int l = __builtin_ctzll(d->held[i] & d->held[j]);
            return xasprintf("lock %s is held at both accesses", x->test ? x->test->locs[l].name : "?");
        }
        {
            int first = er_has(&d->limited, i, j) ? i : j;
            char *join = join_between(x, &d->limited, first, first == i ? j : i);
            return join ? join : xstrdup("ordered by thread start or join");
        }
    default:
        return xstrdup("no location state reaches shared-modified with an empty lockset");
    }
}
