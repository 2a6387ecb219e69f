#ifndef LITMUSC_LIFT_ADDR_H
#define LITMUSC_LIFT_ADDR_H
/* Which registers hold a test location's address, so that `(%rax)` lifts
 * to `x(%rip)`.  gcc -O0 keeps each pointer in a stack slot written once
 * at the function's entry (`movq $x,-8(%rbp)`, a 32S relocation) and
 * reloads it before each access; optimised code loads it with `movq $x,%rax`
 * or `leaq x(%rip),%rax`.  Those moves are dropped from the lifted code, so
 * a register holding an address may only serve as a base: any other use of
 * it, and any use after a label where a path may bring one, is refused. */
#include "lift/disasm.h"
#include "lift/lift.h"

enum { ADDR_REGS = 16, ADDR_SLOTS = 16 };
typedef struct lift_addrs {
    const char *reg[ADDR_REGS];     /* the location register i holds, or NULL */
    bool poison[ADDR_REGS];         /* may hold an address on some path in */
    long slot_off[ADDR_SLOTS];      /* %rbp-relative slots holding one address */
    const char *slot_sym[ADDR_SLOTS];
    int nslots;
} lift_addrs;

/* The register family of "%rax", "%eax", "%r8d", ... (0..15) and its
 * width in bytes; -1 if TOK is no general register. */
int lift_reg_family(const char *tok, int *width);
/* Find the slots of V[0..N) that hold one location's address all along. */
void lift_addrs_slots(lift_addrs *a, const ir_test *t, const lift_func *f, const lift_insn *v, int n);
/* A label that jumps bring IN[r] to: registers known before it (falling
 * through) or brought by a jump may hold an address, and are not known. */
void lift_addrs_label(lift_addrs *a, const bool *in);
/* For each instruction of V[0..N) that is a jump target, the registers a
 * jump to it may bring an address in (a fixpoint over the back edges, from
 * A0 at the entry); malloc'd, N rows. */
bool (*lift_addrs_flow(const lift_addrs *a0, const ir_test *t, const lift_func *f, int th, const lift_insn *v,
                       int n))[ADDR_REGS];
/* Account for IN (the state before it in A): *DROP when it only moves
 * an address; false and D set when it uses one as a value. */
bool lift_addrs_step(lift_addrs *a, const ir_test *t, const lift_func *f, int th, const lift_insn *in, bool *drop,
                     diag *d);
/* False and D set when an instruction of V[0..N) computes with a
 * location's address (`addq $x,%rax`: x plus an index, an address
 * dependency), named first as the reason the thread cannot lift. */
bool lift_addrs_arith(const ir_test *t, const lift_func *f, int th, const lift_insn *v, int n, diag *d);
#endif
