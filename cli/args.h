#ifndef LITMUSC_CLI_ARGS_H
#define LITMUSC_CLI_ARGS_H
/* The command-line walk every subcommand but `run` shares (run uses
 * getopt_long for its many options): options from a table, file
 * arguments, -h and --help, "--" before files that start with '-',
 * "--name=value", and one wording for an unknown option or a missing
 * value, followed by the subcommand's usage. */
#include <stdbool.h>
#include <stdio.h>

typedef struct cli_opt {
    const char *name;       /* as typed: "--model", "-o", "-q" */
    int id;                 /* > 0, returned by cli_next */
    bool value;             /* takes the next argument (or =value) */
} cli_opt;

typedef struct cli_args {
    const char *cmd;        /* message prefix: "litmusc model" */
    int argc;
    char **argv;
    void (*usage)(FILE *f);
    int i;                  /* next argument */
    bool files_only;        /* "--" was seen */
    const char **files;     /* the file arguments so far, NULL-terminated (malloc'd) */
    int nfiles;
} cli_args;

enum { CLI_END = 0, CLI_HELP = -1, CLI_BAD = -2 };

void cli_args_init(cli_args *a, const char *cmd, int argc, char **argv, void (*usage)(FILE *f));
/* The next option's id (> 0; its value in *VALUE when it takes one), file
 * arguments being collected on the way; CLI_END after the last argument;
 * CLI_HELP once the usage is printed on stdout; CLI_BAD once a complaint
 * and the usage are printed on stderr.  OPTS ends with a zero id. */
int cli_next(cli_args *a, const cli_opt *opts, const char **value);
/* After CLI_HELP or CLI_BAD: frees the files and returns the exit status
 * (EXIT_OK or EXIT_USAGE). */
int cli_stop(cli_args *a, int last);

#endif
