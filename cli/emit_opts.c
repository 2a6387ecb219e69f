/* The options of every `emit` target in one table: each target names the
 * ones it takes, so a flag is spelled, parsed and refused (with the same
 * words) in one place, and the checks all targets need are made here. */
#include <stdlib.h>
#include <string.h>
#include "backends/java/javagen.h"
#include "cli/args.h"
#include "cli/cli.h"

static const struct {
    cli_opt opt;
    unsigned bit;
} all_opts[] = {
    {{"-o", EMIT_OUT, true}, EMIT_OUT},
    {{"--scheme", EMIT_SCHEME, true}, EMIT_SCHEME},
    {{"--map", EMIT_MAP, true}, EMIT_MAP},
    {{"--package", EMIT_PACKAGE, true}, EMIT_PACKAGE},
    {{"--model", EMIT_MODEL, true}, EMIT_MODEL},
    {{"--plain", EMIT_PLAIN, true}, EMIT_PLAIN},
};
enum { N_OPTS = sizeof all_opts / sizeof *all_opts, O_TARGET = 1 << 10 };

int emit_parse(int argc, char **argv, unsigned accept, void (*usage)(FILE *f), emit_opts *o)
{
    memset(o, 0, sizeof *o);
    /* --target is how cmd_emit chose the target: taken and ignored here */
    cli_opt opts[N_OPTS + 2] = {{"--target", O_TARGET, true}};
    int n = 1;
    for (int i = 0; i < N_OPTS; i++)
        if (accept & all_opts[i].bit)
            opts[n++] = all_opts[i].opt;
    opts[n] = (cli_opt){0};
    cli_args it;
    cli_args_init(&it, "litmusc emit", argc, argv, usage);
    const char *v;
    int id;
    while ((id = cli_next(&it, opts, &v)) > 0) {
        switch (id) {
        case EMIT_OUT: o->out = v; break;
        case EMIT_SCHEME: o->scheme = v; break;
        case EMIT_MAP: o->map = v; break;
        case EMIT_PACKAGE: o->package = v; break;
        case EMIT_MODEL: o->model = v; break;
        case EMIT_PLAIN: o->plain = v; break;
        }
    }
    if (id != CLI_END)
        return cli_stop(&it, id);
    o->files = it.files;
    o->nfiles = it.nfiles;
    if ((accept & EMIT_PACKAGE) && !o->package)
        o->package = EMIT_DEFAULT_PACKAGE;
    char problem[300] = "";
    if (o->nfiles == 0)
        snprintf(problem, sizeof problem, "no input files");
    else if (o->nfiles > 1 && !o->out)
        snprintf(problem, sizeof problem, "several tests need -o FOLDER");
    else if (o->plain && strcmp(o->plain, "volatile") && strcmp(o->plain, "relaxed"))
        snprintf(problem, sizeof problem, "--plain takes 'volatile' or 'relaxed', not '%.200s'", o->plain);
    else if (o->package && !javagen_valid_package(o->package))
        snprintf(problem, sizeof problem, "--package '%.200s' is not a valid Java package name", o->package);
    if (problem[0]) {
        fprintf(stderr, "litmusc emit: %s\n", problem);
        usage(stderr);
        emit_opts_free(o);
        return EXIT_USAGE;
    }
    return -1;
}

void emit_opts_free(emit_opts *o)
{
    free(o->files);
    o->files = NULL;
    o->nfiles = 0;
}
