/* X86 and X86_64 threads.
 *
 * MOVs are IR_X86_PLAIN accesses; a LOCK-prefixed instruction or an XCHG
 * with memory is one IR_RMW with mode IR_X86_LOCKED; an unlocked
 * read-modify-write instruction is a plain load, the operation and a plain
 * store.  CMPXCHG compares with EAX (rax) implicitly.  Flags are not
 * registers: CMP and the arithmetic instructions record the comparison they
 * stand for, and JE/JNE/SETNB/CMOVC turn it into a value.  The code is
 * lowered region by region (between labels) in the order
 * ir/lower_x86_order.c gives, where every jump goes to a label not yet
 * reached; jumps that make a loop are refused there. */
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "ir/lower_int.h"
#include "ir/lower_x86_int.h"
#include "isa/isa.h"
#include "util/mem.h"

static label *find_label(x86 *x, const char *name, bool add)
{
    for (size_t i = 0; i < x->nlabels; i++)
        if (!strcmp(x->labels[i].name, name))
            return &x->labels[i];
    if (!add)
        return NULL;
    label l = {.name = name};
    VEC_PUSH(x->labels, x->nlabels, x->caplabels, l);
    return &x->labels[x->nlabels - 1];
}

static bool same_opnd(ir_operand a, ir_operand b)
{
    return a.kind == b.kind && (a.kind != IR_OPND_VAL || a.val == b.val) && (a.kind != IR_OPND_IMM || a.imm == b.imm);
}

/* An edge into L with flags F.  Where every edge brings the same flags
 * (the same SSA values, defined before the branches, so valid at the
 * label), the label keeps them: `jge L1; jmp L2; L1: jg L3` reads the
 * flags of the compare before the jge. */
static void merge_flags(label *l, const flags *f)
{
    if (!l->fl_any) {
        l->fl = *f;
        l->fl_any = true;
    } else if (l->fl.kind != f->kind ||
               (f->kind != FL_NONE && (!same_opnd(l->fl.a, f->a) || !same_opnd(l->fl.b, f->b) || l->fl.op != f->op)))
        l->fl_mixed = true;
}

static bool is_mem(const fe_x86_opnd *o)
{
    return o->kind == FE_XO_MEM || o->kind == FE_XO_MEM_REG || o->kind == FE_XO_MEM_ABS;
}

/* The address a memory operand designates. */
static bool mem_addr(x86 *x, const fe_x86_opnd *o, ir_operand *out)
{
    lw *w = x->w;
    switch (o->kind) {
    case FE_XO_MEM:
        *out = ir_imm(IR_ADDR(lw_loc(w, o->name)));
        return true;
    case FE_XO_MEM_REG: {
        ir_operand v = o->name ? w->cur[lw_find_reg(w, o->name)] : ir_imm(0);
        const fe_init *array;
        int cell;
        ir_val base = o->sym ? IR_ADDR(lw_loc(w, o->sym)) : v.kind == IR_OPND_IMM ? v.imm : 0;
        if (IR_IS_ADDR(base) && lw_x86_array_cell(w, IR_ADDR_LOC(base), &array, &cell)) {
            /* into an array: the cell is chosen here, so the offset must be known */
            ir_operand off = o->sym && o->name ? v : ir_imm(0);
            off = lw_bin(w, IR_ADD, off, ir_imm(o->imm));
            if (o->index) {
                ir_operand ix = w->cur[lw_find_reg(w, o->index)];
                off = lw_bin(w, IR_ADD, off, lw_bin(w, IR_MUL, ix, ir_imm(o->scale)));
            }
            return lw_x86_array_at(w, array, cell, off, o->pos, out);
        }
        if (o->sym)     /* x(%rax): x's address plus the register */
            v = o->name ? lw_bin(w, IR_ADD, ir_imm(IR_ADDR(lw_loc(w, o->sym))), v) : ir_imm(IR_ADDR(lw_loc(w, o->sym)));
        else if (v.kind == IR_OPND_IMM && !IR_IS_ADDR(v.imm))
            return lw_error(w, o->pos, "register %s holds %lld, not the address of a location", o->name,
                            (long long)v.imm);
        /* base + displacement + index * scale: a value the address then
         * depends on (an address dependency when the index was loaded) */
        if (o->imm)
            v = lw_bin(w, IR_ADD, v, ir_imm(o->imm));
        if (o->index)
            v = lw_bin(w, IR_ADD, v, lw_bin(w, IR_MUL, w->cur[lw_find_reg(w, o->index)], ir_imm(o->scale)));
        *out = v;
        return true;
    }
    case FE_XO_MEM_ABS:
        return lw_error(w, o->pos, "absolute address [%lld] is not supported: name a location", (long long)o->imm);
    default:
        return lw_error(w, o->pos, "expected a memory operand");
    }
}

/* The value of a source operand (a memory operand is read with MODE). */
static bool value_of(x86 *x, const fe_x86_opnd *o, ir_operand *out)
{
    lw *w = x->w;
    ir_operand addr;
    switch (o->kind) {
    case FE_XO_IMM:
        *out = ir_imm(o->imm);
        return true;
    case FE_XO_REG:
        *out = w->cur[lw_find_reg(w, o->name)];
        return true;
    case FE_XO_MEM:
    case FE_XO_MEM_REG:
    case FE_XO_MEM_ABS:
        if (!mem_addr(x, o, &addr))
            return false;
        *out = lw_load(w, addr, IR_X86_PLAIN);
        return true;
    default:
        return lw_error(w, o->pos, "missing operand");
    }
}

static bool set_reg(x86 *x, const fe_x86_opnd *o, ir_operand v)
{
    if (o->kind != FE_XO_REG)
        return lw_error(x->w, o->pos, "expected a register");
    x->w->cur[lw_find_reg(x->w, o->name)] = v;
    return true;
}

static int acc_reg(x86 *x)
{
    return lw_find_reg(x->w, x->acc);
}


/* [ADDR] = [ADDR] OP V, returning the old value: one locked RMW (ROP) with
 * LOCK, else a plain read and a plain write that other threads may come
 * between. */
static ir_operand update_mem(lw *w, bool lock, ir_binop op, ir_rmw_op rop, ir_operand addr, ir_operand v)
{
    if (lock)
        return lw_rmw(w, rop, addr, v, IR_X86_LOCKED);
    ir_operand old = lw_load(w, addr, IR_X86_PLAIN);
    lw_store(w, addr, lw_bin(w, op, old, v), IR_X86_PLAIN);
    return old;
}

static bool arith(x86 *x, const fe_x86_instr *in, ir_binop op, ir_rmw_op rop, const fe_x86_opnd *src)
{
    lw *w = x->w;
    ir_operand v, old, addr;
    if (!value_of(x, src, &v))
        return false;
    if (in->dst.kind == FE_XO_REG) {
        if (in->lock)
            return lw_error(w, in->pos, "LOCK needs a memory destination");
        ir_operand old = w->cur[lw_find_reg(w, in->dst.name)];
        x->fl = (flags){FL_RESULT, old, v, op};
        return set_reg(x, &in->dst, lw_bin(w, op, old, v));
    }
    if (!is_mem(&in->dst))
        return lw_error(w, in->dst.pos, "expected a register or memory destination");
    if (!mem_addr(x, &in->dst, &addr))
        return false;
    old = update_mem(w, in->lock, op, rop, addr, v);
    x->fl = (flags){FL_RESULT, old, v, op};
    return true;
}

/* SHL, SAR: the value shifted (values are whole numbers, so SAR is >>).
 * SHR: the value cut to its width first (a negative 32-bit value is its
 * 32 bits), by a count of 1..63 for 64 bits.  The flags: ZF and SF of the
 * result (a count of 0, which leaves them, is not told apart). */
static bool shift(x86 *x, const fe_x86_instr *in)
{
    lw *w = x->w;
    ir_operand n, old, addr = ir_none();
    if (!value_of(x, &in->src, &n))
        return false;
    int width = in->size ? in->size : in->dst.kind == FE_XO_REG ? in->dst.reg_size : 4;
    if (is_mem(&in->dst)) {
        if (!mem_addr(x, &in->dst, &addr))
            return false;
        old = lw_load(w, addr, IR_X86_PLAIN);
    } else {
        old = w->cur[lw_find_reg(w, in->dst.name)];
    }
    ir_operand v;
    if (in->op == FE_X86_SHL) {
        v = lw_bin(w, IR_SHL, old, n);
    } else if (in->op == FE_X86_SAR) {
        v = lw_bin(w, IR_SHR, old, n);
    } else if (width < 8) {
        v = lw_bin(w, IR_SHR, lw_bin(w, IR_AND, old, ir_imm((ir_val)((1ull << (8 * width)) - 1))), n);
    } else {
        if (n.kind != IR_OPND_IMM || n.imm < 1 || n.imm > 63)
            return lw_error(w, in->src.pos, "a 64-bit SHR is supported by an immediate of 1 to 63 only");
        v = lw_bin(w, IR_AND, lw_bin(w, IR_SHR, old, n), ir_imm((ir_val)(~0ull >> n.imm)));
    }
    x->fl = (flags){FL_RESULT, v, ir_imm(0), IR_ADD};
    if (addr.kind != IR_OPND_NONE) {
        lw_store(w, addr, v, IR_X86_PLAIN);
        return true;
    }
    return set_reg(x, &in->dst, v);
}

static bool xchg(x86 *x, const fe_x86_instr *in)
{
    lw *w = x->w;
    const fe_x86_opnd *m = is_mem(&in->dst) ? &in->dst : &in->src;
    const fe_x86_opnd *r = is_mem(&in->dst) ? &in->src : &in->dst;
    if (r->kind != FE_XO_REG || (is_mem(r)))
        return lw_error(w, in->pos, "XCHG needs a register operand");
    if (!is_mem(m)) {   /* two registers: a swap */
        int a = lw_find_reg(w, in->dst.name), b = lw_find_reg(w, in->src.name);
        ir_operand t = w->cur[a];
        w->cur[a] = w->cur[b];
        w->cur[b] = t;
        return true;
    }
    ir_operand addr;
    if (!mem_addr(x, m, &addr))
        return false;
    int ri = lw_find_reg(w, r->name);
    w->cur[ri] = lw_rmw(w, IR_RMW_XCHG, addr, w->cur[ri], IR_X86_LOCKED);
    return true;
}

static bool xadd(x86 *x, const fe_x86_instr *in)
{
    lw *w = x->w;
    if (in->src.kind != FE_XO_REG)
        return lw_error(w, in->pos, "XADD needs a register source");
    int s = lw_find_reg(w, in->src.name);
    ir_operand v = w->cur[s], old, addr;
    if (in->dst.kind == FE_XO_REG) {
        int d = lw_find_reg(w, in->dst.name);
        old = w->cur[d];
        w->cur[d] = lw_bin(w, IR_ADD, old, v);
        w->cur[s] = old;
        x->fl = (flags){FL_RESULT, old, v, IR_ADD};
        return true;
    }
    if (!mem_addr(x, &in->dst, &addr))
        return false;
    old = update_mem(w, in->lock, IR_ADD, IR_RMW_ADD, addr, v);
    x->fl = (flags){FL_RESULT, old, v, IR_ADD};
    w->cur[s] = old;
    return true;
}

/* CMPXCHG dst, src: if dst == accumulator then dst = src, else accumulator = dst.
 * Either way the accumulator ends up holding the old value of dst. */
static bool cmpxchg(x86 *x, const fe_x86_instr *in)
{
    lw *w = x->w;
    if (in->src.kind != FE_XO_REG)
        return lw_error(w, in->pos, "CMPXCHG needs a register source");
    int acc = acc_reg(x), s = lw_find_reg(w, in->src.name);
    ir_operand expected = w->cur[acc], nv = w->cur[s], old, addr;
    if (in->dst.kind == FE_XO_REG) {
        int d = lw_find_reg(w, in->dst.name);
        old = w->cur[d];
        ir_operand eq = lw_bin(w, IR_EQ, old, expected);
        /* dst = eq ? src : dst, without a branch: dst + eq * (src - dst) */
        w->cur[d] = lw_bin(w, IR_ADD, old, lw_bin(w, IR_MUL, eq, lw_bin(w, IR_SUB, nv, old)));
        w->cur[acc] = old;
        x->fl = (flags){FL_CMP, old, expected, IR_EQ};
        return true;
    }
    if (!mem_addr(x, &in->dst, &addr))
        return false;
    if (in->lock) {
        old = ir_value(lw_cas(w, addr, expected, nv, IR_X86_LOCKED, IR_MODE_NONE)->dst);
    } else {
        /* Not atomic: a read, then a write only when the values are equal. */
        old = lw_load(w, addr, IR_X86_PLAIN);
        ir_operand eq = lw_bin(w, IR_EQ, old, expected);
        lw_edges skip = {0}, join = {0};
        lw_branch(w, eq, &skip);
        lw_store(w, addr, nv, IR_X86_PLAIN);
        lw_add_fall(w, &join);
        lw_edges_append(&join, &skip);
        lw_join(w, &join);
    }
    w->cur[acc] = old;
    x->fl = (flags){FL_CMP, old, expected, IR_EQ};
    return true;
}

static bool jump(x86 *x, const fe_x86_instr *in)
{
    lw *w = x->w;
    const fe_x86_opnd *t = in->dst.kind == FE_XO_LABEL ? &in->dst : &in->src;
    if (t->kind != FE_XO_LABEL)
        return lw_error(w, in->pos, "%s needs a label", fe_x86_op_name(in->op));
    label *l = find_label(x, t->name, true);
    if (l->defined)
        return lw_error(w, t->pos, "jump back to label %s: loops are not supported", t->name);
    merge_flags(l, &x->fl);
    if (in->op == FE_X86_JMP) {
        lw_jump(w, &l->pending);
        return true;
    }
    ir_operand c;
    if (in->op == FE_X86_JE || in->op == FE_X86_JNE) {
        if (!x86_zero_flag(x, in, in->op == FE_X86_JE, &c))
            return false;
    } else if (!x86_ordered(x, in, &c))
        return false;
    if (c.kind == IR_OPND_IMM) {    /* known flags: always or never taken */
        if (c.imm != 0)
            lw_jump(w, &l->pending);
        return true;
    }
    lw_branch_then(w, c, &l->pending);
    return true;
}

static bool instr(x86 *x, const fe_x86_instr *in)
{
    lw *w = x->w;
    ir_operand v, addr;
    if (in->lock && in->op != FE_X86_ADD && in->op != FE_X86_SUB && in->op != FE_X86_XOR && in->op != FE_X86_OR &&
        in->op != FE_X86_AND && in->op != FE_X86_INC && in->op != FE_X86_NOT && in->op != FE_X86_DEC && in->op != FE_X86_XCHG &&
        in->op != FE_X86_XADD && in->op != FE_X86_CMPXCHG)
        return lw_error(w, in->pos, "LOCK prefix on %s", fe_x86_op_name(in->op));
    switch (in->op) {
    case FE_X86_EMPTY:
    case FE_X86_NOP:
    case FE_X86_CLFLUSH:    /* no effect on values or ordering in the model */
        return true;
    case FE_X86_MOV:
    case FE_X86_MOVNTI:
        if (is_mem(&in->dst)) {
            if (is_mem(&in->src))
                return lw_error(w, in->pos, "MOV from memory to memory");
            if (!value_of(x, &in->src, &v) || !mem_addr(x, &in->dst, &addr))
                return false;
            lw_store(w, addr, v, IR_X86_PLAIN);
            return true;
        }
        return value_of(x, &in->src, &v) && set_reg(x, &in->dst, v);
    case FE_X86_ADD: return arith(x, in, IR_ADD, IR_RMW_ADD, &in->src);
    case FE_X86_SUB: return arith(x, in, IR_SUB, IR_RMW_SUB, &in->src);
    case FE_X86_XOR: return arith(x, in, IR_XOR, IR_RMW_XOR, &in->src);
    case FE_X86_OR: return arith(x, in, IR_OR, IR_RMW_OR, &in->src);
    case FE_X86_AND: return arith(x, in, IR_AND, IR_RMW_AND, &in->src);
    case FE_X86_INC:
    case FE_X86_DEC: {
        fe_x86_opnd one = {.kind = FE_XO_IMM, .imm = 1, .pos = in->pos};
        return in->op == FE_X86_INC ? arith(x, in, IR_ADD, IR_RMW_ADD, &one) : arith(x, in, IR_SUB, IR_RMW_SUB, &one);
    }
    case FE_X86_CMP: {
        ir_operand a, b;
        if (!value_of(x, &in->dst, &a) || !value_of(x, &in->src, &b))
            return false;
        x->fl = (flags){FL_CMP, a, b, IR_SUB};
        return true;
    }
    case FE_X86_LEA:        /* the location's address, no access */
        return mem_addr(x, &in->src, &addr) && set_reg(x, &in->dst, addr);
    case FE_X86_NEG: {      /* 0 - A: flags as for A * -1 (ZF when A is 0) */
        fe_x86_opnd m1 = {.kind = FE_XO_IMM, .imm = -1, .pos = in->pos};
        return arith(x, in, IR_MUL, IR_RMW_ADD, &m1);
    }
    case FE_X86_NOT: {      /* A ^ -1; NOT leaves the flags as they were */
        fe_x86_opnd m1 = {.kind = FE_XO_IMM, .imm = -1, .pos = in->pos};
        flags keep = x->fl;
        bool ok = arith(x, in, IR_XOR, IR_RMW_XOR, &m1);
        x->fl = keep;
        return ok;
    }
    case FE_X86_TEST: {     /* flags of A & B, which is not kept */
        ir_operand a, b;
        if (!value_of(x, &in->dst, &a) || !value_of(x, &in->src, &b))
            return false;
        x->fl = (flags){FL_RESULT, a, b, IR_AND};
        return true;
    }
    case FE_X86_SETE: case FE_X86_SETNE: case FE_X86_SETL: case FE_X86_SETGE: case FE_X86_SETLE:
    case FE_X86_SETG: case FE_X86_SETB: case FE_X86_SETBE: case FE_X86_SETA: {
        ir_operand zf;
        if (!x86_condition(x, in, &zf))
            return false;
        if (is_mem(&in->dst)) {
            if (!mem_addr(x, &in->dst, &addr))
                return false;
            lw_store(w, addr, zf, IR_X86_PLAIN);
            return true;
        }
        return set_reg(x, &in->dst, zf);
    }
    case FE_X86_XCHG: return xchg(x, in);
    case FE_X86_XADD: return xadd(x, in);
    case FE_X86_CMPXCHG: return cmpxchg(x, in);
    case FE_X86_MFENCE: lw_fence(w, IR_FENCE_MFENCE, IR_MODE_NONE); return true;
    case FE_X86_LFENCE: lw_fence(w, IR_FENCE_LFENCE, IR_MODE_NONE); return true;
    case FE_X86_SFENCE: lw_fence(w, IR_FENCE_SFENCE, IR_MODE_NONE); return true;
    case FE_X86_JMP:
    case FE_X86_JE:
    case FE_X86_JNE:
    case FE_X86_JL: case FE_X86_JGE: case FE_X86_JLE: case FE_X86_JG:
    case FE_X86_JB: case FE_X86_JAE: case FE_X86_JBE: case FE_X86_JA:
        return jump(x, in);
    case FE_X86_SETNB: {
        ir_operand cf;
        if (!x86_carry_flag(x, in, &cf))
            return false;
        v = lw_bin(w, IR_EQ, cf, ir_imm(0));
        if (is_mem(&in->dst)) {
            if (!mem_addr(x, &in->dst, &addr))
                return false;
            lw_store(w, addr, v, IR_X86_PLAIN);
            return true;
        }
        return set_reg(x, &in->dst, v);
    }
    case FE_X86_CMOVC: case FE_X86_CMOVE: case FE_X86_CMOVNE: case FE_X86_CMOVL: case FE_X86_CMOVGE:
    case FE_X86_CMOVLE: case FE_X86_CMOVG: case FE_X86_CMOVAE: case FE_X86_CMOVBE: case FE_X86_CMOVA: {
        /* old + c * (src - old), c the condition as 0 or 1 */
        ir_operand cf, src;
        if (in->dst.kind != FE_XO_REG)
            return lw_error(w, in->pos, "%s needs a register destination", fe_x86_op_name(in->op));
        bool got = in->op == FE_X86_CMOVC ? x86_carry_flag(x, in, &cf) : x86_condition(x, in, &cf);
        if (!got || !value_of(x, &in->src, &src))
            return false;
        int d = lw_find_reg(w, in->dst.name);
        ir_operand old = w->cur[d];
        w->cur[d] = lw_bin(w, IR_ADD, old, lw_bin(w, IR_MUL, cf, lw_bin(w, IR_SUB, src, old)));
        return true;
    }
    case FE_X86_SHL: case FE_X86_SHR: case FE_X86_SAR:
        return shift(x, in);
    case FE_X86_RET:
        lw_jump(w, &x->end);
        return true;
    case FE_X86_OP_COUNT:
        break;
    }
    return lw_error(w, in->pos, "unknown instruction");
}

static void scan_opnd(lw *w, const fe_x86_opnd *o)
{
    if ((o->kind == FE_XO_REG || o->kind == FE_XO_MEM_REG) && o->name)
        lw_add_reg(w, o->name, false);
    if (o->kind == FE_XO_MEM_REG && o->index)
        lw_add_reg(w, o->index, false);
}

/* One instruction, after the join of the edges into its label. */
static bool row(x86 *x, const fe_x86_instr *in)
{
    lw *w = x->w;
    lw_set_src(w, in->pos, lw_src_x86(w->ft, in));
    if (in->label) {
        label *l = find_label(x, in->label, true);
        if (l->defined)
            return lw_error(w, in->pos, "label %s is defined twice", in->label);
        l->defined = true;
        if (w->block >= 0)
            merge_flags(l, &x->fl);
        lw_add_fall(w, &l->pending);
        lw_join(w, &l->pending);
        /* flags that differ by edge are not merged across a join */
        x->fl = l->fl_any && !l->fl_mixed ? l->fl : (flags){.kind = FL_NONE};
    }
    if (w->block < 0)
        return true;    /* unreachable: after a JMP, before any label */
    return instr(x, in);
}

/* The end of a region: control that reaches it goes on at the label of the
 * next region in the text, NEXT (an edge pending there until that region
 * is lowered), or past the last row when NEXT is NULL. */
static bool fall_out(x86 *x, const fe_x86_instr *next)
{
    lw *w = x->w;
    if (w->block < 0)
        return true;
    if (!next) {
        lw_add_fall(w, &x->end);
    } else {
        label *l = find_label(x, next->label, true);
        if (l->defined)     /* the plan puts every region after those that fall into it */
            return lw_error(w, next->pos, "internal error: label %s lowered before the row above it",
                            next->label);
        merge_flags(l, &x->fl);
        lw_add_fall(w, &l->pending);
    }
    w->block = -1;
    return true;
}

bool lw_x86_thread(lw *w)
{
    x86 x = {.w = w, .acc = isa_of(w->ft->arch)->acc};
    const fe_thread *ft = w->ft_th;
    for (int i = 0; i < ft->ncode; i++) {
        scan_opnd(w, &ft->code[i].dst);
        scan_opnd(w, &ft->code[i].src);
        if (ft->code[i].op == FE_X86_CMPXCHG)
            lw_add_reg(w, x.acc, false);
    }
    lw_x86_plan plan;
    bool ok = lw_x86_plan_make(w, ft, &plan);
    for (int k = 0; ok && k < plan.n; k++) {
        int r = plan.order[k], end = r + 1 < plan.n ? plan.start[r + 1] : ft->ncode;
        for (int i = plan.start[r]; ok && i < end; i++)
            ok = row(&x, &ft->code[i]);
        if (ok)
            ok = fall_out(&x, r + 1 < plan.n ? &ft->code[plan.start[r + 1]] : NULL);
    }
    lw_x86_plan_free(&plan);
    for (size_t i = 0; ok && i < x.nlabels; i++)
        if (!x.labels[i].defined && x.labels[i].pending.n) {
            /* A jump to a label that no row defines. */
            for (int k = 0; k < ft->ncode; k++) {
                const fe_x86_instr *in = &ft->code[k];
                const fe_x86_opnd *t = in->dst.kind == FE_XO_LABEL ? &in->dst : &in->src;
                if (t->kind == FE_XO_LABEL && !strcmp(t->name, x.labels[i].name)) {
                    ok = lw_error(w, t->pos, "label %s is not defined in thread %d", t->name, w->th->id);
                    break;
                }
            }
        }
    if (ok) {
        lw_add_fall(w, &x.end);
        lw_join(w, &x.end);
    }
    for (size_t i = 0; i < x.nlabels; i++)
        lw_edges_free(&x.labels[i].pending);
    free(x.labels);
    lw_edges_free(&x.end);
    return ok;
}
