#ifndef LITMUSC_MODEL_VALUES_H
#define LITMUSC_MODEL_VALUES_H
/* Symbolic values of one thread path: constants, the value a read event
 * returns (a "read slot"), and binary operations on them.  Paths are built
 * once per thread; a candidate execution then gives values to the slots.
 * Expressions are hash-consed into a pool and constant-folded as they are
 * built, so a value that does not depend on any read is a constant. */
#include <stdbool.h>
#include <stdint.h>
#include "ir/ir.h"

enum vx_op { VX_CONST, VX_READ, VX_BIN };

typedef struct vexpr {
    enum vx_op op;
    ir_binop bop;       /* VX_BIN */
    int a, b;           /* VX_BIN operands (pool indices) */
    int slot;           /* VX_READ: read slot */
    ir_val c;           /* VX_CONST */
    uint64_t deps;      /* read slots this value depends on (bit per slot) */
    uint64_t pdeps;     /* read slots that only picked it (AArch64: a CAS's compare
                           deciding what Rs holds, herd's iico_ctrl): no part of
                           its value, but a pick dependency of what uses it */
} vexpr;

typedef struct vpool {
    vexpr *e;
    int n, cap;
} vpool;

void vp_free(vpool *p);
int vx_const(vpool *p, ir_val c);
int vx_read(vpool *p, int slot);
/* a OP b, folded when both are constants.  Division by zero folds to the
 * constant 0 (such a path is meaningless and herd never prints one). */
int vx_bin(vpool *p, ir_binop op, int a, int b);
/* E, also picked by the read slots SLOTS (a node of its own). */
int vx_picked(vpool *p, int e, uint64_t slots);
static inline bool vx_is_const(const vpool *p, int e) { return p->e[e].op == VX_CONST; }

/* Value of E given read-slot values VALS (only slots in KNOWN are valid).
 * False when E depends on a slot not yet known. */
bool vx_eval(const vpool *p, int e, const ir_val *vals, uint64_t known, ir_val *out);

#endif
