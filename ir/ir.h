#ifndef LITMUSC_IR_IR_H
#define LITMUSC_IR_IR_H
/* The litmusc IR: one loop-free SSA function per thread, typed locations
 * with initial values, and the test's condition lowered onto observables
 * (final registers by source name, final memory).
 *
 * This header is the contract between the frontend (which builds an ir_test
 * through the builder below), the model (which enumerates executions of it)
 * and every backend (which emits code from it).  Its text form is documented
 * in ir/README.md; ir_print and ir_read round-trip it exactly. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "isa/isa.h"
#include "util/diag.h"
#include "util/mem.h"

/* ---- values ------------------------------------------------------------
 * Values are 64-bit integers (herd computes in 64 bits).  The address of
 * location L is IR_ADDR(L): a tagged integer that no litmus constant can
 * spell, so addresses and integers share one domain. */
typedef int64_t ir_val;
#define IR_ADDR_TAG     ((int64_t)0x4c49540000000000)   /* "LIT" in the top bytes */
#define IR_ADDR_MASK    ((int64_t)0xffffff0000000000)
#define IR_ADDR(loc)    (IR_ADDR_TAG | (int64_t)(loc))
#define IR_IS_ADDR(v)   (((v) & IR_ADDR_MASK) == IR_ADDR_TAG)
#define IR_ADDR_LOC(v)  ((int)((v) & 0xffffffff))

/* The instruction sets first, one per ISA_LIST entry in its order (IR_ARCH_X86,
 * IR_ARCH_X86_64), so that isa_of finds a test's row; then the languages. */
#define IR_ARCH_ISA(id, stem) IR_ARCH_##id,
typedef enum ir_arch { ISA_LIST(IR_ARCH_ISA) IR_ARCH_C, IR_ARCH_JAVA } ir_arch;
#undef IR_ARCH_ISA
const char *ir_arch_name(ir_arch a);    /* "X86", "X86_64", "C", "Java" */

/* ---- access modes ------------------------------------------------------
 * One vocabulary for every source language.  A C test uses only the IR_MO_*
 * orders, a Java test only IR_JM_*, an x86 test only IR_X86_*; the model's
 * tag sets (NA, RLX, ACQ, ..., O, RA, V, X) are derived from them. */
typedef enum ir_mode {
    IR_MODE_NONE = 0,
    /* C11 memory orders; IR_MO_NA is a non-atomic (plain) access. */
    IR_MO_NA, IR_MO_RLX, IR_MO_CON, IR_MO_ACQ, IR_MO_REL, IR_MO_ACQ_REL, IR_MO_SC,
    /* Java VarHandle access modes. */
    IR_JM_PLAIN, IR_JM_OPAQUE, IR_JM_ACQUIRE, IR_JM_RELEASE, IR_JM_VOLATILE,
    /* x86: ordinary access, or part of a LOCK-prefixed/XCHG instruction. */
    IR_X86_PLAIN, IR_X86_LOCKED,
    /* AArch64: ordinary access (LDR/STR), acquire (LDAR, LDAXR, SWPA...: herd's
     * set A), acquirePC (LDAPR: Q) and release (STLR, STLXR, SWPL...: L). */
    IR_A64_PLAIN, IR_A64_ACQ, IR_A64_ACQPC, IR_A64_REL,
    /* AArch64 RMW that both acquires and releases (SWPAL, CASAL, LDADDAL...):
     * on an IR_RMW only.  An AArch64 RMW is two events, as herd has it, a
     * read and a write linked by rmw, and each half carries its own mode:
     * the read IR_A64_ACQ for ACQ and ACQREL (else IR_A64_PLAIN), the
     * write IR_A64_REL for REL and ACQREL (else IR_A64_PLAIN).  So no event
     * ever has IR_A64_ACQREL; a model reads A and L off the events' modes.
     * A CAS that fails only reads: its fail_mode is IR_A64_ACQ (CASA,
     * CASAL) or IR_A64_PLAIN (CAS, CASL). */
    IR_A64_ACQREL,
    IR_MODE_COUNT
} ir_mode;
const char *ir_mode_name(ir_mode m);    /* text-form spelling: "na" "rlx" ... "plain" "opaque" ... "x86" "locked" */

/* Fences.  A C fence carries its memory order in ir_instr.mode. */
typedef enum ir_fence_kind {
    IR_FENCE_C,                     /* atomic_thread_fence(mode) */
    IR_FENCE_J_FULL, IR_FENCE_J_ACQUIRE, IR_FENCE_J_RELEASE,
    IR_FENCE_J_LOADLOAD, IR_FENCE_J_STORESTORE,
    IR_FENCE_MFENCE, IR_FENCE_LFENCE, IR_FENCE_SFENCE,
    /* AArch64 barriers, herd's event sets DMB.SY ... ISB: data memory and
     * data synchronisation barriers by domain and kind, and ISB. */
    IR_FENCE_DMB_SY, IR_FENCE_DMB_ST, IR_FENCE_DMB_LD,
    IR_FENCE_DMB_ISH, IR_FENCE_DMB_ISHST, IR_FENCE_DMB_ISHLD,
    IR_FENCE_DMB_OSH, IR_FENCE_DMB_OSHST, IR_FENCE_DMB_OSHLD,
    IR_FENCE_DSB_SY, IR_FENCE_DSB_ST, IR_FENCE_DSB_LD,
    IR_FENCE_DSB_ISH, IR_FENCE_DSB_ISHST, IR_FENCE_DSB_ISHLD,
    IR_FENCE_DSB_OSH, IR_FENCE_DSB_OSHST, IR_FENCE_DSB_OSHLD,
    IR_FENCE_ISB,
    IR_FENCE_COUNT
} ir_fence_kind;
/* "c" "full" "acquire" "release" "loadload" "storestore" "mfence" "lfence" "sfence"
 * "dmb.sy" ... "dsb.oshld" "isb" (AArch64's: herd's set names, lower case) */
const char *ir_fence_name(ir_fence_kind k);

/* Locks.  A mutex is a location of its own (init 0 = free) that only lock
 * and unlock instructions name, always directly (an IMM address); the kind
 * is how the source spells it, which backends keep.  Each thread takes and
 * frees its locks in pairs on every path (ir/locks.c checks it). */
typedef enum ir_lock_kind {
    IR_LK_SPIN,     /* herd's Linux spin_lock / spin_unlock / spin_trylock */
    IR_LK_MTX,      /* C11 mtx_lock / mtx_unlock / mtx_trylock (herd's lock / unlock) */
    IR_LK_MONITOR,  /* Java synchronized: monitor enter / exit */
    IR_LK_COUNT
} ir_lock_kind;
const char *ir_lock_name(ir_lock_kind k);  /* "spin" "mtx" "monitor" */

/* Read-modify-writes.  The result of every RMW is the old value. */
typedef enum ir_rmw_op {
    IR_RMW_XCHG, IR_RMW_ADD, IR_RMW_SUB, IR_RMW_AND, IR_RMW_OR, IR_RMW_XOR,
    IR_RMW_CAS,   /* compare-exchange: writes `operand` iff old == `expected` */
    IR_RMW_COUNT
} ir_rmw_op;
const char *ir_rmw_name(ir_rmw_op op);  /* "xchg" "add" "sub" "and" "or" "xor" "cas" */

typedef enum ir_binop {
    IR_ADD, IR_SUB, IR_MUL, IR_DIV, IR_REM,
    IR_AND, IR_OR, IR_XOR, IR_SHL, IR_SHR,
    IR_EQ, IR_NE, IR_LT, IR_LE, IR_GT, IR_GE,   /* comparisons yield 0 or 1 */
    IR_BINOP_COUNT
} ir_binop;
const char *ir_binop_name(ir_binop op); /* "add" "sub" ... "eq" "ne" "lt" "le" "gt" "ge" */
/* Evaluate with herd's meaning (64-bit wrap-around; division by zero gives
 * false and leaves *out untouched). */
bool ir_binop_eval(ir_binop op, ir_val a, ir_val b, ir_val *out);

/* ---- operands ------------------------------------------------------------ */
typedef enum ir_operand_kind { IR_OPND_NONE = 0, IR_OPND_IMM, IR_OPND_VAL } ir_operand_kind;

typedef struct ir_operand {
    ir_operand_kind kind;
    int val;        /* IR_OPND_VAL: SSA value number within the thread */
    ir_val imm;     /* IR_OPND_IMM: constant (may be an address) */
} ir_operand;

static inline ir_operand ir_imm(ir_val v) { ir_operand o = {IR_OPND_IMM, -1, v}; return o; }
static inline ir_operand ir_value(int v)  { ir_operand o = {IR_OPND_VAL, v, 0}; return o; }
static inline ir_operand ir_none(void)    { ir_operand o = {IR_OPND_NONE, -1, 0}; return o; }

/* ---- instructions --------------------------------------------------------- */
typedef enum ir_op {
    IR_LOAD,    /* dst = load.mode [addr] */
    IR_STORE,   /* store.mode [addr], a */
    IR_RMW,     /* dst = rmw.rmw_op.mode [addr], a (, expected b, fail_mode) */
    IR_FENCE,   /* fence.fence_kind (mode for C) */
    IR_BIN,     /* dst = binop a, b */
    IR_PHI,     /* dst = phi [phi_args[i] from block preds[i]] */
    IR_BR,      /* br a, then_block, else_block   (a != 0 -> then) */
    IR_JMP,     /* jmp then_block */
    IR_RET,     /* end of thread; exactly one per thread */
    IR_LOCK,    /* lock.lock_kind [addr]: waits until it takes the mutex; with dst >= 0 a
                   trylock, which does not wait: dst = 1 when it took it, 0 when not */
    IR_UNLOCK,  /* unlock.lock_kind [addr] */
    IR_CUT,     /* cut: a path that stops here, where a source loop ran past its unrolling
                   bound (a, an immediate); the path is no execution.  spin: the loop's
                   iterations only read, so longer runs repeat reads and lose no outcome */
    IR_OP_COUNT
} ir_op;

typedef struct ir_instr {
    ir_op op;
    int dst;                /* SSA value defined, or -1 */
    ir_operand addr;        /* LOAD/STORE/RMW: address (an IMM address, or a value holding one) */
    ir_operand a, b;        /* STORE: a = value; RMW: a = operand/desired, b = expected (CAS);
                               BIN: a op b; BR: a = condition */
    ir_mode mode;           /* access mode (RMW: success mode); C fence: its order */
    ir_mode fail_mode;      /* CAS: mode of the failure read (IR_MODE_NONE = same as mode) */
    ir_rmw_op rmw_op;
    bool weak;              /* CAS: weak form (may fail spuriously) */
    bool excl;              /* AArch64 exclusive access (LDXR/STXR and their A/L forms):
                             * herd's set X */
    bool noret;             /* AArch64 LSE RMW whose result is discarded (ST<op>, or a
                             * destination of WZR/XZR): herd's set NoRet */
    bool waits;             /* XCHG: a lock's exchange, which the thread repeats until it reads 0;
                             * a path where it reads another value does not exist (the x86
                             * compilation of IR_LOCK) */
    bool spin;              /* CUT: the loop only reads (see IR_CUT) */
    bool select;            /* BR: it only chooses a value (AArch64's CSEL): the events after it
                             * take no control dependency on its condition, which only picks
                             * the value chosen, as in herd */
    int flag;               /* CAS: SSA value set to 1 when it wrote, 0 when it failed;
                             * -1 for none (then only the old value tells, which a
                             * weak CAS's spurious failure would not) */
    ir_binop binop;
    ir_fence_kind fence;
    ir_lock_kind lock;      /* LOCK/UNLOCK */
    int then_block, else_block;     /* BR/JMP targets (block indices) */
    ir_operand *phi_args;   /* PHI: one per predecessor, in the block's preds order */
    int nphi_args;
    /* Source position and text of the litmus instruction or statement this
     * came from (used to name racing pairs and in generated comments). */
    int line, col;
    char *src;              /* may be NULL */
    /* Where the IR text read by ir_read has it (its first token), so that
     * the verifier's complaint points there; 0 for code lowered from a
     * litmus file. */
    int text_line, text_col;
} ir_instr;

/* Where a complaint about IN points: its place in the IR text it was read
 * from, else its source position (0 when it has neither). */
static inline int ir_instr_line(const ir_instr *in) { return in->text_line ? in->text_line : in->line; }
static inline int ir_instr_col(const ir_instr *in) { return in->text_line ? in->text_col : in->col; }

typedef struct ir_block {
    ir_instr *instrs;       /* phis first; last instruction is BR, JMP or RET */
    int ninstrs, cap;
    int *preds;             /* predecessor block indices (filled by ir_finish) */
    int npreds;
    int text_line, text_col;    /* its label in an IR text (ir_read), else 0 */
} ir_block;

/* A source register's binding: its initial value (from the init section),
 * or its value at thread exit (an operand valid in the exit block). */
typedef struct ir_reg {
    char *name;             /* source name: "EAX", "r0" */
    ir_operand value;
    char *ctype;            /* a final register's C type from the init (AArch64's `int8_t 0:X1`),
                               which the state shows it in (ir_obs_shown); NULL when untyped */
} ir_reg;

typedef struct ir_thread {
    int id;                 /* 0, 1, ... as in the litmus file */
    char *name;             /* "P0", "Thread0" */
    ir_block *blocks;       /* block 0 is the entry */
    int nblocks, cap;
    int nvals;              /* SSA values are 0 .. nvals-1 */
    ir_reg *init_regs;      /* from the init section, e.g. 0:EAX=1 or 0:X=x */
    int ninit_regs;
    ir_reg *final_regs;     /* every source register the thread has, sorted by name */
    int nfinal_regs;
    int text_line, text_col;    /* its `thread` line in an IR text (ir_read), else 0 */
} ir_thread;

/* ---- locations ------------------------------------------------------------ */
typedef enum ir_type { IR_T_INT, IR_T_INT128, IR_T_PTR } ir_type;

typedef struct ir_loc {
    char *name;             /* source name */
    ir_type type;
    char *ctype;            /* source type as written ("atomic_int", "volatile int", "__int128"), or NULL */
    bool atomic;            /* declared atomic (C atomic_int/_Atomic); x86 and Java: false */
    ir_val init;            /* initial value (an address for pointers) */
    bool init_given;        /* the init section names this location explicitly */
    bool end_flag;          /* not a source location: the flag thread end_of writes last, which
                               a Java join waits for (ir/lower_loop.c) */
    int end_of;             /* with end_flag: that thread's id */
    int text_line, text_col;    /* its `loc` line in an IR text (ir_read), else 0 */
} ir_loc;

/* ---- condition --------------------------------------------------------------- */
typedef enum ir_obs_kind { IR_OBS_REG, IR_OBS_MEM } ir_obs_kind;

/* Something the final state shows: a thread's register, or a location. */
typedef struct ir_obs {
    ir_obs_kind kind;
    int thread;             /* IR_OBS_REG */
    char *reg;              /* IR_OBS_REG: source register name */
    int loc;                /* IR_OBS_MEM: location index */
} ir_obs;

typedef enum ir_cond_kind {
    IR_C_TRUE, IR_C_FALSE, IR_C_ATOM, IR_C_NOT, IR_C_AND, IR_C_OR, IR_C_IMPLIES
} ir_cond_kind;

typedef struct ir_cond {
    ir_cond_kind kind;
    struct ir_cond *l, *r;  /* NOT uses l */
    /* ATOM: lhs (== or !=) rhs, where rhs is a constant or another observable */
    ir_obs lhs;
    bool ne;
    bool rhs_is_obs;
    ir_obs rhs_obs;
    ir_val rhs;
} ir_cond;

typedef enum ir_quant { IR_Q_EXISTS, IR_Q_NOT_EXISTS, IR_Q_FORALL } ir_quant;

typedef kv_pair ir_info;

typedef struct ir_test {
    char *name;
    ir_arch arch;
    char *file;             /* source path, for diagnostics */
    char *doc;              /* quoted doc string, or NULL */
    ir_info *info;          /* KEY=VALUE lines, verbatim, in order */
    int ninfo;
    ir_loc *locs;
    int nlocs;
    ir_thread *threads;
    int nthreads;
    ir_quant quant;
    ir_cond *cond;          /* never NULL (IR_C_TRUE when absent) */
    ir_cond *filter;        /* NULL when absent */
    ir_obs *locations;      /* the `locations [...]` list */
    int nlocations;
    char *hash;             /* herd's hash: the Hash= info line, else computed by the frontend */
    struct ir_loc_index *loc_index;     /* ir_add_loc's hash of locs by name, for ir_find_loc */
    /* In an IR text (ir_read): where its `cond`, `filter` and `locations`
     * start, for the verifier's complaints; else 0. */
    int cond_line, cond_col, filter_line, filter_col, locations_line, locations_col;
} ir_test;

/* ---- building --------------------------------------------------------------------
 * Build a test by filling name/arch/locs/condition directly (allocating with
 * util/mem.h), and each thread's code with these helpers; then ir_finish()
 * computes predecessors and ir_verify() checks it. */
ir_test *ir_test_new(const char *name, ir_arch arch);
void ir_test_free(ir_test *t);
/* Locations are added through ir_add_loc (never by writing locs directly),
 * which keeps the index that makes ir_find_loc constant-time. */
int ir_add_loc(ir_test *t, const char *name, ir_type type);   /* returns index; existing name -> its index */
int ir_find_loc(const ir_test *t, const char *name);          /* -1 if absent */
ir_thread *ir_add_thread(ir_test *t, int id, const char *name);
int ir_add_block(ir_thread *th);                               /* returns index */
int ir_new_val(ir_thread *th);                                 /* fresh SSA value number */
ir_instr *ir_emit(ir_thread *th, int block, ir_op op);         /* appended, zeroed, dst=-1 */
void ir_set_final_reg(ir_thread *th, const char *name, ir_operand v);
void ir_set_init_reg(ir_thread *th, const char *name, ir_operand v);
/* The C type final register NAME of TH is declared with (copied); no-op for an unknown name. */
void ir_set_reg_ctype(ir_thread *th, const char *name, const char *ctype);
ir_cond *ir_cond_new(ir_cond_kind kind);
/* A node of KIND over L and R (NOT uses L alone), which it then owns. */
ir_cond *ir_cond_join(ir_cond_kind kind, ir_cond *l, ir_cond *r);

/* Compute predecessor lists; phis' args must already be in that order, so
 * builders that add phis should call ir_finish first and use block->preds. */
void ir_finish(ir_test *t);

/* Defs dominate uses, phis match predecessors, one RET, terminators last,
 * types agree, observables exist.  On failure fills d (file = t->file). */
bool ir_verify(const ir_test *t, diag *d);
/* ir_verify without the lock discipline (ir_check_locks), for a builder that
 * tells its own faults (exit 3) from the test's (exit 2). */
bool ir_verify_structure(const ir_test *t, diag *d);

/* ---- text form (ir/README.md) ------------------------------------------------ */
void ir_print(FILE *out, const ir_test *t);
char *ir_print_str(const ir_test *t);                 /* malloc'd */
ir_test *ir_read(const char *text, const char *file, diag *d);   /* NULL on error */

/* ---- queries used by the model and the backends --------------------------------- */
/* Index into th->final_regs of the register named NAME, or -1. */
int ir_thread_find_reg(const ir_thread *th, const char *name);
/* The locations TH's code may load (RMWs too) and store, a bit per
 * location (ir/accesses.c); an access through a value, or to a location
 * past 64, sets every bit. */
void ir_thread_accesses(const ir_thread *th, uint64_t *loads, uint64_t *stores);
/* The first cut of T (a loop past its unrolling bound), or NULL; and, for
 * a backend named TARGET, false + diag at it when there is one
 * (ir/loops.c). */
const ir_instr *ir_first_cut(const ir_test *t);
bool ir_refuse_loops(const ir_test *t, const char *target, diag *d);
/* Observables shown in a final state, in herd's order: the condition's and
 * `locations`' registers (by thread, then name as herd sorts them), then
 * memory.  Returns a malloc'd array and its length in *n; free() the array
 * only: its register names point into T. */
ir_obs *ir_observables(const ir_test *t, int *n);
/* Evaluate condition C on a final state given as values VALS of the
 * observables OBS[0..n).  A register that is not among them reads 0. */
bool ir_cond_eval(const ir_cond *c, const ir_obs *obs, const ir_val *vals, int n);
/* herd's normal form of the condition: "exists ([x]=1 /\\ 1:r0=0)" (quantifier
 * included; filter and locations not). malloc'd. */
char *ir_format_cond(const ir_test *t);
/* A final state as herd prints it: "0:EAX=0; 1:EAX=1; [x]=1;" (no trailing space). malloc'd. */
char *ir_format_state(const ir_test *t, const ir_obs *obs, const ir_val *vals, int n);
/* Print a value as herd does: decimal, or the location name for an address. */
void ir_format_val(const ir_test *t, ir_val v, char *buf, size_t size);

/* ---- values seen through C types (ir/width.c) ------------------------------------
 * herd shows and compares a final value in the C type its location or register is
 * declared with, an untyped one as `int`; litmusc does so for an instruction set whose
 * row says typed_state (isa/isa.h), and shows other values as computed. */
/* herd's size in bytes of C type CTYPE (NULL: `int`) and in *SGN whether it is signed;
 * 8 for a pointer or a type herd does not size. */
int ir_ctype_bytes(const char *ctype, bool *sgn);
/* V cut to its low BYTES bytes (1, 2, 4; 8 leaves it), sign-extended when SGN. */
ir_val ir_val_cast(ir_val v, int bytes, bool sgn);
/* V as observable O of T shows it: cut to the observable's type (an address stays). */
ir_val ir_obs_shown(const ir_test *t, const ir_obs *o, ir_val v);
/* O is declared uint64_t (or another 8-byte unsigned type): herd prints it unsigned. */
bool ir_obs_unsigned64(const ir_test *t, const ir_obs *o);
/* ir_cond_eval of C on values already shown (ir_obs_shown), each constant compared
 * as the observable beside it shows it (herd masks both sides by the type). */
bool ir_cond_holds(const ir_test *t, const ir_cond *c, const ir_obs *obs, const ir_val *vals, int n);

/* ---- additions (ir/README.md) ---------------------------------------------------- */
/* "load" "store" "rmw" "fence" "bin" "phi" "br" "jmp" "ret". */
const char *ir_op_name(ir_op op);
/* Reverse of the *_name functions: the enumerator, or -1 for an unknown spelling. */
int ir_arch_from_name(const char *name);
int ir_mode_from_name(const char *name);
int ir_fence_from_name(const char *name);
int ir_rmw_from_name(const char *name);
int ir_binop_from_name(const char *name);
int ir_lock_from_name(const char *name);
/* ir_read for text that starts at line FIRST_LINE of FILE (a file holding
 * several tests, as `litmusc ir` prints them). */
ir_test *ir_read_at(const char *text, const char *file, int first_line, diag *d);
/* Free a condition tree (also used by ir_test_free). */
void ir_cond_free(ir_cond *c);
/* Index into t->threads of the thread with this id, or -1. */
int ir_find_thread(const ir_test *t, int id);
/* Append an info line / a `locations` item (strings are copied). */
void ir_add_info(ir_test *t, const char *key, const char *value);
void ir_add_location(ir_test *t, ir_obs o);
/* Two observables name the same register or location. */
bool ir_obs_equal(const ir_obs *a, const ir_obs *b);
/* Where thread TH's first instruction is in the source, and the first
 * instruction that accesses location LOC: for messages about the whole
 * test that should still point somewhere.  False when there is none. */
bool ir_thread_pos(const ir_test *t, int th, int *line, int *col);
bool ir_loc_pos(const ir_test *t, int loc, int *line, int *col);
/* herd's order of observables in a state line (<0, 0, >0), see ir_observables. */
int ir_obs_compare(const ir_test *t, const ir_obs *a, const ir_obs *b);
/* The observables the filter needs that ir_observables does not list (a
 * model evaluates the filter on obs ++ these); malloc'd, *n may be 0. */
ir_obs *ir_filter_observables(const ir_test *t, int *n);
/* An observable as herd writes it: "0:EAX" or "[x]". malloc'd. */
char *ir_format_obs(const ir_test *t, const ir_obs *o);
/* "exists", "~exists", "forall". */
const char *ir_quant_name(ir_quant q);
/* The mutexes of T: bit l for each location a LOCK or UNLOCK names (locations past 64
 * are not mutexes; the verifier refuses such a lock). */
uint64_t ir_test_mutexes(const ir_test *t);
/* TH has a lock or trylock (a native harness never switches it out mid-way). */
bool ir_thread_takes_locks(const ir_thread *th);
/* Each thread's locks taken and freed in pairs on every path: no unlock of a mutex
 * the thread does not hold, no lock of one it holds, none held at its end, a
 * trylock's result tested before the mutex is freed.  Fills D on failure (ir/locks.c). */
bool ir_check_locks(const ir_test *t, diag *d);
/* The access modes the verifier accepts for each arch (ir/verify.c). */
bool ir_mode_legal(ir_arch arch, ir_op op, ir_mode m);

#endif
