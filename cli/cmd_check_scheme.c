/* `litmusc check-scheme --scheme S [--source-model M] [--herd PATH] FILE...`:
 * for each test, B(compile(P) under x86-TSO) must be a subset of
 * B(P under M).  A test the source model calls undefined (a C data race
 * under RC11) holds trivially.  Prints pass, or fail with each witness
 * state in source names and the x86 program that shows it; exit 1 on any
 * failure, 2 on bad input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "backends/x86/x86.h"
#include "backends/x86litmus/x86litmus.h"
#include "cli/args.h"
#include "cli/cli.h"
#include "frontend/frontend.h"
#include "harness/harness.h"
#include "ir/lower.h"
#include "model/model.h"
#include "util/mem.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: litmusc check-scheme --scheme NAME|PATH [--source-model M] [--target-model M]\n"
               "                            [--herd PATH [--timeout SEC]] [--reparse] [-q]\n"
               "                            [--max-candidates N] [--model-timeout SEC] FILE...\n\n"
               "Compile each C or Java test to x86 through the scheme and check that every\n"
               "final state the x86 program allows is one the source model allows.\n\n"
               "  --scheme S        compilation scheme (shipped:");
    cli_print_schemes(f);
    fprintf(f, ")\n"
               "  --source-model M  model of the source (default: rc11 for C, jam21 for Java)\n"
               "  --target-model M  model of the compiled x86 program (default x86tso; a .cat path)\n"
               "  --herd PATH       compute the x86 side with this herd7 instead of in-process\n"
               "  --timeout SEC     stop a herd7 run after SEC seconds (default 120)\n"
               "  --reparse         also read the printed x86 test back through the X86 frontend\n"
               "                    and check that it has the same behaviour as the in-process one\n"
               "  -q                print failures and the summary only\n"
               CLI_BUDGET_HELP
               "  -h, --help        this text\n\n"
               "exit status: 0 the scheme is sound on every test, 1 a test shows a state\n"
               "the source model forbids (printed with a witness), 2 bad input or usage,\n"
               "3 internal or environment failure (herd7 missing or failing), a limit\n"
               "crossed or the budget spent\n\n"
               "example: litmusc check-scheme --scheme java-x86-hotspot tests/corpus/java/classic/*.litmus\n");
}

/* "0:r0=0 /\ 1:r0=0" */
static char *format_witness(const ir_test *t, const bset *b, const ir_val *vals)
{
    strbuf s = {0};
    for (int i = 0; i < b->nobs; i++) {
        char v[96];
        ir_format_val(t, vals[i], v, sizeof v);
        if (i)
            sb_add(&s, " /\\ ");
        if (b->obs[i].kind == IR_OBS_REG)
            sb_printf(&s, "%d:%s=%s", b->obs[i].thread, b->obs[i].reg, v);
        else
            sb_printf(&s, "[%s]=%s", t->locs[b->obs[i].loc].name, v);
    }
    if (!b->nobs)
        sb_add(&s, "true");
    return sb_take(&s);
}

typedef struct opts {
    const char *herd;
    const char *source_model;
    bool quiet;
    bool reparse;
    double timeout_s;       /* for each herd7 run */
} opts;

/* Read the printed program back through the frontend and compute its
 * behaviour under x86tso: it must equal the in-process target set BT
 * (both over source observables). */
static bool reparse_agrees(const char *text, const bset *bs, const bset *bt, const ir_test *src, const x86_prog *p,
                           const model *x86tso, diag *d)
{
    /* A lock's waiting XCHG has no loop-free text: read back it would be a
     * plain XCHG, a program that does not wait.  Nothing to compare. */
    int wt;
    if (x86_prog_first_wait(p, &wt) || ir_first_cut(p->target))
        return true;
    fe_test *ft = fe_parse(text, strlen(text), "<compiled x86>", d);
    ir_test *t2 = ft ? ir_lower(ft, d) : NULL;
    fe_test_free(ft);
    if (!t2)
        return false;
    bset *b2 = model_run(x86tso, t2, d);
    bset *r = b2 ? harness_project_states(bs, b2, t2, src, p, true, d) : NULL;
    bool ok = r != NULL;
    if (ok) {
        bool same = r->nstates == bt->nstates;
        for (int k = 0; same && k < r->nstates; k++)
            same = bset_find(bt, r->states[k].vals) >= 0;
        if (!same)
            ok = diag_fail(d, "internal error: %s read back through the X86 frontend has %d x86 states, in-process %d",
                           src->name, r->nstates, bt->nstates);
    }
    bset_free(r);
    bset_free(b2);
    ir_test_free(t2);
    return ok;
}

/* Check one test.  Returns EXIT_OK (holds), EXIT_FOUND (fails) or the
 * status of an error (reported here). */
static int check_one(const char *file, const x86_scheme *s, const opts *o, const model *x86tso)
{
    diag d = {0};
    int status = EXIT_OK;
    model *src_model = NULL;
    bset *bs = NULL, *bt = NULL;
    x86_prog *p = NULL;
    char *text = NULL;
    ir_test *t = cli_load_test(file, &d);
    if (!t)
        return cli_report(&d);
    const char *mname = o->source_model ? o->source_model : model_default_name(t->arch);
    if (!(src_model = model_load(mname, &d)) || !(p = x86_compile(t, s, &d)) || !(bs = model_run(src_model, t, &d))) {
        status = cli_report(&d);
        goto done;
    }
    text = x86litmus_print(p);
    if (bs->undef) {
        if (!o->quiet)
            printf("pass %s: undefined under %s, so any x86 behaviour is allowed\n", t->name, model_name(src_model));
        goto done;
    }
    const char *how = model_name(x86tso);
    if (o->herd && p->herd_ok) {
        char *out = harness_herd_run(o->herd, text, o->timeout_s, &d);
        bt = out ? x86litmus_read_herd(out, p, bs->obs, bs->nobs, &d) : NULL;
        free(out);
        how = "herd7";
    } else {
        bt = model_run(x86tso, p->target, &d);
        if (o->herd && !o->quiet)
            printf("note %s: %s; using the in-process model\n", t->name, p->herd_note);
    }
    if (!bt) {
        status = cli_report(&d);
        goto done;
    }
    if (!o->herd || !p->herd_ok) {
        /* In-process: project onto the source's observables. */
        bset *pr = harness_project_states(bs, bt, p->target, t, p, false, &d);
        bset_free(bt);
        bt = pr;
        if (!bt || (o->reparse && !reparse_agrees(text, bs, bt, t, p, x86tso, &d))) {
            status = cli_report(&d);
            goto done;
        }
    }
    ir_val *vals = xcalloc((size_t)bs->nobs + 1, sizeof *vals);
    int nbad = 0;
    for (int k = 0; k < bt->nstates; k++) {
        memcpy(vals, bt->states[k].vals, (size_t)bs->nobs * sizeof *vals);
        if (bset_find(bs, vals) >= 0)
            continue;
        if (nbad++ == 0)
            printf("FAIL %s: x86 under %s%s shows states that %s forbids\n", t->name, strcmp(how, "herd7") ? "in-process " : "",
                   how, model_name(src_model));
        char *w = format_witness(t, bs, vals);
        printf("  witness: %s\n", w);
        free(w);
    }
    if (nbad) {
        printf("  x86 program (scheme %s):\n", x86_scheme_name(s));
        for (const char *l = text; *l;) {
            const char *e = strchr(l, '\n');
            int n = e ? (int)(e - l) : (int)strlen(l);
            printf("    %.*s\n", n, l);
            l += n + (e ? 1 : 0);
        }
        status = EXIT_FOUND;
    } else if (!o->quiet) {
        printf("pass %s: %d x86 states, all among the %d allowed by %s\n", t->name, bt->nstates, bs->nstates,
               model_name(src_model));
    }
    free(vals);
done:
    free(text);
    bset_free(bs);
    bset_free(bt);
    x86_prog_free(p);
    model_free(src_model);
    ir_test_free(t);
    return status;
}

int cmd_check_scheme(int argc, char **argv)
{
    const char *scheme_arg = NULL, *target_model = "x86tso";
    opts o = {.timeout_s = 120};
    const char *timeout = NULL, *max_cand_arg = NULL, *model_timeout = NULL;
    const cli_opt opts[] = {CLI_STR("--scheme", &scheme_arg), CLI_STR("--source-model", &o.source_model),
                            CLI_STR("--herd", &o.herd), CLI_STR("--target-model", &target_model),
                            CLI_FLAG("-q", &o.quiet), CLI_FLAG("--reparse", &o.reparse),
                            CLI_STR("--timeout", &timeout), CLI_STR("--max-candidates", &max_cand_arg),
                            CLI_STR("--model-timeout", &model_timeout), {0}};
    cli_args it;
    int st = cli_parse(&it, "litmusc check-scheme", argc, argv, usage, opts, false);
    if (st >= 0)
        return st;
    if (timeout && !cli_parse_seconds(timeout, &o.timeout_s)) {
        fprintf(stderr, "litmusc check-scheme: --timeout needs a positive number of seconds, not '%s'\n", timeout);
        free(it.files);
        return EXIT_USAGE;
    }
    if (!cli_set_budget("litmusc check-scheme", max_cand_arg, model_timeout)) {
        free(it.files);
        return EXIT_USAGE;
    }
    const char **files = it.files;
    int nfiles = it.nfiles;
    if (!scheme_arg || nfiles == 0) {
        fprintf(stderr, "litmusc check-scheme: %s\n", !scheme_arg ? "--scheme is required" : "no input files");
        usage(stderr);
        free(files);
        return EXIT_USAGE;
    }
    diag d = {0};
    x86_scheme *s = x86_scheme_load(scheme_arg, &d);
    model *x86tso = s ? model_load(target_model, &d) : NULL;
    if (!x86tso) {
        x86_scheme_free(s);
        free(files);
        return cli_report(&d);
    }
    int npass = 0, nfail = 0, nerr = 0, worst = EXIT_OK;
    for (int i = 0; i < nfiles; i++) {
        int st = check_one(files[i], s, &o, x86tso);
        if (st == EXIT_OK)
            npass++;
        else if (st == EXIT_FOUND)
            nfail++;
        else
            nerr++;
        if (st != EXIT_OK && (worst == EXIT_OK || (worst == EXIT_FOUND && st != EXIT_FOUND)))
            worst = st;
        cli_flush_stdout();
    }
    printf("check-scheme %s: %d tests, %d pass, %d fail, %d errors\n", x86_scheme_name(s), nfiles, npass, nfail, nerr);
    model_free(x86tso);
    x86_scheme_free(s);
    free(files);
    return worst;
}
