/* litmusc emit --target jcstress FILE... -o DIR [--package P] [--model M]
 *
 * One jcstress test source per litmus test, DIR/<package path>/CLASS.java,
 * with its @Outcome annotations from the test's behaviour set.  Every test
 * is loaded, modelled and generated before anything is written, and the
 * files are written all or nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "backends/java/javagen.h"
#include "backends/java/javaout.h"
#include "backends/jcstress/jcstress.h"
#include "cli/args.h"
#include "cli/cli.h"
#include "model/model.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: litmusc emit --target jcstress FILE... -o DIR [--package P] [--model M]\n"
            "Write one jcstress test class per litmus test (Java and C tests) as\n"
            "DIR/<package folders>/NAME.java, with an @Outcome per state the model allows.\n\n"
            "  -o DIR         output folder (without it, one test's source goes to stdout)\n"
            "  --package P    Java package (default litmusc.generated)\n"
            "  --model M      memory model name or .cat path (default: jam21 for Java,\n"
            "                 rc11 for C)\n\n"
            "exit status: 0 written, 2 bad input or usage (file:line:col: error: ...),\n"
            "3 internal failure\n\n"
            "example: litmusc emit --target jcstress SB.litmus -o jcstress-tests/src/main/java\n");
}

/* Load, model and generate one file; its class name joins TAKEN. */
static bool emit_one(const emit_opts *a, const char *path, model_set *ms, char ***taken, int *ntaken,
                     javaout_set *set, diag *d)
{
    ir_test *t = cli_load_test(path, d);
    if (!t)
        return false;
    if (!javagen_supported(t, d)) {
        ir_test_free(t);
        return false;
    }
    const char *mname = a->model ? a->model : model_default_name(t->arch);
    model *m = model_set_get(ms, mname, d);
    bset *b = m ? model_run(m, t, d) : NULL;
    bool ok = false;
    if (b) {
        char *cls = javagen_class_name(t->name, (const char *const *)*taken, *ntaken);
        jcstress_opts o = {a->package, cls, model_name(m)};
        char *src = jcstress_generate(t, b, &o, d);
        if (src) {
            javaout_add(set, a->out ? javaout_source_path(a->out, a->package, cls) : xstrdup("-"), src);
            *taken = xrealloc(*taken, (size_t)(*ntaken + 1) * sizeof **taken);
            (*taken)[(*ntaken)++] = cls;
            ok = true;
        } else {
            free(cls);
        }
        bset_free(b);
    }
    ir_test_free(t);
    return ok;
}

int emit_jcstress(int argc, char **argv)
{
    emit_opts a;
    int st = emit_parse(argc, argv, EMIT_OUT | EMIT_PACKAGE | EMIT_MODEL, usage, &a);
    if (st >= 0)
        return st;
    model_set *ms = model_set_new();
    javaout_set set = {0};
    char **taken = NULL;
    int ntaken = 0;
    diag d = {0};
    st = EXIT_OK;
    for (int i = 0; i < a.nfiles && st == EXIT_OK; i++)
        if (!emit_one(&a, a.files[i], ms, &taken, &ntaken, &set, &d))
            st = cli_report(&d);
    if (st == EXIT_OK)
        st = cli_emit_set(&set, !a.out);
    for (int i = 0; i < ntaken; i++)
        free(taken[i]);
    free(taken);
    javaout_free(&set);
    model_set_free(ms);
    emit_opts_free(&a);
    return st;
}
