#ifndef LITMUSC_UTIL_PROC_H
#define LITMUSC_UTIL_PROC_H
/* The one way litmusc runs another program: a compiler (cc-check, hunt,
 * the native runners' builds), a stress runner, herd7, javac, java, dot.
 *
 * What any child may do -- hang, fork helpers (gcc's cc1, as), be left
 * behind when litmusc is killed -- is handled here once:
 *   - the program runs in a process group of its own, with stdin from
 *     /dev/null and stdout and stderr captured;
 *   - at the time limit, or when litmusc gets SIGINT/SIGTERM (with
 *     proc_signals_install), the whole group gets SIGTERM (a stress runner
 *     prints its partial histogram on it), then SIGKILL after the grace;
 *   - a small supervisor process sits between litmusc and the program:
 *     when litmusc dies, even of SIGKILL, it kills the program's whole
 *     group and removes the folder named in cleanup_dir, so no compiler
 *     and no temporary folder outlives litmusc;
 *   - a program that cannot be started (not found, not executable) is a
 *     failure with the system's reason, status 3.
 * Temporary folders belong under $TMPDIR (util/file.h's file_temp_dir). */
#include <stdbool.h>
#include <stddef.h>
#include "util/diag.h"

typedef struct proc_opts {
    double timeout_s;       /* <= 0: no limit */
    double grace_s;         /* from SIGTERM to SIGKILL; <= 0: 1 s */
    const char *cwd;        /* the child's working folder; NULL: litmusc's */
    /* removed with everything in it by the supervisor if litmusc dies
     * before the run ends (the caller removes it otherwise); NULL: none */
    const char *cleanup_dir;
    /* TMPDIR in the child's environment (a compiler's own temporary files
     * then go inside cleanup_dir); NULL: litmusc's environment as it is */
    const char *tmpdir;
    size_t out_max;         /* bytes of stdout kept, from the start; 0: 64 MB */
    size_t err_keep;        /* bytes of stderr kept, the last ones; 0: 64 KB */
} proc_opts;

typedef struct proc_result {
    int exit_status;        /* when it exited normally, else -1 */
    int term_signal;        /* signal that ended it, else 0 */
    bool timed_out;         /* killed at the time limit */
    bool interrupted;       /* we passed on a SIGINT/SIGTERM to it */
    char *out;              /* its stdout (NUL-terminated; "" when none) */
    size_t outlen;
    char *err;              /* the last part of its stderr (NUL-terminated) */
    size_t errlen;
    double seconds;         /* wall time */
    int start_errno;        /* proc_run returned false: why it did not start (ENOENT: not found), else 0 */
} proc_result;

/* Run ARGV (argv[0] looked up in PATH) as above under O (NULL: no time
 * limit, 1 s grace, nothing else).  True when it ran, whatever its exit
 * status (R says how it ended; free with proc_result_free); false + D
 * (status 3: "cannot run 'gcc': No such file or directory", R->start_errno
 * set; nothing in R to free) when it could not be started at all, or
 * chdir to O->cwd failed. */
bool proc_run(char *const argv[], const proc_opts *o, proc_result *r, diag *d);
void proc_result_free(proc_result *r);

/* Whether R exited with status 0, within its time and not interrupted. */
bool proc_ok(const proc_result *r);
/* "exited with status 2", "was killed by signal 11 (Segmentation fault)" */
void proc_describe(const proc_result *r, char *buf, size_t size);
/* false + diag (status 3) for a child R that did not succeed: "WHAT ran
 * past the N s time limit", "... was interrupted" or "... exited with
 * status 2", then the first line of its stderr. */
bool proc_failed(diag *d, const proc_result *r, double timeout_s, const char *what);
/* The last lines of R's stderr that fit in SIZE bytes (at most 4 lines),
 * joined with " | ", for a message that shows why a tool failed; "" when
 * it wrote nothing. */
void proc_err_tail(const proc_result *r, char *buf, size_t size);

/* SIGINT and SIGTERM set a flag instead of killing litmusc, so that a
 * running child can be stopped and its partial result still used; the
 * flag is checked by proc_run and by the loops that start children.
 * A second signal ends litmusc at once. */
void proc_signals_install(void);
/* For a command whose work between children has no partial result to
 * keep (`run`: the model, while no runner runs): a signal that arrives
 * outside a child's wait writes MESSAGE to stderr and ends litmusc at
 * once with status 3, instead of waiting for the work to end.  What the
 * command flushed to stdout stays. */
void proc_signals_quit_idle(const char *message);
bool proc_interrupted(void);
/* The signal that set the flag (SIGINT or SIGTERM), 0 if none. */
int proc_interrupt_signal(void);

#endif
