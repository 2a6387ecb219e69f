#ifndef LITMUSC_BACKENDS_JAVA_JAVAGEN_H
#define LITMUSC_BACKENDS_JAVA_JAVAGEN_H
/* Lowering IR threads to Java statements, shared by the two Java targets
 * (jcstress sources in backends/jcstress, the standalone runner in
 * backends/java).
 *
 * Semantics (as jcstress and the JVM give them):
 *   - every value is a Java int (values that do not fit are rejected);
 *     locations are int fields reached through one static VarHandle each;
 *   - each SSA value is one local declared at the top of the method, which
 *     gives herd's flat register scope;
 *   - control flow (loop-free) is a dispatch over blocks in topological
 *     order, with phis as copies on the incoming edges;
 *   - comparisons yield 0/1, `if` tests != 0, division and remainder by
 *     zero yield 0 (Java would throw);
 *   - Java tests keep their VarHandle modes; C orders map to the weakest
 *     Java mode at least as strong: na -> plain, rlx -> opaque,
 *     acq/con -> acquire, rel -> release, acq_rel/sc -> volatile.  RMWs
 *     have no plain or opaque form in Java, so those become acquire.
 *
 * Names that come from the litmus file reach Java only through the
 * mangling below: valid, unique identifiers that are no Java keyword. */
#include <stdbool.h>
#include "ir/ir.h"
#include "util/diag.h"
#include "util/mem.h"

/* Java names for one test. */
typedef struct javagen_names {
    char **field;           /* per location: its int field */
    char **handle;          /* per location: its static VarHandle */
    ir_obs *obs;            /* ir_observables() */
    int nobs;
} javagen_names;

/* Check that T can be emitted as Java (a Java or C test; values that fit
 * in an int; no computed addresses; no pointer-valued locations) and fill
 * the names.  false + diag (status 2, at the offending line) otherwise. */
bool javagen_prepare(const ir_test *t, javagen_names *n, diag *d);
void javagen_names_free(javagen_names *n, const ir_test *t);
/* The checks of javagen_prepare alone (to refuse a test before modelling it). */
bool javagen_supported(const ir_test *t, diag *d);

/* Where an actor stores observable OBS_INDEX (an index into n->obs) whose
 * final value is the Java int expression EXPR. */
typedef void (*javagen_store_fn)(strbuf *out, void *ctx, int obs_index, const char *expr);

typedef struct javagen_thread_opts {
    const char *self;       /* expression for the state object ("this", "s") */
    const char *indent;     /* prefix of every emitted line */
    javagen_store_fn store; /* called once per observed register of the thread */
    void *ctx;
} javagen_thread_opts;

/* The statements of thread index TI (into t->threads): local declarations,
 * the body, then the stores of the thread's observed registers. */
void javagen_thread_body(strbuf *out, const ir_test *t, const javagen_names *n, int ti,
                         const javagen_thread_opts *o);

/* A mutex (a Java monitor, a C spin lock or mutex) is a ReentrantLock
 * field FIELD$lock of the state object ('$' is in no mangled name): its
 * lock() and unlock() synchronise as monitor enter and exit do (JLS 17.4.4,
 * java.util.concurrent.locks.Lock), and a generator working from the IR's
 * blocks cannot always nest a synchronized block.  The declarations of
 * T's mutexes, one a line. */
void javagen_lock_fields(strbuf *out, const ir_test *t, const javagen_names *n, const char *indent);

/* The index into t->threads of the thread with id ID, or -1. */
int javagen_thread_index(const ir_test *t, int id);

/* The static initialiser that finds every handle in class CLS. */
void javagen_handles(strbuf *out, const ir_test *t, const javagen_names *n,
                     const char *cls, const char *indent);

/* A Java identifier made from NAME: letters, digits and '_' kept, other
 * bytes spelled _xHH, a leading digit or keyword prefixed with '_'.
 * malloc'd. */
char *javagen_ident(const char *name);
/* True if S is a Java keyword or literal (class, int, true, null, ...). */
bool javagen_is_keyword(const char *s);
/* A class name for test NAME that is a valid identifier, begins with an
 * upper-case letter or '_', and avoids RESERVED (NULL-terminated) and the
 * names the generated code itself uses. malloc'd. */
char *javagen_class_name(const char *name, const char *const *taken, int ntaken);
/* BASE, or BASE_2, BASE_3 ...: the first not among LIST[0..N) (NULLs
 * skipped).  Takes BASE. */
char *javagen_unique(char *base, char *const *list, int n);
/* A valid package name (dot-separated identifiers, no keyword)? */
bool javagen_valid_package(const char *p);

/* S as the contents of a Java string literal (no quotes): printable ASCII
 * kept, quote and backslash escaped, every other byte an octal escape
 * (never \\u, which Java expands before lexing). */
void javagen_string(strbuf *out, const char *s);
/* S made safe inside a // comment: printable ASCII only, backslashes
 * doubled so that no \\u escape can start. */
void javagen_comment(strbuf *out, const char *s);

/* Formatting of outcome values: decimal int. */
void javagen_outcome_id(strbuf *out, const ir_val *vals, int n);

#endif
