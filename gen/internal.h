#ifndef LITMUSC_GEN_INTERNAL_H
#define LITMUSC_GEN_INTERNAL_H
/* Shared between the files of gen/: edges, the per-arch vocabulary, the
 * event cycle, and the steps from an edge list to a test.  The orders of
 * the enumerations below matter: they are the orders diy7 compares edges
 * in when it picks the normal form of a cycle (gen/normalise.c). */
#include <stdbool.h>
#include "gen/gen.h"
#include "util/mem.h"

/* Directions: W before R, as diy7 orders them; IRR is "either" (the '*'
 * of Pod*W), resolved from the neighbouring edges. */
enum { GD_W = 0, GD_R = 1, GD_IRR = 2 };

/* Edge kinds, in diy7's order. */
typedef enum gen_kind { GK_RF, GK_FR, GK_WS, GK_PO, GK_FENCED, GK_DP, GK_RMW } gen_kind;

enum { GEN_DP_ADDR, GEN_DP_DATA, GEN_DP_CTRL };

/* C's atomic operations for the Rmw edge and a fence made of an access
 * (gen/rmw.c); LD and ST only make such fences. */
enum { GEN_OP_XCHG, GEN_OP_ADD, GEN_OP_SUB, GEN_OP_AND, GEN_OP_OR, GEN_OP_XOR, GEN_OP_CAS, GEN_OP_CASW,
       GEN_OP_LD, GEN_OP_ST, GEN_NOPS };

typedef struct gen_edge {
    gen_kind kind;
    bool ext;       /* Rf/Fr/Ws: between threads */
    bool diff;      /* Po/Fenced/Dp: between different locations */
    int src, tgt;   /* GD_*: directions of the source and target events */
    int fence;      /* GK_FENCED: index in the arch's fences */
    int dp;         /* GK_DP: GEN_DP_* */
    int a1, a2;     /* annotations of source and target (-1: none, plain) */
    /* C's read-modify-writes: the Rmw edge (GK_RMW, its order read from
     * a1 and a2) and a fence made of an atomic access on a location of
     * its own (GK_FENCED with afence).  All zero elsewhere. */
    bool afence;    /* GK_FENCED: an atomic access, not a fence */
    int op;         /* GEN_OP_* */
    int mo;         /* afence: the access's order (an atom) */
    int fail;       /* CAS: failure order + 1; 0 for C's default from the success order */
    bool unused;    /* the result is not kept */
    bool idem;      /* afence: the operand leaves the value as it is */
    bool shared;    /* afence: on the location every thread's shared fences use */
} gen_edge;

/* What an architecture can say. */
typedef struct gen_arch {
    gen_arch_id id;
    const char *name;               /* header word: "X86", "C", "Java" */
    int natoms;
    const char *const *atoms;       /* annotation names, in comparison order */
    unsigned atom_w, atom_r;        /* bit i: atom i applies to writes / reads */
    int as_a;                       /* atom also spelled "A", or -1 */
    const char *plain;              /* spelling of "no annotation": "Na", "Pl" */
    int nfences;
    const char *const *fences;      /* fence edge prefixes: "MFence", "FenceSc" */
    int strong;                     /* the fence "Fenced**" stands for */
    unsigned dp_r, dp_w;            /* bit GEN_DP_*: dependencies to a read / a write */
    bool rmw;                       /* has the Rmw (exchange) edge, plain (X86) */
    bool c_rmw;                     /* C's annotated Rmw edges and access fences (gen/rmw.c) */
    bool optcond;                   /* condition only shows reads next to a com or same-location edge */
    bool final_single_atomic;       /* final value of a location written once, if an access to it is annotated */
} gen_arch;

const gen_arch *gen_arch_get(gen_arch_id id);

/* --- edges (gen/edge.c) --- */
int gen_dir_src(const gen_edge *e);
int gen_dir_tgt(const gen_edge *e);
void gen_set_src(gen_edge *e, int d);
void gen_set_tgt(gen_edge *e, int d);
bool gen_is_ext(const gen_edge *e);     /* Rfe, Fre, Coe */
bool gen_is_com(const gen_edge *e);     /* Rf, Fr, Ws, internal or not */
bool gen_same_loc(const gen_edge *e);
bool gen_atom_applies(const gen_arch *a, int atom, int dir);
/* Does REST spell the annotations A1 A2 (-1: none) in one of diy7's ways
 * ("NaRel", "PRel", "AA" for ScSc on C)? */
bool gen_annotations_match(const gen_arch *a, int a1, int a2, const char *rest);
/* Parse one edge name.  Returns 1 on success, 0 when the name means
 * nothing on any arch, -1 when it is an edge of another arch only. */
int gen_edge_parse(const gen_arch *a, const char *s, gen_edge *out);
/* diy7's spelling of E (pp_edge): base name and annotations. */
void gen_edge_name(const gen_arch *a, const gen_edge *e, strbuf *out);
/* diy7's order on edges (OCaml's structural comparison). */
int gen_edge_poly_cmp(const gen_edge *x, const gen_edge *y);
bool gen_edge_equal(const gen_edge *x, const gen_edge *y);

/* --- C's read-modify-writes and access fences (gen/rmw.c) --- */
/* Parse S as a C Rmw edge ("RmwAddAcqRel") or access fence
 * ("FenceRmwAddScdWR"); false when it is neither. */
bool gen_rmw_parse(const gen_arch *a, const char *s, gen_edge *out);
/* The base names: "Exch", "RmwAddIg"; "FenceRmwAddIdSc" for a fence
 * (before its d/s and directions).  COMPAT: diy7's "Rmw" for "Exch". */
void gen_rmw_base(const gen_edge *e, bool compat, strbuf *out);
/* The annotations after an Rmw edge's base: a1, a2 and a CAS's failure
 * order when it is not C's default. */
void gen_rmw_annotations(const gen_arch *a, const gen_edge *e, strbuf *out);
/* Compare the RMW fields of two edges of the same kind. */
int gen_rmw_cmp(const gen_edge *x, const gen_edge *y);
/* The C memory order (an atom) of an Rmw whose read is annotated R and
 * write W: RlxRlx relaxed, AcqRlx acquire, ConRlx consume, RlxRel
 * release, AcqRel acq_rel, ScSc seq_cst; -1 for any other pair. */
int gen_rmw_order(int r, int w);
/* A CAS's failure order (an atom) for success order MO and FAIL (the
 * edge's field). */
int gen_rmw_fail_order(int mo, int fail);
extern const char *const gen_op_names[GEN_NOPS];

/* --- events and the cycle --- */
typedef struct gen_event {
    int dir;        /* GD_R or GD_W */
    int atom;       /* -1: plain */
    bool rmw;       /* read or write half of an Rmw edge */
    int loc;        /* location number (0 is x) */
    int v;          /* value written, or value the witness reads */
    int proc;       /* thread */
    int idx;        /* position in the cycle the test is built from */
} gen_event;

typedef struct gen_cycle {
    const gen_arch *arch;
    int n;
    gen_edge e[GEN_MAX_EDGES];      /* e[i] goes from event i to event i+1 */
    gen_event ev[GEN_MAX_EDGES];
    int nlocs, nprocs;
    int proc_start[GEN_MAX_EDGES + 1]; /* events of thread p: proc_start[p] .. proc_start[p+1]-1 */
    int orig[GEN_MAX_EDGES];        /* position of e[i] in the cycle as given */
    char spelling[GEN_MAX_EDGES][48];  /* e[i] as the user wrote it */
} gen_cycle;

/* Position-carrying error about e[K]: "edge N 'NAME': MESSAGE", N and
 * NAME as the user gave the edge. */
bool gen_edge_error(diag *d, const gen_cycle *c, int k, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Rotate so that event K becomes event 0. */
void gen_rotate(gen_cycle *c, int k);

/* --- normal form and names (gen/normalise.c) --- */
/* The event diy7 starts splitting threads at (the first after an
 * external communication); -1 when the cycle has none. */
int gen_normal_start(const gen_cycle *c);
/* Rotate C into diy7's normal form; returns the old index of the new
 * event 0. */
int gen_normalise(gen_cycle *c);
/* The family name ("SB", "MP", "W+RW+WR") of a resolved cycle starting at
 * a thread's first event; its thread count in *NPROCS. */
void gen_family(const gen_cycle *c, strbuf *out, int *nprocs);
/* Family plus edge suffixes: "SB+mfence+po". */
void gen_test_name(const gen_cycle *c, strbuf *out);

/* --- locations, values, threads (gen/events.c) --- */
bool gen_place(gen_cycle *c, diag *d);
/* Location name: x y z a b ... w x00 x01 ... */
void gen_loc_name(int loc, char *buf, size_t size);
/* The locations in name order (diy7's order for conditions and inits),
 * with their names. */
void gen_locs_by_name(const gen_cycle *c, int *order, char (*names)[8]);

/* One final-state term of the condition. */
typedef struct gen_final {
    int proc;       /* -1 for memory */
    int loc;        /* memory: the location */
    char reg[16];   /* register name for a thread */
    int v;
} gen_final;

/* The memory terms of the condition (locations written twice, and those
 * written once when the arch wants it), in diy7's order; false with D
 * set when a location needs observers (written three times or more). */
bool gen_memory_finals(const gen_cycle *c, gen_final *out, int *n, diag *d);
/* Should a register loaded by event I appear in the condition? */
bool gen_show_read(const gen_cycle *c, int i);

/* "Prefetch=" and "Com=" info values. */
void gen_prefetch_info(const gen_cycle *c, strbuf *out);
void gen_com_info(const gen_cycle *c, strbuf *out);

/* --- printers (gen/emit_*.c): program and condition of the test --- */
typedef struct gen_header {
    const char *name;
    const char *com;        /* quoted comment line: the cycle */
    const char *info;       /* info lines, each ending in a newline */
} gen_header;

bool gen_emit_x86(const gen_cycle *c, const gen_header *h, strbuf *out, diag *d);
bool gen_emit_c(const gen_cycle *c, const gen_header *h, strbuf *out, diag *d);
bool gen_emit_java(const gen_cycle *c, const gen_header *h, strbuf *out, diag *d);
/* " /\ "-joined condition terms. */
void gen_print_condition(const gen_final *f, int n, strbuf *out);

/* The cycle of the N edges, resolved, in the given order; SPELLINGS
 * (or NULL) are their names as the user wrote them. */
bool gen_cycle_from_edges(const gen_arch *a, const gen_edge *edges, const char *const *spellings, int n,
                          gen_cycle *c, diag *d);
/* Parse the N names into C (resolved, in the given order). */
bool gen_parse_cycle(const gen_arch *a, const char *const *names, int n, gen_cycle *c, diag *d);
/* The test for an already resolved cycle C. */
bool gen_build(gen_cycle *c, const gen_one_opts *o, const char *extra_info, gen_test *out, diag *d);

#endif
