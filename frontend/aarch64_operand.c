/* The AArch64 cell reader's tokens and operands: registers, immediates,
 * addresses and labels, as herd's AArch64 tests write them. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "frontend/aarch64_lex.h"
#include "util/mem.h"

/* The reader is at the cell's first token once started. */
bool a64_cell_init(a64_cell *c, const char *p, const char *end, int line, int col, const char *file, diag *d)
{
    memset(c, 0, sizeof *c);
    c->p = p;
    c->end = end;
    c->line = line;
    c->col = col;
    c->file = file;
    c->d = d;
    return a64_next(c);
}

/* Every error of a cell is at its current token, and stops the reader. */
bool a64_error(a64_cell *c, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    c->failed = true;
    return diag_error(c->d, c->file, c->cur.line, c->cur.col, "%s", msg);
}

/* Advance over one character, keeping the position. */
static void step(a64_cell *c)
{
    if (*c->p == '\n') {
        c->line++;
        c->col = 1;
    } else {
        c->col++;
    }
    c->p++;
}

/* Identifiers take '.' and '_' inside (B.EQ, L0.x); numbers are decimal or
 * 0x hex, a leading '-' belonging to the number. */
bool a64_next(a64_cell *c)
{
    while (c->p < c->end && isspace((unsigned char)*c->p))
        step(c);
    a64_tok *t = &c->cur;
    memset(t, 0, sizeof *t);
    t->line = c->line;
    t->col = c->col;
    t->s = c->p;
    if (c->p >= c->end) {
        t->kind = A64_EOF;
        return true;
    }
    unsigned char ch = (unsigned char)*c->p;
    if (isalpha(ch) || ch == '_') {
        t->kind = A64_IDENT;
        while (c->p < c->end && (isalnum((unsigned char)*c->p) || *c->p == '_' || *c->p == '.'))
            step(c);
    } else if (isdigit(ch) || (ch == '-' && c->p + 1 < c->end && isdigit((unsigned char)c->p[1]))) {
        bool neg = ch == '-';
        if (neg)
            step(c);
        int base = 10;
        if (c->p + 1 < c->end && c->p[0] == '0' && (c->p[1] == 'x' || c->p[1] == 'X')) {
            base = 16;
            step(c);
            step(c);
        }
        uint64_t v = 0;
        bool any = false, big = false;
        while (c->p < c->end && isxdigit((unsigned char)*c->p)) {
            int dv = isdigit((unsigned char)*c->p) ? *c->p - '0' : (tolower((unsigned char)*c->p) - 'a' + 10);
            if (dv >= base)
                break;
            if (v > (UINT64_MAX - (uint64_t)dv) / (uint64_t)base)
                big = true;
            v = v * (uint64_t)base + (uint64_t)dv;
            any = true;
            step(c);
        }
        t->kind = A64_NUM;
        t->len = (int)(c->p - t->s);
        if (!any || big || (c->p < c->end && (isalnum((unsigned char)*c->p) || *c->p == '_')))
            return a64_error(c, "malformed number '%.*s'", t->len + (c->p < c->end), t->s);
        t->num = neg ? (int64_t)(0 - v) : (int64_t)v;
        return true;
    } else if (strchr("[],:#!{}", (int)ch)) {
        t->kind = A64_PUNCT;
        step(c);
    } else {
        return a64_error(c, "unexpected character '%c'", ch);
    }
    t->len = (int)(c->p - t->s);
    return true;
}

/* Punctuation is one character. */
bool a64_is(const a64_cell *c, char ch)
{
    return c->cur.kind == A64_PUNCT && c->cur.s[0] == ch;
}

/* WHAT says where CH belongs, for the message. */
bool a64_expect(a64_cell *c, char ch, const char *what)
{
    if (a64_is(c, ch))
        return a64_next(c);
    if (c->cur.kind == A64_EOF)
        return a64_error(c, "expected '%c' %s, found the end of the cell", ch, what);
    return a64_error(c, "expected '%c' %s, found '%.*s'", ch, what, c->cur.len, c->cur.s);
}

/* herd reads mnemonics and registers in any case; look-ups are upper case. */
void a64_upper(const a64_tok *t, char *buf, int size)
{
    int n = t->len < size - 1 ? t->len : size - 1;
    for (int i = 0; i < n; i++)
        buf[i] = (char)toupper((unsigned char)t->s[i]);
    buf[n] = 0;
}

/* W0-W30, X0-X30, WZR, XZR; W00 or X31 are no registers. */
bool a64_reg_of(const a64_tok *t, int *reg, bool *wide)
{
    if (t->kind != A64_IDENT)
        return false;
    char u[8];
    if (t->len > 4)
        return false;
    a64_upper(t, u, sizeof u);
    if (u[0] != 'W' && u[0] != 'X')
        return false;
    *wide = u[0] == 'X';
    if (!strcmp(u + 1, "ZR")) {
        *reg = FE_A64_ZR;
        return true;
    }
    if (!u[1] || (u[1] == '0' && u[2]))
        return false;
    int n = 0;
    for (const char *p = u + 1; *p; p++) {
        if (!isdigit((unsigned char)*p))
            return false;
        n = n * 10 + (*p - '0');
    }
    if (n > 30)
        return false;
    *reg = n;
    return true;
}

static const char *const cond_names[FE_A64_COND_COUNT] = {"EQ", "NE", "LT", "GE", "GT", "LE", "MI", "PL"};

/* The conditions the lowering can compute from two compared values. */
int a64_cond_of(const char *name)
{
    for (int i = 0; i < FE_A64_COND_COUNT; i++)
        if (!strcmp(cond_names[i], name))
            return i;
    return -1;
}

/* For the printer. */
const char *a64_cond_name(fe_a64_cond k)
{
    return (unsigned)k < FE_A64_COND_COUNT ? cond_names[k] : "?";
}

/* `#imm` or a bare number. */
static bool immediate(a64_cell *c, int64_t *v)
{
    if (a64_is(c, '#') && !a64_next(c))
        return false;
    if (c->cur.kind != A64_NUM)
        return a64_error(c, "expected a number");
    *v = c->cur.num;
    return a64_next(c);
}

/* The index part of an address after `[Xn,`: Rm{, LSL|UXTW|SXTW|SXTX {#k}}. */
static bool index_part(a64_cell *c, fe_a64_opnd *o)
{
    int r;
    bool wide;
    if (!a64_reg_of(&c->cur, &r, &wide) || r == FE_A64_ZR)
        return a64_error(c, "expected an offset (#imm) or an index register");
    o->index = r;
    o->index_wide = wide;
    if (!a64_next(c))
        return false;
    if (!a64_is(c, ','))
        return true;
    if (!a64_next(c))
        return false;
    char u[8];
    a64_upper(&c->cur, u, sizeof u);
    static const struct { const char *name; fe_a64_ext ext; } exts[] = {
        {"LSL", FE_A64_X_LSL}, {"UXTW", FE_A64_X_UXTW}, {"SXTW", FE_A64_X_SXTW}, {"SXTX", FE_A64_X_SXTX},
    };
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
        if (c->cur.kind == A64_IDENT && !strcmp(u, exts[i].name))
            o->ext = exts[i].ext;
    if (o->ext == FE_A64_X_NONE)
        return a64_error(c, "unsupported index extension '%.*s' (LSL, UXTW, SXTW or SXTX)", c->cur.len, c->cur.s);
    if (!a64_next(c))
        return false;
    if (a64_is(c, '#') || c->cur.kind == A64_NUM) {
        int64_t k;
        if (!immediate(c, &k))
            return false;
        if (k < 0 || k > 4)
            return a64_error(c, "index shift #%lld is out of range (0 to 4)", (long long)k);
        o->shift = (int)k;
    }
    if (o->ext == FE_A64_X_LSL && !o->shift)
        o->ext = FE_A64_X_NONE;     /* LSL #0 is no shift, as herd reads it */
    return true;
}

/* [Xn], [Xn,#imm], [Xn,Rm...]; pre- and post-indexed forms write the base
 * register back, which the lowering does not do: refused. */
static bool address(a64_cell *c, fe_a64_opnd *o)
{
    o->kind = FE_AO_MEM;
    o->index = -1;
    if (!a64_next(c))
        return false;
    int r;
    bool wide;
    if (!a64_reg_of(&c->cur, &r, &wide) || !wide || r == FE_A64_ZR)
        return a64_error(c, "expected a base register X0-X30 in the address");
    o->reg = r;
    o->wide = true;
    if (!a64_next(c))
        return false;
    if (a64_is(c, ',')) {
        if (!a64_next(c))
            return false;
        if (a64_is(c, '#') || c->cur.kind == A64_NUM) {
            if (!immediate(c, &o->imm))
                return false;
        } else if (!index_part(c, o)) {
            return false;
        }
    }
    if (!a64_expect(c, ']', "to close the address"))
        return false;
    if (a64_is(c, '!') || a64_is(c, ','))
        return a64_error(c, "pre- and post-indexed addresses are not supported");
    return true;
}

/* The operand's kind is told by its first token; an identifier is a
 * register unless a label is wanted there. */
bool a64_parse_operand(a64_cell *c, fe_a64_opnd *o, bool want_label)
{
    memset(o, 0, sizeof *o);
    o->index = -1;
    o->line = c->cur.line;
    o->col = c->cur.col;
    if (a64_is(c, '['))
        return address(c, o);
    if (a64_is(c, '#') || c->cur.kind == A64_NUM) {
        o->kind = FE_AO_IMM;
        return immediate(c, &o->imm);
    }
    if (c->cur.kind != A64_IDENT)
        return a64_error(c, c->cur.kind == A64_EOF ? "expected an operand, found the end of the cell"
                                                   : "expected an operand");
    if (!want_label) {
        if (!a64_reg_of(&c->cur, &o->reg, &o->wide))
            return a64_error(c, "unknown register '%.*s'", c->cur.len, c->cur.s);
        o->kind = FE_AO_REG;
        return a64_next(c);
    }
    o->kind = FE_AO_LABEL;
    o->label = xstrndup(c->cur.s, (size_t)c->cur.len);
    return a64_next(c);
}
