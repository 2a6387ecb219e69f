#ifndef LITMUSC_MODEL_GRAPH_H
#define LITMUSC_MODEL_GRAPH_H
/* Pictures of executions, as herd7's `-show prop -gv` draws them: the dot
 * text of one consistent execution (model_run_observed hands them out).
 *
 * Events are grouped by thread, one cluster each, top to bottom in
 * program order, with the initial writes above them; a node is named by
 * its event's letter (a, b, ... in thread order; initial writes "init x")
 * and labelled as herd labels it (`a: W x=1`, `b: R[rlx] y=0`, `c:
 * RMW[acq_rel] x=0->1`, `d: F[sc]`, `MFENCE`).  Edges, each labelled with
 * its relation's name:
 *   po    black, between neighbours in program order
 *   rf    red
 *   co    blue, to the next write in coherence order (the rest follow)
 *   fr    orange, rf^-1;co to the first write the read does not see
 *   rmw   purple (the two halves of an x86 locked instruction)
 *   NAME  each relation of the model asked for, every pair, in its own colour
 *   race  red, dashed, no arrow: two accesses of one location from
 *         different threads, not both atomic, unordered by happens-before
 *         (hb.h), as in C and Java; x86 accesses never race. */
#include <stdbool.h>
#include "model/model.h"
#include "util/diag.h"

typedef struct model_graph model_graph;

/* Pictures of executions under M with the model's relations
 * SHOW[0..NSHOW) drawn too (names the model binds at the top level:
 * `hb`, `ppo`, `sw`, or a built-in such as `addr`).  Checked here, once:
 * NULL + diag (status 2) naming a name M does not define or that is no
 * relation. */
model_graph *model_graph_new(const model *m, const char *const *show, int nshow, diag *d);
void model_graph_free(model_graph *g);

/* The dot text (malloc'd) of execution X of its test (X->test), as
 * model_run_observed gives it with INFO.  NULL + diag when the model
 * fails while computing a shown relation. */
struct exec;
char *model_graph_dot(model_graph *g, const struct exec *x, const model_exec_info *info, diag *d);

#endif
