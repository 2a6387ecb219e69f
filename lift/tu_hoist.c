/* A register declared inside an inner block of a thread (`if (r0 == 1) {
 * int r1 = *x; }`) is out of scope where the thread's function stores it
 * to P<n>_r1.  Such a declaration becomes an assignment to a variable the
 * function declares at its top, initialised to 0: the value herd gives a
 * register the thread never writes, so the test means the same. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "lift/lift.h"
#include "util/mem.h"

/* Words that may open a declaration: C's type keywords and qualifiers,
 * <stdatomic.h>'s atomic_* and <stdint.h>'s *_t names. */
static bool type_word(const char *s, size_t n)
{
    static const char *const kw[] = {"int", "long", "short", "char", "unsigned", "signed", "const", "volatile",
                                     "_Atomic", "_Bool", "bool", NULL};
    for (int i = 0; kw[i]; i++)
        if (strlen(kw[i]) == n && !strncmp(s, kw[i], n))
            return true;
    return (n > 7 && !strncmp(s, "atomic_", 7)) || (n > 2 && !strncmp(s + n - 2, "_t", 2));
}

/* Is [S, E) only type words, '*' and blanks, with one word at least? */
static bool decl_prefix(const char *s, const char *e)
{
    bool word = false;
    while (s < e) {
        if (isspace((unsigned char)*s) || *s == '*') {
            s++;
        } else if (isalpha((unsigned char)*s) || *s == '_') {
            const char *w = s;
            while (s < e && (isalnum((unsigned char)*s) || *s == '_'))
                s++;
            if (!type_word(w, (size_t)(s - w)))
                return false;
            word = true;
        } else {
            return false;
        }
    }
    return word;
}

static int reg_index(const ir_thread *th, const char *s, size_t n)
{
    for (int r = 0; r < th->nfinal_regs; r++)
        if (strlen(th->final_regs[r].name) == n && !strncmp(th->final_regs[r].name, s, n))
            return r;
    return -1;
}

/* One pass over BODY: with OUT NULL, marks in TOP the registers declared
 * at function scope; with OUT set, copies BODY to OUT without the type of
 * each inner declaration of a register not in TOP, and adds that
 * register's declaration `TYPE r = 0;` to DECLS (once, HOISTED). */
static void scan(const char *body, const ir_thread *th, bool *top, bool *hoisted, strbuf *out, strbuf *decls)
{
    int depth = 0;
    const char *stmt = body;        /* where the current statement began */
    const char *copied = body;      /* OUT holds BODY up to here */
    for (const char *p = body; *p;) {
        if (*p == '{' || *p == '}' || *p == ';') {
            depth += *p == '{' ? 1 : *p == '}' ? -1 : 0;
            stmt = ++p;
            continue;
        }
        if (!(isalpha((unsigned char)*p) || *p == '_')) {
            p++;
            continue;
        }
        const char *w = p;
        while (isalnum((unsigned char)*p) || *p == '_')
            p++;
        int r = reg_index(th, w, (size_t)(p - w));
        const char *q = p;
        while (isspace((unsigned char)*q))
            q++;
        if (r < 0 || !(*q == '=' || *q == ';') || q[1] == '=' || !decl_prefix(stmt, w))
            continue;
        if (!out) {
            if (depth == 0)
                top[r] = true;
            continue;
        }
        if (depth == 0 || top[r])
            continue;
        while (isspace((unsigned char)*stmt))
            stmt++;
        if (!hoisted[r]) {
            sb_add(decls, "  ");
            const char *e = w;
            while (e > stmt && isspace((unsigned char)e[-1]))
                e--;
            sb_addn(decls, stmt, (size_t)(e - stmt));
            sb_printf(decls, " %s = 0;\n", th->final_regs[r].name);
            hoisted[r] = true;
        }
        sb_addn(out, copied, (size_t)(stmt - copied));
        copied = w;
    }
    if (out)
        sb_add(out, copied);
}

char *lift_tu_hoist(const char *body, const ir_thread *th)
{
    bool *top = xcalloc((size_t)th->nfinal_regs + 1, sizeof *top);
    bool *hoisted = xcalloc((size_t)th->nfinal_regs + 1, sizeof *hoisted);
    strbuf out = {0}, decls = {0};
    scan(body, th, top, hoisted, NULL, NULL);
    scan(body, th, top, hoisted, &out, &decls);
    char *d = sb_take(&decls), *o = sb_take(&out);
    char *res = xasprintf("%s%s", d, o);
    free(d);
    free(o);
    free(top);
    free(hoisted);
    return res;
}
