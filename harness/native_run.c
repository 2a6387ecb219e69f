/* One native run of one test: generate the runner's C source, build it
 * with the runtime (through the cache), run it under supervision and read
 * its histogram.  The steps are the backend's, the cache's and the child
 * supervisor's; this file only strings them together and decides what a
 * failure of each step means. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "harness/harness.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The runtime's files go beside test.c under their base names, as the
 * generated source includes them that way (backends/native.h). */
static harness_file *collect_files(char *source, int *n)
{
    int count = 0;
    while (native_runtime_file(count))
        count++;
    harness_file *files = xcalloc((size_t)count + 1, sizeof *files);
    files[0] = (harness_file){"test.c", source, strlen(source), true};
    for (int i = 0; i < count; i++) {
        const embed_file *e = native_runtime_file(i);
        const char *base = strrchr(e->path, '/');
        base = base ? base + 1 : e->path;
        size_t len = strlen(base);
        bool is_c = len > 2 && !strcmp(base + len - 2, ".c");
        files[i + 1] = (harness_file){base, e->data, e->len, is_c};
    }
    *n = count + 1;
    return files;
}

/* NATIVE_CFLAGS as separate words, NULL-terminated. */
static char **split_words(const char *s)
{
    size_t n = 0, cap = 0;
    char **v = NULL;
    char *copy = xstrdup(s);
    for (char *w = strtok(copy, " "); w; w = strtok(NULL, " "))
        VEC_PUSH(v, n, cap, xstrdup(w));
    VEC_PUSH(v, n, cap, NULL);
    free(copy);
    return v;
}

static void free_words(char **v)
{
    for (char **p = v; p && *p; p++)
        free(*p);
    free(v);
}

static char **runner_argv(const char *exe, char *const *extra)
{
    size_t n = 0, cap = 0;
    char **v = NULL;
    VEC_PUSH(v, n, cap, (char *)exe);
    for (char *const *a = extra; a && *a; a++)
        VEC_PUSH(v, n, cap, *a);
    VEC_PUSH(v, n, cap, NULL);
    return v;
}

/* The last line of the runner's stderr, for a one-line message. */
static void last_line(const char *err, char *buf, size_t size)
{
    size_t len = strlen(err);
    while (len && err[len - 1] == '\n')
        len--;
    size_t start = len;
    while (start && err[start - 1] != '\n')
        start--;
    snprintf(buf, size, "%.*s", (int)(len - start), err + start);
}

static bool build(const ir_test *t, const harness_native_opts *o, harness_run_result *r, diag *d)
{
    char *source = native_generate(t, &o->gen, d);
    if (!source)
        return false;
    int nfiles;
    harness_file *files = collect_files(source, &nfiles);
    /* --cflags replaces the -O2 of NATIVE_CFLAGS ("-O2 -std=c11 -pthread"):
     * the runner built as cc-check builds the test, -std and -pthread kept */
    static const char native[] = NATIVE_CFLAGS;
    const char *rest = strncmp(native, "-O2 ", 4) ? native : &native[4];
    char *line = o->cflags ? xasprintf("%s %s", o->cflags, rest) : xstrdup(native);
    char **flags = split_words(line);
    char *label = xasprintf("the %s runner", t->name);
    harness_build b = {o->cc, o->cc_version, (const char *const *)flags, o->cache_dir,
                       o->compile_timeout_s > 0 ? o->compile_timeout_s : 300, label};
    r->compiler = harness_compiler_line(o->cc, line);
    free(line);
    bool ok = harness_compile(&b, files, nfiles, &r->exe, &r->cached, d);
    free_words(flags);
    free(label);
    free(files);
    free(source);
    return ok;
}

bool harness_run_native(const ir_test *t, const harness_native_opts *o, harness_run_result *r,
                        diag *d)
{
    memset(r, 0, sizeof *r);
    double t0 = now_s();
    bool built = build(t, o, r, d);
    r->build_s = now_s() - t0;
    if (!built)
        return false;
    char **argv = runner_argv(r->exe, o->run_args);
    char *states = NULL;
    if (o->until_covered) {
        if (!(states = harness_states_arg(t, o->until_covered, d))) {
            free(argv);
            return false;
        }
        size_t n = 0;
        while (argv[n])
            n++;
        argv = xrealloc(argv, (n + 5) * sizeof *argv);
        argv[n++] = "--until-covered";
        argv[n++] = states;
        if (o->schedules && *o->schedules) {
            argv[n++] = "--schedules";
            argv[n++] = (char *)o->schedules;
        }
        argv[n] = NULL;
    }
    harness_child c;
    bool started = harness_child_run(argv, o->timeout_s, 2.0, &c, d);
    free(argv);
    free(states);
    if (!started)
        return false;
    r->run_s = c.seconds;
    r->timed_out = c.timed_out;
    r->interrupted = c.interrupted;
    int nobs = 0;
    free(ir_observables(t, &nobs));
    diag pd = {0};
    r->hist = harness_parse_histogram(c.out, c.outlen, nobs, "runner output", &pd);
    char how[96], err[256];
    harness_child_describe(&c, how, sizeof how);
    last_line(c.err, err, sizeof err);
    bool ok = true;
    if (c.timed_out)
        r->status = r->hist ? xasprintf("timed out after %.0f s: partial histogram", o->timeout_s)
                            : NULL;
    else if (c.interrupted)
        r->status = r->hist ? xstrdup("interrupted: partial histogram") : NULL;
    if (!r->hist) {
        if (c.timed_out)
            ok = diag_fail(d, "%s: the runner hung and was killed after %.0f s", t->name,
                           o->timeout_s);
        else if (c.interrupted)
            ok = diag_fail(d, "%s: interrupted before the runner printed a histogram", t->name);
        else if (c.term_signal || c.exit_status != 0)
            ok = diag_fail(d, "%s: the runner %s%s%s", t->name, how, *err ? ": " : "", err);
        else
            ok = diag_fail(d, "%s: %s:%d: %s", t->name, pd.file, pd.line, pd.msg);
    } else if (!c.timed_out && !c.interrupted && (c.term_signal || c.exit_status != 0)) {
        /* A histogram followed by a crash is not a measurement to trust. */
        ok = diag_fail(d, "%s: the runner %s after printing its histogram%s%s", t->name, how,
                       *err ? ": " : "", err);
    }
    harness_child_free(&c);
    if (!ok) {
        harness_hist_free(r->hist);
        r->hist = NULL;
    }
    return ok;
}

void harness_run_result_free(harness_run_result *r)
{
    harness_hist_free(r->hist);
    free(r->status);
    free(r->compiler);
    free(r->exe);
    memset(r, 0, sizeof *r);
}
