#ifndef LITMUSC_LIFT_A64_CTX_H
#define LITMUSC_LIFT_A64_CTX_H
/* What a64_mem.c (loads, stores, atomics, the stack) and a64_thread.c
 * (the rest, branches, the thread's walk) share while lifting one
 * AArch64 thread: what a register or slot holds, and the thread's
 * context.  a64_thread.c's opening comment says how the lifting goes. */
#include "lift/a64.h"

enum { NSLOT = 16, NLOC = 16, NREG = 31 };
/* What a register or stack slot holds: a value, a location's address (a
 * place: section and offset), ADRP's page of one, a stack address (offset
 * from SP at entry), the caller's frame (X29, X30, a callee-saved
 * register at entry), or different things on different paths in. */
typedef enum vkind { V_DATA, V_ADDR, V_PAGE, V_STACK, V_FRAME, V_MIXED, V_INDEXED } vkind;
/* V_INDEXED: a location's address plus a value (an address dependency,
 * `ADD X1,X0,X1,LSL #2`), the value copied to spare register IDX, shifted
 * or extended as EXT says ("LSL #2", "" for none).  NONNEG: a value known
 * to be below 2^31 and not negative (an AND with such a mask), which
 * SXTW leaves as it is; for V_INDEXED, its value's. */
typedef struct aval {
    vkind k;
    size_t sec;
    int64_t off;
    int idx;
    char ext[16];
    bool nonneg;
} aval;
typedef struct astate {
    bool live;
    aval r[NREG];
    int64_t sp;
    bool sp_mixed;
    aval slot[NSLOT];
} astate;

typedef struct ctx {
    const ir_test *t;
    const lift_func *f;
    int th;
    diag *d;
    const a64_insn *v;
    int n;
    bool used[NREG];            /* named in the thread's code, or taken */
    int64_t soff[NSLOT];        /* the stack slots, by offset from SP at entry */
    int sreg[NSLOT];            /* the spare register of each (-1: none yet) */
    int ns;
    const char *lsym[NLOC];     /* the locations named, each with its register */
    int lreg[NLOC];
    int nl;
    char **rows;
    int nr;
    bool cut, end;
    int tbz_reg;                /* the spare register TBZ's bit is tested in (-1: none yet) */
    int addr_reg;               /* the spare register a dependent address is computed in (-1: none yet) */
    astate *in;                 /* per instruction: the state jumps bring */
    bool *target;               /* a forward jump's target */
    /* Stack slots' registers reused: a first pass (PROBE, its spare
     * registers numbered from A64_VREG, never short) finds the step (by
     * CLOCK, each instruction lifted counting one; the rows' order, in
     * which every jump goes forward) of each slot's last read; the second
     * frees a slot's register after it (POOL) for the next slot stored. */
    bool probe;
    int clock;
    int nvirt;
    int last_read[NSLOT];
    bool pool[NREG];
} ctx;
enum { A64_VREG = 64 };

bool a64_refuse(ctx *c, const a64_insn *in, const char *why);
void a64_push(ctx *c, char *row);
int a64_spare(ctx *c);
/* A register for a stack slot's value: one a slot read for the last time
 * has freed, else a spare. */
int a64_slot_reg(ctx *c);
/* After step C->clock: the registers of the slots it read for the last time freed. */
void a64_free_slots(ctx *c);
int a64_loc_reg(ctx *c, const char *name);
bool a64_is_addr(vkind k);
/* The state where paths A and B meet, into A. */
void a64_merge(astate *a, const astate *b);
const lift_reloc *a64_reloc_at(const ctx *c, const a64_insn *in);
bool a64_read_ok(ctx *c, const a64_insn *in, const astate *s, int r);
void a64_set_data(astate *s, int r);
char *a64_row_of(const a64_insn *in, a64_ops ops, int n, int mi, const char *mem);
/* A load, store or atomic IN (operands OPS[0..N)) in state S. */
bool a64_mem_insn(ctx *c, const a64_insn *in, astate *s, a64_ops ops, int n);
#endif
