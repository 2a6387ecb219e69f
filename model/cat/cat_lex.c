/* Tokeniser for cat files, following herd's lexical rules: names may
 * contain '.', '-' and a final quote (po-loc, co-jam), `(* *)` comments
 * nest, `//` and `#` start line comments, and "-1" is one token (r^-1). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "model/cat/cat_ast.h"
#include "util/mem.h"

static const struct { const char *word; cat_tok tok; } keywords[] = {
    {"let", CT_LET}, {"rec", CT_REC}, {"and", CT_AND}, {"when", CT_WHEN},
    {"acyclic", CT_ACYCLIC}, {"irreflexive", CT_IRREFLEXIVE}, {"show", CT_SHOW},
    {"unshow", CT_UNSHOW}, {"empty", CT_EMPTY}, {"subset", CT_SUBSET}, {"as", CT_AS},
    {"fun", CT_FUN}, {"in", CT_IN}, {"undefined_unless", CT_UNDEFINED_UNLESS},
    {"flag", CT_FLAG}, {"assert", CT_ASSERT}, {"include", CT_INCLUDE},
    {"variant", CT_VARIANT}, {"begin", CT_BEGIN}, {"end", CT_END},
    {"procedure", CT_PROCEDURE}, {"call", CT_CALL}, {"enum", CT_ENUM},
    {"debug", CT_DEBUG}, {"match", CT_MATCH}, {"with", CT_WITH}, {"forall", CT_FORALL},
    {"from", CT_FROM}, {"do", CT_DO}, {"try", CT_TRY}, {"if", CT_IF}, {"then", CT_THEN},
    {"else", CT_ELSE}, {"catdep", CT_CATDEP}, {"instructions", CT_INSTRUCTIONS},
    {"default", CT_DEFAULT}, {"not", CT_NOT},
};

static const char *const tok_names[CT_COUNT] = {
    [CT_EOF] = "end of file", [CT_VAR] = "name", [CT_TAG] = "tag", [CT_STRING] = "string",
    [CT_LPAR] = "'('", [CT_RPAR] = "')'", [CT_LACC] = "'{'", [CT_RACC] = "'}'",
    [CT_LBRAC] = "'['", [CT_RBRAC] = "']'", [CT_UNDERSCORE] = "'_'", [CT_ZERO] = "'0'",
    [CT_UNION] = "'|'", [CT_ALT] = "'||'", [CT_INTER] = "'&'", [CT_LAND] = "'&&'",
    [CT_STAR] = "'*'", [CT_COMP] = "'~'", [CT_PLUS] = "'+'", [CT_PLUSPLUS] = "'++'",
    [CT_HAT] = "'^'", [CT_INV] = "'-1'", [CT_DIFF] = "'\\'", [CT_OPT] = "'?'",
    [CT_EQUAL] = "'='", [CT_SEMI] = "';'", [CT_COMMA] = "','", [CT_ARROW] = "'->'",
    [CT_LET] = "'let'", [CT_REC] = "'rec'", [CT_AND] = "'and'", [CT_WHEN] = "'when'",
    [CT_ACYCLIC] = "'acyclic'", [CT_IRREFLEXIVE] = "'irreflexive'", [CT_SHOW] = "'show'",
    [CT_UNSHOW] = "'unshow'", [CT_EMPTY] = "'empty'", [CT_SUBSET] = "'subset'",
    [CT_AS] = "'as'", [CT_FUN] = "'fun'", [CT_IN] = "'in'",
    [CT_UNDEFINED_UNLESS] = "'undefined_unless'", [CT_FLAG] = "'flag'",
    [CT_ASSERT] = "'assert'", [CT_INCLUDE] = "'include'", [CT_VARIANT] = "'variant'",
    [CT_BEGIN] = "'begin'", [CT_END] = "'end'", [CT_PROCEDURE] = "'procedure'",
    [CT_CALL] = "'call'", [CT_ENUM] = "'enum'", [CT_DEBUG] = "'debug'",
    [CT_MATCH] = "'match'", [CT_WITH] = "'with'", [CT_FORALL] = "'forall'",
    [CT_FROM] = "'from'", [CT_DO] = "'do'", [CT_TRY] = "'try'", [CT_IF] = "'if'",
    [CT_THEN] = "'then'", [CT_ELSE] = "'else'", [CT_CATDEP] = "'catdep'",
    [CT_INSTRUCTIONS] = "'instructions'", [CT_DEFAULT] = "'default'", [CT_NOT] = "'not'",
};

const char *cat_tok_name(cat_tok t)
{
    return (t >= 0 && t < CT_COUNT && tok_names[t]) ? tok_names[t] : "token";
}

typedef struct lexer {
    const char *p;
    const char *file;
    int line, col;
    diag *d;
} lexer;

static void advance(lexer *lx, int k)
{
    while (k-- > 0 && *lx->p) {
        if (*lx->p == '\n') { lx->line++; lx->col = 1; }
        else lx->col++;
        lx->p++;
    }
}

/* Skip a `(* ... *)` comment starting at lx->p, nesting as herd does. */
static bool skip_comment(lexer *lx)
{
    int line = lx->line, col = lx->col, depth = 0;
    do {
        if (!*lx->p)
            return diag_error(lx->d, lx->file, line, col, "unterminated comment");
        if (lx->p[0] == '(' && lx->p[1] == '*') { depth++; advance(lx, 2); }
        else if (lx->p[0] == '*' && lx->p[1] == ')') { depth--; advance(lx, 2); }
        else advance(lx, 1);
    } while (depth > 0);
    return true;
}

static bool is_name_start(const char *p)
{
    if (isalpha((unsigned char)p[0])) return true;
    return p[0] == '_' && isalpha((unsigned char)p[1]);
}

/* Length of the name at P (herd: '_'? alpha (alpha|digit|'_'|'.'|'-')* '\''?). */
static int name_len(const char *p)
{
    int k = 0;
    if (p[k] == '_') k++;
    k++;  /* the letter */
    while (isalnum((unsigned char)p[k]) || p[k] == '_' || p[k] == '.' || p[k] == '-') k++;
    if (p[k] == '\'') k++;
    return k;
}

static cat_tok keyword(const char *s, int len)
{
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        if ((int)strlen(keywords[i].word) == len && !strncmp(keywords[i].word, s, (size_t)len))
            return keywords[i].tok;
    return CT_VAR;
}

static cat_tok punct(const char *p, int *len)
{
    *len = 2;
    if (p[0] == '|' && p[1] == '|') return CT_ALT;
    if (p[0] == '&' && p[1] == '&') return CT_LAND;
    if (p[0] == '+' && p[1] == '+') return CT_PLUSPLUS;
    if (p[0] == '-' && p[1] == '1') return CT_INV;
    if (p[0] == '-' && p[1] == '>') return CT_ARROW;
    *len = 1;
    switch (p[0]) {
    case '(': return CT_LPAR;   case ')': return CT_RPAR;
    case '{': return CT_LACC;   case '}': return CT_RACC;
    case '[': return CT_LBRAC;  case ']': return CT_RBRAC;
    case '_': return CT_UNDERSCORE;
    case '0': return CT_ZERO;
    case '|': return CT_UNION;  case '&': return CT_INTER;
    case '*': return CT_STAR;   case '~': return CT_COMP;
    case '+': return CT_PLUS;   case '^': return CT_HAT;
    case '\\': return CT_DIFF;  case '?': return CT_OPT;
    case '=': return CT_EQUAL;  case ';': return CT_SEMI;
    case ',': return CT_COMMA;
    default: *len = 0; return CT_EOF;
    }
}

bool cat_lex(const char *text, const char *file, cat_token **toks, int *ntoks, diag *d)
{
    lexer lx = {text, file, 1, 1, d};
    cat_token *v = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        char c = *lx.p;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f') { advance(&lx, 1); continue; }
        if ((c == '/' && lx.p[1] == '/') || c == '#') {
            while (*lx.p && *lx.p != '\n') advance(&lx, 1);
            continue;
        }
        if (c == '(' && lx.p[1] == '*') {
            if (!skip_comment(&lx)) goto fail;
            continue;
        }
        cat_token t = {CT_EOF, NULL, lx.line, lx.col};
        if (!c) { VEC_PUSH(v, n, cap, t); break; }
        if (c == '"') {
            const char *s = lx.p + 1, *e = strchr(s, '"');
            if (!e) { diag_error(d, file, lx.line, lx.col, "unterminated string"); goto fail; }
            t.kind = CT_STRING;
            t.text = xstrndup(s, (size_t)(e - s));
            advance(&lx, (int)(e - lx.p) + 1);
        } else if (c == '\'' && is_name_start(lx.p + 1)) {
            int k = name_len(lx.p + 1);
            t.kind = CT_TAG;
            t.text = xstrndup(lx.p + 1, (size_t)k);
            advance(&lx, k + 1);
        } else if (is_name_start(lx.p)) {
            int k = name_len(lx.p);
            t.kind = keyword(lx.p, k);
            if (t.kind == CT_VAR) t.text = xstrndup(lx.p, (size_t)k);
            advance(&lx, k);
        } else {
            int k;
            t.kind = punct(lx.p, &k);
            if (!k) {
                if (isprint((unsigned char)c))
                    diag_error(d, file, lx.line, lx.col, "unexpected character '%c'", c);
                else
                    diag_error(d, file, lx.line, lx.col, "unexpected byte 0x%02x", (unsigned char)c);
                goto fail;
            }
            advance(&lx, k);
        }
        VEC_PUSH(v, n, cap, t);
    }
    *toks = v;
    *ntoks = (int)n;
    return true;
fail:
    cat_tokens_free(v, (int)n);
    *toks = NULL;
    *ntoks = 0;
    return false;
}

void cat_tokens_free(cat_token *toks, int ntoks)
{
    for (int i = 0; i < ntoks; i++) free(toks[i].text);
    free(toks);
}
