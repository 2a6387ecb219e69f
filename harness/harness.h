#ifndef LITMUSC_HARNESS_HARNESS_H
#define LITMUSC_HARNESS_HARNESS_H
/* The harness: everything between "a runner program exists" and "here is
 * what the machine did, compared with the model".  Every runner (native C11,
 * native x86, Java) speaks one raw histogram protocol on stdout:
 *
 *   litmusc-histogram 1
 *   config KEY VALUE...          zero or more
 *   outcome COUNT V1 ... Vn      one per distinct outcome, ir_observables() order
 *   iterations N                 must equal the sum of the COUNTs
 *   elapsed SECONDS
 *   interrupted 0|1
 *   end
 *
 * This stage parses it, prints the litmus7-compatible log, compares the
 * observed states with a behaviour set, supervises child processes with a
 * time limit, builds and caches native runners, filters test names and
 * writes JUnit XML.  Like every stage it never prints: output goes into
 * strbufs, errors into a diag. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ir/ir.h"
#include "backends/native.h"
#include "model/model.h"
#include "model/detectors.h"
#include "model/races.h"
#include "util/diag.h"
#include "util/json.h"
#include "util/proc.h"
#include "util/mem.h"

/* ---- the raw histogram ------------------------------------------------- */
/* A Config line: its key, and the rest of the line after KEY and one space. */
typedef kv_pair harness_kv;

enum { HARNESS_COVERED = 1, HARNESS_UNCOVERED = 2 };

typedef struct harness_outcome {
    uint64_t count;
    ir_val *vals;           /* nobs values, in ir_observables() order */
    uint64_t first;         /* iterations done when it was first seen (the end of
                               that run); 0: the runner did not say */
} harness_outcome;

typedef struct harness_hist {
    int nobs;
    harness_kv *config;     /* in the order the runner printed them */
    int nconfig;
    harness_outcome *outcomes;  /* in the order the runner printed them */
    int noutcomes;
    uint64_t iterations;    /* == sum of counts (checked by the parser) */
    double elapsed;         /* wall seconds of the measured part */
    bool interrupted;       /* stopped by SIGINT/SIGTERM: a valid partial histogram */
    int covered;            /* --until-covered asked: HARNESS_COVERED or HARNESS_UNCOVERED; else 0 */
} harness_hist;

/* Parse a runner's stdout.  NOBS is the number of observables the test has
 * (ir_observables()).  Any deviation from the protocol -- unknown line,
 * wrong number of values, duplicate outcome, missing `end`, counts that do
 * not add up to `iterations` -- fails with a diag of status 3 naming the
 * line ("runner output:LINE: error: ...", with ORIGIN as the file part).
 * NULL on error. */
harness_hist *harness_parse_histogram(const char *text, size_t len, int nobs,
                                      const char *origin, diag *d);
void harness_hist_free(harness_hist *h);
/* The value of a `config KEY VALUE` line, or NULL. */
const char *harness_config_get(const harness_hist *h, const char *key);

/* ---- the litmus7 log ----------------------------------------------------- */
/* Counts of the condition over the observed outcomes, as litmus7 does them. */
typedef struct harness_tally {
    uint64_t pos, neg;      /* outcomes where P holds / fails (herd's T and F) */
    bool ok;                /* the test's Ok/No line */
} harness_tally;
harness_tally harness_tally_of(const ir_test *t, const harness_hist *h);

/* One test's block exactly as a litmus7 `.exe` prints it (litmus7 7.57):
 * Test, Histogram, count *>/:> state lines in trie order, Ok/No, empty line,
 * Witnesses, Positive/Negative, Condition ... is [NOT ]validated, Hash=,
 * the other info lines, Observation, Time, and a closing empty line. */
void harness_format_log(strbuf *out, const ir_test *t, const harness_hist *h);
/* Indices of h->outcomes in litmus7's trie order (last observable most
 * significant, values as signed integers).  malloc'd, h->noutcomes long. */
int *harness_trie_order(const harness_hist *h);

/* ---- comparison with the behaviour set ---------------------------------- */
typedef struct harness_verdict {
    bool *allowed;          /* per h->outcomes[i]: the model allows this state */
    int nforbidden;         /* distinct observed states the model forbids */
    uint64_t forbidden_count;   /* how often they were observed */
    int *unseen;            /* indices into b->states never observed, in herd order */
    int nunseen;
    bool undef;             /* the model flags the test undefined (a race):
                               every outcome is acceptable, none is forbidden */
    int *state;             /* per h->outcomes[i]: its index in b->states, or -1 */
    /* Set by harness_races_seen when the model has racing pairs, else NULL:
     * per races->pairs[k], the iterations and the observed states that
     * imply the pair (every consistent execution giving the state races
     * there, so the machine certainly ran those accesses unordered). */
    const races *races;
    uint64_t *race_count;
    int *race_states;
    /* Set by harness_fuzz_seen for run --race-fuzz, else NULL: per target
     * of FUZZ, the iterations and observed states that confirm it. */
    const struct harness_fuzz *fuzz;
    uint64_t *fuzz_count;
    int *fuzz_states;
    /* Set by the caller when known, else NULL (borrowed): the states of the
     * behaviour set this machine can show (harness_x86_reachable); the
     * coverage then also counts those. */
    const bset *reachable;
} harness_verdict;

/* Compare histogram H of test T with behaviour set B (computed for T).
 * The observables of B are matched with T's by identity, not position.
 * false + diag (status 3) if B does not describe T's observables. */
bool harness_compare(const ir_test *t, const bset *b, const harness_hist *h,
                     harness_verdict *v, diag *d);
void harness_verdict_free(harness_verdict *v);
/* The races the run exercised (harness/races_seen.c): R is the model's races
 * for the test V was compared with (R->b its behaviour set), H the
 * histogram.  Nothing is attached when R has no pair.  V keeps R (borrowed)
 * until harness_verdict_free. */
void harness_races_seen(harness_verdict *v, const races *r, const harness_hist *h);

/* RaceFuzzer (harness/race_fuzz.c): the hybrid detector's pairs as targets
 * of a directed run, each confirmed only by an observed state in which
 * every consistent execution runs its two accesses unordered by
 * happens-before. */
typedef struct harness_fuzz {
    const detectors *dt;    /* borrowed; its b is the behaviour set */
    int *target;            /* indices into dt->pairs: the hybrid's pairs */
    int ntargets;
    bool *proves;           /* [target * nstates + state]: the state proves the target */
    int *nproving;          /* per target: states that prove it */
    bool *aim;              /* per state of dt->b: proves some target (what the run aims at) */
} harness_fuzz;
/* Plan F for T from DT (detectors_run(M, T)); false + diag as model_run. */
bool harness_fuzz_plan(harness_fuzz *f, const model *m, const ir_test *t, const detectors *dt, diag *d);
void harness_fuzz_free(harness_fuzz *f);
/* Attach F to V and count, per target, the observed states of H that
 * confirm it (V compared against F->dt->b). */
void harness_fuzz_seen(harness_verdict *v, const harness_fuzz *f, const harness_hist *h);
/* Why target K is not confirmed (NULL when it is): no state proves it,
 * only states the machine cannot show do, or none was observed. */
const char *harness_fuzz_why(const harness_fuzz *f, const harness_verdict *v, int k);
/* Target K as a races pair, for races_format_pair and the JSON fields. */
races_pair harness_fuzz_pair(const harness_fuzz *f, int k);

/* Coverage of the behaviour set (harness/coverage.c): per state of B in
 * herd's order, the iterations done when the run first showed it. */
typedef struct harness_cover {
    int allowed, seen;      /* states of B; of those, observed */
    uint64_t *first;        /* [allowed]: 0 never seen (or not said) */
    bool known;             /* the runner said when each outcome was first seen */
    uint64_t complete_at;   /* all seen and known: when the last one first was; else 0 */
    int reachable, reachable_seen;  /* with v->reachable: its states; of those, observed */
} harness_cover;
void harness_coverage(const bset *b, const harness_hist *h, const harness_verdict *v, harness_cover *c);
void harness_cover_free(harness_cover *c);
/* The runner's --until-covered argument: B's states as "v,v;v,v", values
 * in T's observable order (malloc'd); NULL + diag when B is not T's. */
char *harness_states_arg(const ir_test *t, const bset *b, diag *d);
/* Directed stress (harness/directed.c): for each state of B (M's behaviour
 * set of T), the groups of threads to run one after the other so that the
 * orders between threads one of its executions needs happen, as the
 * runner's --schedules argument ("2:0,0,1;..."; "" when no state needs
 * one).  NULL + diag when the model fails. */
char *harness_schedules_arg(const model *m, const ir_test *t, const bset *b, diag *d);
/* The same for T a compilation of B's test: OBS_AT[i] is where B's
 * observable i is in T's states, and the schedules are in T's threads and
 * accesses, those of the runner that runs T. */
char *harness_schedules_arg_at(const model *m, const ir_test *t, const bset *b, const int *obs_at, diag *d);
/* Lanes (harness/lanes.c): the fewest sequences the threads in MEMBERS
 * (a bit per test thread) can be folded into, each sequence's threads run
 * one after the other with a full fence between, without contradicting
 * the execution X (ORDER: harness_exec_order's); LANE[t] and POS[t] say
 * where thread t goes; SPLIT[t] = k > 0 when the lane switches to its
 * next thread before thread t's k-th access and back after it (and what
 * the next one's own switch runs; k below NATIVE_GAPS - 1); NOFENCE[t]
 * when the lane runs thread t right after the one before it, no fence
 * between (LOAD_LOCS and STORE_LOCS, per test thread the locations its
 * code may load and store, ir_thread_accesses', say it loads nothing that
 * one stores; NULL: never).  Groups of
 * more than HARNESS_LANES_GROUP_MAX threads are not searched: every thread
 * gets a lane of its own. */
#define HARNESS_LANES_GROUP_MAX 6
struct exec;
struct exec_set;
/* The order of execution X that lanes must not contradict (harness/lanes.c):
 * x86's preserved program order, rf between threads, co and fr, closed;
 * REACH[i] bit j: event i comes before event j.  REACH has X's n rows.
 * Computed once per execution for harness_lanes and harness_stretches. */
void harness_exec_order(const struct exec *x, struct exec_set *reach);
int harness_lanes(const struct exec *x, const struct exec_set *order, uint64_t members, const uint64_t *load_locs,
                  const uint64_t *store_locs, unsigned char *lane, unsigned char *pos, unsigned char *split,
                  bool *nofence);
/* Where a directed run should stretch each of the NTH threads of X
 * (harness/lanes.c), with its threads in groups and lanes as GROUP, LANE,
 * POS, SPLIT say (and fences as LOAD_LOCS, STORE_LOCS let): MASK[t] bit k asks for a gap before thread t's k-th access,
 * because an order of X runs from an earlier access of t through another
 * thread to that one (positions as backends/native.h's NATIVE_GAPS);
 * HOLD[t] asks for thread t's stores held back, because an order runs
 * from a later access of t through another thread back to a store of t. */
void harness_stretches(const struct exec *x, const struct exec_set *order, int nth, const uint64_t *load_locs,
                       const uint64_t *store_locs, const unsigned char *group, const unsigned char *lane,
                       const unsigned char *pos, const unsigned char *split, unsigned char *mask, bool *hold);
/* An interleaving of the NTH threads of execution X on one CPU
 * (harness/interleave.c), where X is sequentially consistent: piece q runs
 * thread THREAD[q] from where it stopped up to its access END[q] (0: to
 * its end), each switch before an access below NATIVE_GAPS - 1.  Returns
 * the pieces (at most MAX), 0 when X has none: not sequentially
 * consistent, or a switch out of the gap positions' reach. */
#define HARNESS_MAX_PIECES 64
int harness_interleaving(const struct exec *x, int nth, unsigned char *thread, unsigned char *end, int max);
/* What x86 can show (harness/reachable.c).  B's states as a bset over
 * SRC's observables, sorted the way bset_find searches: B is the behaviour
 * set of BT, the compiled form of SRC through P (BY_MAP: BT's observables
 * are P's x86 registers, matched through P's register map; else they are
 * SRC's own).  BS gives the observables.  NULL + diag when one is missing. */
struct x86_prog;
bset *harness_project_states(const bset *bs, const bset *b, const ir_test *bt, const ir_test *src,
                             const struct x86_prog *p, bool by_map, diag *d);
/* The states of B (T's behaviour set under its source model) that T's
 * compilation through SCHEME (a name or file; NULL: its arch's default
 * x86 scheme) shows under the model X86TSO, in B's order: what a native
 * run on x86 can ever show.  NULL + diag when T does not compile. */
bset *harness_x86_reachable(const ir_test *t, const bset *b, const model *x86tso, const char *scheme, diag *d);
/* The states of B (x86 test T's behaviour set under M, x86tso) that one of
 * their executions shows with every locked instruction whole (its write
 * immediately co-after the write its read read), in B's order: herd's
 * x86tso also allows splits that no x86 makes.  NULL + diag when M fails. */
bset *harness_x86_whole_locked(const model *m, const ir_test *t, const bset *b, diag *d);
/* What a native run of T aims at and counts against, beside B (M's
 * behaviour set of T): on x86 with the C11 target, the states its x86
 * compilation can show (REACHABLE; NULL elsewhere, or when T does not
 * compile); with UNTIL_COVERED, the states --until-covered waits for
 * (REACHABLE when it has any, else B; NULL for a test with no observables,
 * whose one state any run shows) and their schedules. */
typedef struct harness_aim {
    bset *reachable;
    bset *aimed;            /* with ONLY: the states aimed at (owned) */
    const bset *states;     /* harness_native_opts.until_covered */
    char *schedules;        /* harness_native_opts.schedules */
} harness_aim;
/* MODELS: where x86tso comes from (loaded once per set). */
bool harness_aim_init(harness_aim *a, model_set *models, const model *m, const ir_test *t, const bset *b,
                      const native_opts *gen, bool until_covered, diag *d);
/* The same aimed only at the states K of B with ONLY[K] (NULL: all); none
 * of them within the machine's reach: no aim, a plain run. */
bool harness_aim_init_only(harness_aim *a, model_set *models, const model *m, const ir_test *t, const bset *b,
                           const native_opts *gen, bool until_covered, const bool *only, diag *d);
void harness_aim_free(harness_aim *a);
/* "Coverage NAME 14/16 first=1000,1000,-,..." and the JSON "coverage" block. */
void harness_format_coverage(strbuf *out, const ir_test *t, const bset *b, const harness_hist *h,
                             const harness_verdict *v);

/* Where and how a run happened; printed with every verdict. */
typedef struct harness_runinfo {
    const char *target;     /* "c11", "x86", "java" */
    const char *model;      /* model name, e.g. "x86tso" */
    const char *compiler;   /* compiler (or JVM) and its flags, one string */
    const char *status;     /* NULL for a normal run, else e.g. "timed out after 10 s" */
    char cpu[128];          /* CPU model ("AMD EPYC") */
    int cores;              /* online cores */
    const char *build;      /* "cached", "built in 1.21 s", or NULL (not printed) */
    bool timed_out;         /* with status: the run was stopped at its time limit */
} harness_runinfo;
/* Clear RI (every pointer NULL), then fill cpu and cores from the machine
 * (/proc/cpuinfo, sysconf). */
void harness_machine(harness_runinfo *ri);

/* The verdict block printed after the log: one line per observed state
 * (allowed or FORBIDDEN), the allowed states never observed, the racing
 * pairs the run exercised (RaceSeen, when harness_races_seen attached them:
 * one line per pair with its count, or one saying none was), the run
 * configuration (S, R, sync, affinity, layout from the runner's config
 * lines; compiler, CPU model, cores from RI) and a closing Verdict line.
 * Every line has the shape `WORD NAME ...`, so litmus log readers skip it.
 * Ends with an empty line. */
void harness_format_verdict(strbuf *out, const ir_test *t, const bset *b,
                            const harness_hist *h, const harness_verdict *v,
                            const harness_runinfo *ri);
/* ---- the JSON every --json prints (harness/result_json.c) ------------- */
#define HARNESS_JSON_SCHEMA "litmusc/1"
/* {"schema":"litmusc/1","command":COMMAND,"results":[ ... and its end. */
void harness_json_begin(json *j, const char *command);
void harness_json_end(json *j);
/* One result: the test and its behaviour set under MODEL (model --json). */
void harness_json_model(json *j, const ir_test *t, const char *file, const char *model, const bset *b,
                        double seconds);
/* One result: the test, its behaviour set under MODEL and its racing pairs
 * (races --json). */
void harness_json_races(json *j, const ir_test *t, const char *file, const char *model, const races *r,
                        double seconds);
/* One result: the test, its behaviour set under MODEL and what the
 * detectors in the mask SELECTED report (races --detector --json). */
void harness_json_detectors(json *j, const ir_test *t, const char *file, const char *model, const detectors *r,
                            unsigned selected, double seconds);
/* One result: the test, its behaviour set, and the run (run --json). */
void harness_json_coverage(json *j, const bset *b, const harness_hist *h, const harness_verdict *v);
void harness_json_run(json *j, const ir_test *t, const char *file, const bset *b, const harness_hist *h,
                      const harness_verdict *v, const harness_runinfo *ri);
/* "done", "timed-out" or "interrupted". */
const char *harness_run_status(const harness_hist *h, const harness_runinfo *ri);
/* "ok", "forbidden", or "partial" (a run that stopped early saw nothing forbidden). */
const char *harness_run_verdict(const harness_hist *h, const harness_verdict *v, const harness_runinfo *ri);

/* ---- child processes ---------------------------------------------------------- */
/* A child's end: util/proc.h's proc_result (exit_status, term_signal,
 * timed_out, interrupted, out, err, seconds). */
typedef proc_result harness_child;

/* util/proc.h's proc_run with a time limit and a grace: ARGV (argv[0] looked up in PATH) in its own process group with
 * stdin from /dev/null, stdout and stderr captured.  At TIMEOUT_S seconds
 * (<= 0: no limit) or when harness_interrupted() becomes true, the group
 * gets SIGTERM (so a runner can print its partial histogram), and SIGKILL
 * GRACE_S seconds later.  false + diag (status 3) only if it could not be
 * started at all (e.g. the program does not exist). */
bool harness_child_run(char *const argv[], double timeout_s, double grace_s,
                       harness_child *c, diag *d);
void harness_child_free(harness_child *c);
/* "exited with status 2", "was killed by signal 11 (Segmentation fault)" */
void harness_child_describe(const harness_child *c, char *buf, size_t size);
/* false + diag (status 3) for a tool child C that did not succeed:
 * "WHAT ran past the N s time limit", "... was interrupted" or "... exited
 * with status 2", then the first line of its stderr. */
bool harness_child_failed(diag *d, const harness_child *c, double timeout_s, const char *what);
/* TEXT as file NAME in a new private temporary folder (prefix PREFIX), the
 * input of the tool FOR_WHAT: the file's path, its folder in *DIR (remove
 * it with file_remove_tree); else NULL + diag (status 3), nothing left. */
char *harness_temp_input(const char *prefix, const char *name, const char *text, const char *for_what,
                         char **dir, diag *d);

/* herd7 at path HERD on the test TEXT: its whole stdout, or NULL + diag
 * (status 3) when it cannot start, fails, or runs past TIMEOUT_S. */
char *harness_herd_run(const char *herd, const char *text, double timeout_s, diag *d);

/* ---- pictures of executions (harness/graphs.c, harness/dot_run.c) ------------ */
/* Graphviz's dot on TEXT (a dot graph): its output in FORMAT ("svg"),
 * malloc'd, *LEN bytes.  NULL + diag (status 3) when dot cannot run (the
 * message says to install graphviz), fails, or runs past TIMEOUT_S. */
char *harness_dot_render(const char *text, const char *format, double timeout_s, size_t *len, diag *d);
/* Whether dot runs at all (`dot -V`); false + diag as above. */
bool harness_dot_check(diag *d);

typedef enum harness_graph_format { HARNESS_GRAPH_DOT, HARNESS_GRAPH_SVG } harness_graph_format;
typedef struct harness_graphs harness_graphs;
/* Pictures into folder DIR (made with its parents if missing), in FORMAT,
 * with the model relations SHOW[0..NSHOW) drawn besides the base ones
 * (model/graph.h).  NULL + diag: status 2 when DIR cannot be made or is
 * not a writable folder (the OS's reason), 3 for svg without dot. */
harness_graphs *harness_graphs_new(const char *dir, harness_graph_format format, const char *const *show,
                                   int nshow, diag *d);
/* Once per model, before its first test: whether M defines every shown
 * relation; false + diag (status 2) naming one it does not, or that is no
 * relation. */
bool harness_graphs_check(harness_graphs *g, const model *m, diag *d);
/* model_run of T under M, writing one picture per witness execution (a
 * consistent execution in which the condition's proposition holds: herd's
 * positive ones) as DIR/NAME-K.dot or .svg, K the execution's index and
 * NAME the test's name made safe as a file name (native_file_stem).  Each
 * file is written whole or not at all (a file already there is replaced).
 * NULL + diag as model_run, or status 2 for a second test whose NAME is
 * taken (its pictures would replace the first's) or a file that cannot
 * be written, 3 when dot fails. */
bset *harness_graphs_run(harness_graphs *g, const model *m, const ir_test *t, diag *d);
void harness_graphs_free(harness_graphs *g);

/* SIGINT and SIGTERM set a flag instead of killing litmusc, so a running
 * child can be stopped and its partial histogram still printed. */
void harness_signals_install(void);
bool harness_interrupted(void);
/* The signal that set the flag (SIGINT or SIGTERM), 0 if none. */
int harness_interrupt_signal(void);

/* ---- long steps -------------------------------------------------------------- */
/* A step that takes seconds (compiling a runner, javac) calls FN with what
 * it does ("compiling the SB runner (cc -O2 ...)") before, and with NULL
 * after, so that a command can show a progress line on a terminal.  One
 * hook per process; NULL (the default) shows nothing. */
typedef void (*harness_step_fn)(const char *step);
void harness_on_step(harness_step_fn fn);
void harness_step_begin(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void harness_step_end(void);

/* ---- building native runners, with a cache ------------------------------------ */
typedef struct harness_file {
    const char *path;       /* relative path inside the build folder: "test.c", or a runtime
                               file under its base name, e.g. "lrt_hist.c" */
    const char *data;
    size_t len;
    bool compile;           /* pass it to the compiler (a .c file) */
} harness_file;

typedef struct harness_build {
    const char *cc;         /* compiler command, e.g. "cc" or "clang-14" */
    const char *cc_version; /* first line of `CC --version` (part of the key; may be NULL) */
    const char *const *flags;   /* compiler flags, NULL-terminated */
    const char *cache_dir;  /* NULL: harness_cache_dir(NULL) */
    double timeout_s;       /* limit for one compilation */
    const char *label;      /* what is built, for the step line ("the SB runner"); may be NULL */
} harness_build;

/* The cache folder: OVERRIDE, else $LITMUSC_CACHE, else
 * $XDG_CACHE_HOME/litmusc, else $HOME/.cache/litmusc, else
 * $XDG_RUNTIME_DIR/litmusc-cache, else the password database's home
 * /.cache/litmusc; NULL when there is none (never a shared name in /tmp).
 * malloc'd. */
char *harness_cache_dir(const char *override);
/* Creates DIR (mode 0700) if missing, opens it without following a link
 * and accepts it only if the open folder belongs to the user (one of the
 * user's that others may enter is closed with fchmod 0700).  The folder
 * stays open for the life of the process; the result is a path through
 * its descriptor (/proc/PID/fd/N, malloc'd) that names the checked folder
 * whatever is done to the names above it, and *DIRFD (if not NULL) the
 * descriptor.  NULL with the reason in D (exit 3) otherwise, also for a
 * NULL DIR (no cache folder). */
char *harness_cache_open(const char *dir, int *dirfd, diag *d);
/* harness_cache_open's checks alone. */
bool harness_cache_check(const char *dir, diag *d);
/* Content hash (hex, 32 digits) of the files, compiler, its version and
 * flags: the cache key. */
void harness_build_key(const harness_build *b, const harness_file *files, int nfiles,
                       char key[33]);
/* Build FILES into an executable, or reuse the cached one with the same
 * key.  *EXE is a malloc'd path through the cache folder's descriptor
 * (harness_cache_open), whose entry was checked on its open file: its
 * owner, its mode and the digest of its bytes; *CACHED says whether it was
 * reused.
 * A missing compiler or a failed compilation fail with status 3 and the
 * compiler's first error lines in the message. */
bool harness_compile(const harness_build *b, const harness_file *files, int nfiles,
                     char **exe, bool *cached, diag *d);
/* The compiler command as it runs: CC's wrapper words, FLAGS, then CC's
 * own options (which so win over FLAGS).  malloc'd. */
char *harness_compiler_line(const char *cc, const char *flags);
/* First line of `CC --version`, malloc'd; NULL + diag (status 3) when the
 * compiler cannot be run. */
char *harness_cc_version(const char *cc, diag *d);

/* ---- one native run: generate, build (cached), run, read the histogram ---------- */
typedef struct harness_native_opts {
    native_opts gen;            /* target C11 or x86, plain accesses, scheme */
    const char *cc;             /* compiler command */
    const char *cc_version;     /* harness_cc_version(cc) */
    const char *cflags;         /* the optimisation flags in place of NATIVE_CFLAGS' -O2; NULL: -O2 */
    const char *cache_dir;      /* NULL: harness_cache_dir(NULL) */
    char *const *run_args;      /* extra runner arguments (-s N, --sync M, ...), NULL-terminated */
    double timeout_s;           /* limit for the runner; <= 0: none */
    double compile_timeout_s;
    const bset *until_covered;  /* run until every state of this set is seen; NULL: -r runs */
    const char *schedules;      /* harness_schedules_arg for until_covered, or NULL */
} harness_native_opts;

typedef struct harness_run_result {
    harness_hist *hist;         /* the histogram read (possibly partial), or NULL */
    bool cached;                /* the runner came from the cache */
    bool timed_out;             /* killed at the time limit */
    bool interrupted;           /* stopped because litmusc got SIGINT/SIGTERM */
    char *status;               /* NULL for a normal run, else what ended it early */
    char *compiler;             /* "cc -O2 -std=c11 -pthread" as used */
    char *exe;                  /* the runner executable (in the cache) */
    double build_s, run_s;
} harness_run_result;

/* Generate T's runner for O->gen.target, build it (or reuse the cached
 * build), run it under the limits and parse its histogram.  Returns true
 * whenever a histogram could be read -- also a partial one from a runner
 * stopped at the time limit or by an interrupt (then r->status says so).
 * false + diag otherwise: status 2 if T cannot be generated for the
 * target, 3 for a missing compiler, a failed build, a runner that crashed,
 * hung without printing or printed a broken histogram. */
bool harness_run_native(const ir_test *t, const harness_native_opts *o, harness_run_result *r,
                        diag *d);
void harness_run_result_free(harness_run_result *r);

/* ---- the standalone Java runner (harness/java_run.c) ------------------------------ */
typedef struct harness_java_opts {
    const char *size, *runs, *time;     /* the runner's -s, -r, --time; NULL: its defaults */
    double timeout_s;                   /* per test (the runner's --timeout); <= 0: none */
    const char *cache_dir;              /* NULL: harness_cache_dir(NULL) */
    const char *javac_version;          /* harness_java_version(): part of the cache key */
} harness_java_opts;

/* The JDK's javac version line (malloc'd, harness/build.c), or NULL + D
 * (status 3) saying that the java target needs a JDK and why the probe
 * failed.  Checked before any test is loaded, so a missing JDK is one
 * clear error. */
char *harness_java_version(diag *d);

/* Called once per test, in order: H is its histogram (possibly partial:
 * RI->status says so), or NULL with D saying why it has none (status 2:
 * no Java form; 3: the JVM died first or printed a broken block).  RI is
 * NULL when the test never reached the JVM; its model field is unset. */
typedef void (*harness_java_result)(void *ctx, int i, const harness_hist *h, harness_runinfo *ri,
                                    const diag *d);

/* Generate, compile (cached by content hash) and run TESTS[0..N) in one
 * JVM, handing each result to CB.  false + D when javac or the JVM itself
 * failed (a test that got no callback never ran). */
bool harness_run_java(const ir_test *const *tests, int n, const harness_java_opts *o, harness_java_result cb,
                      void *ctx, diag *d);

/* ---- test-name filters (PCRE2) --------------------------------------------------- */
typedef struct harness_filter harness_filter;
/* false + diag (status 2, with the offset) for a bad pattern. */
harness_filter *harness_filter_new(const char *pattern, diag *d);
/* The pattern matches somewhere in NAME (like grep; anchor it with ^...$). */
bool harness_filter_match(const harness_filter *f, const char *name);
void harness_filter_free(harness_filter *f);

/* ---- JUnit XML reports (libxml2) ------------------------------------------------- */
typedef enum harness_result {
    HARNESS_PASS,           /* ran; nothing outside the behaviour set */
    HARNESS_FAIL,           /* ran; a forbidden state was observed */
    HARNESS_ERROR,          /* did not run to the end: build failure, crash, time limit */
    HARNESS_SKIPPED
} harness_result;

typedef struct harness_report harness_report;
harness_report *harness_report_new(const char *suite);
/* MESSAGE is one line; DETAIL (may be NULL) the log and verdict text. */
void harness_report_add(harness_report *r, const char *test, const char *classname,
                        harness_result res, const char *message, const char *detail,
                        double seconds);
/* Written to a temporary file beside PATH and renamed, so a failure never
 * leaves a partial report. */
bool harness_report_write(const harness_report *r, const char *path, diag *d);
void harness_report_free(harness_report *r);

#endif
