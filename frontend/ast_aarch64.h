#ifndef LITMUSC_FRONTEND_AST_AARCH64_H
#define LITMUSC_FRONTEND_AST_AARCH64_H
/* The syntax tree of an AArch64 thread (herd's AArch64 dialect): one
 * fe_a64_instr per cell of the program table.  A thread's instructions are
 * fe_thread.a64[0 .. na64) (frontend/ast.h).
 *
 * An instruction keeps its mnemonic as written (upper case), so that the
 * printer gives back what was read, and what the mnemonic means decoded
 * into op, size and the acquire / release marks. */
#include <stdbool.h>
#include <stdint.h>

typedef enum fe_a64_op {
    FE_A64_EMPTY,           /* an empty cell, or one holding only a label */
    FE_A64_NOP,
    FE_A64_LDR, FE_A64_STR,             /* plain; LDAR/LDAPR/STLR set acq/acqpc/rel */
    FE_A64_LDXR, FE_A64_STXR,           /* exclusives; LDAXR/STLXR set acq/rel */
    FE_A64_SWP, FE_A64_CAS,
    FE_A64_LDADD, FE_A64_LDCLR, FE_A64_LDEOR, FE_A64_LDSET,   /* noret: the ST<op> aliases */
    FE_A64_DMB, FE_A64_DSB, FE_A64_ISB,
    FE_A64_MOV, FE_A64_ADD, FE_A64_SUB, FE_A64_EOR, FE_A64_AND, FE_A64_ORR,
    FE_A64_ADDS, FE_A64_SUBS, FE_A64_CMP, FE_A64_CSET, FE_A64_CSEL,
    FE_A64_B, FE_A64_BCOND, FE_A64_CBZ, FE_A64_CBNZ,
    FE_A64_MVN, FE_A64_NEG,                             /* MOVZ (no shift) is MOV */
    FE_A64_CSINC, FE_A64_CSINV, FE_A64_CSNEG, FE_A64_CSETM,
    FE_A64_OP_COUNT
} fe_a64_op;

/* Conditions of B.cond, CSET and CSEL. */
typedef enum fe_a64_cond {
    FE_A64_EQ, FE_A64_NE, FE_A64_LT, FE_A64_GE, FE_A64_GT, FE_A64_LE, FE_A64_MI, FE_A64_PL,
    FE_A64_COND_COUNT
} fe_a64_cond;

/* Extensions of an index register in an address. */
typedef enum fe_a64_ext { FE_A64_X_NONE, FE_A64_X_LSL, FE_A64_X_UXTW, FE_A64_X_SXTW, FE_A64_X_SXTX } fe_a64_ext;

typedef enum fe_a64_opnd_kind {
    FE_AO_NONE,
    FE_AO_REG,              /* W<n> / X<n>, or WZR / XZR (reg 31) */
    FE_AO_IMM,              /* #imm */
    FE_AO_MEM,              /* [Xn], [Xn,#imm], [Xn,Rm{,ext {#k}}] */
    FE_AO_LABEL             /* a branch target */
} fe_a64_opnd_kind;

#define FE_A64_ZR 31

typedef struct fe_a64_opnd {
    fe_a64_opnd_kind kind;
    int reg;                /* REG: 0..30, FE_A64_ZR; MEM: the base register */
    bool wide;              /* REG: X rather than W */
    int64_t imm;            /* IMM; MEM: the immediate offset */
    int index;              /* MEM: the index register, or -1 */
    bool index_wide;
    fe_a64_ext ext;         /* MEM: the index's extension */
    int shift;              /* MEM: the index's shift (#k), 0 when none */
    char *label;            /* LABEL */
    int line, col;
} fe_a64_opnd;

typedef struct fe_a64_instr {
    fe_a64_op op;
    char *mnem;             /* the mnemonic, upper case ("LDAXRB", "B.NE", "DMB"); NULL for EMPTY */
    int size;               /* access size in bytes from the mnemonic (B 1, H 2), else 0: the register's */
    bool acq, acqpc, rel;   /* A / LDAPR's Q / L */
    bool noret;             /* ST<op>: the LSE RMW's result is not kept */
    int barrier;            /* DMB/DSB: its option, 0..8 for SY ST LD ISH ISHST ISHLD OSH OSHST OSHLD
                             * (the order of ir.h's DMB and DSB rows) */
    char *option;           /* DMB/DSB: the option as written, upper case ("ISH") */
    fe_a64_cond cond;       /* B.cond, CSET, CSEL */
    fe_a64_opnd o[4];
    int nops;
    char *label;            /* `L:` at the start of the cell, or NULL */
    int row;                /* 0-based row of the program table */
    int line, col;
} fe_a64_instr;

#endif
