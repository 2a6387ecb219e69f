/* Interleavings: an execution every thread of which could have run on one
 * CPU, switched from one to the next at some accesses.  That is an
 * execution whose program order, reads-from, coherence and from-reads
 * together are acyclic (sequentially consistent): any order of its
 * accesses that respects them is an interleaving, and run that way on one
 * CPU the test's code makes exactly that execution, on every instance
 * (runtime/lrt_interleave.c).  So each state some sequentially consistent
 * execution makes needs one instance of its schedule, where runs on two
 * CPUs leave the order to timing: fig6's 2541 x86 states are all of that
 * kind, and in 1M iterations timing had shown about a third of them.
 *
 * The order is built a thread at a time: the thread running goes on while
 * its next access has nothing left to wait for, and only then does
 * another take over, so that the interleaving switches seldom.  A switch
 * happens before an access of the thread switched out, at one of the
 * runner's gap positions (backends/native.h), which reach access
 * NATIVE_GAPS - 2; an execution that needs a switch later than that gets
 * no interleaving. */
#include <string.h>
#include "backends/native.h"
#include "harness/harness.h"
#include "harness/lane_order.h"
#include "model/exec.h"

enum { MAXT = LANE_MAX_IDS };

typedef struct nodes {
    int n;                          /* accesses, all threads */
    int thread[EXEC_MAX], access[EXEC_MAX];
    int of_event[EXEC_MAX];         /* event -> its access's node, -1 for initial writes */
    exec_set pred[EXEC_MAX];        /* node i waits for the nodes in pred[i] */
    int first[MAXT], count[MAXT];   /* each thread's nodes, in program order */
} nodes;

static void add_edge(nodes *g, int from_event, int to_event)
{
    int a = g->of_event[from_event], b = g->of_event[to_event];
    if (a >= 0 && b >= 0 && a != b)
        es_add(&g->pred[b], a);
}

/* One node per access (the events of one instruction share it), and the
 * order between them: program order, rf, co and fr. */
static bool build(const exec *x, int nth, nodes *g)
{
    memset(g, 0, sizeof *g);
    int access[EXEC_MAX];
    lane_access_index(x, access);
    for (int t = 0; t < nth; t++)
        g->first[t] = -1;
    for (int e = 0; e < x->n; e++) {
        int t = x->ev[e].thread;
        g->of_event[e] = -1;
        if (t < 0)
            continue;
        if (t >= nth || t >= MAXT)
            return false;
        bool same = e > 0 && x->ev[e - 1].thread == t && access[e - 1] == access[e];
        if (!same) {
            g->thread[g->n] = t;
            g->access[g->n] = access[e];
            if (g->first[t] < 0)
                g->first[t] = g->n;
            g->count[t]++;
            g->n++;
        }
        g->of_event[e] = g->n - 1;
    }
    for (int i = 1; i < g->n; i++)
        if (g->thread[i] == g->thread[i - 1])
            es_add(&g->pred[i], i - 1);
    for (int w = 0; w < x->n; w++)
        for (int r = 0; r < x->n; r++) {
            if (!er_has(&x->rf, w, r))
                continue;
            add_edge(g, w, r);
            /* fr: the read before every write co-after the one it reads */
            for (int v = 0; v < x->n; v++)
                if (er_has(&x->co, w, v))
                    add_edge(g, r, v);
        }
    for (int w = 0; w < x->n; w++)
        for (int v = 0; v < x->n; v++)
            if (er_has(&x->co, w, v))
                add_edge(g, w, v);
    return true;
}

int harness_interleaving(const struct exec *x, int nth, unsigned char *thread, unsigned char *end, int max)
{
    if (nth > MAXT)
        return 0;
    nodes g;
    if (!build(x, nth, &g))
        return 0;
    exec_set placed = es_none();
    int next[MAXT];                 /* each thread's next node, -1 once done */
    for (int t = 0; t < nth; t++)
        next[t] = g.count[t] ? g.first[t] : -1;
    int pieces = 0, cur = -1;
    for (int done = 0; done < g.n;) {
        int pick = -1;
        if (cur >= 0 && next[cur] >= 0 && es_empty(es_minus(g.pred[next[cur]], placed)))
            pick = cur;
        for (int t = 0; t < nth && pick < 0; t++)
            if (next[t] >= 0 && es_empty(es_minus(g.pred[next[t]], placed)))
                pick = t;
        if (pick < 0)
            return 0;               /* a cycle: no one CPU makes this execution */
        if (pick != cur) {
            /* the piece running stops before its thread's next access */
            if (cur >= 0 && next[cur] >= 0) {
                int k = g.access[next[cur]];
                if (k < 1 || k > NATIVE_GAPS - 2)
                    return 0;
                end[pieces - 1] = (unsigned char)k;
            }
            if (pieces == max)
                return 0;
            thread[pieces] = (unsigned char)pick;
            end[pieces++] = 0;
            cur = pick;
        }
        int i = next[pick];
        es_add(&placed, i);
        done++;
        next[pick] = i + 1 < g.n && g.thread[i + 1] == pick ? i + 1 : -1;
    }
    return pieces;
}
