#ifndef LITMUSC_BACKENDS_X86_X86_H
#define LITMUSC_BACKENDS_X86_X86_H
/* Compiling a litmus test to x86.
 *
 * Two steps, so that the program litmusc checks is the program it prints:
 *
 *   1. x86_scheme_apply: a compilation scheme (backends/schemes/NAME.scheme,
 *      format in backends/schemes/README.md) rewrites every access, RMW and
 *      fence of the source IR into the x86 events it compiles to.  The
 *      result is again an ir_test, with arch X86 and only x86 modes
 *      (IR_X86_PLAIN, IR_X86_LOCKED, MFENCE/LFENCE/SFENCE fences); its
 *      registers keep their source names, so its behaviour set under
 *      x86tso reads directly in source names.
 *   2. x86_select: instruction selection and register allocation on IR with
 *      x86 modes, giving one x86 instruction list per thread plus the
 *      register map (source register -> x86 register).
 *
 * x86_compile does both.  An X86 source test already has x86 modes; with
 * scheme NULL it goes through step 2 only (the identity compilation), which
 * is what native x86 harnesses of X86 tests use too.
 *
 * Instructions use Intel operand order (destination first), as herd's X86
 * syntax does. */
#include <stdbool.h>
#include <stdint.h>
#include "ir/ir.h"
#include "util/diag.h"

/* ---- registers ----------------------------------------------------------- */
typedef enum x86_reg {
    X86_NOREG = -1,
    X86_EAX, X86_EBX, X86_ECX, X86_EDX, X86_ESI, X86_EDI, X86_EBP, X86_ESP,
    X86_NREGS
} x86_reg;
const char *x86_reg_name(x86_reg r);            /* "EAX" ... "ESP"; "?" otherwise */
const char *x86_reg_name64(x86_reg r);          /* X86_64 names: "rax" ... "rsp" */
x86_reg x86_reg_parse(const char *name);        /* case-insensitive; X86_NOREG if none */

/* ---- operands -------------------------------------------------------------- */
typedef enum x86_opnd_kind {
    X86_O_NONE = 0,
    X86_O_REG,          /* reg */
    X86_O_IMM,          /* imm (never an address: addresses live in registers or [loc]) */
    X86_O_MEM,          /* [loc]: a named location (index into the test's locs) */
    X86_O_MEM_REG,      /* [reg]: memory through a register holding an address */
    X86_O_LABEL,        /* label (jump target) */
} x86_opnd_kind;

typedef struct x86_opnd {
    x86_opnd_kind kind;
    x86_reg reg;        /* X86_O_REG, X86_O_MEM_REG */
    int64_t imm;        /* X86_O_IMM */
    int loc;            /* X86_O_MEM */
    int label;          /* X86_O_LABEL: label number within the thread */
} x86_opnd;

/* ---- instructions ------------------------------------------------------------ */
typedef enum x86_op {
    X86_LABEL,          /* pseudo-instruction: defines label `label` here */
    X86_MOV,            /* MOV dst,src */
    X86_XCHG,           /* XCHG dst,src: always locked on x86 */
    X86_ADD, X86_SUB, X86_AND, X86_OR, X86_XOR,   /* OP dst,src; with lock: memory dst */
    X86_XADD,           /* XADD [m],reg: reg gets the old value (with lock) */
    X86_CMPXCHG,        /* CMPXCHG [m],reg: compares with EAX, EAX gets the old value */
    X86_CMP,            /* CMP a,b: sets ZF */
    X86_MFENCE, X86_LFENCE, X86_SFENCE,
    X86_JMP, X86_JE, X86_JNE,   /* dst is the X86_O_LABEL */
    X86_OP_COUNT
} x86_op;
const char *x86_op_name(x86_op op);             /* "MOV" ... ; "" for X86_LABEL */

typedef struct x86_instr {
    x86_op op;
    bool lock;          /* LOCK prefix */
    x86_opnd dst, src;  /* Intel order; unused operands are X86_O_NONE */
    int label;          /* X86_LABEL: the label defined */
    int line;           /* source line this came from (0 if none) */
    bool waits;         /* XCHG of a lock: repeated until it reads 0 (ir_instr.waits) */
} x86_instr;

/* True when herd7 7.57 runs this instruction in X86 mode:
 * no CMPXCHG (parsed but not implemented), no XADD, no SUB/AND, LOCK only on
 * ADD/XOR/XCHG. */
bool x86_instr_herd_ok(const x86_instr *in);
/* The same for herd's X86_64 mode (AT&T syntax, lib/X86_64Parser.mly),
 * which runs `lock cmpxchg` but has no XADD, SUB, AND, LFENCE or SFENCE. */
bool x86_instr_herd64_ok(const x86_instr *in);

/* ---- register map ---------------------------------------------------------------- */
/* One source register of one thread and the x86 register holding its final
 * value.  Only observed registers (condition, filter, locations) are
 * mapped; several source registers may share one x86 register. */
typedef struct x86_regmap {
    int thread;         /* thread id */
    char *src;          /* source register name ("r0", "EAX") */
    x86_reg reg;
} x86_regmap;

/* An initial register value (herd init `0:ESI=x`): address constants that
 * the code needs in a register. */
typedef struct x86_init_reg {
    x86_reg reg;
    ir_val val;         /* usually IR_ADDR(loc) */
} x86_init_reg;

typedef struct x86_thread {
    int id;
    x86_instr *code;
    int ncode, cap;
    x86_init_reg *inits;
    int ninits;
    int nlabels;
    int scratch_loc;    /* this thread's private location for LOCK ADD barriers
                           (it stands for the stack), or -1 */
} x86_thread;

typedef struct x86_prog {
    ir_test *target;        /* the compiled program as IR with x86 modes (owned) */
    const ir_test *source;  /* the test it was compiled from (not owned) */
    char *scheme;           /* scheme name, or "identity" */
    x86_thread *threads;    /* one per target->threads[i], same order */
    int nthreads;
    x86_regmap *map;
    int nmap;
    bool x86_64;            /* printed as X86_64 (AT&T, 64-bit names): chosen when
                               only that mode lets herd run the program (CMPXCHG) */
    bool herd_ok;           /* herd7 7.57 runs every instruction in the chosen mode */
    char *herd_note;        /* why not (first offending instruction), or NULL */
} x86_prog;

/* ---- schemes --------------------------------------------------------------------- */
typedef struct x86_scheme x86_scheme;

/* Parse scheme text (format: backends/schemes/README.md); FILE names it in
 * diagnostics.  NULL + file:line:col diag on error. */
x86_scheme *x86_scheme_parse(const char *text, const char *file, diag *d);
/* A shipped scheme by name ("java-x86-hotspot"), or a scheme file by path
 * (anything containing '/' or ending in ".scheme"). */
x86_scheme *x86_scheme_load(const char *name_or_path, diag *d);
void x86_scheme_free(x86_scheme *s);
const char *x86_scheme_name(const x86_scheme *s);
/* The source arch the scheme is written for (IR_ARCH_C, IR_ARCH_JAVA or
 * IR_ARCH_X86). */
ir_arch x86_scheme_arch(const x86_scheme *s);
/* What S compiles the access, RMW or fence IN to, as the scheme file
 * spells it ("MOV; MFENCE", "(nothing)"), into BUF; false when no rule. */
bool x86_scheme_describe(const x86_scheme *s, const ir_instr *in, char *buf, size_t n);
/* Names of the shipped schemes, NULL-terminated, static. */
const char *const *x86_scheme_builtins(void);

/* Step 1: the source test with every access, RMW and fence replaced by what
 * S compiles it to.  Fails (diag at the source instruction) when S has no
 * rule for an access or T's arch is not S's. */
ir_test *x86_scheme_apply(const ir_test *t, const x86_scheme *s, diag *d);

/* Step 2: instruction selection and register allocation for IR with x86
 * modes.  Takes ownership of TARGET; SOURCE (may equal TARGET) names the
 * original test.  Fails with a diag when a value has no herd-expressible
 * instruction or more values are live than there are registers. */
x86_prog *x86_select(ir_test *target, const ir_test *source, const char *scheme, diag *d);

/* Both steps.  S NULL: identity compilation, only for X86 source tests. */
x86_prog *x86_compile(const ir_test *t, const x86_scheme *s, diag *d);
void x86_prog_free(x86_prog *p);

/* The x86 register holding source register SRC of THREAD at exit, or
 * X86_NOREG when it is not mapped. */
x86_reg x86_prog_lookup(const x86_prog *p, int thread, const char *src);
/* Register R as the printed test spells it ("EAX", or "rax" in X86_64). */
const char *x86_prog_reg_name(const x86_prog *p, x86_reg r);
/* The first lock's waiting XCHG of P (its thread's id in *THREAD), or NULL:
 * code with no loop-free herd text (backends/x86/herd_mode.c). */
const x86_instr *x86_prog_first_wait(const x86_prog *p, int *thread);

/* Location names must be plain identifiers that are not x86 register
 * names, so that they can appear in herd x86 code unchanged. */
bool x86_loc_name_ok(const char *name);

#endif
