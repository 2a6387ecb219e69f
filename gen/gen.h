#ifndef LITMUSC_GEN_GEN_H
#define LITMUSC_GEN_GEN_H
/* Test generation from cycles of relaxations, in diy7's vocabulary and
 * meaning.  A cycle is a sequence of edges (Rfe, PodWR, MFencedWR,
 * DpAddrdW, ...) between memory events; the generated test has one thread
 * per run of internal edges, one location per run of same-location edges,
 * written values in coherence order, and a final condition that holds
 * exactly when the cycle happened.
 *
 * gen_one builds the test for one cycle; gen_enumerate every cycle up to
 * a size from a set of relaxations.  The stage never prints: tests come
 * back as text, errors as a diag whose message names the position of the
 * offending edge in the cycle ("edge 3 'PodXY': unknown relaxation"). */
#include <stdbool.h>
#include "util/diag.h"

typedef enum gen_arch_id { GEN_X86, GEN_C, GEN_JAVA } gen_arch_id;

/* "X86", "C", "Java" (case-insensitive; "JAVA" too).  False if unknown. */
bool gen_arch_parse(const char *name, gen_arch_id *out);

/* The longest cycle gen accepts. */
enum { GEN_MAX_EDGES = 32 };

typedef struct gen_test {
    char *name;     /* diy7's name for the cycle: "SB", "MP+porlxrel+poacqrlx" */
    char *cycle;    /* the normalised cycle, edges separated by spaces */
    char *text;     /* the litmus test */
    int nprocs;
} gen_test;

typedef struct gen_one_opts {
    const char *name;       /* use this test name instead of diy7's; NULL for diy7's */
    bool keep_order;        /* keep the cycle as given instead of normalising it */
    const char *generator;  /* value of the Generator= info line; NULL for the default */
} gen_one_opts;

/* The test for the cycle EDGES[0..N-1] (edge names, one per element).
 * False with D set (status 2) when an edge is unknown, cannot be
 * expressed on ARCH, or the sequence is not a cycle. */
bool gen_one(gen_arch_id arch, const char *const *edges, int n, const gen_one_opts *o,
             gen_test *out, diag *d);
void gen_test_free(gen_test *t);

/* Every cycle of at most SIZE edges drawn from RELAX and SAFE (lists of
 * edge names; a relaxation in brackets, "[Rfi,PodRR]", stands for that
 * sequence), with at least one relaxation when RELAX is not empty, as
 * diy7 enumerates them.  Cycles equal up to rotation, and cycles whose
 * normalised form was already produced, come once.  */
typedef enum gen_mode { GEN_MODE_DEFAULT, GEN_MODE_CRITICAL, GEN_MODE_SC } gen_mode;

typedef struct gen_enum_opts {
    gen_arch_id arch;
    int size;               /* longest cycle, >= 1 */
    int nprocs;             /* most threads (diy7: 4) */
    int max_ins;            /* most events in a thread (diy7: 4) */
    bool eprocs;            /* exactly nprocs threads */
    gen_mode mode;
    const char *const *relax; int nrelax;
    const char *const *safe; int nsafe;
    int min_relax, max_relax;   /* relaxations a cycle contains (diy7: 1 and 100) */
    bool mix;               /* cycles may mix several relaxations (diy7 -mix) */
    /* Annotations to try wherever an edge leaves one open (diy7
     * -varatom): names, or the single word "all" for every annotation
     * and none. */
    const char *const *varatom; int nvaratom;
    const char *filter;     /* PCRE2 pattern on test names, or NULL */
} gen_enum_opts;

/* Called once per test; return false to stop the enumeration.  The test
 * belongs to the callee (gen_test_free). RELAX_USED lists the
 * relaxations the cycle contains, space-separated. */
typedef bool (*gen_sink)(void *ctx, gen_test *t, const char *relax_used, const char *safe_used);

/* False with D set on bad options (unknown edge, size < 1, bad regex). */
bool gen_enumerate(const gen_enum_opts *o, gen_sink sink, void *ctx, diag *d);

/* The edge names (without annotations) ARCH knows, space-separated,
 * sorted (malloc'd); for --list. */
char *gen_edge_list(gen_arch_id arch);

/* Every fully annotated C edge name gen_one and gen_enumerate take,
 * space-separated (malloc'd), for a sampler drawing cycles: each edge
 * with both directions given (no '*'), with each annotation its events
 * can take (the bare name for two plain events), in groups: the
 * communications (Rfe ... Coi), Pod/Pos, the fences (Fence{Acq,...}d..),
 * the dependencies, the Rmw edges (Exch, RmwAdd, ..., RmwCasW, with
 * and without Ig, each order and failure order) and the access fences
 * (Fence{Xchg,Add,...,Ld,St}[Id][Ig]ORDER[FAIL][Sh]{d,s}XY), the last group
 * by far the largest: a sampler that wants each kind about as often as
 * the others should group names by their prefix first.  Not every
 * sequence of them is a cycle; gen_one says which are not. */
char *gen_c_vocabulary(void);

#endif
