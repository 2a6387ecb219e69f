/* Java programs in herd's syntax: `Thread0 { ... }` (or `P0 { ... }`) for
 * each thread, in order.  VarHandles are bound per thread in the init. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/internal.h"
#include "util/mem.h"

static bool thread_id(const tok *h, int *id)
{
    size_t pre;
    if (h->kind != TK_IDENT)
        return false;
    if (h->len > 6 && !memcmp(h->s, "Thread", 6))
        pre = 6;
    else if (h->len > 1 && h->s[0] == 'P')
        pre = 1;
    else
        return false;
    if (h->len - pre > 4)
        return false;
    int v = 0;
    for (size_t i = pre; i < h->len; i++) {
        if (!isdigit((unsigned char)h->s[i]))
            return false;
        v = v * 10 + (h->s[i] - '0');
    }
    *id = v;
    return true;
}

bool fe_parse_java(fe_test *t, const section *s, const char *file, diag *d)
{
    lexer lx;
    if (!code_open(&lx, s, file, d, "Thread0 { ... }"))
        return false;
    size_t n = 0, cap = 0;
    while (lx.cur.kind != TK_EOF) {
        int id;
        if (!thread_id(&lx.cur, &id))
            return lx_error(&lx, "expected a thread 'Thread%d { ... }'", (int)n);
        for (size_t i = 0; i < n; i++)
            if (t->threads[i].id == id)
                return lx_error(&lx, "duplicate thread %.*s", (int)lx.cur.len, lx.cur.s);
        if (id != (int)n)
            return lx_error(&lx, "threads must be Thread0, Thread1, ... in order (expected Thread%d)", (int)n);
        fe_thread th;
        memset(&th, 0, sizeof th);
        th.id = id;
        th.name = tok_str(&lx.cur);
        th.pos.line = lx.cur.line;
        th.pos.col = lx.cur.col;
        VEC_PUSH(t->threads, n, cap, th);
        t->nthreads = (int)n;
        fe_thread *tp = &t->threads[n - 1];
        if (!lx_next(&lx))
            return false;
        if (!lx_is(&lx, "{"))
            return lx_error(&lx, "expected '{' (the body of %s)", tp->name);
        code_scope sc = {t, tp, true, NULL, NULL, 0, 0};
        tp->body = code_parse_block(&lx, &sc);
        code_scope_free(&sc);
        if (!tp->body)
            return false;
    }
    return true;
}
