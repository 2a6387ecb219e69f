#ifndef LITMUSC_BACKENDS_X86NATIVE_X86NATIVE_H
#define LITMUSC_BACKENDS_X86NATIVE_X86NATIVE_H
/* The x86 native target: each thread as one GCC extended inline-asm
 * statement (litmus7 style), from the x86 backend's instruction lists.
 * X86 tests map instruction for instruction; C and Java tests go through
 * a compilation scheme (native_opts.scheme, or the arch's default). */
#include "backends/native.h"

char *x86native_generate(const ir_test *t, const native_opts *o, diag *d);

/* The scheme used when none is given: "c11-x86-xchg" for C,
 * "java-x86-hotspot" for Java, NULL (identity) for x86 tests. */
const char *x86native_default_scheme(ir_arch arch);

#endif
