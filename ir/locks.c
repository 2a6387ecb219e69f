/* The lock discipline every consumer relies on (ir_check_locks): a thread
 * takes and frees its mutexes in pairs on every path.  The model needs it to
 * stay exact (a lock nobody frees would leave another thread's lock with no
 * execution at all, which reads as "no states"), and the native harnesses need
 * it not to hang (a thread that waits for a mutex its owner never frees spins
 * for ever).  So every misuse is refused before anything runs, at its place
 * in the source:
 *   - unlock of a mutex the thread does not hold;
 *   - lock of a mutex it already holds (it would wait for itself);
 *   - a mutex held when the thread ends;
 *   - a trylock's mutex locked, freed or left at the end before a branch
 *     has tested the trylock's result (only then is it known to be held);
 *   - two mutexes taken in both orders (a thread waits for B holding A,
 *     another, or another path, for A holding B): the harnesses could
 *     deadlock, and the model would only lose those executions.
 * Mutexes are also kept apart from data: no load, store or RMW names one, no
 * pointer holds one, and the condition does not observe one. */
#include <stdlib.h>
#include <string.h>
#include "ir/ir.h"
#include "util/mem.h"

/* A value that says whether a trylock took its mutex: nonzero means taken
 * when TAKEN_IF_NONZERO, else zero means taken. */
typedef struct tried {
    int val;
    int loc;
    bool taken_if_nonzero;
    const ir_instr *at;         /* the trylock */
} tried;

/* Where the walk is on one path. */
typedef struct lstate {
    uint64_t held;
    uint64_t pending;           /* mutexes of a trylock whose result no branch has tested */
    const ir_instr *taken[64];  /* where each held or pending mutex was taken */
    tried *tr;                  /* values that tell a trylock's outcome */
    int ntr;
} lstate;

typedef struct lwalk {
    const ir_test *t;
    const ir_thread *th;
    diag *d;
    long steps;                 /* blocks visited, over every path */
    uint64_t *after;            /* [64]: bit m of after[l]: some thread waits for m holding l */
    const ir_instr **where;     /* [64 * 64]: the first such lock of m while l is held, */
    const ir_thread **where_th; /* and its thread */
} lwalk;

/* The path limit: a loop-free thread of litmus size has far fewer; a
 * generated one past it is refused rather than checked for minutes. */
enum { LOCK_WALK_STEPS = 1000000 };

static const char *verb(ir_lock_kind k, int what)
{
    /* what: 0 lock, 1 trylock, 2 unlock */
    static const char *const spell[IR_LK_COUNT][3] = {
        {"spin_lock", "spin_trylock", "spin_unlock"},
        {"mtx_lock", "mtx_trylock", "mtx_unlock"},
        {"synchronized", "synchronized", "the end of synchronized"},
    };
    return (unsigned)k < IR_LK_COUNT ? spell[k][what] : "lock";
}

static const char *mutex_name(const lwalk *w, const ir_instr *in)
{
    return w->t->locs[IR_ADDR_LOC(in->addr.imm)].name;
}

static bool fail_at(lwalk *w, const ir_instr *in, const char *what, const char *why, const ir_instr *other)
{
    if (other && ir_instr_line(other) > 0)
        return diag_error(w->d, w->t->file, ir_instr_line(in), ir_instr_col(in), "%s(%s) in %s: %s (line %d)", what,
                          mutex_name(w, in), w->th->name, why, ir_instr_line(other));
    return diag_error(w->d, w->t->file, ir_instr_line(in), ir_instr_col(in), "%s(%s) in %s: %s", what,
                      mutex_name(w, in), w->th->name, why);
}

static void state_copy(lstate *dst, const lstate *src)
{
    *dst = *src;
    dst->tr = src->ntr ? xmalloc((size_t)src->ntr * sizeof *dst->tr) : NULL;
    if (src->ntr)
        memcpy(dst->tr, src->tr, (size_t)src->ntr * sizeof *dst->tr);
}

static void add_tried(lstate *s, tried v)
{
    s->tr = xrealloc(s->tr, (size_t)(s->ntr + 1) * sizeof *s->tr);
    s->tr[s->ntr++] = v;
}

static const tried *find_tried(const lstate *s, ir_operand o)
{
    if (o.kind != IR_OPND_VAL)
        return NULL;
    for (int i = 0; i < s->ntr; i++)
        if (s->tr[i].val == o.val)
            return &s->tr[i];
    return NULL;
}

/* A comparison of a trylock's result with 0 or 1 tells the outcome too
 * (`if (r == 0)`, C11's `mtx_trylock(m) == thrd_success`). */
static void derive(lstate *s, const ir_instr *in)
{
    if (in->op != IR_BIN || in->dst < 0 || (in->binop != IR_EQ && in->binop != IR_NE))
        return;
    const tried *v = find_tried(s, in->a);
    ir_operand k = in->b;
    if (!v) {
        v = find_tried(s, in->b);
        k = in->a;
    }
    if (!v || k.kind != IR_OPND_IMM || (k.imm != 0 && k.imm != 1))
        return;
    /* (v == 1) and (v != 0) keep the sense; (v == 0) and (v != 1) flip it. */
    bool keep = (in->binop == IR_EQ) == (k.imm == 1);
    tried d = {in->dst, v->loc, keep ? v->taken_if_nonzero : !v->taken_if_nonzero, v->at};
    add_tried(s, d);
}

static bool walk_block(lwalk *w, int b, lstate *s);

/* The branch at IN: on each side a tested trylock is known to hold or not. */
static bool branch(lwalk *w, const ir_instr *in, lstate *s)
{
    const tried *v = find_tried(s, in->a);
    if (!v || !(s->pending >> v->loc & 1)) {
        lstate other;
        state_copy(&other, s);
        bool ok = walk_block(w, in->else_block, &other);
        free(other.tr);
        return ok && walk_block(w, in->then_block, s);
    }
    int loc = v->loc;
    bool then_taken = v->taken_if_nonzero;
    lstate other;
    state_copy(&other, s);
    uint64_t bit = (uint64_t)1 << loc;
    s->pending &= ~bit;
    other.pending &= ~bit;
    if (then_taken)
        s->held |= bit;
    else
        other.held |= bit;
    bool ok = walk_block(w, in->else_block, &other);
    free(other.tr);
    return ok && walk_block(w, in->then_block, s);
}

static bool walk_block(lwalk *w, int b, lstate *s)
{
    if (++w->steps > LOCK_WALK_STEPS)
        return diag_error(w->d, w->t->file, w->th->text_line, w->th->text_col, "%s has too many paths to check its locks (more than %d blocks "
                          "over all paths)", w->th->name, LOCK_WALK_STEPS);
    const ir_block *bl = &w->th->blocks[b];
    for (int i = 0; i < bl->ninstrs; i++) {
        const ir_instr *in = &bl->instrs[i];
        int loc = in->op == IR_LOCK || in->op == IR_UNLOCK ? IR_ADDR_LOC(in->addr.imm) : -1;
        uint64_t bit = loc >= 0 ? (uint64_t)1 << loc : 0;
        switch (in->op) {
        case IR_LOCK: {
            bool try = in->dst >= 0;
            if (s->pending & bit)
                return fail_at(w, in, verb(in->lock, try), "the result of the earlier trylock is not tested yet",
                               s->taken[loc]);
            if (s->held & bit)
                return fail_at(w, in, verb(in->lock, try), "the thread already holds it and would wait for itself",
                               s->taken[loc]);
            if (!try)
                for (uint64_t h = s->held; h; h &= h - 1) {
                    int l = __builtin_ctzll(h);
                    if (!(w->after[l] >> loc & 1)) {
                        w->where[l * 64 + loc] = in;
                        w->where_th[l * 64 + loc] = w->th;
                    }
                    w->after[l] |= bit;
                }
            s->taken[loc] = in;
            if (try) {
                s->pending |= bit;
                add_tried(s, (tried){in->dst, loc, true, in});
            } else {
                s->held |= bit;
            }
            break;
        }
        case IR_UNLOCK:
            if (s->pending & bit)
                return fail_at(w, in, verb(in->lock, 2), "the result of the trylock is not tested first",
                               s->taken[loc]);
            if (!(s->held & bit))
                return fail_at(w, in, verb(in->lock, 2), "the thread does not hold it", NULL);
            s->held &= ~bit;
            break;
        case IR_BIN:
            derive(s, in);
            break;
        case IR_BR:
            return branch(w, in, s);
        case IR_JMP:
            return walk_block(w, in->then_block, s);
        case IR_CUT:        /* no execution ends here */
            return true;
        case IR_RET: {
            uint64_t left = s->held | s->pending;
            if (!left)
                return true;
            int l = __builtin_ctzll(left);
            const ir_instr *at = s->taken[l];
            return fail_at(w, at, verb(at->lock, at->dst >= 0),
                           s->pending >> l & 1 ? "its result is never tested, so the mutex may be held when the "
                                                 "thread ends"
                                               : "still held when the thread ends", NULL);
        }
        default:
            break;
        }
    }
    return true;
}

bool ir_thread_takes_locks(const ir_thread *th)
{
    for (int b = 0; b < th->nblocks; b++)
        for (int k = 0; k < th->blocks[b].ninstrs; k++)
            if (th->blocks[b].instrs[k].op == IR_LOCK)
                return true;
    return false;
}

uint64_t ir_test_mutexes(const ir_test *t)
{
    uint64_t m = 0;
    for (int i = 0; i < t->nthreads; i++) {
        const ir_thread *th = &t->threads[i];
        for (int b = 0; b < th->nblocks; b++)
            for (int k = 0; k < th->blocks[b].ninstrs; k++) {
                const ir_instr *in = &th->blocks[b].instrs[k];
                if ((in->op == IR_LOCK || in->op == IR_UNLOCK) && in->addr.kind == IR_OPND_IMM &&
                    IR_IS_ADDR(in->addr.imm) && IR_ADDR_LOC(in->addr.imm) < 64)
                    m |= (uint64_t)1 << IR_ADDR_LOC(in->addr.imm);
            }
    }
    return m;
}

static bool is_mutex_addr(uint64_t mutexes, ir_operand o)
{
    return o.kind == IR_OPND_IMM && IR_IS_ADDR(o.imm) && IR_ADDR_LOC(o.imm) < 64 &&
           (mutexes >> IR_ADDR_LOC(o.imm) & 1);
}

/* The mutex C observes (its location), or -1. */
static int observed_mutex(const ir_cond *c, uint64_t mutexes)
{
    if (!c)
        return -1;
    if (c->kind == IR_C_ATOM) {
        if (c->lhs.kind == IR_OBS_MEM && c->lhs.loc < 64 && (mutexes >> c->lhs.loc & 1))
            return c->lhs.loc;
        if (c->rhs_is_obs && c->rhs_obs.kind == IR_OBS_MEM && c->rhs_obs.loc < 64 && (mutexes >> c->rhs_obs.loc & 1))
            return c->rhs_obs.loc;
        return -1;
    }
    int l = observed_mutex(c->l, mutexes);
    return l >= 0 ? l : observed_mutex(c->r, mutexes);
}

/* The first lock or unlock of mutex LOC: where a message about it points. */
static const ir_instr *first_use(const ir_test *t, int loc)
{
    for (int i = 0; i < t->nthreads; i++)
        for (int b = 0; b < t->threads[i].nblocks; b++)
            for (int k = 0; k < t->threads[i].blocks[b].ninstrs; k++) {
                const ir_instr *in = &t->threads[i].blocks[b].instrs[k];
                if ((in->op == IR_LOCK || in->op == IR_UNLOCK) && IR_ADDR_LOC(in->addr.imm) == loc)
                    return in;
            }
    return NULL;
}

/* Mutexes are not data: the discipline above is all a thread can do with one. */
static bool apart_from_data(const ir_test *t, uint64_t mutexes, diag *d)
{
    for (int i = 0; i < t->nthreads; i++) {
        const ir_thread *th = &t->threads[i];
        for (int r = 0; r < th->ninit_regs; r++)
            if (is_mutex_addr(mutexes, th->init_regs[r].value))
                return diag_error(d, t->file, th->text_line, th->text_col, "register %d:%s holds mutex %s: a mutex is named only by "
                                  "lock and unlock", th->id, th->init_regs[r].name,
                                  t->locs[IR_ADDR_LOC(th->init_regs[r].value.imm)].name);
        for (int b = 0; b < th->nblocks; b++)
            for (int k = 0; k < th->blocks[b].ninstrs; k++) {
                const ir_instr *in = &th->blocks[b].instrs[k];
                bool access = in->op == IR_LOAD || in->op == IR_STORE || in->op == IR_RMW;
                if ((access && is_mutex_addr(mutexes, in->addr)) ||
                    (in->op != IR_LOCK && in->op != IR_UNLOCK &&
                     (is_mutex_addr(mutexes, in->a) || is_mutex_addr(mutexes, in->b))))
                    return diag_error(d, t->file, ir_instr_line(in), ir_instr_col(in), "%s uses mutex %s as data: a mutex is named "
                                      "only by lock and unlock", th->name,
                                      t->locs[IR_ADDR_LOC(is_mutex_addr(mutexes, in->addr) ? in->addr.imm
                                                          : is_mutex_addr(mutexes, in->a) ? in->a.imm
                                                                                         : in->b.imm)].name);
            }
    }
    for (int l = 0; l < t->nlocs && l < 64; l++) {
        const ir_loc *lc = &t->locs[l];
        if (IR_IS_ADDR(lc->init) && IR_ADDR_LOC(lc->init) < 64 && (mutexes >> IR_ADDR_LOC(lc->init) & 1))
            return diag_error(d, t->file, lc->text_line, lc->text_col, "location %s holds mutex %s: a mutex is named only by lock and "
                              "unlock", lc->name, t->locs[IR_ADDR_LOC(lc->init)].name);
        if ((mutexes >> l & 1) && lc->init != 0)
            return diag_error(d, t->file, lc->text_line, lc->text_col, "mutex %s starts locked (%lld): a mutex starts free", lc->name,
                              (long long)lc->init);
    }
    int seen = observed_mutex(t->cond, mutexes);
    if (seen < 0)
        seen = observed_mutex(t->filter, mutexes);
    for (int i = 0; i < t->nlocations && seen < 0; i++)
        if (t->locations[i].kind == IR_OBS_MEM && t->locations[i].loc < 64 && (mutexes >> t->locations[i].loc & 1))
            seen = t->locations[i].loc;
    if (seen >= 0) {
        const ir_instr *in = first_use(t, seen);
        return diag_error(d, t->file, in ? ir_instr_line(in) : t->cond_line, in ? ir_instr_col(in) : t->cond_col,
                          "the condition observes mutex %s, "
                          "which is not data (it is taken here)", t->locs[seen].name);
    }
    return true;
}

/* A cycle in the waits-for-while-holding graph AFTER: the first mutex on
 * one, and the lock where it closes.  Depth-first from each mutex. */
static bool cycle_from(const uint64_t *after, int l, uint64_t *on, uint64_t *done, int *edge_from, int *edge_to)
{
    *on |= (uint64_t)1 << l;
    for (uint64_t n = after[l]; n; n &= n - 1) {
        int m = __builtin_ctzll(n);
        if (*on >> m & 1) {
            *edge_from = l;
            *edge_to = m;
            return true;
        }
        if (!(*done >> m & 1) && cycle_from(after, m, on, done, edge_from, edge_to))
            return true;
    }
    *on &= ~((uint64_t)1 << l);
    *done |= (uint64_t)1 << l;
    return false;
}

bool ir_check_locks(const ir_test *t, diag *d)
{
    uint64_t mutexes = ir_test_mutexes(t);
    if (!mutexes)
        return true;
    if (!apart_from_data(t, mutexes, d))
        return false;
    uint64_t after[64] = {0};
    const ir_instr **where = xcalloc(64 * 64, sizeof *where);
    const ir_thread **where_th = xcalloc(64 * 64, sizeof *where_th);
    bool ok = true;
    for (int i = 0; ok && i < t->nthreads; i++) {
        lwalk w = {t, &t->threads[i], d, 0, after, where, where_th};
        lstate s;
        memset(&s, 0, sizeof s);
        ok = walk_block(&w, 0, &s);
        free(s.tr);
    }
    uint64_t on = 0, done = 0;
    int from = -1, to = -1;
    for (int l = 0; ok && l < 64; l++)
        if (!(done >> l & 1) && cycle_from(after, l, &on, &done, &from, &to)) {
            const ir_instr *in = where[from * 64 + to];
            ok = diag_error(d, t->file, ir_instr_line(in), ir_instr_col(in), "%s takes mutex %s while it holds %s, and %s is also "
                            "taken while %s is held: the threads could deadlock (take mutexes in one order)",
                            where_th[from * 64 + to]->name, t->locs[to].name, t->locs[from].name,
                            t->locs[from].name, t->locs[to].name);
        }
    free(where);
    free(where_th);
    return ok;
}
