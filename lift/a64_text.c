/* The AArch64 litmus test lifted from a compiled C test: its locations
 * and register globals (P<n>_<reg>) in the init with their C types, each
 * thread's location registers, the threads' rows side by side, and the
 * source's condition over the globals.  herd7 7.57 reads it as written
 * (`herd7 FILE`, its aarch64.cat by default). */
#include <stdlib.h>
#include <string.h>
#include "lift/a64.h"
#include "lift/text.h"

enum { MAX_THREADS = 64 };

char *lift_a64_test_text(const ir_test *t, const lift_func *funcs, const char *origin, diag *d)
{
    if (ir_find_loc(t, LIFT_UNROLL_LOC) >= 0) {
        diag_error(d, t->file, 0, 0, "cc-check: location '%s' is the name the lifted test keeps for its cut loops",
                   LIFT_UNROLL_LOC);
        return NULL;
    }
    if (t->nthreads > MAX_THREADS) {
        diag_fail(d, "cc-check: more than %d threads", MAX_THREADS);
        return NULL;
    }
    char **rows[MAX_THREADS];
    int nrows[MAX_THREADS], h = 0;
    bool cut = false;
    strbuf inits = {0};
    for (int n = 0; n < t->nthreads; n++) {
        bool c = false;
        rows[n] = a64_lift_thread(t, &funcs[n], n, &c, &nrows[n], &inits, d);
        if (!rows[n]) {
            sb_free(&inits);
            for (int k = 0; k < n; k++)
                strv_free(rows[k], nrows[k]);
            return NULL;
        }
        cut |= c;
        if (nrows[n] > h)
            h = nrows[n];
    }
    strbuf b = {0};
    sb_printf(&b, "AArch64 %s\n\"compiled from C\"\n(* ", t->name);
    lift_text_comment(&b, origin);
    sb_add(&b, "; herd7 7.57 reads it as written: herd7 FILE *)\n{\n");
    lift_text_decls(&b, t, cut, " ");
    if (inits.len)
        sb_printf(&b, "%s\n", inits.s);
    sb_free(&inits);
    sb_add(&b, "}\n");
    /* columns padded to their widest row, as herd's own tests are */
    int *wid = xcalloc((size_t)t->nthreads, sizeof *wid);
    for (int n = 0; n < t->nthreads; n++) {
        wid[n] = 2 + (n >= 10) + (n >= 100);
        for (int i = 0; i < nrows[n]; i++)
            if ((int)strlen(rows[n][i]) > wid[n])
                wid[n] = (int)strlen(rows[n][i]);
    }
    for (int n = 0; n < t->nthreads; n++) {
        char p[16];
        snprintf(p, sizeof p, "P%d", n);
        sb_printf(&b, " %-*s %s", wid[n], p, n + 1 < t->nthreads ? "|" : ";\n");
    }
    for (int i = 0; i < h; i++)
        for (int n = 0; n < t->nthreads; n++)
            sb_printf(&b, " %-*s %s", wid[n], i < nrows[n] ? rows[n][i] : "", n + 1 < t->nthreads ? "|" : ";\n");
    free(wid);
    lift_text_tail(&b, t, cut);
    for (int n = 0; n < t->nthreads; n++)
        strv_free(rows[n], nrows[n]);
    return sb_take(&b);
}
