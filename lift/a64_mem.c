/* Loads, stores and atomics of one AArch64 thread, and the helpers the
 * thread's walk (a64_thread.c) shares: where each access goes (a location,
 * named through a register the init gives its address, or a private stack
 * slot, which becomes a spare register), what it reads and writes. */
#include <stdlib.h>
#include <string.h>
#include "lift/a64_ctx.h"

bool a64_refuse(ctx *c, const a64_insn *in, const char *why)
{
    return diag_error(c->d, c->t->file, 0, 0, "cc-check: P%d: cannot lift '%s%s%s' (%s)", c->th, in->mnem,
                      *in->ops ? " " : "", in->ops, why);
}

void a64_push(ctx *c, char *row)
{
    c->rows = xrealloc(c->rows, sizeof *c->rows * (size_t)(c->nr + 1));
    c->rows[c->nr++] = row;
}

/* A register the thread's code never names, from X9 up (X0..X8 are the
 * ones compilers use first, so the rows stay readable), X29 and X30 last
 * (a leaf function that keeps no frame leaves them free, and herd's are
 * general registers). */
int a64_spare(ctx *c)
{
    if (c->probe)
        return A64_VREG + c->nvirt++;
    for (int r = 9; r < 29; r++)
        if (!c->used[r])
            return c->used[r] = true, r;
    for (int r = 0; r < 9; r++)
        if (!c->used[r])
            return c->used[r] = true, r;
    for (int r = 29; r < NREG; r++)
        if (!c->used[r])
            return c->used[r] = true, r;
    diag_fail(c->d, "cc-check: P%d: no spare register left (the thread names them all)", c->th);
    return -1;
}

int a64_slot_reg(ctx *c)
{
    for (int r = 0; r < NREG; r++)
        if (c->pool[r])
            return c->pool[r] = false, r;
    return a64_spare(c);
}

void a64_free_slots(ctx *c)
{
    for (int k = 0; !c->probe && k < c->ns; k++)
        if (c->sreg[k] >= 0 && c->last_read[k] == c->clock) {
            c->pool[c->sreg[k]] = true;
            c->sreg[k] = -1;
        }
}

/* The register the init gives location NAME's address. */
int a64_loc_reg(ctx *c, const char *name)
{
    for (int k = 0; k < c->nl; k++)
        if (!strcmp(c->lsym[k], name))
            return c->lreg[k];
    if (c->nl == NLOC) {
        diag_fail(c->d, "cc-check: P%d names more than %d locations", c->th, NLOC);
        return -1;
    }
    int r = a64_spare(c);
    if (r >= 0) {
        c->lsym[c->nl] = name;
        c->lreg[c->nl++] = r;
    }
    return r;
}

/* The index of the stack slot at OFF, made on first use. */
static int slot_at(ctx *c, int64_t off)
{
    for (int k = 0; k < c->ns; k++)
        if (c->soff[k] == off)
            return k;
    if (c->ns == NSLOT) {
        diag_fail(c->d, "cc-check: P%d uses more than %d stack slots", c->th, NSLOT);
        return -1;
    }
    c->soff[c->ns] = off;
    c->sreg[c->ns] = -1;
    if (c->probe)
        c->last_read[c->ns] = -1;
    return c->ns++;
}

/* Is NAME one of the test's globals (a location or P<n>_<reg>)? */
static bool known_global(const ir_test *t, const char *name)
{
    if (ir_find_loc(t, name) >= 0)
        return true;
    for (int n = 0; n < t->nthreads; n++)
        for (int r = 0; r < t->threads[n].nfinal_regs; r++) {
            char buf[160];
            snprintf(buf, sizeof buf, "P%d_%s", n, t->threads[n].final_regs[r].name);
            if (!strcmp(buf, name))
                return true;
        }
    return false;
}

bool a64_is_addr(vkind k)
{
    return k == V_ADDR || k == V_PAGE || k == V_STACK || k == V_MIXED || k == V_INDEXED;
}

static aval merge1(aval a, aval b)
{
    if (a.k == b.k && a.sec == b.sec && a.off == b.off && a.idx == b.idx && !strcmp(a.ext, b.ext) &&
        a.nonneg == b.nonneg)
        return a;
    if (!a64_is_addr(a.k) && !a64_is_addr(b.k))
        return (aval){.k = V_DATA, .nonneg = a.k == V_DATA && b.k == V_DATA && a.nonneg && b.nonneg};
    return (aval){.k = V_MIXED};
}

/* The state where paths A and B meet, into A. */
void a64_merge(astate *a, const astate *b)
{
    if (!b->live)
        return;
    if (!a->live) {
        *a = *b;
        return;
    }
    for (int r = 0; r < NREG; r++)
        a->r[r] = merge1(a->r[r], b->r[r]);
    for (int k = 0; k < NSLOT; k++)
        a->slot[k] = merge1(a->slot[k], b->slot[k]);
    a->sp_mixed |= b->sp_mixed || a->sp != b->sp;
}

const lift_reloc *a64_reloc_at(const ctx *c, const a64_insn *in)
{
    for (int i = 0; i < c->f->nrelocs; i++)
        if (c->f->relocs[i].offset == in->addr)
            return &c->f->relocs[i];
    return NULL;
}

/* R_AARCH64_* relocations of an address's low 12 bits: ADD's and each load/store width's. */
static bool lo12(unsigned type)
{
    return type == 277 || type == 278 || type == 284 || type == 285 || type == 286 || type == 299;
}

/* The global at place SEC+OFF, or NULL and D set naming why not. */
static const char *place_name(ctx *c, const a64_insn *in, size_t sec, int64_t off)
{
    uint64_t inside = 0;
    const lift_sym *s = off >= 0 ? lift_sym_at(c->f, sec, (uint64_t)off, &inside) : NULL;
    if (!s || !known_global(c->t, s->name)) {
        a64_refuse(c, in, "memory that is not a test location");
        return NULL;
    }
    if (inside) {
        char why[200];
        snprintf(why, sizeof why, "it addresses %s%+lld, inside a location", s->name, (long long)inside);
        a64_refuse(c, in, why);
        return NULL;
    }
    return s->name;
}

/* Refuse IN when register R, which it reads as a value, holds an address. */
bool a64_read_ok(ctx *c, const a64_insn *in, const astate *s, int r)
{
    if (r < 0 || r >= NREG || !a64_is_addr(s->r[r].k))
        return true;
    return a64_refuse(c, in, s->r[r].k == V_MIXED ? "a register that holds an address on some path, used as a value"
                         : s->r[r].k == V_STACK ? "a stack address used as a value"
                                                : "a location's address used as a value: an address dependency or "
                                                  "a pointer stored, which the lifted test cannot name");
}

void a64_set_data(astate *s, int r)
{
    if (r >= 0 && r < NREG) {
        s->r[r] = (aval){.k = V_DATA};
    }
}

/* "b.hs" -> "B.CS": herd's condition names (it has no HS and LO). */
static void herd_cond(strbuf *b, const char *tok)
{
    if (!strcmp(tok, "hs"))
        sb_add(b, "CS");
    else if (!strcmp(tok, "lo"))
        sb_add(b, "CC");
    else
        a64_herd_op(b, tok);
}

/* The row of IN with operands OPS[0..N), operand MI (if >= 0) replaced by MEM. */
char *a64_row_of(const a64_insn *in, a64_ops ops, int n, int mi, const char *mem)
{
    strbuf b = {0};
    herd_cond(&b, !strcmp(in->mnem, "b.hs") ? "b.cs" : !strcmp(in->mnem, "b.lo") ? "b.cc" : in->mnem);
    for (int k = 0; k < n; k++) {
        sb_add(&b, k ? "," : " ");
        if (k == mi)
            sb_add(&b, mem);
        else
            herd_cond(&b, ops[k]);
    }
    return sb_take(&b);
}

typedef enum mkind { K_LOAD, K_STORE, K_STX, K_SWP, K_CAS, K_LDOP, K_STOP } mkind;

/* The kind of memory instruction MNEM: which of its registers it reads
 * and which it writes. */
static mkind mem_kind(const char *m)
{
    static const char *const ops[] = {"add", "clr", "eor", "set", "smax", "smin", "umax", "umin", NULL};
    if (!strncmp(m, "cas", 3))
        return K_CAS;
    if (!strncmp(m, "swp", 3))
        return K_SWP;
    if (!strncmp(m, "stxr", 4) || !strncmp(m, "stlxr", 5) || !strncmp(m, "stxp", 4) || !strncmp(m, "stlxp", 5))
        return K_STX;
    for (int i = 0; ops[i]; i++) {
        if (!strncmp(m, "ld", 2) && !strncmp(m + 2, ops[i], strlen(ops[i])))
            return K_LDOP;
        if (!strncmp(m, "st", 2) && !strncmp(m + 2, ops[i], strlen(ops[i])))
            return K_STOP;
    }
    return m[0] == 'l' ? K_LOAD : K_STORE;
}

/* Memory mnemonics of herd7 7.57's AArch64 (the LSE families by prefix). */
static bool mem_in_dialect(const char *m)
{
    static const char *const ok[] = {
        "ldr", "ldrb", "ldrh", "ldrsb", "ldrsh", "ldrsw", "ldur", "ldapur", "ldp", "ldar", "ldarb", "ldarh",
        "ldapr", "ldaprb", "ldaprh", "ldxr", "ldxrb", "ldxrh", "ldaxr", "ldaxrb", "ldaxrh", "ldxp", "ldaxp", "str",
        "strb", "strh", "stur", "stlur", "stp", "stlr", "stlrb", "stlrh", "stxr", "stxrb", "stxrh", "stlxr",
        "stlxrb", "stlxrh", "stxp", "stlxp", NULL};
    for (int i = 0; ok[i]; i++)
        if (!strcmp(m, ok[i]))
            return true;
    mkind k = mem_kind(m);
    return k == K_CAS || k == K_SWP || k == K_LDOP || k == K_STOP;
}

/* A stack slot access (an ordinary load or store of a private slot at
 * OFF): its registers moved to or from the slot's spare register, an
 * address spilled or reloaded followed instead. */
static bool stack_access(ctx *c, const a64_insn *in, astate *s, a64_ops ops, int mi, int64_t off)
{
    static const char *const plain[] = {"ldr", "ldrb", "ldrh", "ldrsb", "ldrsh", "ldrsw", "ldur", "ldurb",
                                        "ldurh", "ldp", "str", "strb", "strh", "stur", "sturb", "sturh", "stp", NULL};
    bool ok = false;
    for (int i = 0; plain[i]; i++)
        ok |= !strcmp(in->mnem, plain[i]);
    if (!ok)
        return a64_refuse(c, in, "an atomic or exclusive access to a stack slot");
    bool load = in->mnem[0] == 'l';
    char last = in->mnem[strlen(in->mnem) - 1];
    for (int j = 0; j < mi; j++) {
        char w;
        int r = a64_reg(ops[j], &w);
        if (r < 0 || r == A64_SP)
            return a64_refuse(c, in, "an operand that is no general register");
        int k = slot_at(c, off + j * (w == 'x' ? 8 : 4));
        if (k < 0)
            return false;
        if (!load) {
            if (r < NREG && (a64_is_addr(s->r[r].k) || s->r[r].k == V_FRAME)) {
                s->slot[k] = s->r[r];       /* a pointer spilled, or the caller's register saved */
                continue;
            }
            s->slot[k] = (aval){.k = V_DATA};
        } else if (r < NREG && s->slot[k].k != V_DATA) {
            if (s->slot[k].k == V_MIXED)
                return a64_refuse(c, in, "a stack slot that holds an address on some path");
            s->r[r] = s->slot[k];           /* reloaded; V_FRAME: restored */
            continue;
        }
        if (r == A64_ZR && load)
            continue;
        /* a store may take a freed register (it writes it first); a read
         * of a slot never stored takes a spare, which holds 0 */
        if (c->sreg[k] < 0 && (c->sreg[k] = load ? a64_spare(c) : a64_slot_reg(c)) < 0)
            return false;
        int sr = c->sreg[k];
        if (load && c->probe)
            c->last_read[k] = c->clock;
        if (!load) {
            a64_push(c, r == A64_ZR ? xasprintf("MOV %c%d,#0", w == 'x' ? 'X' : 'W', sr)
                                : xasprintf("MOV %c%d,%c%d", w == 'x' ? 'X' : 'W', sr, w == 'x' ? 'X' : 'W', r));
            continue;
        }
        a64_set_data(s, r);
        const char *ext = !strcmp(in->mnem, "ldrsw") ? "SXTW" : strstr(in->mnem, "sb") ? "SXTB"
                        : strstr(in->mnem, "sh") ? "SXTH" : NULL;
        if (ext)
            a64_push(c, xasprintf("%s X%d,W%d", ext, r, sr));
        else if (last == 'b' || last == 'h')
            a64_push(c, xasprintf("AND W%d,W%d,#%d", r, sr, last == 'b' ? 255 : 65535));
        else
            a64_push(c, xasprintf("MOV %c%d,%c%d", w == 'x' ? 'X' : 'W', r, w == 'x' ? 'X' : 'W', sr));
    }
    return true;
}

/* LDP/STP of two globals side by side (gcc stores two register globals
 * with one STP): herd's locations are apart, so each half is its own
 * LDR/STR of its own location, as the pair's two accesses are (a pair is
 * single-copy atomic only per register). */
static bool pair(ctx *c, const a64_insn *in, astate *s, a64_ops ops, size_t sec, int64_t off)
{
    bool load = in->mnem[0] == 'l';
    int64_t at = off;
    for (int j = 0; j < 2; j++) {
        char w;
        int r = a64_reg(ops[j], &w);
        if (r < 0 || r == A64_SP)
            return a64_refuse(c, in, "an operand that is no general register");
        if (!load && !a64_read_ok(c, in, s, r))
            return false;
        const char *name = place_name(c, in, sec, at);
        int lr = name ? a64_loc_reg(c, name) : -1;
        if (lr < 0)
            return false;
        char reg[16];
        snprintf(reg, sizeof reg, "%c%s", w == 'x' ? 'X' : 'W', r == A64_ZR ? "ZR" : "");
        if (r != A64_ZR)
            snprintf(reg + 1, sizeof reg - 1, "%d", r);
        a64_push(c, xasprintf("%s %s,[X%d]", load ? "LDR" : "STR", reg, lr));
        at += w == 'x' ? 8 : 4;
    }
    for (int j = 0; load && j < 2; j++) {
        char w;
        a64_set_data(s, a64_reg(ops[j], &w));
    }
    return true;
}

/* The address of an access herd takes as [Xn] alone (STLR, LDAR, LDAPR,
 * the exclusives, the LSE atomics) that depends on a value (V_INDEXED A):
 * computed into a spare register from location register LR and A's value,
 * extended and shifted as A says, with ADDs only (a shift as doublings), so
 * that herd's aarch64.cat and litmusc's reader both see the address depend
 * on the value, as the compiled access's does; the register, or -1 and D
 * set.  SXTW of a value known not negative is UXTW, which the 32-bit copy
 * already is; of any other value it is herd's SXTW, which litmusc's reader
 * lacks (the lifted test then reads back under herd alone). */
static int dep_addr(ctx *c, const a64_insn *in, const aval *a, int lr)
{
    /* EXT: "", "LSL #2", "UXTW", "SXTW #2" (herd's spelling, the shift in decimal) */
    char kind[8];
    int kl = (int)strspn(a->ext, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"), k = 0;
    snprintf(kind, sizeof kind, "%.*s", kl, a->ext);
    bool shift_ok = !a->ext[kl] || (sscanf(a->ext + kl, " #%d", &k) == 1 && k >= 0 && k <= 4);
    if (!shift_ok || (*kind && strcmp(kind, "LSL") && strcmp(kind, "UXTW") && strcmp(kind, "SXTW") &&
                      strcmp(kind, "UXTX") && strcmp(kind, "SXTX"))) {
        a64_refuse(c, in, "an address dependency's index shifted or extended other than by LSL, UXTW or SXTW "
                          "#0..4");
        return -1;
    }
    bool sxtw = !strcmp(kind, "SXTW") && !a->nonneg;
    int t = c->addr_reg >= 0 ? c->addr_reg : (c->addr_reg = a64_spare(c));
    if (t < 0)
        return -1;
    int v = a->idx;
    if (sxtw) {
        a64_push(c, xasprintf("SXTW X%d,W%d", t, v));
        v = t;
    }
    for (int i = 0; i < k; i++, v = t)
        a64_push(c, xasprintf("ADD X%d,X%d,X%d", t, v, v));
    a64_push(c, xasprintf("ADD X%d,X%d,X%d", t, lr, v));
    return t;
}

/* A load, store or atomic: its place found from the base register's
 * state (or the :lo12: relocation on it), its row naming the location
 * through the init's register; a stack slot goes to stack_access. */
bool a64_mem_insn(ctx *c, const a64_insn *in, astate *s, a64_ops ops, int n)
{
    int mi = 0;
    while (mi < n && ops[mi][0] != '[')
        mi++;
    a64_mem m;
    if (mi == n || !a64_parse_mem(ops[mi], &m))
        return a64_refuse(c, in, "a memory operand litmusc does not read");
    long post = 0;
    bool has_post = mi + 1 < n && a64_imm(ops[mi + 1], &post);
    const lift_reloc *rl = a64_reloc_at(c, in);
    if (m.base == A64_SP || (m.base < NREG && s->r[m.base].k == V_STACK)) {
        if (*m.index)
            return a64_refuse(c, in, "a stack slot chosen by a value");
        int64_t at = (m.base == A64_SP ? s->sp : s->r[m.base].off) + (has_post ? 0 : m.imm);
        if (m.base == A64_SP && s->sp_mixed)
            return a64_refuse(c, in, "a stack pointer that differs between paths");
        if (!stack_access(c, in, s, ops, mi, at))
            return false;
        int64_t wb = m.pre ? m.imm : has_post ? post : 0;
        if (m.base == A64_SP)
            s->sp += wb;
        else
            s->r[m.base].off += wb;
        return true;
    }
    if (m.pre || has_post)
        return a64_refuse(c, in, "a writeback to a location's address register");
    size_t sec;
    int64_t off;
    bool idx_reg = false;
    const aval *dep = NULL;
    if (rl && lo12(rl->type) && s->r[m.base].k == V_PAGE) {
        sec = rl->shndx;
        off = (int64_t)rl->value;
    } else if (s->r[m.base].k == V_ADDR) {
        sec = s->r[m.base].sec;
        off = s->r[m.base].off + m.imm;
    } else if (s->r[m.base].k == V_INDEXED && !*m.index) {
        /* the address dependency's value as herd's register offset, which
         * only the plain loads and stores have; the others' address is
         * computed (dep_addr) */
        static const char *const plain[] = {"ldr", "ldrb", "ldrh", "ldrsb", "ldrsh", "ldrsw", "str", "strb", "strh",
                                            NULL};
        bool ok = false;
        for (int i = 0; plain[i]; i++)
            ok |= !strcmp(in->mnem, plain[i]);
        if (!strcmp(in->mnem, "ldp") || !strcmp(in->mnem, "stp"))
            return a64_refuse(c, in, "a pair of accesses at an address that depends on a value");
        const aval *a = &s->r[m.base];
        sec = a->sec;
        off = a->off + m.imm;
        if (ok)
            snprintf(m.index, sizeof m.index, "x%d%s%s", a->idx, *a->ext ? "," : "", a->ext);
        else
            dep = a;
        idx_reg = true;
    } else {
        return a64_refuse(c, in, s->r[m.base].k == V_MIXED ? "a base register that holds different addresses on "
                                                         "different paths"
                                                       : "memory through a pointer the thread computed");
    }
    if ((!strcmp(in->mnem, "ldp") || !strcmp(in->mnem, "stp")) && !*m.index)
        return pair(c, in, s, ops, sec, off);
    const char *name = place_name(c, in, sec, off);
    if (!name)
        return false;
    if (!mem_in_dialect(in->mnem))
        return a64_refuse(c, in, "outside herd7 7.57's AArch64 dialect");
    mkind k = mem_kind(in->mnem);
    /* reads: every register but a load's targets, the swap's and LD<op>'s second, a store-exclusive's status */
    for (int j = 0; j < mi; j++) {
        char w;
        int r = a64_reg(ops[j], &w);
        if (r < 0 || r == A64_SP)
            return a64_refuse(c, in, "an operand that is no general register");
        bool written = k == K_LOAD || ((k == K_SWP || k == K_LDOP) && j == 1) || (k == K_STX && j == 0);
        if (!written && !a64_read_ok(c, in, s, r))
            return false;
    }
    char idx[48] = "";
    if (*m.index && idx_reg) {
        strbuf b = {0};
        sb_addc(&b, ',');
        a64_herd_op(&b, m.index);
        char *t = sb_take(&b);
        snprintf(idx, sizeof idx, "%s", t);
        free(t);
    } else if (*m.index) {
        char w, reg[16];
        snprintf(reg, sizeof reg, "%.*s", (int)strcspn(m.index, ","), m.index);
        if (!a64_read_ok(c, in, s, a64_reg(reg, &w)))
            return false;
        if (off != (int64_t)s->r[m.base].off || rl)
            return a64_refuse(c, in, "an indexed address with an offset");
        strbuf b = {0};
        sb_addc(&b, ',');
        a64_herd_op(&b, m.index);
        char *t = sb_take(&b);
        snprintf(idx, sizeof idx, "%s", t);
        free(t);
    }
    int lr = a64_loc_reg(c, name);
    if (lr < 0)
        return false;
    char mem[80];
    if (dep) {
        int t = dep_addr(c, in, dep, lr);
        if (t < 0)
            return false;
        snprintf(mem, sizeof mem, "[X%d]", t);
    } else {
        snprintf(mem, sizeof mem, "[X%d%s]", lr, idx);
    }
    a64_push(c, a64_row_of(in, ops, mi + 1, mi, mem));
    for (int j = 0; j < mi; j++) {
        char w;
        int r = a64_reg(ops[j], &w);
        bool written = k == K_LOAD || k == K_CAS || ((k == K_SWP || k == K_LDOP) && j == 1) || (k == K_STX && j == 0);
        if (written)
            a64_set_data(s, r);
    }
    return true;
}
