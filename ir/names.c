/* Spellings of the IR's enumerations (shared by the printer, the reader and
 * every consumer that shows IR to a user), and herd's integer arithmetic. */
#include <string.h>
#include "ir/ir.h"

/* The languages' names; an instruction set's is its row's (isa/isa.c). */
static const char *const lang_names[] = {"C", "Java"};
static const char *const mode_names[IR_MODE_COUNT] = {
    "none", "na", "rlx", "con", "acq", "rel", "acq_rel", "sc",
    "plain", "opaque", "acquire", "release", "volatile",
    "x86", "locked",
    "a64", "a64acq", "a64acqpc", "a64rel", "a64acqrel",
};
static const char *const fence_names[IR_FENCE_COUNT] = {
    "c", "full", "acquire", "release", "loadload", "storestore",
    "mfence", "lfence", "sfence",
    "dmb.sy", "dmb.st", "dmb.ld", "dmb.ish", "dmb.ishst", "dmb.ishld", "dmb.osh", "dmb.oshst", "dmb.oshld",
    "dsb.sy", "dsb.st", "dsb.ld", "dsb.ish", "dsb.ishst", "dsb.ishld", "dsb.osh", "dsb.oshst", "dsb.oshld",
    "isb",
};
static const char *const rmw_names[IR_RMW_COUNT] = {"xchg", "add", "sub", "and", "or", "xor", "cas"};
static const char *const op_names[IR_OP_COUNT] = {
    "load", "store", "rmw", "fence", "bin", "phi", "br", "jmp", "ret", "lock", "unlock", "cut",
};
static const char *const lock_names[IR_LK_COUNT] = {"spin", "mtx", "monitor"};
static const char *const binop_names[IR_BINOP_COUNT] = {
    "add", "sub", "mul", "div", "rem", "and", "or", "xor", "shl", "shr",
    "eq", "ne", "lt", "le", "gt", "ge",
};

const char *ir_arch_name(ir_arch a)
{
    const isa *i = isa_of((int)a);
    if (i)
        return i->name;
    unsigned k = (unsigned)a - (unsigned)IR_ARCH_C;
    return (unsigned)a >= (unsigned)IR_ARCH_C && k < sizeof lang_names / sizeof *lang_names ? lang_names[k] : "?";
}

const char *ir_mode_name(ir_mode m)
{
    return (unsigned)m < IR_MODE_COUNT ? mode_names[m] : "?";
}

const char *ir_fence_name(ir_fence_kind k)
{
    return (unsigned)k < IR_FENCE_COUNT ? fence_names[k] : "?";
}

const char *ir_rmw_name(ir_rmw_op op)
{
    return (unsigned)op < IR_RMW_COUNT ? rmw_names[op] : "?";
}

const char *ir_lock_name(ir_lock_kind k)
{
    return (unsigned)k < IR_LK_COUNT ? lock_names[k] : "?";
}

const char *ir_binop_name(ir_binop op)
{
    return (unsigned)op < IR_BINOP_COUNT ? binop_names[op] : "?";
}

const char *ir_op_name(ir_op op)
{
    return (unsigned)op < IR_OP_COUNT ? op_names[op] : "?";
}

const char *ir_quant_name(ir_quant q)
{
    return q == IR_Q_EXISTS ? "exists" : q == IR_Q_NOT_EXISTS ? "~exists" : "forall";
}

/* Reverse look-ups for the reader: -1 when NAME is not a spelling. */
static int find_name(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], name))
            return i;
    return -1;
}

int ir_arch_from_name(const char *name)
{
    const isa *i = isa_named(name, strlen(name));
    if (i)
        return (int)i->id;
    int k = find_name(lang_names, (int)(sizeof lang_names / sizeof *lang_names), name);
    return k < 0 ? -1 : IR_ARCH_C + k;
}
int ir_mode_from_name(const char *name) { return find_name(mode_names, IR_MODE_COUNT, name); }
int ir_fence_from_name(const char *name) { return find_name(fence_names, IR_FENCE_COUNT, name); }
int ir_rmw_from_name(const char *name) { return find_name(rmw_names, IR_RMW_COUNT, name); }
int ir_binop_from_name(const char *name) { return find_name(binop_names, IR_BINOP_COUNT, name); }
int ir_lock_from_name(const char *name) { return find_name(lock_names, IR_LK_COUNT, name); }

/* herd computes on 64-bit integers with wrap-around; arithmetic is done on
 * uint64_t so that overflow is defined.  Shifts use the low 6 bits of the
 * count, as the hardware does; SHR is arithmetic (herd's values are signed). */
bool ir_binop_eval(ir_binop op, ir_val a, ir_val b, ir_val *out)
{
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    ir_val r;
    switch (op) {
    case IR_ADD: r = (ir_val)(ua + ub); break;
    case IR_SUB: r = (ir_val)(ua - ub); break;
    case IR_MUL: r = (ir_val)(ua * ub); break;
    case IR_DIV:
    case IR_REM:
        if (b == 0)
            return false;
        if (a == INT64_MIN && b == -1)     /* the one quotient that overflows */
            r = op == IR_DIV ? INT64_MIN : 0;
        else
            r = op == IR_DIV ? a / b : a % b;
        break;
    case IR_AND: r = a & b; break;
    case IR_OR:  r = a | b; break;
    case IR_XOR: r = a ^ b; break;
    case IR_SHL: r = (ir_val)(ua << (ub & 63)); break;
    case IR_SHR: r = a >> (ub & 63); break;
    case IR_EQ: r = a == b; break;
    case IR_NE: r = a != b; break;
    case IR_LT: r = a < b; break;
    case IR_LE: r = a <= b; break;
    case IR_GT: r = a > b; break;
    case IR_GE: r = a >= b; break;
    default: return false;
    }
    *out = r;
    return true;
}

bool ir_thread_pos(const ir_test *t, int th, int *line, int *col)
{
    if (th < 0 || th >= t->nthreads)
        return false;
    const ir_thread *tr = &t->threads[th];
    for (int b = 0; b < tr->nblocks; b++)
        for (int i = 0; i < tr->blocks[b].ninstrs; i++)
            if (tr->blocks[b].instrs[i].line > 0) {
                *line = tr->blocks[b].instrs[i].line;
                *col = tr->blocks[b].instrs[i].col;
                return true;
            }
    return false;
}

bool ir_loc_pos(const ir_test *t, int loc, int *line, int *col)
{
    for (int th = 0; th < t->nthreads; th++) {
        const ir_thread *tr = &t->threads[th];
        for (int b = 0; b < tr->nblocks; b++)
            for (int i = 0; i < tr->blocks[b].ninstrs; i++) {
                const ir_instr *in = &tr->blocks[b].instrs[i];
                if (in->line > 0 && in->addr.kind == IR_OPND_IMM && IR_IS_ADDR(in->addr.imm) &&
                    IR_ADDR_LOC(in->addr.imm) == loc) {
                    *line = in->line;
                    *col = in->col;
                    return true;
                }
            }
    }
    return false;
}
