/* Unit tests of the JLS04 model (model/jls04/): behaviour sets worked
 * out by hand from JLS 17.4.8, and the justification sequences it finds,
 * compared with the ones Pugh's causality test cases page gives (CTC 1:
 * commit y = 1, then r2 = y while it still sees 0, then x = r2, then
 * r1 = x), on small tests; what it refuses (status 2) and where it stops
 * (status 3). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tests/unit/unit_litmus.h"
#include "frontend/frontend.h"
#include "ir/lower.h"
#include "model/model.h"
#include "util/mem.h"

/* The behaviour set of TEXT under jls04, or NULL with D filled. */
static bset *run(const char *text, diag *d)
{
    ir_test *t = unit_litmus(text);
    model *m = model_load("jls04", d);
    assert_non_null(m);
    bset *b = model_run(m, t, d);
    model_free(m);
    ir_test_free(t);
    return b;
}

static bset *run_ok(const char *text)
{
    diag d = {0};
    bset *b = run(text, &d);
    if (!b)
        fail_msg("jls04: %d:%d: %s (status %d)", d.line, d.col, d.msg, d.status);
    return b;
}

/* B's states are exactly WANT (N states of NOBS values each, any order). */
static void expect_states(const bset *b, const ir_val *want, int n, int nobs)
{
    assert_int_equal(b->nobs, nobs);
    for (int i = 0; i < n; i++)
        if (bset_find(b, want + (size_t)i * (size_t)nobs) < 0)
            fail_msg("state %d missing", i);
    assert_int_equal(b->nstates, n);
}

static void expect_note(const bset *b, const char *line)
{
    if (!b->notes || !strstr(b->notes, line))
        fail_msg("notes lack \"%s\":\n%s", line, b->notes ? b->notes : "(none)");
}

/* ---- causality test case 1: allowed, and Pugh's justification ------------- */

static const char ctc1[] =
    "Java CTC1\n"
    "{ x=0; y=0; 0:X=x; 0:Y=y; 1:X=x; 1:Y=y; }\n"
    "Thread0 { int r1 = X.get(); if (r1 >= 0) { Y.set(1); } }\n"
    "Thread1 { int r2 = Y.get(); X.set(r2); }\n"
    "exists (0:r1=1 /\\ 1:r2=1)\n";

static void test_ctc1_justification(void **state)
{
    (void)state;
    bset *b = run_ok(ctc1);
    /* r1 = r2 = 1 by the justification below; r2 = 1, r1 = 0 when thread
     * 0 reads x first; r1 = 1, r2 = 0 cannot be: x = 1 needs r2 = 1. */
    const ir_val want[] = {0, 0, 0, 1, 1, 1};
    expect_states(b, want, 3, 2);
    assert_int_equal(b->pos, 1);
    /* Stage 1: every read sees the initial writes, thread 0 writes y = 1:
     * that write is committed (with the initial writes). */
    expect_note(b, "C1 = {init x=0, init y=0, Thread0:W y=1}  E1: Thread0: R x=0, W y=1; Thread1: R y=0, W x=0");
    /* Stage 2: r2 = y is committed while E2 still has it see 0, a write
     * that happens before it (JLS condition 6); it sees y = 1 in T. */
    expect_note(b, "C2 = C1 + {Thread1:R y=1}  E2: Thread0: R x=0, W y=1; Thread1: R y=0, W x=0");
    /* Stage 3: now r2 sees y = 1 (condition 5), so x = r2 writes 1. */
    expect_note(b, "C3 = C2 + {Thread1:W x=1}  E3: Thread0: R x=0, W y=1; Thread1: R y=1, W x=1");
    expect_note(b, "C4 = C3 + {Thread0:R x=1}");
    expect_note(b, "JLS04 justifies 0:r1=1; 1:r2=1; in 4 stages");
    bset_free(b);
}

/* ---- thin air: causality test case 4 and jMT's LbOdd ----------------------- */

static void test_thin_air(void **state)
{
    (void)state;
    bset *b = run_ok("Java CTC4\n"
                     "{ x=0; y=0; 0:X=x; 0:Y=y; 1:X=x; 1:Y=y; }\n"
                     "Thread0 { int r1 = X.get(); Y.set(r1); }\n"
                     "Thread1 { int r2 = Y.get(); X.set(r2); }\n"
                     "exists (0:r1=1 /\\ 1:r2=1)\n");
    /* The first committed write of x or y comes from an execution whose
     * reads all see the initial writes: it writes 0, and so every value
     * is 0 in every allowed execution. */
    const ir_val want[] = {0, 0};
    expect_states(b, want, 1, 2);
    assert_int_equal(b->pos, 0);
    expect_note(b, "JLS04 justifies no execution where the condition's proposition holds");
    bset_free(b);

    /* a = x; b = a | 1; y = b || c = y; x = c: b = 1 is committed from an
     * execution where a = 0, and then every later execution must write 1
     * (condition 4), so a, b, c are 1 or a = c = 0, b = 1, never b = 5. */
    b = run_ok("Java LbOdd\n"
               "{ x=0; y=0; 0:X=x; 0:Y=y; 1:X=x; 1:Y=y; }\n"
               "Thread0 { int a = X.get(); int b = a || 1; Y.set(b); }\n"
               "Thread1 { int c = Y.get(); X.set(c); }\n"
               "exists (0:a=1 /\\ 0:b=1 /\\ 1:c=1)\n");
    const ir_val odd[] = {0, 1, 0, 0, 1, 1, 1, 1, 1};
    expect_states(b, odd, 3, 3);
    expect_note(b, "JLS04 justifies 0:a=1; 0:b=1; 1:c=1;");
    bset_free(b);
}

/* ---- causality test case 6: one event across two branches ------------------ */

static void test_ctc6_branches(void **state)
{
    (void)state;
    bset *b = run_ok("Java CTC6\n"
                     "{ a=0; b=0; 0:A=a; 0:B=b; 1:A=a; 1:B=b; }\n"
                     "Thread0 { int r1 = A.get(); if (r1 == 1) { B.set(1); } }\n"
                     "Thread1 { int r2 = B.get(); if (r2 == 1) { A.set(1); } if (r2 == 0) { A.set(1); } }\n"
                     "exists (0:r1=1 /\\ 1:r2=1)\n");
    /* Thread 1's first write of a is the same event whichever branch
     * writes it (jMT's equality: thread, kind, location, rank), so the
     * write committed from the r2 = 0 branch is the one of T. */
    expect_note(b, "C1 = {init a=0, init b=0, Thread1:W a=1}  E1: Thread0: R a=0; Thread1: R b=0, W a=1");
    /* r2 = 0 writes a = 1 too, which r1 may see; r1 = 0, r2 = 1 cannot be:
     * b = 1 needs r1 = 1. */
    const ir_val want[] = {0, 0, 1, 0, 1, 1};
    expect_states(b, want, 3, 2);
    bset_free(b);
}

/* ---- causality test case 17: allowed by Pugh, not by JLS 17.4.8's text ----- */

static void test_ctc17(void **state)
{
    (void)state;
    bset *b = run_ok("Java CTC17\n"
                     "{ x=0; y=0; 0:X=x; 0:Y=y; 1:X=x; 1:Y=y; }\n"
                     "Thread0 { int r3 = X.get(); if (r3 != 42) { X.set(42); } int r1 = X.get(); Y.set(r1); }\n"
                     "Thread1 { int r2 = Y.get(); X.set(r2); }\n"
                     "exists (0:r1=42 /\\ 0:r3=42 /\\ 1:r2=42)\n");
    /* y = 42 must be committed before thread 1's read of y, its x = 42 and
     * thread 0's reads of x.  Once it is, r1 = x must be committed in an
     * execution that writes y = 42: where r3 = x sees the initial 0,
     * thread 0's own x = 42 happens before r1 and is no event of T, so r1
     * sees no committed write; where r3 sees 42 (committed), r1 sees the
     * initial write, the only one that happens before it, and y = 0.  No
     * stage can commit r1: the result is forbidden. */
    assert_int_equal(b->pos, 0);
    assert_true(b->neg > 0);
    bset_free(b);
}

/* CTC19: CTC17 with its thread split in two, the first joining the second
 * (the join is Thread2's last action, a volatile write, and a spin of
 * volatile reads in Thread0). */
static void test_ctc19(void **state)
{
    (void)state;
    bset *b = run_ok("Java CTC19\n"
                     "{ x=0; y=0; 0:X=x; 0:Y=y; 1:X=x; 1:Y=y; 2:X=x; }\n"
                     "Thread0 { Thread2.join(); int r1 = X.get(); Y.set(r1); }\n"
                     "Thread1 { int r2 = Y.get(); X.set(r2); }\n"
                     "Thread2 { int r3 = X.get(); if (r3 != 42) { X.set(42); } }\n"
                     "exists (0:r1=42 /\\ 1:r2=42 /\\ 2:r3=42)\n");
    /* As in CTC17, with thread 2's x = 42 in place of thread 0's own: y = 42
     * comes first, then r1 = x must be committed in an execution that writes
     * y = 42.  Where r3 sees the initial 0, thread 2's x = 42 happens before
     * r1 (by the join) and is no event of the target, so r1 sees no
     * committed write; where r3 sees 42, the only write that happens before
     * r1 is the initial one, and y = 0.  Forbidden; and the spin's runs past
     * the bound only repeat the flag's reads, so nothing is cut off. */
    assert_int_equal(b->pos, 0);
    assert_true(b->neg > 0);
    assert_true(b->cutoff);
    assert_int_equal(b->nstates, 3);
    bset_free(b);
}

/* ---- volatile: synchronization order and synchronizes-with ------------------ */

static void test_volatile(void **state)
{
    (void)state;
    /* Dekker: plain, both reads may see 0; volatile, so is a total order
     * and the later read sees the other write. */
    bset *b = run_ok("Java PlainDekker\n"
                     "{ x=0; y=0; 0:X=x; 0:Y=y; 1:X=x; 1:Y=y; }\n"
                     "Thread0 { X.set(1); int r1 = Y.get(); }\n"
                     "Thread1 { Y.set(1); int r2 = X.get(); }\n"
                     "exists (0:r1=0 /\\ 1:r2=0)\n");
    assert_int_equal(b->nstates, 4);
    assert_true(b->pos > 0);
    bset_free(b);
    b = run_ok("Java VolatileDekker\n"
               "{ x=0; y=0; 0:X=x; 0:Y=y; 1:X=x; 1:Y=y; }\n"
               "Thread0 { X.setVolatile(1); int r1 = Y.getVolatile(); }\n"
               "Thread1 { Y.setVolatile(1); int r2 = X.getVolatile(); }\n"
               "exists (0:r1=0 /\\ 1:r2=0)\n");
    const ir_val sc[] = {0, 1, 1, 0, 1, 1};
    expect_states(b, sc, 3, 2);
    /* six interleavings of the four volatile accesses, one execution each */
    assert_int_equal(b->neg, 6);
    bset_free(b);
    /* Message passing through a volatile flag: seeing the flag makes the
     * data write happen before the data read (hb-consistency). */
    b = run_ok("Java VolatileGuard\n"
               "{ x=0; y=0; 0:X=x; 0:Y=y; 1:X=x; 1:Y=y; }\n"
               "Thread0 { X.set(1); Y.setVolatile(1); }\n"
               "Thread1 { int r1 = Y.getVolatile(); int r2 = X.get(); }\n"
               "exists (1:r1=1 /\\ 1:r2=0)\n");
    const ir_val mp[] = {0, 0, 0, 1, 1, 1};
    expect_states(b, mp, 3, 2);
    bset_free(b);
}

/* ---- final memory: hb-maximal writes -------------------------------------- */

static void test_final_memory(void **state)
{
    (void)state;
    /* x = 1; x = 2 in one thread, x = 3 in another: the final value is a
     * write no other write of x happens after: 2 or 3, never 1. */
    bset *b = run_ok("Java Final\n"
                     "{ x=0; 0:X=x; 1:X=x; }\n"
                     "Thread0 { X.set(1); X.set(2); }\n"
                     "Thread1 { X.set(3); }\n"
                     "exists ([x]=1)\n");
    const ir_val want[] = {2, 3};
    expect_states(b, want, 2, 1);
    bset_free(b);
}

/* ---- every allowed execution to an observer ----------------------------------- */

static bool count_exec(void *ctx, const struct exec *x, const model_exec_info *info, diag *d)
{
    (void)x; (void)info; (void)d;
    (*(uint64_t *)ctx)++;
    return true;
}

static void test_observed(void **state)
{
    (void)state;
    ir_test *t = unit_litmus(ctc1);
    diag d = {0};
    model *m = model_load("jls04", &d);
    uint64_t n = 0;
    bset *b = model_run_observed(m, t, count_exec, &n, &d);
    assert_non_null(b);
    assert_int_equal(n, b->pos + b->neg);
    assert_string_equal(model_name(m), "jls04");
    bset_free(b);
    model_free(m);
    ir_test_free(t);
}

/* ---- what it refuses, where it stops ---------------------------------------- */

static void test_refused(void **state)
{
    (void)state;
    diag d = {0};
    bset *b = run("Java Opaque\n"
                  "{ x=0; 0:X=x; 1:X=x; }\n"
                  "Thread0 { X.setOpaque(1); }\n"
                  "Thread1 { int r0 = X.getOpaque(); }\n"
                  "exists (1:r0=1)\n", &d);
    assert_null(b);
    assert_int_equal(d.status, 2);
    assert_int_equal(d.line, 3);
    assert_non_null(strstr(d.msg, "jls04: opaque accesses came with Java 9's VarHandles"));
    memset(&d, 0, sizeof d);
    b = run("Java Mixed\n"
            "{ x=0; 0:X=x; 1:X=x; }\n"
            "Thread0 { X.setVolatile(1); }\n"
            "Thread1 { int r0 = X.get(); }\n"
            "exists (1:r0=1)\n", &d);
    assert_null(b);
    assert_int_equal(d.status, 2);
    assert_int_equal(d.line, 4);
    assert_non_null(strstr(d.msg, "x is accessed both as a plain and as a volatile field"));
    /* 9^8 ways for eight reads to pick one of the initial and eight other
     * writes: past JLS04_MAX_EXECS, status 3 and no verdict. */
    memset(&d, 0, sizeof d);
    b = run("Java Many\n"
            "{ x=0; 0:X=x; 1:X=x; }\n"
            "Thread0 { X.set(1); X.set(2); X.set(3); X.set(4); X.set(5); X.set(6); X.set(7); X.set(8); }\n"
            "Thread1 { int a = X.get(); int b = X.get(); int c = X.get(); int d = X.get();"
            " int e = X.get(); int f = X.get(); int g = X.get(); int h = X.get(); }\n"
            "exists (1:a=1)\n", &d);
    assert_null(b);
    assert_int_equal(d.status, 3);
    assert_non_null(strstr(d.msg, "jls04: the test has more than 50000 well-formed executions"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ctc1_justification),
        cmocka_unit_test(test_thin_air),
        cmocka_unit_test(test_ctc6_branches),
        cmocka_unit_test(test_ctc17),
        cmocka_unit_test(test_ctc19),
        cmocka_unit_test(test_volatile),
        cmocka_unit_test(test_final_memory),
        cmocka_unit_test(test_observed),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
