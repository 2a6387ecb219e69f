/* What each C access compiled to, beside litmusc's own scheme for it.
 * The pairing is by order, per thread: the source's accesses and fences in
 * IR order (blocks as written) against the lifted rows that touch memory,
 * that is a test location (`(x)` or an indexed operand on a register the
 * init gives x's address, not the P<n>_<reg> globals) or a
 * fence.  A load, store or RMW takes the next row naming a location and
 * the fence rows right after it, unless the next C access is a fence,
 * which then takes them.  A branch the compiler duplicated or merged, or an
 * access it removed, shifts the pairing: the report is a reading aid, the
 * verdict comes from the states. */
#include <stdlib.h>
#include <string.h>
#include "backends/x86/x86.h"
#include "lift/lift.h"
#include "util/mem.h"

/* The rows of thread TH in the lifted TEXT's code table, blanks left out. */
static char **thread_rows(const char *text, int th, int *n)
{
    const char *p = strstr(text, "}\n");
    char **rows = NULL;
    int nr = 0, cap = 0;
    *n = 0;
    if (!p)
        return NULL;
    p = strchr(p + 2, '\n');                    /* past " P0 | P1 ;" */
    while (p && *++p == ' ') {
        const char *e = strchr(p, '\n');
        const char *c = p;
        for (int k = 0; k < th && c && c < e; k++)
            c = strstr(c, " | ") ? strstr(c, " | ") + 3 : NULL;
        if (!c || c >= e)
            break;
        const char *ce = strstr(c, " | ");
        if (!ce || ce > e)
            ce = e - 2;                         /* " ;" */
        while (*c == ' ')
            c++;
        while (ce > c && ce[-1] == ' ')
            ce--;
        if (ce > c) {
            if (nr == cap)
                rows = xrealloc(rows, (size_t)(cap = cap ? 2 * cap : 16) * sizeof *rows);
            rows[nr++] = xstrndup(c, (size_t)(ce - c));
        }
        p = e;
    }
    *n = nr;
    return rows;
}

static bool is_fence_row(const char *r) { return !strcmp(r, "mfence") || !strcmp(r, "lfence") || !strcmp(r, "sfence"); }

/* Does row R of thread TH name one of T's locations as memory: `(x)`, or
 * an indexed operand whose base the init of TEXT gives a location's
 * address (`uint64_t 1:r8=x;` and `(%r8,%rdx,4)`)? */
static bool loc_row(const ir_test *t, const char *text, int th, const char *r)
{
    for (const char *p = strstr(r, "(%r"); p; p = strstr(p + 1, "(%r")) {
        size_t n = strcspn(p + 2, ",)");
        char init[64];
        snprintf(init, sizeof init, "  uint64_t %d:%.*s=", th, (int)(n < 8 ? n : 8), p + 2);
        const char *e = strstr(text, init), *end = strstr(text, "}\n");
        if (e && end && e < end) {
            size_t k = strcspn(e + strlen(init), ";");
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)(k < 127 ? k : 127), e + strlen(init));
            if (ir_find_loc(t, name) >= 0)
                return true;
        }
    }
    for (const char *p = strchr(r, '('); p; p = strchr(p + 1, '(')) {
        size_t n = strcspn(p + 1, ")");
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(n < 127 ? n : 127), p + 1);
        if (p[1 + n] == ')' && ir_find_loc(t, name) >= 0)
            return true;
    }
    return false;
}

char *lift_access_report(const ir_test *t, const char *text, const char *scheme_name, diag *d)
{
    x86_scheme *s = x86_scheme_load(scheme_name, d);
    if (!s)
        return NULL;
    strbuf b = {0};
    for (int n = 0; n < t->nthreads; n++) {
        const ir_thread *th = &t->threads[n];
        const ir_instr *acc[256];
        int na = 0;
        for (int bl = 0; bl < th->nblocks; bl++)
            for (int i = 0; i < th->blocks[bl].ninstrs && na < 256; i++) {
                const ir_instr *in = &th->blocks[bl].instrs[i];
                if (in->op == IR_LOAD || in->op == IR_STORE || in->op == IR_RMW || in->op == IR_FENCE)
                    acc[na++] = in;
            }
        int nr = 0, k = 0;
        char **rows = thread_rows(text, n, &nr);
        for (int a = 0; a < na; a++) {
            strbuf got = {0};
            bool fence = acc[a]->op == IR_FENCE;
            if (!fence) {
                while (k < nr && !loc_row(t, text, n, rows[k]))
                    k++;
                if (k < nr)
                    sb_add(&got, rows[k++]);
            }
            bool next_fence = a + 1 < na && acc[a + 1]->op == IR_FENCE;
            if (fence || !next_fence)
                for (; k < nr && !loc_row(t, text, n, rows[k]); k++)
                    if (is_fence_row(rows[k]))
                        sb_printf(&got, "%s%s", got.len ? "; " : "", rows[k]);
            char mine[96];
            if (!x86_scheme_describe(s, acc[a], mine, sizeof mine))
                snprintf(mine, sizeof mine, "no rule");
            char *g = sb_take(&got);
            sb_printf(&b, "  P%d line %d: %s -> %s  [%s: %s]\n", n, acc[a]->line, acc[a]->src ? acc[a]->src : "?",
                      *g ? g : "(nothing)", x86_scheme_name(s), mine);
            free(g);
        }
        strv_free(rows, nr);
    }
    x86_scheme_free(s);
    return sb_take(&b);
}
