#ifndef LITMUSC_FRONTEND_AST_H
#define LITMUSC_FRONTEND_AST_H
/* The syntax tree of one litmus test, for all three source languages.
 *
 * The frontend fills it from a herd-format file; ir/lower*.c turns it into
 * IR.  It keeps what the source says (names, types as written, access modes,
 * the order of instructions) and nothing the model needs to compute.  Every
 * node carries the 1-based line/column where it starts, so later stages can
 * report errors against the source.
 *
 * Strings are malloc'd and owned by the tree; fe_test_free releases it all.
 * Compatibility: fields and enum values are only ever added at the end. */
#include <stdbool.h>
#include <stdint.h>
#include "frontend/ast_aarch64.h"
#include "isa/isa.h"

typedef struct fe_pos { int line, col; } fe_pos;

/* The instruction sets first, one per ISA_LIST entry in its order (FE_ARCH_X86,
 * FE_ARCH_X86_64), so that isa_of finds a test's row; then the languages. */
#define FE_ARCH_ISA(id, stem) FE_ARCH_##id,
typedef enum fe_arch { ISA_LIST(FE_ARCH_ISA) FE_ARCH_C, FE_ARCH_JAVA } fe_arch;
#undef FE_ARCH_ISA

/* ---- header -------------------------------------------------------------- */
typedef struct fe_info {        /* KEY=VALUE line before the init, verbatim */
    char *key, *value;          /* both trimmed of surrounding blanks */
    fe_pos pos;
} fe_info;

/* ---- init and condition: locations and values ---------------------------- */
typedef enum fe_loc_kind {
    FE_LOC_MEM,                 /* x, [x], a[i] */
    FE_LOC_REG                  /* 0:EAX, P1:r0, 0:X (Java handle) */
} fe_loc_kind;

typedef struct fe_loc {
    fe_loc_kind kind;
    int thread;                 /* FE_LOC_REG: thread number */
    char *name;                 /* location or register name.  X86 registers are
                                   upper case (EAX); X86_64 ones are the 64-bit
                                   lower-case name without '%' (rax) */
    int index;                  /* a[i]: i; otherwise -1 */
    fe_pos pos;
    char *text;                 /* FE_LOC_REG: the register as written when that differs
                                   from `name` (0:RAX -> name "rax", text "RAX"); herd's
                                   hash covers the spelling.  NULL otherwise */
    bool symbolic;              /* FE_LOC_REG: an X86_64 init's `%NAME`, herd's symbolic
                                   register: no thread is written; it is the one
                                   thread whose code uses %NAME */
} fe_loc;

typedef enum fe_value_kind {
    FE_VAL_INT,                 /* a number */
    FE_VAL_ADDR                 /* the address of location `sym` (x, &x) */
} fe_value_kind;

typedef struct fe_value {
    fe_value_kind kind;
    int64_t i;                  /* FE_VAL_INT (and __int128 literals truncated) */
    char *sym;                  /* FE_VAL_ADDR */
    fe_pos pos;
    char *text;                 /* FE_VAL_INT in init/condition: the number as written
                                   ("0x10", "-1"), since herd's hash covers the spelling;
                                   may be NULL */
} fe_value;

/* One init item: `x=1`, `[x]=1`, `int x=2`, `0:EAX=x`, `int *p=x`, `int a[2]={1,2}`. */
typedef struct fe_init {
    fe_loc loc;
    char *type;                 /* C type as written, normalised to single blanks and
                                   `T*` for pointers ("int", "_Atomic int", "int*"),
                                   or NULL when untyped */
    bool has_value;             /* false for a bare `x` or `int x;` (value 0) */
    fe_value value;             /* scalar value (when has_value and array_size == 0) */
    int array_size;             /* `int a[2]`: 2; otherwise 0 */
    fe_value *elems;            /* array initialiser {1,2}, nelems items */
    int nelems;
} fe_init;

/* ---- condition -------------------------------------------------------------- */
typedef enum fe_prop_kind {
    FE_P_TRUE, FE_P_FALSE, FE_P_ATOM, FE_P_NOT, FE_P_AND, FE_P_OR, FE_P_IMPLIES
} fe_prop_kind;

typedef struct fe_prop {
    fe_prop_kind kind;
    struct fe_prop *l, *r;      /* NOT uses l */
    /* ATOM: lhs = rhs (or !=) where rhs is a value or another location */
    fe_loc lhs;
    bool ne;                    /* written != or <> */
    bool rhs_is_loc;
    fe_loc rhs_loc;
    fe_value rhs;
    fe_pos pos;
} fe_prop;

typedef enum fe_quant {
    FE_Q_EXISTS,                /* exists P, final P, (P), or no condition */
    FE_Q_NOT_EXISTS,            /* ~exists P, not exists P */
    FE_Q_FORALL                 /* forall P */
} fe_quant;

typedef struct fe_cond {
    fe_quant quant;
    fe_prop *prop;              /* never NULL once parsed (FE_P_TRUE if absent) */
    fe_prop *filter;            /* `filter P`, or NULL */
    fe_loc *locations;          /* `locations [a; 0:r0;]` */
    int nlocations;
    fe_pos pos;
} fe_cond;

/* ---- X86 and X86_64 programs -------------------------------------------- */
typedef enum fe_x86_op {
    FE_X86_EMPTY,               /* an empty cell, or a cell holding only a label */
    FE_X86_MOV, FE_X86_ADD, FE_X86_SUB, FE_X86_XOR, FE_X86_OR, FE_X86_AND,
    FE_X86_INC, FE_X86_DEC, FE_X86_CMP, FE_X86_XCHG, FE_X86_XADD, FE_X86_CMPXCHG,
    FE_X86_MFENCE, FE_X86_LFENCE, FE_X86_SFENCE,
    FE_X86_JMP, FE_X86_JE, FE_X86_JNE,
    FE_X86_SETNB, FE_X86_CMOVC,
    FE_X86_NOP, FE_X86_MOVNTI, FE_X86_CLFLUSH, FE_X86_RET,
    FE_X86_TEST, FE_X86_SETE, FE_X86_SETNE,
    FE_X86_JL, FE_X86_JGE, FE_X86_JLE, FE_X86_JG,   /* signed, after CMP */
    FE_X86_JB, FE_X86_JAE, FE_X86_JBE, FE_X86_JA,   /* unsigned, after CMP */
    FE_X86_LEA, FE_X86_NEG, FE_X86_NOT,
    FE_X86_CMOVE, FE_X86_CMOVNE,
    /* the other conditions of setcc and cmovcc (SETAE is SETNB, CMOVB is
     * CMOVC), after CMP or SUB as the jumps above */
    FE_X86_SETL, FE_X86_SETGE, FE_X86_SETLE, FE_X86_SETG, FE_X86_SETB, FE_X86_SETBE, FE_X86_SETA,
    FE_X86_CMOVL, FE_X86_CMOVGE, FE_X86_CMOVLE, FE_X86_CMOVG, FE_X86_CMOVAE, FE_X86_CMOVBE, FE_X86_CMOVA,
    FE_X86_SHL, FE_X86_SHR, FE_X86_SAR,     /* by an immediate or %cl */
    FE_X86_OP_COUNT
} fe_x86_op;

/* A jump to a label: JMP or a conditional one. */
#define FE_X86_IS_JUMP(op) ((op) == FE_X86_JMP || (op) == FE_X86_JE || (op) == FE_X86_JNE || \
                            ((op) >= FE_X86_JL && (op) <= FE_X86_JA))

typedef enum fe_x86_opnd_kind {
    FE_XO_NONE,
    FE_XO_IMM,                  /* $1 or 1 */
    FE_XO_REG,                  /* EAX, %eax: name is the full register (EAX / rax) */
    FE_XO_MEM,                  /* [x], (x): the location `name` */
    FE_XO_MEM_REG,              /* [EAX], (%rax): memory at the address held in register `name`;
                                   X86_64 also 8(%rax), (%rax,%rdx,4), 8(%rax,%rdx,4): plus
                                   imm, plus register `index` times `scale` */
    FE_XO_MEM_ABS,              /* [5]: memory at absolute address imm */
    FE_XO_LABEL                 /* jump target `name` */
} fe_x86_opnd_kind;

typedef struct fe_x86_opnd {
    fe_x86_opnd_kind kind;
    int64_t imm;
    char *name;
    int reg_size;               /* FE_XO_REG / MEM_REG: bytes of the register as
                                   written (eax = 4, rax = 8, ax = 2, al = 1); 4 in X86 */
    char *index;                /* FE_XO_MEM_REG: the index register, or NULL */
    char *sym;                  /* FE_XO_MEM_REG: a location whose address is added, x(%rax) or
                                   x(,%rdx,4) as compilers write them (name NULL: no base), or NULL */
    int index_size, scale;      /* its bytes as written; 1, 2, 4 or 8 */
    fe_pos pos;
} fe_x86_opnd;

/* Operands are kept in Intel order whatever the syntax: dst is the written
 * destination (the memory operand of CMPXCHG, the first operand of XCHG
 * and CMP), src the other. */
typedef struct fe_x86_instr {
    fe_x86_op op;
    int size;                   /* suffix b/w/l/q as 1/2/4/8; 0 when none was written */
    bool lock;                  /* LOCK prefix (XCHG is locked anyway) */
    const char *ext;            /* X86_64 movz/movs form (static "movzbl", ...): a MOV whose
                                   source is narrower; NULL otherwise */
    fe_x86_opnd dst, src;
    char *label;                /* `L:` at the start of the cell, or NULL */
    int row;                    /* 0-based row of the program table */
    fe_pos pos;
} fe_x86_instr;

/* ---- C and Java programs ------------------------------------------------------ */
typedef enum fe_binop {
    FE_ADD, FE_SUB, FE_MUL, FE_DIV,
    FE_AND, FE_OR, FE_XOR,      /* C & | ^; Java && || ^ (bitwise in herd) */
    FE_EQ, FE_NE, FE_LT, FE_LE, FE_GT, FE_GE,   /* 0 or 1 */
    FE_BINOP_COUNT
} fe_binop;

/* C memory orders; FE_MO_NONE where the form takes none. */
typedef enum fe_mo {
    FE_MO_NONE, FE_MO_RELAXED, FE_MO_CONSUME, FE_MO_ACQUIRE, FE_MO_RELEASE,
    FE_MO_ACQ_REL, FE_MO_SEQ_CST
} fe_mo;

/* C atomic builtins (the non-explicit forms get FE_MO_SEQ_CST and explicit=false). */
typedef enum fe_c_call {
    FE_C_LOAD, FE_C_STORE, FE_C_EXCHANGE,
    FE_C_FETCH_ADD, FE_C_FETCH_SUB, FE_C_FETCH_AND, FE_C_FETCH_OR, FE_C_FETCH_XOR,
    FE_C_CAS_STRONG, FE_C_CAS_WEAK,     /* result: 1 on success, 0 on failure */
    FE_C_THREAD_FENCE, FE_C_SIGNAL_FENCE,
    /* Locks (explicit_form: the spin_* and mtx_* spellings; else herd's raw
     * __lock/__unlock/__trylock for spin locks and lock/unlock for C11
     * mutexes).  spin_trylock gives 1 when it took the lock; mtx_trylock, as
     * C11, gives thrd_success (0) when it took it and thrd_busy (1) when not. */
    FE_C_SPIN_LOCK, FE_C_SPIN_UNLOCK, FE_C_SPIN_TRYLOCK,
    FE_C_MTX_LOCK, FE_C_MTX_UNLOCK, FE_C_MTX_TRYLOCK,
    FE_C_CALL_COUNT
} fe_c_call;

/* Java VarHandle access modes and methods. */
typedef enum fe_jmode {
    FE_JM_PLAIN, FE_JM_OPAQUE, FE_JM_ACQUIRE, FE_JM_RELEASE, FE_JM_VOLATILE
} fe_jmode;

typedef enum fe_jmethod {
    FE_J_GET, FE_J_SET,                         /* mode: plain/opaque/acquire/release/volatile */
    FE_J_CAE,                                   /* compareAndExchange: returns the old value */
    FE_J_CAS,                                   /* compareAndSet: returns 1/0 */
    FE_J_WEAK_CAS,                              /* weakCompareAndSet*: returns 1/0 */
    FE_J_GET_AND_SET, FE_J_GET_AND_ADD,
    FE_J_GET_AND_OR, FE_J_GET_AND_AND, FE_J_GET_AND_XOR,
    FE_J_FENCE_FULL, FE_J_FENCE_ACQUIRE, FE_J_FENCE_RELEASE,
    FE_J_FENCE_LOADLOAD, FE_J_FENCE_STORESTORE,
    FE_J_METHOD_COUNT
} fe_jmethod;

typedef enum fe_expr_kind {
    FE_E_CONST,                 /* value */
    FE_E_REG,                   /* a local (a register of the thread): name */
    FE_E_DEREF,                 /* C `*e` (a plain access): l */
    FE_E_BIN,                   /* l binop r */
    FE_E_CAST,                  /* C `(type)e`: type, l */
    FE_E_CCALL,                 /* C atomic builtin: ccall, args */
    FE_E_JCALL                  /* Java `H.method(args)` or a bare fence: handle, jmethod, jmode */
} fe_expr_kind;

typedef struct fe_expr {
    fe_expr_kind kind;
    int64_t value;              /* FE_E_CONST */
    char *name;                 /* FE_E_REG; FE_E_JCALL: the handle (NULL for fences) */
    char *type;                 /* FE_E_CAST */
    fe_binop op;
    struct fe_expr *l, *r;
    /* calls.  C: args[0] is the address, then the value (store, RMW) or
     * expected pointer and desired value (CAS), as written.  Java: the
     * method's arguments (set: value; CAE/CAS: expected, new; RMWs: operand). */
    fe_c_call ccall;
    bool explicit_form;         /* C: the _explicit spelling was used */
    fe_mo mo, mo_fail;          /* C orders (mo_fail: CAS failure order) */
    fe_jmethod jmethod;
    fe_jmode jmode;
    struct fe_expr **args;
    int nargs;
    fe_pos pos;
} fe_expr;

typedef enum fe_stmt_kind {
    FE_S_DECL,                  /* `T r [= e];`: type, name, e (may be NULL) */
    FE_S_ASSIGN,                /* `r = e;` */
    FE_S_STORE,                 /* C `*addr = e;` (plain store): addr, e */
    FE_S_EXPR,                  /* `e;` (a call whose result is dropped) */
    FE_S_IF,                    /* if (e) then_s [else else_s] */
    FE_S_BLOCK,                 /* { body } */
    FE_S_SYNC,                  /* Java `synchronized (M) { ... }`: name = the handle M, bound in
                                   the init to the monitor's location; then_s = the block */
    FE_S_WHILE,                 /* while (e) then_s: unrolled for the model (ir/README.md) */
    FE_S_DO,                    /* do then_s while (e); */
    FE_S_JOIN                   /* Java `P2.join();`: name = the thread joined, as written */
} fe_stmt_kind;

typedef struct fe_stmt {
    fe_stmt_kind kind;
    char *type;                 /* FE_S_DECL: C type as written ("int", "__int128"); Java "int" */
    char *name;                 /* DECL, ASSIGN: the register; SYNC: the monitor's handle */
    fe_expr *e;                 /* DECL init, ASSIGN/STORE value, EXPR, IF condition */
    fe_expr *addr;              /* STORE: the pointer expression */
    struct fe_stmt *then_s, *else_s;    /* IF (else_s may be NULL); SYNC: then_s, the body */
    struct fe_stmt **body;      /* BLOCK */
    int nbody;
    fe_pos pos;
} fe_stmt;

typedef struct fe_param {       /* C thread parameter `atomic_int* x` */
    char *type;                 /* pointed-to type, normalised ("atomic_int", "volatile int") */
    char *name;                 /* names both the register and the location */
    fe_pos pos;
} fe_param;

typedef struct fe_thread {
    int id;                     /* 0, 1, ... */
    char *name;                 /* "P0", "Thread0" as written */
    fe_pos pos;
    /* The code of an instruction set's thread, one pair of fields per set:
     * only the set's own files read them, the rest of the frontend through
     * its hooks (frontend/code_STEM.c: compare, free, locations named). */
    /* X86 / X86_64 */
    fe_x86_instr *code;
    int ncode;
    /* C */
    fe_param *params;
    int nparams;
    /* C and Java: the body, an FE_S_BLOCK */
    fe_stmt *body;
    /* C: the body's text between its braces, verbatim (herd hashes it) */
    char *body_text;
    /* AArch64 (frontend/ast_aarch64.h) */
    fe_a64_instr *a64;
    int na64;
} fe_thread;

/* ---- the test ----------------------------------------------------------------- */
typedef struct fe_test {
    fe_arch arch;
    char *arch_name;            /* as written: "X86", "X86_64", "C", "Java", "JAVA" */
    char *name;
    char *doc;                  /* quoted doc string without quotes, or NULL */
    fe_info *info;
    int ninfo;
    fe_init *init;
    int ninit;
    fe_thread *threads;         /* in id order, ids 0..nthreads-1 */
    int nthreads;
    int nrows;                  /* X86: rows of the program table */
    fe_cond cond;
    char *extra;                /* C: text between the last thread and the
                                   condition (herd's `regions: ...`), verbatim, or NULL */
    char hash[33];              /* herd's hash: the Hash= info line, else computed */
    bool hash_from_info;
    char *file;                 /* path given to the parser */
} fe_test;

#endif
