/* One finished run printed the same way for every target (run_opts.h):
 * the litmus7 log and the verdict, or the JSON result, and with --xml its
 * JUnit testcase. */
#include <stdio.h>
#include <stdlib.h>
#include "cli/cli.h"
#include "cli/run_opts.h"

void run_printer_begin(run_printer *p, bool json, const char *xml)
{
    *p = (run_printer){0};
    p->rep = xml ? harness_report_new("litmusc run") : NULL;
    cli_json_begin(&p->jo, json, "run");
}

void run_printer_result(run_printer *p, const ir_test *t, const char *file, const bset *b, const harness_hist *h,
                        const harness_verdict *v, const harness_runinfo *ri, double seconds)
{
    if (p->jo.on) {
        harness_json_run(&p->jo.js, t, file, b, h, v, ri);
        cli_json_flush(&p->jo.buf);
    } else {
        strbuf out = {0};
        harness_format_log(&out, t, h);
        harness_format_verdict(&out, t, b, h, v, ri);
        fputs(out.s, stdout);
        sb_free(&out);
    }
    cli_flush_stdout();
    if (v->nforbidden)
        p->forbidden++;
    if (!p->rep)
        return;
    strbuf detail = {0};
    harness_format_log(&detail, t, h);
    harness_format_verdict(&detail, t, b, h, v, ri);
    char *msg = v->nforbidden ? xasprintf("%d forbidden state(s) observed %llu time(s)", v->nforbidden,
                                          (unsigned long long)v->forbidden_count)
                : ri->status  ? xstrdup(ri->status)
                              : xstrdup("no forbidden state observed");
    harness_result res = v->nforbidden ? HARNESS_FAIL : ri->status ? HARNESS_ERROR : HARNESS_PASS;
    char *cls = xasprintf("litmusc.%s.%s", ri->target, ri->model);
    harness_report_add(p->rep, t->name, cls, res, msg, detail.s, seconds);
    free(cls);
    free(msg);
    sb_free(&detail);
}

void run_printer_error(run_printer *p, const char *name, const diag *d)
{
    cli_report(d);
    if (d->status == EXIT_USAGE)
        p->input_errors++;
    else
        p->env_errors++;
    if (p->rep) {
        char msg[DIAG_MSG_MAX + 300];
        diag_format(d, msg, sizeof msg);
        harness_report_add(p->rep, name, "litmusc", HARNESS_ERROR, msg, NULL, 0);
    }
}

void run_printer_end(run_printer *p, const char *xml)
{
    cli_json_end(&p->jo);
    cli_flush_stdout();
    diag d = {0};
    if (p->rep && !harness_report_write(p->rep, xml, &d)) {
        cli_report(&d);
        p->env_errors++;
    }
    harness_report_free(p->rep);
    p->rep = NULL;
}

int run_printer_status(const run_printer *p, const char *filter, int matched)
{
    if (filter && matched == 0 && !p->input_errors && !p->env_errors)
        fprintf(stderr, "litmusc run: no test matches --filter '%s'\n", filter);
    return p->forbidden ? EXIT_FOUND
           : p->env_errors ? EXIT_INTERNAL
           : p->input_errors ? EXIT_USAGE
           : filter && matched == 0 ? EXIT_USAGE
                                    : EXIT_OK;
}
