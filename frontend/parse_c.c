/* C programs: `[void] Pn(T* x, ...) { body }` for each thread, in order,
 * optionally followed by herd's `regions:` annotations. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/internal.h"
#include "util/mem.h"

/* `T* name`: the pointed-to type (stars but the last kept) and the name. */
static bool parse_param(lexer *lx, fe_param *p)
{
    memset(p, 0, sizeof *p);
    tok toks[16];
    int n = 0;
    while (lx->cur.kind == TK_IDENT || lx_is(lx, "*")) {
        if (n == 16)
            return lx_error(lx, "parameter type too long");
        toks[n++] = lx->cur;
        if (!lx_next(lx))
            return false;
    }
    if (lx->failed)
        return false;
    if (n == 0 || toks[n - 1].kind != TK_IDENT)
        return lx_error(lx, "expected a parameter 'T* name'");
    tok name = toks[n - 1];
    if (n < 2 || code_is_c_type_word(name.s, name.len))
        return lx_error_at(lx, name.line, name.col, "expected a parameter 'T* name'");
    if (toks[n - 2].kind != TK_PUNCT)
        return lx_error_at(lx, name.line, name.col, "type mismatch: parameter '%.*s' must be a pointer",
                           (int)(name.len > 40 ? 40 : name.len), name.s);
    if (toks[0].kind != TK_IDENT)
        return lx_error_at(lx, toks[0].line, toks[0].col, "expected a parameter type");
    strbuf b = {0};
    /* the pointed-to type: every token but the last star and the name */
    for (int i = 0; i < n - 2; i++) {
        if (toks[i].kind == TK_IDENT && b.len)
            sb_addc(&b, ' ');
        sb_addn(&b, toks[i].s, toks[i].len);
    }
    p->type = sb_take(&b);
    p->name = tok_str(&name);
    p->pos.line = name.line;
    p->pos.col = name.col;
    return true;
}

static bool parse_thread(lexer *lx, fe_test *t, int index)
{
    if (lx_is_ident(lx, "void") && !lx_next(lx))
        return false;
    const tok *h = &lx->cur;
    int id = 0;
    bool ok = h->kind == TK_IDENT && h->len >= 2 && h->len <= 5 && h->s[0] == 'P';
    for (size_t i = 1; ok && i < h->len; i++) {
        if (!isdigit((unsigned char)h->s[i]))
            ok = false;
        else
            id = id * 10 + (h->s[i] - '0');
    }
    if (!ok)
        return lx_error(lx, "expected a thread 'P%d(...) { ... }'", index);
    for (int i = 0; i < t->nthreads; i++)
        if (t->threads[i].id == id)
            return lx_error(lx, "duplicate thread P%d", id);
    if (id != index)
        return lx_error(lx, "threads must be P0, P1, ... in order (expected P%d)", index);
    size_t n = (size_t)t->nthreads, cap = n;
    fe_thread th;
    memset(&th, 0, sizeof th);
    th.id = id;
    th.name = tok_str(h);
    th.pos.line = h->line;
    th.pos.col = h->col;
    VEC_PUSH(t->threads, n, cap, th);
    t->nthreads = (int)n;
    fe_thread *tp = &t->threads[n - 1];
    if (!lx_next(lx) || !lx_expect(lx, "("))
        return false;
    code_scope sc = {t, tp, false, NULL, NULL, 0, 0};
    size_t pcap = 0, pn = 0;
    while (!lx_is(lx, ")")) {
        if (lx->failed) {
            code_scope_free(&sc);
            return false;
        }
        fe_param p;
        if (!parse_param(lx, &p)) {
            free(p.type);
            free(p.name);
            code_scope_free(&sc);
            return false;
        }
        for (size_t i = 0; i < pn; i++)
            if (!strcmp(tp->params[i].name, p.name)) {
                lx_error_at(lx, p.pos.line, p.pos.col, "duplicate parameter '%s'", p.name);
                free(p.type);
                free(p.name);
                code_scope_free(&sc);
                return false;
            }
        VEC_PUSH(tp->params, pn, pcap, p);
        tp->nparams = (int)pn;
        code_scope_add(&sc, p.name, true);
        if (!lx_accept(lx, ","))
            break;
    }
    if (!lx_expect(lx, ")")) {
        code_scope_free(&sc);
        return false;
    }
    if (!lx_is(lx, "{")) {
        code_scope_free(&sc);
        return lx_error(lx, "expected '{' (the body of %s)", tp->name);
    }
    const char *body_start = lx->cur.end;
    tp->body = code_parse_block(lx, &sc);
    code_scope_free(&sc);
    if (!tp->body)
        return false;
    /* the closing brace is the token just before the current one */
    const char *q = lx->cur.kind == TK_EOF ? lx->end : lx->cur.s;
    while (q > body_start && *--q != '}')
        ;
    tp->body_text = xstrndup(body_start, (size_t)(q - body_start));
    return true;
}

bool fe_parse_c(fe_test *t, const section *s, const char *file, diag *d)
{
    lexer lx;
    if (!code_open(&lx, s, file, d, "P0(...) { ... }"))
        return false;
    while (lx.cur.kind != TK_EOF && !lx_is_ident(&lx, "regions")) {
        if (!parse_thread(&lx, t, t->nthreads))
            return false;
    }
    if (lx_is_ident(&lx, "regions")) {
        /* herd's memory-region annotations `regions: x:R, y:S`: checked
         * for shape, then kept verbatim (nothing downstream reads them) */
        const char *p = lx.cur.s, *e = s->end;
        if (!lx_next(&lx))
            return false;
        lx_accept(&lx, ":");
        if (lx.failed)
            return false;
        do {
            if (lx.cur.kind != TK_IDENT || lx_is_ident(&lx, "not"))
                return lx_error(&lx, "expected a region 'location:NAME'");
            if (!lx_next(&lx) || !lx_expect(&lx, ":"))
                return false;
            if (lx.cur.kind != TK_IDENT)
                return lx_error(&lx, "expected a region name");
            /* `not` would join a following `exists` into the condition's
             * `not exists` once the test is printed back */
            if (lx_is_ident(&lx, "not"))
                return lx_error(&lx, "'not' cannot name a region");
            if (!lx_next(&lx))
                return false;
            while (lx_accept(&lx, ",") || lx_accept(&lx, ";"))
                ;
            if (lx.failed)
                return false;
        } while (lx.cur.kind != TK_EOF);
        while (e > p && (e[-1] == ' ' || e[-1] == '\n' || e[-1] == '\t' || e[-1] == '\r'))
            e--;
        for (const char *c = p; c < e; c++)
            if ((unsigned char)*c < 32 && *c != '\n' && *c != '\t' && *c != '\r')
                return lx_error(&lx, "unexpected byte in regions annotation");
        t->extra = xstrndup(p, (size_t)(e - p));
    }
    return true;
}
