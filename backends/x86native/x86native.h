#ifndef LITMUSC_BACKENDS_X86NATIVE_X86NATIVE_H
#define LITMUSC_BACKENDS_X86NATIVE_X86NATIVE_H
/* The x86 native target: each thread as one GCC extended inline-asm
 * statement (litmus7 style), from the x86 backend's instruction lists.
 * X86 tests map instruction for instruction; C and Java tests go through
 * a compilation scheme (native_opts.scheme, or the arch's default). */
#include "backends/native.h"
#include "backends/x86/x86.h"

char *x86native_generate(const ir_test *t, const native_opts *o, diag *d);

/* The scheme used when none is given: "c11-x86-xchg" for C,
 * "java-x86-hotspot" for Java, NULL (identity) for x86 tests. */
const char *x86native_default_scheme(ir_arch arch);

/* BEFORE[i]: bit r set where register r may hold an address before
 * instruction i of XT (addr_regs.c; XT->ncode entries, at least one). */
void x86native_address_regs(const x86_thread *xt, unsigned *before);
/* Whether IN, with BEFORE its address registers, works on an address in
 * registers only, and so must use its 64-bit form in an X86 test. */
bool x86native_address_op(const x86_instr *in, unsigned before);

#endif
