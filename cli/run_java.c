/* litmusc run --target java FILE... [-s N] [-r N] [--time SEC] [--timeout SEC]
 *                                    [--model M] [--cache-dir DIR] [--filter RE]
 *                                    [--json] [--xml FILE]
 * (parsed by cli/cmd_run.c; the native runners' options are ignored here)
 *
 * Loads and models the tests, has the harness run them all in one JVM
 * (harness/java_run.c), and prints each result as the native run prints
 * it: the litmus7-compatible log and the verdict against the behaviour
 * set, or the JSON result.  Exit 1 when a forbidden state was observed, 2
 * for bad input, 3 when the environment failed (no JDK, a crash, the time
 * limit, an interrupt). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/run_opts.h"
#include "harness/harness.h"
#include "model/model.h"

/* One loaded test. */
typedef struct jtest {
    const char *path;
    ir_test *t;
    races *rc;              /* the model's races; rc->b the behaviour set */
    const model *m;
} jtest;

typedef struct java_ctx {
    const run_opts *o;
    jtest *ts;              /* the tests handed to the harness, in its order */
    run_printer out;
} java_ctx;

/* The harness's callback: one test's result, printed as it comes. */
static void print_one(void *vctx, int i, const harness_hist *h, harness_runinfo *ri, const diag *rd)
{
    java_ctx *cx = vctx;
    jtest *jt = &cx->ts[i];
    if (!h) {
        run_printer_error(&cx->out, jt->t->name, rd);
        return;
    }
    ri->model = model_name(jt->m);
    diag d = {0};
    harness_verdict v;
    if (!harness_compare(jt->t, jt->rc->b, h, &v, &d)) {
        run_printer_error(&cx->out, jt->t->name, &d);
        return;
    }
    harness_races_seen(&v, jt->rc, h);
    run_printer_result(&cx->out, jt->t, jt->path, jt->rc->b, h, &v, ri, h->elapsed);
    if (h->interrupted && ri->status)
        cx->out.env_errors++;
    harness_verdict_free(&v);
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
    char *javac_version = harness_java_version(&d);
    if (!javac_version) {
        harness_filter_free(flt);
        return cli_report(&d);
    }
    harness_signals_install();
    java_ctx cx = {.o = o};
    run_printer_begin(&cx.out, o->json, o->xml);
    /* load and model every test; those that fail are reported and left out */
    cx.ts = xcalloc((size_t)nfiles + 1, sizeof *cx.ts);
    const ir_test **tests = xcalloc((size_t)nfiles + 1, sizeof *tests);
    model_set *ms = model_set_new();
    int n = 0, matched = 0;
    for (int i = 0; i < nfiles && !harness_interrupted(); i++) {
        d = (diag){0};
        ir_test *t = cli_load_test(files[i], &d);
        if (!t) {
            run_printer_error(&cx.out, files[i], &d);
            continue;
        }
        if (flt && !harness_filter_match(flt, t->name)) {
            ir_test_free(t);
            continue;
        }
        matched++;
        const char *mname = o->model ? o->model : model_default_name(t->arch);
        model *m = model_set_get(ms, mname, &d);
        races *rc = m ? races_run(m, t, &d) : NULL;
        if (!rc) {
            run_printer_error(&cx.out, t->name, &d);
            ir_test_free(t);
            continue;
        }
        cx.ts[n] = (jtest){files[i], t, rc, m};
        tests[n++] = t;
    }
    harness_java_opts jo = {o->size, o->runs, o->time, o->timeout_s, o->cache_dir, javac_version};
    d = (diag){0};
    if (n && !harness_interrupted() && !harness_run_java(tests, n, &jo, print_one, &cx, &d))
        run_printer_error(&cx.out, "java", &d);
    run_printer_end(&cx.out, o->xml);
    if (harness_interrupted())
        cx.out.env_errors++;
    int st = run_printer_status(&cx.out, flt ? o->filter : NULL, matched);
    for (int i = 0; i < n; i++) {
        races_free(cx.ts[i].rc);
        ir_test_free(cx.ts[i].t);
    }
    free(cx.ts);
    free(tests);
    model_set_free(ms);
    free(javac_version);
    harness_filter_free(flt);
    return st;
}
