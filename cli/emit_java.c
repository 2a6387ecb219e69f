/* litmusc emit --target java FILE... -o DIR [--package P]
 *
 * The standalone Java stress runner's sources: the runner library
 * (the .java files of DIR/litmusc/runner) and one LitmusCase class per test
 * (DIR/<package folders>/NAME.java).  Built and run with a plain JDK:
 *   javac -d classes $(find DIR -name '*.java')
 *   java -cp classes litmusc.runner.LitmusMain [-s N] [-r N] P.NAME...
 * Everything is generated before anything is written, all or nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "backends/java/javagen.h"
#include "backends/java/javaout.h"
#include "backends/java/javarun.h"
#include "cli/args.h"
#include "cli/cli.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: litmusc emit --target java FILE... -o DIR [--package P]\n"
            "Write the standalone Java stress runner: its library under DIR/litmusc/runner/\n"
            "and one class per litmus test (Java and C tests) as DIR/<package folders>/NAME.java.\n\n"
            "  -o DIR         output folder (without it, one test's class goes to stdout)\n"
            "  --package P    Java package of the test classes (default litmusc.generated)\n\n"
            "then: javac -d classes $(find DIR -name '*.java')\n"
            "      java -cp classes " JAVARUN_MAIN " [-s N] [-r N] [--time SEC] P.NAME...\n\n"
            "exit status: 0 written, 2 bad input or usage (file:line:col: error: ...),\n"
            "3 internal failure\n\n"
            "example: litmusc emit --target java SB.litmus MP.litmus -o java-src\n");
}

int emit_java(int argc, char **argv)
{
    emit_opts eo;
    int parsed = emit_parse(argc, argv, EMIT_OUT | EMIT_PACKAGE, usage, &eo);
    if (parsed >= 0)
        return parsed;
    const char *out = eo.out, *package = eo.package;
    const char **files = eo.files;
    int nfiles = eo.nfiles;
    javaout_set set = {0};
    char **taken = xcalloc((size_t)nfiles + 1, sizeof *taken);
    int st = EXIT_OK;
    diag d = {0};
    for (int i = 0; i < nfiles && st == EXIT_OK; i++) {
        ir_test *t = cli_load_test(files[i], &d);
        char *src = NULL;
        if (t) {
            taken[i] = javagen_class_name(t->name, (const char *const *)taken, i);
            src = javarun_generate(t, package, taken[i], &d);
        }
        if (src)
            javaout_add(&set, out ? javaout_source_path(out, package, taken[i]) : xstrdup("-"), src);
        else
            st = cli_report(&d);
        ir_test_free(t);
    }
    if (st == EXIT_OK && out) {
        for (int i = 0; javarun_library_file(i); i++) {
            const embed_file *f = javarun_library_file(i);
            javaout_add(&set, xasprintf("%s/litmusc/runner/%s", out, strrchr(f->path, '/') + 1),
                        xstrdup(f->data));
        }
    }
    if (st == EXIT_OK)
        st = cli_emit_set(&set, !out);
    for (int i = 0; i < nfiles; i++)
        free(taken[i]);
    free(taken);
    javaout_free(&set);
    free(files);
    return st;
}
