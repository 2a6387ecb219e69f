/* litmusc: dispatch to a subcommand. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli/args.h"
#include "cli/cli.h"

static const cli_verb subcommands[] = {
    {"gen", cmd_gen, "generate litmus tests from cycles of relaxations (diy7's vocabulary)"},
    {"parse", cmd_parse, "print litmus tests back in canonical herd syntax"},
    {"ir", cmd_ir, "print the SSA IR of litmus tests"},
    {"model", cmd_model, "compute the behaviour set under a memory model (herd7 output)"},
    {"races", cmd_races, "list the data races of tests: racing pairs of accesses under the model"},
    {"emit", cmd_emit, "generate code: x86-litmus, jcstress, java, c11, x86"},
    {"run", cmd_run, "build and run native or Java stress harnesses, compare with the model"},
    {"check-scheme", cmd_check_scheme, "check a compilation scheme to x86 against the source model"},
    {"cc-check", cmd_cc_check, "compile C tests with gcc/clang, lift the machine code, check it against the model"},
    {"hunt", cmd_hunt, "hunt compiler bugs: generated tests, many compilers, reduced, bisected, confirmed"},
    {"models", cmd_models, "list the built-in memory models, or print one's cat file"},
    {"campaign", cmd_campaign, "many runs into one SQLite database: resume, shard, merge, report, diff"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: litmusc COMMAND [OPTIONS] FILE...\n\ncommands:\n");
    cli_verbs_list(f, subcommands, sizeof subcommands / sizeof *subcommands, 13);
    fprintf(f, "\n'litmusc COMMAND --help' describes a command.\n"
               "exit status: 0 ok, 1 the check found something, 2 bad input or usage,\n"
               "3 internal or environment failure\n");
}

/* Whatever a command wrote to stdout must have reached it: a full disk or
 * a closed pipe is a failure (exit 3 with the system's reason), never a
 * silent exit 0.  Checked once here, for every command. */
static int close_stdout(int status)
{
    errno = 0;
    bool bad = !cli_flush_stdout();
    int why = cli_stdout_errno();
    if (fclose(stdout) != 0) {
        bad = true;
        if (!why)
            why = errno;
    }
    if (!bad)
        return status;
    fprintf(stderr, "%s: error: writing <stdout>: %s\n", cli_command, strerror(why ? why : EIO));
    return status > EXIT_INTERNAL ? status : EXIT_INTERNAL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return close_stdout(EXIT_OK);
    }
    if (!strcmp(argv[1], "--version")) {
        printf("litmusc %s\n", LITMUSC_VERSION);
        return close_stdout(EXIT_OK);
    }
    const cli_verb *sub = cli_verb_find(subcommands, sizeof subcommands / sizeof *subcommands, argv[1]);
    if (sub) {
        static char prefix[64];
        snprintf(prefix, sizeof prefix, "litmusc %s", sub->name);
        cli_command = prefix;
        cli_show_steps();
        return close_stdout(sub->run(argc - 1, argv + 1));
    }
    fprintf(stderr, "litmusc: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return EXIT_USAGE;
}
