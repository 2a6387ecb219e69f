/* Which optimisation made the bug.  clang: the least -opt-bisect-limit N
 * at which the bug shows, found by binary search, and the pass the
 * compiler numbers N (with the function it ran on), read from its own
 * listing of the test's translation unit.  gcc: the -f flags its
 * `-Q --help=optimizers` marks enabled at the bug's flags, all turned off
 * at once (the bug staying means it is none of them), then delta
 * debugging down to a least set whose -fno- forms remove it.  Flag sets
 * go to the compiler in a response file (@FILE): a hundred -fno- flags is
 * more than a command line the predicate builds may hold. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "harness/harness.h"
#include "hunt/internal.h"
#include "ir/lower.h"
#include "lift/lift.h"
#include "util/file.h"

/* Predicate calls one bisection may make: gcc's delta debugging over
 * some 130 flags needs a few dozen when one or two flags matter. */
enum { BISECT_BUDGET = 400 };

typedef struct bis {
    const char *cc, *cflags, *text;
    char *runflags;         /* the target's flags, then CFLAGS: for running CC itself */
    hunt_pred pred;
    void *ctx;
    hunt_bisect_result *r;
    char *dir;              /* response files */
    int nrsp;
} bis;

/* The predicate with EXTRA flags: 1 bug, 0 none, -1 it cannot say. */
static int ask3(bis *b, const char *extra)
{
    diag d = {0};
    b->r->tries++;
    return b->pred(b->ctx, b->text, extra, &d);
}

/* Does the bug show with EXTRA?  (Cannot say counts as no.) */
static bool ask(bis *b, const char *extra)
{
    return ask3(b, extra) == 1;
}

/* Everything CC FLAGS MORE writes (stderr with stdout: clang's bisect
 * listing is long and on stderr); NULL + D when it cannot run. */
static char *run_cc(const char *cc, const char *flags, const char *const *more, diag *d)
{
    char **cmd = hunt_argv(cc, flags, more);
    int n = 0;
    while (cmd[n])
        n++;
    /* sh -c 'exec "$@" 2>&1' keeps stderr whole, in the captured stdout */
    char **argv = xcalloc((size_t)n + 5, sizeof *argv);
    argv[0] = "sh", argv[1] = "-c", argv[2] = "exec \"$@\" 2>&1", argv[3] = "sh";
    for (int i = 0; i < n; i++)
        argv[4 + i] = cmd[i];
    harness_child c = {0};
    char *out = NULL;
    if (harness_child_run(argv, 120, 1, &c, d))
        out = xstrdup(c.out ? c.out : "");
    harness_child_free(&c);
    free(argv);
    hunt_argv_free(cmd);
    return out;
}

/* ---- clang ------------------------------------------------------------------------ */

/* clang: limit 0 first (no pass at all), then the least limit with the
 * bug, by binary search, and the pass the compiler numbers so. */
static bool clang_bisect(bis *b, diag *d)
{
    hunt_bisect_result *r = b->r;
    if (ask(b, "-mllvm -opt-bisect-limit=0")) {
        r->kind = HUNT_BISECT_NOT_A_PASS;
        r->detail = xstrdup("the bug stays with -mllvm -opt-bisect-limit=0, where no optimisation pass runs: it is "
                            "in instruction selection, code generation, or outside the compiler proper");
        return true;
    }
    /* the passes of the test's own translation unit, numbered */
    fe_test *ft = fe_parse(b->text, strlen(b->text), "bisect.litmus", d);
    ir_test *t = ft ? ir_lower(ft, d) : NULL;
    char *tu = t ? lift_tu_text(ft, t, d) : NULL;
    char *src = tu ? xasprintf("%s/t.c", b->dir) : NULL;
    bool ok = src && file_write_atomic(src, tu, strlen(tu));
    if (src && !ok)
        diag_fail(d, "hunt: cannot write %s", src);
    char *list = NULL;
    if (ok) {
        const char *more[] = {"-c", "-fno-pic", "-mllvm", "-opt-bisect-limit=-1", src, "-o", "/dev/null", NULL};
        list = run_cc(b->cc, b->runflags, more, d);
    }
    free(src), free(tu);
    if (t)
        ir_test_free(t);
    fe_test_free(ft);
    if (!list)
        return false;
    int last = -1;
    hunt_clang_bisect_line(list, 0, NULL, NULL, &last);
    char *hi_flag = xasprintf("-mllvm -opt-bisect-limit=%d", last);
    if (last < 1 || !ask(b, hi_flag)) {
        free(hi_flag);
        free(list);
        r->kind = HUNT_BISECT_UNKNOWN;
        r->detail = xstrdup(last < 1 ? "the compiler lists no passes under -mllvm -opt-bisect-limit=-1"
                                     : "the bug does not show with -mllvm -opt-bisect-limit at its last pass, "
                                       "though it shows without the option");
        return true;
    }
    free(hi_flag);
    /* the bug is absent at LO and present at HI */
    int lo = 0, hi = last;
    while (hi - lo > 1 && r->tries < BISECT_BUDGET) {
        int mid = lo + (hi - lo) / 2;
        char *f = xasprintf("-mllvm -opt-bisect-limit=%d", mid);
        if (ask(b, f))
            hi = mid;
        else
            lo = mid;
        free(f);
    }
    free(list);
    char lim[32];
    snprintf(lim, sizeof lim, "-opt-bisect-limit=%d", hi);
    const char *src2[] = {"-c", "-fno-pic", "-mllvm", lim, NULL, "-o", "/dev/null", NULL};
    char *s = xasprintf("%s/t.c", b->dir);
    src2[4] = s;
    list = run_cc(b->cc, b->runflags, src2, d);
    free(s);
    if (!list)
        return false;
    r->limit = hi;
    if (!hunt_clang_bisect_line(list, hi, &r->pass, &r->function, &last)) {
        r->pass = xstrdup("?");
        r->function = xstrdup("?");
    }
    free(list);
    r->kind = hi - lo > 1 ? HUNT_BISECT_UNKNOWN : HUNT_BISECT_PASS;
    if (r->kind == HUNT_BISECT_PASS)
        r->detail = xasprintf("pass %d, %s on %s, brings the bug: it shows with -mllvm -opt-bisect-limit=%d "
                              "and not with %d",
                              hi, r->pass, r->function, hi, lo);
    else
        r->detail = xasprintf("stopped after %d tries: the bug comes with a pass numbered %d to %d", r->tries,
                              lo + 1, hi);
    return true;
}

/* ---- gcc --------------------------------------------------------------------------- */

/* The flags "-fno-F" for the COUNT flags at IDX into FLAGS, in a response
 * file; returns "@FILE" (malloc'd) or NULL when it cannot be written. */
static char *rsp(bis *b, char **flags, const int *idx, int count)
{
    strbuf s = {0};
    for (int i = 0; i < count; i++)
        sb_printf(&s, "-fno-%s\n", flags[idx[i]]);
    char *path = xasprintf("%s/fno%d.rsp", b->dir, b->nrsp++);
    char *body = sb_take(&s);
    char *arg = file_write_atomic(path, body, strlen(body)) ? xasprintf("@%s", path) : NULL;
    free(body);
    free(path);
    return arg;
}

/* With the flags at IDX (COUNT of them) turned off: 1 the bug shows, 0
 * it does not, -1 the predicate cannot say (the test does not lift).
 * Only 0 says the flags remove the bug. */
static int with_off(bis *b, char **flags, const int *idx, int count)
{
    char *arg = rsp(b, flags, idx, count);
    int v = arg ? ask3(b, arg) : -1;
    free(arg);
    return v;
}

/* What ddmin keeps a set for: the bug gone with the set turned off, or
 * (for the flags to leave on) the test lifting with all but the set off. */
typedef bool (*set_test)(bis *b, char **flags, const int *idx, int count, const int *all, int nall);

/* ddmin's test for the flags to turn off: the bug goes with them. */
static bool gone(bis *b, char **flags, const int *idx, int count, const int *all, int nall)
{
    (void)all, (void)nall;
    return with_off(b, flags, idx, count) == 0;
}

/* ddmin's test for the flags to leave on: with every other one off, the
 * test still compiles and lifts. */
static bool lifts_without(bis *b, char **flags, const int *idx, int count, const int *all, int nall)
{
    int *off = xmalloc(sizeof *off * (size_t)(nall ? nall : 1)), k = 0;
    for (int i = 0; i < nall; i++) {
        bool on = false;
        for (int j = 0; j < count && !on; j++)
            on = idx[j] == all[i];
        if (!on)
            off[k++] = all[i];
    }
    bool ok = with_off(b, flags, off, k) >= 0;
    free(off);
    return ok;
}

/* Zeller's ddmin on the set C (*N flag indices, changed in place) for a
 * least set TEST still holds for (it holds for C). */
static void ddmin(bis *b, char **flags, int *c, int *n, set_test test, const int *all, int nall)
{
    int parts = 2;
    int *tmp = xmalloc(sizeof *tmp * (size_t)(*n ? *n : 1));
    while (*n >= 2 && b->r->tries < BISECT_BUDGET) {
        bool reduced = false;
        int size = (*n + parts - 1) / parts;
        /* a part alone, then all but a part */
        for (int pass = 0; pass < 2 && !reduced; pass++)
            for (int p = 0; p < parts && !reduced && b->r->tries < BISECT_BUDGET; p++) {
                int from = p * size, to = from + size < *n ? from + size : *n, k = 0;
                if (from >= *n)
                    break;
                for (int i = 0; i < *n; i++)
                    if ((i >= from && i < to) == (pass == 0))
                        tmp[k++] = c[i];
                if (k == 0 || k == *n || !test(b, flags, tmp, k, all, nall))
                    continue;
                memcpy(c, tmp, sizeof *c * (size_t)k);
                *n = k;
                parts = pass == 0 ? 2 : (parts - 1 > 2 ? parts - 1 : 2);
                reduced = true;
            }
        if (reduced)
            continue;
        if (parts >= *n)
            break;
        parts = parts * 2 < *n ? parts * 2 : *n;
    }
    free(tmp);
}

/* "PRE"-prefixed names of the flags at IDX, blank-separated (malloc'd). */
static char *flag_list(char **flags, const int *idx, int n, const char *pre)
{
    strbuf s = {0};
    for (int i = 0; i < n; i++)
        sb_printf(&s, "%s%s%s", i ? " " : "", pre, flags[idx[i]]);
    return sb_take(&s);
}

/* The flags to turn off: all N of them but a least set left on without
 * which the test no longer lifts (gcc with every pass off may keep an
 * address in a register, which the lifter refuses); *NON gets that set
 * (malloc'd in *ON), and the result is how many are off (in OFF), or -1
 * when no such set is found. */
static int liftable(bis *b, char **flags, int n, int *off, int **on, int *non)
{
    int *all = xmalloc(sizeof *all * (size_t)n);
    for (int i = 0; i < n; i++)
        all[i] = off[i] = i;
    *on = NULL, *non = 0;
    int v = with_off(b, flags, off, n);
    if (v >= 0) {
        free(all);
        return n;
    }
    int *keep = xmalloc(sizeof *keep * (size_t)n), nk = n;
    memcpy(keep, all, sizeof *keep * (size_t)n);
    ddmin(b, flags, keep, &nk, lifts_without, all, n);
    int k = 0;
    for (int i = 0; i < n; i++) {
        bool kept = false;
        for (int j = 0; j < nk && !kept; j++)
            kept = keep[j] == i;
        if (!kept)
            off[k++] = i;
    }
    free(all);
    *on = keep, *non = nk;
    return nk < n ? k : -1;
}

/* gcc: -O0 first (no optimisation at all), then the enabled -f flags
 * turned off together and narrowed by ddmin. */
static bool gcc_bisect(bis *b, diag *d)
{
    hunt_bisect_result *r = b->r;
    const char *level = b->cflags && *b->cflags ? b->cflags : "the default level";
    /* -O0 last wins over the bug's level: no optimisation runs at all */
    if (ask(b, "-O0")) {
        r->kind = HUNT_BISECT_NOT_A_PASS;
        r->detail = xstrdup("the bug shows at -O0 too, where gcc runs no optimisation: it is in instruction "
                            "selection, code generation, or outside the compiler proper");
        return true;
    }
    const char *more[] = {"-Q", "--help=optimizers", NULL};
    char *out = run_cc(b->cc, b->runflags, more, d);
    if (!out)
        return false;
    int n = 0;
    char **flags = hunt_gcc_enabled_flags(out, &n);
    free(out);
    /* -fno-inline-atomics makes each atomic a call into libatomic: no
     * optimisation, and code the lifter cannot read */
    for (int i = 0; i < n; i++)
        if (!strcmp(flags[i], "inline-atomics")) {
            free(flags[i]);
            memmove(flags + i, flags + i + 1, sizeof *flags * (size_t)(n - i - 1));
            n--, i--;
        }
    if (n == 0) {
        r->kind = HUNT_BISECT_NOT_A_PASS;
        r->detail = xasprintf("%s enables no optimisation flag (-Q --help=optimizers), and the bug does not show at "
                              "-O0: it is in a pass that always runs or in instruction selection",
                              level);
        strv_free(flags, n);
        return true;
    }
    int *c = xmalloc(sizeof *c * (size_t)n), *on = NULL, non = 0;
    int m = liftable(b, flags, n, c, &on, &non);
    char *left = non ? flag_list(flags, on, non, "-f") : NULL;
    char *note = left ? xasprintf(" (%s left on: without %s the test does not lift)", left,
                                  non > 1 ? "them" : "it")
                      : xstrdup("");
    int all = m < 0 ? -1 : with_off(b, flags, c, m);
    if (all < 0) {
        r->kind = HUNT_BISECT_UNKNOWN;
        r->detail = xasprintf("with the %d optimisation flags %s enables turned off (-fno-...) the test no longer "
                              "compiles or lifts: the flags cannot be narrowed",
                              n, level);
    } else if (all == 1) {
        r->kind = HUNT_BISECT_NOT_A_PASS;
        r->detail = xasprintf("the bug stays with %d of the %d optimisation flags %s enables turned off "
                              "(-fno-...)%s, and goes at -O0: it is in a pass no -f flag controls or in "
                              "instruction selection at that level",
                              m, n, level, note);
    } else {
        ddmin(b, flags, c, &m, gone, NULL, 0);
        r->flags = flag_list(flags, c, m, "-fno-");
        bool early = r->tries >= BISECT_BUDGET;
        r->kind = HUNT_BISECT_PASS;
        r->detail = xasprintf("the bug goes away with %s (%d of the %d flags %s enables)%s", r->flags, m, n, level,
                              early ? "; stopped at the try budget, the set may not be the least" : "");
    }
    free(left), free(note), free(on), free(c);
    strv_free(flags, n);
    return true;
}

bool hunt_bisect(const char *cc, const char *cflags, const char *text, hunt_pred pred, void *ctx,
                 hunt_bisect_result *r, diag *d)
{
    return hunt_bisect_with(cc, NULL, cflags, text, pred, ctx, r, d);
}

/* A cross compiler lists its passes only when told its target's flags
 * (clang without --target lists the host's; gcc without
 * -mno-outline-atomics enables other code). */
bool hunt_bisect_with(const char *cc, const char *pre, const char *cflags, const char *text, hunt_pred pred,
                      void *ctx, hunt_bisect_result *r, diag *d)
{
    memset(r, 0, sizeof *r);
    r->limit = -1;
    const char *more[] = {"--version", NULL};
    char *ver = run_cc(cc, NULL, more, d);
    if (!ver)
        return false;
    r->compiler_kind = xstrdup(strstr(ver, "clang") ? "clang"
                               : strstr(ver, "gcc") || strstr(ver, "GCC") || strstr(ver, "Free Software Foundation")
                                   ? "gcc"
                                   : "unknown");
    free(ver);
    bis b = {.cc = cc, .cflags = cflags, .text = text, .pred = pred, .ctx = ctx, .r = r};
    if (!strcmp(r->compiler_kind, "unknown")) {
        r->kind = HUNT_BISECT_UNKNOWN;
        r->detail = xasprintf("%s --version names neither gcc nor clang: no way to bisect its passes", cc);
        return true;
    }
    if (!(b.dir = file_temp_dir("litmusc-bisect")))
        return diag_fail(d, "hunt: cannot make a temporary folder: %s", strerror(errno));
    b.runflags = xasprintf("%s%s%s", pre ? pre : "", pre && *pre && cflags && *cflags ? " " : "", cflags ? cflags : "");
    bool ok = !strcmp(r->compiler_kind, "clang") ? clang_bisect(&b, d) : gcc_bisect(&b, d);
    file_remove_tree(b.dir);
    free(b.dir);
    free(b.runflags);
    return ok;
}

void hunt_bisect_free(hunt_bisect_result *r)
{
    free(r->compiler_kind);
    free(r->pass);
    free(r->function);
    free(r->flags);
    free(r->detail);
    memset(r, 0, sizeof *r);
}
