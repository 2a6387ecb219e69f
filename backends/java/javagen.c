/* Shared lowering of IR threads to Java statements (see javagen.h). */
#include "backends/java/javagen.h"
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- checking what Java can express --------------------------------------- */

static bool fits_int(ir_val v)
{
    return v >= INT32_MIN && v <= INT32_MAX;
}

static bool check_data(const ir_test *t, ir_operand o, int line, int col, diag *d)
{
    if (o.kind != IR_OPND_IMM)
        return true;
    if (IR_IS_ADDR(o.imm))
        return diag_error(d, t->file, line, col,
                          "the Java targets cannot use an address as a value");
    if (!fits_int(o.imm))
        return diag_error(d, t->file, line, col,
                          "value %" PRId64 " does not fit in a Java int", o.imm);
    return true;
}

static bool check_addr(const ir_test *t, ir_operand o, int line, int col, diag *d)
{
    if (o.kind != IR_OPND_IMM)
        return diag_error(d, t->file, line, col,
                          "the Java targets need every access to name its location "
                          "(computed addresses are not supported)");
    if (!IR_IS_ADDR(o.imm) || IR_ADDR_LOC(o.imm) < 0 || IR_ADDR_LOC(o.imm) >= t->nlocs)
        return diag_error(d, t->file, line, col, "access to something that is not a location");
    return true;
}

static bool check_instr(const ir_test *t, const ir_instr *in, diag *d)
{
    int l = in->line, c = in->col;
    switch (in->op) {
    case IR_LOAD:
        return check_addr(t, in->addr, l, c, d);
    case IR_STORE:
        return check_addr(t, in->addr, l, c, d) && check_data(t, in->a, l, c, d);
    case IR_RMW:
        return check_addr(t, in->addr, l, c, d) && check_data(t, in->a, l, c, d) &&
               check_data(t, in->b, l, c, d);
    case IR_BIN:
        return check_data(t, in->a, l, c, d) && check_data(t, in->b, l, c, d);
    case IR_BR:
        return check_data(t, in->a, l, c, d);
    case IR_PHI:
        for (int k = 0; k < in->nphi_args; k++)
            if (!check_data(t, in->phi_args[k], l, c, d))
                return false;
        return true;
    case IR_FENCE:
        if (in->fence == IR_FENCE_MFENCE || in->fence == IR_FENCE_LFENCE ||
            in->fence == IR_FENCE_SFENCE)
            return diag_error(d, t->file, l, c, "x86 fences have no Java form");
        return true;
    default:
        return true;
    }
}

static bool check_test(const ir_test *t, diag *d)
{
    if (t->arch != IR_ARCH_JAVA && t->arch != IR_ARCH_C)
        return diag_error(d, t->file, 1, 1,
                          "the Java targets take Java and C tests, not %s tests",
                          ir_arch_name(t->arch));
    for (int i = 0; i < t->nlocs; i++) {
        const ir_loc *L = &t->locs[i];
        if (L->type == IR_T_PTR || IR_IS_ADDR(L->init))
            return diag_error(d, t->file, 1, 1,
                              "location '%s' holds a pointer, which the Java targets do not support",
                              L->name);
        if (!fits_int(L->init))
            return diag_error(d, t->file, 1, 1,
                              "initial value %" PRId64 " of '%s' does not fit in a Java int",
                              L->init, L->name);
    }
    for (int ti = 0; ti < t->nthreads; ti++) {
        const ir_thread *th = &t->threads[ti];
        for (int bi = 0; bi < th->nblocks; bi++)
            for (int k = 0; k < th->blocks[bi].ninstrs; k++)
                if (!check_instr(t, &th->blocks[bi].instrs[k], d))
                    return false;
        for (int r = 0; r < th->nfinal_regs; r++)
            if (!check_data(t, th->final_regs[r].value, 1, 1, d))
                return false;
    }
    return true;
}

bool javagen_supported(const ir_test *t, diag *d)
{
    return ir_refuse_loops(t, "a Java target", d) && check_test(t, d);
}

bool javagen_prepare(const ir_test *t, javagen_names *n, diag *d)
{
    memset(n, 0, sizeof *n);
    if (!ir_refuse_loops(t, "a Java target", d) || !check_test(t, d))
        return false;
    int nl = t->nlocs;
    /* Fields and handles share the class's field namespace. */
    char **all = xcalloc((size_t)(2 * nl + 1), sizeof *all);
    n->field = xcalloc((size_t)nl + 1, sizeof *n->field);
    n->handle = xcalloc((size_t)nl + 1, sizeof *n->handle);
    for (int i = 0; i < nl; i++) {
        n->field[i] = javagen_unique(javagen_ident(t->locs[i].name), all, 2 * nl);
        all[i] = n->field[i];
    }
    for (int i = 0; i < nl; i++) {
        n->handle[i] = javagen_unique(xasprintf("VH_%s", n->field[i]), all, 2 * nl);
        all[nl + i] = n->handle[i];
    }
    free(all);
    n->obs = ir_observables(t, &n->nobs);
    for (int k = 0; k < n->nobs; k++) {
        const ir_obs *o = &n->obs[k];
        if (o->kind == IR_OBS_REG && javagen_thread_index(t, o->thread) < 0) {
            javagen_names_free(n, t);
            return diag_error(d, t->file, 1, 1, "the condition names thread %d, which the test lacks",
                              o->thread);
        }
    }
    return true;
}

void javagen_names_free(javagen_names *n, const ir_test *t)
{
    for (int i = 0; i < t->nlocs; i++) {
        if (n->field)
            free(n->field[i]);
        if (n->handle)
            free(n->handle[i]);
    }
    free(n->field);
    free(n->handle);
    free(n->obs);
    memset(n, 0, sizeof *n);
}

void javagen_handles(strbuf *out, const ir_test *t, const javagen_names *n,
                     const char *cls, const char *indent)
{
    if (t->nlocs == 0)
        return;
    for (int i = 0; i < t->nlocs; i++)
        sb_printf(out, "%sstatic final VarHandle %s;\n", indent, n->handle[i]);
    sb_printf(out, "%sstatic {\n%s    try {\n", indent, indent);
    sb_printf(out, "%s        MethodHandles.Lookup l = MethodHandles.lookup();\n", indent);
    for (int i = 0; i < t->nlocs; i++)
        sb_printf(out, "%s        %s = l.findVarHandle(%s.class, \"%s\", int.class);\n", indent,
                  n->handle[i], cls, n->field[i]);
    sb_printf(out, "%s    } catch (ReflectiveOperationException e) {\n", indent);
    sb_printf(out, "%s        throw new ExceptionInInitializerError(e);\n", indent);
    sb_printf(out, "%s    }\n%s}\n", indent, indent);
}

/* ---- modes -------------------------------------------------------------------- */

typedef enum jmode { J_PLAIN, J_OPAQUE, J_ACQ, J_REL, J_VOL } jmode;

static jmode java_mode(ir_mode m)
{
    switch (m) {
    case IR_MO_NA: case IR_JM_PLAIN: return J_PLAIN;
    case IR_MO_RLX: case IR_JM_OPAQUE: return J_OPAQUE;
    case IR_MO_CON: case IR_MO_ACQ: case IR_JM_ACQUIRE: return J_ACQ;
    case IR_MO_REL: case IR_JM_RELEASE: return J_REL;
    default: return J_VOL;
    }
}

/* The VarHandle method of a load (STORE false) or store in mode M.  A
 * release load and an acquire store have no weaker Java form than volatile. */
static const char *access_method(ir_mode m, bool store)
{
    static const char *const method[2][J_VOL + 1] = {
        {[J_PLAIN] = "get", [J_OPAQUE] = "getOpaque", [J_ACQ] = "getAcquire", [J_REL] = "getVolatile",
         [J_VOL] = "getVolatile"},
        {[J_PLAIN] = "set", [J_OPAQUE] = "setOpaque", [J_ACQ] = "setVolatile", [J_REL] = "setRelease",
         [J_VOL] = "setVolatile"},
    };
    return method[store][java_mode(m)];
}

/* Suffix of an RMW method for the weakest Java mode covering success mode
 * M and, for a CAS, the failure read's mode F (IR_MODE_NONE: as M):
 * "", "Acquire" or "Release".  Java has no plain or opaque RMW (except
 * weakCompareAndSetPlain), so those take "Acquire". */
static const char *rmw_suffix(ir_mode m, ir_mode f, bool cas)
{
    jmode s = java_mode(m);
    jmode fm = cas ? java_mode(f == IR_MODE_NONE ? m : f) : J_PLAIN;
    if (s == J_VOL || fm == J_VOL)
        return "";
    bool acq = s == J_ACQ || fm == J_ACQ;
    bool rel = s == J_REL;
    if (acq && rel)
        return "";
    return rel ? "Release" : "Acquire";
}

/* ---- operands and statements ---------------------------------------------------------- */

static void operand(strbuf *out, ir_operand o)
{
    if (o.kind == IR_OPND_VAL)
        sb_printf(out, "v%d", o.val);
    else if (o.kind == IR_OPND_IMM && o.imm < 0)
        sb_printf(out, "(%" PRId64 ")", o.imm);
    else if (o.kind == IR_OPND_IMM)
        sb_printf(out, "%" PRId64, o.imm);
    else
        sb_add(out, "0");
}

static char *operand_str(ir_operand o)
{
    strbuf b = {0};
    operand(&b, o);
    return sb_take(&b);
}

/* -(O) as an int expression (wraps like Java). */
static void negated(strbuf *out, ir_operand o)
{
    if (o.kind == IR_OPND_IMM) {
        int32_t v = (int32_t)o.imm;
        int32_t neg = (int32_t)(0u - (uint32_t)v);
        if (neg < 0)
            sb_printf(out, "(%" PRId32 ")", neg);
        else
            sb_printf(out, "%" PRId32, neg);
    } else {
        sb_add(out, "-");
        operand(out, o);
    }
}

static const char *binop_text(ir_binop op)
{
    switch (op) {
    case IR_ADD: return "+";
    case IR_SUB: return "-";
    case IR_MUL: return "*";
    case IR_AND: return "&";
    case IR_OR: return "|";
    case IR_XOR: return "^";
    case IR_SHL: return "<<";
    case IR_SHR: return ">>";
    case IR_EQ: return "==";
    case IR_NE: return "!=";
    case IR_LT: return "<";
    case IR_LE: return "<=";
    case IR_GT: return ">";
    case IR_GE: return ">=";
    default: return NULL;
    }
}

static void emit_bin(strbuf *out, const ir_instr *in)
{
    sb_printf(out, "v%d = ", in->dst);
    if (in->binop == IR_DIV || in->binop == IR_REM) {
        /* Java throws on a zero divisor; herd has no value for it either. */
        char *b = operand_str(in->b);
        sb_printf(out, "%s == 0 ? 0 : ", b);
        operand(out, in->a);
        sb_printf(out, " %s %s;", in->binop == IR_DIV ? "/" : "%", b);
        free(b);
        return;
    }
    const char *op = binop_text(in->binop);
    bool cmp = in->binop >= IR_EQ;
    if (cmp)
        sb_add(out, "(");
    operand(out, in->a);
    sb_printf(out, " %s ", op ? op : "+");
    operand(out, in->b);
    sb_add(out, cmp ? ") ? 1 : 0;" : ";");
}

static const char *fence_call(const ir_instr *in)
{
    switch (in->fence) {
    case IR_FENCE_J_FULL: return "VarHandle.fullFence();";
    case IR_FENCE_J_ACQUIRE: return "VarHandle.acquireFence();";
    case IR_FENCE_J_RELEASE: return "VarHandle.releaseFence();";
    case IR_FENCE_J_LOADLOAD: return "VarHandle.loadLoadFence();";
    case IR_FENCE_J_STORESTORE: return "VarHandle.storeStoreFence();";
    case IR_FENCE_C:
        switch (in->mode) {
        case IR_MO_RLX: return "/* relaxed fence: no effect */";
        case IR_MO_CON: case IR_MO_ACQ: return "VarHandle.acquireFence();";
        case IR_MO_REL: return "VarHandle.releaseFence();";
        case IR_MO_ACQ_REL: return "VarHandle.acquireFence(); VarHandle.releaseFence();";
        default: return "VarHandle.fullFence();";
        }
    default: return "VarHandle.fullFence();";
    }
}

static const char *rmw_method(const ir_instr *in)
{
    switch (in->rmw_op) {
    case IR_RMW_XCHG: return "getAndSet";
    case IR_RMW_ADD: case IR_RMW_SUB: return "getAndAdd";
    case IR_RMW_AND: return "getAndBitwiseAnd";
    case IR_RMW_OR: return "getAndBitwiseOr";
    case IR_RMW_XOR: return "getAndBitwiseXor";
    default: return "compareAndExchange";
    }
}

/* USED: the witness (old value) is read later; FLAG_USED: the success
 * flag is. */
static void emit_cas(strbuf *out, const javagen_names *n, const ir_instr *in,
                     const char *self, bool used, bool flag_used)
{
    const char *h = n->handle[IR_ADDR_LOC(in->addr.imm)];
    const char *suffix = rmw_suffix(in->mode, in->fail_mode, true);
    char *exp = operand_str(in->b), *des = operand_str(in->a);
    char *flag = flag_used ? xasprintf("v%d = ", in->flag) : xstrdup("");
    const char *as_int = flag_used ? " ? 1 : 0" : "";
    if (!used && in->weak) {
        /* The witness is not needed: the weak boolean form fits exactly. */
        const char *w = *suffix ? suffix : "";
        if (java_mode(in->mode) == J_PLAIN &&
            (in->fail_mode == IR_MODE_NONE || java_mode(in->fail_mode) == J_PLAIN))
            w = "Plain";
        sb_printf(out, "%s%s.weakCompareAndSet%s(%s, %s, %s)%s;", flag, h, w, self, exp, des, as_int);
    } else if (!used && !*suffix) {
        sb_printf(out, "%s%s.compareAndSet(%s, %s, %s)%s;", flag, h, self, exp, des, as_int);
    } else {
        /* A weak CAS whose witness is used becomes strong: it never fails
         * spuriously, which only removes behaviours; it wrote exactly when
         * the witness is the expected value. */
        sb_printf(out, "v%d = (int) %s.compareAndExchange%s(%s, %s, %s);", in->dst, h, suffix,
                  self, exp, des);
        if (flag_used)
            sb_printf(out, " v%d = v%d == %s ? 1 : 0;", in->flag, in->dst, exp);
    }
    free(flag);
    free(exp);
    free(des);
}

static void emit_access(strbuf *out, const javagen_names *n, const ir_instr *in,
                        const char *self, const bool *used)
{
    const char *h = n->handle[IR_ADDR_LOC(in->addr.imm)];
    if (in->op == IR_LOAD) {
        sb_printf(out, "v%d = (int) %s.%s(%s);", in->dst, h, access_method(in->mode, false), self);
    } else if (in->op == IR_STORE) {
        sb_printf(out, "%s.%s(%s, ", h, access_method(in->mode, true), self);
        operand(out, in->a);
        sb_add(out, ");");
    } else if (in->rmw_op == IR_RMW_CAS) {
        emit_cas(out, n, in, self, in->dst >= 0 && used[in->dst], in->flag >= 0 && used[in->flag]);
    } else {
        if (in->dst >= 0)
            sb_printf(out, "v%d = (int) ", in->dst);
        sb_printf(out, "%s.%s%s(%s, ", h, rmw_method(in), rmw_suffix(in->mode, IR_MODE_NONE, false), self);
        if (in->rmw_op == IR_RMW_SUB)
            negated(out, in->a);
        else
            operand(out, in->a);
        sb_add(out, ");");
    }
}

/* ---- control flow ------------------------------------------------------------------------ */

static void topo_visit(const ir_thread *th, int b, bool *seen, int *order, int *n)
{
    seen[b] = true;
    const ir_block *bl = &th->blocks[b];
    if (bl->ninstrs > 0) {
        const ir_instr *term = &bl->instrs[bl->ninstrs - 1];
        int succ[2] = {-1, -1};
        if (term->op == IR_BR) {
            succ[0] = term->then_block;
            succ[1] = term->else_block;
        } else if (term->op == IR_JMP) {
            succ[0] = term->then_block;
        }
        for (int i = 1; i >= 0; i--)
            if (succ[i] >= 0 && succ[i] < th->nblocks && !seen[succ[i]])
                topo_visit(th, succ[i], seen, order, n);
    }
    order[(*n)++] = b;  /* post-order; reversed by the caller */
}

/* Blocks reachable from the entry, each after all its predecessors. */
static int *topo_order(const ir_thread *th, int *n)
{
    bool *seen = xcalloc((size_t)th->nblocks + 1, sizeof *seen);
    int *order = xcalloc((size_t)th->nblocks + 1, sizeof *order);
    *n = 0;
    if (th->nblocks > 0)
        topo_visit(th, 0, seen, order, n);
    for (int i = 0, j = *n - 1; i < j; i++, j--) {
        int x = order[i];
        order[i] = order[j];
        order[j] = x;
    }
    free(seen);
    return order;
}

/* Copies into the phis of block TO for the edge from FROM (the FIRST or
 * last occurrence of FROM among TO's predecessors). */
static void phi_copies(strbuf *out, const ir_thread *th, int from, int to, bool first,
                       const char *indent)
{
    const ir_block *bl = &th->blocks[to];
    int k = -1;
    for (int i = 0; i < bl->npreds; i++)
        if (bl->preds[i] == from) {
            k = i;
            if (first)
                break;
        }
    if (k < 0)
        return;
    for (int i = 0; i < bl->ninstrs && bl->instrs[i].op == IR_PHI; i++) {
        const ir_instr *phi = &bl->instrs[i];
        if (k >= phi->nphi_args)
            continue;
        sb_printf(out, "%sv%d = ", indent, phi->dst);
        operand(out, phi->phi_args[k]);
        sb_add(out, ";\n");
    }
}

static void mark_use(bool *used, int nvals, ir_operand o)
{
    if (o.kind == IR_OPND_VAL && o.val >= 0 && o.val < nvals)
        used[o.val] = true;
}

static bool *uses(const ir_thread *th)
{
    bool *used = xcalloc((size_t)th->nvals + 1, sizeof *used);
    for (int b = 0; b < th->nblocks; b++)
        for (int k = 0; k < th->blocks[b].ninstrs; k++) {
            const ir_instr *in = &th->blocks[b].instrs[k];
            mark_use(used, th->nvals, in->addr);
            mark_use(used, th->nvals, in->a);
            mark_use(used, th->nvals, in->b);
            for (int i = 0; i < in->nphi_args; i++)
                mark_use(used, th->nvals, in->phi_args[i]);
        }
    for (int r = 0; r < th->nfinal_regs; r++)
        mark_use(used, th->nvals, th->final_regs[r].value);
    return used;
}

static void emit_result_stores(strbuf *out, const ir_test *t, const javagen_names *n,
                               const ir_thread *th, const javagen_thread_opts *o,
                               const char *indent)
{
    for (int k = 0; k < n->nobs; k++) {
        const ir_obs *ob = &n->obs[k];
        if (ob->kind != IR_OBS_REG || ob->thread != th->id)
            continue;
        int r = ir_thread_find_reg(th, ob->reg);
        /* herd: an unwritten or absent register reads 0 */
        char *expr = r >= 0 ? operand_str(th->final_regs[r].value) : xstrdup("0");
        sb_add(out, indent);
        o->store(out, o->ctx, k, expr);
        sb_add(out, "\n");
        free(expr);
    }
    (void)t;
}

static void emit_instr(strbuf *out, const ir_test *t, const javagen_names *n, const ir_thread *th,
                       int b, const ir_instr *in, const bool *used,
                       const javagen_thread_opts *o, const char *ind, const char **last_src)
{
    switch (in->op) {
    case IR_PHI:
        return;  /* assigned on the incoming edges */
    case IR_LOAD: case IR_STORE: case IR_RMW:
        sb_add(out, ind);
        emit_access(out, n, in, o->self, used);
        break;
    case IR_BIN:
        sb_add(out, ind);
        emit_bin(out, in);
        break;
    case IR_FENCE:
        sb_printf(out, "%s%s", ind, fence_call(in));
        break;
    case IR_BR: {
        char *in2 = xasprintf("%s    ", ind);
        sb_printf(out, "%sif (", ind);
        operand(out, in->a);
        sb_add(out, " != 0) {\n");
        phi_copies(out, th, b, in->then_block, true, in2);
        sb_printf(out, "%sblk = %d;\n%s} else {\n", in2, in->then_block, ind);
        phi_copies(out, th, b, in->else_block, false, in2);
        sb_printf(out, "%sblk = %d;\n%s}\n", in2, in->else_block, ind);
        free(in2);
        return;
    }
    case IR_JMP:
        phi_copies(out, th, b, in->then_block, true, ind);
        sb_printf(out, "%sblk = %d;\n", ind, in->then_block);
        return;
    case IR_RET:
        emit_result_stores(out, t, n, th, o, ind);
        return;
    case IR_LOCK: case IR_UNLOCK: {
        const char *f = n->field[IR_ADDR_LOC(in->addr.imm)];
        if (in->op == IR_UNLOCK)
            sb_printf(out, "%s%s.%s$lock.unlock();", ind, o->self, f);
        else if (in->dst >= 0)
            sb_printf(out, "%sv%d = %s.%s$lock.tryLock() ? 1 : 0;", ind, in->dst, o->self, f);
        else
            sb_printf(out, "%s%s.%s$lock.lock();", ind, o->self, f);
        break;
    }
    default:
        return;
    }
    /* One source statement may give several instructions: comment once. */
    if (in->src && *in->src && (!*last_src || strcmp(*last_src, in->src))) {
        sb_add(out, "  // ");
        javagen_comment(out, in->src);
        *last_src = in->src;
    }
    sb_add(out, "\n");
}

void javagen_thread_body(strbuf *out, const ir_test *t, const javagen_names *n, int ti,
                         const javagen_thread_opts *o)
{
    const ir_thread *th = &t->threads[ti];
    const char *ind = o->indent;
    /* Every value is declared up front: herd's register scope is flat, and
     * the block dispatch hides definite assignment from javac. */
    for (int v = 0; v < th->nvals; v++)
        sb_printf(out, "%s%sv%d = 0%s", v % 8 == 0 ? ind : "", v % 8 == 0 ? "int " : "", v,
                  (v % 8 == 7 || v == th->nvals - 1) ? ";\n" : ", ");
    bool *used = uses(th);
    int norder;
    int *order = topo_order(th, &norder);
    bool straight = norder == 1;
    if (!straight)
        sb_printf(out, "%sint blk = %d;\n", ind, order[0]);
    char *inner = xasprintf("%s    ", ind);
    const char *last_src = NULL;
    for (int i = 0; i < norder; i++) {
        int b = order[i];
        const char *bi = straight ? ind : inner;
        if (!straight)
            sb_printf(out, "%sif (blk == %d) {\n", ind, b);
        for (int k = 0; k < th->blocks[b].ninstrs; k++)
            emit_instr(out, t, n, th, b, &th->blocks[b].instrs[k], used, o, bi, &last_src);
        if (!straight)
            sb_printf(out, "%s}\n", ind);
    }
    free(inner);
    free(order);
    free(used);
}

void javagen_lock_fields(strbuf *out, const ir_test *t, const javagen_names *n, const char *indent)
{
    uint64_t m = ir_test_mutexes(t);
    for (int i = 0; i < t->nlocs && i < 64; i++)
        if (m >> i & 1)
            sb_printf(out, "%sfinal java.util.concurrent.locks.ReentrantLock %s$lock = "
                      "new java.util.concurrent.locks.ReentrantLock();\n", indent, n->field[i]);
}
