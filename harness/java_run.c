/* The standalone Java runner (backends/java/javarun.h) as the harness runs
 * it: every test's class is generated, the missing ones are compiled in one
 * javac call and cached by content hash, and all tests run one after the
 * other in one JVM (JVM start-up would otherwise dominate).  Each test's
 * histogram is handed back with the run's facts; printing is the caller's.
 * Each test may take TIMEOUT seconds: at the limit the runner prints the
 * test's partial histogram and ends its JVM, and a fresh JVM runs the rest
 * (no Java thread can be stopped safely).  SIGINT/SIGTERM reach the JVM as
 * before: the test in progress prints its partial histogram. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "backends/java/javagen.h"
#include "backends/java/javaout.h"
#include "backends/java/javarun.h"
#include "harness/harness.h"
#include "util/file.h"

/* One test of the run. */
typedef struct jtest {
    const ir_test *t;       /* NULL: no Java form (reported already) */
    char key[33];
    char *pkg, *cls, *src;
    char *classes;          /* its cache folder (a classpath root) */
    bool have;              /* already compiled */
} jtest;

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The flags javac gets, part of the cache key and of the command alike. */
static const char *const javac_flags[] = {"-nowarn", "-encoding", "UTF-8", NULL};

/* The runner library's sources as build inputs. */
static harness_file *library_files(int *n)
{
    *n = 0;
    while (javarun_library_file(*n))
        (*n)++;
    harness_file *f = xcalloc((size_t)*n + 2, sizeof *f);
    for (int i = 0; i < *n; i++) {
        const embed_file *e = javarun_library_file(i);
        f[i] = (harness_file){e->path, e->data, e->len, true};
    }
    return f;
}

/* Run javac on the sources listed in ARGFILE into OUT; false + diag. */
static bool javac(const char *what, const char *classpath, const char *argfile, const char *out, diag *d)
{
    char *at = xasprintf("@%s", argfile);
    char *argv[16];
    int a = 0;
    argv[a++] = "javac";
    for (int i = 0; javac_flags[i]; i++)
        argv[a++] = (char *)javac_flags[i];
    argv[a++] = "-d";
    argv[a++] = (char *)out;
    argv[a++] = "-cp";
    argv[a++] = (char *)(classpath ? classpath : ".");
    argv[a++] = at;
    argv[a] = NULL;
    harness_child c = {0};
    harness_step_begin("javac: %s", what);
    bool ran = harness_child_run(argv, 900, 5, &c, d), ok = ran;
    harness_step_end();
    if (ran && (c.exit_status != 0 || c.timed_out)) {
        char how[160];
        harness_child_describe(&c, how, sizeof how);
        char first[600];
        snprintf(first, sizeof first, "%s", c.err && *c.err ? c.err : c.out ? c.out : "");
        ok = diag_fail(d, "javac %s:\n%s", how, first);
    }
    if (ran)
        harness_child_free(&c);
    free(at);
    return ok;
}

/* Write the files into DIR and list them in DIR/sources. */
static bool write_sources(const char *dir, const harness_file *f, int n, char **argfile, diag *d)
{
    javaout_set set = {0};
    strbuf list = {0};
    for (int i = 0; i < n; i++) {
        char *p = xasprintf("%s/%s", dir, f[i].path);
        sb_printf(&list, "\"%s\"\n", p);
        javaout_add(&set, p, xstrndup(f[i].data, f[i].len));
    }
    *argfile = xasprintf("%s/sources", dir);
    javaout_add(&set, xstrdup(*argfile), sb_take(&list));
    bool ok = javaout_write(&set, d);
    javaout_free(&set);
    return ok;
}

/* Compile the missing test classes (into a temporary folder, then moved
 * into the cache one by one). */
static bool build_tests(jtest *ts, int n, int missing, const char *tmp, const char *libdir, diag *d)
{
    harness_file *f = xcalloc((size_t)missing, sizeof *f);
    char **paths = xcalloc((size_t)missing, sizeof *paths);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (ts[i].t && !ts[i].have) {
            paths[k] = xasprintf("%s/%s.java", ts[i].key, ts[i].cls);
            f[k] = (harness_file){paths[k], ts[i].src, strlen(ts[i].src), true};
            k++;
        }
    char *src = xasprintf("%s/tests", tmp), *out = xasprintf("%s/classes", tmp), *argfile = NULL;
    bool ok = write_sources(src, f, missing, &argfile, d) && javaout_mkdirs(out, d) && javac(missing == 1 ? "1 test class" : "the test classes", libdir, argfile, out, d);
    for (int i = 0; ok && i < n; i++) {
        if (!ts[i].t || ts[i].have)
            continue;
        char *from = xasprintf("%s/litmusc/c%s", out, ts[i].key);
        char *parent = xasprintf("%s/litmusc", ts[i].classes);
        char *to = xasprintf("%s/c%s", parent, ts[i].key);
        ok = javaout_mkdirs(parent, d);
        if (ok && rename(from, to) != 0 && !is_dir(to))
            ok = diag_fail(d, "cannot move %s to %s: %s", from, to, strerror(errno));
        ts[i].have = ok;
        free(from);
        free(parent);
        free(to);
    }
    for (int i = 0; i < k; i++)
        free(paths[i]);
    free(paths);
    free(f);
    free(src);
    free(out);
    free(argfile);
    return ok;
}

/* Make sure the library and every test are compiled in the cache. */
static bool build(jtest *ts, int n, const char *root, const harness_build *hb, char **libdir, diag *d)
{
    int nlib;
    harness_file *lib = library_files(&nlib);
    char key[33];
    harness_build_key(hb, lib, nlib, key);
    *libdir = xasprintf("%s/lib-%s", root, key);
    int missing = 0;
    for (int i = 0; i < n; i++)
        missing += ts[i].t && !ts[i].have;
    bool need_lib = !is_dir(*libdir);
    if (!need_lib && !missing) {
        free(lib);
        return true;
    }
    char *tmp = xasprintf("%s/build-XXXXXX", root);
    bool ok = javaout_mkdirs(root, d);
    if (ok && !mkdtemp(tmp))
        ok = diag_fail(d, "cannot create a build folder in %s: %s", root, strerror(errno));
    if (ok && need_lib) {
        char *src = xasprintf("%s/lib", tmp), *out = xasprintf("%s/lib-classes", tmp), *argfile = NULL;
        ok = write_sources(src, lib, nlib, &argfile, d) && javaout_mkdirs(out, d) && javac("the runner library", NULL, argfile, out, d);
        if (ok && rename(out, *libdir) != 0 && !is_dir(*libdir))
            ok = diag_fail(d, "cannot move %s to %s: %s", out, *libdir, strerror(errno));
        free(src);
        free(out);
        free(argfile);
    }
    if (ok && missing)
        ok = build_tests(ts, n, missing, tmp, *libdir, d);
    file_remove_tree(tmp);
    free(tmp);
    free(lib);
    return ok;
}

/* Generate T's class and its cache key; false + diag (status 2) when T
 * has no Java form. */
static bool prepare(jtest *jt, const ir_test *t, const harness_build *hb, const harness_file *lib, int nlib,
                    const char *root, diag *d)
{
    if (!javagen_supported(t, d))
        return false;
    char *cls = javagen_class_name(t->name, NULL, 0);
    /* the key covers the library and the class as generated in a fixed
     * package; the class then lives in a package named after the key */
    char *probe = javarun_generate(t, "litmusc.generated", cls, d);
    if (!probe) {
        free(cls);
        return false;
    }
    harness_file *f = xcalloc((size_t)nlib + 1, sizeof *f);
    memcpy(f, lib, (size_t)nlib * sizeof *f);
    f[nlib] = (harness_file){"test.java", probe, strlen(probe), true};
    harness_build_key(hb, f, nlib + 1, jt->key);
    free(f);
    free(probe);
    jt->pkg = xasprintf("litmusc.c%s", jt->key);
    jt->src = javarun_generate(t, jt->pkg, cls, d);
    jt->cls = cls;
    jt->t = t;
    jt->classes = xasprintf("%s/%s", root, jt->key);
    char *marker = xasprintf("%s/litmusc/c%s/%s.class", jt->classes, jt->key, cls);
    jt->have = access(marker, R_OK) == 0;
    free(marker);
    return jt->src != NULL;
}

/* Where each test's protocol block starts in the runner's output. */
static const char *block_start(const char *s, const char *end)
{
    static const char magic[] = NATIVE_PROTOCOL_MAGIC "\n";
    for (const char *p = s; p && p < end; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if ((size_t)(end - p) >= sizeof magic - 1 && !strncmp(p, magic, sizeof magic - 1))
            return p;
    return NULL;
}

/* The exit status of a runner whose test ran past its --timeout
 * (LitmusMain.TIMED_OUT). */
#define JAVA_TIMED_OUT 124

/* One JVM for the ready tests from FROM on: each that printed a block is
 * handed its histogram; *NEXT is the first test the JVM did not reach.
 * *AGAIN: that JVM stopped at a test's own time limit, so a fresh one
 * should run the rest. */
static bool run_session(jtest *ts, int n, int from, const char *libdir, const harness_java_opts *o,
                        harness_java_result cb, void *ctx, int *next, bool *again, diag *d)
{
    strbuf cp = {0};
    sb_add(&cp, libdir);
    char **argv = xcalloc((size_t)n + 16, sizeof *argv);
    int a = 0, ready = 0;
    argv[a++] = "java";
    argv[a++] = "-XX:-UsePerfData";
    argv[a++] = JAVARUN_MAIN;
    char timeout[32];
    snprintf(timeout, sizeof timeout, "%g", o->timeout_s);
    const char *flags[][2] = {{"-s", o->size}, {"-r", o->runs}, {"--time", o->time},
                              {"--timeout", o->timeout_s > 0 ? timeout : NULL}};
    for (int i = 0; i < 4; i++)
        if (flags[i][1]) {
            argv[a++] = (char *)flags[i][0];
            argv[a++] = (char *)flags[i][1];
        }
    for (int i = from; i < n; i++)
        if (ts[i].t && ts[i].have) {
            sb_printf(&cp, ":%s", ts[i].classes);
            argv[a++] = xasprintf("%s.%s", ts[i].pkg, ts[i].cls);
            ready++;
        }
    int first_owned = a - ready;
    bool ok = true;
    *next = n;
    *again = false;
    if (!ready)
        goto out;
    /* the class path by environment: no quoting, no length limit worries */
    setenv("CLASSPATH", cp.s, 1);
    harness_child c = {0};
    /* each test keeps its own limit inside the JVM; this one only stops a
     * JVM that hangs outside any test (start-up, class loading) */
    double backstop = o->timeout_s > 0 ? o->timeout_s * ready + 30 : 0;
    if (!harness_child_run(argv, backstop, 5, &c, d)) {
        ok = false;
        goto out;
    }
    harness_runinfo ri;
    harness_machine(&ri);
    ri.target = "java";
    char *compiler = xasprintf("%s; java -XX:-UsePerfData " JAVARUN_MAIN, o->javac_version);
    ri.compiler = compiler;
    char how[200];
    harness_child_describe(&c, how, sizeof how);
    bool test_limit = !c.timed_out && !c.interrupted && c.exit_status == JAVA_TIMED_OUT;
    char *status = c.timed_out ? xasprintf("timed out after %.0f s", backstop)
                   : c.interrupted ? xstrdup("interrupted")
                                   : NULL;
    char *limit_status = xasprintf("timed out after %g s", o->timeout_s);
    const char *end = c.out + c.outlen, *p = block_start(c.out, end);
    for (int i = from; i < n; i++) {
        if (!ts[i].t || !ts[i].have)
            continue;
        diag td = {0};
        if (!p) {
            if (test_limit) {
                /* the test before this one stopped the JVM at its limit */
                *next = i;
                *again = true;
                break;
            }
            /* the JVM ended before this test printed anything */
            diag_fail(&td, "%s: the Java runner %s before this test ran%s%s", ts[i].t->file,
                      status ? status : how, c.err && *c.err ? ": " : "", c.err ? c.err : "");
            cb(ctx, i, NULL, &ri, &td);
            continue;
        }
        const char *blk_next = block_start(p + 1, end);
        const char *stop = blk_next ? blk_next : end;
        int nobs;
        free(ir_observables(ts[i].t, &nobs));
        harness_hist *h = harness_parse_histogram(p, (size_t)(stop - p), nobs, ts[i].t->file, &td);
        /* the last block of a JVM that stopped at a test's limit is that test's */
        bool this_limit = test_limit && !blk_next;
        ri.status = h && h->interrupted ? (this_limit ? limit_status : status) : NULL;
        ri.timed_out = h && h->interrupted && (c.timed_out || this_limit);
        cb(ctx, i, h, &ri, &td);
        harness_hist_free(h);
        p = blk_next;
    }
    if (!c.timed_out && !c.interrupted && c.exit_status != 0 && !test_limit)
        ok = diag_fail(d, "the Java runner %s%s%s", how, c.err && *c.err ? ": " : "", c.err ? c.err : "");
    free(status);
    free(limit_status);
    free(compiler);
    harness_child_free(&c);
out:
    unsetenv("CLASSPATH");
    for (int i = first_owned; i < a; i++)
        free(argv[i]);
    free(argv);
    sb_free(&cp);
    return ok;
}

/* Run every ready test and hand each its histogram: one JVM for all of
 * them, and a fresh one after a test that ran past its time limit. */
static bool run_all(jtest *ts, int n, const char *libdir, const harness_java_opts *o, harness_java_result cb,
                    void *ctx, diag *d)
{
    int from = 0;
    bool again = true, ok = true;
    while (ok && again && from < n && !harness_interrupted())
        ok = run_session(ts, n, from, libdir, o, cb, ctx, &from, &again, d);
    return ok;
}

bool harness_run_java(const ir_test *const *tests, int n, const harness_java_opts *o, harness_java_result cb,
                      void *ctx, diag *d)
{
    /* its classes are run: only a private folder, through its descriptor */
    char *named = harness_cache_dir(o->cache_dir);
    char *cache = harness_cache_open(named, NULL, d);
    free(named);
    if (!cache)
        return false;
    char *root = xasprintf("%s/java", cache);
    harness_build hb = {"javac", o->javac_version, javac_flags, root, 900, NULL};
    int nlib;
    harness_file *lib = library_files(&nlib);
    jtest *ts = xcalloc((size_t)n + 1, sizeof *ts);
    int ready = 0;
    for (int i = 0; i < n && !harness_interrupted(); i++) {
        diag td = {0};
        if (prepare(&ts[i], tests[i], &hb, lib, nlib, root, &td))
            ready++;
        else {
            ts[i].t = NULL;
            cb(ctx, i, NULL, NULL, &td);
        }
    }
    char *libdir = NULL;
    bool ok = true;
    if (ready && !harness_interrupted())
        ok = build(ts, n, root, &hb, &libdir, d) && run_all(ts, n, libdir, o, cb, ctx, d);
    for (int i = 0; i < n; i++) {
        free(ts[i].pkg);
        free(ts[i].cls);
        free(ts[i].src);
        free(ts[i].classes);
    }
    free(ts);
    free(lib);
    free(libdir);
    free(root);
    free(cache);
    return ok;
}
