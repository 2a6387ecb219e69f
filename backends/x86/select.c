/* Step 2 of compiling to x86: instruction selection on IR with x86 modes.
 *
 * Each thread's blocks are laid out in topological order (litmus code is
 * loop-free, so every jump goes forward).  Instructions are first selected
 * on virtual registers, one per SSA value plus temporaries (select_instr.c,
 * one instruction at a time); regalloc.c then maps them onto EAX..ESP.
 * Phis become moves at the end of each predecessor; a compare that only
 * feeds branches becomes CMP + JE/JNE. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "backends/x86/select_internal.h"
#include "util/mem.h"

/* Topological order of the blocks from the entry (reverse postorder). */
static void layout(sel *s)
{
    int nb = s->th->nblocks;
    s->order = xcalloc((size_t)nb, sizeof *s->order);
    char *seen = xcalloc((size_t)nb, 1);
    int *post = xcalloc((size_t)nb, sizeof *post), npost = 0;
    int *stack = xcalloc((size_t)nb * 3 + 1, sizeof *stack), *next = xcalloc((size_t)nb, sizeof *next);
    int sp = 0;
    stack[sp++] = 0;
    seen[0] = 1;
    while (sp) {
        int b = stack[sp - 1];
        const ir_block *bl = &s->th->blocks[b];
        const ir_instr *last = bl->ninstrs ? &bl->instrs[bl->ninstrs - 1] : NULL;
        int succ[2], ns = 0;
        if (last && last->op == IR_BR) {
            succ[ns++] = last->then_block;
            succ[ns++] = last->else_block;
        } else if (last && last->op == IR_JMP) {
            succ[ns++] = last->then_block;
        }
        if (next[b] < ns) {
            int c = succ[next[b]++];
            if (c >= 0 && c < nb && !seen[c]) {
                seen[c] = 1;
                stack[sp++] = c;
            }
            continue;
        }
        post[npost++] = b;
        sp--;
    }
    s->norder = npost;
    for (int i = 0; i < npost; i++)
        s->order[i] = post[npost - 1 - i];
    /* The exit block goes last (the code ends there); it has no successor,
     * so the order stays topological.  Only a thread with cut blocks,
     * which have none either, can have it elsewhere. */
    for (int i = 0; i + 1 < npost; i++) {
        const ir_block *bl = &s->th->blocks[s->order[i]];
        if (bl->ninstrs && bl->instrs[bl->ninstrs - 1].op == IR_RET) {
            int b = s->order[i];
            memmove(&s->order[i], &s->order[i + 1], (size_t)(npost - 1 - i) * sizeof *s->order);
            s->order[npost - 1] = b;
            break;
        }
    }
    free(seen);
    free(post);
    free(stack);
    free(next);
}

/* Count uses of every value and find compares that only feed branches. */
static void analyse(sel *s)
{
    int nv = s->th->nvals;
    s->uses = xcalloc((size_t)nv + 1, sizeof *s->uses);
    s->fused = xmalloc(((size_t)nv + 1) * sizeof *s->fused);
    s->def = xcalloc((size_t)nv + 1, sizeof *s->def);
    int *bruses = xcalloc((size_t)nv + 1, sizeof *bruses);
    for (int i = 0; i <= nv; i++)
        s->fused[i] = -1;
#define USE(o) do { if ((o).kind == IR_OPND_VAL && (o).val >= 0 && (o).val < nv) s->uses[(o).val]++; } while (0)
    for (int b = 0; b < s->th->nblocks; b++)
        for (int i = 0; i < s->th->blocks[b].ninstrs; i++) {
            const ir_instr *in = &s->th->blocks[b].instrs[i];
            if (in->dst >= 0 && in->dst < nv)
                s->def[in->dst] = in;
            USE(in->addr);
            USE(in->a);
            USE(in->b);
            for (int k = 0; k < in->nphi_args; k++)
                USE(in->phi_args[k]);
            if (in->op == IR_BR && in->a.kind == IR_OPND_VAL && in->a.val < nv)
                bruses[in->a.val]++;
        }
    for (int i = 0; i < s->th->nfinal_regs; i++)
        USE(s->th->final_regs[i].value);
#undef USE
    for (int v = 0; v < nv; v++) {
        const ir_instr *d = s->def[v];
        if (d && d->op == IR_BIN && (d->binop == IR_EQ || d->binop == IR_NE) && s->uses[v] > 0 &&
            s->uses[v] == bruses[v])
            s->fused[v] = 0;
    }
    free(bruses);
}

/* Registers of THREAD named in condition C, appended to CAND. */
static void cond_regs(const ir_cond *c, int thread, char ***cand, size_t *nc, size_t *cc)
{
    if (!c)
        return;
    if (c->kind == IR_C_ATOM) {
        if (c->lhs.kind == IR_OBS_REG && c->lhs.thread == thread)
            VEC_PUSH(*cand, *nc, *cc, c->lhs.reg);
        if (c->rhs_is_obs && c->rhs_obs.kind == IR_OBS_REG && c->rhs_obs.thread == thread)
            VEC_PUSH(*cand, *nc, *cc, c->rhs_obs.reg);
    }
    cond_regs(c->l, thread, cand, nc, cc);
    cond_regs(c->r, thread, cand, nc, cc);
}

/* Source registers of THREAD that the final state shows (condition,
 * filter, locations), each once. */
static char **observed_regs(const ir_test *t, int thread, int *n)
{
    char **names = NULL, **cand = NULL;
    size_t len = 0, cap = 0, nc = 0, cc = 0;
    for (int i = 0; i < t->nlocations; i++)
        if (t->locations[i].kind == IR_OBS_REG && t->locations[i].thread == thread)
            VEC_PUSH(cand, nc, cc, t->locations[i].reg);
    cond_regs(t->cond, thread, &cand, &nc, &cc);
    cond_regs(t->filter, thread, &cand, &nc, &cc);
    for (size_t i = 0; i < nc; i++) {
        bool dup = !cand[i];
        for (size_t j = 0; j < len && !dup; j++)
            dup = !strcmp(names[j], cand[i]);
        if (!dup)
            VEC_PUSH(names, len, cap, cand[i]);
    }
    free(cand);
    *n = (int)len;
    return names;
}

static void sel_free(sel *s)
{
    free(s->code);
    free(s->vinit);
    free(s->vhint);
    free(s->vinit_set);
    free(s->order);
    free(s->block_label);
    free(s->uses);
    free(s->fused);
    free(s->def);
    free(s->final_vreg);
    free(s->obs_names);
}

/* Select one thread into P->threads[ti]. */
static bool select_thread(x86_prog *p, int ti, diag *d)
{
    const ir_thread *th = &p->target->threads[ti];
    sel s = {0};
    s.t = p->target;
    s.th = th;
    s.d = d;
    s.file = p->source->file;
    s.nvregs = 0;
    for (int v = 0; v < th->nvals; v++)
        sel_new_vreg(&s);
    layout(&s);
    analyse(&s);
    s.block_label = xmalloc((size_t)th->nblocks * sizeof *s.block_label);
    for (int b = 0; b < th->nblocks; b++)
        s.block_label[b] = s.nlabels++;
    /* Which blocks need a label: targets of jumps (all, for simplicity;
     * unused ones are dropped when printing). */
    bool ok = true;
    int exit_pos = -1;
    for (int pos = 0; ok && pos < s.norder; pos++) {
        int b = s.order[pos];
        sel_put_label(&s, s.block_label[b]);
        const ir_block *bl = &th->blocks[b];
        for (int i = 0; ok && i < bl->ninstrs; i++) {
            if (bl->instrs[i].op == IR_RET)
                exit_pos = pos;
            ok = sel_instr(&s, pos, &bl->instrs[i]);
        }
    }
    if (ok && exit_pos != s.norder - 1 && exit_pos >= 0)
        ok = diag_error(d, s.file, 0, 0, "internal error: thread %d's exit block is not last", th->id);
    /* Observed registers: their final values must sit in registers at exit. */
    if (ok) {
        s.obs_names = observed_regs(p->target, th->id, &s.nobs);
        s.final_vreg = xmalloc(((size_t)s.nobs + 1) * sizeof *s.final_vreg);
        for (int i = 0; ok && i < s.nobs; i++) {
            int k = ir_thread_find_reg(th, s.obs_names[i]);
            ir_operand v = k >= 0 ? th->final_regs[k].value : ir_imm(0);
            if (v.kind == IR_OPND_NONE)
                v = ir_imm(0);
            if (v.kind == IR_OPND_VAL && s.fused[v.val] < 0) {
                s.final_vreg[i] = v.val;
            } else if (v.kind == IR_OPND_IMM && IR_IS_ADDR(v.imm)) {
                s.final_vreg[i] = sel_addr_vreg(&s, v.imm);
            } else {
                x86_opnd o;
                s.line = 0;
                ok = sel_value_opnd(&s, v, false, &o);
                s.final_vreg[i] = o.reg;
            }
            /* An X86 source keeps its register names where it can. */
            x86_reg hint = x86_reg_parse(s.obs_names[i]);
            if (ok && hint != X86_NOREG && s.final_vreg[i] >= 0 && s.vhint[s.final_vreg[i]] == X86_NOREG)
                s.vhint[s.final_vreg[i]] = hint;
        }
    }
    if (ok)
        ok = regalloc_thread(&s, &p->threads[ti], p, d);
    sel_free(&s);
    return ok;
}

x86_prog *x86_select(ir_test *target, const ir_test *source, const char *scheme, diag *d)
{
    x86_prog *p = xcalloc(1, sizeof *p);
    p->target = target;
    p->source = source ? source : target;
    p->scheme = xstrdup(scheme ? scheme : "identity");
    p->nthreads = target->nthreads;
    p->threads = xcalloc((size_t)target->nthreads + 1, sizeof *p->threads);
    p->herd_ok = true;
    for (int i = 0; i < target->nlocs; i++)
        if (!x86_loc_name_ok(target->locs[i].name)) {
            int line = 0, col = 0;
            int src_loc = -1;
            for (int k = 0; k < p->source->nlocs; k++)
                if (!strcmp(p->source->locs[k].name, target->locs[i].name))
                    src_loc = k;
            ir_loc_pos(p->source, src_loc, &line, &col);
            diag_error(d, p->source->file, line, col,
                       "location name '%s' cannot appear in x86 code (not an identifier, or an x86 keyword)",
                       target->locs[i].name);
            x86_prog_free(p);
            return NULL;
        }
    for (int ti = 0; ti < target->nthreads; ti++) {
        p->threads[ti].id = target->threads[ti].id;
        p->threads[ti].scratch_loc = -1;
        if (!select_thread(p, ti, d)) {
            x86_prog_free(p);
            return NULL;
        }
    }
    /* Each thread's scratch location is the one named scratch<id>. */
    for (int ti = 0; ti < p->nthreads; ti++)
        for (int i = 0; i < p->threads[ti].ncode; i++) {
            const x86_instr *in = &p->threads[ti].code[i];
            if (in->op == X86_ADD && in->lock && in->dst.kind == X86_O_MEM &&
                !strncmp(target->locs[in->dst.loc].name, "scratch", 7))
                p->threads[ti].scratch_loc = in->dst.loc;
        }
    x86_prog_judge_herd(p);
    return p;
}

x86_prog *x86_compile(const ir_test *t, const x86_scheme *s, diag *d)
{
    x86_scheme *own = NULL;
    if (!s) {
        if (t->arch != IR_ARCH_X86 && t->arch != IR_ARCH_X86_64) {
            diag_error(d, t->file, 1, 1, "a %s test needs a compilation scheme to become x86", ir_arch_name(t->arch));
            return NULL;
        }
        own = x86_scheme_load("x86-identity", d);
        if (!own)
            return NULL;
        s = own;
    }
    ir_test *target = x86_scheme_apply(t, s, d);
    x86_prog *p = target ? x86_select(target, t, x86_scheme_name(s), d) : NULL;
    x86_scheme_free(own);
    return p;
}
