#ifndef LITMUSC_CLI_RUN_OPTS_H
#define LITMUSC_CLI_RUN_OPTS_H
/* The options of `litmusc run`, parsed once (cli/cmd_run.c) for every
 * target: the native runners get RUN_ARGS, the Java runner the fields it
 * understands. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "cli/cli.h"
#include "harness/harness.h"

typedef struct run_opts {
    const char *target;     /* NULL: x86 for X86 tests, c11 otherwise */
    const char *model;      /* NULL: the arch's default */
    const char *cc;
    const char *cflags;     /* native runners: flags in place of -O2; NULL: -O2 */
    const char *cache_dir;
    const char *xml;
    const char *filter;
    const char *scheme;
    const char *size, *runs, *time;   /* -s, -r, --time as given; NULL: unset */
    bool plain_relaxed;
    bool json;
    bool until_covered;     /* run until every allowed state is seen (--max-iterations bounds it) */
    bool race_fuzz;         /* --race-fuzz: aim at the states that confirm the hybrid detector's pairs */
    double timeout_s;
    char **run_args;        /* passed to every native runner, NULL-terminated */
    size_t nrun_args, run_args_cap;
    /* Options given that only native runners take (for the Java target's
     * warning), "--sync loose" aside: the Java runner sweeps loosely. */
    const char *native_only[16];
    int nnative_only;
    bool files_optional;    /* no file arguments is not an error (campaign merge...) */
} run_opts;

/* Parse ARGV (from index 1) into O.  CMD prefixes messages ("litmusc
 * run"); -h prints USAGE.  Returns -1 to go on (files from optind), else
 * the exit status to stop with. */
int run_opts_parse(run_opts *o, int argc, char **argv, const char *cmd, void (*usage)(FILE *f));
/* Free what run_opts_parse allocated (the runner arguments), whatever it returned. */
void run_opts_free(run_opts *o);
/* The runner options (and the limit with WITH_TIMEOUT) as one canonical
 * string, flags sorted: "--sync loose -r 10 -s 1000 --timeout 120". */
char *run_opts_canonical(const run_opts *o, bool with_timeout);

/* Printing finished runs, the same for every target (cli/run_print.c),
 * and counting what the exit status is made of. */
typedef struct run_printer {
    cli_json_out jo;        /* --json: the writer, flushed after each result */
    harness_report *rep;    /* --xml, or NULL */
    int forbidden;          /* results where a forbidden state was seen */
    int env_errors;         /* environment failures (exit 3) */
    int input_errors;       /* tests refused as bad input (exit 2) */
} run_printer;

void run_printer_begin(run_printer *p, bool json, const char *xml);
/* The log and verdict (or the JSON result) on stdout, and the testcase;
 * counted when V saw a forbidden state. */
void run_printer_result(run_printer *p, const ir_test *t, const char *file, const bset *b, const harness_hist *h,
                        const harness_verdict *v, const harness_runinfo *ri, double seconds);
/* A test that produced no result: the message on stderr, an error testcase;
 * counted as bad input or as an environment failure by D's status. */
void run_printer_error(run_printer *p, const char *name, const diag *d);
/* Close the JSON and write the XML report; a report that cannot be
 * written is said on stderr and counted as an environment failure. */
void run_printer_end(run_printer *p, const char *xml);
/* The exit status: a forbidden state seen wins, then an environment
 * failure, then bad input, then a --filter FILTER (NULL: none given) that
 * matched none of the tests (MATCHED of them), which is also said. */
int run_printer_status(const run_printer *p, const char *filter, int matched);

/* `run --target java` on FILES[0..NFILES). */
int run_java(const run_opts *o, char **files, int nfiles);

#endif
