/* litmusc model FILE... [--model NAME|PATH.cat] [--json] [--notes]
 *
 * Prints, for each test, exactly the block herd7 prints (REFERENCE §2.1).
 * What herd does not print goes elsewhere so that block stays identical:
 * --notes adds comment lines after it (a data race's two accesses; a state
 * set settled by the solver), and --json gives everything to programs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli/args.h"
#include "cli/cli.h"
#include "harness/harness.h"
#include "model/model.h"
#include "util/mem.h"


static void usage(FILE *f)
{
    fprintf(f, "usage: litmusc model [--model NAME|FILE.cat] [--json] [--notes] FILE...\n\n"
               "Compute each test's allowed final states under a memory model and print\n"
               "them as herd7 does (States, Ok/No, Witnesses, Observation, Hash).\n\n"
               "  --model M   model by name (sc, x86tso, rc11, jam21) or a .cat file;\n"
               "              default: x86tso for X86, rc11 for C, jam21 for Java\n"
               "  --json      the results as one JSON object (schema litmusc/1, see the README)\n"
               "  --notes     after each herd block, comment lines naming a data race\n"
               "              and saying when the solver settled the state set\n"
               "  --no-prune  build every candidate, even those the model must reject\n"
               "  -h, --help  this text\n\n"
               "exit status: 0 ok, 2 bad input or usage (file:line:col: error: ...),\n"
               "3 internal failure or a limit crossed\n\n"
               "example: litmusc model --model x86tso SB.litmus\n");
}

int cmd_model(int argc, char **argv)
{
    const char *model_arg = NULL;
    bool as_json = false, notes = false, no_prune = false;
    enum { O_MODEL = 1, O_JSON, O_NOTES, O_NO_PRUNE };
    static const cli_opt opts[] = {{"--model", O_MODEL, true}, {"-model", O_MODEL, true},
                                   {"--json", O_JSON, false}, {"--notes", O_NOTES, false},
                                   {"--races", O_NOTES, false}, {"--no-prune", O_NO_PRUNE, false},
                                   {0}};
    cli_args it;
    cli_args_init(&it, "litmusc model", argc, argv, usage);
    const char *v;
    int id;
    while ((id = cli_next(&it, opts, &v)) > 0) {
        switch (id) {
        case O_MODEL: model_arg = v; break;
        case O_JSON: as_json = true; break;
        case O_NOTES: notes = true; break;
        case O_NO_PRUNE: no_prune = true; break;
        }
    }
    if (id != CLI_END)
        return cli_stop(&it, id);
    const char **files = it.files;
    int nfiles = it.nfiles;
    if (nfiles == 0) {
        usage(stderr);
        free(files);
        return EXIT_USAGE;
    }
    model_set *models = model_set_new();
    int status = EXIT_OK;
    strbuf jbuf = {0};
    json js;
    json_init(&js, &jbuf);
    if (as_json)
        harness_json_begin(&js, "model");
    for (int f = 0; f < nfiles; f++) {
        diag d = {0};
        ir_test *t = cli_load_test(files[f], &d);
        if (!t) {
            int s = cli_report(&d);
            if (s > status)
                status = s;
            continue;
        }
        const char *name = model_arg ? model_arg : model_default_name(t->arch);
        model *m = model_set_get(models, name, &d);
        if (m && no_prune)
            model_set_pruning(m, false);
        if (!m) {
            int s = cli_report(&d);
            ir_test_free(t);
            if (s > status)
                status = s;
            if (model_arg)
                break;              /* every further test would fail the same way */
            continue;
        }
        clock_t start = clock();
        bset *b = model_run(m, t, &d);
        double secs = (double)(clock() - start) / CLOCKS_PER_SEC;
        if (!b) {
            if (!d.set)
                diag_fail(&d, "%s: the model run failed", files[f]);
            int s = cli_report(&d);
            if (s > status)
                status = s;
            ir_test_free(t);
            continue;
        }
        strbuf out = {0};
        if (as_json) {
            harness_json_model(&js, t, files[f], model_name(m), b, secs);
            cli_json_flush(&jbuf);
        } else {
            bset_format_herd(&out, t, b, secs);
            if (notes && b->race)
                sb_printf(&out, "(* %s: data race between %s *)\n", t->name, b->race);
            if (notes && b->symbolic)
                sb_printf(&out, "(* %s: the state set was settled by the solver *)\n", t->name);
        }
        if (out.s)
            fputs(out.s, stdout);
        fflush(stdout);
        sb_free(&out);
        bset_free(b);
        ir_test_free(t);
    }
    if (as_json) {
        harness_json_end(&js);
        sb_addc(&jbuf, '\n');
        cli_json_flush(&jbuf);
    }
    sb_free(&jbuf);
    model_set_free(models);
    free(files);
    return status;
}
