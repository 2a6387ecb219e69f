/* Reader for the IR text form (ir/README.md), the inverse of ir/print.c.
 * It checks syntax and names only; ir_verify checks the rest, so that the
 * verifier's own tests can be written as text. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ir/ir.h"
#include "ir/text.h"
#include "util/mem.h"

typedef enum tok_kind { T_EOF, T_WORD, T_NUM, T_STR, T_PUNCT } tok_kind;

typedef struct token {
    tok_kind kind;
    char *text;         /* WORD, STR (unescaped), PUNCT spelling */
    ir_val num;
    int line, col;
} token;

typedef struct reader {
    const char *s;
    size_t pos;
    int line, col;
    token tok;
    const char *file;
    diag *d;
    bool failed;
    ir_test *t;
} reader;

/* Location inits may name locations declared later: resolved at the end
 * of the header. */
typedef struct fixup {
    int loc;
    char *name;
    int line, col;
} fixup;

/* A phi's argument labels, checked against the predecessors once the
 * thread's blocks are all known. */
typedef struct phi_note {
    int block, instr;
    int *labels;
    int line, col;
} phi_note;

static bool err(reader *r, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static bool err(reader *r, int line, int col, const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!r->failed)
        diag_error(r->d, r->file, line, col, "%s", msg);
    r->failed = true;
    return false;
}

static bool err_tok(reader *r, const char *what)
{
    const token *k = &r->tok;
    if (k->kind == T_EOF)
        return err(r, k->line, k->col, "expected %s, found the end of the text", what);
    if (k->kind == T_NUM)
        return err(r, k->line, k->col, "expected %s, found %lld", what, (long long)k->num);
    return err(r, k->line, k->col, "expected %s, found '%s'", what, k->text ? k->text : "?");
}

static char peekc(const reader *r, size_t ahead)
{
    return r->s[r->pos + ahead];
}

static void advance_char(reader *r)
{
    if (r->s[r->pos] == '\n') {
        r->line++;
        r->col = 1;
    } else {
        r->col++;
    }
    r->pos++;
}

static bool is_word_start(char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Read the next token into r->tok.  ';' starts a comment to the end of the line. */
static bool next(reader *r)
{
    free(r->tok.text);
    memset(&r->tok, 0, sizeof r->tok);
    for (;;) {
        char c = peekc(r, 0);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            advance_char(r);
        } else if (c == ';') {
            while (peekc(r, 0) && peekc(r, 0) != '\n')
                advance_char(r);
        } else {
            break;
        }
    }
    token *k = &r->tok;
    k->line = r->line;
    k->col = r->col;
    char c = peekc(r, 0);
    if (!c) {
        k->kind = T_EOF;
        return true;
    }
    size_t start = r->pos;
    if (is_word_start(c)) {
        while (is_word_start(peekc(r, 0)) || is_digit(peekc(r, 0)))
            advance_char(r);
        k->kind = T_WORD;
        k->text = xstrndup(r->s + start, r->pos - start);
        return true;
    }
    if (is_digit(c) || (c == '-' && is_digit(peekc(r, 1)))) {
        advance_char(r);
        while (is_digit(peekc(r, 0)))
            advance_char(r);
        char *text = xstrndup(r->s + start, r->pos - start);
        errno = 0;
        char *end;
        long long v = strtoll(text, &end, 10);
        bool bad = errno || *end;
        free(text);
        if (bad)
            return err(r, k->line, k->col, "number out of range");
        k->kind = T_NUM;
        k->num = v;
        return true;
    }
    if (c == '"') {
        advance_char(r);
        strbuf b = {0};
        for (;;) {
            char ch = peekc(r, 0);
            if (!ch || ch == '\n') {
                sb_free(&b);
                return err(r, k->line, k->col, "unterminated string");
            }
            advance_char(r);
            if (ch == '"')
                break;
            if (ch == '\\') {
                char e = peekc(r, 0);
                if (e == '"' || e == '\\') {
                    sb_addc(&b, e);
                    advance_char(r);
                } else if (e == 'n') {
                    sb_addc(&b, '\n');
                    advance_char(r);
                } else if (e == 't') {
                    sb_addc(&b, '\t');
                    advance_char(r);
                } else if (e == 'x' && hexval(peekc(r, 1)) >= 0 && hexval(peekc(r, 2)) >= 0) {
                    int v = hexval(peekc(r, 1)) * 16 + hexval(peekc(r, 2));
                    if (v == 0) {
                        sb_free(&b);
                        return err(r, r->line, r->col, "a string cannot contain a NUL byte");
                    }
                    sb_addc(&b, (char)v);
                    advance_char(r);
                    advance_char(r);
                    advance_char(r);
                } else {
                    sb_free(&b);
                    return err(r, r->line, r->col, "unknown escape in string");
                }
            } else {
                sb_addc(&b, ch);
            }
        }
        k->kind = T_STR;
        k->text = sb_take(&b);
        return true;
    }
    static const char *const multi[] = {"/\\", "\\/", "=>", "!=", NULL};
    for (int i = 0; multi[i]; i++)
        if (!strncmp(r->s + r->pos, multi[i], 2)) {
            advance_char(r);
            advance_char(r);
            k->kind = T_PUNCT;
            k->text = xstrdup(multi[i]);
            return true;
        }
    if (strchr("%&,.:=[]()~@#", c)) {
        advance_char(r);
        k->kind = T_PUNCT;
        k->text = xstrndup(&c, 1);
        return true;
    }
    if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f)
        return err(r, k->line, k->col, "unexpected character '%c'", c);
    return err(r, k->line, k->col, "unexpected byte 0x%02x", (unsigned)(unsigned char)c);
}

static bool is_punct(const reader *r, const char *p)
{
    return r->tok.kind == T_PUNCT && !strcmp(r->tok.text, p);
}

static bool is_word(const reader *r, const char *w)
{
    return r->tok.kind == T_WORD && !strcmp(r->tok.text, w);
}

static bool accept_punct(reader *r, const char *p)
{
    if (!is_punct(r, p))
        return false;
    return next(r);
}

static bool expect_punct(reader *r, const char *p)
{
    if (!is_punct(r, p)) {
        char what[16];
        snprintf(what, sizeof what, "'%s'", p);
        return err_tok(r, what);
    }
    return next(r);
}

static bool expect_word(reader *r, const char *w)
{
    if (!is_word(r, w)) {
        char what[40];
        snprintf(what, sizeof what, "'%s'", w);
        return err_tok(r, what);
    }
    return next(r);
}

/* A name: a bare word or a quoted string.  Returns a malloc'd copy. */
static char *take_name(reader *r, const char *what)
{
    if (r->tok.kind != T_WORD && r->tok.kind != T_STR) {
        err_tok(r, what);
        return NULL;
    }
    char *s = xstrdup(r->tok.text);
    if (!next(r)) {
        free(s);
        return NULL;
    }
    return s;
}

static char *take_string(reader *r, const char *what)
{
    if (r->tok.kind != T_STR) {
        err_tok(r, what);
        return NULL;
    }
    char *s = xstrdup(r->tok.text);
    if (!next(r)) {
        free(s);
        return NULL;
    }
    return s;
}

static bool take_num(reader *r, const char *what, ir_val *out)
{
    if (r->tok.kind != T_NUM)
        return err_tok(r, what);
    *out = r->tok.num;
    return next(r);
}

static bool take_int(reader *r, const char *what, int *out)
{
    int line = r->tok.line, col = r->tok.col;
    ir_val v = 0;
    if (!take_num(r, what, &v))
        return false;
    if (v < -1000000000 || v > 1000000000)
        return err(r, line, col, "%s out of range", what);
    *out = (int)v;
    return true;
}

/* Look up an enumerator spelled as a word: FROM returns -1 when unknown. */
static bool take_enum(reader *r, int (*from)(const char *), const char *what, int *out)
{
    if (r->tok.kind != T_WORD || (*out = from(r->tok.text)) < 0)
        return err_tok(r, what);
    return next(r);
}

static bool take_loc_ref(reader *r, int *loc)
{
    int line = r->tok.line, col = r->tok.col;
    char *name = take_name(r, "a location name");
    if (!name)
        return false;
    *loc = ir_find_loc(r->t, name);
    if (*loc < 0) {
        err(r, line, col, "unknown location '%s'", name);
        free(name);
        return false;
    }
    free(name);
    return true;
}

/* A value: a number, or &NAME (the address of a declared location). */
static bool take_val(reader *r, ir_val *v)
{
    if (accept_punct(r, "&")) {
        int loc;
        if (!take_loc_ref(r, &loc))
            return false;
        *v = IR_ADDR(loc);
        return true;
    }
    if (r->failed)
        return false;
    return take_num(r, "a number or &location", v);
}

static bool take_operand(reader *r, ir_thread *th, ir_operand *o)
{
    if (accept_punct(r, "%")) {
        int v = 0;
        if (!take_int(r, "a value number", &v))
            return false;
        if (v < 0)
            return err(r, r->tok.line, r->tok.col, "value numbers are not negative");
        *o = ir_value(v);
        if (v >= th->nvals)
            th->nvals = v + 1;
        return true;
    }
    if (r->failed)
        return false;
    if (is_word(r, "none")) {
        *o = ir_none();
        return next(r);
    }
    ir_val v = 0;
    if (!take_val(r, &v))
        return false;
    *o = ir_imm(v);
    return true;
}

static bool take_label(reader *r, int *block)
{
    const char *s = r->tok.kind == T_WORD ? r->tok.text : "";
    if (s[0] != 'b' || !is_digit(s[1]) || strlen(s) > 9)
        return err_tok(r, "a block label bN");
    for (const char *p = s + 1; *p; p++)
        if (!is_digit(*p))
            return err_tok(r, "a block label bN");
    *block = atoi(s + 1);
    return next(r);
}

/* ---- conditions ---------------------------------------------------------- */
static bool take_obs(reader *r, ir_obs *o)
{
    memset(o, 0, sizeof *o);
    if (accept_punct(r, "[")) {
        o->kind = IR_OBS_MEM;
        o->thread = -1;
        return take_loc_ref(r, &o->loc) && expect_punct(r, "]");
    }
    if (r->failed)
        return false;
    o->kind = IR_OBS_REG;
    o->loc = -1;
    if (!take_int(r, "a thread number or [location]", &o->thread) || !expect_punct(r, ":"))
        return false;
    o->reg = take_name(r, "a register name");
    return o->reg != NULL;
}

static ir_cond *parse_or(reader *r);

static ir_cond *parse_unary(reader *r)
{
    if (is_punct(r, "~") || is_word(r, "not")) {
        if (!next(r))
            return NULL;
        ir_cond *inner = parse_unary(r);
        if (!inner)
            return NULL;
        ir_cond *c = ir_cond_new(IR_C_NOT);
        c->l = inner;
        return c;
    }
    if (accept_punct(r, "(")) {
        ir_cond *c = parse_or(r);
        if (c && !expect_punct(r, ")")) {
            ir_cond_free(c);
            return NULL;
        }
        return c;
    }
    if (r->failed)
        return NULL;
    if (is_word(r, "true") || is_word(r, "false")) {
        ir_cond *c = ir_cond_new(is_word(r, "true") ? IR_C_TRUE : IR_C_FALSE);
        if (!next(r)) {
            ir_cond_free(c);
            return NULL;
        }
        return c;
    }
    ir_cond *c = ir_cond_new(IR_C_ATOM);
    if (!take_obs(r, &c->lhs))
        goto fail;
    if (is_punct(r, "!="))
        c->ne = true;
    else if (!is_punct(r, "="))
        goto fail_tok;
    if (!next(r))
        goto fail;
    if (r->tok.kind == T_PUNCT && !strcmp(r->tok.text, "[")) {
        c->rhs_is_obs = true;
        if (!take_obs(r, &c->rhs_obs))
            goto fail;
    } else if (r->tok.kind == T_NUM && peekc(r, 0) == ':') {
        c->rhs_is_obs = true;
        if (!take_obs(r, &c->rhs_obs))
            goto fail;
    } else {
        c->rhs_obs.thread = c->rhs_obs.loc = -1;
        if (!take_val(r, &c->rhs))
            goto fail;
    }
    return c;
fail_tok:
    err_tok(r, "'=' or '!='");
fail:
    ir_cond_free(c);
    return NULL;
}

static ir_cond *join(ir_cond_kind kind, ir_cond *l, ir_cond *r)
{
    ir_cond *c = ir_cond_new(kind);
    c->l = l;
    c->r = r;
    return c;
}

static ir_cond *parse_implies(reader *r)
{
    ir_cond *l = parse_unary(r);
    if (!l || !is_punct(r, "=>"))
        return l;
    ir_cond *rhs = next(r) ? parse_implies(r) : NULL;
    if (!rhs) {
        ir_cond_free(l);
        return NULL;
    }
    return join(IR_C_IMPLIES, l, rhs);
}

/* OPERAND (OP OPERAND)*, grouped to the left. */
static ir_cond *parse_chain(reader *r, ir_cond *(*operand)(reader *), const char *op, ir_cond_kind kind)
{
    ir_cond *l = operand(r);
    while (l && is_punct(r, op)) {
        ir_cond *rhs = next(r) ? operand(r) : NULL;
        if (!rhs) {
            ir_cond_free(l);
            return NULL;
        }
        l = join(kind, l, rhs);
    }
    return l;
}

static ir_cond *parse_and(reader *r)
{
    return parse_chain(r, parse_implies, "/\\", IR_C_AND);
}

static ir_cond *parse_or(reader *r)
{
    return parse_chain(r, parse_and, "\\/", IR_C_OR);
}

/* ---- header ---------------------------------------------------------------- */
static bool parse_loc(reader *r, fixup **fix, size_t *nfix, size_t *capfix)
{
    int line = r->tok.line, col = r->tok.col;
    char *name = take_name(r, "a location name");
    if (!name)
        return false;
    if (ir_find_loc(r->t, name) >= 0) {
        err(r, line, col, "location '%s' is declared twice", name);
        free(name);
        return false;
    }
    ir_type type;
    if (is_word(r, "int"))
        type = IR_T_INT;
    else if (is_word(r, "int128"))
        type = IR_T_INT128;
    else if (is_word(r, "ptr"))
        type = IR_T_PTR;
    else {
        free(name);
        return err_tok(r, "a type (int, int128, ptr)");
    }
    int idx = ir_add_loc(r->t, name, type);
    free(name);
    if (!next(r))
        return false;
    ir_loc *l = &r->t->locs[idx];
    if (is_word(r, "ctype")) {
        if (!next(r) || !(l->ctype = take_string(r, "a quoted C type")))
            return false;
    }
    if (is_word(r, "atomic")) {
        l->atomic = true;
        if (!next(r))
            return false;
    }
    if (!expect_word(r, "init"))
        return false;
    if (accept_punct(r, "&")) {
        fixup f = {idx, NULL, r->tok.line, r->tok.col};
        if (!(f.name = take_name(r, "a location name")))
            return false;
        VEC_PUSH(*fix, *nfix, *capfix, f);
    } else if (r->failed || !take_num(r, "a number or &location", &l->init)) {
        return false;
    }
    if (is_word(r, "given")) {
        l->init_given = true;
        if (!next(r))
            return false;
    }
    return true;
}

/* ---- threads ------------------------------------------------------------------ */
static bool parse_position(reader *r, ir_instr *in)
{
    if (!accept_punct(r, "@"))
        return !r->failed;
    if (!take_int(r, "a line number", &in->line) || !expect_punct(r, ":") ||
        !take_int(r, "a column number", &in->col))
        return false;
    if (r->tok.kind == T_STR)
        in->src = take_string(r, "a quoted source text");
    return !r->failed;
}

static bool parse_instr(reader *r, ir_thread *th, int block, phi_note **notes, size_t *nnotes, size_t *capnotes)
{
    int line = r->tok.line, col = r->tok.col;
    int dst = -1;
    if (accept_punct(r, "%")) {
        if (!take_int(r, "a value number", &dst) || !expect_punct(r, "="))
            return false;
        if (dst < 0)
            return err(r, line, col, "value numbers are not negative");
        if (dst >= th->nvals)
            th->nvals = dst + 1;
    }
    if (r->failed)
        return false;
    if (r->tok.kind != T_WORD)
        return err_tok(r, "an instruction");
    char *opname = xstrdup(r->tok.text);
    int opline = r->tok.line, opcol = r->tok.col;
    bool ok = next(r);
    ir_instr in;
    memset(&in, 0, sizeof in);
    in.dst = dst;
    in.flag = -1;
    in.addr = in.a = in.b = ir_none();
    in.then_block = in.else_block = -1;
    int e = 0;
    int *labels = NULL;
    if (!ok) {
    } else if (!strcmp(opname, "load") || !strcmp(opname, "store")) {
        in.op = opname[0] == 'l' ? IR_LOAD : IR_STORE;
        ok = expect_punct(r, ".") && take_enum(r, ir_mode_from_name, "an access mode", &e);
        in.mode = (ir_mode)e;
        ok = ok && take_operand(r, th, &in.addr);
        if (ok && in.op == IR_STORE)
            ok = expect_punct(r, ",") && take_operand(r, th, &in.a);
    } else if (!strcmp(opname, "rmw")) {
        in.op = IR_RMW;
        ok = expect_punct(r, ".") && take_enum(r, ir_rmw_from_name, "an rmw operation", &e);
        in.rmw_op = (ir_rmw_op)e;
        ok = ok && expect_punct(r, ".") && take_enum(r, ir_mode_from_name, "an access mode", &e);
        in.mode = (ir_mode)e;
        ok = ok && take_operand(r, th, &in.addr) && expect_punct(r, ",");
        if (ok && in.rmw_op == IR_RMW_CAS) {
            ok = expect_word(r, "expected") && take_operand(r, th, &in.b) && expect_punct(r, ",") &&
                 expect_word(r, "new") && take_operand(r, th, &in.a);
            while (ok && accept_punct(r, ",")) {
                if (is_word(r, "fail")) {
                    ok = next(r) && take_enum(r, ir_mode_from_name, "an access mode", &e);
                    in.fail_mode = (ir_mode)e;
                } else if (is_word(r, "weak")) {
                    in.weak = true;
                    ok = next(r);
                } else if (is_word(r, "ok")) {
                    int fl = r->tok.line, fc = r->tok.col;
                    ok = next(r) && expect_punct(r, "%") && take_int(r, "a value number", &in.flag);
                    if (ok && in.flag < 0)
                        ok = err(r, fl, fc, "value numbers are not negative");
                    if (ok && in.flag >= th->nvals)
                        th->nvals = in.flag + 1;
                } else {
                    ok = err_tok(r, "'fail', 'weak' or 'ok'");
                }
            }
        } else if (ok) {
            ok = take_operand(r, th, &in.a);
        }
    } else if (!strcmp(opname, "fence")) {
        in.op = IR_FENCE;
        ok = expect_punct(r, ".") && take_enum(r, ir_fence_from_name, "a fence kind", &e);
        in.fence = (ir_fence_kind)e;
        if (ok && accept_punct(r, ".")) {
            ok = take_enum(r, ir_mode_from_name, "an access mode", &e);
            in.mode = (ir_mode)e;
        }
    } else if (ir_binop_from_name(opname) >= 0) {
        in.op = IR_BIN;
        in.binop = (ir_binop)ir_binop_from_name(opname);
        ok = take_operand(r, th, &in.a) && expect_punct(r, ",") && take_operand(r, th, &in.b);
    } else if (!strcmp(opname, "phi")) {
        in.op = IR_PHI;
        size_t n = 0, cap = 0, nl = 0, capl = 0;
        ir_operand *args = NULL;
        while (ok && is_punct(r, "[")) {
            ir_operand o;
            int lbl;
            ok = next(r) && take_operand(r, th, &o) && expect_punct(r, ",") && take_label(r, &lbl) &&
                 expect_punct(r, "]");
            if (ok) {
                VEC_PUSH(args, n, cap, o);
                VEC_PUSH(labels, nl, capl, lbl);
                if (!is_punct(r, ","))
                    break;
                ok = next(r);
                if (ok && !is_punct(r, "["))
                    ok = err_tok(r, "'['");
            }
        }
        in.phi_args = args;
        in.nphi_args = (int)n;
    } else if (!strcmp(opname, "br")) {
        in.op = IR_BR;
        ok = take_operand(r, th, &in.a) && expect_punct(r, ",") && take_label(r, &in.then_block) &&
             expect_punct(r, ",") && take_label(r, &in.else_block);
    } else if (!strcmp(opname, "jmp")) {
        in.op = IR_JMP;
        ok = take_label(r, &in.then_block);
    } else if (!strcmp(opname, "ret")) {
        in.op = IR_RET;
    } else {
        ok = err(r, opline, opcol, "unknown instruction '%s'", opname);
    }
    free(opname);
    ok = ok && parse_position(r, &in);
    if (!ok) {
        free(in.phi_args);
        free(in.src);
        free(labels);
        return false;
    }
    ir_instr *slot = ir_emit(th, block, in.op);
    *slot = in;
    if (in.op == IR_PHI) {
        phi_note note = {block, th->blocks[block].ninstrs - 1, labels, line, col};
        VEC_PUSH(*notes, *nnotes, *capnotes, note);
    }
    return true;
}

static bool starts_instr(const reader *r)
{
    if (is_punct(r, "%"))
        return true;
    if (r->tok.kind != T_WORD)
        return false;
    const char *s = r->tok.text;
    if (!strcmp(s, "final") || !strcmp(s, "end"))
        return false;
    return !(s[0] == 'b' && is_digit(s[1]) && peekc(r, 0) == ':');
}

/* Put each phi's arguments in the order of the block's predecessors. */
static bool order_phis(reader *r, ir_thread *th, phi_note *notes, size_t nnotes)
{
    for (size_t i = 0; i < nnotes; i++) {
        ir_block *bl = &th->blocks[notes[i].block];
        ir_instr *in = &bl->instrs[notes[i].instr];
        for (int k = 0; k < in->nphi_args; k++) {
            bool found = false;
            for (int p = 0; p < bl->npreds && !found; p++)
                found = bl->preds[p] == notes[i].labels[k];
            if (!found)
                return err(r, notes[i].line, notes[i].col,
                           "phi argument from b%d, which is not a predecessor of b%d", notes[i].labels[k],
                           notes[i].block);
        }
        if (in->nphi_args != bl->npreds)
            continue;   /* the verifier reports the mismatch */
        ir_operand *sorted = xmalloc((size_t)in->nphi_args * sizeof *sorted + 1);
        for (int p = 0; p < bl->npreds; p++) {
            int found = -1;
            for (int k = 0; k < in->nphi_args && found < 0; k++)
                if (notes[i].labels[k] == bl->preds[p])
                    found = k;
            if (found < 0) {
                free(sorted);
                return err(r, notes[i].line, notes[i].col, "phi has no argument from predecessor b%d",
                           bl->preds[p]);
            }
            sorted[p] = in->phi_args[found];
        }
        free(in->phi_args);
        in->phi_args = sorted;
    }
    return true;
}

static bool parse_reg_binding(reader *r, ir_thread *th, bool final)
{
    int line = r->tok.line, col = r->tok.col;
    char *name = take_name(r, "a register name");
    if (!name)
        return false;
    ir_operand o;
    bool ok = expect_punct(r, "=") && take_operand(r, th, &o);
    if (ok) {
        const ir_reg *regs = final ? th->final_regs : th->init_regs;
        int n = final ? th->nfinal_regs : th->ninit_regs;
        for (int i = 0; i < n && ok; i++)
            if (!strcmp(regs[i].name, name))
                ok = err(r, line, col, "register %s is bound twice", name);
    }
    if (ok) {
        if (final)
            ir_set_final_reg(th, name, o);
        else
            ir_set_init_reg(th, name, o);
    }
    free(name);
    return ok;
}

static bool parse_thread(reader *r)
{
    int line = r->tok.line, col = r->tok.col;
    int id;
    if (!take_int(r, "a thread number", &id))
        return false;
    char *name = take_name(r, "a thread name");
    if (!name)
        return false;
    if (id != r->t->nthreads) {
        free(name);
        return err(r, line, col, "thread %d out of order (expected thread %d)", id, r->t->nthreads);
    }
    ir_thread *th = ir_add_thread(r->t, id, name);
    free(name);
    while (is_word(r, "init"))
        if (!next(r) || !parse_reg_binding(r, th, false))
            return false;
    phi_note *notes = NULL;
    size_t nnotes = 0, capnotes = 0;
    bool ok = !r->failed;
    while (ok && r->tok.kind == T_WORD && r->tok.text[0] == 'b' && peekc(r, 0) == ':') {
        int lbl, lline = r->tok.line, lcol = r->tok.col;
        ok = take_label(r, &lbl) && expect_punct(r, ":");
        if (ok && lbl != th->nblocks)
            ok = err(r, lline, lcol, "block b%d out of order (expected b%d)", lbl, th->nblocks);
        if (!ok)
            break;
        int b = ir_add_block(th);
        while (ok && starts_instr(r))
            ok = parse_instr(r, th, b, &notes, &nnotes, &capnotes);
    }
    while (ok && is_word(r, "final"))
        ok = next(r) && parse_reg_binding(r, th, true);
    ok = ok && expect_word(r, "end");
    if (ok) {
        ir_finish(r->t);
        ok = order_phis(r, th, notes, nnotes);
    }
    for (size_t i = 0; i < nnotes; i++)
        free(notes[i].labels);
    free(notes);
    return ok;
}

static bool parse_test(reader *r)
{
    if (!expect_word(r, "test"))
        return false;
    char *name = take_string(r, "the quoted test name");
    if (!name || !expect_word(r, "arch")) {
        free(name);
        return false;
    }
    int arch = 0;
    if (!take_enum(r, ir_arch_from_name, "an architecture (X86, X86_64, C, Java)", &arch)) {
        free(name);
        return false;
    }
    r->t = ir_test_new(name, (ir_arch)arch);
    free(name);
    r->t->file = xstrdup(r->file);
    for (;;) {
        if (is_word(r, "doc")) {
            free(r->t->doc);
            if (!next(r) || !(r->t->doc = take_string(r, "a quoted doc string")))
                return false;
        } else if (is_word(r, "info")) {
            char *k = NULL, *v = NULL;
            bool ok = next(r) && (k = take_string(r, "a quoted key")) && (v = take_string(r, "a quoted value"));
            if (ok)
                ir_add_info(r->t, k, v);
            free(k);
            free(v);
            if (!ok)
                return false;
        } else if (is_word(r, "hash")) {
            free(r->t->hash);
            if (!next(r) || !(r->t->hash = take_string(r, "a quoted hash")))
                return false;
        } else {
            break;
        }
    }
    fixup *fix = NULL;
    size_t nfix = 0, capfix = 0;
    bool ok = !r->failed;
    while (ok && is_word(r, "loc"))
        ok = next(r) && parse_loc(r, &fix, &nfix, &capfix);
    for (size_t i = 0; i < nfix; i++) {
        int target = ir_find_loc(r->t, fix[i].name);
        if (ok && target < 0)
            ok = err(r, fix[i].line, fix[i].col, "unknown location '%s'", fix[i].name);
        if (ok)
            r->t->locs[fix[i].loc].init = IR_ADDR(target);
        free(fix[i].name);
    }
    free(fix);
    while (ok && is_word(r, "thread"))
        ok = next(r) && parse_thread(r);
    if (!ok)
        return false;
    if (!expect_word(r, "cond"))
        return false;
    if (is_word(r, "exists")) {
        r->t->quant = IR_Q_EXISTS;
    } else if (is_word(r, "forall")) {
        r->t->quant = IR_Q_FORALL;
    } else if (is_punct(r, "~")) {
        if (!next(r))
            return false;
        if (!is_word(r, "exists"))
            return err_tok(r, "'exists'");
        r->t->quant = IR_Q_NOT_EXISTS;
    } else {
        return err_tok(r, "a quantifier (exists, ~exists, forall)");
    }
    if (!next(r))
        return false;
    ir_cond *c = parse_or(r);
    if (!c)
        return false;
    ir_cond_free(r->t->cond);
    r->t->cond = c;
    if (is_word(r, "filter")) {
        if (!next(r) || !(r->t->filter = parse_or(r)))
            return false;
    }
    if (is_word(r, "locations")) {
        if (!next(r))
            return false;
        while (r->tok.kind == T_NUM || is_punct(r, "[")) {
            ir_obs o;
            if (!take_obs(r, &o))
                return false;
            ir_add_location(r->t, o);
            free(o.reg);
        }
    }
    if (r->tok.kind != T_EOF)
        return err_tok(r, "the end of the text");
    return true;
}

ir_test *ir_read(const char *text, const char *file, diag *d)
{
    return ir_read_at(text, file, 1, d);
}

ir_test *ir_read_at(const char *text, const char *file, int first_line, diag *d)
{
    reader r = {.s = text, .line = first_line, .col = 1, .file = file ? file : "", .d = d};
    bool ok = next(&r) && parse_test(&r);
    free(r.tok.text);
    if (!ok || r.failed) {
        if (!r.failed)
            diag_error(d, r.file, r.tok.line, r.tok.col, "invalid IR text");
        ir_test_free(r.t);
        return NULL;
    }
    return r.t;
}
