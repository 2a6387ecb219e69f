#ifndef LITMUSC_CLI_CLI_H
#define LITMUSC_CLI_CLI_H
/* The command line: one file per subcommand (cli/cmd_NAME.c), and for
 * `emit` and `run` one file per target.  Only this layer prints. */
#include <stdbool.h>
#include <stdio.h>
#include "ir/ir.h"
#include "util/diag.h"
#include "util/json.h"
#include "util/mem.h"

#define LITMUSC_VERSION "0.1.0"

/* Exit statuses (every subcommand). */
enum { EXIT_OK = 0, EXIT_FOUND = 1, EXIT_USAGE = 2, EXIT_INTERNAL = 3 };

int cmd_gen(int argc, char **argv);
int cmd_parse(int argc, char **argv);
int cmd_ir(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_races(int argc, char **argv);
int cmd_emit(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_check_scheme(int argc, char **argv);
int cmd_campaign(int argc, char **argv);
int cmd_cc_check(int argc, char **argv);
int cmd_models(int argc, char **argv);
int cmd_hunt(int argc, char **argv);

/* `emit --target T`: each gets the full argument vector of `emit`. */
int emit_x86_litmus(int argc, char **argv);
int emit_jcstress(int argc, char **argv);
int emit_java(int argc, char **argv);
int emit_c11(int argc, char **argv);
int emit_x86_native(int argc, char **argv);

/* The options of the emit targets (cli/emit_opts.c); a target takes those
 * whose bits it passes to emit_parse. */
enum { EMIT_OUT = 1, EMIT_SCHEME = 2, EMIT_MAP = 4, EMIT_PACKAGE = 8, EMIT_MODEL = 16, EMIT_PLAIN = 32 };
#define EMIT_DEFAULT_PACKAGE "litmusc.generated"
typedef struct emit_opts {
    const char *out, *scheme, *map, *package, *model, *plain;   /* NULL: not given */
    const char **files;     /* the test files (malloc'd) */
    int nfiles;
} emit_opts;
/* Parse an emit target's arguments: -1 to go on, else the exit status
 * (after --help, or a usage error printed with the usage).  Refuses no
 * files, several files without -o, a --plain other than volatile or
 * relaxed, and a --package that is no Java package name (default
 * EMIT_DEFAULT_PACKAGE where the target takes one). */
int emit_parse(int argc, char **argv, unsigned accept, void (*usage)(FILE *f), emit_opts *o);
void emit_opts_free(emit_opts *o);

/* `emit` of Java sources: SET's one file to stdout (TO_STDOUT), else SET
 * written and its paths listed; returns the exit status. */
struct javaout_set;
int cli_emit_set(struct javaout_set *set, bool to_stdout);

/* fflush(stdout), remembering the reason of the first failure for main's
 * final check (exit 3 "writing <stdout>: REASON"); false when stdout has
 * failed so far.  cli_stdout_errno: that reason, 0 while none. */
bool cli_flush_stdout(void);
int cli_stdout_errno(void);
/* "litmusc CMD", the prefix of every message (set by main). */
extern const char *cli_command;
/* Print "litmusc CMD: file:line:col: error: msg" to stderr; returns
 * d->status (2 or 3). */
int cli_report(const diag *d);
/* cli_report for one of several files: *STATUS keeps the worst status so
 * far, so a later good file does not hide an earlier failure. */
void cli_report_worst(const diag *d, int *status);
/* The shipped compilation schemes, each after a space, for a usage text. */
void cli_print_schemes(FILE *f);
/* Print "CMD: error: MSG" and "(see 'CMD --help')" to stderr, for a
 * misused option that the usage alone would not explain; returns
 * EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* On a terminal, long steps (compiling, javac) show a progress line on
 * stderr while they run (cli/steps.c). */
void cli_show_steps(void);
/* Write what a JSON writer put in B to stdout and empty B (the writer
 * keeps its place, so results stream out as they come). */
void cli_json_flush(strbuf *b);
/* One --json document on stdout, the same for every command that streams
 * results: begun with the command's name, flushed after each result,
 * closed with a newline.  With ON false nothing is written, so a command
 * keeps one code path for both forms. */
typedef struct cli_json_out {
    bool on;
    json js;
    strbuf buf;
} cli_json_out;
void cli_json_begin(cli_json_out *o, bool on, const char *command);
/* Close the document (when on) and free the buffer. */
void cli_json_end(cli_json_out *o);
/* Read, parse and lower a litmus file into verified IR; NULL + diag. */
ir_test *cli_load_test(const char *path, diag *d);
/* --unroll N (NULL: not given): the loop bound of tests without an
 * `Unroll=N` line (ir_lower_unroll).  False, after a complaint naming CMD,
 * for anything but a number from 1 to 1000. */
bool cli_set_unroll(const char *cmd, const char *v);
/* After a run with --cut-loops (model_set_cut_loops): when B dropped
 * executions past a loop that is no spin loop, the warning at that loop in
 * FILE that outcomes may be missing, on stderr. */
struct bset;
void cli_warn_cut_loop(const char *file, const struct bset *b);

#endif
