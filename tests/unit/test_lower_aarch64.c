/* Unit tests of the AArch64 lowering: herd's orderings as IR modes, the
 * exclusive pair and its status, LSE atomics with and without results,
 * dependencies kept through EOR, CSEL as a select, value widths (narrow
 * loads and stores, W results, typed registers), and refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tests/unit/unit_litmus.h"
#include "frontend/frontend.h"
#include "ir/ir.h"
#include "ir/lower.h"

static const ir_instr *instr(const ir_test *t, int th, int b, int i)
{
    assert_true(th < t->nthreads);
    assert_true(b < t->threads[th].nblocks);
    assert_true(i < t->threads[th].blocks[b].ninstrs);
    return &t->threads[th].blocks[b].instrs[i];
}

/* The K-th instruction of thread 0's first block that is not arithmetic:
 * a narrow LDADD in the test cuts each W load's value with an `and`. */
static const ir_instr *acc(const ir_test *t, int k)
{
    const ir_block *b = &t->threads[0].blocks[0];
    for (int i = 0; i < b->ninstrs; i++)
        if (b->instrs[i].op != IR_BIN && k-- == 0)
            return &b->instrs[i];
    fail_msg("no instruction %d", k);
    return NULL;
}

/* The IR text of thread TH's code contains WANT. */
static void text_has(const ir_test *t, const char *want)
{
    char *s = ir_print_str(t);
    if (!strstr(s, want)) {
        print_error("no '%s' in:\n%s\n", want, s);
        free(s);
        fail();
    }
    free(s);
}

/* Loads, stores and RMWs with herd's A, Q and L; the IR reads back the same. */
static void test_modes(void **st)
{
    (void)st;
    ir_test *t = unit_litmus("AArch64 m\n{ 0:X1=x; }\n P0 ;\n"
                             " LDAR W0,[X1] ;\n LDAPR W2,[X1] ;\n STLR W0,[X1] ;\n SWPAL W0,W3,[X1] ;\n"
                             " LDADDL W0,W4,[X1] ;\n CASA W5,W0,[X1] ;\n DSB OSHST ;\n ISB ;\n"
                             "exists (0:X0=0)\n");
    assert_int_equal(t->arch, IR_ARCH_AARCH64);
    assert_int_equal(acc(t, 0)->mode, IR_A64_ACQ);
    assert_int_equal(acc(t, 1)->mode, IR_A64_ACQPC);
    assert_int_equal(acc(t, 2)->mode, IR_A64_REL);
    const ir_instr *swp = acc(t, 3);
    assert_int_equal(swp->op, IR_RMW);
    assert_int_equal(swp->rmw_op, IR_RMW_XCHG);
    assert_int_equal(swp->mode, IR_A64_ACQREL);
    assert_int_equal(acc(t, 4)->rmw_op, IR_RMW_ADD);
    assert_int_equal(acc(t, 4)->mode, IR_A64_REL);
    const ir_instr *cas = acc(t, 5);
    assert_int_equal(cas->rmw_op, IR_RMW_CAS);
    assert_int_equal(cas->mode, IR_A64_ACQ);
    assert_int_equal(cas->fail_mode, IR_A64_ACQ);
    assert_int_equal(acc(t, 6)->fence, IR_FENCE_DSB_OSHST);
    assert_int_equal(acc(t, 7)->fence, IR_FENCE_ISB);
    char *s = ir_print_str(t);
    diag d = {0};
    ir_test *u = ir_read(s, "t.ir", &d);
    if (!u)
        fail_msg("%d:%d %s\n%s", d.line, d.col, d.msg, s);
    char *s2 = ir_print_str(u);
    assert_string_equal(s, s2);
    free(s);
    free(s2);
    ir_test_free(u);
    ir_test_free(t);
}

/* LDXR and STXR: an exclusive load and an exclusive store whose value is
 * the status register; ST<op> and a WZR result drop the result (noret),
 * and a dropped result does not acquire. */
static void test_exclusives_and_noret(void **st)
{
    (void)st;
    ir_test *t = unit_litmus("AArch64 x\n{ 0:X1=x; }\n P0 ;\n"
                             " LDAXR W0,[X1] ;\n STLXR W2,W0,[X1] ;\n STSET W0,[X1] ;\n LDADDA W0,WZR,[X1] ;\n"
                             " CASAL WZR,W0,[X1] ;\nexists (0:X2=0)\n");
    const ir_instr *lx = acc(t, 0), *sx = acc(t, 1);
    assert_true(lx->excl);
    assert_int_equal(lx->mode, IR_A64_ACQ);
    assert_true(sx->excl);
    assert_int_equal(sx->op, IR_STORE);
    assert_int_equal(sx->mode, IR_A64_REL);
    assert_true(sx->dst >= 0);
    int x2 = ir_thread_find_reg(&t->threads[0], "X2");
    assert_true(x2 >= 0);
    assert_int_equal(t->threads[0].final_regs[x2].value.val, sx->dst);
    const ir_instr *stset = acc(t, 2);
    assert_true(stset->noret);
    assert_int_equal(stset->rmw_op, IR_RMW_OR);
    assert_int_equal(stset->mode, IR_A64_PLAIN);
    assert_true(acc(t, 3)->noret);
    assert_int_equal(acc(t, 3)->mode, IR_A64_PLAIN);
    assert_true(acc(t, 4)->noret);
    assert_int_equal(acc(t, 4)->mode, IR_A64_REL);
    assert_int_equal(acc(t, 4)->fail_mode, IR_A64_PLAIN);
    /* the LDADD may carry x past 32 bits: the load's value is cut */
    text_has(t, "%1 = and %0, 4294967295");
    text_has(t, "store.a64rel &x, %1, excl");
    text_has(t, "rmw.or.a64 &x, %1, noret");
    ir_test_free(t);
}

/* EOR W2,W1,W1 is a value computed from W1 (0, yet a dependency): the
 * address it is added to is not folded to a constant. */
static void test_dependency_kept(void **st)
{
    (void)st;
    ir_test *t = unit_litmus("AArch64 d\n{ 0:X1=x; 0:X3=y; }\n P0 ;\n"
                             " LDR W0,[X1] ;\n EOR W2,W0,W0 ;\n LDR W4,[X3,W2,SXTW] ;\nexists (0:X4=0)\n");
    const ir_instr *eor = instr(t, 0, 0, 1), *ld = instr(t, 0, 0, 3);
    assert_int_equal(eor->op, IR_BIN);
    assert_int_equal(eor->binop, IR_XOR);
    assert_int_equal(ld->op, IR_LOAD);
    assert_int_equal(ld->addr.kind, IR_OPND_VAL);
    ir_test_free(t);
}

/* CSEL chooses without a dependency on the flags: a branch marked select;
 * a constant condition picks its side at once.  B.cond and CBZ are
 * ordinary branches. */
static void test_csel_and_branches(void **st)
{
    (void)st;
    ir_test *t = unit_litmus("AArch64 c\n{ 0:X1=x; }\n P0 ;\n"
                             " LDR W0,[X1] ;\n CMP W0,#1 ;\n CSEL W2,W3,W4,EQ ;\n CBZ W0,L0 ;\n MOV W5,#1 ;\n"
                             " L0: ;\n CMP W5,W5 ;\n CSEL W6,W3,W0,NE ;\nexists (0:X2=0)\n");
    const ir_instr *br = instr(t, 0, 0, t->threads[0].blocks[0].ninstrs - 1);
    assert_int_equal(br->op, IR_BR);
    assert_true(br->select);
    text_has(t, ", select");
    int selects = 0, branches = 0;
    for (int b = 0; b < t->threads[0].nblocks; b++)
        for (int i = 0; i < t->threads[0].blocks[b].ninstrs; i++) {
            const ir_instr *in = &t->threads[0].blocks[b].instrs[i];
            if (in->op == IR_BR)
                in->select ? selects++ : branches++;
        }
    assert_int_equal(selects, 2);      /* CMP W5,W5 compares two values of the path: still a select */
    assert_int_equal(branches, 1);
    ir_test_free(t);
}

/* MOVZ, MVN, NEG, LDUR; CSINC, CSINV, CSNEG and CSETM are selects whose
 * other side is computed from M. */
static void test_more_arithmetic(void **st)
{
    (void)st;
    ir_test *t = unit_litmus("AArch64 a\n{ 0:X1=x; }\n P0 ;\n"
                             " MOVZ W2,#5 ;\n MVN W3,W2 ;\n NEG W4,W2 ;\n LDUR W0,[X1,#0] ;\n CMP W0,#0 ;\n"
                             " CSINC W5,W2,W3,EQ ;\n CSETM W6,NE ;\nexists (0:X5=0)\n");
    text_has(t, "final X2 = 5");
    text_has(t, "final X3 = 4294967290");     /* W results are 32 bits: herd shows them as int, -6 */
    text_has(t, "final X4 = 4294967291");
    text_has(t, "load.a64 &x");
    int selects = 0;
    for (int b = 0; b < t->threads[0].nblocks; b++) {
        const ir_block *bl = &t->threads[0].blocks[b];
        if (bl->ninstrs && bl->instrs[bl->ninstrs - 1].op == IR_BR)
            selects += bl->instrs[bl->ninstrs - 1].select;
    }
    assert_int_equal(selects, 2);
    ir_test_free(t);
}

/* herd without -variant mixed: a store writes its size's low bytes (A11:
 * STRB of 256 writes 0), a load zero-extends its size's low bytes where
 * the location may hold more (L011: LDRH of int16_t -2), and not where it
 * cannot (an untyped 0 read by LDR W); W results keep 32 bits; a typed
 * register keeps its type, which the IR text carries. */
static void test_widths(void **st)
{
    (void)st;
    ir_test *t = unit_litmus("AArch64 w\n{ int16_t y=-2; 0:X4=y; 0:X1=x; 0:X6=z; int8_t 0:X0=256; int32_t 0:X3; }\n"
                             " P0 ;\n STRB W0,[X1] ;\n LDRH W3,[X4] ;\n LDR W5,[X6] ;\n ADD W7,W5,#1 ;\n"
                             " EOR W8,W5,W5 ;\n MOV W9,#-1 ;\n MOV X10,#-1 ;\nexists (0:X3=65534)\n");
    text_has(t, "store.a64 &x, 0 ");
    text_has(t, "%1 = and %0, 65535");
    text_has(t, "%2 = load.a64 &z");
    text_has(t, "%3 = add %2, 1");
    text_has(t, "%4 = and %3, 4294967295");
    text_has(t, "%5 = xor %2, %2");             /* EOR of two 32-bit values: nothing to cut */
    text_has(t, "final X9 = 4294967295\n");
    text_has(t, "final X10 = -1\n");
    text_has(t, "final X0 = 256 ctype \"int8_t\"");
    text_has(t, "final X3 = %1 ctype \"int32_t\"");
    char *s = ir_print_str(t);
    diag d = {0};
    ir_test *u = ir_read(s, "t.ir", &d);
    if (!u)
        fail_msg("%d:%d %s\n%s", d.line, d.col, d.msg, s);
    char *s2 = ir_print_str(u);
    assert_string_equal(s, s2);
    free(s);
    free(s2);
    ir_test_free(u);
    ir_test_free(t);
}

/* A W comparison's signed conditions see 32-bit numbers: -1 (all ones in
 * W0) is less than 0, as herd has it. */
static void test_w_compare(void **st)
{
    (void)st;
    ir_test *t = unit_litmus("AArch64 k\n{ }\n P0 ;\n MOV W0,#-1 ;\n CMP W0,#0 ;\n CSET W1,LT ;\n"
                             " CSET W2,MI ;\n CMP X0,#0 ;\n CSET W3,LT ;\nexists (0:X1=1)\n");
    text_has(t, "final X1 = 1\n");
    text_has(t, "final X2 = 1\n");
    text_has(t, "final X3 = 0\n");             /* X0 is 4294967295, not negative */
    ir_test_free(t);
}

/* CSEL of two equal values still gives its register a phi at the join,
 * which carries the flags' pick to the store (LB+csel-same-data+dmb). */
static void test_csel_same_values(void **st)
{
    (void)st;
    ir_test *t = unit_litmus("AArch64 p\n{ 0:X1=x; 0:X5=y; 0:X3=1; 0:X4=1; }\n P0 ;\n LDR W0,[X1] ;\n"
                             " CMP W0,#1 ;\n CSEL W2,W3,W4,EQ ;\n STR W2,[X5] ;\nexists (0:X0=1)\n");
    const ir_thread *th = &t->threads[0];
    const ir_block *join = &th->blocks[th->nblocks - 1];
    assert_true(join->ninstrs >= 2);
    const ir_instr *phi = &join->instrs[0];
    assert_int_equal(phi->op, IR_PHI);
    assert_int_equal(phi->nphi_args, 2);
    assert_int_equal(phi->phi_args[0].imm, 1);
    assert_int_equal(phi->phi_args[1].imm, 1);
    assert_int_equal(join->instrs[1].op, IR_STORE);
    assert_int_equal(join->instrs[1].a.kind, IR_OPND_VAL);
    assert_int_equal(join->instrs[1].a.val, phi->dst);
    ir_test_free(t);
}

/* One location accessed with two sizes (here by two threads) is herd's
 * mixed-size test: refused at the second access. */
static void test_mixed_size(void **st)
{
    (void)st;
    diag d = {0};
    fe_test *ft = unit_parse("AArch64 m\n{ 0:X1=x; 1:X1=x; }\n P0 | P1 ;\n MOV W0,#1 | LDRB W0,[X1] ;\n"
                             " STR W0,[X1] | ;\nexists (1:X0=1)\n", &d);
    ir_test *t = ir_lower(ft, &d);
    fe_test_free(ft);
    assert_null(t);
    assert_int_equal(d.status, 2);
    assert_int_equal(d.line, 4);
    assert_int_equal(d.col, 14);
    assert_string_equal(d.msg, "mixed-size access to x (1 byte here, 4 at line 5): outside litmusc's AArch64 dialect");
    /* through a pointer: p holds &x, read by W, written by X */
    memset(&d, 0, sizeof d);
    ft = unit_parse("AArch64 q\n{ uint64_t x; uint64_t *p = &x; 0:X2=p; 0:X1=x; }\n P0 ;\n LDR X2,[X2] ;\n"
                    " LDR W0,[X2] ;\n STR X0,[X1] ;\nexists (0:X0=0)\n", &d);
    t = ir_lower(ft, &d);
    fe_test_free(ft);
    assert_null(t);
    assert_int_equal(d.line, 6);
    /* ... while a W read through p alone is no mix (A180) */
    t = unit_litmus("AArch64 r\n{ uint64_t x = 0x100000002; uint64_t *p = &x; 0:X2=p; }\n P0 ;\n LDR X2,[X2] ;\n"
                    " LDR W0,[X2] ;\nforall (0:X0=2)\n");
    text_has(t, "and %1, 4294967295");
    ir_test_free(t);
}

/* A jump back is a loop: refused at the jump. */
static void test_back_jump(void **st)
{
    (void)st;
    diag d = {0};
    fe_test *ft = unit_parse("AArch64 l\n{ 0:X1=x; }\n P0 ;\n L0: ;\n LDR W0,[X1] ;\n CBNZ W0,L0 ;\n"
                             "exists (0:X0=0)\n", &d);
    ir_test *t = ir_lower(ft, &d);
    fe_test_free(ft);
    assert_null(t);
    assert_int_equal(d.status, 2);
    assert_int_equal(d.line, 6);
    assert_int_equal(d.col, 10);
    assert_non_null(strstr(d.msg, "loops are not supported"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_modes),
        cmocka_unit_test(test_exclusives_and_noret),
        cmocka_unit_test(test_dependency_kept),
        cmocka_unit_test(test_csel_and_branches),
        cmocka_unit_test(test_more_arithmetic),
        cmocka_unit_test(test_back_jump),
        cmocka_unit_test(test_widths),
        cmocka_unit_test(test_w_compare),
        cmocka_unit_test(test_csel_same_values),
        cmocka_unit_test(test_mixed_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
