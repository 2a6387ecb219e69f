/* The IR verifier: every property consumers rely on, checked once, so that
 * the model and the backends can walk the IR without defensive checks.
 *
 * Per thread: blocks end in exactly one terminator and start with their
 * phis; the control-flow graph is acyclic and every block is reachable from
 * the entry; exactly one RET; every SSA value is defined once, and each use
 * is dominated by its definition (a phi argument by the end of the
 * corresponding predecessor); phis have one argument per predecessor;
 * operands have the kinds their instruction needs; access modes belong to
 * the test's architecture.  Per test: location and register names are
 * unique, thread i has id i, and every observable of the condition, the
 * filter and `locations` names an existing thread register or location. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ir/ir.h"
#include "ir/isa_rules.h"
#include "util/mem.h"

typedef struct vctx {
    const ir_test *t;
    diag *d;
    const ir_thread *th;
    int *idom;          /* immediate dominator per block (-1 entry/unreached) */
    int *rpo_index;     /* position in reverse postorder, -1 unreachable */
    int *def_block, *def_index;
    int line, col;      /* where a complaint without an instruction points (a block's label,
                           the condition, a location in an IR text), else 0 */
} vctx;

/* Record the first error: "invalid IR: thread N: ..." at the position of
 * the offending instruction when it has one (its place in an IR text
 * first), else at the block, condition or location being checked (C->LINE),
 * else at the thread's line in an IR text.  Always returns false. */
static bool fail_fmt(vctx *c, const ir_instr *in, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail_fmt(vctx *c, const ir_instr *in, const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int line = in ? ir_instr_line(in) : 0, col = in ? ir_instr_col(in) : 0;
    if (!line && c->line)
        line = c->line, col = c->col;
    if (!line && c->th)
        line = c->th->text_line, col = c->th->text_col;
    if (c->th)
        return diag_error(c->d, c->t->file, line, col, "invalid IR: thread %d: %s", c->th->id, msg);
    return diag_error(c->d, c->t->file, line, col, "invalid IR: %s", msg);
}
#define FAIL(c, in, ...) fail_fmt((c), (in), __VA_ARGS__)

bool ir_mode_legal(ir_arch arch, ir_op op, ir_mode m)
{
    const ir_isa_rules *r = ir_isa_rules_of(arch);
    if (r)
        return r->mode_legal(op, m);
    switch (arch) {
    case IR_ARCH_C:
        switch (op) {
        case IR_LOAD: return m == IR_MO_NA || m == IR_MO_RLX || m == IR_MO_CON || m == IR_MO_ACQ || m == IR_MO_SC;
        case IR_STORE: return m == IR_MO_NA || m == IR_MO_RLX || m == IR_MO_REL || m == IR_MO_SC;
        case IR_RMW:
        case IR_FENCE: return m >= IR_MO_RLX && m <= IR_MO_SC;
        default: return false;
        }
    case IR_ARCH_JAVA:
        switch (op) {
        case IR_LOAD: return m == IR_JM_PLAIN || m == IR_JM_OPAQUE || m == IR_JM_ACQUIRE || m == IR_JM_VOLATILE;
        case IR_STORE: return m == IR_JM_PLAIN || m == IR_JM_OPAQUE || m == IR_JM_RELEASE || m == IR_JM_VOLATILE;
        case IR_RMW: return m >= IR_JM_PLAIN && m <= IR_JM_VOLATILE;
        default: return false;
        }
    default: return false;     /* an instruction set: its rules answered */
    }
}

/* The read mode of a failed CAS: none (= the success mode), or a load mode. */
static bool fail_mode_legal(ir_arch arch, ir_mode m)
{
    return m == IR_MODE_NONE || (ir_mode_legal(arch, IR_LOAD, m) && m != IR_MO_NA);
}

static bool fence_legal(ir_arch arch, const ir_instr *in)
{
    const ir_isa_rules *r = ir_isa_rules_of(arch);
    if (r)
        return r->fence_legal(in);
    switch (arch) {
    case IR_ARCH_C:
        return in->fence == IR_FENCE_C && ir_mode_legal(arch, IR_FENCE, in->mode);
    case IR_ARCH_JAVA:
        return in->fence >= IR_FENCE_J_FULL && in->fence <= IR_FENCE_J_STORESTORE && in->mode == IR_MODE_NONE;
    default: return false;     /* an instruction set: its rules answered */
    }
}

static bool is_term(ir_op op) { return op == IR_BR || op == IR_JMP || op == IR_RET || op == IR_CUT; }

static int successors(const ir_block *bl, int succ[2])
{
    const ir_instr *last = &bl->instrs[bl->ninstrs - 1];
    if (last->op == IR_BR) {
        succ[0] = last->then_block;
        succ[1] = last->else_block;
        return 2;
    }
    if (last->op == IR_JMP) {
        succ[0] = last->then_block;
        return 1;
    }
    return 0;
}

/* Depth-first search: postorder, and detection of a cycle (a back edge).
 * Iterative, with the path kept on the heap: an unrolled loop nest makes a
 * chain of hundreds of thousands of blocks, deeper than any stack. */
static bool dfs(vctx *c, int root, int *state, int *post, int *npost)
{
    int n = c->th->nblocks;
    int *stack = xmalloc((size_t)n * sizeof *stack);   /* blocks on the path */
    int *next = xcalloc((size_t)n, sizeof *next);      /* per block: successors tried */
    int top = 0;
    bool ok = true;
    stack[top++] = root;
    state[root] = 1;
    while (ok && top > 0) {
        int b = stack[top - 1];
        int succ[2];
        int ns = successors(&c->th->blocks[b], succ);
        if (next[b] == ns) {
            state[b] = 2;
            post[(*npost)++] = b;
            top--;
            continue;
        }
        int s = succ[next[b]++];
        if (state[s] == 1) {
            ok = FAIL(c, &c->th->blocks[b].instrs[c->th->blocks[b].ninstrs - 1],
                      "block %d jumps back to block %d: the IR is loop-free", b, s);
        } else if (state[s] == 0) {
            state[s] = 1;
            stack[top++] = s;
        }
    }
    free(stack);
    free(next);
    return ok;
}

static int intersect(const vctx *c, int a, int b)
{
    while (a != b) {
        while (c->rpo_index[a] > c->rpo_index[b])
            a = c->idom[a];
        while (c->rpo_index[b] > c->rpo_index[a])
            b = c->idom[b];
    }
    return a;
}

/* Cooper, Harvey and Kennedy's iterative algorithm; on an acyclic graph one
 * pass in reverse postorder already reaches the fixpoint. */
static void dominators(vctx *c, const int *rpo, int n)
{
    const ir_thread *th = c->th;
    for (int i = 0; i < th->nblocks; i++)
        c->idom[i] = -1;
    c->idom[rpo[0]] = rpo[0];
    for (int k = 1; k < n; k++) {
        int b = rpo[k], nd = -1;
        const ir_block *bl = &th->blocks[b];
        for (int p = 0; p < bl->npreds; p++) {
            int q = bl->preds[p];
            if (c->idom[q] < 0)
                continue;
            nd = nd < 0 ? q : intersect(c, q, nd);
        }
        c->idom[b] = nd;
    }
}

static bool dominates(const vctx *c, int a, int b)
{
    for (;;) {
        if (a == b)
            return true;
        if (c->idom[b] == b || c->idom[b] < 0)
            return false;
        b = c->idom[b];
    }
}

static bool check_operand(vctx *c, const ir_instr *in, ir_operand o, const char *what, bool address)
{
    switch (o.kind) {
    case IR_OPND_NONE:
        return FAIL(c, in, "%s %s operand is missing", ir_op_name(in->op), what);
    case IR_OPND_VAL:
        if (o.val < 0 || o.val >= c->th->nvals)
            return FAIL(c, in, "%s %s operand %%%d is not a value of the thread", ir_op_name(in->op), what, o.val);
        return true;
    case IR_OPND_IMM:
        if (IR_IS_ADDR(o.imm) && (IR_ADDR_LOC(o.imm) < 0 || IR_ADDR_LOC(o.imm) >= c->t->nlocs))
            return FAIL(c, in, "%s %s operand is the address of no location", ir_op_name(in->op), what);
        if (address && !IR_IS_ADDR(o.imm))
            return FAIL(c, in, "%s address operand is the integer %lld, not an address", ir_op_name(in->op),
                        (long long)o.imm);
        return true;
    }
    return FAIL(c, in, "%s %s operand has an unknown kind", ir_op_name(in->op), what);
}

static bool check_absent(vctx *c, const ir_instr *in, ir_operand o, const char *what)
{
    if (o.kind != IR_OPND_NONE)
        return FAIL(c, in, "%s takes no %s operand", ir_op_name(in->op), what);
    return true;
}

static bool check_target(vctx *c, const ir_instr *in, int b)
{
    if (b < 0 || b >= c->th->nblocks)
        return FAIL(c, in, "%s targets block %d, which does not exist", ir_op_name(in->op), b);
    if (b == 0)
        return FAIL(c, in, "%s targets the entry block", ir_op_name(in->op));
    return true;
}

/* Shape of one instruction: destination, operands, modes, targets. */
static bool check_shape(vctx *c, const ir_instr *in)
{
    const ir_arch arch = c->t->arch;
    /* a store-exclusive defines its status (0 written, 1 failed) */
    bool has_dst = in->op == IR_LOAD || in->op == IR_RMW || in->op == IR_BIN || in->op == IR_PHI ||
                   (in->op == IR_STORE && in->excl);
    if (has_dst && (in->dst < 0 || in->dst >= c->th->nvals))
        return FAIL(c, in, "%s defines no valid value (dst %d)", ir_op_name(in->op), in->dst);
    if (in->op == IR_LOCK && in->dst >= c->th->nvals)
        return FAIL(c, in, "trylock defines no valid value (dst %d)", in->dst);
    if (!has_dst && in->op != IR_LOCK && in->dst != -1)
        return FAIL(c, in, "%s cannot define a value", ir_op_name(in->op));
    if (in->op != IR_PHI && in->nphi_args)
        return FAIL(c, in, "%s has phi arguments", ir_op_name(in->op));
    const ir_isa_rules *rules = ir_isa_rules_of(arch);
    if (in->excl && !(rules && rules->excl_legal(in->op)))
        return FAIL(c, in, "only an AArch64 load or store is exclusive%s", "");
    if (in->noret && !(rules && rules->noret_legal(in->op)))
        return FAIL(c, in, "only an AArch64 rmw discards its result (noret)%s", "");
    bool cas = in->op == IR_RMW && in->rmw_op == IR_RMW_CAS;
    if (!cas && in->flag != -1)
        return FAIL(c, in, "only a cas has a success flag (ok %%%d)", in->flag);
    if (cas && in->flag != -1 && (in->flag < 0 || in->flag >= c->th->nvals || in->flag == in->dst))
        return FAIL(c, in, "cas success flag %%%d is not a valid new value", in->flag);
    switch (in->op) {
    case IR_LOAD:
        if (!check_operand(c, in, in->addr, "address", true) || !check_absent(c, in, in->a, "value") ||
            !check_absent(c, in, in->b, "second"))
            return false;
        break;
    case IR_STORE:
        if (!check_operand(c, in, in->addr, "address", true) || !check_operand(c, in, in->a, "value", false) ||
            !check_absent(c, in, in->b, "second"))
            return false;
        break;
    case IR_RMW:
        if ((unsigned)in->rmw_op >= IR_RMW_COUNT)
            return FAIL(c, in, "rmw has an unknown operation %d", (int)in->rmw_op);
        if (!check_operand(c, in, in->addr, "address", true) || !check_operand(c, in, in->a, "value", false))
            return false;
        if (in->rmw_op == IR_RMW_CAS) {
            if (!check_operand(c, in, in->b, "expected", false))
                return false;
            if (!fail_mode_legal(arch, in->fail_mode))
                return FAIL(c, in, "cas failure mode '%s' is not a %s read mode", ir_mode_name(in->fail_mode),
                            ir_arch_name(arch));
        } else {
            if (!check_absent(c, in, in->b, "expected"))
                return false;
            if (in->fail_mode != IR_MODE_NONE || in->weak)
                return FAIL(c, in, "only a cas has a failure mode or a weak form%s", "");
            if (in->waits && in->rmw_op != IR_RMW_XCHG)
                return FAIL(c, in, "only an xchg waits%s", "");
        }
        break;
    case IR_FENCE:
        if (!check_absent(c, in, in->addr, "address") || !check_absent(c, in, in->a, "value") ||
            !check_absent(c, in, in->b, "second"))
            return false;
        if ((unsigned)in->fence >= IR_FENCE_COUNT || !fence_legal(arch, in))
            return FAIL(c, in, "fence %s%s%s is not a %s fence", ir_fence_name(in->fence),
                        in->mode ? "." : "", in->mode ? ir_mode_name(in->mode) : "", ir_arch_name(arch));
        return true;
    case IR_LOCK:
    case IR_UNLOCK:
        if ((unsigned)in->lock >= IR_LK_COUNT)
            return FAIL(c, in, "%s has an unknown lock kind %d", ir_op_name(in->op), (int)in->lock);
        if (in->op == IR_UNLOCK && in->dst >= 0)
            return FAIL(c, in, "unlock has no result%s", "");
        if (in->addr.kind != IR_OPND_IMM || !IR_IS_ADDR(in->addr.imm) ||
            IR_ADDR_LOC(in->addr.imm) >= c->t->nlocs || IR_ADDR_LOC(in->addr.imm) >= 64)
            return FAIL(c, in, "%s names its mutex directly, as one of the first 64 locations", ir_op_name(in->op));
        return check_absent(c, in, in->a, "value") && check_absent(c, in, in->b, "second");
    case IR_BIN:
        if ((unsigned)in->binop >= IR_BINOP_COUNT)
            return FAIL(c, in, "bin has an unknown operator %d", (int)in->binop);
        return check_operand(c, in, in->a, "left", false) && check_operand(c, in, in->b, "right", false) &&
               check_absent(c, in, in->addr, "address");
    case IR_PHI:
        return check_absent(c, in, in->addr, "address") && check_absent(c, in, in->a, "value") &&
               check_absent(c, in, in->b, "second");
    case IR_BR:
        if (!check_operand(c, in, in->a, "condition", false) || !check_absent(c, in, in->addr, "address") ||
            !check_absent(c, in, in->b, "second") || !check_target(c, in, in->then_block) ||
            !check_target(c, in, in->else_block))
            return false;
        if (in->then_block == in->else_block)
            return FAIL(c, in, "br has the same block %d on both sides (use jmp)", in->then_block);
        return true;
    case IR_JMP:
        return check_absent(c, in, in->a, "value") && check_absent(c, in, in->addr, "address") &&
               check_target(c, in, in->then_block);
    case IR_RET:
        return check_absent(c, in, in->a, "value") && check_absent(c, in, in->addr, "address");
    case IR_CUT:
        if (in->a.kind != IR_OPND_IMM || in->a.imm < 1)
            return FAIL(c, in, "cut needs its unrolling bound, a number of at least 1");
        return check_absent(c, in, in->addr, "address") && check_absent(c, in, in->b, "second");
    default:
        return FAIL(c, in, "unknown instruction code %d", (int)in->op);
    }
    /* Memory accesses: the mode. */
    if (!ir_mode_legal(arch, in->op, in->mode))
        return FAIL(c, in, "access mode '%s' is not legal for a %s %s", ir_mode_name(in->mode),
                    ir_arch_name(arch), ir_op_name(in->op));
    return true;
}

/* A use of value V at instruction IDX of block B (IDX = INT_MAX: at the end). */
static bool check_use(vctx *c, const ir_instr *in, ir_operand o, int b, int idx)
{
    if (o.kind != IR_OPND_VAL)
        return true;
    int v = o.val;
    if (c->def_block[v] < 0)
        return FAIL(c, in, "%%%d is used but never defined", v);
    int db = c->def_block[v];
    if (db == b ? c->def_index[v] < idx : dominates(c, db, b))
        return true;
    if (db == b)
        return FAIL(c, in, "%%%d is used before its definition in block %d", v, b);
    return FAIL(c, in, "the definition of %%%d in block %d does not dominate its use", v, db);
}

static bool check_thread(vctx *c)
{
    const ir_thread *th = c->th;
    if (th->nblocks == 0)
        return FAIL(c, NULL, "the thread has no blocks%s", "");
    int nret = 0;
    /* Terminators last, phis first, one RET. */
    for (int b = 0; b < th->nblocks; b++) {
        const ir_block *bl = &th->blocks[b];
        c->line = bl->text_line, c->col = bl->text_col;
        if (bl->ninstrs == 0)
            return FAIL(c, NULL, "block %d is empty (it needs a terminator)", b);
        bool past_phis = false;
        for (int i = 0; i < bl->ninstrs; i++) {
            const ir_instr *in = &bl->instrs[i];
            bool last = i == bl->ninstrs - 1;
            if (is_term(in->op) != last)
                return last ? FAIL(c, in, "block %d does not end with br, jmp, ret or cut", b)
                            : FAIL(c, in, "%s is not the last instruction of block %d", ir_op_name(in->op), b);
            if (in->op == IR_PHI && past_phis)
                return FAIL(c, in, "phi after a non-phi instruction in block %d", b);
            if (in->op != IR_PHI)
                past_phis = true;
            if (in->op == IR_RET)
                nret++;
            if (!check_shape(c, in))
                return false;
        }
    }
    c->line = c->col = 0;
    if (nret != 1)
        return FAIL(c, NULL, "the thread has %d ret instructions, not exactly one", nret);

    /* Reachability, acyclicity, dominators. */
    int n = th->nblocks;
    int *state = xcalloc((size_t)n, sizeof *state);
    int *post = xmalloc((size_t)n * sizeof *post);
    int npost = 0;
    bool ok = dfs(c, 0, state, post, &npost);
    for (int b = 0; ok && b < n; b++)
        if (!state[b])
            ok = FAIL(c, &th->blocks[b].instrs[0], "block %d is unreachable", b);
    free(state);
    if (!ok) {
        free(post);
        return false;
    }
    int *rpo = xmalloc((size_t)n * sizeof *rpo);
    for (int k = 0; k < n; k++) {
        rpo[k] = post[n - 1 - k];
        c->rpo_index[rpo[k]] = k;
    }
    free(post);
    dominators(c, rpo, n);
    free(rpo);

    /* Predecessor lists must be current (ir_finish) and phis must match them. */
    /* One pass over the edges: a loop nest unrolled to 250,000 blocks. */
    int *count = xcalloc((size_t)n, sizeof *count);
    for (int p = 0; p < n; p++) {
        int succ[2], ns = successors(&th->blocks[p], succ);
        for (int s = 0; s < ns; s++)
            count[succ[s]]++;
    }
    for (int b = 0; b < n; b++) {
        c->line = th->blocks[b].text_line, c->col = th->blocks[b].text_col;
        if (count[b] != th->blocks[b].npreds) {
            free(count);
            return FAIL(c, NULL, "block %d's predecessor list is stale (call ir_finish)", b);
        }
    }
    free(count);

    c->line = c->col = 0;
    /* Definitions. */
    for (int v = 0; v < th->nvals; v++)
        c->def_block[v] = -1;
    for (int b = 0; b < n; b++)
        for (int i = 0; i < th->blocks[b].ninstrs; i++) {
            const ir_instr *in = &th->blocks[b].instrs[i];
            int defs[2] = {in->dst, in->flag};
            for (int k = 0; k < 2; k++) {
                if (defs[k] < 0)
                    continue;
                if (c->def_block[defs[k]] >= 0)
                    return FAIL(c, in, "%%%d is defined twice", defs[k]);
                c->def_block[defs[k]] = b;
                c->def_index[defs[k]] = i;
            }
        }

    /* Types: a comparison gives 0 or 1, never an address. */
    for (int b = 0; b < n; b++)
        for (int i = 0; i < th->blocks[b].ninstrs; i++) {
            const ir_instr *in = &th->blocks[b].instrs[i];
            if ((in->op == IR_LOAD || in->op == IR_STORE || in->op == IR_RMW) && in->addr.kind == IR_OPND_VAL) {
                int v = in->addr.val, db = c->def_block[v];
                const ir_instr *def = db >= 0 ? &th->blocks[db].instrs[c->def_index[v]] : NULL;
                if (def && def->op == IR_BIN && def->binop >= IR_EQ)
                    return FAIL(c, in, "%s address %%%d is the result of a comparison, not an address",
                                ir_op_name(in->op), v);
            }
        }

    /* Uses. */
    int ret_block = -1, ret_index = -1;
    for (int b = 0; b < n; b++) {
        const ir_block *bl = &th->blocks[b];
        for (int i = 0; i < bl->ninstrs; i++) {
            const ir_instr *in = &bl->instrs[i];
            if (in->op == IR_RET) {
                ret_block = b;
                ret_index = i;
            }
            if (in->op == IR_PHI) {
                if (in->nphi_args != bl->npreds)
                    return FAIL(c, in, "phi has %d arguments but block %d has %d predecessors", in->nphi_args, b,
                                bl->npreds);
                for (int k = 0; k < in->nphi_args; k++) {
                    if (in->phi_args[k].kind == IR_OPND_NONE)
                        return FAIL(c, in, "phi argument %d is missing", k);
                    if (!check_operand(c, in, in->phi_args[k], "argument", false) ||
                        !check_use(c, in, in->phi_args[k], bl->preds[k], INT_MAX))
                        return false;
                }
                continue;
            }
            if (!check_use(c, in, in->addr, b, i) || !check_use(c, in, in->a, b, i) ||
                !check_use(c, in, in->b, b, i))
                return false;
        }
    }

    /* Registers: sorted unique names; initial values are constants; final
     * values are available at the RET. */
    for (int i = 0; i < th->ninit_regs; i++) {
        if (!th->init_regs[i].name || !th->init_regs[i].name[0])
            return FAIL(c, NULL, "initial register %d has no name", i);
        if (i && strcmp(th->init_regs[i - 1].name, th->init_regs[i].name) >= 0)
            return FAIL(c, NULL, "initial registers are not sorted by name at '%s'", th->init_regs[i].name);
        if (th->init_regs[i].value.kind != IR_OPND_IMM)
            return FAIL(c, NULL, "initial register %s is not a constant", th->init_regs[i].name);
    }
    const ir_instr *ret = &th->blocks[ret_block].instrs[ret_index];
    for (int i = 0; i < th->nfinal_regs; i++) {
        const ir_reg *r = &th->final_regs[i];
        if (!r->name || !r->name[0])
            return FAIL(c, NULL, "final register %d has no name", i);
        if (i && strcmp(th->final_regs[i - 1].name, r->name) >= 0)
            return FAIL(c, NULL, "final registers are not sorted by name at '%s'", r->name);
        if (r->value.kind == IR_OPND_NONE)
            return FAIL(c, NULL, "final register %s has no value", r->name);
        if (!check_operand(c, ret, r->value, "final register", false))
            return false;
        if (!check_use(c, ret, r->value, ret_block, ret_index))
            return false;
    }
    return true;
}

static bool check_obs(vctx *c, const ir_obs *o, const char *where)
{
    if (o->kind == IR_OBS_MEM) {
        if (o->loc < 0 || o->loc >= c->t->nlocs)
            return FAIL(c, NULL, "%s names location #%d, which does not exist", where, o->loc);
        return true;
    }
    if (o->kind != IR_OBS_REG)
        return FAIL(c, NULL, "%s has an observable of unknown kind", where);
    if (o->thread < 0 || o->thread >= c->t->nthreads)
        return FAIL(c, NULL, "%s names thread %d, which does not exist", where, o->thread);
    if (!o->reg || ir_thread_find_reg(&c->t->threads[o->thread], o->reg) < 0)
        return FAIL(c, NULL, "%s names register %d:%s, which thread %d does not have", where, o->thread,
                    o->reg ? o->reg : "?", o->thread);
    return true;
}

static bool check_cond(vctx *c, const ir_cond *p, const char *where)
{
    switch (p->kind) {
    case IR_C_TRUE:
    case IR_C_FALSE:
        return true;
    case IR_C_ATOM:
        if (!check_obs(c, &p->lhs, where))
            return false;
        if (p->rhs_is_obs)
            return check_obs(c, &p->rhs_obs, where);
        if (IR_IS_ADDR(p->rhs) && (IR_ADDR_LOC(p->rhs) < 0 || IR_ADDR_LOC(p->rhs) >= c->t->nlocs))
            return FAIL(c, NULL, "%s compares with the address of no location", where);
        return true;
    case IR_C_NOT:
        if (!p->l)
            return FAIL(c, NULL, "%s: a negation without operand", where);
        return check_cond(c, p->l, where);
    case IR_C_AND:
    case IR_C_OR:
    case IR_C_IMPLIES:
        if (!p->l || !p->r)
            return FAIL(c, NULL, "%s: a connective without both operands", where);
        return check_cond(c, p->l, where) && check_cond(c, p->r, where);
    }
    return FAIL(c, NULL, "%s has a proposition of unknown kind", where);
}

bool ir_verify_structure(const ir_test *t, diag *d)
{
    vctx c = {.t = t, .d = d};
    if ((unsigned)t->arch > IR_ARCH_JAVA)
        return FAIL(&c, NULL, "unknown architecture %d", (int)t->arch);
    for (int i = 0; i < t->nlocs; i++) {
        const ir_loc *l = &t->locs[i];
        c.line = l->text_line, c.col = l->text_col;
        if (!l->name || !l->name[0])
            return FAIL(&c, NULL, "location #%d has no name", i);
        if (ir_find_loc(t, l->name) != i)       /* the first of that name is another */
            return FAIL(&c, NULL, "location %s is declared twice", l->name);
        if ((unsigned)l->type > IR_T_PTR)
            return FAIL(&c, NULL, "location %s has an unknown type", l->name);
        if (IR_IS_ADDR(l->init) && (IR_ADDR_LOC(l->init) < 0 || IR_ADDR_LOC(l->init) >= t->nlocs))
            return FAIL(&c, NULL, "location %s starts with the address of no location", l->name);
        if (l->type == IR_T_PTR && l->init != 0 && !IR_IS_ADDR(l->init))
            return FAIL(&c, NULL, "pointer location %s starts with an integer", l->name);
        if (l->end_flag && (l->end_of < 0 || l->end_of >= t->nthreads))
            return FAIL(&c, NULL, "location %s flags the end of thread %d, which the test does not have", l->name,
                        l->end_of);
    }
    c.line = c.col = 0;
    bool ok = true;
    for (int i = 0; ok && i < t->nthreads; i++) {
        const ir_thread *th = &t->threads[i];
        if (th->id != i)
            return FAIL(&c, NULL, "thread #%d has id %d (ids must be 0, 1, ... in order)", i, th->id);
        size_t nb = th->nblocks ? (size_t)th->nblocks : 1, nv = th->nvals ? (size_t)th->nvals : 1;
        c.th = th;
        c.idom = xmalloc(nb * sizeof *c.idom);
        c.rpo_index = xmalloc(nb * sizeof *c.rpo_index);
        c.def_block = xmalloc(nv * sizeof *c.def_block);
        c.def_index = xmalloc(nv * sizeof *c.def_index);
        ok = check_thread(&c);
        free(c.idom);
        free(c.rpo_index);
        free(c.def_block);
        free(c.def_index);
        c.th = NULL;
    }
    if (!ok)
        return false;
    c.line = t->cond_line, c.col = t->cond_col;
    if (!t->cond)
        return FAIL(&c, NULL, "the test has no condition%s", "");
    if ((unsigned)t->quant > IR_Q_FORALL)
        return FAIL(&c, NULL, "unknown quantifier %d", (int)t->quant);
    if (!check_cond(&c, t->cond, "the condition"))
        return false;
    c.line = t->filter_line, c.col = t->filter_col;
    if (t->filter && !check_cond(&c, t->filter, "the filter"))
        return false;
    c.line = t->locations_line, c.col = t->locations_col;
    for (int i = 0; i < t->nlocations; i++)
        if (!check_obs(&c, &t->locations[i], "`locations`"))
            return false;
    return true;
}

bool ir_verify(const ir_test *t, diag *d)
{
    return ir_verify_structure(t, d) && ir_check_locks(t, d);
}
