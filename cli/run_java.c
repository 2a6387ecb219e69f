/* litmusc run --target java FILE... [-s N] [-r N] [--time SEC] [--timeout SEC]
 *                                    [--model M] [--cache-dir DIR] [--filter RE]
 *                                    [--json] [--xml FILE]
 * (parsed by cli/cmd_run.c; the native runners' options are ignored here)
 *
 * The standalone Java runner (backends/java/javarun.h): every test's class
 * is generated, the missing ones are compiled in one javac call and cached
 * by content hash, and all tests run one after the other in one JVM (JVM
 * start-up would otherwise dominate).  Each test's histogram is then
 * printed as the native run prints it (harness/): the litmus7-compatible
 * log and the verdict against the behaviour set.  The JVM may take
 * --timeout seconds per test; at the limit it is stopped (SIGTERM: the
 * test in progress still prints its partial histogram, then SIGKILL).
 * Exit 1 when a forbidden state was observed, 2 for bad input, 3 when the
 * environment failed (no JDK, a crash, the time limit, an interrupt). */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "backends/java/javagen.h"
#include "backends/java/javaout.h"
#include "backends/java/javarun.h"
#include "cli/cli.h"
#include "cli/run_opts.h"
#include "harness/harness.h"
#include "model/model.h"

/* One test of the run. */
typedef struct jtest {
    const char *path;
    ir_test *t;
    bset *b;
    const model *m;
    char key[33];
    char *pkg, *cls, *src;
    char *classes;          /* its cache folder (a classpath root) */
    bool have;              /* already compiled */
} jtest;

/* ---- the cache ------------------------------------------------------------------ */

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

static void rm_tree(const char *dir)
{
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

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
static bool javac(const char *classpath, const char *argfile, const char *out, diag *d)
{
    char *at = xasprintf("@%s", argfile);
    char *argv[] = {"javac", "-nowarn", "-encoding", "UTF-8", "-d", (char *)out,
                    "-cp", (char *)(classpath ? classpath : "."), at, NULL};
    harness_child c = {0};
    bool ran = harness_child_run(argv, 900, 5, &c, d), ok = ran;
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

/* Make sure the library and every test are compiled in the cache. */
static bool build(jtest *ts, int n, const char *root, const harness_build *hb, char **libdir,
                  diag *d)
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
        ok = write_sources(src, lib, nlib, &argfile, d) && javaout_mkdirs(out, d) &&
             javac(NULL, argfile, out, d);
        if (ok && rename(out, *libdir) != 0 && !is_dir(*libdir))
            ok = diag_fail(d, "cannot move %s to %s: %s", out, *libdir, strerror(errno));
        free(src);
        free(out);
        free(argfile);
    }
    if (ok && missing) {
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
        ok = write_sources(src, f, missing, &argfile, d) && javaout_mkdirs(out, d) &&
             javac(*libdir, argfile, out, d);
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
    }
    rm_tree(tmp);
    free(tmp);
    free(lib);
    return ok;
}

/* ---- one test ------------------------------------------------------------------- */

typedef struct counts {
    int forbidden, env, input;
} counts;

static model *get_model(model ***ms, char ***names, int *n, const char *name, diag *d)
{
    for (int i = 0; i < *n; i++)
        if (!strcmp((*names)[i], name))
            return (*ms)[i];
    model *m = model_load(name, d);
    if (m) {
        *ms = xrealloc(*ms, (size_t)(*n + 1) * sizeof **ms);
        *names = xrealloc(*names, (size_t)(*n + 1) * sizeof **names);
        (*ms)[*n] = m;
        (*names)[(*n)++] = xstrdup(name);
    }
    return m;
}

static void report_diag(harness_report *rep, const char *name, const diag *d, counts *k)
{
    cli_report(d);
    if (d->status == EXIT_USAGE)
        k->input++;
    else
        k->env++;
    if (rep) {
        char msg[DIAG_MSG_MAX + 300];
        diag_format(d, msg, sizeof msg);
        harness_report_add(rep, name, "litmusc", HARNESS_ERROR, msg, NULL, 0);
    }
}

/* Load, model and generate; on failure the test is reported and left out. */
static void prepare(jtest *jt, const run_opts *o, const harness_filter *flt, model ***ms, char ***mnames,
                    int *nm, const harness_build *hb, const harness_file *lib, int nlib,
                    const char *root, harness_report *rep, counts *k, bool *skipped)
{
    diag d = {0};
    *skipped = false;
    ir_test *t = cli_load_test(jt->path, &d);
    if (!t) {
        report_diag(rep, jt->path, &d, k);
        return;
    }
    if (flt && !harness_filter_match(flt, t->name)) {
        *skipped = true;
        ir_test_free(t);
        return;
    }
    const char *mname = o->model ? o->model : model_default_name(t->arch);
    model *m = javagen_supported(t, &d) ? get_model(ms, mnames, nm, mname, &d) : NULL;
    bset *b = m ? model_run(m, t, &d) : NULL;
    char *cls = javagen_class_name(t->name, NULL, 0);
    /* the key covers the library and the class as generated in a fixed
     * package; the class then lives in a package named after the key */
    char *probe = b ? javarun_generate(t, "litmusc.generated", cls, &d) : NULL;
    if (!probe) {
        report_diag(rep, t->name, &d, k);
        free(cls);
        if (b)
            bset_free(b);
        ir_test_free(t);
        return;
    }
    harness_file *f = xcalloc((size_t)nlib + 1, sizeof *f);
    memcpy(f, lib, (size_t)nlib * sizeof *f);
    f[nlib] = (harness_file){"test.java", probe, strlen(probe), true};
    harness_build_key(hb, f, nlib + 1, jt->key);
    free(f);
    free(probe);
    jt->pkg = xasprintf("litmusc.c%s", jt->key);
    jt->src = javarun_generate(t, jt->pkg, cls, &d);
    jt->cls = cls;
    jt->t = t;
    jt->b = b;
    jt->m = m;
    jt->classes = xasprintf("%s/%s", root, jt->key);
    char *marker = xasprintf("%s/litmusc/c%s/%s.class", jt->classes, jt->key, cls);
    jt->have = access(marker, R_OK) == 0;
    free(marker);
}

/* Where each test's protocol block starts in the runner's output. */
static const char *block_start(const char *s, const char *end)
{
    static const char magic[] = "litmusc-histogram 1\n";
    for (const char *p = s; p && p < end; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if ((size_t)(end - p) >= sizeof magic - 1 && !strncmp(p, magic, sizeof magic - 1))
            return p;
    return NULL;
}

static void print_one(const run_opts *o, jtest *jt, const harness_hist *h, const harness_runinfo *ri,
                      harness_report *rep, json *js, counts *k)
{
    diag d = {0};
    harness_verdict v;
    if (!harness_compare(jt->t, jt->b, h, &v, &d)) {
        report_diag(rep, jt->t->name, &d, k);
        return;
    }
    strbuf out = {0};
    if (o->json) {
        harness_json_run(js, jt->t, jt->path, jt->b, h, &v, ri);
        cli_json_flush(js->out);
    } else {
        harness_format_log(&out, jt->t, h);
        harness_format_verdict(&out, jt->t, jt->b, h, &v, ri);
        fputs(out.s, stdout);
    }
    fflush(stdout);
    if (rep) {
        strbuf detail = {0};
        harness_format_log(&detail, jt->t, h);
        harness_format_verdict(&detail, jt->t, jt->b, h, &v, ri);
        char *msg = v.nforbidden ? xasprintf("%d forbidden state(s) observed %llu time(s)", v.nforbidden,
                                             (unsigned long long)v.forbidden_count)
                    : ri->status ? xstrdup(ri->status)
                                 : xstrdup("no forbidden state observed");
        harness_result res = v.nforbidden ? HARNESS_FAIL : ri->status ? HARNESS_ERROR : HARNESS_PASS;
        char *cls = xasprintf("litmusc.java.%s", ri->model);
        harness_report_add(rep, jt->t->name, cls, res, msg, detail.s, h->elapsed);
        free(cls);
        free(msg);
        sb_free(&detail);
    }
    if (v.nforbidden)
        k->forbidden++;
    sb_free(&out);
    harness_verdict_free(&v);
}

/* Run every ready test in one JVM and print their results. */
static void run_all(const run_opts *o, jtest *ts, int n, const char *libdir, const char *javac_version,
                    harness_report *rep, counts *k, json *js)
{
    strbuf cp = {0};
    sb_add(&cp, libdir);
    char **argv = xcalloc((size_t)n + 16, sizeof *argv);
    int a = 0, ready = 0;
    argv[a++] = "java";
    argv[a++] = "-XX:-UsePerfData";
    argv[a++] = JAVARUN_MAIN;
    const char *flags[][2] = {{"-s", o->size}, {"-r", o->runs}, {"--time", o->time}};
    for (int i = 0; i < 3; i++)
        if (flags[i][1]) {
            argv[a++] = (char *)flags[i][0];
            argv[a++] = (char *)flags[i][1];
        }
    for (int i = 0; i < n; i++)
        if (ts[i].t && ts[i].have) {
            sb_printf(&cp, ":%s", ts[i].classes);
            argv[a++] = xasprintf("%s.%s", ts[i].pkg, ts[i].cls);
            ready++;
        }
    int first_owned = a - ready;
    if (!ready) {
        sb_free(&cp);
        free(argv);
        return;
    }
    /* the class path by environment: no quoting, no length limit worries */
    setenv("CLASSPATH", cp.s, 1);
    diag d = {0};
    harness_child c = {0};
    if (!harness_child_run(argv, o->timeout_s * ready, 5, &c, &d)) {
        report_diag(rep, "java", &d, k);
        goto out;
    }
    harness_runinfo ri;
    harness_machine(&ri);
    ri.target = "java";
    char *compiler = xasprintf("%s; java -XX:-UsePerfData " JAVARUN_MAIN, javac_version);
    ri.compiler = compiler;
    char how[200];
    harness_child_describe(&c, how, sizeof how);
    char *status = c.timed_out ? xasprintf("timed out after %.0f s", o->timeout_s * ready)
                   : c.interrupted ? xstrdup("interrupted")
                                   : NULL;
    const char *end = c.out + c.outlen, *p = block_start(c.out, end);
    for (int i = 0; i < n; i++) {
        if (!ts[i].t || !ts[i].have)
            continue;
        if (!p) {
            /* the JVM ended before this test printed anything */
            diag_fail(&d, "%s: the Java runner %s before this test ran%s%s", ts[i].path,
                      status ? status : how, c.err && *c.err ? ": " : "", c.err ? c.err : "");
            report_diag(rep, ts[i].t->name, &d, k);
            d = (diag){0};
            continue;
        }
        const char *next = block_start(p + 1, end);
        const char *stop = next ? next : end;
        int nobs;
        free(ir_observables(ts[i].t, &nobs));
        harness_hist *h = harness_parse_histogram(p, (size_t)(stop - p), nobs, ts[i].path, &d);
        if (!h) {
            report_diag(rep, ts[i].t->name, &d, k);
            d = (diag){0};
        } else {
            ri.model = model_name(ts[i].m);
            ri.status = h->interrupted ? status : NULL;
            ri.timed_out = h->interrupted && c.timed_out;
            print_one(o, &ts[i], h, &ri, rep, js, k);
            if (h->interrupted && status)
                k->env++;
            harness_hist_free(h);
        }
        p = next;
    }
    if (!c.timed_out && !c.interrupted && c.exit_status != 0) {
        fprintf(stderr, "litmusc run: the Java runner %s%s%s\n", how, c.err && *c.err ? ": " : "",
                c.err ? c.err : "");
        k->env++;
    }
    free(status);
    free(compiler);
    harness_child_free(&c);
out:
    unsetenv("CLASSPATH");
    for (int i = first_owned; i < a; i++)
        free(argv[i]);
    free(argv);
    sb_free(&cp);
}

int run_java(const run_opts *o, char **files, int nfiles)
{
    for (int i = 0; i < o->nnative_only; i++)
        fprintf(stderr, "litmusc run: %s does not apply to the java target; ignored\n",
                o->native_only[i]);
    diag d = {0};
    harness_filter *flt = NULL;
    if (o->filter && !(flt = harness_filter_new(o->filter, &d)))
        return cli_report(&d);
    char *javac_version = harness_cc_version("javac", &d);
    if (!javac_version) {
        harness_filter_free(flt);
        diag_fail(&d, "the java target needs a JDK (javac and java in PATH): %s", d.msg);
        return cli_report(&d);
    }
    harness_signals_install();
    harness_report *rep = o->xml ? harness_report_new("litmusc run") : NULL;
    char *cache = harness_cache_dir(o->cache_dir);
    char *root = xasprintf("%s/java", cache);
    harness_build hb = {"javac", javac_version, javac_flags, root, 900};
    int nlib;
    harness_file *lib = library_files(&nlib);
    int n = nfiles, nm = 0, tests = 0;
    jtest *ts = xcalloc((size_t)n + 1, sizeof *ts);
    model **ms = NULL;
    char **mnames = NULL;
    counts k = {0};
    for (int i = 0; i < n && !harness_interrupted(); i++) {
        bool skipped;
        ts[i].path = files[i];
        prepare(&ts[i], o, flt, &ms, &mnames, &nm, &hb, lib, nlib, root, rep, &k, &skipped);
        tests += !skipped && ts[i].t;
    }
    char *libdir = NULL;
    strbuf jbuf = {0};
    json js;
    json_init(&js, &jbuf);
    if (o->json)
        harness_json_begin(&js, "run");
    if (tests && !harness_interrupted()) {
        if (build(ts, n, root, &hb, &libdir, &d))
            run_all(o, ts, n, libdir, javac_version, rep, &k, &js);
        else
            report_diag(rep, "javac", &d, &k);
    }
    if (o->json) {
        harness_json_end(&js);
        sb_addc(&jbuf, '\n');
        cli_json_flush(&jbuf);
    }
    sb_free(&jbuf);
    fflush(stdout);
    d = (diag){0};
    if (rep && !harness_report_write(rep, o->xml, &d)) {
        cli_report(&d);
        k.env++;
    }
    if (harness_interrupted())
        k.env++;
    if (flt && tests == 0 && !k.input && !k.env)
        fprintf(stderr, "litmusc run: no test matches --filter '%s'\n", o->filter);
    int st = k.forbidden ? EXIT_FOUND
         : k.env ? EXIT_INTERNAL
         : k.input ? EXIT_USAGE
         : flt && tests == 0 ? EXIT_USAGE
                             : EXIT_OK;
    for (int i = 0; i < n; i++) {
        free(ts[i].pkg);
        free(ts[i].cls);
        free(ts[i].src);
        free(ts[i].classes);
        if (ts[i].b)
            bset_free(ts[i].b);
        ir_test_free(ts[i].t);
    }
    free(ts);
    for (int i = 0; i < nm; i++) {
        model_free(ms[i]);
        free(mnames[i]);
    }
    free(ms);
    free(mnames);
    free(lib);
    free(libdir);
    free(root);
    free(cache);
    free(javac_version);
    harness_filter_free(flt);
    harness_report_free(rep);
    return st;
}
