/* Lowering machinery shared by the architectures: the register map,
 * emission with source positions, and forward control flow with phis. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ir/lower_int.h"
#include "util/mem.h"

bool lw_error(lw *w, fe_pos pos, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_error(w->d, w->ft->file, pos.line, pos.col, "%s", msg);
    return false;
}

int lw_find_reg(const lw *w, const char *name)
{
    for (int i = 0; i < w->nregs; i++)
        if (!strcmp(w->regs[i], name))
            return i;
    return -1;
}

/* Initial operand of register NAME of the current thread (init section, else 0). */
static ir_operand lw_init_value(const lw *w, const char *name)
{
    for (int i = 0; i < w->th->ninit_regs; i++)
        if (!strcmp(w->th->init_regs[i].name, name))
            return w->th->init_regs[i].value;
    return ir_imm(0);
}

int lw_add_reg(lw *w, const char *name, bool hidden)
{
    int i = lw_find_reg(w, name);
    if (i >= 0) {
        w->hidden[i] = w->hidden[i] && hidden;
        return i;
    }
    if ((size_t)w->nregs == w->capregs) {
        w->capregs = w->capregs ? 2 * w->capregs : 16;
        w->regs = xrealloc(w->regs, w->capregs * sizeof *w->regs);
        w->hidden = xrealloc(w->hidden, w->capregs * sizeof *w->hidden);
        w->cur = xrealloc(w->cur, w->capregs * sizeof *w->cur);
    }
    w->regs[w->nregs] = xstrdup(name);
    w->hidden[w->nregs] = hidden;
    w->cur[w->nregs] = lw_init_value(w, name);
    return w->nregs++;
}

int lw_loc(lw *w, const char *name)
{
    return ir_add_loc(w->t, name, IR_T_INT);
}

void lw_set_src(lw *w, fe_pos pos, char *src)
{
    free(w->src);
    w->src = src;
    w->line = pos.line;
    w->col = pos.col;
}

ir_instr *lw_emit(lw *w, ir_op op)
{
    ir_instr *in = ir_emit(w->th, w->block, op);
    in->line = w->line;
    in->col = w->col;
    in->src = w->src ? xstrdup(w->src) : NULL;
    return in;
}

static bool is_imm(ir_operand o, ir_val v)
{
    return o.kind == IR_OPND_IMM && o.imm == v;
}

/* Constants are folded, and the identities x+0, x-0, x|0, x^0, x<<0,
 * x>>0, x*1 (either side where it commutes) give x back, so that register
 * moves lowered as arithmetic (CMOVC) stay readable. */
ir_operand lw_bin(lw *w, ir_binop op, ir_operand a, ir_operand b)
{
    ir_val v;
    if (a.kind == IR_OPND_IMM && b.kind == IR_OPND_IMM && ir_binop_eval(op, a.imm, b.imm, &v))
        return ir_imm(v);
    bool zero_id = op == IR_ADD || op == IR_OR || op == IR_XOR;
    if ((zero_id || op == IR_SUB || op == IR_SHL || op == IR_SHR) && is_imm(b, 0))
        return a;
    if (zero_id && is_imm(a, 0))
        return b;
    if (op == IR_MUL && is_imm(b, 1))
        return a;
    if (op == IR_MUL && is_imm(a, 1))
        return b;
    ir_instr *in = lw_emit(w, IR_BIN);
    in->binop = op;
    in->a = a;
    in->b = b;
    in->dst = ir_new_val(w->th);
    return ir_value(in->dst);
}

ir_operand lw_load(lw *w, ir_operand addr, ir_mode mode)
{
    ir_instr *in = lw_emit(w, IR_LOAD);
    in->addr = addr;
    in->mode = mode;
    in->dst = ir_new_val(w->th);
    return ir_value(in->dst);
}

void lw_store(lw *w, ir_operand addr, ir_operand v, ir_mode mode)
{
    ir_instr *in = lw_emit(w, IR_STORE);
    in->addr = addr;
    in->a = v;
    in->mode = mode;
}

static ir_instr *emit_rmw(lw *w, ir_rmw_op op, ir_operand addr, ir_operand v, ir_mode mode)
{
    ir_instr *in = lw_emit(w, IR_RMW);
    in->rmw_op = op;
    in->addr = addr;
    in->a = v;
    in->mode = mode;
    in->dst = ir_new_val(w->th);
    return in;
}

ir_operand lw_rmw(lw *w, ir_rmw_op op, ir_operand addr, ir_operand v, ir_mode mode)
{
    return ir_value(emit_rmw(w, op, addr, v, mode)->dst);
}

ir_instr *lw_cas(lw *w, ir_operand addr, ir_operand expected, ir_operand v, ir_mode mode, ir_mode fail_mode)
{
    ir_instr *in = emit_rmw(w, IR_RMW_CAS, addr, v, mode);
    in->b = expected;
    in->fail_mode = fail_mode;
    return in;
}

void lw_fence(lw *w, ir_fence_kind k, ir_mode mode)
{
    ir_instr *in = lw_emit(w, IR_FENCE);
    in->fence = k;
    in->mode = mode;
}

ir_operand lw_lock(lw *w, ir_op op, ir_lock_kind k, ir_operand mutex, bool try)
{
    ir_instr *in = lw_emit(w, op);
    in->lock = k;
    in->addr = mutex;
    if (!try)
        return ir_imm(0);
    in->dst = ir_new_val(w->th);
    return ir_value(in->dst);
}

/* Every register's current operand, for an edge leaving the block (malloc'd). */
static ir_operand *lw_snapshot(const lw *w)
{
    ir_operand *s = xmalloc(((size_t)w->nregs + 1) * sizeof *s);
    if (w->nregs)
        memcpy(s, w->cur, (size_t)w->nregs * sizeof *s);
    return s;
}

static void push_edge(lw_edges *e, int block, int instr, int side, ir_operand *vals)
{
    lw_edge x = {block, instr, side, vals};
    VEC_PUSH(e->v, e->n, e->cap, x);
}

void lw_add_fall(lw *w, lw_edges *e)
{
    if (w->block >= 0)
        push_edge(e, w->block, -1, LW_FALL, lw_snapshot(w));
}

/* End the current block with BR COND: side PENDING (LW_THEN or LW_ELSE) is
 * left pending in EDGES, the other goes to a fresh block that becomes
 * current. */
static void branch(lw *w, ir_operand cond, lw_edges *edges, int pending)
{
    ir_instr *br = lw_emit(w, IR_BR);
    br->a = cond;
    int from = w->block, idx = w->th->blocks[from].ninstrs - 1;
    push_edge(edges, from, idx, pending, lw_snapshot(w));
    int nb = ir_add_block(w->th);
    /* Looked up again: adding a block may have moved the block array. */
    ir_instr *in = &w->th->blocks[from].instrs[idx];
    if (pending == LW_ELSE)
        in->then_block = nb;
    else
        in->else_block = nb;
    w->block = nb;
}

void lw_branch(lw *w, ir_operand cond, lw_edges *else_edges)
{
    branch(w, cond, else_edges, LW_ELSE);
}

void lw_branch_then(lw *w, ir_operand cond, lw_edges *then_edges)
{
    branch(w, cond, then_edges, LW_THEN);
}

void lw_jump(lw *w, lw_edges *e)
{
    lw_emit(w, IR_JMP);
    int from = w->block;
    push_edge(e, from, w->th->blocks[from].ninstrs - 1, LW_THEN, lw_snapshot(w));
    w->block = -1;
}

void lw_edges_free(lw_edges *e)
{
    for (size_t i = 0; i < e->n; i++)
        free(e->v[i].vals);
    free(e->v);
    memset(e, 0, sizeof *e);
}

void lw_edges_append(lw_edges *to, lw_edges *from)
{
    for (size_t i = 0; i < from->n; i++)
        VEC_PUSH(to->v, to->n, to->cap, from->v[i]);
    free(from->v);
    memset(from, 0, sizeof *from);
}

static int edge_cmp(const void *a, const void *b)
{
    const lw_edge *x = a, *y = b;
    return (x->block > y->block) - (x->block < y->block);
}

static bool same_operand(ir_operand a, ir_operand b)
{
    if (a.kind != b.kind)
        return false;
    return a.kind == IR_OPND_VAL ? a.val == b.val : a.kind == IR_OPND_IMM ? a.imm == b.imm : true;
}

void lw_join(lw *w, lw_edges *e)
{
    if (e->n == 0) {
        w->block = -1;
        lw_edges_free(e);
        return;
    }
    /* A lone fall-through edge continues in its own block. */
    if (e->n == 1 && e->v[0].side == LW_FALL) {
        w->block = e->v[0].block;
        if (w->nregs)
            memcpy(w->cur, e->v[0].vals, (size_t)w->nregs * sizeof *w->cur);
        lw_edges_free(e);
        return;
    }
    int nb = ir_add_block(w->th);
    for (size_t i = 0; i < e->n; i++) {
        lw_edge *x = &e->v[i];
        if (x->side == LW_FALL) {
            ir_instr *j = ir_emit(w->th, x->block, IR_JMP);
            j->then_block = nb;
        } else {
            ir_instr *t = &w->th->blocks[x->block].instrs[x->instr];
            if (x->side == LW_THEN)
                t->then_block = nb;
            else
                t->else_block = nb;
        }
    }
    /* ir_finish lists predecessors by increasing block index: phis follow that. */
    qsort(e->v, e->n, sizeof *e->v, edge_cmp);
    w->block = nb;
    for (int r = 0; r < w->nregs; r++) {
        bool same = true;
        for (size_t i = 1; i < e->n && same; i++)
            same = same_operand(e->v[i].vals[r], e->v[0].vals[r]);
        if (same) {
            w->cur[r] = e->v[0].vals[r];
            continue;
        }
        ir_instr *phi = ir_emit(w->th, nb, IR_PHI);
        phi->dst = ir_new_val(w->th);
        phi->nphi_args = (int)e->n;
        phi->phi_args = xmalloc(e->n * sizeof *phi->phi_args);
        for (size_t i = 0; i < e->n; i++)
            phi->phi_args[i] = e->v[i].vals[r];
        w->cur[r] = ir_value(phi->dst);
    }
    lw_edges_free(e);
}
