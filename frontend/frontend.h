#ifndef LITMUSC_FRONTEND_FRONTEND_H
#define LITMUSC_FRONTEND_FRONTEND_H
/* The frontend: herd-format litmus text -> fe_test (frontend/ast.h).
 *
 * A file is split once (header, info lines, {init}, program, condition);
 * init and condition share one grammar, the program has one parser per
 * architecture.  Errors are recorded in a diag as file:line:col plus a
 * message naming the offending token; the first one stops the parse.
 * Input is taken by length: NUL bytes and any other byte are handled. */
#include <stddef.h>
#include <stdio.h>
#include "frontend/ast.h"
#include "util/diag.h"

/* The longest test name accepted: names become file and class names. */
enum { FE_NAME_MAX = 200 };

/* Parse LEN bytes of TEXT.  FILE names the source in diagnostics and in
 * t->file (and a `--` test name stands for its base name).  Returns NULL
 * and fills D on error. */
fe_test *fe_parse(const char *text, size_t len, const char *file, diag *d);

/* Read PATH and parse it (an unreadable file is a status-2 error). */
fe_test *fe_parse_file(const char *path, diag *d);

void fe_test_free(fe_test *t);

/* The test in canonical herd syntax (malloc'd).  Parsing the result gives
 * a test fe_test_equal to T. */
char *fe_print(const fe_test *t);

/* Structural equality, ignoring positions, the file name and spellings
 * that carry no meaning (x vs [x], == vs =, `final` vs `exists`).  When
 * they differ and WHY is not NULL, a short description of the first
 * difference goes there. */
bool fe_test_equal(const fe_test *a, const fe_test *b, char *why, size_t whylen);

/* herd's hash of the test, computed from its contents (ignores a Hash=
 * info line): 32 lower-case hex digits and a NUL.  fe_parse already stores
 * the hash to use in t->hash. */
void fe_compute_hash(const fe_test *t, char out[33]);

/* One x86 instruction in canonical syntax (Intel for X86, AT&T with sized
 * register names for X86_64), label included: malloc'd. */
char *fe_x86_instr_text(const fe_test *t, const fe_x86_instr *in);
/* An AArch64 instruction as herd prints it ("LDAR W0,[X1]"); malloc'd. */
char *fe_a64_instr_text(const fe_a64_instr *in);

/* Spellings, for printers and diagnostics. */
const char *fe_arch_name(fe_arch a);            /* "X86" "X86_64" "C" "Java" */
const char *fe_x86_op_name(fe_x86_op op);       /* "MOV" ... (upper case, no suffix) */
const char *fe_mo_name(fe_mo mo);               /* "memory_order_relaxed" ... */
const char *fe_c_call_name(fe_c_call c, bool explicit_form);  /* "atomic_load_explicit" */
/* Java method as herd spells it with its mode: "getAcquire", "setRelease",
 * "compareAndExchangeAcquire", "fullFence" ... */
const char *fe_jmethod_name(fe_jmethod m, fe_jmode mode);
const char *fe_binop_name(fe_binop op, fe_arch arch);   /* "+" ... ("&&" for Java AND) */
/* A call E (FE_E_CCALL or FE_E_JCALL) up to its opening parenthesis, as
 * written: "atomic_load_explicit(", "X.getAcquire(", "fullFence(". */
typedef struct strbuf strbuf;
void fe_print_call_open(strbuf *b, const fe_expr *e);

/* Java monitors (frontend/monitors.c).  The location handle HANDLE of
 * THREAD is bound to in the init, or NULL; the locations some
 * `synchronized` names, *N of them (malloc'd array of names borrowed from
 * T; NULL when none, and for a test other than Java). */
const char *fe_handle_loc(const fe_test *t, int thread, const char *handle);
const char **fe_monitor_locs(const fe_test *t, int *n);


#endif
