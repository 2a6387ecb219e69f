#ifndef LITMUSC_HUNT_HUNT_H
#define LITMUSC_HUNT_HUNT_H
/* `litmusc hunt`: a compiler bug hunt.  Test k of a hunt is a function of
 * (seed, k) alone (stream.c; enum.c under --order enum), so a hunt resumes and splits into shards
 * (k mod shards) without coordination.  Tests are compiled in batches, one
 * translation unit and one compiler call per compiler x flag set
 * (batch.c), lifted and compared as cc-check does; what is finished goes
 * into the hunt's campaign database one batch a transaction, and each
 * bug is reduced, bisected, confirmed on this machine and written to a
 * bug folder (bugs.c, folder.c), with DIR/report.json over all of them
 * (report.c).
 *
 * The stage never prints: progress goes to a callback, problems to a
 * diag. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "gen/gen.h"
#include "lift/lift.h"
#include "util/diag.h"

/* ---- the test stream (stream.c) ---------------------------------------- */

/* The edges tests are drawn from: fully annotated C edge names. */
typedef struct hunt_vocab hunt_vocab;
/* The vocabulary of the names in WORDS (space separated; NULL: every
 * atomic annotation of gen's C edges, fences and dependencies).  Names
 * whose shape the walk cannot tell (source and target directions) are
 * left out and counted in *SKIPPED. */
hunt_vocab *hunt_vocab_new(const char *words, int *skipped);
void hunt_vocab_free(hunt_vocab *v);
int hunt_vocab_size(const hunt_vocab *v);
/* Edge I's name; the index of edge NAME, or -1. */
const char *hunt_vocab_name(const hunt_vocab *v, int i);
int hunt_vocab_find(const hunt_vocab *v, const char *name);

/* Test K of the stream of SEED: even K a small shape (two threads, four
 * edges, as diy7's size 4), odd K up to four threads and eight edges;
 * the cycle drawn from V by a generator seeded with (SEED, K, try).  The
 * test's name is diy7's.  False + D only when no cycle could be drawn. */
bool hunt_stream_test(const hunt_vocab *v, uint64_t seed, long k, gen_test *out, diag *d);

/* Edge I's kind: 0 a communication (Rfe, Fre, Coe and their internal
 * forms), then po, fences, dependencies, RMWs, access fences; HUNT_KINDS
 * of them. */
enum { HUNT_KINDS = 6 };
int hunt_vocab_kind(const hunt_vocab *v, int i);

/* The stream's order: drawn at random (above), or every cycle of the
 * vocabulary in increasing size (enum.c). */
typedef enum hunt_order { HUNT_ORDER_RANDOM, HUNT_ORDER_ENUM } hunt_order;

/* The enumerated stream of V for SEED (the seed shuffles which edges
 * share a round); NULL + D (status 2) when V cannot be enumerated. */
typedef struct hunt_enum hunt_enum;
hunt_enum *hunt_enum_new(const hunt_vocab *v, uint64_t seed, diag *d);
void hunt_enum_free(hunt_enum *e);
/* Test K of the enumeration: 1 made, 0 the enumeration has fewer tests,
 * -1 with D set when gen failed.  Fastest for K rising (a window of a
 * round is kept); any K gives the same test. */
int hunt_enum_test(hunt_enum *e, long k, gen_test *out, diag *d);
/* How far the enumeration got (the round of the last test made), one line. */
void hunt_enum_where(const hunt_enum *e, char *buf, size_t size);

/* ---- the hunt (hunt.c) ------------------------------------------------- */

typedef struct hunt_progress {
    long tests;             /* tests tried this process and before (resumed) */
    long configs;           /* configurations checked */
    long compiled, lifted;
    long raw_bugs;          /* configurations that showed a forbidden state */
    int bugs;               /* distinct bugs after reduction (at the end) */
    long compiler_calls;
    double elapsed_s, rate; /* configurations a second, this process */
    const char *phase;      /* "search", "reduce", "bisect", "confirm" */
    const char *current;    /* the bug or test being worked on, or NULL */
    const char *where;      /* --order enum: how far the enumeration got (hunt_enum_where); else NULL */
} hunt_progress;

typedef struct hunt_opts {
    const char *const *ccs; int ncc;
    const char *const *cflags; int ncflags;
    uint64_t seed;
    double budget_s;        /* search time (<= 0: none) */
    long max_tests;         /* tests of the stream (<= 0: none) */
    int batch;              /* tests per translation unit (1: cc-check's way) */
    bool mix;               /* also each test with each thread from another configuration */
    hunt_order order;       /* the stream: drawn (default) or enumerated */
    lift_target target;     /* the machine compiled for and lifted (LIFT_X86_64 unless told) */
    int shard, nshards;     /* this process takes k with k mod nshards = shard - 1 */
    const char *dir;        /* the output folder */
    const char *db;         /* its campaign database (NULL: DIR/hunt.db) */
    const char *vocab;      /* the edges, space separated (NULL: gen's) */
    int unroll;
    double confirm_s;       /* each confirmation's run time */
    int max_bugs;           /* bugs reduced and reported at most (0: none; the rest wait for a later run) */
    bool (*progress)(void *ctx, const hunt_progress *p);    /* false stops the search */
    void *ctx;
} hunt_opts;

typedef struct hunt_stats {
    hunt_progress p;        /* the totals, over every process of the hunt */
    long refused;           /* configurations that could not be lifted (named in the report) */
    long fallbacks;         /* batches that failed to compile whole and went one by one */
    long gen_failed;        /* stream entries that did not become a test */
    int vocab, vocab_skipped;   /* edges in the vocabulary; names left out */
    int vocab_drawn;            /* edges in the tests this process checked */
    bool interrupted;
    char where[160];        /* --order enum: how far the enumeration got; else "" */
} hunt_stats;

/* Run the hunt O into O->dir (created; a hunt already there resumes
 * when its seed and configurations agree).  False + D for an environment
 * failure (status 3: a compiler missing, a write that failed) or a bad
 * option (status 2); the bugs are in ST and DIR/report.json. */
bool hunt_run(const hunt_opts *o, hunt_stats *st, diag *d);

/* Seconds from "30s", "10m", "1h", "90" (seconds); false if not one. */
bool hunt_parse_duration(const char *s, double *out);

#endif
