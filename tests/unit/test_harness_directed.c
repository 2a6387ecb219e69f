/* Unit tests of directed stress (harness/directed.c): the schedules worked
 * out from the model's executions, checked by hand.  A state some
 * sequentially consistent execution makes gets that execution's
 * interleaving on one CPU ("K:=T.E,T,...": thread T up to its access E,
 * or to its end): SB's three states where a store is seen, MP's, all of
 * IRIW's under x86tso, WRC's.  The others need store buffers: SB's weak
 * state both at once, so no schedule (a free run is that); 3.SB's and
 * 4.SB's all-zero states fold onto two lanes; a state whose three threads
 * all overlap pairwise folds onto two by a switch; a store that must stay
 * buffered across other threads is held, and an access that must fall
 * between two of a thread's stretches it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tests/unit/unit_litmus.h"
#include "frontend/frontend.h"
#include "harness/harness.h"
#include "ir/lower.h"
#include "model/model.h"

/* The schedules of TEXT under x86tso. */
static char *schedules(const char *text, int *nstates)
{
    diag d = {0};
    ir_test *t = unit_litmus(text);
    model *m = model_load("x86tso", &d);
    assert_non_null(m);
    bset *b = model_run(m, t, &d);
    assert_non_null(b);
    *nstates = b->nstates;
    char *s = harness_schedules_arg(m, t, b, &d);
    assert_non_null(s);
    bset_free(b);
    model_free(m);
    ir_test_free(t);
    return s;
}

static void sb_serial_states_only(void **state)
{
    (void)state;
    int n;
    char *s = schedules("X86 SB\n{ }\n P0 | P1 ;\n MOV [x],$1 | MOV [y],$1 ;\n"
                        " MOV EAX,[y] | MOV EAX,[x] ;\nexists (0:EAX=0 /\\ 1:EAX=0)\n", &n);
    assert_int_equal(n, 4);
    /* states in herd's order: 00, 01, 10, 11 (0:EAX, 1:EAX).  01: P0 read y
     * before P1 wrote it and P1 saw x=1: P0 then P1.  10: P1 then P0.  11:
     * P0's store (up to its access 1), P1 whole, P0's load.  00 needs a
     * store buffer, which no interleaving has: both threads together, each
     * store held back while its thread's load goes ahead ("h"). */
    assert_string_equal(s, "0:0h,0h;1:=0,1;2:=1,0;3:=0.1,1,0");
    free(s);
}

static void mp_orders_of_threads(void **state)
{
    (void)state;
    int n;
    char *s = schedules("X86 MP\n{ }\n P0 | P1 ;\n MOV [x],$1 | MOV EAX,[y] ;\n"
                        " MOV [y],$1 | MOV EBX,[x] ;\nexists (1:EAX=1 /\\ 1:EBX=0)\n", &n);
    assert_int_equal(n, 3);
    /* 00: P1 before P0; 01: x seen, y not: P0's store of x, P1 whole,
     * P0's store of y; 11: P0 then P1 */
    assert_string_equal(s, "0:=1,0;1:=0.1,1,0;2:=0,1");
    free(s);
}

static void iriw_states_interleave(void **state)
{
    (void)state;
    int n;
    char *s = schedules("X86 IRIW\n{ }\n P0 | P1 | P2 | P3 ;\n MOV [x],$1 | MOV [y],$1 | MOV EAX,[x] | MOV EAX,[y] ;\n"
                        " | | MOV EBX,[y] | MOV EBX,[x] ;\nexists (2:EAX=1 /\\ 2:EBX=0 /\\ 3:EAX=1 /\\ 3:EBX=0)\n",
                        &n);
    assert_int_equal(n, 15);
    /* x86 forbids the readers disagreeing, so each of the 15 states is
     * sequentially consistent, and each gets an interleaving.  State 5
     * (P2 x=0 y=1, P3 y=0 x=1): P2's read of x, P0, P3 whole, P1, P2's
     * read of y.  State 0 (nothing seen): both readers before both
     * writers. */
    assert_non_null(strstr(s, ";5:=2.1,0,3,1,2;"));
    assert_true(strncmp(s, "0:=2,3,0,1;", 11) == 0);
    int states = 1;
    for (const char *p = s; (p = strchr(p, ';')); p++, states++)
        assert_true(strchr(p, '=') != NULL);
    assert_int_equal(states, 15);
    free(s);
}

/* WRC's state where P1 reads x=0 and P2 reads y=0 then x=1: a cycle over
 * the three threads at the level of whole threads, but one CPU switching
 * between them makes it on every instance. */
static void wrc_interleaves_writer_between_readers(void **state)
{
    (void)state;
    int n;
    char *s = schedules("X86 WRC\n{ }\n P0 | P1 | P2 ;\n MOV [x],$1 | MOV EAX,[x] | MOV EAX,[y] ;\n"
                        " | MOV [y],$1 | MOV EBX,[x] ;\nexists (1:EAX=1 /\\ 2:EAX=1 /\\ 2:EBX=0)\n", &n);
    assert_int_equal(n, 7);
    /* states in herd's order over 1:EAX, 2:EAX, 2:EBX: state 1 is 0,0,1:
     * P1's read of x, P0 whole, P2 whole, P1's store of y */
    assert_non_null(strstr(s, ";1:=1.1,0,2,1;"));
    free(s);
}

/* SB's weak state cannot fold: both threads must be in flight at once;
 * 3.SB's and 4.SB's can. */
static void sb_folds_only_with_three_threads(void **state)
{
    (void)state;
    int n;
    char *s = schedules("X86 3.SB\n{ }\n P0 | P1 | P2 ;\n MOV [x],$1 | MOV [y],$1 | MOV [z],$1 ;\n"
                        " MOV EAX,[y] | MOV EAX,[z] | MOV EAX,[x] ;\nexists (0:EAX=0 /\\ 1:EAX=0 /\\ 2:EAX=0)\n",
                        &n);
    assert_int_equal(n, 8);
    /* three threads' all-zero state: two may run one after the other (the
     * first's read races nobody), the third beside them: two lanes.  With
     * a fence between P0 and P1, P2's store would have to stay invisible
     * from its load of x, through P0's store and P1's load of z, to its
     * store of z (a hold); P1 loads nothing P0 stores, so no fence ("n"):
     * the lane is one thread storing x and y, then loading y and z, and
     * the state is SB's weak one between it and P2, with every store held
     * back: one late store would do, any of the three, but with none held
     * the state showed only by luck (harness/lanes.c's hold_sc_cycles) */
    assert_true(strncmp(s, "0:0.0.0h,0.0.1hn,0.1.0h;", 24) == 0);
    free(s);
    s = schedules("X86 4.SB\n{ }\n P0 | P1 | P2 | P3 ;\n MOV [x],$1 | MOV [y],$1 | MOV [z],$1 | MOV [a],$1 ;\n"
                  " MOV EAX,[y] | MOV EAX,[z] | MOV EAX,[a] | MOV EAX,[x] ;\n"
                  "exists (0:EAX=0 /\\ 1:EAX=0 /\\ 2:EAX=0 /\\ 3:EAX=0)\n", &n);
    assert_int_equal(n, 16);
    /* P0, P1, P2 as one thread's code on a lane, P3 beside it */
    assert_true(strncmp(s, "0:0.0.0h,0.0.1hn,0.0.2hn,0.1.0h;", 32) == 0);
    assert_non_null(strstr(s, ";15:="));
    free(s);
    s = schedules("X86 SB\n{ }\n P0 | P1 ;\n MOV [x],$1 | MOV [y],$1 ;\n"
                  " MOV EAX,[y] | MOV EAX,[x] ;\nexists (0:EAX=0 /\\ 1:EAX=0)\n", &n);
    /* ... not folded: both on a lane of their own */
    assert_true(strncmp(s, "0:0h,0h;", 8) == 0);
    free(s);
}

/* SB+mfence+po's all-zero state: P1's load of x, P0's store of x, its
 * fence and load of y, then P1's store of y: P1's store is held back, and
 * P0's, fenced, is not (a held store ahead of the fence would hold up its
 * load as well). */
static void sb_mfence_po_holds_the_unfenced_store(void **state)
{
    (void)state;
    int n;
    char *s = schedules("X86 SB+mfence+po\n{ }\n P0 | P1 ;\n MOV [x],$1 | MOV [y],$1 ;\n MFENCE | MOV EAX,[x] ;\n"
                        " MOV EAX,[y] | ;\nexists (0:EAX=0 /\\ 1:EAX=0)\n", &n);
    assert_int_equal(n, 4);
    assert_true(strncmp(s, "0:0,0h;", 7) == 0);
    free(s);
}

/* ISA2+coi's state where P2 reads x=1 between P0's two stores to x: P2
 * runs between them.  W+RWC+coi+po+po's state where P2 reads x=1 there
 * too, but with its store of y still buffered when P1 reads y=0 after
 * x=2, has no interleaving: P0 is stretched before its second store, P1
 * follows it on a lane, and P2, on the other, is held. */
static void coi_stretches_between_stores(void **state)
{
    (void)state;
    int n;
    char *s = schedules("X86 ISA2+coi\n{ }\n P0 | P1 | P2 ;\n MOV [x],$1 | MOV EAX,[x] | MOV EAX,[y] ;\n"
                        " MOV [x],$2 | MOV [y],$1 | MOV EBX,[x] ;\n"
                        "exists ([x]=2 /\\ 1:EAX=2 /\\ 2:EAX=1 /\\ 2:EBX=0)\n", &n);
    assert_int_equal(n, 15);
    /* state 12 (herd's order): 1:EAX=2; 2:EAX=0; 2:EBX=1 */
    assert_non_null(strstr(s, ";12:=0.1,2,0,1;"));
    free(s);
    s = schedules("X86 W+RWC+coi+po+po\n{ }\n P0 | P1 | P2 ;\n MOV [x],$1 | MOV EAX,[x] | MOV [y],$1 ;\n"
                  " MOV [x],$2 | MOV EBX,[y] | MOV EAX,[x] ;\n"
                  "exists ([x]=2 /\\ 1:EAX=2 /\\ 1:EBX=0 /\\ 2:EAX=0)\n", &n);
    assert_int_equal(n, 18);
    /* state 13: 1:EAX=2; 1:EBX=0; 2:EAX=1 */
    assert_non_null(strstr(s, ";13:0.0.0/2,0.0.1,0.1.0h;"));
    free(s);
}

/* 3.SB+pos's state where P0 reads P1's x=2 over its own x=1, P1 reads
 * y=0 and P2 reads x=1: P2's load between P0's store and P1's, P1's load
 * before P2's store, P1's store before P0's load.  Every pair of the three
 * overlaps, so whole threads take three lanes; switching from P0 to P1
 * before P0's load takes two, P2 beside. */
static void switch_folds_three_overlapping_threads(void **state)
{
    (void)state;
    int n;
    char *s = schedules("X86 3.SB+pos\n{ }\n P0 | P1 | P2 ;\n MOV [x],$1 | MOV [x],$2 | MOV [y],$1 ;\n"
                        " MOV EAX,[x] | MOV EAX,[y] | MOV EAX,[x] ;\n"
                        "exists ([x]=2 /\\ 0:EAX=1 /\\ 1:EAX=0 /\\ 2:EAX=0)\n", &n);
    assert_int_equal(n, 18);
    /* state 13 (herd's order): 0:EAX=2; 1:EAX=0; 2:EAX=1; [x]=2 */
    /* P1's store must stay buffered past P2's load, and P2's past P1's */
    assert_non_null(strstr(s, ";13:0.0.0/2s1,0.0.1h,0.1.0h;"));
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sb_serial_states_only),
        cmocka_unit_test(mp_orders_of_threads),
        cmocka_unit_test(iriw_states_interleave),
        cmocka_unit_test(wrc_interleaves_writer_between_readers),
        cmocka_unit_test(sb_folds_only_with_three_threads),
        cmocka_unit_test(coi_stretches_between_stores),
        cmocka_unit_test(switch_folds_three_overlapping_threads),
        cmocka_unit_test(sb_mfence_po_holds_the_unfenced_store),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
