/* Cut a litmus file into header, info lines, {init}, program and
 * condition, as herd's splitter does, before any architecture parser
 * runs.  Each section keeps its absolute start position so the section
 * parsers report errors against the file. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "frontend/internal.h"
#include "isa/isa.h"
#include "util/file.h"
#include "util/mem.h"

typedef struct cursor {
    const char *p, *end;
    int line, col;
    const char *file;
    diag *d;
} cursor;

static void cur_adv(cursor *c, const char *to)
{
    advance_pos(c->p, to, &c->line, &c->col);
    c->p = to;
}

/* Skip blanks and ML comments; false (diag set) on an unterminated comment. */
static bool cur_skip(cursor *c)
{
    bool unterminated;
    c->p = skip_blanks(c->p, c->end, &c->line, &c->col, LX_ML_COMMENTS, &unterminated);
    if (unterminated)
        return diag_error(c->d, c->file, c->line, c->col, "unterminated comment");
    return true;
}

/* Skip spaces and tabs only (stays on the line). */
static void cur_skip_line_blanks(cursor *c)
{
    const char *q = c->p;
    while (q < c->end && (*q == ' ' || *q == '\t' || *q == '\r'))
        q++;
    cur_adv(c, q);
}

static bool is_name_char(char ch)
{
    unsigned char u = (unsigned char)ch;
    return u > 32 && u < 127 && ch != '"' && ch != '{' && ch != '}' && ch != ';' && ch != '(' && ch != ')';
}

static bool bad_byte(cursor *c)
{
    unsigned char u = (unsigned char)*c->p;
    if (u >= 33 && u < 127)
        return diag_error(c->d, c->file, c->line, c->col, "unexpected character '%c'", u);
    return diag_error(c->d, c->file, c->line, c->col, "unexpected byte 0x%02x", u);
}

static bool parse_header(cursor *c, split *sp)
{
    if (!cur_skip(c))
        return false;
    if (c->p >= c->end)
        return diag_error(c->d, c->file, c->line, c->col, "empty file: expected a header 'ARCH NAME'");
    const char *q = c->p;
    while (q < c->end && (isalnum((unsigned char)*q) || *q == '_'))
        q++;
    if (q == c->p)
        return bad_byte(c);
    size_t n = (size_t)(q - c->p);
    const isa *machine = isa_named(c->p, n);
    if (machine)
        sp->arch = (fe_arch)machine->id;
    else if (n == 1 && c->p[0] == 'C')
        sp->arch = FE_ARCH_C;
    else if ((n == 4 && !memcmp(c->p, "Java", 4)) || (n == 4 && !memcmp(c->p, "JAVA", 4)))
        sp->arch = FE_ARCH_JAVA;
    else
        return diag_error(c->d, c->file, c->line, c->col,
                          "unsupported architecture '%.*s' (expected X86, X86_64, C or Java)",
                          (int)(n > 40 ? 40 : n), c->p);
    sp->arch_name = xstrndup(c->p, n);
    cur_adv(c, q);
    cur_skip_line_blanks(c);
    q = c->p;
    while (q < c->end && is_name_char(*q))
        q++;
    if (q == c->p) {
        if (c->p < c->end && *c->p != '\n' && *c->p != '"' && (unsigned char)*c->p != 0 &&
            !((unsigned char)*c->p > 32 && (unsigned char)*c->p < 127))
            return bad_byte(c);
        return diag_error(c->d, c->file, c->line, c->col, "expected the test name after '%s'", sp->arch_name);
    }
    /* herd's name characters only: names reach generated code and file names */
    for (const char *n = c->p; n < q; n++)
        if (!(isalnum((unsigned char)*n) || strchr("_/.-+[]:", *n))) {
            int l = c->line, col = c->col;
            advance_pos(c->p, n, &l, &col);
            return diag_error(c->d, c->file, l, col,
                              "character '%c' is not allowed in a test name (letters, digits and _ / . - + [ ] :)",
                              *n);
        }
    /* names become file and class names (NAME.java, NAME.litmus): keep
     * them well inside the 255 bytes a file name may have */
    if (q - c->p > FE_NAME_MAX)
        return diag_error(c->d, c->file, c->line, c->col, "test name too long (%d characters, at most %d)",
                          (int)(q - c->p), FE_NAME_MAX);
    if (q - c->p == 2 && c->p[0] == '-' && c->p[1] == '-')
        sp->name = file_stem(c->file);
    else if (q - c->p > 7 && !memcmp(q - 7, ".litmus", 7))
        sp->name = xstrndup(c->p, (size_t)(q - c->p - 7));     /* herd drops the suffix: `X86 foo.litmus` is foo */
    else
        sp->name = xstrndup(c->p, (size_t)(q - c->p));
    cur_adv(c, q);
    cur_skip_line_blanks(c);
    /* optional (TEXNAME) on the header line */
    if (c->p < c->end && *c->p == '(' && !(c->p + 1 < c->end && c->p[1] == '*')) {
        q = c->p;
        while (q < c->end && *q != ')' && *q != '\n')
            q++;
        if (q >= c->end || *q != ')')
            return diag_error(c->d, c->file, c->line, c->col, "unterminated '(' in the header");
        cur_adv(c, q + 1);
    }
    if (!cur_skip(c))
        return false;
    if (c->p < c->end && *c->p == '"') {
        int l = c->line, col = c->col;
        q = c->p + 1;
        while (q < c->end && *q != '"')
            q++;
        if (q >= c->end)
            return diag_error(c->d, c->file, l, col, "unterminated doc string");
        sp->doc = xstrndup(c->p + 1, (size_t)(q - c->p - 1));
        cur_adv(c, q + 1);
        if (!cur_skip(c))
            return false;
    }
    if (c->p < c->end && *c->p == ';') {
        cur_adv(c, c->p + 1);
        if (!cur_skip(c))
            return false;
    }
    return true;
}

/* KEY=VALUE lines until the '{' of the init. */
static bool parse_info(cursor *c, split *sp)
{
    size_t cap = 0, n = 0;
    for (;;) {
        if (!cur_skip(c))
            return false;
        if (c->p >= c->end)
            return diag_error(c->d, c->file, c->line, c->col,
                              "unexpected end of input, expected '{' (the initial state)");
        if (*c->p == '{')
            break;
        const char *q = c->p;
        while (q < c->end && (isalnum((unsigned char)*q) || *q == '_' || *q == '-' || *q == '.'))
            q++;
        const char *key_end = q;
        while (q < c->end && (*q == ' ' || *q == '\t'))
            q++;
        if (key_end == c->p || q >= c->end || *q != '=') {
            if (key_end == c->p && !((unsigned char)*c->p > 32 && (unsigned char)*c->p < 127))
                return bad_byte(c);
            return diag_error(c->d, c->file, c->line, c->col,
                              "expected '{' (the initial state) or an info line KEY=VALUE, found '%.*s'",
                              (int)(key_end > c->p ? (key_end - c->p > 40 ? 40 : key_end - c->p) : 1), c->p);
        }
        fe_info inf;
        inf.pos.line = c->line;
        inf.pos.col = c->col;
        inf.key = xstrndup(c->p, (size_t)(key_end - c->p));
        const char *v = q + 1;
        const char *e = v;
        while (e < c->end && *e != '\n')
            e++;
        const char *ve = e;
        while (v < ve && (*v == ' ' || *v == '\t'))
            v++;
        while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t' || ve[-1] == '\r'))
            ve--;
        for (const char *s = v; s < ve; s++)
            if ((unsigned char)*s < 32 && *s != '\t') {
                int l = c->line, col = c->col;
                advance_pos(c->p, s, &l, &col);
                free(inf.key);
                return diag_error(c->d, c->file, l, col, "unexpected byte 0x%02x in info line",
                                  (unsigned char)*s);
            }
        inf.value = xstrndup(v, (size_t)(ve - v));
        VEC_PUSH(sp->info, n, cap, inf);
        sp->ninfo = (int)n;
        cur_adv(c, e);
    }
    return true;
}

/* The init section: from '{' to its matching '}', braces may nest. */
static bool parse_init_section(cursor *c, split *sp)
{
    int l = c->line, col = c->col;
    cur_adv(c, c->p + 1);
    sp->init.p = c->p;
    sp->init.line = c->line;
    sp->init.col = c->col;
    int depth = 1;
    for (;;) {
        if (!cur_skip(c))
            return false;
        if (c->p >= c->end)
            return diag_error(c->d, c->file, l, col, "unbalanced '{': the initial state is not closed");
        if (*c->p == '{')
            depth++;
        else if (*c->p == '}' && --depth == 0)
            break;
        cur_adv(c, c->p + 1);
    }
    sp->init.end = c->p;
    sp->has_init = true;
    cur_adv(c, c->p + 1);
    return true;
}

static const char *const cond_words[] = {
    "final", "forall", "exists", "cases", "observed", "Observed", "locations", "filter", NULL
};

/* Does a condition keyword start at p (a word boundary)? */
static bool cond_word_at(const char *p, const char *end)
{
    for (int i = 0; cond_words[i]; i++) {
        size_t n = strlen(cond_words[i]);
        if ((size_t)(end - p) >= n && !memcmp(p, cond_words[i], n) &&
            (p + n == end || !(isalnum((unsigned char)p[n]) || p[n] == '_')))
            return true;
    }
    if (*p == '~')      /* never code in any of the languages: ~exists, or an error */
        return true;
    if ((size_t)(end - p) >= 4 && !memcmp(p, "not", 3) && (p[3] == ' ' || p[3] == '\t' || p[3] == '\n')) {
        const char *q = p + 3;
        while (q < end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
            q++;
        return (size_t)(end - q) >= 6 && !memcmp(q, "exists", 6);
    }
    return false;
}

/* Find where the program ends: the first condition keyword outside
 * comments (and, in C and Java, outside braces), or a '(' that starts a
 * bare `(P)` condition. */
static bool find_program_end(cursor *c, split *sp)
{
    bool is_asm = isa_of(sp->arch) != NULL;
    int flags = is_asm ? (LX_ML_COMMENTS | LX_HASH_COMMENTS) : LX_C_COMMENTS;
    sp->prog.p = c->p;
    sp->prog.line = c->line;
    sp->prog.col = c->col;
    int depth = 0;
    bool line_start = true;     /* only blanks since the last newline (asm) */
    char prev_sig = 0;          /* last significant char at depth 0 (C/Java) */
    bool prev_ident = false;
    int open_line = 0, open_col = 0;    /* the outermost '{' still open */
    while (c->p < c->end) {
        char ch = *c->p;
        if (ch == '\n') {
            line_start = true;
            prev_ident = false;
            cur_adv(c, c->p + 1);
            continue;
        }
        if (ch == ' ' || ch == '\t' || ch == '\r') {
            prev_ident = false;
            cur_adv(c, c->p + 1);
            continue;
        }
        bool comment = (flags & LX_ML_COMMENTS && ch == '(' && c->p + 1 < c->end && c->p[1] == '*') ||
                       (flags & LX_C_COMMENTS && ch == '/' && c->p + 1 < c->end &&
                        (c->p[1] == '*' || c->p[1] == '/')) ||
                       (flags & LX_HASH_COMMENTS && ch == '#');
        if (comment) {
            bool unterminated;
            const char *q = skip_blanks(c->p, c->end, &c->line, &c->col, flags, &unterminated);
            if (unterminated)
                return diag_error(c->d, c->file, c->line, c->col, "unterminated comment");
            c->p = q;
            prev_ident = false;
            if (c->p > sp->prog.p && c->p[-1] == '\n')
                line_start = true;
            continue;
        }
        if (!prev_ident && (is_asm || depth == 0) && cond_word_at(c->p, c->end))
            break;
        if (ch == '(' && is_asm && line_start)
            break;
        if (ch == '(' && !is_asm && depth == 0 && prev_sig == '}')
            break;
        if (!is_asm) {
            if (ch == '{' && depth++ == 0) {
                open_line = c->line;
                open_col = c->col;
            }
            else if (ch == '}' && depth > 0)
                depth--;
            if (depth == 0 || (ch == '{' && depth == 1))
                prev_sig = ch;
        }
        line_start = false;
        prev_ident = isalnum((unsigned char)ch) || ch == '_';
        cur_adv(c, c->p + 1);
    }
    if (depth > 0)
        return diag_error(c->d, c->file, open_line, open_col, "unbalanced '{': missing '}'");
    sp->prog.end = c->p;
    sp->cond.p = c->p;
    sp->cond.end = c->end;
    sp->cond.line = c->line;
    sp->cond.col = c->col;
    return true;
}

bool fe_split(const char *text, size_t len, const char *file, split *sp, diag *d)
{
    memset(sp, 0, sizeof *sp);
    cursor c = {text, text + len, 1, 1, file, d};
    if (!parse_header(&c, sp))
        return false;
    if (!parse_info(&c, sp))
        return false;
    if (!parse_init_section(&c, sp))
        return false;
    return find_program_end(&c, sp);
}
