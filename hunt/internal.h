#ifndef LITMUSC_HUNT_INTERNAL_H
#define LITMUSC_HUNT_INTERNAL_H
/* What hunt/'s own files share: the reducer's edits on a C litmus test
 * (reduce_edit.c, reduce_cond.c), the readers of compiler output for
 * bisection (bisect_parse.c) and the stress driver's text (driver.c). */
#include "frontend/frontend.h"
#include "hunt/bug.h"
#include "util/mem.h"

/* ---- reduce_edit.c --------------------------------------------------------- */

/* The kinds of reduction step, tried in this order. */
typedef enum hunt_red_kind {
    HUNT_RED_THREAD,        /* drop threads (the rest renumbered) */
    HUNT_RED_STMT,          /* drop statements (nested ones too) */
    HUNT_RED_WEAKEN,        /* one order a step weaker (acq_rel to acquire) */
    HUNT_RED_WEAKEN_REL,    /* acq_rel to release instead */
    HUNT_RED_VALUE,         /* a constant above 1 renamed to the least unused one */
    HUNT_RED_KINDS
} hunt_red_kind;

/* How many places of kind K the test TEXT has (0 when it does not parse). */
int hunt_red_sites(const char *text, hunt_red_kind k);
/* TEXT with the edit K applied to its places FROM .. FROM+COUNT-1 (COUNT
 * 0: none), tidied (parameters no statement uses, locations no thread
 * names, condition atoms on registers or locations that are gone) and
 * printed in herd's C syntax; NULL when TEXT does not parse, the edit
 * changes nothing, or it leaves a condition that had atoms with none
 * (malloc'd). */
char *hunt_red_edit(const char *text, hunt_red_kind k, int from, int count);
/* Threads, and memory accesses and fences, of test TEXT (-1: no parse). */
void hunt_red_count(const char *text, int *threads, int *accesses);

/* reduce_walk.c: each statement of block B (and of the blocks inside it)
 * before its insides: SF (may be NULL) gets it with its block and index,
 * EF (may be NULL) each expression, before its operands.  Over the
 * threads of T: each thread's body. */
typedef void (*hunt_expr_fn)(fe_expr *x, void *ctx);
typedef void (*hunt_stmt_fn)(fe_stmt *s, fe_stmt *block, int i, void *ctx);
void hunt_walk_block(fe_stmt *b, hunt_stmt_fn sf, hunt_expr_fn ef, void *ctx);
void hunt_walk_threads(fe_test *t, hunt_stmt_fn sf, hunt_expr_fn ef, void *ctx);

/* reduce_value.c: constant V renamed in T to the least positive value T
 * does not use, when that is smaller; false when it is not. */
bool hunt_red_shrink_value(fe_test *t, int64_t v);

/* reduce_cond.c: the condition of T in herd's syntax, with only the
 * atoms KEEP says true to (fe_print_prop: an and keeps its other side;
 * anything else holding a gone atom goes whole; nothing left is `true`),
 * ending in a newline. */
void hunt_red_print_cond(strbuf *b, const fe_test *t, fe_prop_keep keep, void *ctx);
/* Does T's condition keep an atom once those KEEP refuses go (or had it
 * none to begin with)? */
bool hunt_red_cond_kept(const fe_test *t, fe_prop_keep keep, void *ctx);

/* ---- bisect_parse.c -------------------------------------------------------- */

/* The -f flags `gcc -Q --help=optimizers` OUT marks [enabled], without
 * the -f ("tree-pre", ...), in order; *N of them (malloc'd). */
char **hunt_gcc_enabled_flags(const char *out, int *n);
/* From clang's -opt-bisect-limit stderr ERR: the pass numbered N and the
 * function (or module) it ran on, malloc'd; false when no line has N.
 * *LAST gets the highest number seen (-1 if none). */
bool hunt_clang_bisect_line(const char *err, int n, char **pass, char **func, int *last);

/* ---- driver.c -------------------------------------------------------------- */

/* One observable of the forbidden state: a global's name and its value. */
typedef struct hunt_obs {
    char *name;
    long long value;
} hunt_obs;
/* "x=1; P0_r0=0;" as its pairs (*N of them, malloc'd); false when it is
 * not of that shape. */
bool hunt_parse_state(const char *text, hunt_obs **obs, int *n);
void hunt_obs_free(hunt_obs *obs, int n);
/* The observables of the forbidden state FORBIDDEN of test T, each a
 * global of its translation unit (the lifter's cc_unroll, which no run
 * of the object sets, left out); false and D set (status 2) if not. */
bool hunt_state_obs(const ir_test *t, const char *forbidden, hunt_obs **obs, int *n, diag *d);
/* CC's words, FLAGS' words (either may be NULL), then MORE (NULL or
 * NULL-terminated), as a NULL-terminated argv (malloc'd). */
char **hunt_argv(const char *cc, const char *flags, const char *const *more);
void hunt_argv_free(char **v);
/* The stress driver for T's threads and globals named with PREFIX,
 * counting the state OBS: extern declarations of the test's symbols
 * unless TU (the test's own translation unit, put first) is given. */
char *hunt_driver_text(const ir_test *t, const char *prefix, const hunt_obs *obs, int nobs, const char *tu);

#endif
