#ifndef LITMUSC_LIFT_A64_H
#define LITMUSC_LIFT_A64_H
/* What lift/'s AArch64 files share, and nothing outside lift/ includes:
 * LLVM's decoding of a function (a64_disasm.c), the operands of its text
 * (a64_ops.c) and one thread's lifting (a64_thread.c, a64_mem.c). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lift/lift.h"
#include "util/mem.h"

typedef struct a64_insn {
    uint64_t addr;          /* offset in the function */
    char mnem[24];          /* lower case, as LLVM prints it: "ldaxr", "b.ne" */
    char ops[160];          /* the operands as LLVM prints them: "w1, [x0, #8]" */
} a64_insn;

/* a64_disasm.c: the instructions of CODE (every one 4 bytes), *N set;
 * *BAD the offset of the first word LLVM decodes as no instruction, SIZE
 * when there is none.  NULL and D set (exit 3) when this build has no
 * LLVM or LLVM has no AArch64 disassembler. */
a64_insn *a64_disasm(const unsigned char *code, size_t size, int *n, size_t *bad, diag *d);

/* a64_ops.c: the operand text. */
enum { A64_MAXOPS = 6, A64_OPLEN = 64, A64_SP = 31, A64_ZR = 32 };
typedef char a64_ops[A64_MAXOPS][A64_OPLEN];
/* OPS split at its top-level ", " (a bracketed memory operand is one,
 * its `!` kept); the count, -1 when there are more than A64_MAXOPS. */
int a64_split(const char *ops, a64_ops out);
/* The register TOK names: 0..30, A64_SP, A64_ZR; *W set to 'w' or 'x'
 * (sp: 'x'); -1 when TOK is no general register. */
int a64_reg(const char *tok, char *w);
/* A memory operand "[x0, #8]", "[sp, #-16]!", "[x1, x2, lsl #2]". */
typedef struct a64_mem {
    int base;               /* register number, A64_SP */
    long imm;               /* the immediate offset (0 when none) */
    bool pre;               /* `!`: the base is written back before */
    char index[48];         /* a register offset as written after the base ("x2, lsl #2"), or "" */
} a64_mem;
bool a64_parse_mem(const char *tok, a64_mem *m);
/* The value of an immediate "#12", "#-0x10"; false when TOK is none. */
bool a64_imm(const char *tok, long *v);
/* TOK in herd's spelling: upper case, immediates in decimal. */
void a64_herd_op(strbuf *b, const char *tok);

/* a64_thread.c: thread TH's rows (*NR of them, malloc'd) from function
 * F; the init items its location registers need appended to INITS
 * (" 0:X10=x;"); *CUT set when a store-exclusive's retry loop was cut (the
 * thread then stores 1 to LIFT_UNROLL_LOC).  NULL and D set when the
 * thread cannot lift. */
char **a64_lift_thread(const ir_test *t, const lift_func *f, int th, bool *cut, int *nr, strbuf *inits, diag *d);
#endif
