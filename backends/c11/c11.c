/* IR -> C11.  Every SSA value is an int64_t local; blocks are labels, and
 * phis become copies on the edges into their block (the IR is loop-free,
 * so a phi never reads another phi of its own block and the copies can be
 * sequential).  Addresses are IR_ADDR values: an immediate address names
 * its cell directly, an address held in a value goes through lt_at(),
 * which maps anything that is not a location to a scratch cell. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "backends/c11/c11.h"
#include "backends/native/native_internal.h"
#include "isa/isa.h"

typedef struct c11_ctx {
    const native_opts *o;
    const char *ptr_type;   /* cell type for accesses through a value, or NULL */
} c11_ctx;

/* Strength of the load side of an order: relaxed < consume < acquire < seq_cst. */
static int load_rank(const char *mo)
{
    if (!strcmp(mo, "memory_order_seq_cst"))
        return 3;
    if (!strcmp(mo, "memory_order_acquire") || !strcmp(mo, "memory_order_acq_rel"))
        return 2;
    if (!strcmp(mo, "memory_order_consume"))
        return 1;
    return 0;
}

const char *c11_order(ir_mode m, ir_op op, bool plain_as_relaxed)
{
    const char *mo;
    switch (m) {
    case IR_MO_NA: case IR_JM_PLAIN:
        if (op == IR_LOAD || op == IR_STORE)
            return plain_as_relaxed ? "memory_order_relaxed" : NULL;
        mo = "memory_order_relaxed";
        break;
    case IR_MO_RLX: case IR_JM_OPAQUE: case IR_MODE_NONE: mo = "memory_order_relaxed"; break;
    case IR_MO_CON: mo = "memory_order_consume"; break;
    case IR_MO_ACQ: case IR_JM_ACQUIRE: mo = "memory_order_acquire"; break;
    case IR_MO_REL: case IR_JM_RELEASE: mo = "memory_order_release"; break;
    case IR_MO_ACQ_REL: mo = "memory_order_acq_rel"; break;
    case IR_MO_SC: case IR_JM_VOLATILE: case IR_X86_LOCKED: mo = "memory_order_seq_cst"; break;
    /* x86-TSO gives every load acquire and every store release semantics. */
    case IR_X86_PLAIN:
        mo = op == IR_LOAD ? "memory_order_acquire" : op == IR_STORE ? "memory_order_release"
                                                                       : "memory_order_seq_cst";
        break;
    default: mo = "memory_order_seq_cst"; break;
    }
    /* C allows only some orders per operation (and gcc rejects the others
     * under -Werror): a load cannot release, a store cannot acquire. */
    if (op == IR_LOAD) {
        if (!strcmp(mo, "memory_order_release"))
            mo = "memory_order_relaxed";
        else if (!strcmp(mo, "memory_order_acq_rel"))
            mo = "memory_order_acquire";
    } else if (op == IR_STORE) {
        if (!strcmp(mo, "memory_order_acquire") || !strcmp(mo, "memory_order_consume"))
            mo = "memory_order_relaxed";
        else if (!strcmp(mo, "memory_order_acq_rel"))
            mo = "memory_order_release";
    }
    return mo;
}

/* The failure order of a CAS: a load order no stronger than the success
 * order's load side. */
static const char *cas_fail_order(const ir_instr *in, const char *succ)
{
    ir_mode fm = in->fail_mode != IR_MODE_NONE ? in->fail_mode : in->mode;
    const char *f = c11_order(fm, IR_LOAD, true);
    if (!f)
        f = "memory_order_relaxed";
    int limit = load_rank(succ);
    if (!strcmp(succ, "memory_order_release"))
        limit = 0;
    if (load_rank(f) > limit)
        f = limit == 3 ? "memory_order_seq_cst" : limit == 2 ? "memory_order_acquire"
            : limit == 1 ? "memory_order_consume" : "memory_order_relaxed";
    return f;
}

static void opnd(strbuf *b, ir_operand o)
{
    if (o.kind == IR_OPND_VAL)
        sb_printf(b, "v%d", o.val);
    else
        nat_int_lit(b, o.kind == IR_OPND_IMM ? o.imm : 0);
}

/* The pointer expression for an access's address, typed for atomics or
 * volatile; *TYPE gets the cell type.  false + diag if it is no address. */
static bool address(strbuf *b, const c11_ctx *cx, const ir_test *t, const ir_instr *in,
                    bool atomic, diag *d)
{
    const char *q = atomic ? "_Atomic " : "volatile ";
    if (in->addr.kind == IR_OPND_IMM) {
        if (!IR_IS_ADDR(in->addr.imm) || IR_ADDR_LOC(in->addr.imm) < 0 ||
            IR_ADDR_LOC(in->addr.imm) >= t->nlocs)
            return nat_error(d, t, in, "memory access to a constant that is not a location");
        int l = IR_ADDR_LOC(in->addr.imm);
        sb_printf(b, "(%s%s *)lt_c[%d]", q, nat_cell_type(t, l), l);
        return true;
    }
    if (in->addr.kind != IR_OPND_VAL || !cx->ptr_type)
        return nat_error(d, t, in, "memory access without an address");
    sb_printf(b, "(%s%s *)lt_at(lt_c, v%d)", q, cx->ptr_type, in->addr.val);
    return true;
}

static const char *cell_type_of(const c11_ctx *cx, const ir_test *t, const ir_instr *in)
{
    if (in->addr.kind == IR_OPND_IMM && IR_IS_ADDR(in->addr.imm) &&
        IR_ADDR_LOC(in->addr.imm) >= 0 && IR_ADDR_LOC(in->addr.imm) < t->nlocs)
        return nat_cell_type(t, IR_ADDR_LOC(in->addr.imm));
    return cx->ptr_type ? cx->ptr_type : "int64_t";
}

/* *ADDRESS[ = (TYPE)A];  a plain access through a volatile pointer, a
 * store when TYPE (the cell's) is given. */
static bool plain_access(strbuf *b, const c11_ctx *cx, const ir_test *t, const ir_instr *in, const char *ty,
                         diag *d)
{
    sb_add(b, "*");
    if (!address(b, cx, t, in, false, d))
        return false;
    if (ty) {
        sb_printf(b, " = (%s)", ty);
        opnd(b, in->a);
    }
    sb_add(b, ";\n");
    return true;
}

/* FN(ADDRESS[, (TYPE)A], MO);  a call of an atomic_*_explicit function on
 * the access's cell, with the value operand when TYPE (the cell's) is
 * given. */
static bool atomic_call(strbuf *b, const c11_ctx *cx, const ir_test *t, const ir_instr *in, const char *fn,
                        const char *ty, const char *mo, diag *d)
{
    sb_printf(b, "%s(", fn);
    if (!address(b, cx, t, in, true, d))
        return false;
    if (ty) {
        sb_printf(b, ", (%s)", ty);
        opnd(b, in->a);
    }
    sb_printf(b, ", %s);\n", mo);
    return true;
}

static bool emit_load(strbuf *b, const c11_ctx *cx, const ir_test *t, const ir_instr *in, diag *d)
{
    const char *mo = c11_order(in->mode, IR_LOAD, cx->o->plain_as_relaxed);
    sb_printf(b, "    v%d = (int64_t)", in->dst);
    if (mo)
        return atomic_call(b, cx, t, in, "atomic_load_explicit", NULL, mo, d);
    return plain_access(b, cx, t, in, NULL, d);
}

static bool emit_store(strbuf *b, const c11_ctx *cx, const ir_test *t, const ir_instr *in, diag *d)
{
    const char *mo = c11_order(in->mode, IR_STORE, cx->o->plain_as_relaxed);
    const char *ty = cell_type_of(cx, t, in);
    sb_add(b, "    ");
    if (mo)
        return atomic_call(b, cx, t, in, "atomic_store_explicit", ty, mo, d);
    return plain_access(b, cx, t, in, ty, d);
}

static bool emit_rmw(strbuf *b, const c11_ctx *cx, const ir_test *t, const ir_instr *in, diag *d)
{
    const char *mo = c11_order(in->mode, IR_RMW, true);
    const char *ty = cell_type_of(cx, t, in);
    if (in->rmw_op == IR_RMW_CAS) {
        /* The expected slot ends up holding the old value either way. */
        sb_printf(b, "    {\n        %s lt_old = (%s)", ty, ty);
        opnd(b, in->b);
        sb_add(b, ";\n        ");
        if (in->flag >= 0)
            sb_printf(b, "v%d = (int64_t)", in->flag);
        else
            sb_add(b, "(void)");
        sb_printf(b, "atomic_compare_exchange_%s_explicit(", in->weak ? "weak" : "strong");
        if (!address(b, cx, t, in, true, d))
            return false;
        sb_printf(b, ", &lt_old, (%s)", ty);
        opnd(b, in->a);
        sb_printf(b, ", %s, %s);\n", mo, cas_fail_order(in, mo));
        if (in->dst >= 0)
            sb_printf(b, "        v%d = (int64_t)lt_old;\n", in->dst);
        sb_add(b, "    }\n");
        return true;
    }
    static const char *const fn[IR_RMW_COUNT] = {
        [IR_RMW_XCHG] = "atomic_exchange_explicit", [IR_RMW_ADD] = "atomic_fetch_add_explicit",
        [IR_RMW_SUB] = "atomic_fetch_sub_explicit", [IR_RMW_AND] = "atomic_fetch_and_explicit",
        [IR_RMW_OR] = "atomic_fetch_or_explicit", [IR_RMW_XOR] = "atomic_fetch_xor_explicit",
    };
    if ((int)in->rmw_op < 0 || in->rmw_op >= IR_RMW_COUNT || !fn[in->rmw_op])
        return nat_error(d, t, in, "unknown read-modify-write operation");
    if (in->dst >= 0)
        sb_printf(b, "    v%d = (int64_t)", in->dst);
    else
        sb_add(b, "    (void)");
    return atomic_call(b, cx, t, in, fn[in->rmw_op], ty, mo, d);
}

/* A lock as a test-and-test-and-set spin lock on the mutex's cell: the
 * exchange that takes it is an acquire RMW that read it free, the model's
 * lock; an unlock a release store of 0.  A Java monitor is a
 * synchronisation action, so its lock takes seq_cst orders.  A trylock looks
 * first and takes it only when it saw it free, as the model's failed
 * trylock is a read that saw it taken. */
static bool emit_lock(strbuf *b, const c11_ctx *cx, const ir_test *t, const ir_instr *in, diag *d)
{
    bool monitor = in->lock == IR_LK_MONITOR;
    const char *acq = monitor ? "memory_order_seq_cst" : "memory_order_acquire";
    const char *rel = monitor ? "memory_order_seq_cst" : "memory_order_release";
    const char *ty = cell_type_of(cx, t, in);
    if (in->op == IR_UNLOCK) {
        sb_add(b, "    atomic_store_explicit(");
        if (!address(b, cx, t, in, true, d))
            return false;
        sb_printf(b, ", (%s)0, %s);\n", ty, rel);
        return true;
    }
    if (in->dst >= 0) {
        sb_printf(b, "    v%d = atomic_load_explicit(", in->dst);
        if (!address(b, cx, t, in, true, d))
            return false;
        sb_add(b, ", memory_order_relaxed) == 0 && atomic_exchange_explicit(");
        address(b, cx, t, in, true, d);
        sb_printf(b, ", (%s)1, %s) == 0;\n", ty, acq);
        return true;
    }
    sb_add(b, "    {\n        uint32_t lt_waits = 0;\n        while (atomic_exchange_explicit(");
    if (!address(b, cx, t, in, true, d))
        return false;
    sb_printf(b, ", (%s)1, %s))\n            while (atomic_load_explicit(", ty, acq);
    address(b, cx, t, in, true, d);
    sb_add(b, ", memory_order_relaxed))\n                lrt_lock_wait(&lt_waits);\n    }\n");
    return true;
}

static void emit_fence(strbuf *b, const ir_instr *in)
{
    const char *mo;
    switch (in->fence) {
    case IR_FENCE_C: mo = c11_order(in->mode, IR_FENCE, true); break;
    case IR_FENCE_J_FULL: case IR_FENCE_MFENCE: mo = "memory_order_seq_cst"; break;
    case IR_FENCE_J_ACQUIRE: case IR_FENCE_J_LOADLOAD: mo = "memory_order_acquire"; break;
    case IR_FENCE_J_RELEASE: case IR_FENCE_J_STORESTORE: mo = "memory_order_release"; break;
    default:
        /* LFENCE/SFENCE order nothing under x86-TSO: keep only the
         * compiler from moving accesses across them. */
        sb_add(b, "    atomic_signal_fence(memory_order_seq_cst);\n");
        return;
    }
    sb_printf(b, "    atomic_thread_fence(%s);\n", mo);
}

/* herd's arithmetic: 64-bit wrap-around (done in unsigned, where C
 * defines it), shifts modulo 64, division by zero yields 0. */
static void emit_bin(strbuf *b, const ir_instr *in)
{
    /* PLAIN: (int64_t)(a OP b); WRAP: in uint64_t; SHIFT: in uint64_t, the
     * count masked; CALL: OP(a, b), a runtime helper. */
    enum { PLAIN, WRAP, SHIFT, CALL } form = PLAIN;
    const char *op;
    switch (in->binop) {
    case IR_ADD: op = "+"; form = WRAP; break;
    case IR_SUB: op = "-"; form = WRAP; break;
    case IR_MUL: op = "*"; form = WRAP; break;
    case IR_DIV: op = "lt_div"; form = CALL; break;
    case IR_REM: op = "lt_rem"; form = CALL; break;
    case IR_SHL: op = "<<"; form = SHIFT; break;
    case IR_SHR: op = ">>"; form = SHIFT; break;
    case IR_AND: op = "&"; break;
    case IR_OR: op = "|"; break;
    case IR_XOR: op = "^"; break;
    case IR_EQ: op = "=="; break;
    case IR_NE: op = "!="; break;
    case IR_LT: op = "<"; break;
    case IR_LE: op = "<="; break;
    case IR_GT: op = ">"; break;
    case IR_GE: op = ">="; break;
    default: op = "+"; break;
    }
    /* Each form as the text before, between and after the operands; OP
     * goes into the one with %s. */
    static const struct { const char *open, *mid, *close; } text[] = {
        [PLAIN] = {"(int64_t)(", " %s ", ");\n"},
        [WRAP] = {"(int64_t)((uint64_t)", " %s (uint64_t)", ");\n"},
        [SHIFT] = {"(int64_t)((uint64_t)", " %s ((uint64_t)", " & 63));\n"},
        [CALL] = {"%s(", ", ", ");\n"},
    };
    sb_printf(b, "    v%d = ", in->dst);
    sb_printf(b, text[form].open, op);
    opnd(b, in->a);
    sb_printf(b, text[form].mid, op);
    opnd(b, in->b);
    sb_add(b, text[form].close);
}

/* Copies for the phis of block TO on the edge from block FROM. */
static void emit_edge(strbuf *b, const ir_thread *th, int from, int to, const char *indent)
{
    const ir_block *bb = &th->blocks[to];
    int p = -1;
    for (int i = 0; i < bb->npreds; i++)
        if (bb->preds[i] == from)
            p = i;
    for (int i = 0; i < bb->ninstrs && bb->instrs[i].op == IR_PHI; i++) {
        const ir_instr *phi = &bb->instrs[i];
        if (p < 0 || p >= phi->nphi_args)
            continue;
        sb_printf(b, "%sv%d = ", indent, phi->dst);
        opnd(b, phi->phi_args[p]);
        sb_add(b, ";\n");
    }
    sb_printf(b, "%sgoto lt_b%d;\n", indent, to);
}

static void emit_ret(strbuf *b, const nat_frame *f, int ti)
{
    const ir_thread *th = &f->t->threads[ti];
    for (int k = 0; k < f->nregs[ti]; k++) {
        int r = ir_thread_find_reg(th, f->regs[ti][k]);
        sb_printf(b, "    lt_out[%d] = ", k);
        if (r >= 0)
            opnd(b, th->final_regs[r].value);
        else
            sb_add(b, "0");
        sb_add(b, "; /* ");
        nat_comment(b, f->regs[ti][k]);
        sb_add(b, " */\n");
    }
    sb_add(b, "    return;\n");
}

static bool c11_body(strbuf *b, const nat_frame *f, int ti, void *ctx, diag *d)
{
    const c11_ctx *cx = ctx;
    const ir_test *t = f->t;
    const ir_thread *th = &t->threads[ti];
    sb_printf(b, "/* Thread %d (", th->id);
    nat_comment(b, th->name);
    sb_add(b, ") */\n");
    nat_thread_open(b, f, ti);
    sb_add(b, "    (void)lt_c;\n    (void)lt_out;\n");
    for (int v = 0; v < th->nvals; v++)
        sb_printf(b, "    int64_t v%d = 0;\n    (void)v%d;\n", v, v);
    /* Only blocks something jumps to get a label (-Wunused-label). */
    bool *target = xcalloc((size_t)th->nblocks + 1, sizeof *target);
    for (int k = 0; k < th->nblocks; k++)
        for (int i = 0; i < th->blocks[k].ninstrs; i++) {
            const ir_instr *in = &th->blocks[k].instrs[i];
            if ((in->op == IR_BR || in->op == IR_JMP) && in->then_block >= 0 && in->then_block < th->nblocks)
                target[in->then_block] = true;
            if (in->op == IR_BR && in->else_block >= 0 && in->else_block < th->nblocks)
                target[in->else_block] = true;
        }
    bool ok = true;
    int naccess = 0;
    bool locking = ir_thread_takes_locks(th);     /* then its gaps never switch */
    for (int k = 0; ok && k < th->nblocks; k++) {
        const ir_block *bb = &th->blocks[k];
        if (target[k])
            sb_printf(b, "lt_b%d:;\n", k);
        for (int i = 0; ok && i < bb->ninstrs; i++) {
            const ir_instr *in = &bb->instrs[i];
            if (in->src && in->op != IR_PHI && in->op != IR_JMP && in->op != IR_RET) {
                sb_add(b, "    /* ");
                nat_comment(b, in->src);
                sb_add(b, " */\n");
            }
            bool access = in->op == IR_LOAD || in->op == IR_STORE || in->op == IR_RMW || in->op == IR_FENCE;
            if (access && f->gapped)
                sb_printf(b, "    %s(lt_gap[%d]);\n", locking ? "lrt_gap_locking" : "lrt_gap",
                          nat_gap_position(naccess));
            naccess += access;
            switch (in->op) {
            case IR_LOAD: ok = emit_load(b, cx, t, in, d); break;
            case IR_STORE: ok = emit_store(b, cx, t, in, d); break;
            case IR_RMW: ok = emit_rmw(b, cx, t, in, d); break;
            case IR_FENCE: emit_fence(b, in); break;
            case IR_LOCK: case IR_UNLOCK: ok = emit_lock(b, cx, t, in, d); break;
            case IR_BIN: emit_bin(b, in); break;
            case IR_PHI: break;
            case IR_BR:
                sb_add(b, "    if (");
                opnd(b, in->a);
                sb_add(b, " != 0) {\n");
                emit_edge(b, th, k, in->then_block, "        ");
                sb_add(b, "    } else {\n");
                emit_edge(b, th, k, in->else_block, "        ");
                sb_add(b, "    }\n");
                break;
            case IR_JMP: emit_edge(b, th, k, in->then_block, "    "); break;
            case IR_RET: emit_ret(b, f, ti); break;
            default: ok = nat_error(d, t, in, "instruction the C11 target cannot emit"); break;
            }
        }
    }
    free(target);
    sb_add(b, "}\n");
    return ok;
}

/* Accesses through a value need one cell type for every location they
 * may reach; litmus tests that use pointers keep their cells uniform. */
static bool pointer_type(const ir_test *t, c11_ctx *cx, diag *d)
{
    const ir_instr *first = NULL;
    for (int i = 0; i < t->nthreads && !first; i++)
        for (int k = 0; k < t->threads[i].nblocks && !first; k++)
            for (int j = 0; j < t->threads[i].blocks[k].ninstrs; j++) {
                const ir_instr *in = &t->threads[i].blocks[k].instrs[j];
                if ((in->op == IR_LOAD || in->op == IR_STORE || in->op == IR_RMW) &&
                    in->addr.kind == IR_OPND_VAL) {
                    first = in;
                    break;
                }
            }
    if (!first)
        return true;
    cx->ptr_type = t->nlocs ? nat_cell_type(t, 0) : "int64_t";
    for (int l = 1; l < t->nlocs; l++)
        if (strcmp(nat_cell_type(t, l), cx->ptr_type))
            return nat_error(d, t, first,
                             "access through a register to locations of different widths "
                             "(%s and %s) is not supported by the native targets",
                             cx->ptr_type, nat_cell_type(t, l));
    return true;
}

/* clang rejects unused static functions, so each helper comes only with
 * its operation. */
static bool uses_binop(const ir_test *t, ir_binop op)
{
    for (int i = 0; i < t->nthreads; i++)
        for (int k = 0; k < t->threads[i].nblocks; k++)
            for (int j = 0; j < t->threads[i].blocks[k].ninstrs; j++) {
                const ir_instr *in = &t->threads[i].blocks[k].instrs[j];
                if (in->op == IR_BIN && in->binop == op)
                    return true;
            }
    return false;
}

static const char div_helper[] =
    "/* herd's division: by zero (or overflowing) yields 0 instead of trapping. */\n"
    "static inline int64_t lt_div(int64_t a, int64_t b)\n"
    "{\n    return (b == 0 || (a == INT64_MIN && b == -1)) ? 0 : a / b;\n}\n\n";
static const char rem_helper[] =
    "static inline int64_t lt_rem(int64_t a, int64_t b)\n"
    "{\n    return (b == 0 || (a == INT64_MIN && b == -1)) ? 0 : a % b;\n}\n\n";

static const char at_helper[] =
    "/* The cell an address value names; anything else hits a scratch cell\n"
    " * (one per thread), so a bad pointer never leaves the harness's memory. */\n"
    "static inline void *lt_at(void *const *lt_c, int64_t v)\n"
    "{\n"
    "    static _Thread_local int64_t lt_scratch;\n"
    "    uint64_t u = (uint64_t)v;\n"
    "    if ((u & LT_ADDR_MASK) != LT_ADDR_TAG)\n"
    "        return &lt_scratch;\n"
    "    uint64_t l = u & UINT64_C(0xffffffff);\n"
    "    return l < LT_NLOCS ? lt_c[l] : (void *)&lt_scratch;\n"
    "}\n\n";

char *c11_generate(const ir_test *t, const native_opts *o, diag *d)
{
    c11_ctx cx = {o, NULL};
    /* An instruction set that no native runner here runs (AArch64): its
     * orderings and dependencies have no C11 equivalent that keeps the
     * test's meaning. */
    const isa *machine = isa_of(t->arch);
    if (machine && !machine->native) {
        int line = 1, col = 1;
        ir_thread_pos(t, 0, &line, &col);
        diag_error(d, t->file, line, col, "the C11 harness does not take %s tests (no C11 program keeps their "
                   "orderings and dependencies)", machine->name);
        return NULL;
    }
    if (!ir_refuse_loops(t, "the C11 harness", d) || !pointer_type(t, &cx, d))
        return NULL;
    strbuf extra = {0};
    if (uses_binop(t, IR_DIV))
        sb_add(&extra, div_helper);
    if (uses_binop(t, IR_REM))
        sb_add(&extra, rem_helper);
    if (cx.ptr_type) {
        sb_printf(&extra, "#define LT_NLOCS %du\n", t->nlocs);
        /* The IR's address encoding (ir/ir.h), so values stay comparable. */
        sb_printf(&extra, "#define LT_ADDR_MASK UINT64_C(0x%" PRIx64 ")\n", (uint64_t)IR_ADDR_MASK);
        sb_printf(&extra, "#define LT_ADDR_TAG UINT64_C(0x%" PRIx64 ")\n", (uint64_t)IR_ADDR_TAG);
        sb_add(&extra, at_helper);
    }
    char *decls = sb_take(&extra);
    char *src = nat_program(t, NULL, o->plain_as_relaxed ? "c11, plain as relaxed" : "c11", decls,
                            c11_body, &cx, d);
    free(decls);
    return src;
}
