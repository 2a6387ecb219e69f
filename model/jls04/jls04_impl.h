#ifndef LITMUSC_MODEL_JLS04_IMPL_H
#define LITMUSC_MODEL_JLS04_IMPL_H
/* The state shared by the JLS04 files, internal to them: jls04.c (the
 * test's events and its well-formed executions), jls04_justify.c (the
 * justification of one target), jls04_out.c (final states, the
 * executions handed to an observer, the notes), and below them all
 * jls04_exec.c (an execution's values, the limits, an event's name).
 * Calls go one way: jls04.c -> jls04_justify.c -> jls04_out.c ->
 * jls04_exec.c.
 *
 * Events across executions.  JLS04 commits an event in one execution and
 * asks for "the same" event in the next; jMT (section 4) makes that
 * precise: two events are equal when they have the same thread, kind and
 * location and the same rank among that thread's events of that kind and
 * location (the initial write of a location is one event everywhere).
 * Each such identity gets a number, the initial write of location L being
 * number L, and sets of events are 64-bit masks over those numbers. */
#include <stdbool.h>
#include <stdint.h>
#include "model/bset_build.h"
#include "model/outcome.h"
#include "model/paths/paths.h"
#include "model/jls04/jls04.h"
#include "util/mem.h"

typedef uint64_t jset;
#define JBIT(i) ((jset)1 << (i))

typedef struct jid {
    int th;                     /* thread index; -1 for an initial write */
    unsigned kind;              /* EV_R or EV_W */
    int loc;
    int idx;                    /* rank among the thread's events of this kind and location */
    bool monitor;               /* a lock (kind EV_R) or unlock (EV_W) of a monitor */
} jid;

/* One path of one thread: the identity of each of its events. */
typedef struct jpmap {
    int *id;                    /* per path event */
    int8_t ev_of[JLS04_MAX_EVENTS]; /* identity -> path event, -1 when the path lacks it */
} jpmap;

/* What one choice of paths and synchronization order fixes, shared by the
 * executions that differ only in what their plain reads see. */
typedef struct jframe {
    int combo;                  /* index of the path choice (jls.combo) */
    jset *hb;                   /* nid rows: happens-before, transitive, irreflexive */
    jset *so;                   /* nid rows: synchronization order over volatile events */
    uint8_t *order;             /* the events in an order that extends hb */
    int norder;
    jset sw;                    /* synchronizes-with, as a mask over jls.pair */
    jset ssw;                   /* JLS condition 8's sufficient sw: sw in hb's transitive
                                   reduction and not in po */
    jset ev;                    /* its events */
    /* Its executions are jls.x[base ...], one per choice of the write each
     * plain read sees, in the order of an odometer over plain[] (the last
     * read turning fastest), each read's choices in ascending order. */
    int base, nx;
    int nplain;
    uint8_t plain[JLS04_MAX_EVENTS];
    jset cand[JLS04_MAX_EVENTS];    /* per plain[k]: the writes it may see */
} jframe;

/* One well-formed execution (JLS 17.4.7) but for its values, which follow
 * from what it commits (jls04_justify.c). */
typedef struct jexec {
    int frame;
    jset ev, rd, wr;            /* its events, reads, writes (initial writes included) */
    jset hbreads;               /* reads that see a write that happens before them */
    int8_t src[JLS04_MAX_EVENTS]; /* per read: the write it sees */
} jexec;

/* One stage of a justification: E_i and what C_i adds to C_{i-1}. */
typedef struct jstage {
    int x;                      /* index of E_i in jls.x */
    jset add;
} jstage;

typedef struct jls {
    const ir_test *t;
    diag *d;
    int nth, nlocs;
    tpaths *tp;                 /* per thread: its paths (model/paths/paths.c) */
    jpmap **pm;                 /* pm[th][path] */
    jid id[JLS04_MAX_EVENTS];
    int nid;
    bool *vol;                  /* per location: volatile */
    int npair;                  /* volatile write -> volatile read pairs of one location */
    int pair_w[JLS04_MAX_SYNC_PAIRS], pair_r[JLS04_MAX_SYNC_PAIRS];
    int *combo;                 /* ncombo * nth path indices */
    int ncombo;
    jframe *fr;
    int nfr, capfr;
    jexec *x;
    int nx, capx;
    uint64_t steps;             /* justifying executions tried, against JLS04_MAX_STEPS */
    model_meter *meter;         /* the run's budget (model/budget.h) */
    /* output */
    bset *b;
    outcome out;                /* observables, the state, the behaviour set, the observer */
    strbuf notes;
    int nnotes;
    ir_val *noted;              /* states (nobs values each) whose justification is in notes */
} jls;

/* jls04_exec.c */
/* Record a limit crossed: diag at the test's first instruction, status 3. */
bool jls04_limit(jls *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* E's values (condition 4 aside) when C is committed: reads of C see T's
 * write with T's value TW, the others a write that happens before them,
 * evaluated in hb order (EV: per event, the value read or written).
 * False when a branch assumption of E's paths fails. */
bool jls04_exec_values(const jls *j, const jexec *E, jset C, const ir_val *tw, ir_val *ev);
/* An event as the notes name it: "Thread0:W y=1", "init x=0". */
void jls04_format_event(const jls *j, strbuf *b, int i, ir_val v);

/* The path of thread TH in execution X, and the path event of identity I
 * (-1 when X's path lacks it); in every inner loop of the search. */
static inline const tpath *jls04_path(const jls *j, const jexec *x, int th)
{
    const int *c = j->combo + (size_t)j->fr[x->frame].combo * (size_t)j->nth;
    return &j->tp[th].p[c[th]];
}

static inline int jls04_event(const jls *j, const jexec *x, int i)
{
    int th = j->id[i].th;
    const int *c = j->combo + (size_t)j->fr[x->frame].combo * (size_t)j->nth;
    return j->pm[th][c[th]].ev_of[i];
}

/* jls04_justify.c */
/* The executions JLS04 allows with target X (jls.x[ti])
 * as their structure, each handed to jls04_outcome.  False + diag on a limit. */
bool jls04_justify(jls *j, int ti);

/* jls04_out.c */
/* Forward values of X: read-slot values per thread (SLOTS[th], 64 each)
 * from write values WV (every write X has).  The values of its final
 * registers and observed locations go to the behaviour set; one
 * justification (STAGES) goes to the notes when the state is a new
 * witness.  False when the observer stops the run. */
bool jls04_outcome(jls *j, int ti, const ir_val *wv, ir_val (*slots)[64], const jstage *stages, int nstages);
void jls04_out_init(jls *j, bset *b, model_exec_fn fn, void *ctx);
void jls04_out_finish(jls *j);

#endif
