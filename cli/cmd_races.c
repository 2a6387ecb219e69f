/* litmusc races [--model NAME|PATH.cat] [--json] FILE...
 *
 * For each test, every distinct pair of accesses that race in some
 * consistent execution under the model (model/races.h), one line each, and
 * a closing count:
 *   Race NAME P0:2 (f:5:3) W na x <-> P1:1 (f:9:12) R rlx x in execution K
 *   Races NAME N
 * Exit 1 when a C test races (Java defines its plain races; x86 has none). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "cli/args.h"
#include "cli/cli.h"
#include "harness/harness.h"
#include "model/races.h"
#include "util/mem.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: litmusc races [--model NAME|FILE.cat] [--json] FILE...\n\n"
               "List the data races of each test: every pair of accesses of one location,\n"
               "from two threads, at least one a write and not both atomic, that happens-\n"
               "before orders in neither direction in some consistent execution of the\n"
               "model (RC11's race; in Java the same with VarHandle modes).  One line per\n"
               "distinct pair, then a count:\n"
               "  Race NAME P0:2 (FILE:LINE:COL) W na x <-> P1:1 (FILE:LINE:COL) R rlx x in execution K\n"
               "  Races NAME N\n"
               "P0:2 is the thread and the access's place in its program order, W/R/RW\n"
               "(an RMW) what it does, then its mode (C: na rlx con acq rel acq_rel sc;\n"
               "Java: plain opaque acquire release volatile) and location; K is the first\n"
               "execution (1, 2, ... as the model finds them) where the pair races.  Java's\n"
               "races are marked benign (Java defines plain races); an X86 test has none\n"
               "(every x86 access is atomic): `Races NAME 0`.\n\n"
               "  --model M   model by name (sc, x86tso, rc11, jam21, jls04) or a .cat file;\n"
               "              default: x86tso for X86, rc11 for C, jam21 for Java\n"
               "  --json      the results as one JSON object (schema litmusc/1, see the README),\n"
               "              with the number of executions where each pair races\n"
               "  -h, --help  this text\n\n"
               "exit status: 0 no race (Java's benign ones aside), 1 a C test races (even\n"
               "when another file failed), else 2 bad input or usage (file:line:col: error:\n"
               "...), 3 internal failure or a limit crossed\n\n"
               "example: litmusc races tests/corpus/c11/na2/MP+ponarel+poconna.litmus\n");
}

/* The text form of one test's races. */
static void print_races(strbuf *out, const ir_test *t, const char *file, const races *r)
{
    for (int k = 0; k < r->npairs; k++) {
        const races_pair *p = &r->pairs[k];
        sb_printf(out, "Race %s ", t->name);
        races_format_pair(out, t, file, p);
        sb_printf(out, " in execution %llu%s\n", (unsigned long long)p->first,
                  p->benign ? RACES_BENIGN : "");
    }
    sb_printf(out, "Races %s %d\n", t->name, r->npairs);
}

int cmd_races(int argc, char **argv)
{
    const char *model_arg = NULL;
    bool as_json = false;
    const cli_opt opts[] = {CLI_STR("--model", &model_arg), CLI_STR("-model", &model_arg),
                            CLI_FLAG("--json", &as_json), {0}};
    cli_args it;
    int st = cli_parse(&it, "litmusc races", argc, argv, usage, opts, true);
    if (st >= 0)
        return st;
    model_set *models = model_set_new();
    int status = EXIT_OK;
    bool found = false;
    cli_json_out jo;
    cli_json_begin(&jo, as_json, "races");
    for (int f = 0; f < it.nfiles; f++) {
        const char *file = it.files[f];
        diag d = {0};
        ir_test *t = cli_load_test(file, &d);
        model *m = t ? model_set_get(models, model_arg ? model_arg : model_default_name(t->arch), &d) : NULL;
        clock_t start = clock();
        races *r = m ? races_run(m, t, &d) : NULL;
        double secs = (double)(clock() - start) / CLOCKS_PER_SEC;
        if (!r) {
            if (!d.set)
                diag_fail(&d, "%s: the model run failed", file);
            cli_report_worst(&d, &status);
            ir_test_free(t);
            if (t && !m && model_arg)
                break;              /* every further test would fail the same way */
            continue;
        }
        found |= r->nharmful > 0;
        if (as_json) {
            harness_json_races(&jo.js, t, file, model_name(m), r, secs);
            cli_json_flush(&jo.buf);
        } else {
            strbuf out = {0};
            print_races(&out, t, file, r);
            fputs(out.s, stdout);
            sb_free(&out);
        }
        cli_flush_stdout();
        races_free(r);
        ir_test_free(t);
    }
    cli_json_end(&jo);
    model_set_free(models);
    free(it.files);
    return found ? EXIT_FOUND : status;
}
