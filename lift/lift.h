#ifndef LITMUSC_LIFT_LIFT_H
#define LITMUSC_LIFT_LIFT_H
/* Real-compiler testing: a C litmus test becomes a translation unit (each
 * thread a function P<n>, each location a global, each register a global
 * P<n>_<reg> the function stores to), a real compiler builds it, and the
 * object's machine code is lifted back to an X86_64 litmus test. */
#include <stddef.h>
#include <stdint.h>
#include "frontend/ast.h"
#include "ir/ir.h"
#include "util/diag.h"

/* tu.c: the translation unit's text for test FT (its C source) and T
 * (its IR: locations and registers); NULL and D set when a name cannot
 * be a C identifier. */
char *lift_tu_text(const fe_test *ft, const ir_test *t, diag *d);
/* One test's part of a batch's unit: as lift_tu_text without the headers,
 * each global and function under PREFIX ("t3_": t3_x, t3_P0, t3_P0_r0);
 * WEAK defines the globals __attribute__((weak)), so that the objects of
 * two compilers for the same tests link into one program (a mix).
 * lift_tu_head: the headers a unit starts with (malloc'd). */
char *lift_tu_part(const fe_test *ft, const ir_test *t, const char *prefix, bool weak, diag *d);
char *lift_tu_head(void);
/* tu_hoist.c: BODY with each register declared in an inner block declared
 * at its top instead (`int r1 = 0;`), the inner declaration an assignment. */
char *lift_tu_hoist(const char *body, const ir_thread *th);

/* target.c: the machines cc-check lifts.  The target decides the
 * object's e_machine, the flags every compiler is given, the lifted
 * test's dialect and the model it runs under; a front end (cc-check
 * --target, hunt) picks one row and passes it down. */
typedef enum lift_target { LIFT_X86_64, LIFT_AARCH64 } lift_target;
struct lift_func;   /* below: one function read from an object */
typedef struct lift_target_row {
    const char *name;       /* --target's spelling: "x86_64", "aarch64" */
    int machine;            /* the objects' e_machine */
    const char *model;      /* the built-in model lifted code runs under */
    const char *source_model;   /* the built-in model the C source is judged under unless told */
    const char *cc;         /* the compiler when none is named */
    const char *cflags;     /* given after -c -fno-pic, before the user's flags ("" for none) */
    const char *clang_flag; /* given to a compiler named clang* first ("" for none): its target triple */
    const char *machine_name;   /* the machine in messages: "x86_64", "AArch64" */
    bool native;            /* this litmusc runs on that machine, so its objects can run here */
    /* the lifter cuts a loop's retry (a run that takes it is dropped before
     * the comparison), where false unrolls each loop --unroll times; only
     * a cut can check a lock test, whose wait may need any number of turns */
    bool cuts_loops;
    bool accesses;          /* cc-check --accesses pairs C accesses with this machine's code */
    /* the lifted test's text for FUNCS (lift_test_text's contract) */
    char *(*text)(const ir_test *t, const struct lift_func *funcs, int unroll, const char *origin, char **why, diag *d);
} lift_target_row;
const lift_target_row *lift_target_get(lift_target tg);
/* The target spelt NAME into *TG; false when there is none. */
bool lift_target_parse(const char *name, lift_target *tg);

/* compile.c: CC with CFLAGS (split at blanks) builds SRC into OBJ with
 * `-c -fno-pic`, through util/proc.h's runner with a time limit of
 * TIMEOUT_S seconds (<= 0: none).  TEMP_DIR (NULL: none) is the run's
 * private temporary folder: the compiler's TMPDIR, removed if litmusc dies
 * mid-compile.  False and D set: exit 2 when the compiler fails (the end
 * of its stderr and its exit status in the message), exit 3 when it cannot
 * be run ("cannot run 'gcc-13': No such file or directory"), runs past the
 * limit ("... (timed out)") or is interrupted. */
bool lift_compile_within(const char *cc, const char *cflags, const char *src, const char *obj, double timeout_s,
                         const char *temp_dir, diag *d);
/* The time limit cc-check gives a compiler unless told (--timeout). */
#define LIFT_CC_TIMEOUT_S 60.0
/* lift_compile_within for target TG: its flags (lift_target_row) before CFLAGS. */
bool lift_compile_target(const char *cc, const char *cflags, lift_target tg, const char *src, const char *obj,
                         double timeout_s, const char *temp_dir, diag *d);
/* The flags lift_compile_target gives CC for target TG before the
 * user's, blank separated (malloc'd; "" for none): for a caller that runs
 * the compiler some other way (the hunt's bisection lists its passes). */
char *lift_target_flags(lift_target tg, const char *cc);
/* lift_compile_within with LIFT_CC_TIMEOUT_S and no temporary folder. */
bool lift_compile(const char *cc, const char *cflags, const char *src, const char *obj, diag *d);

/* elf.c: one function's bytes and the relocations inside them. */
typedef struct lift_reloc {
    size_t offset;          /* from the function's start */
    char *sym;              /* symbol the relocation names ("?section" for a section's own) */
    long addend;
    unsigned type;          /* R_X86_64_*, R_AARCH64_* */
    size_t shndx;           /* the section the symbol is in (0: none) */
    uint64_t value;         /* the symbol's value plus the addend: the place in that section */
} lift_reloc;
/* A named object of the file (a location, a register global), so that a
 * place given as a section and an offset (gcc's section anchors on
 * AArch64: .bss+4) finds its name. */
typedef struct lift_sym {
    char *name;
    size_t shndx;
    uint64_t value, size;
} lift_sym;
typedef struct lift_func {
    char *name;
    unsigned char *code;
    size_t size;
    lift_reloc *relocs;
    int nrelocs;
    int machine;            /* the object's e_machine */
    lift_sym *syms;         /* the object's data symbols */
    int nsyms;
} lift_func;
/* The function NAME of object OBJ, an x86-64 object; false and D set when absent. */
bool lift_elf_func(const char *obj, const char *name, lift_func *out, diag *d);
/* The same for an object of machine MACHINE (EM_X86_64, EM_AARCH64). */
bool lift_elf_func_for(const char *obj, const char *name, int machine, lift_func *out, diag *d);
void lift_func_free(lift_func *f);
/* The symbol of F whose bytes hold offset VALUE of section SHNDX, *OFF
 * set to VALUE's offset inside it; NULL when none does. */
const lift_sym *lift_sym_at(const lift_func *f, size_t shndx, uint64_t value, uint64_t *off);

/* lift.c: the X86_64 litmus test for FUNCS[i] = thread i of T, in the
 * grammar herd7 7.57 reads (doc/x86_64-dialect.md), its header comment
 * naming ORIGIN (the compiler and flags); NULL and D set (exit 2 naming the
 * instruction and thread) when one cannot lift.  *WHY (malloc'd) names the
 * first instruction left outside herd's grammar (litmusc reads it), else
 * NULL. */
char *lift_test_text(const ir_test *t, const lift_func *funcs, int unroll, const char *origin, char **why,
                     diag *d);
/* a64_text.c: the AArch64 litmus test for FUNCS[i] = thread i of T (each
 * an AArch64 function), in herd7 7.57's AArch64 dialect, its header
 * comment naming ORIGIN; NULL and D set (exit 2 naming the instruction and
 * thread) when one cannot lift, exit 3 when this build has no AArch64
 * decoder.  A store-exclusive's retry loop is cut: its jump back goes to
 * a store of 1 to LIFT_UNROLL_LOC (listed in `locations`) and the
 * thread's end. */
char *lift_a64_test_text(const ir_test *t, const lift_func *funcs, const char *origin, diag *d);

/* herd.c: a thread's rows (malloc'd, replaced) rewritten into herd7
 * 7.57's X86_64: `(x)` for `x(%rip)`, herd's mnemonics, and for what herd
 * lacks (setcc, cmovcc, movz/movs, test, sub, ret mid-thread, ...) the
 * same computation in what it has.  Returns the first row left as it was
 * with the reason (malloc'd), or NULL when every row is herd's. */
char *lift_herd_rows(char ***rows, int *nrows);
/* The location a lifted test stores 1 to when a run needs more than the
 * unrolling bound; declared and listed in `locations` only then. */
#define LIFT_UNROLL_LOC "cc_unroll"
/* The model a lifted test runs under: x86tso with each locked RMW whole
 * (model/cat/x86tso-rmw.cat says why x86tso alone would report false
 * bugs on every CAS loop). */
#define LIFT_COMPILED_MODEL "x86tso-rmw"

/* layout.c: ROWS (a thread's lifted rows, *NR of them, malloc'd) with
 * each `jmp` back to a branch's join replaced by a copy of the join's
 * block, and each loop (a conditional jump back) unrolled UNROLL times,
 * *UNROLLED set, a run past the bound storing 1 to cc_unroll; false and D
 * set (exit 2) for a loop nested or too long. */
bool lift_layout(char ***rows, int *nr, int th, int unroll, bool *unrolled, const char *file, diag *d);

/* accesses.c: for each C access of T (load, store, RMW, fence with its
 * order), the rows of the lifted TEXT it compiled to, paired by order per
 * thread, beside what scheme SCHEME gives it: one line each. */
char *lift_access_report(const ir_test *t, const char *text, const char *scheme, diag *d);

/* compare.c: the states of the compiled test C (bset CB, observables the
 * globals P<n>_<reg> and the locations) against the source S's (SB).
 * Returns the number of compiled states the source forbids, their
 * indices into CB->states in BAD (malloc'd); *SAME when the sets are equal. */
struct bset;
int lift_compare(const ir_test *s, const struct bset *sb, const ir_test *c, const struct bset *cb, int **bad,
                 bool *same);

/* check.c: the whole pipeline for one compiler CC and flag set CFLAGS:
 * translation unit, compile, lift, read back, x86tso, compare with the
 * source T's states SB (under its model).  R gets the verdict and how far
 * it went; false and D set when it stops short (R->verdict is
 * LIFT_REFUSED, R->compiled and R->lifted say where): the compiler failed
 * (exit 2), code that cannot lift or an object that cannot be read (exit
 * 2, named), a limit or a compiler that cannot run (exit 3).  The
 * translation unit and the object live in a private folder under $TMPDIR
 * (else /tmp), removed before the lifting starts. */
typedef enum lift_verdict { LIFT_SAME, LIFT_STRONGER, LIFT_BUG, LIFT_REFUSED } lift_verdict;
typedef struct lift_result {
    lift_verdict verdict;
    bool compiled;          /* the compiler built the object */
    bool lifted;            /* every thread lifted and the lifted test reads back */
    char *text;             /* the lifted test, or NULL */
    char *herd_note;        /* why TEXT is outside herd7 7.57's X86_64, or NULL */
    ir_test *ct;            /* it, read back, or NULL */
    struct bset *cb;        /* its states under x86tso, or NULL */
    int *bad;               /* indices into CB->states of those the source forbids */
    int nbad;
} lift_result;
struct model;
bool lift_check(const fe_test *ft, const ir_test *t, const struct bset *sb, const struct model *tso, const char *cc,
                const char *cflags, int unroll, lift_result *r, diag *d);
/* The same with the compiler's time limit TIMEOUT_S (lift_check: LIFT_CC_TIMEOUT_S); a compiler past it is
 * exit 3, "timed out". */
bool lift_check_within(const fe_test *ft, const ir_test *t, const struct bset *sb, const struct model *tso,
                       const char *cc, const char *cflags, int unroll, double timeout_s, lift_result *r, diag *d);
/* The same from objects already built: thread n's function PREFIX "P<n>"
 * read from OBJS[n] (one object for all, or one a thread for a mix), the
 * relocations' symbols named without PREFIX; CC and CFLAGS name the
 * configuration in messages and in the lifted test's header. */
bool lift_check_objects(const ir_test *t, const struct bset *sb, const struct model *tso, const char *const *objs,
                        const char *prefix, const char *cc, const char *cflags, int unroll, lift_result *r, diag *d);
/* lift_check_within and lift_check_objects for target TG, the lifted test
 * run under MODEL (the target's, lift_target_row.model, or the user's).
 * For AArch64 a run whose store-exclusive fails (the retry loop cut, see
 * lift_a64_test_text) is dropped before the comparison: a failed attempt
 * writes nothing, so it adds no final state a first success lacks. */
bool lift_check_target(const fe_test *ft, const ir_test *t, const struct bset *sb, const struct model *model,
                       lift_target tg, const char *cc, const char *cflags, int unroll, double timeout_s,
                       lift_result *r, diag *d);
bool lift_check_objects_target(const ir_test *t, const struct bset *sb, const struct model *model, lift_target tg,
                               const char *const *objs, const char *prefix, const char *cc, const char *cflags,
                               int unroll, lift_result *r, diag *d);
void lift_result_free(lift_result *r);
/* "same", "stronger", "bug", "refused". */
const char *lift_verdict_name(lift_verdict v);
/* State I of R->cb as "x=1; P0_r0=0;" (malloc'd). */
char *lift_state_text(const lift_result *r, int i);

#endif
