#ifndef LITMUSC_IR_LOWER_H
#define LITMUSC_IR_LOWER_H
/* Lowering: a parsed litmus test (frontend/ast.h) -> verified SSA IR.
 *
 * Registers become SSA values, branches join through phis, accesses get
 * their modes from the source language (ir/README.md lists the mapping),
 * and the condition, `locations` and `filter` are lowered onto observables.
 * Errors (a backward jump, an unbound Java handle, an order a call does not
 * take...) are reported at the offending source position. */
#include "frontend/ast.h"
#include "ir/ir.h"
#include "util/diag.h"

/* How often a loop's body runs at most where the test has no `Unroll=N`
 * line (2, as herd7's -unroll; the CLI's --unroll sets it). */
extern int ir_lower_unroll;

/* NULL + diag on error; the result has passed ir_verify. */
ir_test *ir_lower(const fe_test *ft, diag *d);

#endif
