#ifndef LITMUSC_BACKENDS_X86LITMUS_X86LITMUS_H
#define LITMUSC_BACKENDS_X86LITMUS_X86LITMUS_H
/* A compiled program (backends/x86/x86.h) as a herd X86 litmus test, its
 * register map as text, and herd7's output read back in source names. */
#include <stdio.h>
#include "backends/x86/x86.h"
#include "model/model.h"

/* The whole litmus file: header, provenance and register-map comments,
 * init, program in columns, condition on x86 registers.  malloc'd. */
char *x86litmus_print(const x86_prog *p);

/* One instruction in herd's X86 syntax ("MOV EAX,[x]", "LOCK ADD [y],$1"),
 * labels of thread THREAD spelt L<thread>_<n>.  malloc'd; empty for a label. */
char *x86litmus_instr(const x86_prog *p, int thread, const x86_instr *in);

/* The register map, one "T:SRC T:REG" line per mapped register after a
 * comment line.  malloc'd. */
char *x86litmus_map_text(const x86_prog *p);

/* Parse herd7's output for a compiled test (its "States" block) and
 * express each state on SOURCE's observables OBS[0..nobs), reading
 * registers through P's map.  Returns a bset with states only (pos/neg 0),
 * or NULL + diag when the output has no state block or a state misses an
 * observable. */
bset *x86litmus_read_herd(const char *herd_stdout, const x86_prog *p, const ir_obs *obs, int nobs, diag *d);

#endif
