/* Lowering of AArch64 threads (herd's AArch64 dialect) to the IR.
 *
 * Registers are the source registers X0..X30; a W register is the same
 * register's low 32 bits, as herd 7.57 has them: reading W<n> takes them,
 * and writing W<n> (an operation, a load, a CSEL) leaves the value cut to
 * 32 bits; WZR/XZR read 0 and drop what is written.  A load of B, H or W
 * size takes the location's low bytes, zero-extended, and a store of that
 * size writes its register's low bytes as the whole location's value
 * (herd without -variant mixed: one location, one value); a test that
 * accesses one location with two sizes is refused (lower_aarch64_size.c).
 * Accesses carry herd's orderings as IR_A64_* modes, an
 * exclusive pair (LDXR/STXR and their A/L forms) is a load and a store
 * marked excl, the store defining its status register (0 written, 1
 * failed; the model decides which, as herd does), and each LSE atomic is
 * one IR_RMW (two events in the model).  The flags that CMP, ADDS and
 * SUBS set are kept as the two values compared, in two hidden registers,
 * so that a B.cond, CSET or CSEL after a join sees them merged.
 *
 * Nothing is folded across a register: `EOR W3,W2,W2` is a value computed
 * from W2 (0, but an address dependency where it is added to an address),
 * as herd keeps it.  Jumps go forward only (no loops). */
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "ir/lower_int.h"
#include "util/mem.h"

static const char *const xnames[31] = {
    "X0", "X1", "X2", "X3", "X4", "X5", "X6", "X7", "X8", "X9", "X10", "X11", "X12", "X13", "X14", "X15",
    "X16", "X17", "X18", "X19", "X20", "X21", "X22", "X23", "X24", "X25", "X26", "X27", "X28", "X29", "X30",
};
/* The flags as the two values compared; not source registers. */
#define FLAG_L "NZCV.l"
#define FLAG_R "NZCV.r"

typedef struct label {
    const char *name;
    bool defined;
    lw_edges pending;
} label;

typedef struct a64 {
    lw *w;
    label *labels;
    size_t nlabels, cap;
    unsigned char *narrow;  /* per SSA value: the bytes it is known to fit in (zero-extended), 0 unknown */
    int nnarrow;
    bool flags_w;           /* the last flag-setting instruction compared W registers */
    bool adds;              /* the test has a narrow LDADD (or STADD), whose sum may outgrow its size */
} a64;

/* Label NAME of the thread, made on its first mention (a jump before it). */
static label *find_label(a64 *x, const char *name)
{
    for (size_t i = 0; i < x->nlabels; i++)
        if (!strcmp(x->labels[i].name, name))
            return &x->labels[i];
    label l = {name, false, {0}};
    VEC_PUSH(x->labels, x->nlabels, x->cap, l);
    return &x->labels[x->nlabels - 1];
}

/* The lowering reports at fe_pos; the AArch64 tree keeps line and col. */
static fe_pos pos_of(int line, int col)
{
    fe_pos p = {line, col};
    return p;
}

/* Register R's current value; the zero register reads 0. */
static ir_operand get_reg(lw *w, int r)
{
    if (r == FE_A64_ZR)
        return ir_imm(0);
    return w->cur[lw_find_reg(w, xnames[r])];
}

/* Value V is known to fit in BYTES bytes, zero-extended. */
static void note_narrow(a64 *x, ir_operand v, int bytes)
{
    if (v.kind != IR_OPND_VAL)
        return;
    if (v.val >= x->nnarrow) {
        int n = v.val + 16;
        x->narrow = xrealloc(x->narrow, (size_t)n);
        memset(x->narrow + x->nnarrow, 0, (size_t)(n - x->nnarrow));
        x->nnarrow = n;
    }
    x->narrow[v.val] = (unsigned char)bytes;
}

/* V is known to fit in BYTES bytes, zero-extended. */
static bool fits(const a64 *x, ir_operand v, int bytes)
{
    if (bytes >= 8)
        return true;
    if (v.kind == IR_OPND_IMM)
        return v.imm >= 0 && v.imm < (ir_val)1 << (8 * bytes);
    return v.kind == IR_OPND_VAL && v.val < x->nnarrow && x->narrow[v.val] && x->narrow[v.val] <= bytes;
}

/* V cut to its low BYTES bytes, zero-extended (herd's Mask): a constant
 * folded, a value already known to fit left as it is (so that 64-bit
 * threads and values read at their own width gain no instruction), else
 * an `and` that keeps V's dependencies.  An address is left whole. */
static ir_operand cut(a64 *x, ir_operand v, int bytes)
{
    if (bytes >= 8)
        return v;
    if (v.kind == IR_OPND_IMM)
        return IR_IS_ADDR(v.imm) ? v : ir_imm(ir_val_cast(v.imm, bytes, false));
    if (v.kind != IR_OPND_VAL)
        return v;
    if (fits(x, v, bytes))
        return v;
    ir_operand r = lw_bin(x->w, IR_AND, v, ir_imm((ir_val)(((uint64_t)1 << (8 * bytes)) - 1)));
    note_narrow(x, r, bytes);
    return r;
}

/* V as a signed 32-bit number, for the signed conditions on flags that a
 * W comparison set: ((v & 0xffffffff) ^ 2^31) - 2^31. */
static ir_operand sext32(a64 *x, ir_operand v)
{
    if (v.kind == IR_OPND_IMM)
        return IR_IS_ADDR(v.imm) ? v : ir_imm(ir_val_cast(v.imm, 4, true));
    v = lw_bin(x->w, IR_XOR, cut(x, v, 4), ir_imm((ir_val)1 << 31));
    return lw_bin(x->w, IR_SUB, v, ir_imm((ir_val)1 << 31));
}

/* Source register operand O: X<n> whole, W<n> its low 32 bits. */
static ir_operand src(a64 *x, const fe_a64_opnd *o)
{
    ir_operand v = get_reg(x->w, o->reg);
    return o->wide ? v : cut(x, v, 4);
}

/* Register R takes V; a write to the zero register is dropped. */
static void set_reg(lw *w, int r, ir_operand v)
{
    if (r != FE_A64_ZR)
        w->cur[lw_find_reg(w, xnames[r])] = v;
}

/* A register or an immediate operand's value, as an instruction of
 * width WIDE reads it. */
static ir_operand value_of(a64 *x, const fe_a64_opnd *o, bool wide)
{
    ir_operand v = o->kind == FE_AO_IMM ? ir_imm(o->imm) : src(x, o);
    return wide ? v : cut(x, v, 4);
}

/* Destination register operand O takes V: W<n> keeps V's low 32 bits
 * (herd's mask32), X<n> all of it. */
static void set_dst(a64 *x, const fe_a64_opnd *o, ir_operand v)
{
    set_reg(x->w, o->reg, o->wide ? v : cut(x, v, 4));
}

/* The bytes a load, store or atomic IN accesses: its B or H suffix, else
 * its data register's width (REG). */
static int access_bytes(const fe_a64_instr *in, const fe_a64_opnd *reg)
{
    return in->size ? in->size : reg->wide ? 8 : 4;
}

/* The address an [Xn...] operand names: base + index (shifted) + offset.
 * SXTW / UXTW are applied to a constant index only (`MOV W2,#-1` then
 * SXTW gives -1); a computed one is taken as it is, since litmus indices
 * are small and its dependency is what matters. */
static ir_operand address(lw *w, const fe_a64_opnd *o)
{
    ir_operand a = get_reg(w, o->reg);
    if (o->index >= 0) {
        ir_operand i = get_reg(w, o->index);
        if (i.kind == IR_OPND_IMM && !IR_IS_ADDR(i.imm) && (o->ext == FE_A64_X_SXTW || o->ext == FE_A64_X_UXTW))
            i = ir_imm(ir_val_cast(i.imm, 4, o->ext == FE_A64_X_SXTW));
        if (o->shift)
            i = lw_bin(w, IR_SHL, i, ir_imm(o->shift));
        a = lw_bin(w, IR_ADD, a, i);
    }
    if (o->imm)
        a = lw_bin(w, IR_ADD, a, ir_imm(o->imm));
    return a;
}

/* The 0/1 value of condition K on the flags.  A W comparison's signed
 * conditions compare the values as signed 32-bit numbers (its flags are
 * those of a 32-bit subtraction); EQ and NE need no such view. */
static ir_operand cond_value(a64 *x, fe_a64_cond k)
{
    lw *w = x->w;
    ir_operand l = w->cur[lw_find_reg(w, FLAG_L)], r = w->cur[lw_find_reg(w, FLAG_R)];
    if (x->flags_w && k != FE_A64_EQ && k != FE_A64_NE) {
        if (k == FE_A64_MI || k == FE_A64_PL)
            return lw_bin(w, k == FE_A64_MI ? IR_LT : IR_GE, sext32(x, lw_bin(w, IR_SUB, l, r)), ir_imm(0));
        l = sext32(x, l);
        r = sext32(x, r);
    }
    switch (k) {
    case FE_A64_EQ: return lw_bin(w, IR_EQ, l, r);
    case FE_A64_NE: return lw_bin(w, IR_NE, l, r);
    case FE_A64_LT: return lw_bin(w, IR_LT, l, r);
    case FE_A64_GE: return lw_bin(w, IR_GE, l, r);
    case FE_A64_GT: return lw_bin(w, IR_GT, l, r);
    case FE_A64_LE: return lw_bin(w, IR_LE, l, r);
    case FE_A64_MI: return lw_bin(w, IR_LT, lw_bin(w, IR_SUB, l, r), ir_imm(0));
    case FE_A64_PL: return lw_bin(w, IR_GE, lw_bin(w, IR_SUB, l, r), ir_imm(0));
    case FE_A64_COND_COUNT: break;
    }
    return ir_imm(0);
}

/* CMP L, R (and SUBS, ADDS): what the conditions after it compare; WIDE
 * for X registers. */
static void set_flags(a64 *x, ir_operand l, ir_operand r, bool wide)
{
    lw *w = x->w;
    x->flags_w = !wide;
    w->cur[lw_find_reg(w, FLAG_L)] = l;
    w->cur[lw_find_reg(w, FLAG_R)] = r;
}

/* CSEL D, N, M, COND as herd 7.57 runs it: D takes the register chosen,
 * with its dependencies, the flags only picking it, and nothing after has
 * a control dependency on them (herd allows MP+rel+CSEL and LB+CSEL4).  Lowered as a branch marked select,
 * whose two sides set D.  The join always gives D a phi, even where both
 * sides are one value (LB+csel-same-data+dmb: CSEL W2,W3,W4 with W3 = W4
 * = 1): the phi carries the flags' pick to what D feeds, as herd's
 * iico_ctrl does whatever the values. */
static void csel(a64 *x, const fe_a64_opnd *d, fe_a64_cond k, ir_operand n, ir_operand m)
{
    lw *w = x->w;
    if (!d->wide) {
        n = cut(x, n, 4);
        m = cut(x, m, 4);
    }
    ir_operand c = cond_value(x, k);
    if (c.kind == IR_OPND_IMM) {
        set_reg(w, d->reg, c.imm ? n : m);
        return;
    }
    lw_edges other = {0}, done = {0};
    lw_branch(w, c, &other);
    w->th->blocks[other.v[0].block].instrs[other.v[0].instr].select = true;
    set_reg(w, d->reg, n);
    lw_add_fall(w, &done);
    lw_join(w, &other);
    set_reg(w, d->reg, m);
    lw_add_fall(w, &done);
    lw_join(w, &done);
    if (d->reg == FE_A64_ZR)
        return;
    int r = lw_find_reg(w, xnames[d->reg]);
    const ir_block *b = &w->th->blocks[w->block];
    bool has_phi = false;   /* the join's phis are all the block holds so far */
    for (int i = 0; i < b->ninstrs && !has_phi; i++)
        has_phi = w->cur[r].kind == IR_OPND_VAL && b->instrs[i].dst == w->cur[r].val;
    if (!has_phi) {
        ir_instr *phi = ir_emit(w->th, w->block, IR_PHI);
        phi->dst = ir_new_val(w->th);
        phi->nphi_args = 2;
        phi->phi_args = xmalloc(2 * sizeof *phi->phi_args);
        phi->phi_args[0] = phi->phi_args[1] = w->cur[r];
        w->cur[r] = ir_value(phi->dst);
    }
    if (!d->wide)
        note_narrow(x, w->cur[r], 4);
}

/* herd's sets A, Q and L as one IR mode (ir.h: IR_A64_ACQREL). */
static ir_mode mode_of(const fe_a64_instr *in)
{
    if (in->acq && in->rel)
        return IR_A64_ACQREL;
    return in->acq ? IR_A64_ACQ : in->acqpc ? IR_A64_ACQPC : in->rel ? IR_A64_REL : IR_A64_PLAIN;
}

/* Location L's initial value fits in BYTES (an address is left whole). */
static bool init_fits(const a64 *x, int l, int bytes)
{
    ir_val init = x->w->t->locs[l].init;
    return IR_IS_ADDR(init) || fits(x, ir_imm(init), bytes);
}

/* A load of BYTES from address operand O: the value cut to them, but
 * where every location O may name only ever holds values that fit (its
 * initial value does, every store to it is cut to the same size, as the
 * test would be refused otherwise, and no narrow LDADD can carry past
 * it), the load's value as it is, known to fit: so that an ordinary W
 * thread gains no instruction.  O names its base's location when it has
 * no index or offset, else any location. */
static ir_operand load_cut(a64 *x, ir_operand v, const fe_a64_opnd *o, int bytes)
{
    ir_operand base = get_reg(x->w, o->reg);
    bool ok = bytes < 8 && !x->adds;
    if (ok && o->index < 0 && !o->imm && base.kind == IR_OPND_IMM && IR_IS_ADDR(base.imm)) {
        ok = init_fits(x, IR_ADDR_LOC(base.imm), bytes);
    } else {
        for (int l = 0; ok && l < x->w->t->nlocs; l++)
            ok = init_fits(x, l, bytes);
    }
    if (!ok)
        return cut(x, v, bytes);
    note_narrow(x, v, bytes);
    return v;
}

/* SWP, LD<op> and ST<op>, CAS: the operands cut to the access's size,
 * and the old value too where a register takes it. */
static void atomic(a64 *x, const fe_a64_instr *in)
{
    lw *w = x->w;
    int bytes = access_bytes(in, &in->o[0]);
    ir_operand addr = address(w, &in->o[in->nops - 1]);
    ir_operand s = cut(x, get_reg(w, in->o[0].reg), bytes);
    /* the register given the old value: none for ST<op>, WZR/XZR drops it */
    int dst = in->noret ? FE_A64_ZR : in->op == FE_A64_CAS ? in->o[0].reg : in->o[1].reg;
    /* An atomic whose result is dropped does not acquire (herd 7.57, as
     * the Arm ARM has it for LD<op>A and CASA with XZR): mode without A. */
    bool acq = in->acq && dst != FE_A64_ZR;
    ir_mode mode = acq && in->rel ? IR_A64_ACQREL : acq ? IR_A64_ACQ : in->rel ? IR_A64_REL : IR_A64_PLAIN;
    ir_instr *r;
    if (in->op == FE_A64_CAS) {
        r = lw_cas(w, addr, s, cut(x, get_reg(w, in->o[1].reg), bytes), mode, acq ? IR_A64_ACQ : IR_A64_PLAIN);
    } else {
        ir_rmw_op op = in->op == FE_A64_SWP ? IR_RMW_XCHG : in->op == FE_A64_LDADD ? IR_RMW_ADD
                     : in->op == FE_A64_LDEOR ? IR_RMW_XOR : in->op == FE_A64_LDSET ? IR_RMW_OR : IR_RMW_AND;
        if (in->op == FE_A64_LDCLR)     /* bit clear: AND with the complement */
            s = cut(x, lw_bin(w, IR_XOR, s, ir_imm(-1)), bytes);
        lw_rmw(w, op, addr, s, mode);
        r = &w->th->blocks[w->block].instrs[w->th->blocks[w->block].ninstrs - 1];
    }
    r->noret = in->noret || dst == FE_A64_ZR;
    if (dst != FE_A64_ZR)
        set_reg(w, dst, load_cut(x, ir_value(r->dst), &in->o[in->nops - 1], bytes));
}

/* A jump to label T (ALWAYS, or when COND is not 0): forward only, since
 * the IR has no loops. */
static bool branch_to(a64 *x, const fe_a64_opnd *t, ir_operand cond, bool always)
{
    lw *w = x->w;
    label *l = find_label(x, t->label);
    if (l->defined)
        return lw_error(w, pos_of(t->line, t->col), "jump back to label %s: loops are not supported", t->label);
    if (always)
        lw_jump(w, &l->pending);
    else
        lw_branch_then(w, cond, &l->pending);
    return true;
}

/* One instruction into the current block; false (error set) when it
 * cannot be lowered. */
static bool instr(a64 *x, const fe_a64_instr *in)
{
    lw *w = x->w;
    const fe_a64_opnd *o = in->o;
    switch (in->op) {
    case FE_A64_EMPTY: case FE_A64_NOP:
        return true;
    case FE_A64_LDR:
        set_reg(w, o[0].reg,
                load_cut(x, lw_load(w, address(w, &o[1]), mode_of(in)), &o[1], access_bytes(in, &o[0])));
        return true;
    case FE_A64_STR:
        lw_store(w, address(w, &o[1]), cut(x, get_reg(w, o[0].reg), access_bytes(in, &o[0])), mode_of(in));
        return true;
    case FE_A64_LDXR: {
        ir_operand v = lw_load(w, address(w, &o[1]), mode_of(in));
        w->th->blocks[w->block].instrs[w->th->blocks[w->block].ninstrs - 1].excl = true;
        set_reg(w, o[0].reg, load_cut(x, v, &o[1], access_bytes(in, &o[0])));
        return true;
    }
    case FE_A64_STXR: {
        ir_operand addr = address(w, &o[2]);
        ir_operand v = cut(x, get_reg(w, o[1].reg), access_bytes(in, &o[1]));
        ir_instr *s = lw_emit(w, IR_STORE);
        s->addr = addr;
        s->a = v;
        s->mode = mode_of(in);
        s->excl = true;
        s->dst = ir_new_val(w->th);
        set_reg(w, o[0].reg, ir_value(s->dst));
        return true;
    }
    case FE_A64_SWP: case FE_A64_CAS: case FE_A64_LDADD: case FE_A64_LDCLR: case FE_A64_LDEOR: case FE_A64_LDSET:
        atomic(x, in);
        return true;
    case FE_A64_DMB:
        lw_fence(w, (ir_fence_kind)(IR_FENCE_DMB_SY + in->barrier), IR_MODE_NONE);
        return true;
    case FE_A64_DSB:
        lw_fence(w, (ir_fence_kind)(IR_FENCE_DSB_SY + in->barrier), IR_MODE_NONE);
        return true;
    case FE_A64_ISB:
        lw_fence(w, IR_FENCE_ISB, IR_MODE_NONE);
        return true;
    case FE_A64_MOV:
        set_dst(x, &o[0], value_of(x, &o[1], o[0].wide));
        return true;
    case FE_A64_ADD: case FE_A64_SUB: case FE_A64_EOR: case FE_A64_AND: case FE_A64_ORR:
    case FE_A64_ADDS: case FE_A64_SUBS: {
        static const ir_binop ops[] = {
            [FE_A64_ADD] = IR_ADD, [FE_A64_SUB] = IR_SUB, [FE_A64_EOR] = IR_XOR, [FE_A64_AND] = IR_AND,
            [FE_A64_ORR] = IR_OR, [FE_A64_ADDS] = IR_ADD, [FE_A64_SUBS] = IR_SUB,
        };
        bool wide = o[0].wide;
        ir_operand a = value_of(x, &o[1], wide), b = value_of(x, &o[2], wide);
        ir_operand r = lw_bin(w, ops[in->op], a, b);
        /* EOR, AND and ORR of two values that fit in 32 bits fit too */
        bool bitwise = in->op == FE_A64_EOR || in->op == FE_A64_AND || in->op == FE_A64_ORR;
        if (!wide && bitwise && fits(x, a, 4) && fits(x, b, 4))
            note_narrow(x, r, 4);
        else if (!wide)
            r = cut(x, r, 4);
        if (in->op == FE_A64_SUBS)
            set_flags(x, a, b, wide);
        else if (in->op == FE_A64_ADDS)
            set_flags(x, r, ir_imm(0), wide);
        set_reg(w, o[0].reg, r);
        return true;
    }
    case FE_A64_CMP:
        set_flags(x, value_of(x, &o[0], o[0].wide), value_of(x, &o[1], o[0].wide), o[0].wide);
        return true;
    case FE_A64_CSET: case FE_A64_CSETM:    /* aliases of CSINC / CSINV: selects too */
        csel(x, &o[0], in->cond, ir_imm(in->op == FE_A64_CSET ? 1 : -1), ir_imm(0));
        return true;
    case FE_A64_CSEL:
        csel(x, &o[0], in->cond, value_of(x, &o[1], o[0].wide), value_of(x, &o[2], o[0].wide));
        return true;
    case FE_A64_CSINC: case FE_A64_CSINV: case FE_A64_CSNEG: {
        /* the other side is M incremented, inverted or negated */
        ir_operand m = value_of(x, &o[2], o[0].wide);
        m = in->op == FE_A64_CSINC ? lw_bin(w, IR_ADD, m, ir_imm(1))
          : in->op == FE_A64_CSINV ? lw_bin(w, IR_XOR, m, ir_imm(-1)) : lw_bin(w, IR_SUB, ir_imm(0), m);
        csel(x, &o[0], in->cond, value_of(x, &o[1], o[0].wide), m);
        return true;
    }
    case FE_A64_MVN:
        set_dst(x, &o[0], lw_bin(w, IR_XOR, value_of(x, &o[1], o[0].wide), ir_imm(-1)));
        return true;
    case FE_A64_NEG:
        set_dst(x, &o[0], lw_bin(w, IR_SUB, ir_imm(0), value_of(x, &o[1], o[0].wide)));
        return true;
    case FE_A64_B:
        return branch_to(x, &o[0], ir_imm(1), true);
    case FE_A64_BCOND:
        return branch_to(x, &o[0], cond_value(x, in->cond), false);
    case FE_A64_CBZ: case FE_A64_CBNZ:
        return branch_to(x, &o[1], lw_bin(w, in->op == FE_A64_CBZ ? IR_EQ : IR_NE, src(x, &o[0]),
                                               ir_imm(0)), false);
    case FE_A64_OP_COUNT:
        break;
    }
    return lw_error(w, pos_of(in->line, in->col), "unknown instruction");
}

/* One cell: the join of the edges into its label, then its instruction. */
static bool row(a64 *x, const fe_a64_instr *in)
{
    lw *w = x->w;
    lw_set_src(w, pos_of(in->line, in->col), in->op == FE_A64_EMPTY ? NULL : fe_a64_instr_text(in));
    if (in->label) {
        label *l = find_label(x, in->label);
        l->defined = true;
        lw_add_fall(w, &l->pending);
        lw_join(w, &l->pending);
    }
    if (w->block < 0)
        return true;    /* unreachable: after a B, before any label */
    return instr(x, in);
}

/* The thread's registers first (every one it names is a final register,
 * as x86's), then its cells in order. */
bool lw_aarch64_thread(lw *w)
{
    a64 x = {.w = w};
    for (int t = 0; t < w->ft->nthreads; t++)
        for (int i = 0; i < w->ft->threads[t].na64; i++) {
            const fe_a64_instr *in = &w->ft->threads[t].a64[i];
            x.adds |= in->op == FE_A64_LDADD && access_bytes(in, &in->o[0]) < 8;
        }
    const fe_thread *ft = w->ft_th;
    lw_add_reg(w, FLAG_L, true);
    lw_add_reg(w, FLAG_R, true);
    for (int i = 0; i < ft->na64; i++)
        for (int k = 0; k < ft->a64[i].nops; k++) {
            const fe_a64_opnd *o = &ft->a64[i].o[k];
            if ((o->kind == FE_AO_REG || o->kind == FE_AO_MEM) && o->reg != FE_A64_ZR)
                lw_add_reg(w, xnames[o->reg], false);
            if (o->kind == FE_AO_MEM && o->index >= 0)
                lw_add_reg(w, xnames[o->index], false);
        }
    bool ok = true;
    for (int i = 0; ok && i < ft->na64; i++)
        ok = row(&x, &ft->a64[i]);
    for (size_t i = 0; i < x.nlabels; i++)
        lw_edges_free(&x.labels[i].pending);
    free(x.labels);
    free(x.narrow);
    /* Once the last thread is lowered, every access of the test is known. */
    if (ok && w->th->id == w->ft->nthreads - 1)
        ok = lw_aarch64_check_sizes(w);
    return ok;
}
