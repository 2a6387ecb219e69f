/* Unit tests of the IR verifier: one accepted test, then each failure mode
 * written as IR text that reads fine but must not verify. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "ir/ir.h"
#include "util/mem.h"

#define HEAD(arch) "test \"T\"\narch " arch "\nloc x int init 0\nloc y int init 0\n"

static ir_test *read_ok(const char *text)
{
    diag d = {0};
    ir_test *t = ir_read(text, "t.ir", &d);
    if (!t)
        fail_msg("read failed: %d:%d: %s", d.line, d.col, d.msg);
    return t;
}

static void expect_valid(const char *text)
{
    ir_test *t = read_ok(text);
    diag d = {0};
    if (!ir_verify(t, &d))
        fail_msg("rejected: %s", d.msg);
    ir_test_free(t);
}

/* The verifier rejects TEXT with a message containing MSG. */
static void expect_invalid(const char *text, const char *msg)
{
    ir_test *t = read_ok(text);
    diag d = {0};
    if (ir_verify(t, &d))
        fail_msg("accepted, wanted an error with '%s'", msg);
    assert_int_equal(d.status, 2);
    if (!strstr(d.msg, msg))
        fail_msg("got '%s', wanted '%s'", d.msg, msg);
    ir_test_free(t);
}

static void test_valid_diamond(void **state)
{
    (void)state;
    /* if/else joining through a phi, a value from the entry used after the join. */
    expect_valid(HEAD("C")
                 "thread 0 P0\n  b0:\n    %0 = load.rlx &x\n    br %0, b1, b2\n"
                 "  b1:\n    %1 = add %0, 1\n    jmp b3\n"
                 "  b2:\n    jmp b3\n"
                 "  b3:\n    %2 = phi [%1, b1], [0, b2]\n    store.rlx &y, %0\n    ret\n"
                 "  final r0 = %0\n  final r1 = %2\nend\n"
                 "cond exists 0:r0=1 /\\ [y]=1\n");
}

static void test_use_before_def(void **state)
{
    (void)state;
    expect_invalid(HEAD("C")
                   "thread 0 P0\n  b0:\n    store.rlx &x, %0\n    %0 = load.rlx &y\n    ret\nend\n"
                   "cond exists true\n",
                   "%0 is used before its definition");
    expect_invalid(HEAD("C") "thread 0 P0\n  b0:\n    store.rlx &x, %3\n    ret\nend\ncond exists true\n",
                   "%3 is used but never defined");
}

static void test_def_not_dominating(void **state)
{
    (void)state;
    expect_invalid(HEAD("C")
                   "thread 0 P0\n  b0:\n    %0 = load.rlx &x\n    br %0, b1, b2\n"
                   "  b1:\n    %1 = add %0, 1\n    jmp b2\n"
                   "  b2:\n    store.rlx &y, %1\n    ret\nend\ncond exists true\n",
                   "definition of %1 in block 1 does not dominate");
    /* A final register must be available at the ret. */
    expect_invalid(HEAD("C")
                   "thread 0 P0\n  b0:\n    %0 = load.rlx &x\n    br %0, b1, b2\n"
                   "  b1:\n    %1 = add %0, 1\n    jmp b2\n"
                   "  b2:\n    ret\n  final r1 = %1\nend\ncond exists true\n",
                   "does not dominate");
    /* A phi argument must be available at the end of its predecessor. */
    expect_invalid(HEAD("C")
                   "thread 0 P0\n  b0:\n    %0 = load.rlx &x\n    br %0, b1, b2\n"
                   "  b1:\n    %1 = add %0, 1\n    jmp b3\n"
                   "  b2:\n    jmp b3\n"
                   "  b3:\n    %2 = phi [%1, b1], [%1, b2]\n    ret\nend\ncond exists true\n",
                   "does not dominate");
}

static void test_defined_twice(void **state)
{
    (void)state;
    expect_invalid(HEAD("C")
                   "thread 0 P0\n  b0:\n    %0 = load.rlx &x\n    %0 = load.rlx &y\n    ret\nend\ncond exists true\n",
                   "%0 is defined twice");
}

static void test_phi_mismatch(void **state)
{
    (void)state;
    expect_invalid(HEAD("C")
                   "thread 0 P0\n  b0:\n    %0 = load.rlx &x\n    br %0, b1, b2\n"
                   "  b1:\n    jmp b2\n"
                   "  b2:\n    %1 = phi [%0, b0]\n    ret\nend\ncond exists true\n",
                   "phi has 1 arguments but block 2 has 2 predecessors");
    expect_invalid(HEAD("C")
                   "thread 0 P0\n  b0:\n    %0 = load.rlx &x\n    %1 = add %0, 1\n    %2 = phi\n    ret\nend\n"
                   "cond exists true\n",
                   "phi after a non-phi");
}

static void test_terminators(void **state)
{
    (void)state;
    expect_invalid(HEAD("C") "thread 0 P0\n  b0:\n    %0 = load.rlx &x\nend\ncond exists true\n",
                   "does not end with br, jmp, ret or cut");
    /* a cut ends a path but not the thread, and names its bound */
    expect_invalid(HEAD("C")
                   "thread 0 P0\n  b0:\n    %0 = load.rlx &x\n    br %0, b1, b2\n  b1:\n    cut 0\n  b2:\n    ret\nend\n"
                   "cond exists true\n",
                   "cut needs its unrolling bound, a number of at least 1");
    expect_invalid(HEAD("C") "thread 0 P0\n  b0:\n    cut 2, spin\nend\ncond exists true\n", "0 ret instructions");
    expect_invalid(HEAD("C") "loc f int init 0 ends 3\nthread 0 P0\n  b0:\n    ret\nend\ncond exists true\n",
                   "flags the end of thread 3, which the test does not have");
    expect_invalid(HEAD("C") "thread 0 P0\n  b0:\n    ret\n    %0 = load.rlx &x\n    ret\nend\ncond exists true\n",
                   "ret is not the last instruction");
    expect_invalid(HEAD("C")
                   "thread 0 P0\n  b0:\n    %0 = load.rlx &x\n    br %0, b1, b2\n  b1:\n    ret\n  b2:\n    ret\nend\n"
                   "cond exists true\n",
                   "2 ret instructions");
    expect_invalid(HEAD("C") "thread 0 P0\n  b0:\n    jmp b1\n  b1:\n    jmp b2\n  b2:\nend\ncond exists true\n",
                   "block 2 is empty");
    expect_invalid(HEAD("C") "thread 0 P0\nend\ncond exists true\n", "no blocks");
    expect_invalid(HEAD("C") "thread 0 P0\n  b0:\n    jmp b5\nend\ncond exists true\n", "block 5, which does not exist");
    expect_invalid(HEAD("C") "thread 0 P0\n  b0:\n    %0 = load.rlx &x\n    br %0, b1, b1\n  b1:\n    ret\nend\n"
                   "cond exists true\n",
                   "same block 1 on both sides");
}

static void test_cfg_shape(void **state)
{
    (void)state;
    /* A backward jump is a loop. */
    expect_invalid(HEAD("C")
                   "thread 0 P0\n  b0:\n    jmp b1\n  b1:\n    %0 = load.rlx &x\n    br %0, b1, b2\n  b2:\n    ret\nend\n"
                   "cond exists true\n",
                   "jumps back to block 1");
    expect_invalid(HEAD("C") "thread 0 P0\n  b0:\n    ret\n  b1:\n    jmp b0\nend\ncond exists true\n",
                   "targets the entry block");
    expect_invalid(HEAD("C") "thread 0 P0\n  b0:\n    jmp b2\n  b1:\n    jmp b2\n  b2:\n    ret\nend\ncond exists true\n",
                   "block 1 is unreachable");
}

static void test_operands(void **state)
{
    (void)state;
    expect_invalid(HEAD("C") "thread 0 P0\n  b0:\n    %0 = load.rlx 5\n    ret\nend\ncond exists true\n",
                   "address operand is the integer 5");
    expect_invalid(HEAD("C") "thread 0 P0\n  b0:\n    load.rlx &x\n    ret\nend\ncond exists true\n",
                   "load defines no valid value");
    expect_invalid(HEAD("C") "thread 0 P0\n  b0:\n    %0 = store.rlx &x, 1\n    ret\nend\ncond exists true\n",
                   "store cannot define a value");
    expect_invalid(HEAD("C") "thread 0 P0\n  b0:\n    store.rlx &x, none\n    ret\nend\ncond exists true\n",
                   "store value operand is missing");
    expect_invalid(HEAD("C") "thread 0 P0\n  b0:\n    %0 = add 1, none\n    ret\nend\ncond exists true\n",
                   "bin right operand is missing");
    expect_invalid(HEAD("C") "thread 0 P0\n  b0:\n    %0 = load.rlx &x\n    %1 = eq %0, 1\n    store.rlx %1, 1\n"
                   "    ret\nend\ncond exists true\n",
                   "store address %1 is the result of a comparison");
    /* A loaded value may hold an address. */
    expect_valid(HEAD("C") "thread 0 P0\n  b0:\n    %0 = load.rlx &x\n    store.rlx %0, 1\n    ret\nend\n"
                 "cond exists true\n");
    /* An address immediate that names no location. */
    ir_test *t = read_ok(HEAD("C") "thread 0 P0\n  b0:\n    store.rlx &x, 1\n    ret\nend\ncond exists true\n");
    t->threads[0].blocks[0].instrs[0].addr = ir_imm(IR_ADDR(9));
    diag d = {0};
    assert_false(ir_verify(t, &d));
    assert_non_null(strstr(d.msg, "address of no location"));
    ir_test_free(t);
}

static void test_modes(void **state)
{
    (void)state;
    expect_invalid(HEAD("C") "thread 0 P0\n  b0:\n    store.acq &x, 1\n    ret\nend\ncond exists true\n",
                   "access mode 'acq' is not legal for a C store");
    expect_invalid(HEAD("C") "thread 0 P0\n  b0:\n    %0 = load.x86 &x\n    ret\nend\ncond exists true\n",
                   "access mode 'x86' is not legal for a C load");
    expect_invalid(HEAD("X86") "thread 0 P0\n  b0:\n    %0 = rmw.add.x86 &x, 1\n    ret\nend\ncond exists true\n",
                   "not legal for a X86 rmw");
    expect_invalid(HEAD("X86") "thread 0 P0\n  b0:\n    fence.full\n    ret\nend\ncond exists true\n",
                   "not a X86 fence");
    expect_invalid(HEAD("Java") "thread 0 P0\n  b0:\n    store.acquire &x, 1\n    ret\nend\ncond exists true\n",
                   "not legal for a Java store");
    expect_invalid(HEAD("Java") "thread 0 P0\n  b0:\n    fence.c.sc\n    ret\nend\ncond exists true\n",
                   "not a Java fence");
    expect_invalid(HEAD("C") "thread 0 P0\n  b0:\n    %0 = rmw.cas.sc &x, expected 0, new 1, fail rel\n    ret\nend\n"
                   "cond exists true\n",
                   "cas failure mode 'rel'");
    expect_valid(HEAD("X86") "thread 0 P0\n  b0:\n    %0 = rmw.xchg.locked &x, 1\n    fence.mfence\n    ret\n"
                 "  final EAX = %0\nend\ncond exists 0:EAX=0\n");
    expect_valid(HEAD("Java") "thread 0 Thread0\n  b0:\n    %0 = rmw.cas.volatile &x, expected 0, new 1, fail volatile\n"
                 "    fence.loadload\n    ret\n  final r0 = %0\nend\ncond exists 0:r0=0\n");
}

static void test_observables(void **state)
{
    (void)state;
    const char *th = "thread 0 P0\n  b0:\n    ret\n  final r0 = 0\nend\n";
    char buf[512];
    snprintf(buf, sizeof buf, HEAD("C") "%scond exists 1:r0=0\n", th);
    expect_invalid(buf, "names thread 1, which does not exist");
    snprintf(buf, sizeof buf, HEAD("C") "%scond exists 0:r5=0\n", th);
    expect_invalid(buf, "register 0:r5, which thread 0 does not have");
    snprintf(buf, sizeof buf, HEAD("C") "%scond exists true\nfilter 0:r0=0 /\\ 0:r7=1\n", th);
    expect_invalid(buf, "the filter names register 0:r7");
    snprintf(buf, sizeof buf, HEAD("C") "%scond exists true\nlocations 3:r0\n", th);
    expect_invalid(buf, "`locations` names thread 3");
    snprintf(buf, sizeof buf, HEAD("C") "%scond exists [x]=0:r0\n", th);
    expect_valid(buf);
    ir_test *t = read_ok(buf);
    t->cond->lhs.loc = 7;
    diag d = {0};
    assert_false(ir_verify(t, &d));
    assert_non_null(strstr(d.msg, "location #7"));
    ir_test_free(t);
}

static void test_registers_and_locations(void **state)
{
    (void)state;
    ir_test *t = read_ok(HEAD("C") "thread 0 P0\n  b0:\n    ret\n  final r0 = 0\n  final r1 = 0\nend\ncond exists true\n");
    diag d = {0};
    char *tmp = t->threads[0].final_regs[0].name;   /* break the sort order */
    t->threads[0].final_regs[0].name = t->threads[0].final_regs[1].name;
    t->threads[0].final_regs[1].name = tmp;
    assert_false(ir_verify(t, &d));
    assert_non_null(strstr(d.msg, "not sorted"));
    ir_test_free(t);

    t = read_ok(HEAD("C") "thread 0 P0\n  b0:\n    ret\nend\ncond exists true\n");
    free(t->locs[1].name);
    t->locs[1].name = xstrdup("x");
    memset(&d, 0, sizeof d);
    assert_false(ir_verify(t, &d));
    assert_non_null(strstr(d.msg, "location x is declared twice"));
    ir_test_free(t);

    t = read_ok(HEAD("C") "thread 0 P0\n  b0:\n    ret\nend\ncond exists true\n");
    t->threads[0].id = 4;
    memset(&d, 0, sizeof d);
    assert_false(ir_verify(t, &d));
    assert_non_null(strstr(d.msg, "has id 4"));
    ir_test_free(t);

    /* Stale predecessor lists (a builder that forgot ir_finish). */
    t = read_ok(HEAD("C") "thread 0 P0\n  b0:\n    jmp b1\n  b1:\n    ret\nend\ncond exists true\n");
    t->threads[0].blocks[1].npreds = 0;
    memset(&d, 0, sizeof d);
    assert_false(ir_verify(t, &d));
    assert_non_null(strstr(d.msg, "stale"));
    ir_test_free(t);
}

/* The error points at the offending instruction: in an IR text read back,
 * its place in that text (the file the message names); in code lowered
 * from a litmus file, its source position. */
static void test_position(void **state)
{
    (void)state;
    ir_test *t = read_ok(HEAD("C") "thread 0 P0\n  b0:\n    store.rlx &x, %0    @12:7 \"*x = r0;\"\n    ret\nend\n"
                         "cond exists true\n");
    diag d = {0};
    assert_false(ir_verify(t, &d));
    const ir_instr *in = &t->threads[0].blocks[0].instrs[0];
    assert_true(in->text_line > 0);
    assert_int_equal(d.line, in->text_line);
    assert_int_equal(d.col, 5);
    assert_string_equal(d.file, "t.ir");
    /* without a place in a text: the source position */
    t->threads[0].blocks[0].instrs[0].text_line = 0;
    memset(&d, 0, sizeof d);
    assert_false(ir_verify(t, &d));
    assert_int_equal(d.line, 12);
    assert_int_equal(d.col, 7);
    ir_test_free(t);
}

/* A CAS's success flag: a fresh value, defined once, only on a cas, and
 * usable like any other; it survives printing and reading back. */
static void test_cas_flag(void **state)
{
    (void)state;
    expect_valid(HEAD("C")
                 "thread 0 P0\n  b0:\n    %0 = rmw.cas.rlx &x, expected 0, new 1, weak, ok %1\n"
                 "    br %1, b1, b2\n  b1:\n    store.rlx &y, 1\n    jmp b2\n  b2:\n    ret\n  final r0 = %1\nend\n"
                 "cond exists 0:r0=0\n");
    expect_invalid(HEAD("C")
                   "thread 0 P0\n  b0:\n    %0 = rmw.cas.rlx &x, expected 0, new 1, ok %0\n    ret\nend\n"
                   "cond exists [x]=0\n",
                   "not a valid new value");
    expect_invalid(HEAD("C")
                   "thread 0 P0\n  b0:\n    %0 = rmw.cas.rlx &x, expected 0, new 1, ok %1\n"
                   "    %1 = load.rlx &y\n    ret\nend\ncond exists [x]=0\n",
                   "defined twice");
    /* Only a cas may carry one (built by hand: the reader takes `ok` on a cas only). */
    ir_test *t = read_ok(HEAD("C")
                         "thread 0 P0\n  b0:\n    %0 = rmw.add.rlx &x, 1\n    ret\nend\n"
                         "cond exists [x]=0\n");
    t->threads[0].blocks[0].instrs[0].flag = 0;
    diag d = {0};
    assert_false(ir_verify(t, &d));
    assert_non_null(strstr(d.msg, "only a cas has a success flag"));
    ir_test_free(t);
    /* Round trip through the text form. */
    t = read_ok(HEAD("C")
                "thread 0 P0\n  b0:\n    %0 = rmw.cas.rlx &x, expected 0, new 1, fail rlx, weak, ok %1\n"
                "    ret\n  final r0 = %1\nend\ncond exists 0:r0=0\n");
    char *text = ir_print_str(t);
    assert_non_null(strstr(text, "weak, ok %1"));
    ir_test *u = read_ok(text);
    assert_int_equal(u->threads[0].blocks[0].instrs[0].flag, 1);
    assert_true(u->threads[0].blocks[0].instrs[0].weak);
    free(text);
    ir_test_free(t);
    ir_test_free(u);
}

/* The lock discipline (ir/locks.c), on every path of a thread. */
#define LOCKS "test \"T\"\narch C\nloc x int init 0\nloc l int init 0\nloc k int init 0\n"
static void test_locks(void **state)
{
    (void)state;
    expect_valid(LOCKS "thread 0 P0\n  b0:\n    lock.spin &l\n    store.na &x, 1\n    unlock.spin &l\n    ret\nend\n"
                       "cond exists true\n");
    /* a trylock whose result a branch tests: freed on the side that took it */
    expect_valid(LOCKS "thread 0 P0\n  b0:\n    %0 = trylock.mtx &l\n    br %0, b1, b2\n  b1:\n"
                       "    unlock.mtx &l\n    jmp b2\n  b2:\n    ret\nend\ncond exists true\n");
    /* the same through a comparison with 0 (C11's thrd_success) */
    expect_valid(LOCKS "thread 0 P0\n  b0:\n    %0 = trylock.mtx &l\n    %1 = eq %0, 0\n    br %1, b2, b1\n  b1:\n"
                       "    unlock.mtx &l\n    jmp b2\n  b2:\n    ret\nend\ncond exists true\n");
    expect_invalid(LOCKS "thread 0 P0\n  b0:\n    unlock.spin &l\n    ret\nend\ncond exists true\n",
                   "does not hold it");
    expect_invalid(LOCKS "thread 0 P0\n  b0:\n    lock.spin &l\n    lock.spin &l\n    unlock.spin &l\n    ret\nend\n"
                         "cond exists true\n", "already holds it");
    expect_invalid(LOCKS "thread 0 P0\n  b0:\n    %0 = load.na &x\n    br %0, b1, b2\n  b1:\n    lock.spin &l\n"
                         "    jmp b2\n  b2:\n    ret\nend\ncond exists true\n", "still held when the thread ends");
    expect_invalid(LOCKS "thread 0 P0\n  b0:\n    %0 = trylock.spin &l\n    unlock.spin &l\n    ret\nend\n"
                         "cond exists true\n", "not tested first");
    expect_invalid(LOCKS "thread 0 P0\n  b0:\n    lock.spin &l\n    store.na &l, 1\n    unlock.spin &l\n    ret\nend\n"
                         "cond exists true\n", "as data");
    expect_invalid(LOCKS "thread 0 P0\n  b0:\n    lock.spin &l\n    lock.spin &k\n    unlock.spin &k\n    unlock.spin &l\n"
                         "    ret\nend\nthread 1 P1\n  b0:\n    lock.spin &k\n    lock.spin &l\n    unlock.spin &l\n"
                         "    unlock.spin &k\n    ret\nend\ncond exists true\n", "could deadlock");
    expect_invalid(LOCKS "thread 0 P0\n  b0:\n    lock.spin &l\n    unlock.spin &l\n    ret\nend\ncond exists [l]=0\n",
                   "observes mutex l");
    expect_invalid(LOCKS "thread 0 P0\n  b0:\n    %0 = rmw.add.rlx &x, 1, waits\n    ret\nend\ncond exists true\n",
                   "only an xchg waits");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_diamond),
        cmocka_unit_test(test_use_before_def),
        cmocka_unit_test(test_def_not_dominating),
        cmocka_unit_test(test_defined_twice),
        cmocka_unit_test(test_phi_mismatch),
        cmocka_unit_test(test_terminators),
        cmocka_unit_test(test_cfg_shape),
        cmocka_unit_test(test_operands),
        cmocka_unit_test(test_modes),
        cmocka_unit_test(test_observables),
        cmocka_unit_test(test_registers_and_locations),
        cmocka_unit_test(test_position),
        cmocka_unit_test(test_cas_flag),
        cmocka_unit_test(test_locks),
    };
    return cmocka_run_group_tests_name("ir_verify", tests, NULL, NULL);
}
