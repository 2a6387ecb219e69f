#ifndef LITMUSC_IR_LOWER_INT_H
#define LITMUSC_IR_LOWER_INT_H
/* Shared state of the lowering (internal to ir/lower*.c).
 *
 * A thread is lowered in program order with a map from each source register
 * to its current SSA operand.  Control flow only goes forward, so a join
 * point is complete once the instruction that starts it is reached: the
 * edges still pending for it are merged there, with a phi for each register
 * whose incoming operands differ. */
#include <stdbool.h>
#include "frontend/ast.h"
#include "ir/ir.h"
#include "util/diag.h"

/* An edge into a join point that is not yet a block.  FALL: control falls
 * out of BLOCK, which has no terminator yet.  Otherwise instruction INSTR of
 * BLOCK is a BR or JMP whose target (SIDE 0: then, 1: else) is patched. */
enum { LW_FALL = -1, LW_THEN = 0, LW_ELSE = 1 };

typedef struct lw_edge {
    int block, instr, side;
    ir_operand *vals;       /* the register map along the edge (owned) */
} lw_edge;

typedef struct lw_edges {
    lw_edge *v;
    size_t n, cap;
} lw_edges;

typedef struct lw {
    const fe_test *ft;
    ir_test *t;
    diag *d;
    /* the thread being lowered */
    const fe_thread *ft_th;
    ir_thread *th;
    char **regs;            /* source registers of the thread, by id */
    bool *hidden;           /* C parameters and Java handles: not final registers unless observed */
    int nregs;
    size_t capregs;
    ir_operand *cur;        /* current operand of each register */
    int block;              /* current block; -1 when control cannot reach here */
    int *monitors;          /* Java: the monitors held where the lowering is (locations) */
    int nmonitors, capmonitors;
    const char **monitor_locs;  /* Java: the test's monitors (fe_monitor_locs) */
    int unroll;             /* loops run their body at most this often (ir/lower_loop.c) */
    int nmonitor_locs;
    /* where the instructions being emitted come from */
    int line, col;
    char *src;
} lw;

/* Errors at a source position (always return false / NULL). */
bool lw_error(lw *w, fe_pos pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Registers. */
int lw_find_reg(const lw *w, const char *name);
int lw_add_reg(lw *w, const char *name, bool hidden);     /* existing -> its id */

/* Memory locations: index of NAME, added on first use. */
int lw_loc(lw *w, const char *name);

/* Emission into the current block, tagged with the current source position. */
ir_instr *lw_emit(lw *w, ir_op op);
ir_operand lw_bin(lw *w, ir_binop op, ir_operand a, ir_operand b);   /* folds constants */
ir_operand lw_load(lw *w, ir_operand addr, ir_mode mode);
void lw_store(lw *w, ir_operand addr, ir_operand v, ir_mode mode);
ir_operand lw_rmw(lw *w, ir_rmw_op op, ir_operand addr, ir_operand v, ir_mode mode);
/* A compare-exchange writing V where ADDR holds EXPECTED; its dst is the
 * value read.  The caller adds what differs by language (weak, flag). */
ir_instr *lw_cas(lw *w, ir_operand addr, ir_operand expected, ir_operand v, ir_mode mode, ir_mode fail_mode);
void lw_fence(lw *w, ir_fence_kind k, ir_mode mode);
/* LOCK or UNLOCK of MUTEX; a trylock (TRY) returns its result (1 taken, 0
 * not), the others 0. */
ir_operand lw_lock(lw *w, ir_op op, ir_lock_kind k, ir_operand mutex, bool try);

/* Control flow. */
/* The edge leaving the current block by falling through (current map). */
void lw_add_fall(lw *w, lw_edges *e);
/* End the current block with a BR on COND; the then side goes to a fresh
 * block that becomes current, the else side is returned as a pending edge
 * carrying the current map. */
void lw_branch(lw *w, ir_operand cond, lw_edges *else_edges);
/* End the current block with BR COND whose then side is pending in THEN_EDGES;
 * the else side continues in a fresh block. */
void lw_branch_then(lw *w, ir_operand cond, lw_edges *then_edges);
/* End the current block with a JMP that is pending in E; control is dead after. */
void lw_jump(lw *w, lw_edges *e);
/* Merge the edges (freed) into the current position: afterwards the current
 * block is the join block and the map holds phis where needed.  With no
 * edge, control is dead. */
void lw_join(lw *w, lw_edges *e);
void lw_edges_free(lw_edges *e);
/* Move FROM's edges, maps and all, to the end of TO; FROM is left empty. */
void lw_edges_append(lw_edges *to, lw_edges *from);

/* Per-architecture thread lowering (the thread is set up and current). */
bool lw_x86_thread(lw *w);
bool lw_aarch64_thread(lw *w);
/* After the last AArch64 thread: false (error at the access) when a location is
 * accessed with two sizes, herd's mixed-size test (ir/lower_aarch64_size.c). */
bool lw_aarch64_check_sizes(lw *w);
/* The lowering's hooks of each instruction set (isa/isa.h), one row per
 * ISA_LIST entry built in lower.c: stem S gives lw_S_thread. */
typedef struct lw_isa_hooks {
    bool (*thread)(lw *w);      /* the current thread's program */
} lw_isa_hooks;
/* The order of an X86 thread's code (ir/lower_x86_order.c): cut at its
 * labels into N regions, region i starting at instruction START[i] (START[0]
 * is 0), lowered in ORDER, where each region comes after those that jump or
 * fall into it, and in the written order when every jump goes forward.
 * false (error set, at the jump that closes it) when the jumps make a loop. */
typedef struct lw_x86_plan {
    int *start, *order;
    int n;
} lw_x86_plan;
bool lw_x86_plan_make(lw *w, const fe_thread *ft, lw_x86_plan *p);
void lw_x86_plan_free(lw_x86_plan *p);
/* X86_64 arrays of the init (ir/lower_x86_array.c): one location per
 * cell, named by lw_array_cell_name (ARRAY, then ARRAY[1] ...; malloc'd).
 * lw_x86_array_cell: whether LOC is a cell, of which array and at which
 * index.  lw_x86_array_at: the address of the cell OFFSET bytes on from
 * cell INDEX of ARRAY, or an error at POS (an offset not known before the
 * run, between two cells or outside the array). */
char *lw_array_cell_name(const char *array, int index);
bool lw_x86_array_init(lw *w, const fe_init *in);
bool lw_x86_array_cell(const lw *w, int loc, const fe_init **array, int *index);
bool lw_x86_array_at(lw *w, const fe_init *array, int index, ir_operand offset, fe_pos pos, ir_operand *out);
/* A location's C type as written, and the IR type it gives (ir/lower.c). */
void lw_set_ctype(ir_loc *l, const char *ctype);
bool lw_c_thread(lw *w);
bool lw_java_thread(lw *w);
/* Collect the registers a body uses (C and Java). */
void lw_scan_stmt(lw *w, const fe_stmt *s);
/* Lower a C or Java statement; EXPR lowers calls (the per-language part). */
typedef bool (*lw_call_fn)(lw *w, const fe_expr *e, ir_operand *out);
bool lw_stmt(lw *w, const fe_stmt *s, lw_call_fn call);
bool lw_expr(lw *w, const fe_expr *e, lw_call_fn call, ir_operand *out);

/* Loops and join (ir/lower_loop.c). */
bool lw_loop(lw *w, const fe_stmt *s, lw_call_fn call);       /* FE_S_WHILE, FE_S_DO */
bool lw_loop_spins(const fe_stmt *loop);                        /* its iterations only read */
bool lw_join_thread(lw *w, const fe_stmt *s);                   /* FE_S_JOIN */
bool lw_thread_is_joined(const fe_test *ft, int th);
void lw_mark_end(lw *w);        /* a joined thread's last action: its end flag */
bool lw_check_joins(lw *w);     /* no cycle of joins */

/* Source text of what an instruction comes from (malloc'd). */
char *lw_src_x86(const fe_test *ft, const fe_x86_instr *in);
char *lw_src_stmt(const fe_test *ft, const fe_stmt *s);
void lw_set_src(lw *w, fe_pos pos, char *src);   /* takes SRC */

#endif
