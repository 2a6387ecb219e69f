/* Loops and Java's join, which the IR (loop-free by design) gets unrolled.
 *
 * `while (c) s` is unrolled the way herd unrolls C's while: the condition
 * is tested, and while it holds the body runs, at most BOUND times (the
 * test's `Unroll=N` info line, else the default, 2 as in herd); the test
 * after the last allowed run ends, where it holds, in a `cut`: a path that
 * is no execution.  `do s while (c);` runs the body once first.
 *
 * Whether a cut can lose an outcome depends on the loop.  One whose
 * iterations only read (a spin loop) loses none: in an execution that runs
 * it K times, the first K-1 runs change nothing the last run does not
 * redo, so dropping them leaves an execution of the same program with the
 * same final state and, axioms being closed under removing events, one the
 * model still allows.  Such a cut is marked `spin`.  Any other cut that a
 * consistent execution reaches means the bound was too small, which the
 * model reports (exit 3).
 *
 * `P2.join()` waits until thread P2 has ended.  The JLS makes it a
 * synchronization action that P2's last action synchronizes with; it is
 * lowered as exactly that: P2 ends with a volatile write of 1 to a location
 * of its own (P2_ended, marked as the end flag it is) and the join is a
 * spin loop of volatile reads until one sees it. */
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "ir/lower_int.h"
#include "util/mem.h"

/* ---- which loops only read ------------------------------------------------ */

static bool reads_only(const fe_expr *e)
{
    if (!e)
        return true;
    switch (e->kind) {
    case FE_E_CONST:
    case FE_E_REG:
        return true;
    case FE_E_DEREF:
    case FE_E_CAST:
        return reads_only(e->l);
    case FE_E_BIN:
        return reads_only(e->l) && reads_only(e->r);
    case FE_E_CCALL:
        if (e->ccall != FE_C_LOAD)
            return false;
        break;
    case FE_E_JCALL:
        if (e->jmethod != FE_J_GET)
            return false;
        break;
    }
    for (int i = 0; i < e->nargs; i++)
        if (!reads_only(e->args[i]))
            return false;
    return true;
}

typedef struct names {
    const char **v;
    size_t n, cap;
} names;

static bool has(const names *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->v[i], name))
            return true;
    return false;
}

/* Registers BODY assigns, in ASSIGNED. */
static void assigned_in(const fe_stmt *s, names *assigned)
{
    if (!s)
        return;
    if ((s->kind == FE_S_DECL || s->kind == FE_S_ASSIGN) && s->name && !has(assigned, s->name))
        VEC_PUSH(assigned->v, assigned->n, assigned->cap, s->name);
    assigned_in(s->then_s, assigned);
    assigned_in(s->else_s, assigned);
    for (int i = 0; i < s->nbody; i++)
        assigned_in(s->body[i], assigned);
}

/* E reads no register of LOOP_REGS that is not yet in SET. */
static bool uses_set(const fe_expr *e, const names *loop_regs, const names *set)
{
    if (!e)
        return true;
    if (e->kind == FE_E_REG && e->name && has(loop_regs, e->name) && !has(set, e->name))
        return false;
    if (!uses_set(e->l, loop_regs, set) || !uses_set(e->r, loop_regs, set))
        return false;
    for (int i = 0; i < e->nargs; i++)
        if (!uses_set(e->args[i], loop_regs, set))
            return false;
    return true;
}

/* A straight-line body of register assignments from reads, each register
 * it assigns written before it is read: then every run of it computes the
 * same thing from the values it reads, whatever ran before. */
static bool straight_reads(const fe_stmt *s, const names *loop_regs, names *set)
{
    if (!s)
        return true;
    switch (s->kind) {
    case FE_S_BLOCK:
        for (int i = 0; i < s->nbody; i++)
            if (!straight_reads(s->body[i], loop_regs, set))
                return false;
        return true;
    case FE_S_DECL:
        if (!s->e)
            return true;
        /* fall through */
    case FE_S_ASSIGN:
        if (!reads_only(s->e) || !uses_set(s->e, loop_regs, set))
            return false;
        if (!has(set, s->name))
            VEC_PUSH(set->v, set->n, set->cap, s->name);
        return true;
    default:
        return false;
    }
}

bool lw_loop_spins(const fe_stmt *loop)
{
    if (!reads_only(loop->e))
        return false;
    names loop_regs = {0}, set = {0};
    assigned_in(loop->then_s, &loop_regs);
    bool ok = straight_reads(loop->then_s, &loop_regs, &set);
    free(loop_regs.v);
    free(set.v);
    return ok;
}

/* ---- unrolling -------------------------------------------------------------- */

/* Blocks one thread may unroll to: loops nested two deep under Unroll=500
 * make about 250,000 (seconds to lower); three deep under Unroll=1000 would
 * make a billion and exhaust memory first. */
#define IR_MAX_BLOCKS 300000

typedef struct loop_fns {
    bool (*cond)(lw *w, const void *ctx, ir_operand *out);
    bool (*body)(lw *w, const void *ctx);      /* NULL: no body */
    const void *ctx;
    bool first_body;        /* do-while: the body runs once before the first test */
    bool spin;
    fe_pos pos;
    const fe_stmt *src;     /* for the source text of the tests, or NULL */
    const char *text;       /* else this text */
} loop_fns;

static void loop_src(lw *w, const loop_fns *f)
{
    lw_set_src(w, f->pos, f->src ? lw_src_stmt(w->ft, f->src) : xstrdup(f->text));
}

static bool unroll(lw *w, const loop_fns *f)
{
    lw_edges exits = {0};
    if (f->first_body && !f->body(w, f->ctx))
        return false;
    for (int n = f->first_body ? 1 : 0; w->block >= 0; n++) {
        loop_src(w, f);
        ir_operand c;
        if (!f->cond(w, f->ctx, &c)) {
            lw_edges_free(&exits);
            return false;
        }
        if (c.kind == IR_OPND_IMM && c.imm == 0) {
            lw_add_fall(w, &exits);
            break;
        }
        if (c.kind != IR_OPND_IMM) {
            lw_edges out = {0};
            lw_branch(w, c, &out);
            lw_edges_append(&exits, &out);
        }
        if (n >= w->unroll) {
            ir_instr *cut = lw_emit(w, IR_CUT);
            cut->a = ir_imm(w->unroll);
            cut->spin = f->spin;
            w->block = -1;
            break;
        }
        if (f->body && !f->body(w, f->ctx)) {
            lw_edges_free(&exits);
            return false;
        }
        if (w->th->nblocks > IR_MAX_BLOCKS) {
            lw_edges_free(&exits);
            lw_error(w, f->pos, "the loop unrolls thread %s to more than %d blocks (the IR's limit): lower the "
                     "bound (Unroll=N or --unroll N)", w->th->name, IR_MAX_BLOCKS);
            w->d->status = 3;       /* a limit of the tool, not a fault of the test */
            return false;
        }
    }
    if (exits.n == 0) {
        lw_edges_free(&exits);
        return lw_error(w, f->pos,
                        "the loop does not end within its bound of %d iterations whatever the thread reads: "
                        "raise the bound (Unroll=N or --unroll N) if it ends at all",
                        w->unroll);
    }
    lw_join(w, &exits);
    return true;
}

typedef struct stmt_ctx {
    const fe_stmt *s;
    lw_call_fn call;
} stmt_ctx;

static bool stmt_cond(lw *w, const void *ctx, ir_operand *out)
{
    const stmt_ctx *c = ctx;
    return lw_expr(w, c->s->e, c->call, out);
}

static bool stmt_body(lw *w, const void *ctx)
{
    const stmt_ctx *c = ctx;
    return lw_stmt(w, c->s->then_s, c->call);
}

bool lw_loop(lw *w, const fe_stmt *s, lw_call_fn call)
{
    stmt_ctx c = {s, call};
    loop_fns f = {.cond = stmt_cond, .body = stmt_body, .ctx = &c, .first_body = s->kind == FE_S_DO,
                  .spin = lw_loop_spins(s), .pos = s->pos, .src = s};
    return unroll(w, &f);
}

/* ---- join --------------------------------------------------------------------- */

/* The flag's location: THREAD_ended, with '_' added until no source
 * location has the name (a Java test binds every location it uses in its
 * init, so they are all known by the time a thread is lowered).  An
 * identifier, so that the x86 compilation can name it. */
static int end_flag_loc(lw *w, int thread)
{
    char *name = xasprintf("%s_ended", w->ft->threads[thread].name);
    for (;;) {
        int l = ir_find_loc(w->t, name);
        if (l < 0 || (w->t->locs[l].end_flag && w->t->locs[l].end_of == thread))
            break;
        char *longer = xasprintf("%s_", name);
        free(name);
        name = longer;
    }
    int loc = lw_loc(w, name);
    free(name);
    w->t->locs[loc].end_flag = true;
    w->t->locs[loc].end_of = thread;
    return loc;
}

static bool end_flag_unset(lw *w, const void *ctx, ir_operand *out)
{
    const int *loc = ctx;
    ir_operand v = lw_load(w, ir_imm(IR_ADDR(*loc)), IR_JM_VOLATILE);
    *out = lw_bin(w, IR_EQ, v, ir_imm(0));
    return true;
}

bool lw_join_thread(lw *w, const fe_stmt *s)
{
    int target = -1;
    for (int i = 0; i < w->ft->nthreads; i++)
        if (!strcmp(w->ft->threads[i].name, s->name))
            target = i;
    if (target < 0)
        return lw_error(w, s->pos, "%s.join(): the test has no thread %s", s->name, s->name);
    if (target == w->th->id)
        return lw_error(w, s->pos, "%s.join(): a thread cannot join itself", s->name);
    int loc = end_flag_loc(w, target);
    char *text = xasprintf("%s.join();", s->name);
    loop_fns f = {.cond = end_flag_unset, .ctx = &loc, .spin = true, .pos = s->pos, .text = text};
    bool ok = unroll(w, &f);
    free(text);
    return ok;
}

/* Does any thread of FT join thread TH?  Then TH's end is written. */
static bool joins_in(const fe_stmt *s, const char *name)
{
    if (!s)
        return false;
    if (s->kind == FE_S_JOIN && !strcmp(s->name, name))
        return true;
    if (joins_in(s->then_s, name) || joins_in(s->else_s, name))
        return true;
    for (int i = 0; i < s->nbody; i++)
        if (joins_in(s->body[i], name))
            return true;
    return false;
}

bool lw_thread_is_joined(const fe_test *ft, int th)
{
    for (int i = 0; i < ft->nthreads; i++)
        if (i != th && joins_in(ft->threads[i].body, ft->threads[th].name))
            return true;
    return false;
}

void lw_mark_end(lw *w)
{
    int loc = end_flag_loc(w, w->th->id);
    char *text = xasprintf("} (end of %s, which another thread joins)", w->ft_th->name);
    lw_set_src(w, w->ft_th->pos, text);
    lw_store(w, ir_imm(IR_ADDR(loc)), ir_imm(1), IR_JM_VOLATILE);
}

/* Threads that join each other in a cycle never end: refused. */
static bool cycle_from(const fe_test *ft, int th, int *state, int *at)
{
    state[th] = 1;
    for (int j = 0; j < ft->nthreads; j++) {
        if (j == th || !joins_in(ft->threads[th].body, ft->threads[j].name))
            continue;
        if (state[j] == 1) {
            *at = th;
            return true;
        }
        if (state[j] == 0 && cycle_from(ft, j, state, at))
            return true;
    }
    state[th] = 2;
    return false;
}

bool lw_check_joins(lw *w)
{
    const fe_test *ft = w->ft;
    if (ft->nthreads == 0)
        return true;
    int *state = xcalloc((size_t)ft->nthreads, sizeof *state);
    int at = -1;
    bool cyc = false;
    for (int i = 0; i < ft->nthreads && !cyc; i++)
        if (state[i] == 0)
            cyc = cycle_from(ft, i, state, &at);
    free(state);
    if (cyc)
        return lw_error(w, ft->threads[at].pos,
                        "thread %s is in a cycle of joins: the threads wait for each other and never end",
                        ft->threads[at].name);
    return true;
}
