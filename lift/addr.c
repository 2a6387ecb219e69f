/* Registers and stack slots that hold a location's address (see addr.h). */
#include <stdlib.h>
#include <string.h>
#include "lift/addr.h"
#include "util/mem.h"

int lift_reg_family(const char *tok, int *width)
{
    static const char *const q[] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi"};
    static const char *const l[] = {"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi"};
    static const char *const w[] = {"ax", "cx", "dx", "bx", "sp", "bp", "si", "di"};
    static const char *const b[] = {"al", "cl", "dl", "bl", "spl", "bpl", "sil", "dil"};
    static const char *const h[] = {"ah", "ch", "dh", "bh"};
    if (*tok != '%')
        return -1;
    tok++;
    size_t n = strcspn(tok, ",) ");
    for (int i = 0; i < 8; i++) {
        const char *const *sets[] = {q, l, w, b};
        const int widths[] = {8, 4, 2, 1};
        for (int s = 0; s < 4; s++)
            if (strlen(sets[s][i]) == n && !strncmp(tok, sets[s][i], n))
                return *width = widths[s], i;
        if (i < 4 && n == 2 && !strncmp(tok, h[i], 2))
            return *width = 1, i;
    }
    if (tok[0] == 'r' && tok[1] >= '0' && tok[1] <= '9') {
        char *e;
        long r = strtol(tok + 1, &e, 10);
        if (r < 8 || r > 15)
            return -1;
        *width = *e == 'd' ? 4 : *e == 'w' ? 2 : *e == 'b' ? 1 : 8;
        return (int)r;
    }
    return -1;
}

/* The location a 32S relocation in IN names with addend 0, or NULL. */
static const char *imm_sym(const ir_test *t, const lift_func *f, const lift_insn *in)
{
    if (in->ops[0] != '$')
        return NULL;
    for (int i = 0; i < f->nrelocs; i++)
        if (f->relocs[i].offset >= in->addr && f->relocs[i].offset < in->addr + in->size)
            return f->relocs[i].addend == 0 && ir_find_loc(t, f->relocs[i].sym) >= 0 ? f->relocs[i].sym : NULL;
    return NULL;
}

/* The first operand of OPS and the last, copied into A and B. */
static int split_ops(const char *ops, char toks[][64], int max)
{
    int n = 0;
    for (const char *p = ops; *p && n < max;) {
        const char *e = strstr(p, ", ");
        size_t len = e ? (size_t)(e - p) : strlen(p);
        snprintf(toks[n++], 64, "%.*s", (int)len, p);
        p = e ? e + 2 : p + len;
    }
    return n;
}

/* The bytes a stack access of MNEM covers (movzbl: its source's b); 8
 * where the suffix says nothing, so that doubt counts as overlap. */
static long access_width(const char *mnem)
{
    size_t n = strlen(mnem);
    char c = (!strncmp(mnem, "movz", 4) || !strncmp(mnem, "movs", 4)) && n == 6 ? mnem[4] : n ? mnem[n - 1] : 'q';
    return c == 'l' ? 4 : c == 'w' ? 2 : c == 'b' ? 1 : 8;
}

static bool rbp_slot(const char *tok, long *off)
{
    const char *p = strstr(tok, "(%rbp)");
    if (!p || strchr(tok, ','))
        return false;
    *off = strtol(tok, NULL, 0);
    return true;
}

static bool is_label(const lift_insn *v, int n, int i)
{
    for (int j = 0; j < n; j++)
        if (v[j].kind == LK_JUMP && v[j].target == v[i].addr)
            return true;
    return false;
}

void lift_addrs_slots(lift_addrs *a, const ir_test *t, const lift_func *f, const lift_insn *v, int n)
{
    /* A candidate: movq $x,OFF(%rbp). */
    int at[ADDR_SLOTS];
    for (int i = 0; i < n; i++) {
        char toks[4][64];
        long off;
        const char *sym = imm_sym(t, f, &v[i]);
        if (strcmp(v[i].mnem, "movq") || split_ops(v[i].ops, toks, 4) != 2 || !sym || !rbp_slot(toks[1], &off) ||
            a->nslots == ADDR_SLOTS)
            continue;
        at[a->nslots] = i;
        a->slot_off[a->nslots] = off;
        a->slot_sym[a->nslots++] = sym;
    }
    /* Keep those written once, that every other mention reads with a whole
     * movq into a register after the write with no label between (so the
     * write comes first on every path), and that no other access overlaps. */
    for (int s = 0; s < a->nslots; s++) {
        bool ok = true, label = false;
        for (int i = 0; i < n && ok; i++) {
            if (i > at[s] && is_label(v, n, i))
                label = true;
            char toks[4][64];
            int nt = split_ops(v[i].ops, toks, 4);
            for (int k = 0; k < nt && ok; k++) {
                long off;
                if (!rbp_slot(toks[k], &off) || off + access_width(v[i].mnem) <= a->slot_off[s] ||
                    off >= a->slot_off[s] + 8 || i == at[s])
                    continue;
                int w;
                ok = off == a->slot_off[s] && !strcmp(v[i].mnem, "movq") && nt == 2 && k == 0 && i > at[s] &&
                     !label && lift_reg_family(toks[1], &w) >= 0 && w == 8;
            }
        }
        if (!ok) {
            at[s] = at[a->nslots - 1];
            a->slot_off[s] = a->slot_off[a->nslots - 1];
            a->slot_sym[s--] = a->slot_sym[--a->nslots];
        }
    }
}

/* The location whose address the %rbp-relative slot TOK holds all along (lift_addrs_slots), or NULL. */
static const char *lift_addrs_slot(const lift_addrs *a, const char *tok)
{
    long off;
    if (!rbp_slot(tok, &off))
        return NULL;
    for (int s = 0; s < a->nslots; s++)
        if (a->slot_off[s] == off)
            return a->slot_sym[s];
    return NULL;
}

void lift_addrs_label(lift_addrs *a, const bool *in)
{
    for (int r = 0; r < ADDR_REGS; r++) {
        a->poison[r] = a->poison[r] || a->reg[r] || in[r];
        a->reg[r] = NULL;
    }
}

bool (*lift_addrs_flow(const lift_addrs *a0, const ir_test *t, const lift_func *f, int th, const lift_insn *v,
                       int n))[ADDR_REGS]
{
    bool(*in)[ADDR_REGS] = xcalloc((size_t)(n ? n : 1), sizeof *in);
    for (int pass = 0, changed = 1; changed && pass < 16; pass++) {
        changed = 0;
        lift_addrs a = *a0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++)
                if (v[j].kind == LK_JUMP && v[j].target == v[i].addr) {
                    lift_addrs_label(&a, in[i]);
                    break;
                }
            if (v[i].kind == LK_JUMP)
                for (int k = 0; k < n; k++)
                    if (v[k].addr == v[i].target)
                        for (int r = 0; r < ADDR_REGS; r++)
                            if ((a.reg[r] || a.poison[r]) && !in[k][r])
                                in[k][r] = true, changed = 1;
            bool drop;
            diag scratch = {0};
            if (v[i].kind == LK_PLAIN)
                (void)lift_addrs_step(&a, t, f, th, &v[i], &drop, &scratch);
        }
    }
    return in;
}

static void set_reg(lift_addrs *a, int r, const char *sym)
{
    a->reg[r] = sym;
    a->poison[r] = false;
}

bool lift_addrs_step(lift_addrs *a, const ir_test *t, const lift_func *f, int th, const lift_insn *in, bool *drop,
                     diag *d)
{
    *drop = false;
    char toks[4][64];
    int nt = split_ops(in->ops, toks, 4), w = 0;
    int dst = nt == 2 ? lift_reg_family(toks[1], &w) : -1;
    const char *m = in->mnem;
    /* The moves of an address: into a slot that holds it all along, into a
     * register from such a slot, an immediate, a lea or another register. */
    if (!strcmp(m, "movq") && nt == 2) {
        const char *sym = NULL;
        int src = lift_reg_family(toks[0], &w);
        if (lift_addrs_slot(a, toks[1]))
            return *drop = true;
        if (dst >= 0 && (sym = lift_addrs_slot(a, toks[0])) == NULL)
            sym = src >= 0 ? a->reg[src] : imm_sym(t, f, in);
        if (dst >= 0 && sym)
            return set_reg(a, dst, sym), *drop = true;
    }
    if (!strcmp(m, "leaq") && nt == 2 && dst >= 0 && strstr(toks[0], "(%rip)")) {
        for (int i = 0; i < f->nrelocs; i++)
            if (f->relocs[i].offset >= in->addr && f->relocs[i].offset < in->addr + in->size &&
                ir_find_loc(t, f->relocs[i].sym) >= 0 &&
                f->relocs[i].addend + (long)(in->addr + in->size - f->relocs[i].offset) == 0)
                return set_reg(a, dst, f->relocs[i].sym), *drop = true;
    }
    /* Any other mention of a register that holds (or may hold) an address:
     * as a base it lifts (the caller rewrites it), otherwise refused. */
    bool pure_write = !strncmp(m, "mov", 3) && dst >= 0 && w >= 4;
    for (int k = 0; k < nt; k++) {
        char *p = toks[k];
        bool mem = strchr(p, '(') != NULL;
        for (char *q = strchr(p, '%'); q; q = strchr(q + 1, '%')) {
            int r = lift_reg_family(q, &w);
            if (r < 0 || !(a->reg[r] || a->poison[r]))
                continue;
            if (mem && q > strchr(p, '(')) {
                bool base = q == strchr(p, '(') + 1 && !strchr(p, ',');
                if (!base || a->poison[r])
                    return diag_error(d, t->file, 0, 0, "cc-check: P%d: cannot lift '%s %s' (%s)", th, m, in->ops,
                                      a->poison[r] ? "memory through a pointer that may hold an address on one path only"
                                                   : "an address computed from a value: an address dependency");
                continue;
            }
            if (!(k == nt - 1 && pure_write && r == dst))
                return diag_error(d, t->file, 0, 0, "cc-check: P%d: cannot lift '%s %s' (an address as a value)", th,
                                  m, in->ops);
        }
    }
    if ((strstr(m, "cmpxchg") || !strcmp(m, "cltq")) && (a->reg[0] || a->poison[0]))
        return diag_error(d, t->file, 0, 0, "cc-check: P%d: cannot lift '%s %s' (an address as a value)", th, m,
                          in->ops);
    /* A write of a register ends what it held (cmpxchg writes %rax). */
    for (int k = 0; k < nt; k++) {
        int r = lift_reg_family(toks[k], &w);
        if (r >= 0)
            a->reg[r] = NULL, a->poison[r] = false;
    }
    return true;
}

bool lift_addrs_arith(const ir_test *t, const lift_func *f, int th, const lift_insn *v, int n, diag *d)
{
    for (int i = 0; i < n; i++)
        if (v[i].kind == LK_PLAIN && strncmp(v[i].mnem, "mov", 3) && imm_sym(t, f, &v[i]))
            return diag_error(d, t->file, 0, 0,
                              "cc-check: P%d: cannot lift '%s %s' (arithmetic on %s's address: an address "
                              "dependency, which the X86_64 dialect has no operand for)",
                              th, v[i].mnem, v[i].ops, imm_sym(t, f, &v[i]));
    return true;
}
