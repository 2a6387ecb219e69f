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

typedef struct emit_args {
    const char *out, *package, *model;
    const char **files;
    int nfiles;
} emit_args;

/* -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, emit_args *a)
{
    a->package = "litmusc.generated";
    enum { O_TARGET = 1, O_OUT, O_PACKAGE, O_MODEL };
    static const cli_opt opts[] = {{"--target", O_TARGET, true}, {"-o", O_OUT, true},
                                   {"--package", O_PACKAGE, true}, {"--model", O_MODEL, true}, {0}};
    cli_args it;
    cli_args_init(&it, "litmusc emit", argc, argv, usage);
    const char *v;
    int id;
    while ((id = cli_next(&it, opts, &v)) > 0) {
        switch (id) {
        case O_TARGET: break;   /* cmd_emit chose this file by it */
        case O_OUT: a->out = v; break;
        case O_PACKAGE: a->package = v; break;
        case O_MODEL: a->model = v; break;
        }
    }
    if (id != CLI_END)
        return cli_stop(&it, id);
    a->files = it.files;
    a->nfiles = it.nfiles;
    if (a->nfiles == 0) {
        fprintf(stderr, "litmusc emit: no test files given\n");
        return EXIT_USAGE;
    }
    if (!a->out && a->nfiles > 1) {
        fprintf(stderr, "litmusc emit: -o DIR is needed for more than one test\n");
        return EXIT_USAGE;
    }
    if (!javagen_valid_package(a->package)) {
        fprintf(stderr, "litmusc emit: '%s' is not a valid Java package name\n", a->package);
        return EXIT_USAGE;
    }
    return -1;
}

/* Load, model and generate one file; its class name joins TAKEN. */
static bool emit_one(const emit_args *a, const char *path, model_set *ms, char ***taken, int *ntaken,
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
    emit_args a = {0};
    int st = parse_args(argc, argv, &a);
    if (st >= 0) {
        free(a.files);
        return st;
    }
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
    free(a.files);
    return st;
}
