#ifndef LITMUSC_HUNT_BUG_H
#define LITMUSC_HUNT_BUG_H
/* What happens to one compiler bug once `hunt` has found it: reduce the
 * test (reduce.c), bisect the optimisation that introduced it
 * (bisect.c), and count how often the very object the lifter read shows
 * the forbidden state on this machine (confirm.c), with the
 * self-contained repro.c a compiler bug tracker wants (repro.c).
 *
 * None of these knows how a test is compiled and checked: the caller
 * passes a predicate that compiles a candidate with the bug's
 * configuration (plus extra flags), lifts it and says whether the
 * compiled code still allows a state the source forbids. */
#include <stdbool.h>
#include "frontend/ast.h"
#include "ir/ir.h"
#include "util/diag.h"

/* The bug predicate: does the C litmus test TEXT, compiled with the
 * bug's configuration and EXTRA_CFLAGS (NULL or "" for none) appended to
 * its flags, still show a state its source forbids?  Returns 1 yes, 0 no
 * (the test compiles, lifts and shows no such state), -1 when it cannot
 * say (the candidate does not parse, lower, compile or lift; D may say
 * why, and the reducer treats it as "no"). */
typedef int (*hunt_pred)(void *ctx, const char *text, const char *extra_cflags, diag *d);

/* ---- reduce.c ---------------------------------------------------------- */

typedef struct hunt_reduce_stats {
    int tries;          /* predicate calls */
    int kept;           /* steps kept */
    int threads_before, threads_after;
    int accesses_before, accesses_after;    /* memory accesses and fences */
} hunt_reduce_stats;

/* Delta debugging over the C litmus test TEXT (herd C syntax): drop
 * threads (unless KEEP_THREADS: a mixed configuration's thread n keeps
 * the compiler of its number), statements (accesses, fences), weaken
 * memory orders, shrink values, each step kept only while PRED still
 * says 1.  Returns the
 * smallest test found (malloc'd, printed in herd7 7.57's C litmus
 * syntax), TEXT itself if nothing could go; NULL and D set when TEXT
 * does not satisfy PRED to begin with or cannot be read. */
char *hunt_reduce(const char *text, hunt_pred pred, void *ctx, bool keep_threads, hunt_reduce_stats *st, diag *d);

/* ---- bisect.c ---------------------------------------------------------- */

typedef enum hunt_bisect_kind {
    HUNT_BISECT_PASS,       /* one optimisation pass (clang) or a set of -fno- flags (gcc) */
    HUNT_BISECT_NOT_A_PASS, /* the bug stays with every optimisation off: instruction
                               selection, code generation, or outside the compiler proper */
    HUNT_BISECT_UNKNOWN,    /* could not be narrowed (said why in detail) */
} hunt_bisect_kind;

typedef struct hunt_bisect_result {
    hunt_bisect_kind kind;
    char *compiler_kind;    /* "clang", "gcc" or "unknown" */
    char *pass;             /* clang: the pass name; gcc: NULL */
    char *function;         /* clang: the function it ran on (P1, ...); else NULL */
    int limit;              /* clang: the opt-bisect-limit N at which the bug appears; else -1 */
    char *flags;            /* gcc: the smallest -fno- set that removes the bug; else NULL */
    char *detail;           /* one sentence for the report */
    int tries;              /* predicate calls */
} hunt_bisect_result;

/* Bisect the optimisation that makes TEXT (which satisfies PRED with
 * no extra flags) a bug, for compiler CC with flag set CFLAGS.  CC's kind
 * comes from `CC --version`.  False and D set only for an environment
 * failure; a bug that cannot be narrowed is a result (kind and detail). */
bool hunt_bisect(const char *cc, const char *cflags, const char *text, hunt_pred pred, void *ctx,
                 hunt_bisect_result *r, diag *d);
/* hunt_bisect with PRE (NULL: none), the target's flags for CC, before
 * CFLAGS wherever the compiler is run itself (its version, its passes);
 * PRED adds them on its own. */
bool hunt_bisect_with(const char *cc, const char *pre, const char *cflags, const char *text, hunt_pred pred,
                      void *ctx, hunt_bisect_result *r, diag *d);
void hunt_bisect_free(hunt_bisect_result *r);

/* ---- confirm.c, repro.c ------------------------------------------------ */

/* The symbols of a test in an object: thread function PREFIX "P<n>",
 * location globals PREFIX "<loc>", register globals PREFIX "P<n>_<reg>"
 * (lift/tu.c's translation unit; PREFIX is "" for a test compiled alone,
 * "t17_" style for one of a batch). */
typedef struct hunt_confirm_opts {
    double budget_s;        /* stop after this long (default 10 s when 0) */
    long max_iterations;    /* and after this many rounds (0: no limit) */
    bool until_covered;     /* stop as soon as the forbidden state is seen */
    const char *driver_cc;  /* compiler that builds the driver and links (default cc) */
} hunt_confirm_opts;

typedef struct hunt_confirm_result {
    long iterations;        /* rounds run */
    long hits;              /* rounds that ended in the forbidden state */
    double seconds;
    char *config;           /* the run configuration and machine, one line */
    char *histogram;        /* "count state" lines, every state seen */
} hunt_confirm_result;

/* Link the objects OBJS (the very objects the lifter read: one, or one a
 * thread for a mix) with a stress driver for test T (its threads,
 * locations and registers under PREFIX), run it on this machine and
 * count how often FORBIDDEN ("x=1; P0_r0=0; P1_r0=0;", the lifted
 * state's text) appears.  False and D set when it cannot build or run
 * (status 3). */
bool hunt_confirm(const ir_test *t, const char *prefix, const char *const *objs, int nobjs, const char *forbidden,
                  const hunt_confirm_opts *o, hunt_confirm_result *r, diag *d);
void hunt_confirm_free(hunt_confirm_result *r);

/* repro.c: one self-contained C file for the test FT/T: its translation
 * unit (the threads as lift/tu.c writes them) and a main that runs them
 * as a stress test and prints how often FORBIDDEN was seen; compiled
 * with the reported compiler and flags (and -pthread) it reproduces the
 * bug on its own (malloc'd; NULL and D set when a name cannot be C). */
char *hunt_repro_text(const fe_test *ft, const ir_test *t, const char *forbidden, diag *d);

#endif
