/* One AArch64 thread's machine code as rows of herd's AArch64 dialect:
 * the walk over its instructions, the arithmetic and branches; loads,
 * stores and atomics are a64_mem.c's.
 *
 * What the compiler does to reach a location is not the test's code: ADRP
 * and its :lo12: ADD (a relocation names the symbol, or gcc's section
 * anchor .bss plus an offset, which the object's symbol table names), an
 * ADD of an offset to such an address, a MOV of it, and -O0's spill of it
 * to a stack slot and reload are followed and dropped; each access then
 * names the location through a register the init gives its address
 * (`0:X10=x;`).  A register holding an address may only serve as a base,
 * or have a value added to it (an address dependency: herd's register
 * offset, or for an access herd takes as [Xn] alone the address computed
 * with ADDs, a64_mem.c); any other use (stored, compared) is refused by
 * name.  The stack is the thread's own, so each slot that holds a value
 * becomes a spare register (STR W0,[SP,#12] -> MOV W10,W0), as x86's
 * lifter does, freed after the slot's last read for the next slot (a
 * first pass finds where that is); the frame (SP arithmetic, X29/X30 and
 * callee-saved registers saved and restored) is dropped.
 *
 * Branches go forward to labels (states meet there).  A jump back to code
 * that runs straight into RET is a tail the compiler shares, lifted again
 * where the jump is.  Any other jump back is a retry, and is cut: it goes to a store of 1 to cc_unroll and the
 * thread's end, and check.c drops the runs that take it, as herd7 drops
 * those past its -unroll bound.  For a store-exclusive's retry (`CBNZ
 * W3,<back to the LDAXR>`, every RMW at -march=armv8-a) that loses no
 * final state: a failed attempt writes nothing and its reads only add
 * constraints.  For clang -O0's compare-exchange loop around an RMW it
 * bounds the runs to those whose first compare succeeds, so a state only
 * a retry reaches could go unseen (a bug missed, never one made up).  A
 * call, an indirect jump, and an instruction outside herd7 7.57's AArch64
 * are refused by name. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "lift/a64_ctx.h"

/* Mnemonics of herd7 7.57's AArch64 that are neither memory nor branch. */
static bool plain_in_dialect(const char *m)
{
    static const char *const ok[] = {
        "mov", "movz", "movn", "movk", "mvn", "add", "adds", "sub", "subs", "and", "ands", "orr", "orn", "eor",
        "eon", "bic", "bics", "neg", "negs", "cmp", "tst", "lsl", "lsr", "asr", "ror", "sxtb", "sxth", "sxtw",
        "uxtb", "uxth", "uxtw", "ubfm", "sbfm", "csel", "csinc", "csinv", "csneg", "cset", "csetm", "cinc", "dmb",
        "dsb", "isb", NULL};
    for (int i = 0; ok[i]; i++)
        if (!strcmp(m, ok[i]))
            return true;
    return false;
}

static bool is_branch(const char *m)
{
    return !strcmp(m, "b") || !strncmp(m, "b.", 2) || !strcmp(m, "cbz") || !strcmp(m, "cbnz") || !strcmp(m, "tbz") ||
           !strcmp(m, "tbnz");
}

/* What the compiler adds and the test does not need: padding, branch
 * target and pointer authentication hints, and CLREX (clang's on a failed
 * compare-exchange: it clears the thread's exclusive monitor where no
 * store-exclusive follows, and herd has no such instruction). */
static bool no_op(const char *m)
{
    return !strcmp(m, "nop") || !strcmp(m, "hint") || !strcmp(m, "bti") || !strncmp(m, "paci", 4) ||
           !strncmp(m, "auti", 4) || !strcmp(m, "clrex");
}

/* An address's arithmetic, followed in S and dropped (*DONE); false and D
 * set for an address that no relocation names. */
static bool address_insn(ctx *c, const a64_insn *in, astate *s, a64_ops ops, int n, bool *done)
{
    const char *m = in->mnem;
    char w;
    int d = n > 0 ? a64_reg(ops[0], &w) : -1, s1 = n > 1 ? a64_reg(ops[1], &w) : -1;
    long imm = 0;
    bool addsub = (!strcmp(m, "add") || !strcmp(m, "sub")) && n == 3 && a64_imm(ops[2], &imm);
    const lift_reloc *rl = a64_reloc_at(c, in);
    int64_t sign = m[0] == 's' ? -1 : 1;
    *done = true;
    if (addsub && s1 == A64_SP && !rl) {
        if (d == A64_SP)
            s->sp += sign * imm;
        else if (d >= 0 && d < NREG)
            s->r[d] = (aval){.k = V_STACK, .off = s->sp + sign * imm};
        return true;
    }
    if (!strcmp(m, "mov") && n == 2 && s1 == A64_SP && d >= 0 && d < NREG) {
        s->r[d] = (aval){.k = V_STACK, .off = s->sp};
        return true;
    }
    if (!strcmp(m, "mov") && n == 2 && d == A64_SP && s1 >= 0 && s1 < NREG && s->r[s1].k == V_STACK) {
        s->sp = s->r[s1].off;
        return true;
    }
    if (!strcmp(m, "adrp")) {
        if (!rl || rl->type != 275 || d < 0 || d >= NREG)
            return a64_refuse(c, in, "an address that no ADR_PREL_PG_HI21 relocation names");
        s->r[d] = (aval){.k = V_PAGE, .sec = rl->shndx, .off = (int64_t)rl->value};
        return true;
    }
    if (!strcmp(m, "add") && rl && rl->type == 277) {   /* R_AARCH64_ADD_ABS_LO12_NC */
        if (s1 < 0 || s1 >= NREG || s->r[s1].k != V_PAGE || d < 0 || d >= NREG)
            return a64_refuse(c, in, "a :lo12: address without its page");
        s->r[d] = (aval){.k = V_ADDR, .sec = rl->shndx, .off = (int64_t)rl->value};
        return true;
    }
    if (addsub && !rl && s1 >= 0 && s1 < NREG && d >= 0 && d < NREG &&
        (s->r[s1].k == V_ADDR || s->r[s1].k == V_STACK || s->r[s1].k == V_INDEXED)) {
        s->r[d] = s->r[s1], s->r[d].off += sign * imm;
        return true;
    }
    char iw;
    int ix = n >= 3 ? a64_reg(ops[2], &iw) : -1;
    if (!strcmp(m, "add") && !rl && n == 3 && ix >= 0 && ix < NREG && s->r[ix].k == V_ADDR && s1 >= 0 && s1 < NREG) {
        int t = ix;         /* value + address: the same sum */
        ix = s1;
        s1 = t;
        a64_reg(ops[1], &iw);
    }
    if (!strcmp(m, "add") && !rl && (n == 3 || n == 4) && s1 >= 0 && s1 < NREG && s->r[s1].k == V_ADDR && ix >= 0 &&
        ix < NREG && !a64_is_addr(s->r[ix].k) && d >= 0 && d < NREG) {
        /* an address plus a value: the value kept in a spare register for
         * the access's register offset (the ADD may overwrite it) */
        int t = a64_spare(c);
        if (t < 0)
            return false;
        a64_push(c, xasprintf("MOV %c%d,%c%d", iw == 'x' ? 'X' : 'W', t, iw == 'x' ? 'X' : 'W', ix));
        aval a = s->r[s1];
        a.k = V_INDEXED;
        a.idx = t;
        a.nonneg = s->r[ix].nonneg;
        a.ext[0] = 0;
        if (n == 4) {
            strbuf b = {0};
            a64_herd_op(&b, ops[3]);
            char *e = sb_take(&b);
            snprintf(a.ext, sizeof a.ext, "%s", e);
            free(e);
        } else if (iw == 'w') {
            snprintf(a.ext, sizeof a.ext, "UXTW");
        }
        s->r[d] = a;
        return true;
    }
    if (!strcmp(m, "mov") && n == 2 && s1 >= 0 && s1 < NREG && d >= 0 && d < NREG &&
        (s->r[s1].k == V_ADDR || s->r[s1].k == V_STACK || s->r[s1].k == V_PAGE || s->r[s1].k == V_INDEXED)) {
        s->r[d] = s->r[s1];
        return true;
    }
    *done = false;
    return true;
}

/* Arithmetic, moves, comparisons, barriers: kept as written, in herd's
 * spelling, when no operand holds an address. */
static bool plain_insn(ctx *c, const a64_insn *in, astate *s, a64_ops ops, int n)
{
    const char *m = in->mnem;
    bool done = false;
    if (!address_insn(c, in, s, ops, n, &done) || done)
        return !c->d->set;
    if (!plain_in_dialect(m))
        return a64_refuse(c, in, "outside herd7 7.57's AArch64 dialect");
    bool nodest = !strcmp(m, "cmp") || !strcmp(m, "tst") || !strcmp(m, "dmb") || !strcmp(m, "dsb") ||
                  !strcmp(m, "isb");
    for (int k = 0; k < n; k++) {
        char w;
        int r = a64_reg(ops[k], &w);
        if (r == A64_SP)
            return a64_refuse(c, in, "the stack pointer used as a value");
        if ((k > 0 || nodest || !strcmp(m, "movk")) && !a64_read_ok(c, in, s, r))
            return false;
    }
    long k = 0;
    char w0, w1;
    int rd = n == 3 ? a64_reg(ops[0], &w0) : -1, rn = n == 3 ? a64_reg(ops[1], &w1) : -1;
    if (!strcmp(m, "lsl") && rd >= 0 && rd < NREG && rn >= 0 && rn < NREG && a64_imm(ops[2], &k) && k >= 1 &&
        k <= 4) {
        /* a shift by k as k doublings: the same value and dependency, in the
         * part of herd's dialect litmusc's AArch64 reader has too */
        char R = w0 == 'x' ? 'X' : 'W';
        a64_push(c, xasprintf("ADD %c%d,%c%d,%c%d", R, rd, R, rn, R, rn));
        for (long i = 1; i < k; i++)
            a64_push(c, xasprintf("ADD %c%d,%c%d,%c%d", R, rd, R, rd, R, rd));
    } else {
        a64_push(c, a64_row_of(in, ops, n, -1, NULL));
    }
    if (!nodest && n > 0) {
        char w;
        a64_set_data(s, a64_reg(ops[0], &w));
    }
    long mask = 0;
    if (!strcmp(m, "and") && rd >= 0 && rd < NREG && a64_imm(ops[2], &mask) && mask >= 0 && mask <= 0x7fffffff)
        s->r[rd].nonneg = true;     /* below 2^31: SXTW leaves it as it is */
    return true;
}

/* The offset a branch IN jumps to (its last operand, relative to it), or -1. */
static int64_t branch_target(const a64_insn *in, a64_ops ops, int n)
{
    long off;
    if (n < 1 || !a64_imm(ops[n - 1], &off))
        return -1;
    return (int64_t)in->addr + off;
}

/* A branch: forward to a label, its state carried there; back (a retry)
 * to the cut. */
static bool branch_insn(ctx *c, int i, astate *s, a64_ops ops, int n)
{
    const a64_insn *in = &c->v[i];
    int64_t tgt = branch_target(in, ops, n);
    const lift_reloc *rl = a64_reloc_at(c, in);
    if (rl)
        return a64_refuse(c, in, "a jump to another function");
    if (tgt < 0 || tgt % 4 || tgt > (int64_t)c->v[c->n - 1].addr)
        return a64_refuse(c, in, "a jump out of the function");
    char w;
    int r = in->mnem[0] == 'c' || in->mnem[0] == 't' ? a64_reg(ops[0], &w) : -1;
    if (r >= 0 && !a64_read_ok(c, in, s, r))
        return false;
    int j = (int)(tgt / 4);
    char lab[48];
    if (j <= i) {
        /* a retry: the runs that take it are cut (see the top of this file) */
        snprintf(lab, sizeof lab, "L%d_cut", c->th);
        c->cut = true;
        if (!strcmp(in->mnem, "b")) {
            a64_push(c, xasprintf("B %s", lab));
            s->live = false;
            return true;
        }
    } else {
        snprintf(lab, sizeof lab, "L%d_%llx", c->th, (unsigned long long)tgt);
    }
    long bit = 0;
    if (in->mnem[0] == 't' && n == 3 && a64_imm(ops[1], &bit) && bit >= 0 && bit < 64) {
        /* TBZ/TBNZ Wn,#b as AND of the bit into a spare register and
         * CBZ/CBNZ: the same test and control dependency, in the part of
         * herd's dialect litmusc's AArch64 reader has too */
        int t = c->tbz_reg >= 0 ? c->tbz_reg : (c->tbz_reg = a64_spare(c));
        if (t < 0)
            return false;
        a64_push(c, xasprintf("AND X%d,X%d,#%lld", t, r, 1LL << bit));
        a64_push(c, xasprintf("%s X%d,%s", in->mnem[1] == 'b' && in->mnem[3] == 'n' ? "CBNZ" : "CBZ", t, lab));
    } else {
        snprintf(ops[n - 1], A64_OPLEN, "%s", lab);
        char *row = a64_row_of(in, ops, n, -1, NULL);
        /* a64_row_of upper-cases the label; herd's labels are case-sensitive names */
        char *at = strrchr(row, n > 1 ? ',' : ' ');
        snprintf(at + 1, strlen(at + 1) + 1, "%s", lab);
        a64_push(c, row);
    }
    if (j > i)
        a64_merge(&c->in[j], s);
    if (!strcmp(in->mnem, "b"))
        s->live = false;
    return true;
}

/* Mark the registers TEXT names (w5, x12) as the thread's own. */
static void mark_used(ctx *c, const char *text)
{
    for (const char *p = text; *p; p++)
        if ((*p == 'w' || *p == 'x') && (p == text || !isalnum((unsigned char)p[-1])) &&
            isdigit((unsigned char)p[1])) {
            int r = atoi(p + 1);
            if (r >= 0 && r < NREG)
                c->used[r] = true;
        }
}

/* Calls and indirect jumps, named first: what surrounds them (the frame
 * saved for the call) would otherwise be the reason given. */
static bool no_calls(ctx *c)
{
    for (int i = 0; i < c->n; i++) {
        const a64_insn *in = &c->v[i];
        if (!strcmp(in->mnem, "bl")) {
            const lift_reloc *rl = a64_reloc_at(c, in);
            return diag_error(c->d, c->t->file, 0, 0, "cc-check: P%d: cannot lift 'bl %s' (a call)", c->th,
                              rl ? rl->sym : in->ops);
        }
        if (!strcmp(in->mnem, "blr") || !strcmp(in->mnem, "br") || !strncmp(in->mnem, "braa", 4))
            return a64_refuse(c, in, "an indirect jump or call");
    }
    return true;
}

/* The end of a shared tail at J: the index of the RET that J's
 * instructions run into with no branch on the way, or -1. */
static int tail_end(const ctx *c, int j)
{
    for (int k = j; k < c->n; k++) {
        if (!strcmp(c->v[k].mnem, "ret"))
            return k;
        if (is_branch(c->v[k].mnem))
            return -1;
    }
    return -1;
}

static bool step(ctx *c, int i, astate *cur, a64_ops ops, int n);

/* B back to J where J runs straight into a RET: no loop but a tail the
 * compiler shares between paths (gcc -O2 jumps back to a lock's release
 * and the thread's stores of its registers).  The tail is lifted again
 * here, in the state this path brings, and the path then ends. */
static bool inline_tail(ctx *c, int j, int end, astate *cur)
{
    for (int k = j; k < end; k++) {
        a64_ops ops;
        int n = a64_split(c->v[k].ops, ops);
        if (n < 0)
            return a64_refuse(c, &c->v[k], "more operands than litmusc reads");
        if (!step(c, k, cur, ops, n))
            return false;
    }
    a64_push(c, xasprintf("B L%d_end", c->th));
    c->end = true;
    cur->live = false;
    return true;
}

/* One instruction I (not RET) in state CUR. */
static bool step(ctx *c, int i, astate *cur, a64_ops ops, int n)
{
    const a64_insn *in = &c->v[i];
    if (no_op(in->mnem))
        return true;
    if (!strcmp(in->mnem, "b")) {
        int64_t tgt = branch_target(in, ops, n);
        int end = tgt >= 0 && tgt % 4 == 0 && tgt <= (int64_t)in->addr && !a64_reloc_at(c, in)
                ? tail_end(c, (int)(tgt / 4)) : -1;
        if (end >= 0)
            return inline_tail(c, (int)(tgt / 4), end, cur);
    }
    bool ok = is_branch(in->mnem) ? branch_insn(c, i, cur, ops, n)
            : strchr(in->ops, '[') ? a64_mem_insn(c, in, cur, ops, n)
                                   : plain_insn(c, in, cur, ops, n);
    a64_free_slots(c);
    c->clock++;
    return ok;
}

/* The walk: each instruction in order in the state paths bring it. */
static bool walk(ctx *c)
{
    astate cur = {0};
    cur.live = true;
    for (int r = 0; r < NREG; r++)
        cur.r[r].k = V_FRAME;
    for (int i = 0; i < c->n; i++) {
        const a64_insn *in = &c->v[i];
        if (c->target[i]) {
            a64_merge(&c->in[i], &cur);
            cur = c->in[i];
        }
        if (!cur.live)
            continue;
        if (c->target[i])
            a64_push(c, xasprintf("L%d_%llx:", c->th, (unsigned long long)in->addr));
        a64_ops ops;
        int n = a64_split(in->ops, ops);
        if (n < 0)
            return a64_refuse(c, in, "more operands than litmusc reads");
        if (!strcmp(in->mnem, "ret")) {
            bool more = false;
            for (int j = i + 1; j < c->n; j++)
                more |= c->target[j];
            if (!more)
                break;
            a64_push(c, xasprintf("B L%d_end", c->th));
            c->end = true;
            cur.live = false;
            continue;
        }
        if (!step(c, i, &cur, ops, n))
            return false;
    }
    return true;
}

/* One pass over C's code (see ctx's probe), its rows into C. */
static bool lift_pass(ctx *c)
{
    int n = c->n;
    c->in = xcalloc((size_t)n + 1, sizeof *c->in);
    c->target = xcalloc((size_t)n + 1, sizeof *c->target);
    for (int i = 0; i < n; i++) {
        mark_used(c, c->v[i].ops);
        a64_ops ops;
        int k = a64_split(c->v[i].ops, ops);
        int64_t tgt = is_branch(c->v[i].mnem) && k > 0 ? branch_target(&c->v[i], ops, k) : -1;
        if (tgt > (int64_t)c->v[i].addr && tgt % 4 == 0 && tgt / 4 < n)
            c->target[tgt / 4] = true;
    }
    int own = 0;        /* a register the code names, dead at the cut (the thread ends there) */
    while (own < NREG && !c->used[own])
        own++;
    bool ok = walk(c);
    if (ok && c->cut) {
        int lr = a64_loc_reg(c, LIFT_UNROLL_LOC);
        int vr = lr < 0 ? -1 : own < NREG && own != lr ? own : a64_spare(c);
        ok = vr >= 0;
        if (ok) {
            char *jump = xasprintf("B L%d_end", c->th);
            if (c->nr && !strcmp(c->rows[c->nr - 1], jump))
                free(jump);     /* the last path already ends so (inline_tail) */
            else
                a64_push(c, jump);
            a64_push(c, xasprintf("L%d_cut:", c->th));
            a64_push(c, xasprintf("MOV W%d,#1", vr));
            a64_push(c, xasprintf("STR W%d,[X%d]", vr, lr));
            c->end = true;
        }
    }
    if (ok && c->end)
        a64_push(c, xasprintf("L%d_end:", c->th));
    free(c->in);
    free(c->target);
    if (!ok) {
        strv_free(c->rows, c->nr);
        c->rows = NULL;
    }
    return ok;
}

char **a64_lift_thread(const ir_test *t, const lift_func *f, int th, bool *cut, int *nr, strbuf *inits, diag *d)
{
    int n = 0;
    size_t bad = 0;
    a64_insn *v = a64_disasm(f->code, f->size, &n, &bad, d);
    if (!v)
        return NULL;
    if (bad < f->size) {
        diag_error(d, t->file, 0, 0, "cc-check: P%d: invalid instruction at offset 0x%zx of %s", th, bad, f->name);
        free(v);
        return NULL;
    }
    ctx base = {.t = t, .f = f, .th = th, .d = d, .v = v, .n = n, .tbz_reg = -1, .addr_reg = -1};
    ctx probe = base, c = base;
    probe.probe = true;
    bool ok = n > 0 && no_calls(&base) && lift_pass(&probe);
    if (n == 0)
        diag_error(d, t->file, 0, 0, "cc-check: P%d: function %s has no instructions", th, f->name);
    strv_free(probe.rows, probe.nr);
    memcpy(c.last_read, probe.last_read, sizeof c.last_read);
    ok = ok && lift_pass(&c);
    for (int k = 0; ok && k < c.nl; k++)
        sb_printf(inits, " %d:X%d=%s;", th, c.lreg[k], c.lsym[k]);
    free(v);
    if (!ok)
        return NULL;
    *cut = c.cut;
    *nr = c.nr;
    return c.rows;
}
