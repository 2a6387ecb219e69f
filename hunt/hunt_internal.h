#ifndef LITMUSC_HUNT_HUNT_INTERNAL_H
#define LITMUSC_HUNT_HUNT_INTERNAL_H
/* Shared by the hunt's own files (hunt.c, batch.c, bugs.c, folder.c,
 * report.c): the hunt in progress, one configuration,
 * one test of a batch. */
#include "campaign/campaign.h"
#include "frontend/ast.h"
#include "hunt/bug.h"
#include "hunt/hunt.h"
#include "ir/ir.h"
#include "model/model.h"

/* A compiler and flag set. */
typedef struct hcfg {
    const char *cc, *cflags;
    char *version;          /* the first line of `CC --version` */
} hcfg;

typedef struct hctx {
    const hunt_opts *o;
    hcfg *cfgs;
    int ncfg;               /* pure configurations: compilers x flag sets */
    int nall;               /* and the mixed one (index ncfg) under --mix */
    model_set *models;
    const lift_target_row *row;     /* the target: its flags and models */
    model *src, *lifted;    /* the source's model and the lifted test's (the row's) */
    char *tmp;              /* a private scratch folder */
    campaign *db;
    hunt_stats *st;
    double t0;              /* when this process started searching */
    long configs_here;      /* configurations checked by this process */
    const hunt_vocab *vocab;
    hunt_enum *en;          /* --order enum: the enumeration */
    char where[160];        /* and how far it got */
    bool *drawn;            /* per vocabulary edge: in a test checked by this process */
} hctx;

/* One test of a batch. */
typedef struct hitem {
    long k;
    gen_test g;
    fe_test *ft;
    ir_test *t;
    struct bset *sb;
    char prefix[32];        /* "t<k>_" */
} hitem;

/* batch.c: compile the N tests of IT with every configuration (one unit
 * and one compiler call each, one by one where the unit fails), lift and
 * compare each, and record what finished in one transaction; stops
 * between tests once STOP says so.  False + D for an environment failure. */
bool hunt_batch(hctx *h, hitem *it, int n, bool (*stop)(hctx *h), diag *d);
/* The configuration thread TH of test K takes in the mixed configuration. */
int hunt_mix_config(const hctx *h, long k, int th);
/* "t<k>_" into BUF. */
void hunt_prefix(long k, char *buf, size_t size);
/* A name for configuration C: "gcc -O2", "mix(gcc -O2 | clang -O0)" style for the mix. */
char *hunt_config_name(const hctx *h, int c, long k, int nthreads);

/* bugs_compile.c: test FT/T compiled alone (prefix "") with configuration
 * C for stream entry K (a mix: thread n with hunt_mix_config(h, K, n)),
 * EXTRA appended to the flags of configuration ONLY (-1: of every one).
 * Not WEAK: lift/tu.c's unit, objects to lift (and the unit clang's
 * bisection numbers).  WEAK: the globals weak and, for a mix, each
 * thread's object with only its own function left global, objects to link
 * together for confirmation.  The objects in *PATHS (one, or one a thread
 * for a mix; under h->tmp), *N of them; false + D when one does not
 * build. */
bool hunt_compile_objs(hctx *h, int c, long k, const fe_test *ft, const ir_test *t, const char *extra, int only,
                       bool weak, char ***paths, int *n, diag *d);
/* The objects removed and the array freed. */
void hunt_objs_free(char **paths, int n);
/* Object PATH of a mix's thread TH of T (names under PREFIX) made
 * linkable beside the other threads' objects: every symbol local but the
 * thread's function and the test's globals.  False and *WHY (malloc'd)
 * when objcopy fails. */
bool hunt_only_thread(const ir_test *t, const char *prefix, int th, const char *path, char **why);

/* One bisection of a mix: the compiler of configuration CONFIG, which
 * the threads THREADS ("P0 P2") were compiled with, the others as found. */
typedef struct hunt_mix_bisect {
    int config;
    char *threads;
    hunt_bisect_result r;
    char *err;                      /* why it failed, or NULL */
} hunt_mix_bisect;

/* One bug while it is written (bugs.c fills it, folder.c writes it). */
struct campaign_hunt_raw;
typedef struct hunt_bug {
    const char *id;
    const campaign_hunt_raw *raw;   /* the first configuration that showed it */
    long k;
    int config;
    uint64_t seed;
    char *config_name;
    const hcfg *cfg;                /* NULL for the mix */
    fe_test *ft;                    /* the test as found */
    ir_test *t;
    struct bset *sb;
    char *minimal, *reduce_err;     /* the reduced test, or why none */
    hunt_reduce_stats rstats;
    hunt_bisect_result bisect;
    char *bisect_err, *culprit;
    hunt_mix_bisect *mixb;          /* a mix: one bisection per configuration its threads use */
    int nmixb;
    hunt_confirm_result confirm;    /* the object the lifter read (the test as found) */
    bool confirmed;
    char *confirm_err;
    hunt_confirm_result mconfirm;   /* the minimal test compiled alone */
    bool mconfirmed;
    char *mconfirm_err;
    fe_test *mft;                   /* the minimal (or found) test compiled alone */
    ir_test *mt;
    char *mforbidden, *mlifted, *mcb_text;
    char *repro, *repro_err;
} hunt_bug;
/* folder.c: DIR/bugs/ID/ (test, minimal test, lifted test, repro.c,
 * report.md) and the bug's row in the database; a bug already there
 * counts one instance more. */
bool hunt_bug_write(hctx *h, const hunt_bug *b, diag *d);
void hunt_bug_free(hunt_bug *b);
/* Raw bug R counted as an instance of bug ID. */
bool hunt_bug_cover(hctx *h, const char *id, const struct campaign_hunt_raw *r, diag *d);
/* The progress callback for a step of bug TEST. */
void report_step(hctx *h, const char *phase, const char *test);

/* bugs.c: reduce, bisect, confirm and write every raw bug not yet
 * covered by a bug; false + D for an environment failure. */
bool hunt_process_bugs(hctx *h, diag *d);

/* report.c: DIR/report.json from the database. */
bool hunt_write_report(hctx *h, diag *d);

/* State I of R as lift_state_text writes it, without the lifter's
 * cc_unroll (malloc'd). */
struct lift_result;
char *hunt_state_text(const struct lift_result *r, int i);

/* Whether the hunt's target is the machine litmusc runs on: only there
 * does a confirmation run the objects. */
bool hunt_target_native(const hctx *h);

/* now, in seconds (monotonic). */
double hunt_now(void);

#endif
