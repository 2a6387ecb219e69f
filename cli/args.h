#ifndef LITMUSC_CLI_ARGS_H
#define LITMUSC_CLI_ARGS_H
/* The command-line walk every subcommand but `run` shares (run uses
 * getopt_long for its many options): options from a table, file
 * arguments, -h and --help, "--" before files that start with '-',
 * "--name=value", and one wording for an unknown option or a missing
 * value, followed by the subcommand's usage; and the tables that pick a
 * subcommand or an emit target by name. */
#include <stdbool.h>
#include <stdio.h>

typedef struct cli_opt {
    const char *name;       /* as typed: "--model", "-o", "-q"; NULL ends a table */
    int id;                 /* > 0, returned by cli_next */
    bool value;             /* takes the next argument (or =value) */
    const char **str;       /* or: where the value goes, and the walk goes on */
    bool *flag;             /* or: set to true, and the walk goes on */
} cli_opt;

/* Table rows for options that only store what they were given: a flag, or
 * a value kept as typed (the last one wins). */
#define CLI_FLAG(n, p) {.name = (n), .flag = (p)}
#define CLI_STR(n, p) {.name = (n), .value = true, .str = (p)}
/* A row whose id cli_next returns, for an option with work of its own. */
#define CLI_ID(n, i, v) {.name = (n), .id = (i), .value = (v)}

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
/* cli_args_init, then the whole walk over a table of CLI_FLAG and CLI_STR
 * rows: -1 to go on with the files in A, else the exit status (help
 * printed, or a complaint: an option's, or "no input files" where
 * NEED_FILES and there are none). */
int cli_parse(cli_args *a, const char *cmd, int argc, char **argv, void (*usage)(FILE *f), const cli_opt *opts,
              bool need_files);
/* The compilers and flag sets of cc-check and hunt: --cc CC and --cflags
 * FLAGS, each repeatable, at most CLI_MAX_CCS of each (the configurations
 * are their product). */
enum { CLI_MAX_CCS = 32 };
typedef struct cli_ccs {
    const char *cc[CLI_MAX_CCS], *cflags[CLI_MAX_CCS];
    int ncc, ncflags;
    bool cc_default;    /* no --cc was given: cc[0] is the default, which a caller may replace */
} cli_ccs;
/* The whole walk over OPTS (CLI_FLAG and CLI_STR rows) and --cc and
 * --cflags into C, which default to "cc" and "-O2" when none is given:
 * CLI_END, or CLI_HELP / CLI_BAD as cli_next returns them (CLI_BAD too,
 * with a complaint, for one --cc or --cflags more than CLI_MAX_CCS). */
int cli_walk_ccs(cli_args *a, const cli_opt *opts, cli_ccs *c);
/* A number of seconds as an option gives it: positive, at most a week.
 * False (and *SECONDS untouched) for anything else. */
bool cli_parse_seconds(const char *v, double *seconds);

/* A row of a table of subcommands (main.c) or of emit targets (cmd_emit.c):
 * the name as typed, what runs it, and its line in the usage. */
typedef struct cli_verb {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} cli_verb;
/* "  NAME SUMMARY" for each of the N rows of T, the names padded to WIDTH. */
void cli_verbs_list(FILE *f, const cli_verb *t, size_t n, int width);
/* The row of T named NAME, or NULL. */
const cli_verb *cli_verb_find(const cli_verb *t, size_t n, const char *name);

#endif
