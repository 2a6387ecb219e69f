#ifndef LITMUSC_ISA_ISA_H
#define LITMUSC_ISA_ISA_H
/* The instruction sets litmusc reads: one row per machine dialect of herd's
 * litmus format (X86, X86_64, AArch64), in isa/isa.c.  The rest of the program asks
 * a test's row what it needs to know about the machine, never the
 * architecture's name: which model herd judges it under, which native
 * runner runs it, whether its accesses are all atomic.
 *
 * A row is found by the architecture value of a test, fe_arch (frontend/
 * ast.h) or ir_arch (ir/ir.h): both list X86 and X86_64 first, in the order
 * of this table, and then the source languages C and Java, which are not
 * instruction sets and have no row.  The stage comes before frontend so
 * that every stage may ask it; each stage that does per-instruction-set
 * work keeps its hooks in a table of its own built from ISA_LIST below, so
 * that an instruction set is one line here and the functions its stages'
 * tables name. */
#include <stdbool.h>
#include <stddef.h>

/* Every instruction set, in fe_arch / ir_arch order: X(ID, STEM), where ID
 * is the suffix of its ISA_ constant and STEM the suffix of the functions
 * each stage's hook table names (fe_parse_STEM, lw_STEM_thread, ...). */
#define ISA_LIST(X) \
    X(X86, x86)     \
    X(X86_64, x86)  \
    X(AARCH64, aarch64)

#define ISA_ID(id, stem) ISA_##id,
typedef enum isa_id { ISA_LIST(ISA_ID) ISA_COUNT } isa_id;
#undef ISA_ID

typedef struct isa {
    isa_id id;
    const char *name;       /* herd's architecture name, as a test's header spells it */
    bool att;               /* AT&T syntax: source operand first, %registers, $immediates */
    bool wide;              /* 64-bit registers and memory cells */
    const char *acc;        /* the scratch register a lowering moves values through */
    const char *model;      /* the model a test is judged under unless told (herd's for the dialect) */
    const char *native;     /* the native target that runs it as written (`run`, campaigns' "auto") */
    /* Every access is atomic and every RMW a locked one (TSO): no data
     * races, no synchronises-with edges, the behaviour set alone answers
     * for races. */
    bool all_atomic;
    /* A final state shows each value in the C type its register or location
     * is declared with, an untyped one as herd's `int` (ir/width.c), and its
     * condition compares them so: herd's rule, kept to the sets whose tests
     * the corpus checks it on. */
    bool typed_state;
} isa;

/* The row of the test architecture ARCH (an fe_arch or ir_arch value);
 * NULL for a source language (C, Java). */
const isa *isa_of(int arch);

/* The row whose name is the N bytes at NAME (case matters, as in herd);
 * NULL if no instruction set is named so. */
const isa *isa_named(const char *name, size_t n);

/* True when ARCH is an instruction set whose accesses are all atomic
 * (isa.all_atomic): the race and happens-before code's question. */
bool isa_all_atomic(int arch);

/* The native target that runs ARCH's tests as written, OTHERWISE for a
 * source language: what `run` and a campaign's "auto" pick. */
const char *isa_native_target(int arch, const char *otherwise);

/* Row I (0 <= I < ISA_COUNT), for walking them all. */
const isa *isa_at(int i);

#endif
