#ifndef LITMUSC_MODEL_CAT_H
#define LITMUSC_MODEL_CAT_H
/* The cat language: herd's model description language, loaded once per
 * model and evaluated on every candidate execution.
 *
 * A model is parsed and resolved (names to slots, includes inlined) by
 * cat_load; cat_run_check then evaluates its instructions on one exec.
 *
 * How coherence is shared with the enumerator.  In herd, co is not a
 * primitive: a model builds it with `with co from generate_cos(P)` (cos.cat).
 * Enumerating co in the interpreter would forgo the enumerator's pruning, so:
 *   - cat_model_generates_co(m) says whether the model binds co that way;
 *   - if so, the enumerator fills exec.co with each candidate coherence
 *     order (per location total over its writes, IW first, FW last), and the
 *     interpreter's `with co from E` binds co to exec.co, keeping the
 *     candidate iff exec.co is one of E's orders (for generate_cos(P) and
 *     generate_orders(S,P): iff P restricted to same-location writes is
 *     included in exec.co);
 *   - if not (e.g. jam21), exec.co is ignored and `co` is an unbound name.
 * Every other `with x from E` is enumerated by the interpreter itself; each
 * choice is one more execution in herd's counts (cat_verdict.consistent).
 *
 * Event sets and relations a model sees (herd's names), derived from exec:
 *   sets:  _ (all events), M R W IW FW F B RMW Exp (= M) NExp (empty);
 *          C: NA RLX CON ACQ REL ACQ_REL SC A;  Java: O RA V (and ACQ REL);
 *          X86: X MFENCE LFENCE SFENCE;
 *          AArch64: A L Q (acquire, release, acquirePC accesses), X
 *          (exclusives, LSE atomics that write, reads without result),
 *          NoRet, DMB.SY ... DMB.OSHLD, DSB.SY ... DSB.OSHLD, ISB, and
 *          herd's sets of what litmusc's tests never have (TLBI, DC.CVAU,
 *          IC.*, PTE, T, FAULT, Instr, ...: empty).  Sets of another arch
 *          are empty.
 *   rels:  id loc int ext po rf rmw amo (the rmw pairs of one instruction)
 *          addr data ctrl sm si same-instance iico_data iico_ctrl, and co
 *          (see above).  stdlib definitions (po-loc rfe rfi fencerel ...)
 *          are always in scope, as in herd.
 *
 * A model that says `catdep` (herd's aarch64.cat, and litmusc's aarch64)
 * computes the dependencies itself from register events, as herd builds
 * them for each instruction; litmusc's executions have none, so each run
 * adds them after the real events, rebuilt from exec's addr, data, ctrl
 * and pick (cat_prim_a64.c): a register write Wreg for each read that
 * something depends on, address and data ports (Rreg, DATA) for each
 * access that depends on a read, a conditional branch (BCC, also in B)
 * with its flags read before the first event each read controls, and a
 * CAS's expected-value port; rf-reg links them, iico_data carries a value
 * inside an instruction (and an LDADD's read into its write), iico_ctrl a
 * CAS's compare into its write.  A model without catdep sees none of
 * them (Rreg, Wreg, DATA and BCC are empty). */
#include <stdbool.h>
#include <stdint.h>
#include "model/budget.h"
#include "model/exec.h"
#include "util/diag.h"

typedef struct cat_model cat_model;

/* NAME_OR_PATH is the name of an embedded file (model/cat/NAME.cat: the
 * models sc, x86tso, rc11 and jam21, and the files they include, such as
 * cos and stdlib; model_load lets only the models through) or a path to a
 * .cat file.  `include "F"` is looked up beside the including file, then
 * among the embedded model/cat/ files.  NULL + diag (file:line:col of the
 * fault) on error. */
cat_model *cat_load(const char *name_or_path, diag *d);
/* The same from text in memory; FILE names it in diagnostics and is where
 * includes are looked up first (may be NULL: embedded files only). */
cat_model *cat_load_text(const char *text, const char *file, diag *d);
void cat_free(cat_model *m);

/* Base name without directory and ".cat", e.g. "rc11". */
const char *cat_model_name(const cat_model *m);
/* Whether the model binds co with `with co from ...` (see above). */
bool cat_model_generates_co(const cat_model *m);
/* Whether the model names one of herd's lock sets (LK, LKR, LKW, LS, LF,
 * UL): such a model orders locks itself, as herd's c11 models do with their
 * lock order, so its candidates have herd's lock events, which are neither
 * reads nor writes (in no R, W, M, A, RMW, and no rf).  Any other model
 * sees a lock as an acquire RMW of the mutex and an unlock as a release
 * write, the meaning litmusc's own models give them. */
bool cat_model_handles_locks(const cat_model *m);

/* Names of `flag ... as NAME` checks, in order of first appearance. */
int cat_model_nflags(const cat_model *m);
const char *cat_model_flag_name(const cat_model *m, int i);

typedef struct cat_verdict {
    uint64_t consistent;    /* consistent variants of the candidate (0: rejected) */
    bool undef;             /* some consistent variant failed an undefined_unless
                               (herd prints `Flag *undef*`) */
    uint64_t flags;         /* bit i: flag cat_model_flag_name(m, i) raised by some
                               consistent variant */
} cat_verdict;

/* Scratch space for evaluating one model; one per thread of evaluation.
 * It may cache values that depend only on the events and po, and notices
 * by itself when those change between calls. */
typedef struct cat_run cat_run;
cat_run *cat_run_new(const cat_model *m);
void cat_run_free(cat_run *r);
/* The budget that R's `with`s count against (each order tried after the
 * first is one more candidate execution) and whose clock the orders that
 * `linearisations` and its kin list look at; NULL (the default): none. */
void cat_run_set_meter(cat_run *r, model_meter *m);
/* Evaluate the model on X.  False + diag only for an evaluation error in
 * the model (a run-time type error, `fail`, a failed match) or a budget
 * spent (status 3). */
bool cat_run_check(cat_run *r, const exec *x, cat_verdict *out, diag *d);

/* One-shot form of cat_run_check (allocates scratch each call). */
bool cat_check(const cat_model *m, const exec *x, cat_verdict *out, diag *d);

/* Named relations, for pictures of executions (herd's -show; cat_show.c).
 * A name is one the model binds at the top level when it ends (its own
 * lets, stdlib's, the built-ins such as po and rf); its definition is
 * evaluated even when no check needs it.
 *
 * cat_model_check_relations: whether M binds each of NAMES[0..N) to a
 * relation, decided once, before any execution (by a dry run on no
 * events).  False + diag (status 2) naming the first that M does not
 * define ("cannot show 'x': model rc11 defines no such name") or that is
 * no relation (a set, a function, ...). */
bool cat_model_check_relations(const cat_model *m, const char *const *names, int n, diag *d);
/* Evaluate R's model on X and copy into OUT[k] the relation bound to
 * NAMES[k] in X's first consistent branch (a model whose `with` chooses
 * among several may bind other values in other branches).  False + diag:
 * an evaluation error, a name as above, or an X the model rejects. */
bool cat_run_relations(cat_run *r, const exec *x, const char *const *names, int n, exec_rel *out, diag *d);
/* The same for one name. */
bool cat_run_relation(cat_run *r, const exec *x, const char *name, exec_rel *out, diag *d);

#endif
