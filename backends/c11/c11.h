#ifndef LITMUSC_BACKENDS_C11_C11_H
#define LITMUSC_BACKENDS_C11_C11_H
/* The C11 native target: each thread's IR as a C function on _Atomic cells
 * (see backends/native.h for the mapping of access modes). */
#include "backends/native.h"

char *c11_generate(const ir_test *t, const native_opts *o, diag *d);

/* The memory_order spelling for an access of mode M by operation OP
 * (IR_LOAD, IR_STORE, IR_RMW or IR_FENCE), already made legal for OP
 * (C forbids e.g. a release load); NULL for a plain access that is
 * emitted as volatile.  Exported for the unit tests. */
const char *c11_order(ir_mode m, ir_op op, bool plain_as_relaxed);

#endif
