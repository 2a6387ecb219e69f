/* x86 instruction lists -> GCC extended inline asm, one asm statement per
 * thread and instance:
 *   - every x86 register the thread uses is a 64-bit local bound by a
 *     "+&r" operand ("+&a" for EAX, cmpxchg's implicit operand), holding
 *     its initial value (an address, a constant, or 0 as in herd); data
 *     instructions name its 32-bit part (%k) and use 32-bit forms (movl)
 *     in X86 tests, the whole register (%q) and 64-bit forms (movq) in
 *     X86_64 tests, whose locations are 64-bit cells; memory through a
 *     register always uses its 64-bit part, since addresses are host
 *     pointers, and so does an instruction that copies or adds to an
 *     address in registers (addr_regs.c);
 *   - each location the code names is a "+m" operand on the instance's cell;
 *   - "cc" and "memory" clobbers; labels use %= so they are unique;
 *   - marker comments #START _litmus_P<id>, #_litmus_P<id>_<j> before
 *     instruction j and #END _litmus_P<id> let the compiled assembly be
 *     cut out and shown (objdump -S, or cc -S).
 * Observed registers are copied out after the asm, sign-extended from 32
 * bits in X86 tests. */
#include <stdlib.h>
#include <string.h>
#include "backends/native/native_internal.h"
#include "backends/x86/x86.h"
#include "backends/x86native/x86native.h"

typedef struct xn_ctx {
    const x86_prog *p;
} xn_ctx;

static const char *const reg_var[X86_NREGS] = {
    "lt_eax", "lt_ebx", "lt_ecx", "lt_edx", "lt_esi", "lt_edi", "lt_ebp", "lt_esp",
};

const char *x86native_default_scheme(ir_arch arch)
{
    switch (arch) {
    case IR_ARCH_C: return "c11-x86-xchg";
    case IR_ARCH_JAVA: return "java-x86-hotspot";
    default: return NULL;
    }
}

static bool valid_reg(x86_reg r)
{
    return r >= 0 && r < X86_NREGS;
}

static void note_opnd(const x86_opnd *o, bool *regs, bool *mems, int nlocs)
{
    if ((o->kind == X86_O_REG || o->kind == X86_O_MEM_REG) && valid_reg(o->reg))
        regs[o->reg] = true;
    if (o->kind == X86_O_MEM && o->loc >= 0 && o->loc < nlocs)
        mems[o->loc] = true;
}

/* One operand in AT&T syntax, a register's 64-bit part where WIDE. */
static bool put_opnd(strbuf *b, const x86_opnd *o, const ir_test *t, bool wide, diag *d)
{
    switch (o->kind) {
    case X86_O_REG:
        if (!valid_reg(o->reg))
            break;
        sb_printf(b, "%%%c[%s]", wide ? 'q' : 'k', reg_var[o->reg] + 3);
        return true;
    case X86_O_IMM:
        /* An instruction takes a sign-extended 32-bit immediate at most. */
        if (o->imm < INT32_MIN || o->imm > (wide ? INT32_MAX : (int64_t)UINT32_MAX))
            return diag_error(d, t->file ? t->file : t->name, 0, 0,
                              "immediate %lld does not fit an x86 instruction", (long long)o->imm), false;
        sb_printf(b, "$%lld", (long long)o->imm);
        return true;
    case X86_O_MEM:
        if (o->loc < 0 || o->loc >= t->nlocs)
            break;
        sb_printf(b, "%%[m%d]", o->loc);
        return true;
    case X86_O_MEM_REG:
        if (!valid_reg(o->reg))
            break;
        sb_printf(b, "(%%q[%s])", reg_var[o->reg] + 3);
        return true;
    case X86_O_LABEL:
        sb_printf(b, "lt_L%d_%%=", o->label);
        return true;
    default:
        break;
    }
    return diag_error(d, t->file ? t->file : t->name, 0, 0, "malformed x86 operand"), false;
}

/* One instruction as an asm template line (Intel order in, AT&T out), in
 * its 64-bit form in an X86_64 test and where it works on an address
 * (ADDRESS: x86native_address_op). */
static bool put_instr(strbuf *b, const x86_instr *in, const ir_test *t, bool address, diag *d)
{
    bool wide = t->arch == IR_ARCH_X86_64 || address;
    static const char *const mnem[X86_OP_COUNT] = {
        [X86_MOV] = "movl", [X86_XCHG] = "xchgl", [X86_ADD] = "addl", [X86_SUB] = "subl",
        [X86_AND] = "andl", [X86_OR] = "orl", [X86_XOR] = "xorl", [X86_XADD] = "xaddl",
        [X86_CMPXCHG] = "cmpxchgl", [X86_CMP] = "cmpl", [X86_MFENCE] = "mfence",
        [X86_LFENCE] = "lfence", [X86_SFENCE] = "sfence", [X86_JMP] = "jmp",
        [X86_JE] = "je", [X86_JNE] = "jne",
    };
    if (in->op == X86_LABEL) {
        sb_printf(b, "lt_L%d_%%=:", in->label);
        return true;
    }
    if ((int)in->op < 0 || in->op >= X86_OP_COUNT || !mnem[in->op])
        return diag_error(d, t->file ? t->file : t->name, in->line, 0,
                          "x86 instruction the native target cannot emit"), false;
    sb_printf(b, "%s%s", in->lock && in->op != X86_XCHG ? "lock " : "", mnem[in->op]);
    switch (in->op) {
    case X86_MFENCE: case X86_LFENCE: case X86_SFENCE:
        return true;
    case X86_JMP: case X86_JE: case X86_JNE:
        sb_addc(b, ' ');
        return put_opnd(b, &in->dst, t, wide, d);
    default:
        break;
    }
    if (wide)  /* movl -> movq, and so on */
        b->s[b->len - 1] = 'q';
    /* AT&T order is the reverse of Intel's. */
    sb_addc(b, ' ');
    if (!put_opnd(b, &in->src, t, wide, d))
        return false;
    sb_addc(b, ',');
    if (!put_opnd(b, &in->dst, t, wide, d))
        return false;
    if (in->waits) {
        /* A lock's exchange, repeated until it read the mutex free; in
         * between, reads only (test-and-test-and-set), with a pause.  The
         * register is set to 1 again for each try. */
        char q = wide ? 'q' : 'l';
        sb_printf(b, "\\n\\ttest%c ", q);
        put_opnd(b, &in->src, t, wide, d);
        sb_addc(b, ',');
        put_opnd(b, &in->src, t, wide, d);
        sb_printf(b, "\\n\\tjz 2f\\n1:\\tpause\\n\\tcmp%c $0,", q);
        put_opnd(b, &in->dst, t, wide, d);
        sb_printf(b, "\\n\\tjne 1b\\n\\tmov%c $1,", q);
        put_opnd(b, &in->src, t, wide, d);
        sb_printf(b, "\\n\\txchg%c ", q);
        put_opnd(b, &in->src, t, wide, d);
        sb_addc(b, ',');
        put_opnd(b, &in->dst, t, wide, d);
        sb_printf(b, "\\n\\ttest%c ", q);
        put_opnd(b, &in->src, t, wide, d);
        sb_addc(b, ',');
        put_opnd(b, &in->src, t, wide, d);
        sb_add(b, "\\n\\tjnz 1b\\n2:");
    }
    return true;
}

/* Whether location L's cell has the width the code uses on it. */
static bool loc_fits(const ir_test *t, int l, bool wide)
{
    const char *ty = nat_cell_type(t, l);
    if (wide)
        return !strcmp(ty, "int64_t") || !strcmp(ty, "uint64_t");
    return !strcmp(ty, "int32_t") || !strcmp(ty, "uint32_t");
}

/* Is register R written by any instruction (so an address it held at
 * the start may be gone by the end)? */
static bool reg_written(const x86_thread *xt, x86_reg r)
{
    for (int i = 0; i < xt->ncode; i++) {
        const x86_instr *in = &xt->code[i];
        if (in->dst.kind == X86_O_REG && in->dst.reg == r && in->op != X86_CMP)
            return true;
        if ((in->op == X86_XCHG || in->op == X86_XADD) && in->src.kind == X86_O_REG && in->src.reg == r)
            return true;
        if (in->op == X86_CMPXCHG && r == X86_EAX)
            return true;
    }
    return false;
}

/* Whether IN reads or writes memory or orders it: where a gap goes. */
static bool touches_memory(const x86_instr *in)
{
    bool mem = in->dst.kind == X86_O_MEM || in->dst.kind == X86_O_MEM_REG ||
               in->src.kind == X86_O_MEM || in->src.kind == X86_O_MEM_REG;
    return mem || in->op == X86_MFENCE || in->op == X86_LFENCE || in->op == X86_SFENCE;
}

/* LT_GAP[K] spins of pause in a scratch register, none when it is 0; the
 * local labels 1 and 2 cannot clash with the test's (lt_L<n>_<id>).  A
 * gap of LRT_SWITCH (all ones) calls lrt_switch instead, every register
 * and the flags saved around the call on the stack, below the red zone
 * the compiler may keep its own data in, the stack aligned as the call
 * needs: the test's registers and flags come back as they were. */
static const char *const saved_regs[] = {"rax", "rcx", "rdx", "rbx", "rbp", "rsi", "rdi", "r8",
                                         "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};
enum { NSAVED = sizeof saved_regs / sizeof *saved_regs };

static void put_gap(strbuf *b, int k, bool locking)
{
    sb_printf(b, "        \"\\tmovl %d(%%q[gp]), %%k[gc]\\n\"\n", 4 * k);
    if (locking) {
        /* A thread that takes locks never switches (lrt_gap_locking). */
        sb_add(b, "        \"\\ttestl %k[gc], %k[gc]\\n\\tjz 2f\\n\\tcmpl $-1, %k[gc]\\n\\tje 2f\\n\"\n"
                  "        \"1:\\tpause\\n\\tdecl %k[gc]\\n\\tjnz 1b\\n2:\\n\"\n");
        return;
    }
    sb_add(b, "        \"\\ttestl %k[gc], %k[gc]\\n\\tjz 2f\\n\"\n"
              "        \"\\tcmpl $-1, %k[gc]\\n\\tjne 1f\\n\"\n"
              "        \"\\tleaq -128(%%rsp), %%rsp\\n\\tpushfq\\n\"\n");
    for (int r = 0; r < NSAVED; r++)
        sb_printf(b, "        \"\\tpushq %%%%%s\\n\"\n", saved_regs[r]);
    sb_add(b, "        \"\\tmovq %%rsp, %%rbx\\n\\tandq $-16, %%rsp\\n\\tcall lrt_switch\\n"
              "\\tmovq %%rbx, %%rsp\\n\"\n");
    for (int r = NSAVED - 1; r >= 0; r--)
        sb_printf(b, "        \"\\tpopq %%%%%s\\n\"\n", saved_regs[r]);
    sb_add(b, "        \"\\tpopfq\\n\\tleaq 128(%%rsp), %%rsp\\n\\tjmp 2f\\n\"\n"
              "        \"1:\\tpause\\n\\tdecl %k[gc]\\n\\tjnz 1b\\n2:\\n\"\n");
}

/* The C variables that stand for the x86 registers the thread uses, each
 * with its initial value (a location's address, or a number). */
static void put_reg_vars(strbuf *b, const x86_thread *xt, const bool *regs, int nl)
{
    for (int r = 0; r < X86_NREGS; r++) {
        if (!regs[r])
            continue;
        sb_printf(b, "    int64_t %s = ", reg_var[r]);
        bool set = false;
        for (int i = 0; i < xt->ninits; i++) {
            if (xt->inits[i].reg != (x86_reg)r)
                continue;
            ir_val v = xt->inits[i].val;
            if (IR_IS_ADDR(v) && IR_ADDR_LOC(v) >= 0 && IR_ADDR_LOC(v) < nl)
                sb_printf(b, "(int64_t)(intptr_t)lt_c[%d]", IR_ADDR_LOC(v));
            else
                nat_int_lit(b, v);
            set = true;
            break;
        }
        if (!set)
            sb_add(b, "0");
        sb_printf(b, "; /* %s */\n", x86_reg_name((x86_reg)r));
    }
}

/* The thread's observed registers into its output slots: source name ->
 * x86 register, through the program's map. */
static void put_outputs(strbuf *b, const nat_frame *f, int ti, const x86_prog *p, const x86_thread *xt,
                        const bool *regs, bool wide)
{
    const ir_thread *src = &f->t->threads[ti];
    for (int k = 0; k < f->nregs[ti]; k++) {
        x86_reg r = x86_prog_lookup(p, src->id, f->regs[ti][k]);
        sb_printf(b, "    lt_out[%d] = ", k);
        int fr = ir_thread_find_reg(src, f->regs[ti][k]);
        if (valid_reg(r) && regs[r]) {
            ir_val init = 0;
            bool addr = false;
            for (int i = 0; i < xt->ninits; i++)
                if (xt->inits[i].reg == r && IR_IS_ADDR(xt->inits[i].val))
                    addr = true, init = xt->inits[i].val;
            if (addr && !reg_written(xt, r))
                nat_int_lit(b, init);    /* herd shows the location, not a host pointer */
            else
                sb_printf(b, wide ? "%s" : "(int64_t)(int32_t)%s", reg_var[r]);
        } else if (fr >= 0 && src->final_regs[fr].value.kind == IR_OPND_IMM) {
            nat_int_lit(b, src->final_regs[fr].value.imm);
        } else {
            sb_add(b, "0");
        }
        sb_add(b, "; /* ");
        nat_comment(b, f->regs[ti][k]);
        sb_add(b, " */\n");
    }
}

static bool xn_body(strbuf *b, const nat_frame *f, int ti, void *ctx, diag *d)
{
    const xn_ctx *cx = ctx;
    const x86_prog *p = cx->p;
    const ir_test *t = p->target;
    const x86_thread *xt = &p->threads[ti];
    bool wide = t->arch == IR_ARCH_X86_64;     /* 64-bit data and cells */
    int nl = t->nlocs;
    bool regs[X86_NREGS] = {0};
    bool *mems = xcalloc((size_t)nl + 1, sizeof *mems);
    for (int i = 0; i < xt->ncode; i++) {
        note_opnd(&xt->code[i].dst, regs, mems, nl);
        note_opnd(&xt->code[i].src, regs, mems, nl);
        if (xt->code[i].op == X86_CMPXCHG)
            regs[X86_EAX] = true;
    }
    for (int i = 0; i < xt->ninits; i++)
        if (valid_reg(xt->inits[i].reg))
            regs[xt->inits[i].reg] = true;
    /* Judge widths by the source test: the compiled one has x86 types. */
    for (int l = 0; l < f->t->nlocs; l++)
        if (!loc_fits(f->t, l, wide)) {
            free(mems);
            return diag_error(d, f->t->file ? f->t->file : f->t->name, 0, 0,
                              "location '%s' has cell type %s: the x86 target handles %s locations only",
                              f->t->locs[l].name, nat_cell_type(f->t, l),
                              wide ? "64-bit (X86_64)" : "32-bit"), false;
        }

    sb_printf(b, "/* Thread %d (", xt->id);
    nat_comment(b, f->t->threads[ti].name);
    sb_printf(b, "), scheme ");
    nat_comment(b, p->scheme);
    sb_add(b, " */\n");
    nat_thread_open(b, f, ti);
    sb_add(b, "    (void)lt_c;\n    (void)lt_out;\n");
    if (f->gapped)
        sb_add(b, "    int64_t lt_gc;\n");
    put_reg_vars(b, xt, regs, nl);
    /* The markers name the plain body only: the gapped twin is not the
     * test's code as a reader would cut it out. */
    const char *mark = f->gapped ? "gapped_" : "";
    sb_add(b, "    __asm__ __volatile__(\n");
    sb_printf(b, "        \"#START _litmus_%sP%d\\n\"\n", mark, xt->id);
    int j = 0, naccess = 0;
    bool ok = true;
    /* a waiting XCHG or a trylock's CMPXCHG comes from one of the source's locks */
    bool locking = ir_thread_takes_locks(&f->t->threads[ti]);     /* then its gaps never switch */
    unsigned *addr = xcalloc((size_t)xt->ncode + 1, sizeof *addr);
    x86native_address_regs(xt, addr);
    for (int i = 0; ok && i < xt->ncode; i++) {
        const x86_instr *in = &xt->code[i];
        if (in->op != X86_LABEL)
            sb_printf(b, "        \"#_litmus_%sP%d_%d\\n\"\n", mark, xt->id, j++);
        if (f->gapped && touches_memory(in))
            put_gap(b, nat_gap_position(naccess++), locking);
        strbuf line = {0};
        ok = put_instr(&line, in, t, x86native_address_op(in, addr[i]), d);
        if (ok)
            sb_printf(b, "        \"%s%s\\n\"\n", in->op == X86_LABEL ? "" : "\\t", line.s ? line.s : "");
        sb_free(&line);
    }
    free(addr);
    sb_printf(b, "        \"#END _litmus_%sP%d\\n\"\n        : ", mark, xt->id);
    bool first = true;
    for (int l = 0; l < nl; l++) {
        if (!mems[l])
            continue;
        sb_printf(b, "%s[m%d] \"+m\" (*(volatile %s *)lt_c[%d])", first ? "" : ",\n          ", l,
                  nat_cell_type(t, l), l);
        first = false;
    }
    for (int r = 0; r < X86_NREGS; r++) {
        if (!regs[r])
            continue;
        sb_printf(b, "%s[%s] \"+&%s\" (%s)", first ? "" : ",\n          ", reg_var[r] + 3,
                  r == X86_EAX ? "a" : "r", reg_var[r]);
        first = false;
    }
    if (f->gapped)
        /* a switch calls C code, which may use the vector registers */
        sb_printf(b, "%s[gc] \"=&r\" (lt_gc)\n        : [gp] \"r\" (lt_gap)\n        : \"cc\", \"memory\", "
                     "\"xmm0\", \"xmm1\", \"xmm2\", \"xmm3\", \"xmm4\", \"xmm5\", \"xmm6\", \"xmm7\",\n"
                     "          \"xmm8\", \"xmm9\", \"xmm10\", \"xmm11\", \"xmm12\", \"xmm13\", \"xmm14\", \"xmm15\");\n"
                     "    (void)lt_gc;\n", first ? "" : ",\n          ");
    else
        sb_add(b, "\n        :\n        : \"cc\", \"memory\");\n");
    free(mems);
    if (!ok)
        return false;

    put_outputs(b, f, ti, p, xt, regs, wide);
    sb_add(b, "}\n");
    return true;
}

/* The compiled program's locations must extend the source's, index for
 * index, because outcomes are read in the source's terms. */
static bool same_locations(const ir_test *src, const ir_test *tgt, diag *d)
{
    if (tgt->nlocs < src->nlocs || tgt->nthreads != src->nthreads)
        return diag_fail(d, "%s: compiled program does not match the source test", src->name);
    for (int l = 0; l < src->nlocs; l++)
        if (strcmp(src->locs[l].name, tgt->locs[l].name))
            return diag_fail(d, "%s: compiled program renumbers locations", src->name);
    return true;
}

char *x86native_generate(const ir_test *t, const native_opts *o, diag *d)
{
    if (!ir_refuse_loops(t, "the x86 harness", d))
        return NULL;
    const char *name = o->scheme ? o->scheme : x86native_default_scheme(t->arch);
    x86_scheme *s = NULL;
    if (name && !(s = x86_scheme_load(name, d)))
        return NULL;
    if (s && t->arch != x86_scheme_arch(s)) {
        diag_error(d, t->file ? t->file : t->name, 0, 0, "scheme '%s' is for %s tests, not %s",
                   x86_scheme_name(s), ir_arch_name(x86_scheme_arch(s)), ir_arch_name(t->arch));
        x86_scheme_free(s);
        return NULL;
    }
    x86_prog *p = x86_compile(t, s, d);
    x86_scheme_free(s);
    if (!p)
        return NULL;
    char *out = NULL;
    /* The compiled program is X86 IR whatever the source's syntax; an
     * X86_64 source keeps its arch there, and with it 64-bit cells and
     * instruction forms (everything below reads them off the compiled
     * program). */
    if (t->arch == IR_ARCH_X86_64)
        p->target->arch = IR_ARCH_X86_64;
    if (same_locations(t, p->target, d)) {
        xn_ctx cx = {p};
        strbuf target = {0};
        sb_printf(&target, "x86, scheme %s", p->scheme);
        char *tname = sb_take(&target);
        out = nat_program(t, p->target, tname, NULL, xn_body, &cx, d);
        free(tname);
    }
    x86_prog_free(p);
    return out;
}
