#ifndef LITMUSC_BACKENDS_NATIVE_INTERNAL_H
#define LITMUSC_BACKENDS_NATIVE_INTERNAL_H
/* Shared by the native generators (backends/c11, backends/x86native): the
 * program frame around the thread bodies, cell types, and escaping of
 * anything that comes from the litmus file. */
#include <stdbool.h>
#include "backends/native.h"
#include "ir/ir.h"
#include "util/diag.h"
#include "util/mem.h"

/* What the frame tells a thread-body emitter. */
typedef struct nat_frame {
    const ir_test *t;       /* the source test: observables, registers */
    const ir_test *cells;   /* the test whose locations are the cells (t, or
                               its compiled form, which may add locations) */
    ir_obs *obs;            /* ir_observables() */
    int nobs;
    /* Per thread index: the observed registers, in output-slot order. */
    char ***regs;
    int *nregs;
    /* The body being emitted is the gapped one (lrt_gap_sweep_fn): it
     * spins lt_gap[k] times before its k-th memory access. */
    bool gapped;
} nat_frame;

/* Append the C function
 *   static void lt_thread_TI(void *const *lt_c, int64_t *lt_out) { ... }
 * for thread index TI to B, or with F->gapped its gapped twin (the same
 * code with nat_gap_position's spins; nat_thread_open writes either's
 * head).  false + diag when it cannot be emitted. */
typedef bool (*nat_body_fn)(strbuf *b, const nat_frame *f, int ti, void *ctx, diag *d);

/* The function head and opening brace of thread TI's body, plain or gapped. */
void nat_thread_open(strbuf *b, const nat_frame *f, int ti);
/* The gap slot of a thread's K-th memory access (0-based, program order). */
int nat_gap_position(int k);

/* The whole program: prologue, EXTRA_DECLS (may be NULL) then every thread
 * body, reset, collect, descriptor and main.  Outcomes are T's; the cells
 * are CELLS' locations (NULL: T's), whose first locations must be T's.
 * TARGET names the target in the header comment.  malloc'd, or NULL + diag. */
char *nat_program(const ir_test *t, const ir_test *cells, const char *target,
                  const char *extra_decls, nat_body_fn body, void *ctx, diag *d);

/* The wide sweeps (backends/native/wide_sweep.c): the prelude that
 * defines LT_WIDE and lt_put4 where the compiler can target AVX2 (none
 * where no thread has a wide sweep); each thread's lt_wsweep_TI where its
 * outputs fill 32-byte stores (after the plain sweeps, whose lt_sweep_TI
 * it calls for the instances short of a block); and lt_pick_sweeps, which
 * installs them in lt_sweeps where the CPU has AVX2 (after lt_sweeps,
 * called first thing in main). */
void nat_emit_wide_prelude(strbuf *b, const nat_frame *f);
void nat_emit_wide_sweeps(strbuf *b, const nat_frame *f);
void nat_emit_pick_sweeps(strbuf *b, const nat_frame *f);

/* The array layout's sweeps (backends/native/array_sweep.c), which
 * compute instance i's cells from each location's first cell instead of
 * reading the cell table.  nat_cell_width: the bytes of F's widest cell,
 * the array layout's cell size (lt_test.cell_size); nat_has_array_sweeps:
 * whether F gets them (it has cells); nat_array_bases: the declarations
 * of lt_b<l>, location l's first cell, from lt_c; nat_array_cells: the
 * declaration INDENT void *const NAME[nlocs] of instance INST's cells;
 * nat_emit_array_sweeps: lt_asweep_TI for every thread (after the thread
 * bodies). */
int nat_cell_width(const nat_frame *f);
bool nat_has_array_sweeps(const nat_frame *f);
void nat_array_bases(strbuf *b, const nat_frame *f);
void nat_array_cells(strbuf *b, const nat_frame *f, const char *indent, const char *name, const char *inst);
void nat_emit_array_sweeps(strbuf *b, const nat_frame *f);
/* The end of lt_acount_range: with lt_reset_too, every location's cells
 * of instances [lt_lo, lt_hi) back to their initial value. */
void nat_array_fill(strbuf *b, const nat_frame *f);

/* The C type of location L's cell: "int32_t", "uint8_t", "int64_t", ...
 * (pointers hold IR_ADDR values in an int64_t; __int128 is narrowed to
 * 64 bits, which every litmus value fits). */
const char *nat_cell_type(const ir_test *t, int loc);
/* Its width in bytes (1, 2, 4 or 8). */
int nat_cell_size(const ir_test *t, int loc);

/* A C expression for the int64 constant V ("INT64_C(5)"). */
void nat_int_lit(strbuf *b, ir_val v);
/* TEXT as the inside of a block comment: no comment terminator, no
 * control characters, nothing that a compiler would read as code. */
void nat_comment(strbuf *b, const char *text);
/* TEXT as a C string literal, quotes included. */
void nat_cstring(strbuf *b, const char *text);

/* The source position of a thread's instruction as diag context. */
bool nat_error(diag *d, const ir_test *t, const ir_instr *in, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
