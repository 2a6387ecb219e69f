/* litmusc races [--model NAME|PATH.cat] [--detector D] [--json] FILE...
 *
 * For each test, every distinct pair of accesses that race in some
 * consistent execution under the model (model/races.h), one line each, and
 * a closing count:
 *   Race NAME P0:2 (f:5:3) W na x <-> P1:1 (f:9:12) R rlx x in execution K
 *   Races NAME N
 * Exit 1 when a C test races (Java defines its plain races; x86 has none).
 * With --detector, the pairs each race detector reports (model/detectors.h),
 * the nesting of their reports and why a pair is missed:
 *   Race NAME hb P0:0 (f:5:3) W rlx y <-> P1:0 (f:9:12) R acq y in execution K
 *   Races NAME hb N
 *   Nested NAME exact 0 <= hb 1 <= hybrid 2 <= lockset 2
 *   Why NAME PAIR: missed by exact, hb: ordered by ... (execution K) */
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
    fprintf(f, "usage: litmusc races [--model NAME|FILE.cat] [--detector D] [--json] [--unroll N]\n"
               "                     [--cut-loops] [--max-candidates N] [--timeout SEC] FILE...\n\n"
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
               "  --model M   model by name (sc, x86tso, rc11, jam21, aarch64, jls04) or a .cat file;\n"
               "              default: x86tso for X86, rc11 for C, jam21 for Java\n"
               "  --detector D  the pairs race detector D reports over the consistent\n"
               "              executions: exact (the race above), hb (pure happens-before\n"
               "              by vector clocks over po and sw; atomics synchronise, so two\n"
               "              of them never race), hybrid (no common lock and not\n"
               "              ordered by thread start/join: every conflicting pair of two\n"
               "              threads in a lock-free test), lockset (Eraser's state machine),\n"
               "              or all.  Lines `Race NAME D SIDE <-> SIDE in execution K`,\n"
               "              `Races NAME D N`, then `Nested NAME exact N <= hb N <= ...` and\n"
               "              per pair a detector misses `Why NAME PAIR: missed by D...: WHY`\n"
               "  --json      the results as one JSON object (schema litmusc/1, see the README),\n"
               "              with the number of executions where each pair races\n"
               "  --unroll N  loops run their body at most N times (as litmusc model)\n"
               "  --cut-loops drop an execution that runs any loop past its bound, as herd7\n"
               "              does (as litmusc model): its races are not listed\n"
               CLI_BUDGET_HELP
               "  --timeout SEC  the same as --model-timeout SEC\n"
               "  -h, --help  this text\n\n"
               "exit status: 0 no race (Java's benign ones aside), 1 a C test races (even\n"
               "when another file failed; with --detector D: D reports a pair, with all:\n"
               "exact does), else 2 bad input or usage (file:line:col: error: ...), 3\n"
               "internal failure, a limit crossed or the budget spent, or detectors whose\n"
               "reports do not nest\n\n"
               "example: litmusc races tests/corpus/c11/na2/MP+ponarel+poconna.litmus\n"
               "         litmusc races --detector all tests/corpus/c11/classic/*.litmus\n");
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

/* The text form of what the detectors in SEL report. */
static void print_detectors(strbuf *out, const ir_test *t, const char *file, const detectors *r, unsigned sel)
{
    for (int d = 0; d < DET_N; d++) {
        if (!((sel >> d) & 1))
            continue;
        for (int k = 0; k < r->npairs; k++) {
            const detectors_pair *p = &r->pairs[k];
            if (!((p->mask >> d) & 1))
                continue;
            sb_printf(out, "Race %s %s ", t->name, detect_names[d]);
            races_format_pair(out, t, file, &(races_pair){.a = p->a, .b = p->b});
            sb_printf(out, " in execution %llu%s\n", (unsigned long long)p->first[d],
                      p->benign ? RACES_BENIGN : "");
        }
        sb_printf(out, "Races %s %s %d\n", t->name, detect_names[d], r->count[d]);
    }
    sb_printf(out, "Nested %s", t->name);
    for (int d = 0; d < DET_N; d++)
        sb_printf(out, "%s%s %d", d ? " <= " : " ", detect_names[d], r->count[d]);
    sb_add(out, "\n");
    for (int k = 0; k < r->npairs; k++) {
        const detectors_pair *p = &r->pairs[k];
        int edge = detectors_boundary(p);
        if (edge < 0 || !(sel & ~p->mask))
            continue;
        sb_printf(out, "Why %s ", t->name);
        races_format_pair(out, t, file, &(races_pair){.a = p->a, .b = p->b});
        sb_add(out, ": missed by");
        for (int d = 0; d < DET_N; d++)
            if (!((p->mask >> d) & 1))
                sb_printf(out, "%s%s", d && !((p->mask >> (d - 1)) & 1) ? ", " : " ", detect_names[d]);
        sb_printf(out, ": %s\n", p->why[edge] ? p->why[edge] : "?");
    }
}

/* One test under the detectors in SEL; false after a diag (D set). */
static bool run_detectors(const model *m, const ir_test *t, const char *file, unsigned sel, cli_json_out *jo,
                          bool *found, diag *d)
{
    clock_t start = clock();
    detectors *r = detectors_run(m, t, d);
    double secs = (double)(clock() - start) / CLOCKS_PER_SEC;
    if (!r)
        return false;
    cli_warn_cut_loop(file, r->b);
    /* with all, exact says whether the test races; a single detector
     * answers for itself */
    int rule = sel == DET_ALL ? DET_EXACT : __builtin_ctz(sel);
    *found |= r->harmful[rule] > 0;
    if (jo->on) {
        harness_json_detectors(&jo->js, t, file, model_name(m), r, sel, secs);
        cli_json_flush(&jo->buf);
    } else {
        strbuf out = {0};
        print_detectors(&out, t, file, r, sel);
        fputs(out.s, stdout);
        sb_free(&out);
    }
    cli_flush_stdout();
    int bad, det;
    bool ok = detectors_nested(r, &bad, &det);
    if (!ok) {
        strbuf pair = {0};
        races_format_pair(&pair, t, file, &(races_pair){.a = r->pairs[bad].a, .b = r->pairs[bad].b});
        diag_fail(d, "%s: the detectors do not nest: %s reports %s, %s does not", t->name, detect_names[det],
                  pair.s, detect_names[det + 1]);
        sb_free(&pair);
    }
    detectors_free(r);
    return ok;
}

int cmd_races(int argc, char **argv)
{
    const char *model_arg = NULL, *detector_arg = NULL, *unroll_arg = NULL;
    const char *max_cand_arg = NULL, *timeout_arg = NULL;
    bool as_json = false, cut_loops = false;
    const cli_opt opts[] = {CLI_STR("--model", &model_arg), CLI_STR("-model", &model_arg),
                            CLI_STR("--detector", &detector_arg), CLI_FLAG("--json", &as_json),
                            CLI_STR("--unroll", &unroll_arg), CLI_FLAG("--cut-loops", &cut_loops),
                            CLI_STR("--max-candidates", &max_cand_arg), CLI_STR("--timeout", &timeout_arg),
                            CLI_STR("--model-timeout", &timeout_arg), {0}};
    cli_args it;
    int st = cli_parse(&it, "litmusc races", argc, argv, usage, opts, true);
    if (st >= 0)
        return st;
    if (!cli_set_unroll("litmusc races", unroll_arg) ||
        !cli_set_budget("litmusc races", max_cand_arg, timeout_arg)) {
        free(it.files);
        return EXIT_USAGE;
    }
    unsigned sel = detector_arg ? detect_parse(detector_arg) : 0;
    if (detector_arg && !sel) {
        cli_usage_error("litmusc races", "unknown detector '%s' (exact, hb, hybrid, lockset or all)", detector_arg);
        free(it.files);
        return EXIT_USAGE;
    }
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
        if (m)
            model_set_cut_loops(m, cut_loops);
        if (sel && m) {
            if (!run_detectors(m, t, file, sel, &jo, &found, &d)) {
                if (!d.set)
                    diag_fail(&d, "%s: the model run failed", file);
                cli_report_worst(&d, &status);
            }
            ir_test_free(t);
            continue;
        }
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
        cli_warn_cut_loop(file, r->b);
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
