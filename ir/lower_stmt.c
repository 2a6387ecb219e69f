/* Statements and expressions of C and Java threads (their ASTs share one
 * shape); the calls, which differ per language, go through a callback. */
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "ir/lower_int.h"
#include "util/mem.h"

static void scan_expr(lw *w, const fe_expr *e)
{
    if (!e)
        return;
    if (e->kind == FE_E_REG && e->name && lw_find_reg(w, e->name) < 0)
        lw_add_reg(w, e->name, false);
    scan_expr(w, e->l);
    scan_expr(w, e->r);
    for (int i = 0; i < e->nargs; i++)
        scan_expr(w, e->args[i]);
}

/* herd gives a thread one flat register namespace: a register declared in
 * a nested block is the same register everywhere in the thread. */
void lw_scan_stmt(lw *w, const fe_stmt *s)
{
    if (!s)
        return;
    if ((s->kind == FE_S_DECL || s->kind == FE_S_ASSIGN) && s->name)
        lw_add_reg(w, s->name, false);
    scan_expr(w, s->e);
    scan_expr(w, s->addr);
    lw_scan_stmt(w, s->then_s);
    lw_scan_stmt(w, s->else_s);
    for (int i = 0; i < s->nbody; i++)
        lw_scan_stmt(w, s->body[i]);
}

static const ir_binop binops[FE_BINOP_COUNT] = {
    [FE_ADD] = IR_ADD, [FE_SUB] = IR_SUB, [FE_MUL] = IR_MUL, [FE_DIV] = IR_DIV,
    [FE_AND] = IR_AND, [FE_OR] = IR_OR, [FE_XOR] = IR_XOR,
    [FE_EQ] = IR_EQ, [FE_NE] = IR_NE, [FE_LT] = IR_LT, [FE_LE] = IR_LE, [FE_GT] = IR_GT, [FE_GE] = IR_GE,
};

/* E, the address of a plain access; a constant that is not a location's
 * address is refused at POS, the message opening with WHAT. */
static bool access_address(lw *w, const fe_expr *e, lw_call_fn call, fe_pos pos, const char *what,
                           ir_operand *out)
{
    if (!lw_expr(w, e, call, out))
        return false;
    if (out->kind == IR_OPND_IMM && !IR_IS_ADDR(out->imm))
        return lw_error(w, pos, "%s %lld, which is not the address of a location", what, (long long)out->imm);
    return true;
}

bool lw_expr(lw *w, const fe_expr *e, lw_call_fn call, ir_operand *out)
{
    ir_operand a, b;
    switch (e->kind) {
    case FE_E_CONST:
        *out = ir_imm(e->value);
        return true;
    case FE_E_REG: {
        int r = lw_find_reg(w, e->name);
        *out = r >= 0 ? w->cur[r] : ir_imm(0);
        return true;
    }
    case FE_E_DEREF:
        /* A plain `*e` is a non-atomic access whatever the declared type
         * (herd: LoadMem with no annotation). */
        if (!access_address(w, e->l, call, e->pos, "dereference of", &a))
            return false;
        *out = lw_load(w, a, IR_MO_NA);
        return true;
    case FE_E_BIN:
        if ((unsigned)e->op >= FE_BINOP_COUNT)
            return lw_error(w, e->pos, "unknown operator");
        if (!lw_expr(w, e->l, call, &a) || !lw_expr(w, e->r, call, &b))
            return false;
        *out = lw_bin(w, binops[e->op], a, b);
        return true;
    case FE_E_CAST:
        return lw_expr(w, e->l, call, out);   /* herd ignores casts */
    case FE_E_CCALL:
    case FE_E_JCALL:
        return call(w, e, out);
    }
    return lw_error(w, e->pos, "unknown expression");
}

static bool lower_if(lw *w, const fe_stmt *s, lw_call_fn call)
{
    ir_operand c;
    if (!lw_expr(w, s->e, call, &c))
        return false;
    /* A constant condition takes one side only, as in herd, whose choice
     * on a known value is no choice. */
    if (c.kind == IR_OPND_IMM)
        return lw_stmt(w, c.imm != 0 ? s->then_s : s->else_s, call);
    /* `if (e)` tests e != 0, which is what br tests. */
    lw_edges else_edges = {0}, join = {0};
    lw_branch(w, c, &else_edges);
    if (!lw_stmt(w, s->then_s, call)) {
        lw_edges_free(&else_edges);
        return false;
    }
    lw_add_fall(w, &join);
    if (s->else_s) {
        /* The else side gets a block of its own. */
        if (w->nregs)
            memcpy(w->cur, else_edges.v[0].vals, (size_t)w->nregs * sizeof *w->cur);
        lw_join(w, &else_edges);    /* a fresh block, reached only from the branch */
        if (!lw_stmt(w, s->else_s, call)) {
            lw_edges_free(&join);
            return false;
        }
        lw_add_fall(w, &join);
    } else {
        lw_edges_append(&join, &else_edges);
    }
    lw_join(w, &join);
    return true;
}

/* `synchronized (M) { ... }`: monitor enter, the body, monitor exit.  A
 * thread that already holds the monitor re-enters it, which the JLS makes
 * a no-op: the inner block's exit does not release it (17.1), so the inner
 * one lowers to its body alone. */
static bool lower_sync(lw *w, const fe_stmt *s, lw_call_fn call)
{
    const char *name = fe_handle_loc(w->ft, w->th->id, s->name);
    if (!name)     /* the frontend checked; a tree built by hand may not be */
        return lw_error(w, s->pos, "synchronized (%s): handle %s is not bound to a location", s->name, s->name);
    int loc = lw_loc(w, name);
    for (int i = 0; i < w->nmonitors; i++)
        if (w->monitors[i] == loc)
            return lw_stmt(w, s->then_s, call);
    ir_operand m = ir_imm(IR_ADDR(loc));
    lw_lock(w, IR_LOCK, IR_LK_MONITOR, m, false);
    VEC_PUSH(w->monitors, w->nmonitors, w->capmonitors, loc);
    bool ok = lw_stmt(w, s->then_s, call);
    w->nmonitors--;
    if (!ok)
        return false;
    lw_set_src(w, s->pos, xasprintf("} (end of synchronized (%s))", s->name));
    lw_lock(w, IR_UNLOCK, IR_LK_MONITOR, m, false);
    return true;
}

bool lw_stmt(lw *w, const fe_stmt *s, lw_call_fn call)
{
    if (!s)
        return true;
    if (s->kind == FE_S_BLOCK) {
        for (int i = 0; i < s->nbody; i++)
            if (!lw_stmt(w, s->body[i], call))
                return false;
        return true;
    }
    lw_set_src(w, s->pos, lw_src_stmt(w->ft, s));
    ir_operand v, addr;
    switch (s->kind) {
    case FE_S_DECL:
        /* `int r;` declares only (herd drops declarations): r keeps its value. */
        if (!s->e)
            return true;
        /* fall through */
    case FE_S_ASSIGN:
        if (!lw_expr(w, s->e, call, &v))
            return false;
        w->cur[lw_find_reg(w, s->name)] = v;
        return true;
    case FE_S_STORE:
        if (!access_address(w, s->addr, call, s->pos, "store through", &addr))
            return false;
        if (!lw_expr(w, s->e, call, &v))
            return false;
        lw_store(w, addr, v, IR_MO_NA);
        return true;
    case FE_S_EXPR:
        return lw_expr(w, s->e, call, &v);
    case FE_S_IF:
        return lower_if(w, s, call);
    case FE_S_SYNC:
        return lower_sync(w, s, call);
    case FE_S_WHILE:
    case FE_S_DO:
        return lw_loop(w, s, call);
    case FE_S_JOIN:
        return lw_join_thread(w, s);
    case FE_S_BLOCK:
        break;
    }
    return lw_error(w, s->pos, "unknown statement");
}
