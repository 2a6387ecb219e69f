/* litmusc model FILE... [--model NAME|PATH.cat] [--json] [--notes]
 *                      [--graph DIR [--format dot|svg] [--show REL,...]]
 *
 * Prints, for each test, exactly the block herd7 7.57 prints.
 * What herd does not print goes elsewhere so that block stays identical:
 * --notes adds comment lines after it (a data race's two accesses; a state
 * set settled by the solver), --json gives everything to programs, and
 * --graph writes pictures of the witness executions into a folder (the
 * harness draws and writes them; this file only passes the options on). */
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
    fprintf(f, "usage: litmusc model [--model NAME|FILE.cat] [--json] [--notes] [--unroll N] [--cut-loops]\n"
               "                     [--max-candidates N] [--timeout SEC]\n"
               "                     [--graph DIR [--format dot|svg] [--show REL,...]] FILE...\n\n"
               "Compute each test's allowed final states under a memory model and print\n"
               "them as herd7 does (States, Ok/No, Witnesses, Observation, Hash); with\n"
               "--graph, also draw every witness execution, as herd7's -show prop -gv does.\n\n"
               "  --model M       model by name (sc, x86tso, rc11, jam21, aarch64, jls04) or a .cat file;\n"
               "                  default: x86tso for X86, rc11 for C, jam21 for Java\n"
               "  --json          the results as one JSON object (schema litmusc/1, see the README)\n"
               "  --notes         after each herd block, comment lines naming a data race\n"
               "                  and saying when the solver settled the state set\n"
               "                  (jls04: one justification sequence per witness state)\n"
               "  --no-prune      build every candidate, even those the model must reject\n"
               "  --unroll N      a loop runs its body at most N times (default 2, as herd7;\n"
               "                  a test's Unroll=N line wins); a spin loop past it loses no\n"
               "                  outcome (\"Loop\" before the verdict), any other loop a\n"
               "                  consistent execution runs past it is exit 3\n"
               "  --cut-loops     drop an execution that runs any loop past its bound, as herd7\n"
               "                  does, rather than exit 3: \"Loop\" before the verdict, and a\n"
               "                  warning on stderr that outcomes may be missing\n"
               CLI_BUDGET_HELP
               "  --timeout SEC   the same as --model-timeout SEC\n"
               "  --graph DIR     one picture per execution where the condition holds, as\n"
               "                  DIR/NAME-K.dot (K: the execution's number); DIR is made if missing\n"
               "  --format F      dot (the default: Graphviz text) or svg (runs Graphviz's dot)\n"
               "  --show REL,...  also draw these relations of the model (e.g. ghb, hb, sync);\n"
               "                  po, rf, co, fr and racing pairs are always drawn\n"
               "  -h, --help      this text\n\n"
               "exit status: 0 ok, 2 bad input or usage (file:line:col: error: ...; a --show\n"
               "name the model does not define; a DIR that cannot be written), 3 internal\n"
               "failure, a limit crossed or the budget spent, or --format svg without Graphviz\n\n"
               "example: litmusc model --model x86tso SB.litmus\n"
               "example: litmusc model --graph pictures --format svg --show ghb SB.litmus\n");
}

/* --show A,B (given once or more) into NAMES; false for an empty name. */
static bool add_show(const char *list, char ***names, int *n, size_t *cap)
{
    const char *p = list;
    for (;;) {
        size_t len = strcspn(p, ",");
        if (len == 0)
            return false;
        char *name = xstrndup(p, len);
        size_t count = (size_t)*n;
        VEC_PUSH(*names, count, *cap, name);
        *n = (int)count;
        if (!p[len])
            return true;
        p += len + 1;
    }
}

static void free_names(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

int cmd_model(int argc, char **argv)
{
    const char *model_arg = NULL, *graph_dir = NULL, *format = NULL, *unroll_arg = NULL;
    const char *max_cand_arg = NULL, *timeout_arg = NULL;
    bool as_json = false, notes = false, no_prune = false, cut_loops = false, bad_show = false;
    char **show = NULL;
    int nshow = 0;
    size_t capshow = 0;
    enum { O_SHOW = 1 };
    const cli_opt opts[] = {CLI_STR("--model", &model_arg), CLI_STR("-model", &model_arg),
                            CLI_FLAG("--json", &as_json), CLI_FLAG("--notes", &notes),
                            CLI_FLAG("--races", &notes), CLI_FLAG("--no-prune", &no_prune),
                            CLI_FLAG("--cut-loops", &cut_loops), CLI_STR("--max-candidates", &max_cand_arg),
                            CLI_STR("--timeout", &timeout_arg), CLI_STR("--model-timeout", &timeout_arg),
                            CLI_STR("--graph", &graph_dir), CLI_STR("--unroll", &unroll_arg), CLI_STR("-unroll", &unroll_arg), CLI_STR("--format", &format),
                            CLI_ID("--show", O_SHOW, true), {0}};
    cli_args it;
    cli_args_init(&it, "litmusc model", argc, argv, usage);
    const char *v;
    int id;
    while ((id = cli_next(&it, opts, &v)) == O_SHOW)
        bad_show |= !add_show(v, &show, &nshow, &capshow);
    if (id != CLI_END) {
        free_names(show, nshow);
        return cli_stop(&it, id);
    }
    const char **files = it.files;
    int nfiles = it.nfiles;
    int bad = EXIT_OK;
    if (nfiles == 0) {
        usage(stderr);
        bad = EXIT_USAGE;
    } else if (format && strcmp(format, "dot") && strcmp(format, "svg")) {
        bad = cli_usage_error("litmusc model", "--format takes 'dot' or 'svg', not '%s'", format);
    } else if (bad_show) {
        bad = cli_usage_error("litmusc model",
                              "--show takes relation names separated by commas, with none empty");
    } else if ((format || nshow) && !graph_dir) {
        bad = cli_usage_error("litmusc model", "--format and --show go with --graph DIR");
    } else if (graph_dir && !*graph_dir) {
        bad = cli_usage_error("litmusc model", "--graph needs a folder name");
    } else if (!cli_set_unroll("litmusc model", unroll_arg) ||
               !cli_set_budget("litmusc model", max_cand_arg, timeout_arg)) {
        bad = EXIT_USAGE;
    }
    harness_graphs *graphs = NULL;
    if (bad == EXIT_OK && graph_dir) {
        diag d = {0};
        harness_graph_format gf = format && !strcmp(format, "svg") ? HARNESS_GRAPH_SVG : HARNESS_GRAPH_DOT;
        graphs = harness_graphs_new(graph_dir, gf, (const char *const *)show, nshow, &d);
        if (!graphs)
            bad = cli_report(&d);
    }
    free_names(show, nshow);
    if (bad != EXIT_OK) {
        free(files);
        return bad;
    }
    model_set *models = model_set_new();
    int status = EXIT_OK;
    cli_json_out jo;
    cli_json_begin(&jo, as_json, "model");
    for (int f = 0; f < nfiles; f++) {
        diag d = {0};
        ir_test *t = cli_load_test(files[f], &d);
        if (!t) {
            cli_report_worst(&d, &status);
            continue;
        }
        const char *name = model_arg ? model_arg : model_default_name(t->arch);
        model *m = model_set_get(models, name, &d);
        if (m && no_prune)
            model_set_pruning(m, false);
        if (m)
            model_set_cut_loops(m, cut_loops);
        if (m && graphs && !harness_graphs_check(graphs, m, &d)) {
            /* a --show name is the user's option: every test would fail alike */
            cli_report_worst(&d, &status);
            ir_test_free(t);
            break;
        }
        if (!m) {
            cli_report_worst(&d, &status);
            ir_test_free(t);
            if (model_arg)
                break;              /* every further test would fail the same way */
            continue;
        }
        clock_t start = clock();
        bset *b = graphs ? harness_graphs_run(graphs, m, t, &d) : model_run(m, t, &d);
        double secs = (double)(clock() - start) / CLOCKS_PER_SEC;
        if (!b) {
            if (!d.set)
                diag_fail(&d, "%s: the model run failed", files[f]);
            cli_report_worst(&d, &status);
            ir_test_free(t);
            continue;
        }
        cli_warn_cut_loop(files[f], b);
        strbuf out = {0};
        if (as_json) {
            harness_json_model(&jo.js, t, files[f], model_name(m), b, secs);
            cli_json_flush(&jo.buf);
        } else {
            bset_format_herd(&out, t, b, secs);
            if (notes && b->race)
                sb_printf(&out, "(* %s: data race between %s *)\n", t->name, b->race);
            if (notes && b->symbolic)
                sb_printf(&out, "(* %s: the state set was settled by the solver *)\n", t->name);
            if (notes && b->notes)
                sb_add(&out, b->notes);
        }
        if (out.s)
            fputs(out.s, stdout);
        cli_flush_stdout();
        sb_free(&out);
        bset_free(b);
        ir_test_free(t);
    }
    cli_json_end(&jo);
    harness_graphs_free(graphs);
    model_set_free(models);
    free(files);
    return status;
}
