/* X86 (Intel operand order) and X86_64 (AT&T) programs: a table whose
 * first row names the threads `P0 | P1 ;` and whose other rows hold one
 * cell per thread, `[LBL:] [LOCK[;]] INSTR operands`, ended by ';'. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "frontend/internal.h"
#include "isa/isa.h"
#include "util/mem.h"

typedef struct mnem {
    const char *name;
    fe_x86_op op;
    int nops;       /* operand count */
    bool lockable;
} mnem;

static const mnem mnems[] = {
    {"MOV", FE_X86_MOV, 2, false},     {"ADD", FE_X86_ADD, 2, true},     {"SUB", FE_X86_SUB, 2, true},
    {"XOR", FE_X86_XOR, 2, true},      {"OR", FE_X86_OR, 2, true},       {"AND", FE_X86_AND, 2, true},
    {"INC", FE_X86_INC, 1, true},      {"DEC", FE_X86_DEC, 1, true},     {"CMP", FE_X86_CMP, 2, false},
    {"XCHG", FE_X86_XCHG, 2, true},    {"XADD", FE_X86_XADD, 2, true},   {"CMPXCHG", FE_X86_CMPXCHG, 2, true},
    {"MFENCE", FE_X86_MFENCE, 0, false}, {"LFENCE", FE_X86_LFENCE, 0, false},
    {"SFENCE", FE_X86_SFENCE, 0, false}, {"JMP", FE_X86_JMP, 1, false}, {"JE", FE_X86_JE, 1, false},
    {"JZ", FE_X86_JE, 1, false},       {"JNE", FE_X86_JNE, 1, false},    {"JNZ", FE_X86_JNE, 1, false},
    {"SETNB", FE_X86_SETNB, 1, false}, {"SETAE", FE_X86_SETNB, 1, false}, {"CMOVC", FE_X86_CMOVC, 2, false},
    {"CMOVB", FE_X86_CMOVC, 2, false}, {"NOP", FE_X86_NOP, 0, false},    {"MOVNTI", FE_X86_MOVNTI, 2, false},
    {"CLFLUSH", FE_X86_CLFLUSH, 1, false}, {"RET", FE_X86_RET, 0, false},
    {"ENDBR64", FE_X86_NOP, 0, false},
    {"TEST", FE_X86_TEST, 2, false},   {"SETE", FE_X86_SETE, 1, false},  {"SETZ", FE_X86_SETE, 1, false},
    {"SETNE", FE_X86_SETNE, 1, false}, {"SETNZ", FE_X86_SETNE, 1, false},
    {"JL", FE_X86_JL, 1, false},       {"JNGE", FE_X86_JL, 1, false},   {"JGE", FE_X86_JGE, 1, false},
    {"JNL", FE_X86_JGE, 1, false},     {"JLE", FE_X86_JLE, 1, false},   {"JNG", FE_X86_JLE, 1, false},
    {"JG", FE_X86_JG, 1, false},       {"JNLE", FE_X86_JG, 1, false},
    /* herd7's own names; its jlt tests ZF|~SF (<=), litmusc reads it as jl (<) */
    {"JGT", FE_X86_JG, 1, false},      {"JLT", FE_X86_JL, 1, false},   {"JB", FE_X86_JB, 1, false},
    {"JC", FE_X86_JB, 1, false},       {"JNAE", FE_X86_JB, 1, false},   {"JAE", FE_X86_JAE, 1, false},
    {"JNB", FE_X86_JAE, 1, false},     {"JNC", FE_X86_JAE, 1, false},   {"JBE", FE_X86_JBE, 1, false},
    {"JNA", FE_X86_JBE, 1, false},     {"JA", FE_X86_JA, 1, false},     {"JNBE", FE_X86_JA, 1, false},
    {"LEA", FE_X86_LEA, 2, false},     {"NEG", FE_X86_NEG, 1, false},   {"NOT", FE_X86_NOT, 1, true},
    {"CMOVE", FE_X86_CMOVE, 2, false}, {"CMOVZ", FE_X86_CMOVE, 2, false},
    {"CMOVNE", FE_X86_CMOVNE, 2, false}, {"CMOVNZ", FE_X86_CMOVNE, 2, false},
    {"SETL", FE_X86_SETL, 1, false},   {"SETNGE", FE_X86_SETL, 1, false},  {"SETGE", FE_X86_SETGE, 1, false},
    {"SETNL", FE_X86_SETGE, 1, false}, {"SETLE", FE_X86_SETLE, 1, false},  {"SETNG", FE_X86_SETLE, 1, false},
    {"SETG", FE_X86_SETG, 1, false},   {"SETNLE", FE_X86_SETG, 1, false},  {"SETB", FE_X86_SETB, 1, false},
    {"SETC", FE_X86_SETB, 1, false},   {"SETNAE", FE_X86_SETB, 1, false},  {"SETNC", FE_X86_SETNB, 1, false},
    {"SETBE", FE_X86_SETBE, 1, false}, {"SETNA", FE_X86_SETBE, 1, false},  {"SETA", FE_X86_SETA, 1, false},
    {"SETNBE", FE_X86_SETA, 1, false},
    {"CMOVL", FE_X86_CMOVL, 2, false},   {"CMOVNGE", FE_X86_CMOVL, 2, false}, {"CMOVGE", FE_X86_CMOVGE, 2, false},
    {"CMOVNL", FE_X86_CMOVGE, 2, false}, {"CMOVLE", FE_X86_CMOVLE, 2, false}, {"CMOVNG", FE_X86_CMOVLE, 2, false},
    {"CMOVG", FE_X86_CMOVG, 2, false},   {"CMOVNLE", FE_X86_CMOVG, 2, false}, {"CMOVAE", FE_X86_CMOVAE, 2, false},
    {"CMOVNB", FE_X86_CMOVAE, 2, false}, {"CMOVNC", FE_X86_CMOVAE, 2, false}, {"CMOVNAE", FE_X86_CMOVC, 2, false},
    {"CMOVBE", FE_X86_CMOVBE, 2, false}, {"CMOVNA", FE_X86_CMOVBE, 2, false}, {"CMOVA", FE_X86_CMOVA, 2, false},
    {"CMOVNBE", FE_X86_CMOVA, 2, false},
    {"MOVABS", FE_X86_MOV, 2, false},  /* GNU's mov of a 64-bit immediate */
    {"SHL", FE_X86_SHL, 2, false},     {"SAL", FE_X86_SHL, 2, false},     {"SHR", FE_X86_SHR, 2, false},
    {"SAR", FE_X86_SAR, 2, false},
    {NULL, FE_X86_EMPTY, 0, false},
};

static const mnem *find_mnem(const char *up)
{
    for (int i = 0; mnems[i].name; i++)
        if (!strcmp(mnems[i].name, up))
            return &mnems[i];
    return NULL;
}

/* Mnemonic with an optional size suffix b/w/l/q. */
static const mnem *lookup_mnem(const tok *t, int *size)
{
    char up[24];
    if (t->len >= sizeof up)
        return NULL;
    for (size_t i = 0; i < t->len; i++)
        up[i] = (char)toupper((unsigned char)t->s[i]);
    up[t->len] = 0;
    *size = 0;
    const mnem *m = find_mnem(up);
    if (m)
        return m;
    size_t n = t->len;
    if (n < 2)
        return NULL;
    char last = up[n - 1];
    int sz = last == 'B' ? 1 : last == 'W' ? 2 : last == 'L' ? 4 : last == 'Q' ? 8 : 0;
    if (!sz)
        return NULL;
    up[n - 1] = 0;
    m = find_mnem(up);
    /* nopl/nopw take an operand, which they do not access (what LLVM pads
     * with; herd's I_NOP effaddr) */
    bool padding = m && m->op == FE_X86_NOP && (sz == 2 || sz == 4);
    if (!m || (m->nops == 0 && !padding) || FE_X86_IS_JUMP(m->op) ||
        m->op == FE_X86_CLFLUSH)
        return NULL;
    *size = sz;
    return m;
}

/* AT&T's zero- and sign-extending loads: MOVZ/MOVS, source and
 * destination widths as two suffix letters (movzbl: byte to long).  herd
 * holds a location's whole value, so the model reads them as MOV; the
 * widths are checked against the registers written. */
typedef struct movx {
    const char *name;
    int from, to;
} movx;

static const movx movxs[] = {
    {"movzbw", 1, 2}, {"movzbl", 1, 4}, {"movzbq", 1, 8}, {"movzwl", 2, 4}, {"movzwq", 2, 8},
    {"movsbw", 1, 2}, {"movsbl", 1, 4}, {"movsbq", 1, 8}, {"movswl", 2, 4}, {"movswq", 2, 8},
    {"movslq", 4, 8},
    {NULL, 0, 0},
};

static const movx *lookup_movx(const tok *t)
{
    for (int i = 0; movxs[i].name; i++)
        if (strlen(movxs[i].name) == t->len && !strncasecmp(movxs[i].name, t->s, t->len))
            return &movxs[i];
    return NULL;
}

static const char *kind_word(const fe_x86_opnd *o)
{
    switch (o->kind) {
    case FE_XO_IMM: return "an immediate";
    case FE_XO_REG: return "a register";
    case FE_XO_LABEL: return "a label";
    case FE_XO_NONE: return "nothing";
    default: return "memory";
    }
}

/* Operand shapes each instruction accepts; sizes agree with suffixes. */
static bool check_instr(fe_x86_parser *p, fe_x86_instr *in, const mnem *m)
{
    lexer *lx = &p->lx;
    fe_x86_opnd *d = &in->dst, *s = &in->src;
    const char *nm = m->name;
    int line = in->pos.line, col = in->pos.col;
    bool d_rm = d->kind == FE_XO_REG || fe_x86_is_mem(d);
    bool s_rm = s->kind == FE_XO_REG || fe_x86_is_mem(s);
    switch (in->op) {
    case FE_X86_MOV: case FE_X86_ADD: case FE_X86_SUB: case FE_X86_XOR: case FE_X86_OR:
    case FE_X86_AND: case FE_X86_CMP: case FE_X86_TEST:
        if (!d_rm)
            return lx_error_at(lx, d->pos.line, d->pos.col, "type mismatch: %s cannot write to %s", nm, kind_word(d));
        if (!(s_rm || s->kind == FE_XO_IMM))
            return lx_error_at(lx, s->pos.line, s->pos.col, "type mismatch: bad source operand for %s", nm);
        if (fe_x86_is_mem(d) && fe_x86_is_mem(s))
            return lx_error_at(lx, line, col, "%s cannot have two memory operands", nm);
        break;
    case FE_X86_SHL: case FE_X86_SHR: case FE_X86_SAR:
        if (!d_rm)
            return lx_error_at(lx, d->pos.line, d->pos.col, "type mismatch: %s cannot write to %s", nm, kind_word(d));
        if (s->kind != FE_XO_IMM && !(s->kind == FE_XO_REG && !strcmp(s->name, p->att ? "rcx" : "ECX") &&
                                      s->reg_size == 1))
            return lx_error_at(lx, s->pos.line, s->pos.col, "type mismatch: %s shifts by an immediate or %%cl", nm);
        break;
    case FE_X86_SETL: case FE_X86_SETGE: case FE_X86_SETLE: case FE_X86_SETG: case FE_X86_SETB:
    case FE_X86_SETBE: case FE_X86_SETA:
    case FE_X86_INC: case FE_X86_DEC: case FE_X86_SETNB: case FE_X86_SETE: case FE_X86_SETNE:
        if (!d_rm)
            return lx_error_at(lx, d->pos.line, d->pos.col, "type mismatch: %s needs a register or memory operand", nm);
        break;
    case FE_X86_LEA:
        if (d->kind != FE_XO_REG || s->kind != FE_XO_MEM)
            return lx_error_at(lx, line, col, "type mismatch: %s takes a location and a register", nm);
        break;
    case FE_X86_NEG:
        if (d->kind != FE_XO_REG)
            return lx_error_at(lx, d->pos.line, d->pos.col, "type mismatch: %s takes a register here", nm);
        break;
    case FE_X86_NOT:
        if (!d_rm)
            return lx_error_at(lx, d->pos.line, d->pos.col, "type mismatch: %s needs a register or memory operand", nm);
        break;
    case FE_X86_XCHG:
        if (!d_rm || !s_rm)
            return lx_error_at(lx, line, col, "type mismatch: XCHG takes registers or memory");
        if (fe_x86_is_mem(d) && fe_x86_is_mem(s))
            return lx_error_at(lx, line, col, "XCHG cannot have two memory operands");
        break;
    case FE_X86_XADD: case FE_X86_CMPXCHG:
        if (!d_rm)
            return lx_error_at(lx, d->pos.line, d->pos.col, "type mismatch: %s needs memory or a register first", nm);
        if (s->kind != FE_XO_REG)
            return lx_error_at(lx, s->pos.line, s->pos.col, "type mismatch: %s needs a register source%s", nm,
                               p->att && in->op == FE_X86_CMPXCHG ? " (X86_64 writes memory first: cmpxchg (x),%reg)" : "");
        break;
    case FE_X86_CMOVC: case FE_X86_CMOVE: case FE_X86_CMOVNE: case FE_X86_CMOVL: case FE_X86_CMOVGE:
    case FE_X86_CMOVLE: case FE_X86_CMOVG: case FE_X86_CMOVAE: case FE_X86_CMOVBE: case FE_X86_CMOVA:
        if (d->kind != FE_XO_REG || !s_rm)
            return lx_error_at(lx, line, col, "type mismatch: %s needs a register destination", nm);
        break;
    case FE_X86_MOVNTI:
        if (!fe_x86_is_mem(d) || s->kind != FE_XO_REG)
            return lx_error_at(lx, line, col, "type mismatch: MOVNTI stores a register to memory");
        break;
    case FE_X86_CLFLUSH:
        if (!fe_x86_is_mem(d))
            return lx_error_at(lx, line, col, "type mismatch: CLFLUSH needs a memory operand");
        break;
    case FE_X86_NOP:
        if (in->size && !d_rm)
            return lx_error_at(lx, d->pos.line, d->pos.col, "type mismatch: %s needs a register or memory operand",
                               in->size == 2 ? "NOPW" : "NOPL");
        break;
    default:
        break;
    }
    if (in->lock) {
        if (!m->lockable)
            return lx_error_at(lx, line, col, "LOCK prefix is not allowed on %s", nm);
        if (!fe_x86_is_mem(d))
            return lx_error_at(lx, line, col, "LOCK %s needs a memory destination", nm);
    }
    /* a padding NOP's operand is not read: herd checks no width there */
    if (p->att && in->size && in->op != FE_X86_NOP) {
        const fe_x86_opnd *ops[2] = {d, s};
        for (int i = 0; i < 2; i++)
            if (ops[i]->kind == FE_XO_REG && ops[i]->reg_size != in->size &&
                !(i == 1 && (in->op == FE_X86_SHL || in->op == FE_X86_SHR || in->op == FE_X86_SAR)))
                return lx_error_at(lx, ops[i]->pos.line, ops[i]->pos.col,
                                   "type mismatch: register %%%s is %d bytes but the suffix says %d",
                                   x86_64_reg_sized(ops[i]->name, ops[i]->reg_size), ops[i]->reg_size, in->size);
    }
    if (p->att && !in->size && d->kind == FE_XO_REG && s->kind == FE_XO_REG && d->reg_size != s->reg_size &&
        in->op != FE_X86_CMOVC && in->op != FE_X86_SHL && in->op != FE_X86_SHR && in->op != FE_X86_SAR)
        return lx_error_at(lx, line, col, "type mismatch: registers of different sizes");
    return true;
}

/* movzbl (x),%eax: a register destination of the second width, a source
 * in memory or a register of the first. */
static bool check_movx(fe_x86_parser *p, const fe_x86_instr *in, const movx *mx)
{
    lexer *lx = &p->lx;
    const fe_x86_opnd *d = &in->dst, *s = &in->src;
    if (in->lock)
        return lx_error_at(lx, in->pos.line, in->pos.col, "LOCK prefix is not allowed on %s", mx->name);
    if (d->kind != FE_XO_REG)
        return lx_error_at(lx, d->pos.line, d->pos.col, "type mismatch: %s writes a register, not %s", mx->name,
                           kind_word(d));
    if (d->reg_size != mx->to)
        return lx_error_at(lx, d->pos.line, d->pos.col, "type mismatch: register %%%s is %d bytes but %s writes %d",
                           x86_64_reg_sized(d->name, d->reg_size), d->reg_size, mx->name, mx->to);
    if (s->kind == FE_XO_REG && s->reg_size != mx->from)
        return lx_error_at(lx, s->pos.line, s->pos.col, "type mismatch: register %%%s is %d bytes but %s reads %d",
                           x86_64_reg_sized(s->name, s->reg_size), s->reg_size, mx->name, mx->from);
    if (s->kind != FE_XO_REG && !fe_x86_is_mem(s))
        return lx_error_at(lx, s->pos.line, s->pos.col, "type mismatch: %s reads a register or memory, not %s",
                           mx->name, kind_word(s));
    return true;
}

/* After LOCK: is the ';' that follows a prefix separator (an instruction
 * follows on the same line) rather than the end of the row? */
static bool semicolon_is_prefix(const lexer *lx)
{
    const char *q = lx->cur.end;
    while (q < lx->end && (*q == ' ' || *q == '\t'))
        q++;
    return q < lx->end && (isalpha((unsigned char)*q));
}

/* The strings an operand owns, when an instruction is given up half read
 * (its index and symbol as well as its name). */
static void opnd_free(fe_x86_opnd *o)
{
    free(o->name);
    free(o->index);
    free(o->sym);
}

static bool parse_cell(fe_x86_parser *p, fe_thread *th, int row)
{
    lexer *lx = &p->lx;
    fe_x86_instr in;
    memset(&in, 0, sizeof in);
    in.row = row;
    in.pos.line = lx->cur.line;
    in.pos.col = lx->cur.col;
    /* label? */
    if (lx->cur.kind == TK_IDENT) {
        const char *q = lx->cur.end;
        while (q < lx->end && (*q == ' ' || *q == '\t'))
            q++;
        if (q < lx->end && *q == ':') {
            in.label = tok_str(&lx->cur);
            if (!lx_next(lx) || !lx_expect(lx, ":"))
                goto fail;
            in.pos.line = lx->cur.line;
            in.pos.col = lx->cur.col;
        }
    }
    if (lx_is(lx, "|") || lx_is(lx, ";") || lx->cur.kind == TK_EOF) {
        in.op = FE_X86_EMPTY;
        goto done;
    }
    if (lx_is_ident_ci(lx, "LOCK")) {
        in.lock = true;
        if (!lx_next(lx))
            goto fail;
        if (lx_is(lx, ";") && semicolon_is_prefix(lx) && !lx_next(lx))
            goto fail;
    }
    if (lx->cur.kind != TK_IDENT) {
        lx_error(lx, "expected an instruction");
        goto fail;
    }
    int size;
    const movx *mx = p->att ? lookup_movx(&lx->cur) : NULL;
    const mnem *m = mx ? find_mnem("MOV") : lookup_mnem(&lx->cur, &size);
    if (mx) {
        size = 0;
        in.ext = mx->name;
    }
    if (!m) {
        char what[64];
        lx_describe(&lx->cur, what, sizeof what);
        lx_error_at(lx, lx->cur.line, lx->cur.col, "unknown instruction %s", what);
        goto fail;
    }
    in.op = m->op;
    in.size = size;
    if (!lx_next(lx))
        goto fail;
    bool label = FE_X86_IS_JUMP(in.op);
    int nops = in.op == FE_X86_NOP && in.size ? 1 : m->nops;
    if (nops >= 1) {
        fe_x86_opnd a, b;
        memset(&b, 0, sizeof b);
        if (!fe_x86_parse_operand(p, &a, label)) {
            opnd_free(&a);
            goto fail;
        }
        bool shift = m->op == FE_X86_SHL || m->op == FE_X86_SHR || m->op == FE_X86_SAR;
        if (nops == 2 && shift && !lx_is(lx, ",")) {
            /* `shll %eax`: by 1, read as `shll $1,%eax` */
            b = (fe_x86_opnd){.kind = FE_XO_IMM, .imm = 1, .pos = a.pos};
            if (p->att) {
                fe_x86_opnd t = a;
                a = b;
                b = t;
            }
        } else if (nops == 2) {
            if (!lx_expect(lx, ",")) {
                opnd_free(&a);
                goto fail;
            }
            if (!fe_x86_parse_operand(p, &b, false)) {
                opnd_free(&a);
                opnd_free(&b);
                goto fail;
            }
        }
        /* Intel: dst, src.  AT&T: src, dst, except herd's cmpxchg (memory first). */
        if (p->att && nops == 2 && in.op != FE_X86_CMPXCHG) {
            in.dst = b;
            in.src = a;
        } else {
            in.dst = a;
            in.src = b;
        }
    }
    if (lx->failed)
        goto fail;
    if (!lx_is(lx, "|") && !lx_is(lx, ";")) {
        lx_error(lx, "expected '|' or ';' after the instruction");
        goto fail;
    }
    if (mx && !check_movx(p, &in, mx))
        goto fail;
    if (!mx && !check_instr(p, &in, m))
        goto fail;
done:;
    size_t n = (size_t)th->ncode, cap = n;
    VEC_PUSH(th->code, n, cap, in);
    th->ncode = (int)n;
    return true;
fail:
    free(in.label);
    opnd_free(&in.dst);
    opnd_free(&in.src);
    return false;
}

static bool parse_thread_row(fe_x86_parser *p)
{
    lexer *lx = &p->lx;
    fe_test *t = p->t;
    size_t cap = 0, n = 0;
    if (lx->cur.kind == TK_EOF)
        return lx_error(lx, "expected the program (a row of threads 'P0 | P1 ;')");
    for (;;) {
        if (lx->cur.kind != TK_IDENT || lx->cur.len < 2 || lx->cur.s[0] != 'P')
            return lx_error(lx, "expected a thread name P%d", (int)n);
        int id = 0;
        for (size_t i = 1; i < lx->cur.len; i++) {
            if (!isdigit((unsigned char)lx->cur.s[i]))
                return lx_error(lx, "expected a thread name P%d", (int)n);
            if (i > 4)
                return lx_error(lx, "too many threads: at most 10000 (P0 to P9999)");
            id = id * 10 + (lx->cur.s[i] - '0');
        }
        for (size_t i = 0; i < n; i++)
            if (t->threads[i].id == id)
                return lx_error(lx, "duplicate thread P%d", id);
        if (id != (int)n)
            return lx_error(lx, "threads must be P0, P1, ... in order (expected P%d)", (int)n);
        fe_thread th;
        memset(&th, 0, sizeof th);
        th.id = id;
        th.name = tok_str(&lx->cur);
        th.pos.line = lx->cur.line;
        th.pos.col = lx->cur.col;
        VEC_PUSH(t->threads, n, cap, th);
        t->nthreads = (int)n;
        if (!lx_next(lx))
            return false;
        if (lx_accept(lx, ";"))
            return true;
        if (!lx_expect(lx, "|"))
            return false;
    }
}

/* Labels are local to a thread; jumps must name one of them. */
static bool check_labels(fe_x86_parser *p, fe_thread *th)
{
    for (int i = 0; i < th->ncode; i++) {
        fe_x86_instr *in = &th->code[i];
        if (in->label)
            for (int j = 0; j < i; j++)
                if (th->code[j].label && !strcmp(th->code[j].label, in->label))
                    return lx_error_at(&p->lx, in->pos.line, in->pos.col, "label %s defined twice in %s",
                                       in->label, th->name);
        if (in->dst.kind == FE_XO_LABEL) {
            bool found = false;
            for (int j = 0; j < th->ncode; j++)
                if (th->code[j].label && !strcmp(th->code[j].label, in->dst.name))
                    found = true;
            if (!found)
                return lx_error_at(&p->lx, in->dst.pos.line, in->dst.pos.col, "unknown label '%s' in %s",
                                   in->dst.name, th->name);
        }
    }
    return true;
}

bool fe_parse_x86(fe_test *t, const section *s, const char *file, diag *d)
{
    fe_x86_parser p;
    p.thread = 0;
    p.t = t;
    p.att = isa_of(t->arch)->att;
    lx_init(&p.lx, s->p, s->end, s->line, s->col, LX_ML_COMMENTS | LX_HASH_COMMENTS, file, d);
    lexer *lx = &p.lx;
    if (lx->failed || !parse_thread_row(&p))
        return false;
    int row = 0;
    while (lx->cur.kind != TK_EOF) {
        for (int i = 0; i < t->nthreads; i++) {
            p.thread = i;
            if (!parse_cell(&p, &t->threads[i], row))
                return false;
            if (i + 1 < t->nthreads) {
                if (lx_is(lx, ";"))
                    return lx_error(lx, "row has %d cells but the test has %d threads", i + 1, t->nthreads);
                if (!lx_expect(lx, "|"))
                    return false;
            }
        }
        if (lx_is(lx, "|"))
            return lx_error(lx, "row has more cells than the test has threads (%d)", t->nthreads);
        if (!lx_expect(lx, ";"))
            return false;
        row++;
    }
    t->nrows = row;
    for (int i = 0; i < t->nthreads; i++)
        if (!check_labels(&p, &t->threads[i]))
            return false;
    for (int i = 0; i < t->ninit; i++)
        if (t->init[i].loc.symbolic && t->init[i].loc.thread < 0)
            return lx_error_at(lx, t->init[i].loc.pos.line, t->init[i].loc.pos.col,
                               "symbolic register '%%%s' does not appear in the code", t->init[i].loc.name);
    return !lx->failed;
}

/* The registers an X86 init or condition may name are the 32-bit ones;
 * X86_64 (the row is wide) takes any width and herd's symbolic registers. */
bool fe_reg_known_x86(const fe_test *t, const fe_loc *l)
{
    int size;
    if (!isa_of(t->arch)->wide)
        return x86_reg(l->name) != NULL;
    return x86_64_reg(l->name, &size) != NULL || l->symbolic;
}

/* X86 spells a register of the init or condition in capitals (EAX);
 * X86_64's are lower case and 64-bit only, as herd's X86_64 reads them. */
const char *fe_reg_canon_x86(const fe_test *t, const char *name, bool *narrow)
{
    int size;
    if (!isa_of(t->arch)->wide) {
        *narrow = false;
        return x86_reg(name);
    }
    const char *r = x86_64_reg(name, &size);
    *narrow = r && size != 8;
    return r;
}
