/* The options of every `emit` target in one table: each target names the
 * ones it takes, so a flag is spelled, parsed and refused (with the same
 * words) in one place, and the checks all targets need are made here. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "backends/java/javagen.h"
#include "cli/args.h"
#include "cli/cli.h"

static const struct {
    const char *name;
    unsigned bit;
    size_t field;           /* the emit_opts member its value goes to */
} all_opts[] = {
    {"-o", EMIT_OUT, offsetof(emit_opts, out)},
    {"--scheme", EMIT_SCHEME, offsetof(emit_opts, scheme)},
    {"--map", EMIT_MAP, offsetof(emit_opts, map)},
    {"--package", EMIT_PACKAGE, offsetof(emit_opts, package)},
    {"--model", EMIT_MODEL, offsetof(emit_opts, model)},
    {"--plain", EMIT_PLAIN, offsetof(emit_opts, plain)},
};
enum { N_OPTS = sizeof all_opts / sizeof *all_opts };

int emit_parse(int argc, char **argv, unsigned accept, void (*usage)(FILE *f), emit_opts *o)
{
    memset(o, 0, sizeof *o);
    /* --target is how cmd_emit chose the target: taken and ignored here */
    const char *target;
    cli_opt opts[N_OPTS + 2] = {CLI_STR("--target", &target)};
    int n = 1;
    for (int i = 0; i < N_OPTS; i++)
        if (accept & all_opts[i].bit)
            opts[n++] = (cli_opt)CLI_STR(all_opts[i].name, (const char **)((char *)o + all_opts[i].field));
    opts[n] = (cli_opt){0};
    cli_args it;
    int st = cli_parse(&it, "litmusc emit", argc, argv, usage, opts, false);
    if (st >= 0)
        return st;
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
