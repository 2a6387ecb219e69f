/* Reading what the compilers say for bisection: the optimisation flags
 * `gcc -Q --help=optimizers` marks enabled at a level, and the pass that
 * clang's -opt-bisect-limit numbers N with the function it ran on. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "hunt/internal.h"

char **hunt_gcc_enabled_flags(const char *out, int *n)
{
    char **v = NULL;
    *n = 0;
    for (const char *p = out; p && *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        const char *s = p;
        while (s < p + len && isspace((unsigned char)*s))
            s++;
        /* "  -ftree-pre    [enabled]": a flag taking a value (-falign-loops=)
         * is set by its own line and has no -fno- form */
        if (s > p && s + 2 < p + len && s[0] == '-' && s[1] == 'f') {
            const char *e = s + 2;
            while (e < p + len && !isspace((unsigned char)*e))
                e++;
            const char *tag = e;
            while (tag < p + len && isspace((unsigned char)*tag))
                tag++;
            bool enabled = (size_t)(p + len - tag) >= 9 && !strncmp(tag, "[enabled]", 9);
            if (enabled && !memchr(s, '=', (size_t)(e - s))) {
                v = xrealloc(v, (size_t)(*n + 1) * sizeof *v);
                v[(*n)++] = xstrndup(s + 2, (size_t)(e - s - 2));
            }
        }
        p = eol ? eol + 1 : NULL;
    }
    return v;
}

bool hunt_clang_bisect_line(const char *err, int n, char **pass, char **func, int *last)
{
    bool found = false;
    *last = -1;
    if (pass)
        *pass = NULL;
    if (func)
        *func = NULL;
    for (const char *p = err; p && *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        /* "BISECT: running pass (12) SROAPass on P0", or "NOT running" past the limit */
        const char *k = strstr(p, "BISECT: ");
        const char *open = k && k < p + len ? memchr(k, '(', (size_t)(p + len - k)) : NULL;
        if (open) {
            char *end;
            long num = strtol(open + 1, &end, 10);
            if (end > open + 1 && *end == ')') {
                if (num > *last)
                    *last = (int)num;
                if (num == n && !found) {
                    const char *name = end + 1;
                    while (*name == ' ')
                        name++;
                    const char *on = NULL;
                    /* the last " on " splits pass and function: pass names have blanks */
                    for (const char *q = name; q + 4 <= p + len; q++)
                        if (!strncmp(q, " on ", 4))
                            on = q;
                    const char *fn = on ? on + 4 : p + len;
                    const char *fe = p + len;
                    /* codegen passes say "on function (P0)" */
                    if (on && !strncmp(fn, "function (", 10) && fe > fn + 10 && fe[-1] == ')') {
                        fn += 10;
                        fe--;
                    }
                    if (pass)
                        *pass = xstrndup(name, (size_t)((on ? on : p + len) - name));
                    if (func)
                        *func = on ? xstrndup(fn, (size_t)(fe - fn)) : xstrdup("");
                    found = true;
                }
            }
        }
        p = eol ? eol + 1 : NULL;
    }
    return found;
}
