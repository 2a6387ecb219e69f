/* The tokenizer every section parser shares.  It works on a byte range
 * (never relies on NUL termination), tracks line and column, skips the
 * comment styles the section allows, and turns any byte it does not know
 * into a precise error instead of guessing. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "frontend/internal.h"
#include "util/mem.h"

void advance_pos(const char *p, const char *q, int *line, int *col)
{
    for (; p < q; p++) {
        if (*p == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

/* Skip an OCaml comment starting at p (which points at "(*"); comments
 * nest.  Returns the position after the closing "*)" or NULL if the
 * comment never ends. */
static const char *skip_ml_comment(const char *p, const char *end, int *line, int *col)
{
    int depth = 0;
    while (p < end) {
        if (p + 1 < end && p[0] == '(' && p[1] == '*') {
            depth++;
            *col += 2;
            p += 2;
        } else if (p + 1 < end && p[0] == '*' && p[1] == ')') {
            depth--;
            *col += 2;
            p += 2;
            if (depth == 0)
                return p;
        } else {
            advance_pos(p, p + 1, line, col);
            p++;
        }
    }
    return NULL;
}

const char *skip_blanks(const char *p, const char *end, int *line, int *col, int flags, bool *unterminated)
{
    *unterminated = false;
    while (p < end) {
        char c = *p;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
            advance_pos(p, p + 1, line, col);
            p++;
        } else if ((flags & LX_ML_COMMENTS) && c == '(' && p + 1 < end && p[1] == '*') {
            int l0 = *line, c0 = *col;
            const char *q = skip_ml_comment(p, end, line, col);
            if (!q) {
                *line = l0;     /* report where the comment opens */
                *col = c0;
                *unterminated = true;
                return p;
            }
            p = q;
        } else if ((flags & LX_C_COMMENTS) && c == '/' && p + 1 < end && p[1] == '/') {
            while (p < end && *p != '\n') {
                p++;
                (*col)++;
            }
        } else if ((flags & LX_HASH_COMMENTS) && c == '#') {
            while (p < end && *p != '\n') {
                p++;
                (*col)++;
            }
        } else if ((flags & LX_C_COMMENTS) && c == '/' && p + 1 < end && p[1] == '*') {
            const char *q = p + 2;
            while (q + 1 < end && !(q[0] == '*' && q[1] == '/'))
                q++;
            if (q + 1 >= end) {
                *unterminated = true;
                return p;
            }
            advance_pos(p, q + 2, line, col);
            p = q + 2;
        } else {
            break;
        }
    }
    return p;
}

static const char *const puncts2[] = {
    "/\\", "\\/", "=>", "==", "!=", "<>", "<=", ">=", "&&", "||", NULL
};
static const char puncts1[] = "{}()[];,:|=<>+-*/&^~!$%.";

void lx_describe(const tok *t, char *buf, size_t size)
{
    if (t->kind == TK_EOF) {
        snprintf(buf, size, "end of input");
        return;
    }
    size_t n = t->len > 40 ? 40 : t->len;
    char tmp[48];
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)t->s[i];
        tmp[j++] = (c >= 32 && c < 127) ? (char)c : '?';
    }
    tmp[j] = 0;
    snprintf(buf, size, "'%s%s'", tmp, t->len > 40 ? "..." : "");
}

char *tok_str(const tok *t)
{
    return xstrndup(t->s, t->len);
}

static bool vlx_error_at(lexer *lx, int line, int col, const char *fmt, va_list ap)
{
    char msg[DIAG_MSG_MAX];
    vsnprintf(msg, sizeof msg, fmt, ap);
    lx->failed = true;
    return diag_error(lx->d, lx->file, line, col, "%s", msg);
}

bool lx_error_at(lexer *lx, int line, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlx_error_at(lx, line, col, fmt, ap);
    va_end(ap);
    return false;
}

bool lx_error(lexer *lx, const char *fmt, ...)
{
    char msg[DIAG_MSG_MAX - 64], what[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    lx_describe(&lx->cur, what, sizeof what);
    return lx_error_at(lx, lx->cur.line, lx->cur.col, "%s, found %s", msg, what);
}

static bool is_ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool is_ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

bool lx_next(lexer *lx)
{
    bool unterminated;
    const char *p = skip_blanks(lx->p, lx->end, &lx->line, &lx->col, lx->flags, &unterminated);
    tok *t = &lx->cur;
    memset(t, 0, sizeof *t);
    t->line = lx->line;
    t->col = lx->col;
    t->s = p;
    if (unterminated) {
        lx->p = lx->end;
        t->kind = TK_EOF;
        return lx_error_at(lx, t->line, t->col, "unterminated comment");
    }
    if (p >= lx->end) {
        t->kind = TK_EOF;
        t->end = p;
        lx->p = p;
        return true;
    }
    const char *q = p;
    if (is_ident_start(*p)) {
        while (q < lx->end && is_ident_char(*q))
            q++;
        t->kind = TK_IDENT;
    } else if (isdigit((unsigned char)*p)) {
        uint64_t v = 0;
        bool big = false;
        if (*p == '0' && q + 1 < lx->end && (q[1] == 'x' || q[1] == 'X') && q + 2 < lx->end &&
            isxdigit((unsigned char)q[2])) {
            q += 2;
            while (q < lx->end && isxdigit((unsigned char)*q)) {
                int dgt = isdigit((unsigned char)*q) ? *q - '0' : (tolower((unsigned char)*q) - 'a' + 10);
                if (v > (UINT64_MAX >> 4))
                    big = true;
                v = v * 16 + (uint64_t)dgt;
                q++;
            }
        } else {
            while (q < lx->end && isdigit((unsigned char)*q)) {
                uint64_t dgt = (uint64_t)(*q - '0');
                if (v > (UINT64_MAX - dgt) / 10)
                    big = true;
                v = v * 10 + dgt;
                q++;
            }
        }
        t->kind = TK_NUM;
        t->num = v;
        t->big = big;
        if (q < lx->end && is_ident_char(*q)) {
            while (q < lx->end && is_ident_char(*q))
                q++;
            t->len = (size_t)(q - p);
            t->end = q;
            lx->p = q;
            return lx_error_at(lx, t->line, t->col, "malformed number '%.*s'",
                               (int)(t->len > 40 ? 40 : t->len), p);
        }
    } else {
        size_t n = 0;
        for (int i = 0; puncts2[i]; i++)
            if (p + 1 < lx->end && p[0] == puncts2[i][0] && p[1] == puncts2[i][1]) {
                n = 2;
                break;
            }
        if (!n && *p && strchr(puncts1, *p))
            n = 1;
        if (!n) {
            unsigned char c = (unsigned char)*p;
            t->kind = TK_PUNCT;
            t->len = 1;
            t->end = p + 1;
            lx->p = p + 1;
            if (c >= 33 && c < 127)
                return lx_error_at(lx, t->line, t->col, "unexpected character '%c'", c);
            return lx_error_at(lx, t->line, t->col, "unexpected byte 0x%02x", c);
        }
        q = p + n;
        t->kind = TK_PUNCT;
    }
    t->len = (size_t)(q - p);
    t->end = q;
    lx->col += (int)t->len;
    lx->p = q;
    return true;
}

void lx_init(lexer *lx, const char *p, const char *end, int line, int col, int flags,
             const char *file, diag *d)
{
    *lx = (lexer){.p = p, .end = end, .line = line, .col = col, .flags = flags, .file = file, .d = d};
    lx_next(lx);
}

bool lx_is(const lexer *lx, const char *s)
{
    size_t n = strlen(s);
    return lx->cur.kind != TK_EOF && lx->cur.len == n && memcmp(lx->cur.s, s, n) == 0;
}

bool lx_is_ident(const lexer *lx, const char *s)
{
    return lx->cur.kind == TK_IDENT && lx_is(lx, s);
}

bool lx_is_ident_ci(const lexer *lx, const char *s)
{
    size_t n = strlen(s);
    return lx->cur.kind == TK_IDENT && lx->cur.len == n && strncasecmp(lx->cur.s, s, n) == 0;
}

bool lx_accept(lexer *lx, const char *s)
{
    if (!lx->failed && lx_is(lx, s)) {
        lx_next(lx);
        return !lx->failed;
    }
    return false;
}

bool lx_expect(lexer *lx, const char *s)
{
    if (lx->failed)
        return false;
    if (lx_is(lx, s))
        return lx_next(lx);
    return lx_error(lx, "expected '%s'", s);
}

bool lx_node(lexer *lx, int depth, int max_depth, const char *what)
{
    if (++lx->nodes > LX_MAX_NODES) {
        if (lx->nodes == LX_MAX_NODES + 1)
            lx_error(lx, "section too complex (more than %d operators and statements)", LX_MAX_NODES);
        return false;
    }
    if (depth > max_depth) {
        lx_error(lx, "%s nested too deeply", what);
        return false;
    }
    return true;
}
