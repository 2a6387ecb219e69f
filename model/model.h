#ifndef LITMUSC_MODEL_MODEL_H
#define LITMUSC_MODEL_MODEL_H
/* The model stage's API: load a memory model, and compute a test's
 * behaviour set under it (bset.h), or walk its consistent executions.
 * This is what the harness and every backend compare against. */
#include "ir/ir.h"
#include "model/bset.h"
#include "model/budget.h"
#include "util/diag.h"
#include "util/mem.h"

typedef struct model model;

/* Load a built-in model by name ("sc", "x86tso", "rc11", "jam21", "jls04") or a
 * .cat file by path (herd's own files run unchanged; includes are looked up
 * beside the file, then among the built-in files).  NULL + diag on error:
 * an unknown name, or the name of an embedded file that is no model (cos,
 * stdlib, ...: the models include them), is status 2. */
model *model_load(const char *name_or_path, diag *d);
void model_free(model *m);

/* Models loaded once per name (a batch of tests uses one or two). */
typedef struct model_set model_set;
model_set *model_set_new(void);
/* The model NAME (loaded on first use); NULL + diag as model_load. */
model *model_set_get(model_set *s, const char *name, diag *d);
void model_set_free(model_set *s);
const char *model_name(const model *m);          /* base name, e.g. "rc11" */
/* Whether enumeration skips candidates the model is known to reject
 * (per-location coherence, RMW atomicity); on by default for the built-in
 * sc, x86tso and rc11, and off when LITMUSC_NO_PRUNE is set.  Counts are
 * the same either way; only the time differs. */
void model_set_pruning(model *m, bool on);
/* Whether a consistent execution that runs a loop past its unrolling bound
 * is dropped, as herd7 drops it, rather than stopping the run with status 3
 * (the default, for a loop that is no spin loop: outcomes may be missing).
 * A cut that loses outcomes is reported in bset's lossy_* fields.  The
 * JLS04 model ignores it (it refuses such loops). */
void model_set_cut_loops(model *m, bool on);
/* The built-in models, by name (model/cat/NAME.cat), NULL-terminated:
 * sc, x86tso, rc11, jam21. */
const char *const *model_builtin_names(void);
/* The built-in models that are no cat file, NULL-terminated: jls04, the
 * Java 5 memory model with its causality requirements (model/jls04/jls04.h). */
const char *const *model_multi_names(void);
/* herd's default model for an arch: x86tso for X86, rc11 for C, jam21 for Java. */
const char *model_default_name(ir_arch arch);

/* The budget of every model run from now on (model/budget.h: candidate
 * executions and seconds, each 0 for no limit); until it is set,
 * MODEL_MAX_CANDIDATES_DEFAULT and MODEL_TIMEOUT_DEFAULT.  A run that
 * spends it fails with status 3, naming it. */
void model_set_budget(const model_budget *b);
model_budget model_get_budget(void);

/* Compute the behaviour set of T under M.  NULL + diag on error. */
bset *model_run(const model *m, const ir_test *t, diag *d);

/* ---- looking inside: every consistent execution ---------------------------- */
/* For tools that need the executions behind the set (races, pictures): the
 * same run, with FN called on every consistent execution as it is found.
 * The exec (model/exec.h) is valid during the call only. */
struct exec;
typedef struct model_exec_info {
    uint64_t index;         /* 1, 2, ... in the order they are found */
    const ir_val *state;    /* its final state, one value per bset.obs[] */
    bool cond;              /* the condition's proposition holds in it */
    bool undef;             /* the model flagged it undefined */
} model_exec_info;
/* FN returns false to stop the run (model_run_observed then returns NULL
 * with D as FN left it). */
typedef bool (*model_exec_fn)(void *ctx, const struct exec *x, const model_exec_info *info, diag *d);
bset *model_run_observed(const model *m, const ir_test *t, model_exec_fn fn, void *ctx, diag *d);

#endif
