/* Unit tests of the lowering: litmus snippets through the frontend and
 * ir_lower, checked instruction by instruction (exact IR text where the
 * whole shape matters). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tests/unit/unit_litmus.h"
#include "frontend/frontend.h"
#include "ir/ir.h"
#include "ir/lower.h"
#include "util/mem.h"

/* Lowering fails at LINE:COL with MSG in the message (status 2). */
static void lower_fails(const char *src, int line, int col, const char *msg)
{
    diag d = {0};
    fe_test *ft = unit_parse(src, &d);
    ir_test *t = ir_lower(ft, &d);
    fe_test_free(ft);
    if (t)
        fail_msg("lowered, wanted an error with '%s'", msg);
    assert_int_equal(d.status, 2);
    assert_string_equal(d.file, "t.litmus");
    if (d.line != line || d.col != col || !strstr(d.msg, msg))
        fail_msg("got %d:%d: %s; wanted %d:%d: ...%s...", d.line, d.col, d.msg, line, col, msg);
}

static void assert_ir(const ir_test *t, const char *want)
{
    char *s = ir_print_str(t);
    if (strcmp(s, want)) {
        print_error("got:\n%s\nwanted:\n%s\n", s, want);
        free(s);
        fail();
    }
    free(s);
}

static const ir_instr *instr(const ir_test *t, int th, int b, int i)
{
    assert_true(th < t->nthreads);
    assert_true(b < t->threads[th].nblocks);
    assert_true(i < t->threads[th].blocks[b].ninstrs);
    return &t->threads[th].blocks[b].instrs[i];
}

static void test_x86_sb(void **state)
{
    (void)state;
    ir_test *t = unit_litmus("X86 SB\n\"Fre PodWR\"\nCycle=Fre PodWR\n{ x=0; y=0; }\n"
                             " P0          | P1          ;\n"
                             " MOV [x],$1  | MOV [y],$1  ;\n"
                             " MOV EAX,[y] | MOV EAX,[x] ;\n"
                             "exists (0:EAX=0 /\\ 1:EAX=0)\n");
    assert_ir(t, "test \"SB\"\n"
                 "arch X86\n"
                 "doc \"Fre PodWR\"\n"
                 "info \"Cycle\" \"Fre PodWR\"\n"
                 "hash \"7dbd6b8e6dd4abc2ef3d48b0376fb2e3\"\n"
                 "loc x int init 0 given\n"
                 "loc y int init 0 given\n"
                 "thread 0 P0\n"
                 "  b0:\n"
                 "    store.x86 &x, 1                      @6:2 \"MOV [x],$1\"\n"
                 "    %0 = load.x86 &y                     @7:2 \"MOV EAX,[y]\"\n"
                 "    ret\n"
                 "  final EAX = %0\n"
                 "end\n"
                 "thread 1 P1\n"
                 "  b0:\n"
                 "    store.x86 &y, 1                      @6:16 \"MOV [y],$1\"\n"
                 "    %0 = load.x86 &x                     @7:16 \"MOV EAX,[x]\"\n"
                 "    ret\n"
                 "  final EAX = %0\n"
                 "end\n"
                 "cond exists 0:EAX=0 /\\ 1:EAX=0\n");
    ir_test_free(t);
}

/* Forward jumps join through phis; LOCK and XCHG are locked RMWs; CMPXCHG
 * uses EAX; an address register from the init section. */
static void test_x86_control_and_rmw(void **state)
{
    (void)state;
    ir_test *t = unit_litmus("X86 T\n{ x=0; y=0; 0:ESI=y; 0:EDI=5; }\n"
                             " P0                   ;\n"
                             " MOV EAX,[x]          ;\n"
                             " CMP EAX,1            ;\n"
                             " JNE L0               ;\n"
                             " MOV EBX,[ESI]        ;\n"
                             " L0:                  ;\n"
                             " LOCK ADD [y],$2      ;\n"
                             " XCHG [x],ECX         ;\n"
                             " LOCK CMPXCHG [x],EDX ;\n"
                             " MFENCE               ;\n"
                             " ADD EDI,[y]          ;\n"
                             "exists (0:EAX=1 /\\ 0:EBX=0)\n");
    diag d = {0};
    assert_true(ir_verify(t, &d));
    const ir_thread *th = &t->threads[0];
    assert_int_equal(th->nblocks, 3);
    const ir_instr *ne = instr(t, 0, 0, 1);
    assert_int_equal(ne->op, IR_BIN);
    assert_int_equal(ne->binop, IR_NE);
    assert_int_equal(ne->b.imm, 1);
    const ir_instr *br = instr(t, 0, 0, 2);
    assert_int_equal(br->op, IR_BR);
    assert_int_equal(br->then_block, 2);     /* the jump to L0 */
    assert_int_equal(br->else_block, 1);     /* falling through */
    const ir_instr *ld = instr(t, 0, 1, 0);
    assert_int_equal(ld->op, IR_LOAD);
    assert_int_equal(ld->mode, IR_X86_PLAIN);
    assert_true(ld->addr.kind == IR_OPND_IMM && ld->addr.imm == IR_ADDR(ir_find_loc(t, "y")));
    const ir_instr *phi = instr(t, 0, 2, 0);
    assert_int_equal(phi->op, IR_PHI);
    assert_int_equal(phi->nphi_args, 2);
    assert_int_equal(phi->phi_args[0].imm, 0);          /* EBX from b0: its initial 0 */
    assert_int_equal(phi->phi_args[1].val, ld->dst);    /* from b1: the load */
    const ir_instr *add = instr(t, 0, 2, 1);
    assert_int_equal(add->op, IR_RMW);
    assert_int_equal(add->rmw_op, IR_RMW_ADD);
    assert_int_equal(add->mode, IR_X86_LOCKED);
    assert_int_equal(add->a.imm, 2);
    const ir_instr *xchg = instr(t, 0, 2, 2);
    assert_int_equal(xchg->rmw_op, IR_RMW_XCHG);
    assert_int_equal(xchg->mode, IR_X86_LOCKED);
    const ir_instr *cas = instr(t, 0, 2, 3);
    assert_int_equal(cas->rmw_op, IR_RMW_CAS);
    assert_int_equal(cas->mode, IR_X86_LOCKED);
    assert_int_equal(cas->b.kind, IR_OPND_VAL);          /* expected: EAX, the first load */
    assert_int_equal(cas->b.val, instr(t, 0, 0, 0)->dst);
    const ir_instr *mf = instr(t, 0, 2, 4);
    assert_int_equal(mf->op, IR_FENCE);
    assert_int_equal(mf->fence, IR_FENCE_MFENCE);
    /* ADD EDI,[y]: a plain load and an add to EDI's initial 5, no store. */
    assert_int_equal(instr(t, 0, 2, 5)->op, IR_LOAD);
    assert_int_equal(instr(t, 0, 2, 6)->op, IR_BIN);
    assert_int_equal(instr(t, 0, 2, 6)->a.imm, 5);
    assert_int_equal(instr(t, 0, 2, 7)->op, IR_RET);
    /* Final registers: all of the thread's, sorted; EAX = the CAS's old value. */
    assert_int_equal(th->nfinal_regs, 6);
    assert_string_equal(th->final_regs[0].name, "EAX");
    assert_int_equal(th->final_regs[0].value.val, cas->dst);
    assert_string_equal(th->final_regs[5].name, "ESI");
    assert_true(th->final_regs[5].value.imm == IR_ADDR(ir_find_loc(t, "y")));
    assert_int_equal(th->ninit_regs, 2);
    ir_test_free(t);
}

static void test_x86_unlocked_rmw(void **state)
{
    (void)state;
    ir_test *t = unit_litmus("X86 T\n{ x=0; }\n P0 ;\n INC [x] ;\nexists ([x]=1)\n");
    assert_int_equal(instr(t, 0, 0, 0)->op, IR_LOAD);
    assert_int_equal(instr(t, 0, 0, 1)->op, IR_BIN);
    assert_int_equal(instr(t, 0, 0, 1)->binop, IR_ADD);
    assert_int_equal(instr(t, 0, 0, 2)->op, IR_STORE);
    assert_int_equal(instr(t, 0, 0, 2)->mode, IR_X86_PLAIN);
    ir_test_free(t);
}

/* SETNB/CMOVC read the carry flag of CMP (unsigned below); XADD returns
 * the old value; JMP skips code; an unlocked CMPXCHG writes only on
 * equality; JE after CMPXCHG tests its comparison. */
static void test_x86_flags_and_jumps(void **state)
{
    (void)state;
    ir_test *t = unit_litmus("X86 T\n{ x=0; y=0; }\n"
                             " P0                ;\n"
                             " MOV EAX,[x]       ;\n"
                             " CMP EAX,2         ;\n"
                             " SETNB EBX         ;\n"
                             " CMOVC ECX,EAX     ;\n"
                             " LOCK XADD [y],EDX ;\n"
                             " JMP L1            ;\n"
                             " MOV [x],$5        ;\n"
                             " L1:               ;\n"
                             " CMPXCHG [y],EBX   ;\n"
                             " JE L2             ;\n"
                             " MOV ESI,$9        ;\n"
                             " L2:               ;\n"
                             "exists (0:EBX=0 /\\ 0:ESI=9)\n");
    const ir_thread *th = &t->threads[0];
    /* b0: load, unsigned compare (xor bias, lt) and its negation, CMOVC's
     * compare and multiply, the XADD, and the JMP; the skipped MOV [x],$5
     * leaves no store anywhere. */
    assert_int_equal(instr(t, 0, 0, 1)->binop, IR_XOR);
    assert_true(instr(t, 0, 0, 1)->b.imm == INT64_MIN);
    assert_int_equal(instr(t, 0, 0, 2)->binop, IR_LT);
    assert_true(instr(t, 0, 0, 2)->b.imm == (INT64_MIN ^ 2));
    assert_int_equal(instr(t, 0, 0, 3)->binop, IR_EQ);
    const ir_instr *xadd = instr(t, 0, 0, 7);
    assert_int_equal(xadd->op, IR_RMW);
    assert_int_equal(xadd->rmw_op, IR_RMW_ADD);
    assert_int_equal(xadd->mode, IR_X86_LOCKED);
    assert_int_equal(instr(t, 0, 0, 8)->op, IR_JMP);
    for (int b = 0; b < th->nblocks; b++)
        for (int i = 0; i < th->blocks[b].ninstrs; i++)
            if (th->blocks[b].instrs[i].op == IR_STORE)
                assert_true(th->blocks[b].instrs[i].addr.imm == IR_ADDR(ir_find_loc(t, "y")));
    /* The unlocked CMPXCHG: load, eq with EAX, br to a block that stores EBX. */
    const ir_instr *ld = instr(t, 0, 1, 0);
    assert_int_equal(ld->op, IR_LOAD);
    const ir_instr *br = instr(t, 0, 1, 2);
    assert_int_equal(br->op, IR_BR);
    const ir_instr *st = instr(t, 0, br->then_block, 0);
    assert_int_equal(st->op, IR_STORE);
    assert_int_equal(st->a.val, instr(t, 0, 0, 3)->dst);     /* EBX = SETNB's value */
    /* Final registers: EAX = the value CMPXCHG read; EDX = XADD's old value; ESI a phi of 0 and 9. */
    assert_int_equal(th->final_regs[ir_thread_find_reg(th, "EAX")].value.val, ld->dst);
    assert_int_equal(th->final_regs[ir_thread_find_reg(th, "EDX")].value.val, xadd->dst);
    const ir_operand esi = th->final_regs[ir_thread_find_reg(th, "ESI")].value;
    assert_int_equal(esi.kind, IR_OPND_VAL);
    const ir_block *last = &th->blocks[th->nblocks - 1];
    assert_int_equal(last->instrs[0].op, IR_PHI);
    assert_int_equal(last->instrs[0].dst, esi.val);
    assert_int_equal(last->instrs[0].phi_args[0].imm, 0);
    assert_int_equal(last->instrs[0].phi_args[1].imm, 9);
    diag d = {0};
    assert_true(ir_verify(t, &d));
    ir_test_free(t);
}

/* Known conditions take one side only (herd does not fork on a constant). */
static void test_constant_branches(void **state)
{
    (void)state;
    ir_test *t = unit_litmus("Java T\n{ x=0; 0:X=x; }\nThread0 {\n"
                             "  int r0 = 2;\n  if (r0 == 2) { int r1 = X.get(); } else { X.set(1); }\n"
                             "  if (r0 - 2) { X.set(3); }\n}\nexists (0:r1=0)\n");
    const ir_thread *th = &t->threads[0];
    assert_int_equal(th->nblocks, 1);
    assert_int_equal(th->blocks[0].ninstrs, 2);
    assert_int_equal(instr(t, 0, 0, 0)->op, IR_LOAD);
    assert_int_equal(instr(t, 0, 0, 1)->op, IR_RET);
    ir_test_free(t);
    t = unit_litmus("X86 T\n{ x=0; }\n P0 ;\n MOV EAX,$1 ;\n CMP EAX,1 ;\n JE L0 ;\n MOV [x],$1 ;\n L0: ;\n"
                    " CMP EAX,2 ;\n JE L1 ;\n MOV [x],$2 ;\n L1: ;\nexists ([x]=2)\n");
    th = &t->threads[0];
    int stores = 0;
    for (int b = 0; b < th->nblocks; b++)
        for (int i = 0; i < th->blocks[b].ninstrs; i++)
            if (th->blocks[b].instrs[i].op == IR_STORE) {
                stores++;
                assert_int_equal(th->blocks[b].instrs[i].a.imm, 2);
            }
    assert_int_equal(stores, 1);
    diag d = {0};
    assert_true(ir_verify(t, &d));
    ir_test_free(t);
}

static void test_x86_errors(void **state)
{
    (void)state;
    lower_fails("X86 T\n{ x=0; }\n P0 ;\n L0: MOV EAX,[x] ;\n CMP EAX,0 ;\n JE L0 ;\nexists (0:EAX=0)\n", 6, 5,
                "jump back to label L0: loops are not supported");
    lower_fails("X86 T\n{ x=0; }\n P0 ;\n JE L1 ;\n L1: ;\nexists (0:EAX=0)\n", 4, 2,
                "no earlier instruction sets them");
    lower_fails("X86 T\n{ 0:EBX=3; }\n P0 ;\n MOV EAX,[EBX] ;\nexists (0:EAX=0)\n", 4, 10,
                "register EBX holds 3");
}

/* Acyclic code laid out with a jump back (herd's A006): the region at L1
 * is lowered before L0, which both it and the fall-through from the JE
 * reach, so EBX is a phi there.  Jumps between two regions both ways are
 * a loop, named at the jump that closes it. */
static void test_x86_back_jumps(void **state)
{
    (void)state;
    ir_test *t = unit_litmus("X86 BJ\n{ x=0; y=0; }\n P0 ;\n MOV EAX,[y] ;\n CMP EAX,1 ;\n JE L1 ;\n L0: ;\n"
                             " MOV [x],EAX ;\n JMP L2 ;\n L1: ;\n MOV EBX,$5 ;\n JMP L0 ;\n L2: ;\n"
                             "exists (0:EBX=5)\n");
    assert_ir(t, "test \"BJ\"\narch X86\nhash \"99ba8f202223ce5b1a0d25e4b6399cb8\"\n"
                 "loc x int init 0 given\nloc y int init 0 given\nthread 0 P0\n  b0:\n"
                 "    %0 = load.x86 &y                     @4:2 \"MOV EAX,[y]\"\n"
                 "    %1 = eq %0, 1                        @6:2 \"JE L1\"\n"
                 "    br %1, b2, b1                        @6:2 \"JE L1\"\n"
                 "  b1:\n    jmp b3\n  b2:\n"
                 "    jmp b3                               @12:2 \"JMP L0\"\n"
                 "  b3:\n    %2 = phi [0, b1], [5, b2]\n"
                 "    store.x86 &x, %0                     @8:2 \"MOV [x],EAX\"\n"
                 "    jmp b4                               @9:2 \"JMP L2\"\n"
                 "  b4:\n    ret\n  final EAX = %0\n  final EBX = %2\nend\ncond exists 0:EBX=5\n");
    diag d = {0};
    assert_true(ir_verify(t, &d));
    ir_test_free(t);
    lower_fails("X86 T\n{ x=0; }\n P0 ;\n JMP L1 ;\n L0: ;\n MOV EAX,[x] ;\n JMP L1 ;\n L1: ;\n JMP L0 ;\n"
                "exists (0:EAX=0)\n", 9, 6, "jump back to label L0: loops are not supported");
}

/* X86_64 arrays: one location per cell, the cell chosen from t's address
 * plus a known offset (herd's A009); what cannot be chosen so is refused. */
static void test_x86_64_arrays(void **state)
{
    (void)state;
    ir_test *t = unit_litmus("X86_64 A\n{ int32_t t[3]={5,6,7}; 0:rax=t; 0:rbx=2; }\n P0 ;\n"
                             " movl 4(%rax),%ecx ;\n movl $9,(%rax,%rbx,4) ;\n movl (t),%edx ;\n"
                             "exists (0:rcx=6)\n");
    assert_int_equal(t->nlocs, 3);
    assert_string_equal(t->locs[0].name, "t");
    assert_string_equal(t->locs[1].name, "t[1]");
    assert_string_equal(t->locs[2].name, "t[2]");
    assert_int_equal(t->locs[1].init, 6);
    assert_int_equal(t->locs[2].init, 7);
    assert_string_equal(t->locs[2].ctype, "int32_t");
    assert_int_equal(instr(t, 0, 0, 0)->op, IR_LOAD);
    assert_int_equal(instr(t, 0, 0, 0)->addr.imm, IR_ADDR(1));
    assert_int_equal(instr(t, 0, 0, 1)->op, IR_STORE);
    assert_int_equal(instr(t, 0, 0, 1)->addr.imm, IR_ADDR(2));
    assert_int_equal(instr(t, 0, 0, 2)->addr.imm, IR_ADDR(0));
    ir_test_free(t);
    lower_fails("X86_64 A\n{ int64_t t[2]; 0:rax=t; }\n P0 ;\n movq (x),%rbx ;\n movq (%rax,%rbx,8),%rcx ;\n"
                "exists (0:rcx=0)\n", 5, 7, "offset into array t that depends on a value read from memory");
    lower_fails("X86_64 A\n{ int64_t t[2]; 0:rax=t; }\n P0 ;\n movq -8(%rax),%rcx ;\nexists (0:rcx=0)\n", 4, 7,
                "offset -8 is outside array t[2]");
    lower_fails("X86_64 A\n{ int16_t t[2]; 0:rax=t; }\n P0 ;\n movw 3(%rax),%cx ;\nexists (0:rcx=0)\n", 4, 7,
                "offset 3 into array t falls between its 2-byte cells");
    lower_fails("X86_64 A\n{ int t[2]; }\n P0 ;\n movl $1,(t) ;\nexists (t=1)\n", 5, 9,
                "array t in the condition is not supported");
}

static const char cas_src[] =
    "C cas\n"
    "{ [x]=0; [e]=1; }\n"
    "P0 (atomic_int* x, atomic_int* e) {\n"
    "  int r0 = atomic_compare_exchange_strong_explicit(x, e, 2, memory_order_acq_rel, memory_order_acquire);\n"
    "  int r1 = atomic_fetch_add(x, 1);\n"
    "  atomic_thread_fence(memory_order_seq_cst);\n"
    "  if (r0 == 1) { int r2 = *x; } else { r1 = 7; }\n"
    "}\n"
    "exists (0:r0=0 /\\ 0:r2=0 /\\ [e]=0)\n";

/* herd's CAS: *expected read non-atomically, the RMW, a write-back on
 * failure, the result a phi of 1 and 0. */
static void test_c_cas(void **state)
{
    (void)state;
    ir_test *t = unit_litmus(cas_src);
    const char *cas_text = "\"int r0 = atomic_compare_exchange_strong_explicit(x, e, 2, memory_order_acq_rel, "
                           "memory_order_acquire);\"";
    char want[4096];
    snprintf(want, sizeof want,
             "test \"cas\"\n"
             "arch C\n"
             "hash \"%s\"\n"
             "loc x int ctype \"atomic_int\" atomic init 0 given\n"
             "loc e int ctype \"atomic_int\" atomic init 1 given\n"
             "thread 0 P0\n"
             "  b0:\n"
             "    %%0 = load.na &e                      @4:3 %s\n"
             "    %%1 = rmw.cas.acq_rel &x, expected %%0, new 2, fail acq, ok %%2 @4:3 %s\n"
             "    br %%2, b2, b1                        @4:3 %s\n"
             "  b1:\n"
             "    store.na &e, %%1                      @4:3 %s\n"
             "    jmp b2\n"
             "  b2:\n"
             "    %%3 = phi [1, b0], [0, b1]\n"
             "    %%4 = rmw.add.sc &x, 1                @5:3 \"int r1 = atomic_fetch_add(x, 1);\"\n"
             "    fence.c.sc                           @6:3 \"atomic_thread_fence(memory_order_seq_cst);\"\n"
             "    %%5 = eq %%3, 1                        @7:3 \"if (r0 == 1)\"\n"
             "    br %%5, b3, b4                        @7:3 \"if (r0 == 1)\"\n"
             "  b3:\n"
             "    %%6 = load.na &x                      @7:18 \"int r2 = *x;\"\n"
             "    jmp b5\n"
             "  b4:\n"
             "    jmp b5\n"
             "  b5:\n"
             "    %%7 = phi [%%6, b3], [0, b4]\n"
             "    %%8 = phi [%%4, b3], [7, b4]\n"
             "    ret\n"
             "  final r0 = %%3\n"
             "  final r1 = %%8\n"
             "  final r2 = %%7\n"
             "end\n"
             "cond exists 0:r0=0 /\\ 0:r2=0 /\\ [e]=0\n",
             t->hash, cas_text, cas_text, cas_text, cas_text);
    assert_ir(t, want);
    ir_test_free(t);
}

/* Modes of C accesses; parameters bind addresses and are not final
 * registers; nested declarations stay visible; unwritten observed
 * registers read 0; typed init. */
static void test_c_modes_and_registers(void **state)
{
    (void)state;
    ir_test *t = unit_litmus("C T\n{ [x]=0; int *p=x; __int128 w=1; }\n"
                             "P0 (atomic_int* x, volatile int* y, int** p) {\n"
                             "  atomic_store(x, 1);\n"
                             "  int r0 = atomic_load(x);\n"
                             "  *y = r0 + 1;\n"
                             "  atomic_store_explicit(x, 2, memory_order_release);\n"
                             "  if (r0) { int r1 = atomic_exchange_explicit(x, 3, memory_order_relaxed); }\n"
                             "  atomic_thread_fence(memory_order_acquire);\n"
                             "}\n"
                             "exists (0:r1=0 /\\ y=1)\n");
    diag d = {0};
    assert_true(ir_verify(t, &d));
    int x = ir_find_loc(t, "x"), p = ir_find_loc(t, "p"), w = ir_find_loc(t, "w"), y = ir_find_loc(t, "y");
    assert_true(x >= 0 && p >= 0 && w >= 0 && y >= 0);
    assert_int_equal(t->locs[p].type, IR_T_PTR);
    assert_true(t->locs[p].init == IR_ADDR(x));
    assert_int_equal(t->locs[w].type, IR_T_INT128);
    assert_int_equal(t->locs[w].init, 1);
    assert_true(t->locs[x].atomic);
    assert_string_equal(t->locs[y].ctype, "volatile int");
    assert_false(t->locs[y].atomic);
    assert_false(t->locs[y].init_given);
    const ir_instr *st = instr(t, 0, 0, 0);
    assert_int_equal(st->op, IR_STORE);
    assert_int_equal(st->mode, IR_MO_SC);
    assert_true(st->addr.imm == IR_ADDR(x));
    assert_int_equal(st->line, 4);
    assert_int_equal(st->col, 3);
    assert_string_equal(st->src, "atomic_store(x, 1);");
    assert_int_equal(instr(t, 0, 0, 1)->mode, IR_MO_SC);     /* atomic_load */
    assert_int_equal(instr(t, 0, 0, 2)->binop, IR_ADD);
    const ir_instr *na = instr(t, 0, 0, 3);
    assert_int_equal(na->op, IR_STORE);
    assert_int_equal(na->mode, IR_MO_NA);
    assert_true(na->addr.imm == IR_ADDR(y));
    assert_int_equal(instr(t, 0, 0, 4)->mode, IR_MO_REL);
    const ir_instr *xchg = instr(t, 0, 1, 0);
    assert_int_equal(xchg->rmw_op, IR_RMW_XCHG);
    assert_int_equal(xchg->mode, IR_MO_RLX);
    const ir_instr *fence = instr(t, 0, 2, 1);   /* after the join's phi */
    assert_int_equal(fence->op, IR_FENCE);
    assert_int_equal(fence->fence, IR_FENCE_C);
    assert_int_equal(fence->mode, IR_MO_ACQ);
    /* r0 and r1 (declared in the if, a phi of the exchange and 0): no x, y, p. */
    const ir_thread *th = &t->threads[0];
    assert_int_equal(th->nfinal_regs, 2);
    assert_string_equal(th->final_regs[0].name, "r0");
    assert_string_equal(th->final_regs[1].name, "r1");
    assert_int_equal(th->final_regs[1].value.kind, IR_OPND_VAL);
    const ir_instr *phi = instr(t, 0, 2, 0);
    assert_int_equal(phi->op, IR_PHI);
    assert_int_equal(phi->dst, th->final_regs[1].value.val);
    assert_int_equal(phi->phi_args[0].imm, 0);               /* from b0: never written */
    assert_int_equal(phi->phi_args[1].val, xchg->dst);
    ir_test_free(t);
}

static void test_c_errors(void **state)
{
    (void)state;
    lower_fails("C T\n{ [x]=0; }\nP0 (atomic_int* x) {\n  int r0 = atomic_load_explicit(x, memory_order_release);\n}\n"
                "exists (0:r0=0)\n",
                4, 12, "atomic_load_explicit takes no memory_order_release");
    lower_fails("C T\n{ [x]=0; [e]=0; }\nP0 (atomic_int* x, atomic_int* e) {\n"
                "  int r0 = atomic_compare_exchange_strong_explicit(x, e, 1, memory_order_relaxed, memory_order_release);\n"
                "}\nexists (0:r0=0)\n",
                4, 12, "takes no failure order memory_order_release");
    lower_fails("C T\n{ [x]=0; }\nP0 (atomic_int* x) {\n  atomic_store_explicit(x, 1, memory_order_acquire);\n}\n"
                "exists (x=0)\n",
                4, 3, "takes no memory_order_acquire");
}

static void test_java(void **state)
{
    (void)state;
    ir_test *t = unit_litmus("Java T\n{ x=0; y=0; 0:X=x; 0:Y=y; 1:X=y; }\n"
                             "Thread0 {\n"
                             "  int r0 = X.compareAndExchangeRelease(0, 1);\n"
                             "  int r1 = X.compareAndExchangeAcquire(1, 2);\n"
                             "  int r2 = X.compareAndExchange(2, 3);\n"
                             "  int r3 = Y.getAndAdd(1);\n"
                             "  Y.set(r0 - 1);\n"
                             "  int r4 = Y.getOpaque();\n"
                             "  if (r4 == 1) { int r5 = X.get(); } else { loadLoadFence(); }\n"
                             "}\n"
                             "Thread1 {\n"
                             "  X.setVolatile(1);\n"
                             "}\n"
                             "exists (0:r5=0 /\\ x=0)\n");
    diag d = {0};
    assert_true(ir_verify(t, &d));
    int x = ir_find_loc(t, "x"), y = ir_find_loc(t, "y");
    const ir_instr *rel = instr(t, 0, 0, 0);
    assert_int_equal(rel->rmw_op, IR_RMW_CAS);
    assert_int_equal(rel->mode, IR_JM_RELEASE);
    assert_int_equal(rel->fail_mode, IR_JM_PLAIN);
    assert_int_equal(rel->b.imm, 0);
    assert_int_equal(rel->a.imm, 1);
    assert_true(rel->addr.imm == IR_ADDR(x));
    const ir_instr *acq = instr(t, 0, 0, 1);
    assert_int_equal(acq->mode, IR_JM_ACQUIRE);
    assert_int_equal(acq->fail_mode, IR_JM_ACQUIRE);
    const ir_instr *vol = instr(t, 0, 0, 2);
    assert_int_equal(vol->mode, IR_JM_VOLATILE);
    assert_int_equal(vol->fail_mode, IR_JM_VOLATILE);
    const ir_instr *gaa = instr(t, 0, 0, 3);
    assert_int_equal(gaa->rmw_op, IR_RMW_ADD);
    assert_int_equal(gaa->mode, IR_JM_VOLATILE);
    assert_true(gaa->addr.imm == IR_ADDR(y));
    assert_int_equal(instr(t, 0, 0, 4)->binop, IR_SUB);
    assert_int_equal(instr(t, 0, 0, 5)->mode, IR_JM_PLAIN);
    assert_int_equal(instr(t, 0, 0, 6)->mode, IR_JM_OPAQUE);
    assert_int_equal(instr(t, 0, 1, 0)->mode, IR_JM_PLAIN);          /* X.get() */
    assert_int_equal(instr(t, 0, 2, 0)->fence, IR_FENCE_J_LOADLOAD);
    /* Thread 1's X is bound to y. */
    const ir_instr *sv = instr(t, 1, 0, 0);
    assert_int_equal(sv->mode, IR_JM_VOLATILE);
    assert_true(sv->addr.imm == IR_ADDR(y));
    /* Handles are not final registers. */
    assert_int_equal(ir_thread_find_reg(&t->threads[0], "X"), -1);
    assert_true(ir_thread_find_reg(&t->threads[0], "r5") >= 0);
    assert_int_equal(t->threads[1].nfinal_regs, 0);
    assert_int_equal(t->threads[0].ninit_regs, 2);
    ir_test_free(t);
}

/* synchronized: enter before the body, exit after it, under an if too;
 * the inner block of a re-entry and its end lower to nothing; the monitor's
 * handles are no registers. */
static void test_java_synchronized(void **state)
{
    (void)state;
    ir_test *t = unit_litmus("Java S\n{ x=0; 0:X=x; 0:M=m; 0:N=m; 1:M=m; }\n"
                             "Thread0 { synchronized (M) { synchronized (N) { X.set(1); } int r0 = X.get(); } }\n"
                             "Thread1 { synchronized (M) { } }\n"
                             "exists (x=1)\n");
    const ir_thread *th = &t->threads[0];
    assert_int_equal(th->nblocks, 1);
    assert_int_equal(th->blocks[0].ninstrs, 5);
    const ir_instr *in = instr(t, 0, 0, 0);
    assert_int_equal(in->op, IR_LOCK);
    assert_int_equal(in->lock, IR_LK_MONITOR);
    assert_int_equal(in->dst, -1);
    int m = ir_find_loc(t, "m");
    assert_true(m >= 0);
    assert_true(in->addr.kind == IR_OPND_IMM && in->addr.imm == IR_ADDR(m));
    assert_int_equal(instr(t, 0, 0, 1)->op, IR_STORE);
    assert_int_equal(instr(t, 0, 0, 2)->op, IR_LOAD);
    in = instr(t, 0, 0, 3);
    assert_int_equal(in->op, IR_UNLOCK);
    assert_int_equal(in->lock, IR_LK_MONITOR);
    assert_true(in->addr.imm == IR_ADDR(m));
    assert_int_equal(instr(t, 0, 0, 4)->op, IR_RET);
    assert_int_equal(th->ninit_regs, 1);
    assert_string_equal(th->init_regs[0].name, "X");
    assert_int_equal(t->threads[1].ninit_regs, 0);
    assert_int_equal(t->threads[1].blocks[0].ninstrs, 3);
    assert_true(ir_check_locks(t, &(diag){0}));
    ir_test_free(t);
}

/* The cut that ends thread TH's unrolled loop (there is one). */
static const ir_instr *the_cut(const ir_test *t, int th)
{
    const ir_instr *cut = NULL;
    int n = 0;
    for (int b = 0; b < t->threads[th].nblocks; b++) {
        const ir_block *bl = &t->threads[th].blocks[b];
        if (bl->instrs[bl->ninstrs - 1].op == IR_CUT) {
            cut = &bl->instrs[bl->ninstrs - 1];
            n++;
        }
    }
    assert_int_equal(n, 1);
    return cut;
}

static int count_op(const ir_test *t, int th, ir_op op)
{
    int n = 0;
    for (int b = 0; b < t->threads[th].nblocks; b++)
        for (int i = 0; i < t->threads[th].blocks[b].ninstrs; i++)
            n += t->threads[th].blocks[b].instrs[i].op == op;
    return n;
}

static void test_loops(void **state)
{
    (void)state;
    /* herd's unrolling: the body at most twice, the third test that holds a cut */
    ir_test *t = unit_litmus("C W\n{ y=0; }\nP0 (atomic_int* y) {\n  int r0 = 0;\n"
                             "  while (r0 == 0) { r0 = atomic_load_explicit(y, memory_order_acquire); }\n}\n"
                             "exists (0:r0=0)\n");
    assert_int_equal(count_op(t, 0, IR_LOAD), 2);
    const ir_instr *cut = the_cut(t, 0);
    assert_true(cut->spin);
    assert_int_equal(cut->a.imm, 2);
    assert_int_equal(cut->line, 5);
    assert_int_equal(cut->col, 3);
    char *text = ir_print_str(t);
    assert_non_null(strstr(text, "    cut 2, spin "));
    diag d = {0};
    ir_test *back = ir_read(text, "w.ir", &d);
    assert_non_null(back);
    char *again = ir_print_str(back);
    assert_string_equal(again, text);
    free(again);
    free(text);
    ir_test_free(back);
    ir_test_free(t);
    /* Unroll=N sets the bound; a counter is no spin loop (it reads r before
     * it writes it); a store in the body is none either */
    t = unit_litmus("C W\nUnroll=3\n{ y=0; }\nP0 (atomic_int* y) {\n  int r = 0;\n"
                    "  while (atomic_load_explicit(y, memory_order_relaxed) == 0) { r = r + 1; }\n}\n"
                    "exists (0:r=0)\n");
    assert_int_equal(count_op(t, 0, IR_LOAD), 4);
    assert_false(the_cut(t, 0)->spin);
    assert_int_equal(the_cut(t, 0)->a.imm, 3);
    ir_test_free(t);
    t = unit_litmus("C W\n{ x=0; y=0; }\nP0 (atomic_int* x, atomic_int* y) {\n"
                    "  do { atomic_store_explicit(x, 1, memory_order_relaxed); } "
                    "while (atomic_load_explicit(y, memory_order_relaxed) == 0);\n}\n"
                    "exists (x=0)\n");
    assert_int_equal(count_op(t, 0, IR_STORE), 2);
    assert_false(the_cut(t, 0)->spin);
    ir_test_free(t);
    /* a condition settled without reading unrolls with no cut at all */
    t = unit_litmus("C W\n{ x=0; }\nP0 (atomic_int* x) {\n  int i = 0;\n"
                    "  while (i < 2) { atomic_store_explicit(x, i, memory_order_relaxed); i = i + 1; }\n}\n"
                    "exists (x=1)\n");
    assert_int_equal(count_op(t, 0, IR_STORE), 2);
    assert_int_equal(count_op(t, 0, IR_CUT), 0);
    assert_int_equal(count_op(t, 0, IR_BR), 0);
    ir_test_free(t);
    /* ... unless the bound is below the count: then no path ends */
    lower_fails("C W\n{ x=0; }\nP0 (atomic_int* x) {\n  int i = 0;\n"
                "  while (i < 3) { atomic_store_explicit(x, i, memory_order_relaxed); i = i + 1; }\n}\n"
                "exists (x=1)\n", 5, 3, "the loop does not end within its bound of 2 iterations whatever");
    lower_fails("C W\n{ x=0; }\nP0 (atomic_int* x) {\n  while (1) { }\n}\nexists (x=1)\n", 4, 3,
                "raise the bound (Unroll=N or --unroll N) if it ends at all");
    lower_fails("C W\nUnroll=0\n{ x=0; }\nP0 (atomic_int* x) { }\nexists (x=1)\n", 2, 1,
                "Unroll=0: the bound is a number from 1 to 1000");
}

static void test_java_join(void **state)
{
    (void)state;
    ir_test *t = unit_litmus("Java J\n{ x=0; 0:X=x; 1:X=x; }\n"
                             "Thread0 { Thread1.join(); int r0 = X.get(); }\n"
                             "Thread1 { X.set(1); }\n"
                             "exists (0:r0=0)\n");
    int f = ir_find_loc(t, "Thread1_ended");
    assert_true(f >= 0);
    assert_true(t->locs[f].end_flag);
    assert_int_equal(t->locs[f].end_of, 1);
    /* the joiner spins on the flag with volatile reads; the joined thread
     * writes it last */
    assert_true(the_cut(t, 0)->spin);
    const ir_instr *first = instr(t, 0, 0, 0);
    assert_int_equal(first->op, IR_LOAD);
    assert_int_equal(first->mode, IR_JM_VOLATILE);
    assert_true(first->addr.imm == IR_ADDR(f));
    const ir_block *last = &t->threads[1].blocks[t->threads[1].nblocks - 1];
    const ir_instr *end = &last->instrs[last->ninstrs - 2];
    assert_int_equal(end->op, IR_STORE);
    assert_int_equal(end->mode, IR_JM_VOLATILE);
    assert_true(end->addr.imm == IR_ADDR(f) && end->a.imm == 1);
    char *text = ir_print_str(t);
    assert_non_null(strstr(text, "loc Thread1_ended int init 0 ends 1\n"));
    diag d = {0};
    ir_test *back = ir_read(text, "j.ir", &d);
    assert_non_null(back);
    assert_true(back->locs[f].end_flag);
    free(text);
    ir_test_free(back);
    ir_test_free(t);
    lower_fails("Java J\n{ x=0; }\nThread0 { Thread7.join(); }\nexists (x=0)\n", 3, 11,
                "the test has no thread Thread7");
    lower_fails("Java J\n{ x=0; }\nThread0 { Thread0.join(); }\nexists (x=0)\n", 3, 11,
                "a thread cannot join itself");
    lower_fails("Java J\n{ x=0; }\nThread0 { Thread1.join(); }\nThread1 { Thread0.join(); }\nexists (x=0)\n", 4, 1,
                "in a cycle of joins");
}

static void test_condition(void **state)
{
    (void)state;
    ir_test *t = unit_litmus("C T\n{ [x]=0; [z]=0; }\n"
                             "P0 (atomic_int* x) { int r0 = atomic_load_explicit(x, memory_order_relaxed); }\n"
                             "locations [0:r0; z;]\nfilter 0:r0 = 0\n"
                             "~exists (x=2 /\\ 0:r0 != 1 \\/ [z]=x)\n");
    char *c = ir_format_cond(t);
    assert_string_equal(c, "~exists ([x]=2 /\\ not (0:r0=1) \\/ [z]=x)");
    free(c);
    assert_int_equal(t->quant, IR_Q_NOT_EXISTS);
    assert_int_equal(t->cond->kind, IR_C_OR);
    assert_true(t->cond->l->r->ne);
    assert_non_null(t->filter);
    assert_int_equal(t->nlocations, 2);
    assert_int_equal(t->locations[0].kind, IR_OBS_REG);
    assert_int_equal(t->locations[1].kind, IR_OBS_MEM);
    assert_int_equal(t->locations[1].loc, ir_find_loc(t, "z"));
    int n;
    ir_obs *obs = ir_observables(t, &n);
    assert_int_equal(n, 3);     /* 0:r0, [x], [z] */
    free(obs);
    ir_test_free(t);

    /* No condition: herd's forall (true). */
    t = unit_litmus("X86 T\n{ }\n P0 ;\n MOV [x],$1 ;\n");
    c = ir_format_cond(t);
    assert_string_equal(c, "forall (true)");
    free(c);
    ir_test_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_x86_sb),
        cmocka_unit_test(test_x86_control_and_rmw),
        cmocka_unit_test(test_x86_unlocked_rmw),
        cmocka_unit_test(test_x86_flags_and_jumps),
        cmocka_unit_test(test_constant_branches),
        cmocka_unit_test(test_x86_errors),
        cmocka_unit_test(test_x86_back_jumps),
        cmocka_unit_test(test_x86_64_arrays),
        cmocka_unit_test(test_c_cas),
        cmocka_unit_test(test_c_modes_and_registers),
        cmocka_unit_test(test_c_errors),
        cmocka_unit_test(test_java),
        cmocka_unit_test(test_java_synchronized),
        cmocka_unit_test(test_loops),
        cmocka_unit_test(test_java_join),
        cmocka_unit_test(test_condition),
    };
    return cmocka_run_group_tests_name("lower", tests, NULL, NULL);
}
