/* One thread's machine code as rows of an X86_64 litmus test (AT&T syntax
 * as the compiler wrote it, then rewritten into herd7 7.57's grammar by
 * herd.c: `ret` mid-thread becomes a jmp to the end, so no -variant
 * telechat is needed).  What the compiler adds around the accesses is
 * dropped (endbr64, nops, the -O0 frame push %rbp / mov %rsp,%rbp / pop /
 * leave); stack slots are thread-private, so each becomes a spare register
 * (%r8..%r15 not otherwise used) of the access's width; global operands
 * x(%rip) get their names from the relocations, an indexed x(,%rdx,4) a
 * spare register the init gives x's address.  Calls and indirect jumps
 * cannot lift and are refused by name. */
#include <stdlib.h>
#include <string.h>
#include "lift/addr.h"
#include "lift/disasm.h"
#include "lift/lift.h"
#include "lift/text.h"
#include "util/mem.h"

enum { SLOTS = 8 };
typedef struct slots {
    long off[SLOTS];
    int reg[SLOTS];         /* index into the spare registers */
    int n;
    bool used[SLOTS];       /* %r8+i appears in the thread's own code */
    const char *asym[SLOTS];    /* a spare register the init sets to this location's address */
    int areg[SLOTS];
    int na;
} slots;

/* A spare register holding SYM's address from the start (an init item
 * `uint64_t P:rN=SYM`), the base of herd's indexed operand (%rN,%idx,S). */
static bool addr_reg(slots *sl, const char *sym, int th, int *reg, diag *d)
{
    for (int k = 0; k < sl->na; k++)
        if (!strcmp(sl->asym[k], sym))
            return *reg = sl->areg[k], true;
    int r = 0;
    while (r < SLOTS && sl->used[r])
        r++;
    if (r == SLOTS || sl->na == SLOTS)
        return diag_fail(d, "cc-check: P%d: no spare register left to hold %s's address", th, sym);
    sl->used[r] = true;
    sl->asym[sl->na] = sym;
    sl->areg[sl->na++] = r;
    *reg = r;
    return true;
}

static const char *spare_name(int i, char w)
{
    static char buf[24];
    snprintf(buf, sizeof buf, "%%r%d%s", 8 + i, w == 'l' ? "d" : w == 'w' ? "w" : w == 'b' ? "b" : "");
    return buf;
}

/* The width letter of the memory operand of MNEM: movzbl/movsbl/movswl's
 * second letter names the source, others end with it. */
static char mem_width(const char *mnem)
{
    size_t n = strlen(mnem);
    if ((!strncmp(mnem, "movz", 4) || !strncmp(mnem, "movs", 4)) && n == 6)
        return mnem[4];
    return n ? mnem[n - 1] : 'q';
}

static const lift_reloc *reloc_in(const lift_func *f, const lift_insn *in)
{
    for (int i = 0; i < f->nrelocs; i++)
        if (f->relocs[i].offset >= in->addr && f->relocs[i].offset < in->addr + in->size)
            return &f->relocs[i];
    return NULL;
}

/* Is NAME one of the test's globals (a location or P<n>_<reg>)? */
static bool known_global(const ir_test *t, const char *name)
{
    if (ir_find_loc(t, name) >= 0)
        return true;
    for (int n = 0; n < t->nthreads; n++)
        for (int r = 0; r < t->threads[n].nfinal_regs; r++) {
            char buf[128];
            snprintf(buf, sizeof buf, "P%d_%s", n, t->threads[n].final_regs[r].name);
            if (!strcmp(buf, name))
                return true;
        }
    return false;
}

/* The spare register for the stack slot at OFF (%rbp- or %rsp-relative). */
static bool slot_reg(slots *sl, long off, int th, int *reg, diag *d)
{
    int k = 0;
    while (k < sl->n && sl->off[k] != off)
        k++;
    if (k == sl->n) {
        int r = 0;
        while (r < SLOTS && sl->used[r])
            r++;
        if (sl->n == SLOTS || r == SLOTS)
            return diag_fail(d, "cc-check: P%d uses more stack slots than there are spare registers (%d)", th,
                             SLOTS);
        sl->used[r] = true;
        sl->off[k] = off;
        sl->reg[k] = r;
        sl->n++;
    }
    *reg = sl->reg[k];
    return true;
}

/* Rewrite the operands of IN into OUT, one at a time (AT&T prints them
 * separated by ", "; a memory operand's own commas have no blank):
 * DISP(%rip) and an absolute DISP with a relocation -> sym(%rip);
 * OFF(%rbp)/OFF(%rsp) -> a spare register.  *STACK is set when an operand
 * was a stack slot.  False and D set if an operand cannot lift. */
static bool rewrite_ops(const ir_test *t, const lift_func *f, int th, const lift_insn *in, slots *sl,
                        const lift_addrs *addrs, strbuf *out, bool *stack, diag *d)
{
    /* the blanks Capstone puts inside a memory operand, (, %rdx, 4), go */
    char buf[sizeof in->ops];
    size_t k = 0;
    for (int depth = 0, i = 0; in->ops[i] && k + 1 < sizeof buf; i++) {
        depth += in->ops[i] == '(' ? 1 : in->ops[i] == ')' ? -1 : 0;
        if (!(depth > 0 && in->ops[i] == ' '))
            buf[k++] = in->ops[i];
    }
    buf[k] = 0;
    const lift_reloc *r = reloc_in(f, in);
    int nrel = 0;
    for (int i = 0; i < f->nrelocs; i++)
        nrel += f->relocs[i].offset >= in->addr && f->relocs[i].offset < in->addr + in->size;
    /* Does a memory operand take the relocation (else an immediate does)? */
    bool mem_reloc = strstr(in->ops, "(%rip)") != NULL;
    for (const char *p = in->ops; *p && !mem_reloc; p++)
        if ((p == in->ops || p[-1] == ' ') && (('0' <= *p && *p <= '9') || *p == '-')) {
            const char *e = p;
            while (*e && *e != ',' && *e != '(')
                e++;
            mem_reloc = *e != '(';
        }
    /* An index register, x(,%rax,4): x plus a value, which only an address
     * dependency makes.  With x the one relocation and no base, herd's
     * (%rN,%rax,4) with %rN holding x's address lifts it; a base, or an
     * address that is no location, cannot. */
    const char *lp = strchr(buf, '('), *rp = lp ? strchr(lp, ')') : NULL;
    bool indexed = lp && rp && memchr(lp, ',', (size_t)(rp - lp));
    if (indexed && !(lp[1] == ',' && lp[2] == '%' && r && nrel == 1 && ir_find_loc(t, r->sym) >= 0 &&
                     (lp == buf || lp[-1] == ' ')))
        return diag_error(d, t->file, 0, 0,
                          "cc-check: P%d: cannot lift '%s %s' (an indexed address%s%s%s: an address dependency, "
                          "which the X86_64 dialect has no operand for)",
                          th, in->mnem, in->ops, r ? " into " : "", r ? r->sym : "",
                          lp && lp[1] != ',' ? " with a base register" : "");
    if (indexed)
        mem_reloc = true;
    bool first = true;
    for (char *tok = buf, *next; tok; tok = next) {
        next = strstr(tok, ", ");
        if (next)
            *next = 0, next += 2;
        if (!first)
            sb_add(out, ", ");
        first = false;
        bool rip = strstr(tok, "(%rip)") != NULL;
        if (indexed && tok[0] == '(' && strchr(tok, ',')) {
            int reg = 0;
            if (!addr_reg(sl, r->sym, th, &reg, d))
                return false;
            if (r->addend)
                sb_printf(out, "%ld", r->addend);
            sb_printf(out, "(%s%s", spare_name(reg, 'q'), tok + 1);
            continue;
        }
        bool abs = !strchr(tok, '(') && *tok != '$' && *tok != '%';
        if (rip || (abs && r && mem_reloc)) {
            if (!r || !known_global(t, r->sym))
                return diag_error(d, t->file, 0, 0, "cc-check: P%d: '%s %s' names memory that is not a test location",
                                  th, in->mnem, in->ops);
            /* PC32: S + A - P, the CPU adding the next instruction's address; 32S: S + A. */
            long off = rip ? r->addend + (long)(in->addr + in->size - r->offset) : r->addend;
            if (off != 0)
                return diag_error(d, t->file, 0, 0, "cc-check: P%d: '%s %s' addresses %s%+ld, inside a location",
                                  th, in->mnem, in->ops, r->sym, off);
            sb_printf(out, "%s(%%rip)", r->sym);
        } else if (strstr(tok, "(%rbp)") || strstr(tok, "(%rsp)")) {
            long off = strtol(tok, NULL, 0) + (strstr(tok, "(%rsp)") ? 1000000 : 0);
            int reg = 0;
            if (!slot_reg(sl, off, th, &reg, d))
                return false;
            sb_add(out, spare_name(reg, mem_width(in->mnem)));
            *stack = true;
        } else if (*tok == '$' && r && !mem_reloc) {
            return diag_error(d, t->file, 0, 0, "cc-check: P%d: cannot lift '%s %s' (an address as a value)", th,
                              in->mnem, in->ops);
        } else if (strchr(tok, ':')) {
            return diag_error(d, t->file, 0, 0, "cc-check: P%d: cannot lift '%s %s' (a segment operand)", th,
                              in->mnem, in->ops);
        } else if (strchr(tok, '(') && !strchr(tok, ',') && lift_reg_family(strchr(tok, '(') + 1, &(int){0}) >= 0 &&
                   addrs->reg[lift_reg_family(strchr(tok, '(') + 1, &(int){0})]) {
            /* (%rax) with %rax holding location x's address */
            const char *sym = addrs->reg[lift_reg_family(strchr(tok, '(') + 1, &(int){0})];
            long off = strtol(tok, NULL, 0);
            if (off != 0)
                return diag_error(d, t->file, 0, 0, "cc-check: P%d: '%s %s' addresses %s%+ld, inside a location",
                                  th, in->mnem, in->ops, sym, off);
            sb_printf(out, "%s(%%rip)", sym);
        } else if (strchr(tok, '(')) {
            return diag_error(d, t->file, 0, 0, "cc-check: P%d: cannot lift '%s %s' (memory through a pointer)", th,
                              in->mnem, in->ops);
        } else {
            sb_add(out, tok);
        }
    }
    return true;
}

/* herd's X86_64 cmpxchg takes memory first (`lock cmpxchgl x(%rip),%ecx`);
 * GNU's order, register first, is a parse error there. */
static char *cmpxchg_herd_order(char *row)
{
    char *ops = strstr(row, "cmpxchg");
    ops = ops ? strchr(ops, ' ') : NULL;
    char *comma = ops ? strstr(ops, ", ") : NULL;
    if (!comma || strstr(comma + 2, ", "))
        return row;
    *comma = 0;
    *ops = 0;
    char *swapped = xasprintf("%s %s, %s", row, comma + 2, ops + 1);
    free(row);
    return swapped;
}

static bool dropped(const lift_insn *in)
{
    return !strcmp(in->mnem, "endbr64") || !strncmp(in->mnem, "nop", 3) || !strcmp(in->mnem, "leave") ||
           ((!strcmp(in->mnem, "pushq") || !strcmp(in->mnem, "popq")) && !strcmp(in->ops, "%rbp")) ||
           (!strcmp(in->mnem, "movq") && !strcmp(in->ops, "%rsp, %rbp"));
}

/* Mnemonics of herd's X86_64 dialect (without the lock prefix). */
static bool in_dialect(const char *m)
{
    static const char *const ok[] = {
        "mov", "movz", "movs", "xchg", "add", "sub", "and", "or", "xor", "inc", "dec", "xadd", "cmpxchg",
        "mfence", "lfence", "sfence", "cmp", "test", "j", "set", "cmov", "neg", "not", "shl", "shr", "sar",
        "sal", NULL};
    if (!strncmp(m, "lock ", 5))
        m += 5;
    for (int i = 0; ok[i]; i++)
        if (!strncmp(m, ok[i], strlen(ok[i])))
            return true;
    return false;
}

/* The rows of thread TH, each a string. */
static char **lift_thread(const ir_test *t, const lift_func *f, int th, int unroll, bool *unrolled, int *nrows,
                          char **why, strbuf *inits, diag *d)
{
    int n = 0;
    size_t decoded = 0;
    lift_insn *v = lift_disasm(f->code, f->size, &n, &decoded);
    if (!v) {
        const char *why = lift_disasm_error();
        if (why)
            diag_fail(d, "cc-check: cannot load Capstone, which decodes x86-64: %s", why);
        else
            diag_fail(d, "cc-check: Capstone cannot open x86-64");
        return NULL;
    }
    /* what follows an undecodable byte is not the function's code to drop */
    if (decoded < f->size) {
        diag_error(d, t->file, 0, 0, "cc-check: P%d: invalid instruction at offset 0x%zx of %s (byte 0x%02x)", th,
                   decoded, f->name, f->code[decoded]);
        free(v);
        return NULL;
    }
    slots sl = {0};
    lift_addrs addrs = {0};
    lift_addrs_slots(&addrs, t, f, v, n);
    for (int i = 0; i < n; i++)
        for (int r = 0; r < SLOTS; r++) {
            char reg[24];
            snprintf(reg, sizeof reg, "%%r%d", 8 + r);
            if (strstr(v[i].ops, reg))
                sl.used[r] = true;
        }
    /* A call or an indirect jump is the reason to name first: the pushes
     * and pops around it are outside the dialect only because of it. */
    for (int i = 0; i < n; i++)
        if (v[i].kind == LK_CALL || v[i].kind == LK_INDIRECT) {
            const lift_reloc *r = reloc_in(f, &v[i]);
            if (v[i].kind == LK_CALL)
                diag_error(d, t->file, 0, 0, "cc-check: P%d: cannot lift 'call %s' (a call)", th,
                           r ? r->sym : v[i].ops);
            else
                diag_error(d, t->file, 0, 0, "cc-check: P%d: cannot lift '%s %s' (an indirect jump)", th,
                           v[i].mnem, v[i].ops);
            free(v);
            return NULL;
        }
    if (!lift_addrs_arith(t, f, th, v, n, d)) {
        free(v);
        return NULL;
    }
    bool(*label_in)[ADDR_REGS] = lift_addrs_flow(&addrs, t, f, th, v, n);
    int last = n - 1;
    while (last >= 0 && (dropped(&v[last]) || v[last].kind == LK_RET))
        last--;
    char **rows = xcalloc((size_t)(2 * n + 1), sizeof *rows);
    int nr = 0;
    bool ok = true;
    for (int i = 0; i <= last && ok; i++) {
        const lift_insn *in = &v[i];
        for (int j = 0; j < n; j++)
            if (v[j].kind == LK_JUMP && v[j].target == in->addr) {
                rows[nr++] = xasprintf("L%llx:", (unsigned long long)in->addr);
                lift_addrs_label(&addrs, label_in[i]);
                break;
            }
        if (dropped(in))
            continue;
        lift_addrs before = addrs;
        bool drop = false;
        if (in->kind == LK_PLAIN && !lift_addrs_step(&addrs, t, f, th, in, &drop, d)) {
            ok = false;
            break;
        }
        if (drop)
            continue;
        strbuf b = {0};
        if (in->kind == LK_CALL) {
            const lift_reloc *r = reloc_in(f, in);
            ok = diag_error(d, t->file, 0, 0, "cc-check: P%d: cannot lift 'call %s' (a call)", th,
                            r ? r->sym : in->ops);
        } else if (in->kind == LK_INDIRECT) {
            ok = diag_error(d, t->file, 0, 0, "cc-check: P%d: cannot lift '%s %s' (an indirect jump)", th,
                            in->mnem, in->ops);
        } else if (in->kind == LK_JUMP) {
            sb_printf(&b, "%s L%llx", in->mnem, (unsigned long long)in->target);
        } else if (in->kind == LK_RET) {
            sb_add(&b, "ret");
        } else if (!strcmp(in->mnem, "cltq")) {
            sb_add(&b, "movslq %eax, %rax");         /* the same sign extension, in the dialect */
        } else if (!in_dialect(in->mnem)) {
            ok = diag_error(d, t->file, 0, 0, "cc-check: P%d: cannot lift '%s%s%s' (outside the X86_64 dialect)",
                            th, in->mnem, *in->ops ? " " : "", in->ops);
        } else {
            bool stack = false;
            sb_printf(&b, "%s ", in->mnem);
            ok = rewrite_ops(t, f, th, in, &sl, &before, &b, &stack, d);
            if (ok && stack && !strncmp(in->mnem, "lock ", 5)) {
                /* A locked RMW of a private stack slot (gcc's fence, lock orq $0,(%rsp)):
                 * the slot becomes a register, the lock's order an mfence. */
                char *op = sb_take(&b);
                rows[nr++] = xstrdup("mfence");
                sb_add(&b, op + 5);
                free(op);
            }
        }
        char *row = sb_take(&b);
        if (ok && strstr(in->mnem, "cmpxchg"))
            row = cmpxchg_herd_order(row);
        if (ok)
            rows[nr++] = row;
        else
            free(row);
    }
    free(v);
    free(label_in);
    for (int k = 0; ok && k < sl.na; k++)
        sb_printf(inits, "  uint64_t %d:r%d=%s;\n", th, 8 + sl.areg[k], sl.asym[k]);
    if (!ok) {
        strv_free(rows, nr);
        return NULL;
    }
    if (!lift_layout(&rows, &nr, th, unroll, unrolled, t->file, d)) {
        strv_free(rows, nr);
        return NULL;
    }
    char *w = lift_herd_rows(&rows, &nr);
    if (w && !*why)
        *why = xasprintf("P%d: %s", th, w);
    free(w);
    *nrows = nr;
    return rows;
}

/* herd's labels are the test's, not a thread's ("Label L15 occurs more
 * than once"), and every function's code starts at address 0: thread N's
 * label Lxxx becomes LN_xxx, where it is defined and where a jump names it. */
static void label_rename(char **rows, int nrows, int n)
{
    for (int i = 0; i < nrows; i++) {
        char *r = rows[i];
        char *colon = strchr(r, ':');
        char *sp = strrchr(r, ' ');
        char *fresh = NULL;
        if (r[0] == 'L' && colon && (!sp || colon < sp)) {
            /* a definition, "Lxxx:" or "Lxxx: instr" */
            fresh = xasprintf("L%d_%s", n, r + 1);
        } else if (r[0] == 'j' && sp && sp[1] == 'L' && !strchr(sp, '(')) {
            /* a jump to a label: its last word */
            fresh = xasprintf("%.*sL%d_%s", (int)(sp + 1 - r), r, n, sp + 2);
        }
        if (fresh) {
            free(rows[i]);
            rows[i] = fresh;
        }
    }
}

char *lift_test_text(const ir_test *t, const lift_func *funcs, int unroll, const char *origin, char **why, diag *d)
{
    bool unrolled = false;
    *why = NULL;
    if (ir_find_loc(t, LIFT_UNROLL_LOC) >= 0) {
        diag_error(d, t->file, 0, 0, "cc-check: location '%s' is the name the lifted test keeps for its unrolling bound",
                   LIFT_UNROLL_LOC);
        return NULL;
    }
    char **rows[64];
    int nrows[64];
    if (t->nthreads > 64) {
        diag_fail(d, "cc-check: more than 64 threads");
        return NULL;
    }
    int h = 0;
    strbuf inits = {0};
    for (int n = 0; n < t->nthreads; n++) {
        rows[n] = lift_thread(t, &funcs[n], n, unroll, &unrolled, &nrows[n], why, &inits, d);
        if (!rows[n]) {
            sb_free(&inits);
            free(*why);
            *why = NULL;
            for (int k = 0; k < n; k++)
                strv_free(rows[k], nrows[k]);
            return NULL;
        }
        label_rename(rows[n], nrows[n], n);
        if (nrows[n] > h)
            h = nrows[n];
    }
    strbuf b = {0};
    sb_printf(&b, "X86_64 %s\n\"compiled from C\"\n(* ", t->name);
    lift_text_comment(&b, origin);
    if (*why) {
        sb_add(&b, "; not in herd7 7.57's X86_64 grammar: ");
        lift_text_comment(&b, *why);
        sb_add(&b, " *)\n{\n");
    } else {
        sb_add(&b, "; herd7 7.57 reads it as written: herd7 FILE *)\n{\n");
    }
    lift_text_decls(&b, t, unrolled, "  ");
    if (inits.len)
        sb_add(&b, inits.s);
    sb_free(&inits);
    sb_add(&b, "}\n");
    for (int n = 0; n < t->nthreads; n++)
        sb_printf(&b, " P%d%s", n, n + 1 < t->nthreads ? " |" : " ;\n");
    for (int i = 0; i < h; i++)
        for (int n = 0; n < t->nthreads; n++)
            sb_printf(&b, " %s%s", i < nrows[n] ? rows[n][i] : "", n + 1 < t->nthreads ? " |" : " ;\n");
    lift_text_tail(&b, t, unrolled);
    for (int n = 0; n < t->nthreads; n++)
        strv_free(rows[n], nrows[n]);
    return sb_take(&b);
}
