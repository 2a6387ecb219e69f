#ifndef LITMUSC_CAMPAIGN_CAMPAIGN_H
#define LITMUSC_CAMPAIGN_CAMPAIGN_H
/* Campaigns: many tests x targets x compilers, run into one SQLite
 * database (its tables: schema_sql in campaign/db.c, the README's "The
 * database"), one transaction per finished run, so a campaign killed at
 * any moment loses at most the run in progress and the same command
 * resumes it.  Runs are split into shards by a hash of their
 * key, so machines agree on the split without talking; shard databases
 * merge into one.  Reports (HTML with SVG histograms, JUnit XML, JSON in
 * the litmusc/1 schema) and diffs are read from the database.
 *
 * The stage never prints: progress goes to a callback, results to the
 * database, problems to a diag. */
#include <stdbool.h>
#include <stdint.h>
#include "util/diag.h"
#include "util/mem.h"

#define CAMPAIGN_SCHEMA "litmusc-campaign/1"

typedef struct campaign campaign;

/* Open the campaign database at PATH.  CREATE: a missing (or empty) file
 * becomes a new campaign; otherwise the file must exist.  A file that is
 * not SQLite, is another program's database, has another schema version
 * or fails SQLite's integrity check is refused with status 2 and left as
 * it is.  WAL mode; other processes on the same file wait for its locks. */
campaign *campaign_open(const char *path, bool create, diag *d);
void campaign_close(campaign *c);
const char *campaign_path(const campaign *c);

/* ---- planning ---------------------------------------------------------- */

/* The target of cc-check runs: a C test built by a real compiler, lifted
 * back and compared with its model (lift/check.c), one run per compiler
 * and flag set. */
#define CAMPAIGN_CC_TARGET "cc-check"

/* One configuration a test runs under. */
typedef struct campaign_config {
    const char *target;     /* "x86", "c11", "java" or "cc-check" */
    const char *compiler;   /* C compiler command ("gcc -O2"); "javac" for java; for
                               cc-check the compiler alone ("clang-14", a path) */
    const char *model;      /* NULL: the test's default model (cc-check: the source's) */
    const char *options;    /* the run options, canonical ("-r 10 -s 1000"); for
                               cc-check the flag set ("-O2 -fno-inline") */
} campaign_config;

typedef struct campaign_plan_stats {
    int tests;              /* tests added or already there */
    int runs;               /* runs of this shard (all states) */
    int done;               /* of which already finished */
    int skipped;            /* test x target pairs the target cannot run */
} campaign_plan_stats;

/* Add the tests (litmus files; a folder stands for every .litmus below it)
 * and a run for each test x config of shard SHARD (1-based) of NSHARDS;
 * runs already in the database keep their state.  FILTER (PCRE2, or NULL)
 * keeps tests by name.  A file that does not parse is reported through
 * BAD (may be NULL) and left out; false + D for a database failure. */
typedef void (*campaign_bad_file)(void *ctx, const diag *d);
bool campaign_plan(campaign *c, const char *const *paths, int npaths, const campaign_config *configs,
                   int nconfigs, const char *filter, int shard, int nshards, campaign_bad_file bad,
                   void *bad_ctx, campaign_plan_stats *st, diag *d);

/* The shard of a run key (1-based): every machine computes the same. */
int campaign_shard_of(const char *key, int nshards);

/* ---- running ----------------------------------------------------------- */

typedef struct campaign_progress {
    int done, total;        /* runs of the shard finished / in all */
    const char *current;    /* the test running now, or NULL */
    double elapsed_s;       /* since the campaign started this time */
    double rate;            /* runs per second this time */
    double eta_s;           /* seconds left at that rate (< 0: unknown) */
    int forbidden;          /* runs that saw a forbidden state, so far (all time) */
    int errors;             /* runs that failed this time */
} campaign_progress;

typedef struct campaign_exec_opts {
    int shard, nshards;
    char *const *run_args;  /* native runners' arguments, NULL-terminated */
    const char *size, *runs, *time;     /* for the Java runner */
    double timeout_s;       /* per run */
    const char *cache_dir;
    /* Called before each run and after the last; false stops the campaign. */
    bool (*progress)(void *ctx, const campaign_progress *p);
    void *ctx;
} campaign_exec_opts;

typedef struct campaign_exec_stats {
    int ran, forbidden, errors, partial;
    bool interrupted;       /* SIGINT/SIGTERM: the run in progress is pending again */
} campaign_exec_stats;

/* Run every unfinished run of the shard (pending, failed, or left
 * running by a process that is gone), committing each result as it ends.
 * false + D for a database failure only; a run that fails is recorded as
 * an error (and retried by the next resume). */
bool campaign_execute(campaign *c, const campaign_exec_opts *o, campaign_exec_stats *st, diag *d);

/* ---- merging ----------------------------------------------------------- */
typedef struct campaign_merge_stats {
    int added;              /* finished runs copied */
    int already;            /* finished runs OUT had already */
    int unfinished;         /* runs IN had not finished (not copied) */
} campaign_merge_stats;

/* Copy IN's finished runs (with their tests, configs, machines, states)
 * into C, in one transaction.  A run C already finished is kept: merging a
 * shard twice adds nothing. */
bool campaign_merge(campaign *c, const char *in_path, campaign_merge_stats *st, diag *d);

/* ---- reports ----------------------------------------------------------- */
typedef struct campaign_summary {
    int tests, runs, done, errors, pending;
    int corrupt;            /* finished, but the stored result does not parse (not in done) */
    int forbidden_runs;     /* finished runs that saw a forbidden state */
    int partial_runs;
    int64_t allowed, seen_allowed;  /* allowed states over finished runs, and those seen */
    uint64_t iterations;
    double seconds;
} campaign_summary;

bool campaign_summarize(campaign *c, campaign_summary *s, diag *d);
/* One self-contained HTML file (no network): summary, a table sortable by
 * column, an SVG histogram per run. */
bool campaign_report_html(campaign *c, const char *path, diag *d);
/* JUnit XML (libxml2): a testcase per run. */
bool campaign_report_junit(campaign *c, const char *path, diag *d);
/* The litmusc/1 JSON object, command "campaign", one result per run. */
bool campaign_report_json(campaign *c, strbuf *out, diag *d);

/* cc-check runs (target cc-check) per compiler, flag set and source
 * model, in that order. */
typedef struct campaign_cc_count {
    char *what;             /* a refusal's kind, or a bug's "TEST: STATE" */
    int count;
} campaign_cc_count;
typedef struct campaign_cc_row {
    char *compiler, *cflags, *model;
    int tests;              /* runs planned */
    int compiled, lifted;   /* of the finished: the compiler built it; it lifted */
    int same, stronger, bug, refused;
    int pending, errors, corrupt;   /* runs with no verdict */
    campaign_cc_count *reasons;     /* refusals by kind, most first */
    int nreasons;
    campaign_cc_count *bugs;        /* each state the source forbids, with its test */
    int nbugs;
} campaign_cc_row;
bool campaign_cc_table(campaign *c, campaign_cc_row **rows, int *n, diag *d);
void campaign_cc_table_free(campaign_cc_row *rows, int n);
/* The table as text, a few lines per row (nothing when there is no row). */
bool campaign_cc_text(campaign *c, strbuf *out, diag *d);

/* ---- diff -------------------------------------------------------------- */
/* Runs of A and B are matched by test, target, model and run options
 * (compilers aside, so two compilers compare); OUT gets one line per
 * change: a verdict, the set of observed states, a witness rate that moved
 * by a factor of 2 or more (or from or to zero), a test only one side ran.
 * *CHANGES counts them. */
bool campaign_diff(campaign *a, campaign *b, strbuf *out, int *changes, diag *d);

/* ---- distributed runs -------------------------------------------------- */
/* ARGS (NULL-terminated) as one shell word each, quoted. */
char *campaign_shell_words(char *const *args);

/* The shard databases of DB: "DB.shard-I-of-N". malloc'd. */
char *campaign_shard_path(const char *db, int shard, int nshards);

/* Run the N shards of a campaign with GNU parallel (jobs at once, on the
 * hosts of SSHLOGIN when not NULL), each `LITMUSC campaign run --db SHARD
 * --shard I/N RUN_ARGS...`, then merge the shards into C.  RUN_ARGS are
 * the campaign run options and files.  false + D when parallel is missing
 * or a shard failed (the shards that finished are merged all the same). */
bool campaign_parallel(campaign *c, const char *litmusc, int nshards, int jobs, const char *sshlogin,
                       char *const *run_args, campaign_merge_stats *st, diag *d);

/* The Slurm job-array script and its merge job for N shards, into OUT:
 * `sh OUT` submits both (sbatch --array=1-N, then sbatch
 * --dependency=afterok:JOB for the merge). */
bool campaign_slurm_script(const char *litmusc, const char *db, int nshards, char *const *run_args,
                           const char *partition, strbuf *out, diag *d);

/* ---- hunts (campaign/hunt_db.c) ------------------------------------------ */
/* `litmusc hunt` keeps its state in tables of its own beside a campaign's
 * (the README's "The database").  Init creates them and records PARAMS
 * (the hunt's seed and configurations, as text); a file holding a hunt of
 * other parameters is refused (status 2). */
bool campaign_hunt_init(campaign *c, const char *params, diag *d);
/* The stream entries k that have a row for each of NCONFIGS configurations. */
bool campaign_hunt_done_tests(campaign *c, int nconfigs, long **ks, int *n, diag *d);
typedef struct campaign_hunt_row {
    long k;
    int config;                 /* index into the hunt's configurations */
    const char *test;           /* its name */
    const char *verdict;        /* same, stronger, bug, refused */
    bool compiled, lifted;
    const char *detail;         /* a refusal's message, or NULL */
    /* a bug's (forbidden not NULL): */
    const char *source, *lifted_text, *forbidden;
    const unsigned char *object;    /* the object the lifter read (NULL when not kept) */
    size_t object_size;
    /* a mix's: thread n's object (its configuration's), NTHREAD_OBJECTS of them */
    const unsigned char *const *thread_objects;
    const size_t *thread_sizes;
    int nthread_objects;
} campaign_hunt_row;
/* ROWS in one transaction (a row already there is kept). */
bool campaign_hunt_record(campaign *c, const campaign_hunt_row *rows, int n, diag *d);
typedef struct campaign_hunt_totals {
    long tests, configs, compiled, lifted, refused, raw_bugs;
} campaign_hunt_totals;
bool campaign_hunt_count(campaign *c, campaign_hunt_totals *t, diag *d);
typedef struct campaign_hunt_raw {
    long k;
    int config;
    char *test, *source, *lifted, *forbidden;
    unsigned char *object;
    size_t object_size;
    unsigned char **thread_objects;     /* a mix's, one a thread */
    size_t *thread_sizes;
    int nthread_objects;
    char *bug_id;               /* "" until a bug covers it */
} campaign_hunt_raw;
bool campaign_hunt_raw_list(campaign *c, campaign_hunt_raw **out, int *n, diag *d);
void campaign_hunt_raw_free(campaign_hunt_raw *r, int n);
typedef struct campaign_hunt_bug {
    const char *id;
    long k;
    int config;
    const char *compiler, *cflags, *test, *forbidden, *culprit, *hardware;
    const char *json;           /* its entry of report.json */
    const long *covers_k;       /* the raw bugs it stands for */
    const int *covers_config;
    int ncovers;
} campaign_hunt_bug;
/* Store bug B (a second one of the same id counts an instance more) and
 * mark the raw bugs it covers, in one transaction. */
bool campaign_hunt_bug_put(campaign *c, const campaign_hunt_bug *b, diag *d);
/* Every bug's id, report.json entry and instances (nothing when no hunt). */
bool campaign_hunt_bug_list(campaign *c, char ***ids, char ***jsons, int **instances, int *n, diag *d);

#endif
