/* Step 1 of compiling to x86: rewrite every access, RMW and fence of a test
 * into the x86 events its scheme compiles it to.  The result is an ir_test
 * with x86 modes whose values, blocks and registers are those of the
 * source, so its behaviour set is directly comparable with the source's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "backends/x86/scheme_internal.h"
#include "util/mem.h"

static ir_cond *copy_cond(const ir_cond *c)
{
    if (!c)
        return NULL;
    ir_cond *n = ir_cond_new(c->kind);
    *n = *c;
    n->lhs.reg = c->lhs.reg ? xstrdup(c->lhs.reg) : NULL;
    n->rhs_obs.reg = c->rhs_obs.reg ? xstrdup(c->rhs_obs.reg) : NULL;
    n->l = copy_cond(c->l);
    n->r = copy_cond(c->r);
    return n;
}

/* Copy everything of T except its threads' code into a new X86 test. */
static ir_test *copy_shell(const ir_test *t)
{
    ir_test *n = ir_test_new(t->name, IR_ARCH_X86);
    n->file = t->file ? xstrdup(t->file) : NULL;
    n->doc = t->doc ? xstrdup(t->doc) : NULL;
    if (t->ninfo) {
        n->info = xcalloc((size_t)t->ninfo, sizeof *n->info);
        for (int i = 0; i < t->ninfo; i++) {
            n->info[i].key = xstrdup(t->info[i].key);
            n->info[i].value = xstrdup(t->info[i].value);
        }
        n->ninfo = t->ninfo;
    }
    for (int i = 0; i < t->nlocs; i++) {
        int k = ir_add_loc(n, t->locs[i].name, t->locs[i].type);
        n->locs[k].init = t->locs[i].init;
        n->locs[k].init_given = t->locs[i].init_given;
    }
    n->quant = t->quant;
    free(n->cond);      /* the fresh test's leaf `true` */
    n->cond = copy_cond(t->cond);
    n->filter = copy_cond(t->filter);
    if (t->nlocations) {
        n->locations = xcalloc((size_t)t->nlocations, sizeof *n->locations);
        for (int i = 0; i < t->nlocations; i++) {
            n->locations[i] = t->locations[i];
            if (t->locations[i].reg)
                n->locations[i].reg = xstrdup(t->locations[i].reg);
        }
        n->nlocations = t->nlocations;
    }
    return n;
}

/* A location name not yet used in T, starting from BASE. */
static int add_fresh_loc(ir_test *t, const char *base)
{
    char name[64];
    snprintf(name, sizeof name, "%s", base);
    for (int k = 1; ir_find_loc(t, name) >= 0; k++)
        snprintf(name, sizeof name, "%s_%d", base, k);
    int l = ir_add_loc(t, name, IR_T_INT);
    t->locs[l].init = 0;
    return l;
}

typedef struct rewriter {
    ir_test *out;
    ir_thread *th;          /* thread being written */
    int block;
    int scratch;            /* its scratch location, or -1 */
    const ir_instr *src;    /* instruction being compiled */
} rewriter;

static ir_instr *emit(rewriter *w, ir_op op)
{
    ir_instr *in = ir_emit(w->th, w->block, op);
    in->line = w->src->line;
    in->col = w->src->col;
    in->src = w->src->src ? xstrdup(w->src->src) : NULL;
    return in;
}

static void emit_barrier(rewriter *w, scheme_item_kind k)
{
    if (k == SI_LOCK_ADD_SCRATCH) {
        if (w->scratch < 0) {
            char base[32];
            snprintf(base, sizeof base, "scratch%d", w->th->id);
            w->scratch = add_fresh_loc(w->out, base);
        }
        ir_instr *in = emit(w, IR_RMW);
        in->dst = ir_new_val(w->th);
        in->addr = ir_imm(IR_ADDR(w->scratch));
        in->a = ir_imm(0);
        in->rmw_op = IR_RMW_ADD;
        in->mode = IR_X86_LOCKED;
        return;
    }
    ir_instr *in = emit(w, IR_FENCE);
    in->fence = k == SI_MFENCE ? IR_FENCE_MFENCE : k == SI_LFENCE ? IR_FENCE_LFENCE : IR_FENCE_SFENCE;
    in->mode = IR_MODE_NONE;
}

/* The access itself, as item IT. */
static void emit_access(rewriter *w, const scheme_item *it)
{
    const ir_instr *s = w->src;
    ir_instr *in;
    switch (s->op) {
    case IR_LOAD:
        if (it->kind == SI_MOV) {
            in = emit(w, IR_LOAD);
            in->mode = IR_X86_PLAIN;
        } else {    /* LOCK XADD of 0: a load that is also a full barrier */
            in = emit(w, IR_RMW);
            in->rmw_op = IR_RMW_ADD;
            in->a = ir_imm(0);
            in->mode = IR_X86_LOCKED;
        }
        in->dst = s->dst;
        in->addr = s->addr;
        break;
    case IR_STORE:
        if (it->kind == SI_MOV) {
            in = emit(w, IR_STORE);
            in->mode = IR_X86_PLAIN;
        } else {    /* XCHG: the old value goes to a register nobody reads */
            in = emit(w, IR_RMW);
            in->rmw_op = IR_RMW_XCHG;
            in->dst = ir_new_val(w->th);
            in->mode = IR_X86_LOCKED;
        }
        in->addr = s->addr;
        in->a = s->a;
        break;
    default:        /* IR_RMW: one locked instruction whatever its order */
        in = emit(w, IR_RMW);
        in->dst = s->dst;
        in->addr = s->addr;
        in->a = s->a;
        in->b = s->b;
        in->rmw_op = s->rmw_op;
        in->mode = IR_X86_LOCKED;
        in->fail_mode = IR_MODE_NONE;
        in->weak = false;   /* LOCK CMPXCHG never fails spuriously, */
        in->flag = -1;
        if (s->flag >= 0) { /* so it wrote exactly when it read the expected value */
            int old = in->dst >= 0 ? in->dst : (in->dst = ir_new_val(w->th));
            ir_instr *eq = emit(w, IR_BIN);
            eq->binop = IR_EQ;
            eq->dst = s->flag;
            eq->a = ir_value(old);
            eq->b = s->b;
        }
        break;
    }
}

/* Locks compile the same under every scheme, as compilers and JVMs do on
 * x86: a lock is an XCHG of 1 that the thread repeats until it reads the
 * mutex free (0) — in the model, the try that did; a trylock a LOCK CMPXCHG
 * of 0 for 1 (taken when it read 0); an unlock a plain MOV of 0 (x86's
 * stores are releases), except a Java monitor's exit, an XCHG, since the
 * monitor's actions are in one total order with the volatile ones. */
static void emit_lock(rewriter *w)
{
    const ir_instr *s = w->src;
    ir_instr *in;
    if (s->op == IR_UNLOCK && s->lock != IR_LK_MONITOR) {
        in = emit(w, IR_STORE);
        in->mode = IR_X86_PLAIN;
        in->addr = s->addr;
        in->a = ir_imm(0);
        return;
    }
    in = emit(w, IR_RMW);
    in->mode = IR_X86_LOCKED;
    in->addr = s->addr;
    in->dst = ir_new_val(w->th);
    int old = in->dst;
    if (s->op == IR_UNLOCK) {
        in->rmw_op = IR_RMW_XCHG;
        in->a = ir_imm(0);
    } else if (s->dst < 0) {
        in->rmw_op = IR_RMW_XCHG;
        in->a = ir_imm(1);
        in->waits = true;
    } else {
        in->rmw_op = IR_RMW_CAS;
        in->a = ir_imm(1);
        in->b = ir_imm(0);
        in->flag = -1;
        ir_instr *eq = emit(w, IR_BIN);
        eq->binop = IR_EQ;
        eq->dst = s->dst;
        eq->a = ir_value(old);
        eq->b = ir_imm(0);
    }
}

static void copy_plain(rewriter *w)
{
    ir_instr *in = emit(w, w->src->op);
    char *src = in->src;
    *in = *w->src;
    in->src = src;
    if (w->src->nphi_args) {
        in->phi_args = xmalloc((size_t)w->src->nphi_args * sizeof *in->phi_args);
        memcpy(in->phi_args, w->src->phi_args, (size_t)w->src->nphi_args * sizeof *in->phi_args);
    }
}

static bool arch_fits(ir_arch test, ir_arch scheme)
{
    if (scheme == IR_ARCH_X86)
        return test == IR_ARCH_X86 || test == IR_ARCH_X86_64;
    return test == scheme;
}

static bool rewrite(rewriter *w, const x86_scheme *s, const ir_test *t, diag *d)
{
    const ir_instr *in = w->src;
    scheme_kind kind;
    switch (in->op) {
    case IR_LOAD: kind = SK_LOAD; break;
    case IR_STORE: kind = SK_STORE; break;
    case IR_RMW: kind = SK_RMW; break;
    case IR_FENCE: kind = SK_FENCE; break;
    case IR_LOCK: case IR_UNLOCK:
        emit_lock(w);
        return true;
    default:
        copy_plain(w);
        return true;
    }
    ir_mode mode = in->op == IR_FENCE && in->fence != IR_FENCE_C ? IR_MODE_NONE : in->mode;
    const scheme_rule *r = scheme_match(s, kind, mode, in->rmw_op, in->fence);
    if (!r) {
        char what[64];
        if (kind == SK_RMW)
            snprintf(what, sizeof what, "rmw %s %s", ir_rmw_name(in->rmw_op), ir_mode_name(in->mode));
        else if (kind == SK_FENCE && in->fence == IR_FENCE_C)
            snprintf(what, sizeof what, "fence c %s", ir_mode_name(in->mode));
        else if (kind == SK_FENCE)
            snprintf(what, sizeof what, "fence %s", ir_fence_name(in->fence));
        else
            snprintf(what, sizeof what, "%s %s", scheme_kind_name(kind), ir_mode_name(in->mode));
        return diag_error(d, t->file, in->line, in->col, "scheme '%s' has no rule for %s%s%s%s", s->name, what,
                          in->src ? " (`" : "", in->src ? in->src : "", in->src ? "`)" : "");
    }
    for (int i = 0; i < r->nitems; i++) {
        if (r->items[i].kind <= SI_LOCK_OP)
            emit_access(w, &r->items[i]);
        else
            emit_barrier(w, r->items[i].kind);
    }
    return true;
}

ir_test *x86_scheme_apply(const ir_test *t, const x86_scheme *s, diag *d)
{
    if (!arch_fits(t->arch, s->arch)) {
        diag_error(d, t->file, 1, 1, "scheme '%s' compiles %s tests, not %s", s->name,
                   ir_arch_name(s->arch), ir_arch_name(t->arch));
        return NULL;
    }
    ir_test *out = copy_shell(t);
    for (int ti = 0; ti < t->nthreads; ti++) {
        const ir_thread *th = &t->threads[ti];
        rewriter w = {out, ir_add_thread(out, th->id, th->name), 0, -1, NULL};
        w.th->nvals = th->nvals;
        for (int b = 0; b < th->nblocks; b++)
            ir_add_block(w.th);
        for (int b = 0; b < th->nblocks; b++) {
            w.block = b;
            for (int i = 0; i < th->blocks[b].ninstrs; i++) {
                w.src = &th->blocks[b].instrs[i];
                if (!rewrite(&w, s, t, d)) {
                    ir_test_free(out);
                    return NULL;
                }
            }
        }
        /* w.th may have moved while threads were added: re-fetch. */
        ir_thread *nth = &out->threads[ti];
        for (int i = 0; i < th->ninit_regs; i++)
            ir_set_init_reg(nth, th->init_regs[i].name, th->init_regs[i].value);
        for (int i = 0; i < th->nfinal_regs; i++)
            ir_set_final_reg(nth, th->final_regs[i].name, th->final_regs[i].value);
    }
    ir_finish(out);
    diag vd = {0};
    if (!ir_verify(out, &vd)) {
        diag_fail(d, "internal error: scheme '%s' produced invalid IR for %s: %s", s->name, t->name, vd.msg);
        ir_test_free(out);
        return NULL;
    }
    return out;
}
