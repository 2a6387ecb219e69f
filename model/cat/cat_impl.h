#ifndef LITMUSC_MODEL_CAT_IMPL_H
#define LITMUSC_MODEL_CAT_IMPL_H
/* Internals shared by the cat loader, resolver, evaluator and primitives:
 * run-time values, frames, the loaded model, and the state of a run (whose
 * values live in util/arena.h arenas). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/cat/cat.h"
#include "model/cat/cat_ast.h"
#include "model/exec.h"
#include "util/arena.h"

/* ---- values ------------------------------------------------------------------
 * herd's cat values are dynamically typed; {} and _ are polymorphic (they
 * take the type of what they meet).  0 is the empty relation. */
typedef enum cv_kind {
    CV_EMPTY,   /* {}: empty set of anything */
    CV_UNIV,    /* _: all events, or all pairs */
    CV_SET,     /* set of events (bitset) */
    CV_REL,     /* relation on events (n rows) */
    CV_EVENT,   /* one event (from matching on a set) */
    CV_TAG,     /* 'name */
    CV_TUPLE,   /* (v1, ..., vn); n = 0 is unit */
    CV_VSET,    /* set of values (sets of relations, of tags, ...) */
    CV_CLOS,    /* function value */
    CV_PRIM,    /* built-in function */
    CV_PROC,    /* procedure */
} cv_kind;

struct cat_frame;

typedef struct cat_clos {
    const cat_fun *fun;         /* CV_CLOS */
    const cat_ins *proc;        /* CV_PROC */
    struct cat_frame *env;      /* enclosing function frame (NULL at top level) */
} cat_clos;

typedef struct cat_val {
    uint8_t kind;
    int32_t n;                  /* TUPLE/VSET length; EVENT index; TAG id; PRIM id */
    union {
        const exec_set *set;    /* in an arena, never written through once built */
        exec_rel *rel;          /* never written through once built */
        struct cat_val *elts;
        cat_clos *clos;
    } u;
} cat_val;

typedef struct cat_frame {
    struct cat_frame *up;
    cat_val v[];
} cat_frame;

/* ---- built-in names ------------------------------------------------------------ */
typedef enum cat_builtin {
    /* event sets */
    CB_M, CB_R, CB_W, CB_IW, CB_FW, CB_F, CB_B, CB_RMW, CB_EXP, CB_NEXP,
    CB_NA, CB_RLX, CB_CON, CB_ACQ, CB_REL, CB_ACQ_REL, CB_SC, CB_A,
    CB_O, CB_RA, CB_V,
    CB_X, CB_MFENCE, CB_LFENCE, CB_SFENCE,
    CB_LK, CB_LKR, CB_LKW, CB_LS, CB_LF, CB_UL,
    /* AArch64 (cat_prim_a64.c): release, acquirePC, LSE without result,
     * barriers, and the register and branch events of a model that
     * computes its own dependencies (catdep) */
    CB_L, CB_Q, CB_NORET,
    CB_DMB_SY, CB_DMB_ST, CB_DMB_LD, CB_DMB_ISH, CB_DMB_ISHST, CB_DMB_ISHLD,
    CB_DMB_OSH, CB_DMB_OSHST, CB_DMB_OSHLD,
    CB_DSB_SY, CB_DSB_ST, CB_DSB_LD, CB_DSB_ISH, CB_DSB_ISHST, CB_DSB_ISHLD,
    CB_DSB_OSH, CB_DSB_OSHST, CB_DSB_OSHLD, CB_ISB,
    CB_BCC, CB_RREG, CB_WREG, CB_DATA_PORT, CB_NDATA,
    /* AArch64 sets of what litmusc's tests never have (virtual memory,
     * tags, caches, exceptions, instruction fetch): always empty */
    CB_A64_EMPTY_FIRST,
    CB_A64_EMPTY_LAST = CB_A64_EMPTY_FIRST + 39,
    CB_SET_LAST = CB_A64_EMPTY_LAST,
    /* relations */
    CB_ID, CB_LOC, CB_INT, CB_EXT, CB_PO, CB_RF, CB_RMWREL, CB_AMO,
    CB_ADDR, CB_DATA, CB_CTRL, CB_SM, CB_SI, CB_PARTIAL_PO,
    /* AArch64: intra-instruction order, register read-from, instances */
    CB_IICO_DATA, CB_IICO_CTRL, CB_IICO_ORDER, CB_RF_REG, CB_SAME_INSTANCE,
    CB_SAME_LOW_ORDER_BITS, CB_INV_DOMAIN, CB_SAME_TAG_LOC,
    CB_REL_LAST = CB_SAME_TAG_LOC,
    /* functions */
    CB_DOMAIN, CB_RANGE, CB_CLASSES_LOC, CB_CLASSES, CB_LINEARISATIONS, CB_FAIL,
    CB_DIFFERENT_VALUES, CB_CROSS_ORDERS, CB_CROSS,
    /* AArch64's functions over page-table entries (empty without them) */
    CB_SAME_OA, CB_OA_CHANGES, CB_AT_LEAST_ONE_WRITABLE,
    CB_COUNT
} cat_builtin;

const char *cat_builtin_name(int b);
/* Which built-in sets and relations depend only on the events and po (not
 * on rf, co, FW or values): those are cached across candidates. */
bool cat_builtin_static(int b);

/* A register or branch event that litmusc's executions do not have but a
 * model that computes its own dependencies (herd's `catdep`) reads them
 * from: the register written by a read (CV_WREG), the address and data
 * ports of an access (VEV_ADDR, VEV_DATA), the expected-value port of a
 * CAS's write, which decides it rather than feeds it (VEV_PICK), a
 * conditional branch placed
 * just before the first event it controls (VEV_BCC) and the flags it
 * reads (VEV_FLAGS); and for an address or a data port that a value only
 * picked by a read feeds, the register read that picks (VEV_PIN) and the
 * register it writes (VEV_POUT), iico_ctrl between them.  HOST is that
 * real event. */
typedef enum cat_vev_kind {
    VEV_WREG, VEV_ADDR, VEV_DATA, VEV_PICK, VEV_PIN, VEV_POUT, VEV_BCC, VEV_FLAGS
} cat_vev_kind;
typedef struct cat_vev {
    uint8_t kind;
    int host;
    int branch;                 /* VEV_FLAGS: its branch's event index; VEV_PIN, VEV_POUT:
                                   the port's (VEV_ADDR or VEV_DATA) */
} cat_vev;

/* ---- the loaded model ------------------------------------------------------------ */
struct cat_model {
    char *name, *title;
    char **files;               /* every file name referenced by nodes (owned) */
    int nfiles;
    cat_file **parsed;          /* parsed files (own the trees) */
    int nparsed;
    const cat_ins **top;        /* top-level instructions after includes, in order */
    int ntop;
    int nglobals;               /* global frame size; slots < CB_COUNT are built-ins */
    char **flags;
    int nflags;
    char **tags;                /* interned tags ('x), declared by enum */
    int ntags;
    bool generates_co;
    bool catdep;                /* some file says `catdep`: it computes the dependencies from
                                   register events, which each run then adds (cat_prim_a64.c) */
    bool handles_locks;         /* names one of herd's lock sets (LK ... UL) */
    int co_slot;                /* slot bound by `with co from` (or -1) */
    bool *global_dyn;           /* per global slot: using it makes a value depend on the
                                   candidate (for a function: its body does) */
    char **top_names;           /* the names bound at the top level at the end, each once */
    int *top_slots;             /* their global slots (the last binding of each) */
    int ntop_names;
};

/* Resolve names, inline includes (stdlib.cat first), decide liveness and
 * which globals are candidate-independent (cat_resolve.c).  MAIN was parsed
 * from MAIN_PATH (NULL: not a file) and becomes owned by M. */
bool cat_resolve(cat_model *m, cat_file *main_file, const char *main_path, diag *d);
/* Which top-level instructions must run for the checks and for the global
 * slots ROOTS[0..NROOTS): OUT[i] for m->top[i] (cat_resolve.c). */
void cat_liveness(const cat_model *m, const int *roots, int nroots, bool *out);
/* ---- files (cat_find.c) ------------------------------------------------------------ */
/* The whole of the file at PATH (malloc'd), or NULL with errno set. */
char *cat_read_file(const char *path);
/* The embedded model/cat/NAME (NAME with its ".cat"): its text and the path
 * to show in messages, "model/cat/NAME" (both malloc'd), or NULL. */
char *cat_embedded_text(const char *name, char **path);
/* Find an included file: beside FROM_PATH (when it is a real file), then
 * among the embedded model/cat files.  Returns its text (malloc'd) and the
 * path to show in messages (malloc'd), or false (the caller says why). */
bool cat_find_include(const char *name, const char *from_path, char **text, char **path);
/* Keep a file name alive as long as the model; returns the stored copy. */
const char *cat_model_intern_file(cat_model *m, const char *path);

/* ---- evaluation ------------------------------------------------------------------- */
/* Values asked for by name (cat_show.c), set for one run and cleared
 * after it: the top-level instructions to run (NULL: those the checks
 * need), and the global slots whose values the first consistent branch
 * copies out. */
typedef struct cat_want {
    const bool *live;
    const int *slots;
    int n;
    exec_rel *out;              /* one per slot: the value, when it is a relation */
    int *kind;                  /* one per slot: its kind (cv_kind) */
    bool done;                  /* a consistent branch was reached and copied */
} cat_want;

struct cat_run {
    const cat_model *m;
    arena arena;                /* everything a candidate evaluation allocates; marks let a
                                   `with` branch give back what it allocated */
    arena static_arena;         /* values cached while the event structure is unchanged */
    arena *cur;                 /* where new values go */
    exec_rel *zero, *univ, *ident;  /* shared constants for the current n */
    cat_val *globals;
    bool *ins_cached;           /* per top-level instruction: its static value is cached */
    const exec *x;
    int n;                      /* events: x->n, then the virtual ones (nvirt) */
    exec_set all;               /* {0..n-1} */
    int nvirt;                  /* register and branch events a catdep model sees */
    cat_vev *virt;              /* nvirt of them, events x->n ... n-1 (cat_prim_a64.c) */
    /* cache key of the static part */
    bool have_key;
    uint64_t key_hash;
    exec *key;                  /* copy of the fields the static values depend on */
    /* evaluation result */
    cat_verdict *out;
    diag *d;
    bool error;
    bool dry;                   /* type-checking run at load time */
    cat_want want;
    uintptr_t stack_base;       /* frame address where cat_run_check began (0: not known) */
    uintptr_t stack_budget;     /* bytes of stack past stack_base a model may use */
    model_meter *meter;         /* the run's budget (cat_run_set_meter), or NULL */
};

/* How much stack a model's recursion may take before it is stopped with an
 * error: half the usual 8 MB main-thread stack, and never more than half of
 * the process's own stack limit, so that a model recursing without end (or
 * over a million orders) fails cleanly rather than crash. */
#define CAT_STACK_BUDGET ((uintptr_t)4 << 20)
uintptr_t cat_stack_budget(void);

/* Fill the built-in slots of r->globals for r->x (cat_prim.c). */
void cat_prim_fill(struct cat_run *r, bool statics, bool dynamics);
/* AArch64's part of the built-in sets of the real events into S
 * (cat_prim_a64.c). */
void cat_a64_sets(struct cat_run *r, exec_set *s);
/* Lay out R's virtual events for r->x (cat_prim_a64.c): sets r->nvirt;
 * false when x->n plus them pass EXEC_MAX. */
bool cat_a64_layout(struct cat_run *r);
/* Fill the AArch64 relations (iico_data, rf-reg, same-instance, ...) and
 * widen po, int, ext to the virtual events (cat_prim_a64.c). */
void cat_a64_rels(struct cat_run *r, exec_rel *po, exec_rel *in, exec_rel *ext);
/* Apply built-in function B to ARG at node E (for messages). */
bool cat_prim_apply(struct cat_run *r, int b, cat_val arg, const cat_expr *e, cat_val *out);

/* Helpers shared by the evaluator and the primitives (cat_val.c). */
exec_rel *cat_new_rel(struct cat_run *r);
bool cat_type_error(struct cat_run *r, const char *file, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
const char *cat_kind_name(int kind);
int cat_val_cmp(const struct cat_run *r, const cat_val *a, const cat_val *b);
cat_val cat_vset_make(struct cat_run *r, cat_val *elts, int n);   /* sorts and dedups */
/* A type error at node E, in a function whose run is R. */
#define TERR(e, ...) cat_type_error(r, (e)->file, (e)->line, (e)->col, __VA_ARGS__)

/* Shared by expressions (cat_eval.c) and instructions (cat_exec.c); the
 * value helpers and frames are in cat_val.c.  cat_want_rel and
 * cat_want_set take {} and _ as the empty and the full relation or set;
 * OP names the operator in the message. */
bool cat_want_rel(struct cat_run *r, const cat_expr *e, cat_val v, const char *op, exec_rel **out);
bool cat_want_set(struct cat_run *r, const cat_expr *e, cat_val v, const char *op, exec_set *out);
bool cat_val_is_empty(const struct cat_run *r, const cat_val *v);
bool cat_vset_has(struct cat_run *r, const cat_val *s, const cat_val *x);
cat_frame *cat_new_frame(struct cat_run *r, int nslots, cat_frame *up);
/* Bind V to PT in FR (NULL: the globals); WHAT names the binder in messages. */
bool cat_bind_pattern(struct cat_run *r, const cat_pat *pt, cat_val v, cat_frame *fr, const cat_expr *at,
                      const char *what);
static inline cat_val *cat_slot_ref(struct cat_run *r, cat_frame *fr, int slot)
{
    return fr ? &fr->v[slot] : &r->globals[slot];
}
bool cat_eval(struct cat_run *r, const cat_expr *e, cat_frame *fr, cat_val *out);
/* A let or let rec (REC) in FR; AT is where to report errors. */
bool cat_eval_binds(struct cat_run *r, const cat_bind *b, int nb, bool rec, cat_frame *fr,
                    const cat_expr *at);
/* Run the model's top-level instructions on r->x into r->out; false on an
 * error (cat_exec.c). */
bool cat_exec_top(struct cat_run *r);

/* A set of events keeps its EXEC_WORDS words in R's current arena, as a
 * relation does, so that a value stays two words long and copies cheaply. */
static inline cat_val cv_set(struct cat_run *r, exec_set s)
{
    exec_set *p = arena_alloc(r->cur, sizeof *p);
    *p = s;
    cat_val v = {CV_SET, 0, {.set = p}};
    return v;
}
static inline cat_val cv_rel(exec_rel *x) { cat_val v = {CV_REL, 0, {.rel = x}}; return v; }
static inline cat_val cv_kind_only(int k) { cat_val v = {(uint8_t)k, 0, {.set = NULL}}; return v; }

#endif
