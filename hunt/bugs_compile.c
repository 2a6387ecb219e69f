/* A bug's test compiled alone with the bug's configuration, for the steps
 * after the search: a mixed configuration's predicate (each thread from
 * its own compiler and flags, as the batch checked it), the objects that
 * bisection asks about (extra flags for one of a mix's compilers only),
 * and the objects the minimal test is confirmed with on this machine.
 * A pure configuration's predicate is lift_check's, which compiles the
 * same translation unit (lift/tu.c's, prefix ""). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness/harness.h"
#include "hunt/hunt_internal.h"
#include "lift/lift.h"
#include "util/file.h"
#include "util/mem.h"

/* The configuration thread TH of the bug takes: its own, or the mix's. */
static int config_of(const hctx *h, int c, long k, int th)
{
    return c < h->ncfg ? c : hunt_mix_config(h, k, th);
}

bool hunt_only_thread(const ir_test *t, const char *prefix, int th, const char *path, char **why)
{
    char **argv = xcalloc((size_t)(8 + t->nlocs + 64), sizeof *argv);
    int n = 0;
    argv[n++] = xstrdup("objcopy");
    argv[n++] = xasprintf("--keep-global-symbol=%sP%d", prefix, th);
    for (int i = 0; i < t->nlocs; i++)
        argv[n++] = xasprintf("--keep-global-symbol=%s%s", prefix, t->locs[i].name);
    for (int m = 0; m < t->nthreads; m++)
        for (int r = 0; r < t->threads[m].nfinal_regs && n < 8 + t->nlocs + 60; r++)
            argv[n++] = xasprintf("--keep-global-symbol=%sP%d_%s", prefix, m, t->threads[m].final_regs[r].name);
    argv[n++] = xstrdup(path);
    harness_child ch = {0};
    diag d = {0};
    bool ok = harness_child_run(argv, 60, 1, &ch, &d);
    if (ok) {
        ok = ch.exit_status == 0;
        if (!ok)
            *why = xasprintf("objcopy on %s failed: %s", path, ch.err ? ch.err : "");
    } else {
        char m[DIAG_MSG_MAX];
        diag_format(&d, m, sizeof m);
        *why = xstrdup(m);
    }
    harness_child_free(&ch);
    for (int i = 0; i < n; i++)
        free(argv[i]);
    free(argv);
    return ok;
}

void hunt_objs_free(char **paths, int n)
{
    for (int i = 0; i < n; i++) {
        if (paths[i])
            unlink(paths[i]);
        free(paths[i]);
    }
    free(paths);
}

bool hunt_compile_objs(hctx *h, int c, long k, const fe_test *ft, const ir_test *t, const char *extra, int only,
                       bool weak, char ***pathsp, int *np, diag *d)
{
    static long serial;
    int nt = t->nthreads > 0 ? t->nthreads : 1;
    bool mix = c >= h->ncfg;
    char *unit = NULL;
    if (weak) {
        char *head = lift_tu_head(), *part = lift_tu_part(ft, t, "", true, d);
        unit = part ? xasprintf("%s%s", head, part) : NULL;
        free(head), free(part);
    } else
        unit = lift_tu_text(ft, t, d);
    if (!unit)
        return false;
    long id = ++serial;
    char *src = xasprintf("%s/alone-%ld.c", h->tmp, id);
    bool ok = file_write_atomic(src, unit, strlen(unit));
    if (!ok)
        diag_fail(d, "hunt: cannot write %s: %s", src, file_error(errno));
    free(unit);
    /* one object a configuration the threads use, compiled once */
    int n = mix ? nt : 1;
    char **paths = xcalloc((size_t)n, sizeof *paths);
    char **by_cfg = xcalloc((size_t)h->ncfg, sizeof *by_cfg);
    for (int th = 0; ok && th < n; th++) {
        int cc = config_of(h, c, k, th);
        if (!by_cfg[cc]) {
            const hcfg *f = &h->cfgs[cc];
            bool more = extra && *extra && (only < 0 || only == cc);
            char *flags = xasprintf("%s%s%s", f->cflags, more ? " " : "", more ? extra : "");
            by_cfg[cc] = xasprintf("%s/alone-%ld-c%d.o", h->tmp, id, cc);
            ok = lift_compile_target(f->cc, flags, h->o->target, src, by_cfg[cc], LIFT_CC_TIMEOUT_S, h->tmp, d);
            free(flags);
        }
        paths[th] = mix ? xasprintf("%s/alone-%ld-t%d.o", h->tmp, id, th) : xstrdup(by_cfg[cc]);
        /* a mix's threads each get a copy of their configuration's object,
         * which hunt_only_thread may then change */
        if (ok && mix) {
            strbuf b = {0};
            ok = file_read_all(by_cfg[cc], &b, &(bool){false}) && file_write_atomic(paths[th], b.s, b.len);
            if (!ok)
                diag_fail(d, "hunt: cannot copy %s: %s", by_cfg[cc], file_error(errno));
            sb_free(&b);
        }
    }
    for (int cc = 0; cc < h->ncfg; cc++) {
        if (by_cfg[cc] && mix)
            unlink(by_cfg[cc]);
        free(by_cfg[cc]);
    }
    free(by_cfg);
    unlink(src);
    free(src);
    /* objects to link: each thread's keeps only its own function global */
    for (int th = 0; ok && weak && mix && th < n; th++) {
        char *why = NULL;
        if (!hunt_only_thread(t, "", th, paths[th], &why)) {
            ok = diag_fail(d, "hunt: %s", why);
            free(why);
        }
    }
    if (!ok) {
        hunt_objs_free(paths, n);
        return false;
    }
    *pathsp = paths;
    *np = n;
    return true;
}
