/* The lexer of the IR text form: tokens with their positions, the error
 * reporting every part of the reader goes through, and the takers that
 * turn one token into a name, number, enumerator or block label.  It knows
 * nothing of the IR beyond ir_val, so the grammar in ir/read.c and
 * ir/read_cond.c reads as a sequence of takes, without character handling. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ir/read_int.h"
#include "util/mem.h"

bool rd_err(reader *r, int line, int col, const char *fmt, ...)
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

bool rd_err_tok(reader *r, const char *what)
{
    const token *k = &r->tok;
    if (k->kind == T_EOF)
        return rd_err(r, k->line, k->col, "expected %s, found the end of the text", what);
    if (k->kind == T_NUM)
        return rd_err(r, k->line, k->col, "expected %s, found %lld", what, (long long)k->num);
    return rd_err(r, k->line, k->col, "expected %s, found '%s'", what, k->text ? k->text : "?");
}

char rd_peekc(const reader *r, size_t ahead)
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
bool rd_is_digit(char c) { return c >= '0' && c <= '9'; }

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Read the next token into r->tok.  ';' starts a comment to the end of the line. */
bool rd_next(reader *r)
{
    free(r->tok.text);
    memset(&r->tok, 0, sizeof r->tok);
    for (;;) {
        char c = rd_peekc(r, 0);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            advance_char(r);
        } else if (c == ';') {
            while (rd_peekc(r, 0) && rd_peekc(r, 0) != '\n')
                advance_char(r);
        } else {
            break;
        }
    }
    token *k = &r->tok;
    k->line = r->line;
    k->col = r->col;
    char c = rd_peekc(r, 0);
    if (!c) {
        k->kind = T_EOF;
        return true;
    }
    size_t start = r->pos;
    if (is_word_start(c)) {
        while (is_word_start(rd_peekc(r, 0)) || rd_is_digit(rd_peekc(r, 0)))
            advance_char(r);
        k->kind = T_WORD;
        k->text = xstrndup(r->s + start, r->pos - start);
        return true;
    }
    if (rd_is_digit(c) || (c == '-' && rd_is_digit(rd_peekc(r, 1)))) {
        advance_char(r);
        while (rd_is_digit(rd_peekc(r, 0)))
            advance_char(r);
        char *text = xstrndup(r->s + start, r->pos - start);
        errno = 0;
        char *end;
        long long v = strtoll(text, &end, 10);
        bool bad = errno || *end;
        free(text);
        if (bad)
            return rd_err(r, k->line, k->col, "number out of range");
        k->kind = T_NUM;
        k->num = v;
        return true;
    }
    if (c == '"') {
        advance_char(r);
        strbuf b = {0};
        for (;;) {
            char ch = rd_peekc(r, 0);
            if (!ch || ch == '\n') {
                sb_free(&b);
                return rd_err(r, k->line, k->col, "unterminated string");
            }
            advance_char(r);
            if (ch == '"')
                break;
            if (ch == '\\') {
                char e = rd_peekc(r, 0);
                if (e == '"' || e == '\\') {
                    sb_addc(&b, e);
                    advance_char(r);
                } else if (e == 'n') {
                    sb_addc(&b, '\n');
                    advance_char(r);
                } else if (e == 't') {
                    sb_addc(&b, '\t');
                    advance_char(r);
                } else if (e == 'x' && hexval(rd_peekc(r, 1)) >= 0 && hexval(rd_peekc(r, 2)) >= 0) {
                    int v = hexval(rd_peekc(r, 1)) * 16 + hexval(rd_peekc(r, 2));
                    if (v == 0) {
                        sb_free(&b);
                        return rd_err(r, r->line, r->col, "a string cannot contain a NUL byte");
                    }
                    sb_addc(&b, (char)v);
                    advance_char(r);
                    advance_char(r);
                    advance_char(r);
                } else {
                    sb_free(&b);
                    return rd_err(r, r->line, r->col, "unknown escape in string");
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
        return rd_err(r, k->line, k->col, "unexpected character '%c'", c);
    return rd_err(r, k->line, k->col, "unexpected byte 0x%02x", (unsigned)(unsigned char)c);
}

bool rd_is_punct(const reader *r, const char *p)
{
    return r->tok.kind == T_PUNCT && !strcmp(r->tok.text, p);
}

bool rd_is_word(const reader *r, const char *w)
{
    return r->tok.kind == T_WORD && !strcmp(r->tok.text, w);
}

bool rd_accept_punct(reader *r, const char *p)
{
    if (!rd_is_punct(r, p))
        return false;
    return rd_next(r);
}

/* The token must be TEXT (OK says whether it is): step over it, or
 * complain naming what was expected. */
static bool expect_tok(reader *r, bool ok, const char *text)
{
    if (!ok) {
        char what[48];
        snprintf(what, sizeof what, "'%s'", text);
        return rd_err_tok(r, what);
    }
    return rd_next(r);
}

bool rd_expect_punct(reader *r, const char *p)
{
    return expect_tok(r, rd_is_punct(r, p), p);
}

bool rd_expect_word(reader *r, const char *w)
{
    return expect_tok(r, rd_is_word(r, w), w);
}

/* A name: a bare word or a quoted string.  Returns a malloc'd copy. */
char *rd_take_name(reader *r, const char *what)
{
    if (r->tok.kind != T_WORD && r->tok.kind != T_STR) {
        rd_err_tok(r, what);
        return NULL;
    }
    char *s = xstrdup(r->tok.text);
    if (!rd_next(r)) {
        free(s);
        return NULL;
    }
    return s;
}

/* A quoted string only: a name that must be quoted. */
char *rd_take_string(reader *r, const char *what)
{
    if (r->tok.kind != T_STR) {
        rd_err_tok(r, what);
        return NULL;
    }
    return rd_take_name(r, what);
}

bool rd_take_num(reader *r, const char *what, ir_val *out)
{
    if (r->tok.kind != T_NUM)
        return rd_err_tok(r, what);
    *out = r->tok.num;
    return rd_next(r);
}

bool rd_take_int(reader *r, const char *what, int *out)
{
    int line = r->tok.line, col = r->tok.col;
    ir_val v = 0;
    if (!rd_take_num(r, what, &v))
        return false;
    if (v < -1000000000 || v > 1000000000)
        return rd_err(r, line, col, "%s out of range", what);
    *out = (int)v;
    return true;
}

/* Look up an enumerator spelled as a word: FROM returns -1 when unknown. */
bool rd_take_enum(reader *r, int (*from)(const char *), const char *what, int *out)
{
    if (r->tok.kind != T_WORD || (*out = from(r->tok.text)) < 0)
        return rd_err_tok(r, what);
    return rd_next(r);
}

bool rd_take_label(reader *r, int *block)
{
    const char *s = r->tok.kind == T_WORD ? r->tok.text : "";
    if (s[0] != 'b' || !rd_is_digit(s[1]) || strlen(s) > 9)
        return rd_err_tok(r, "a block label bN");
    for (const char *p = s + 1; *p; p++)
        if (!rd_is_digit(*p))
            return rd_err_tok(r, "a block label bN");
    *block = atoi(s + 1);
    return rd_next(r);
}
