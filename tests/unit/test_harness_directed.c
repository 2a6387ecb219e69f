/* Unit tests of directed stress (harness/directed.c): the schedules worked
 * out from the model's executions, checked by hand.  SB: the two states
 * with one thread's write seen by the other need that thread first; the
 * weak one (both store buffers) and the one where each sees the other need
 * both together, so no schedule.  MP+mfences: the three allowed states are
 * orders of whole threads.  IRIW's split-reader state and WRC's state
 * that needs P2's reads around P0's store fold onto two lanes; a state
 * whose three threads all overlap pairwise folds onto two by a switch. */
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
     * P1's store, P0 whole, P1's load: one lane, switching from P1 to P0
     * before P1's access 1.  00 needs both store buffers at once: none. */
    assert_string_equal(s, "1:0,1;2:1,0;3:0.0.1,0.0.0s1");
    free(s);
}

static void mp_orders_of_threads(void **state)
{
    (void)state;
    int n;
    char *s = schedules("X86 MP\n{ }\n P0 | P1 ;\n MOV [x],$1 | MOV EAX,[y] ;\n"
                        " MOV [y],$1 | MOV EBX,[x] ;\nexists (1:EAX=1 /\\ 1:EBX=0)\n", &n);
    assert_int_equal(n, 3);
    /* 00: P1 before P0; 01: x seen, y not: P0's x before P1's read of x,
     * P1's read of y before P0's y, a cycle between the two threads, but
     * one a switch makes: P1's read of y, P0 whole, P1's read of x;
     * 11: P0 then P1 */
    assert_string_equal(s, "0:1,0;1:0.0.1,0.0.0s1;2:0,1");
    free(s);
}

static void iriw_split_readers_fold_onto_two_lanes(void **state)
{
    (void)state;
    int n;
    char *s = schedules("X86 IRIW\n{ }\n P0 | P1 | P2 | P3 ;\n MOV [x],$1 | MOV [y],$1 | MOV EAX,[x] | MOV EAX,[y] ;\n"
                        " | | MOV EBX,[y] | MOV EBX,[x] ;\nexists (2:EAX=1 /\\ 2:EBX=0 /\\ 3:EAX=1 /\\ 3:EBX=0)\n",
                        &n);
    assert_int_equal(n, 15);
    /* 0:EAX..: state 5 (P2 x=0 y=1, P3 y=0 x=1) is one cycle over all
     * four threads, but only P3 must be in flight beside the others: on
     * one lane P1 stores y, P2 reads x=0 and y=1, P0 stores x, each after
     * the one before; P3 reads y before P1's store and x after P0's, on a
     * lane of its own, stretched before its second read (access 1: bit
     * 1, "/2").  State 0 (nothing seen): both readers before both writers,
     * groups as before */
    /* P0 follows P2 with no fence between ("n"): it loads nothing */
    assert_non_null(strstr(s, ";5:0.0.2n,0.0.0,0.0.1,0.1.0/2;"));
    assert_true(strncmp(s, "0:", 2) == 0);
    int groups[4];
    assert_int_equal(sscanf(s, "0:%d,%d,%d,%d", &groups[0], &groups[1], &groups[2], &groups[3]), 4);
    assert_true(groups[2] < groups[0] && groups[2] < groups[1]);
    assert_true(groups[3] < groups[0] && groups[3] < groups[1]);
    free(s);
}

/* WRC's state where P1 reads x=0 and P2 reads y=0 then x=1: a cycle over
 * the three threads at the level of whole threads, but P1 can finish
 * before P0 begins, on one lane, while P2 reads on the other; and with
 * switches one lane does it all, on every instance. */
static void wrc_folds_writer_after_reader(void **state)
{
    (void)state;
    int n;
    char *s = schedules("X86 WRC\n{ }\n P0 | P1 | P2 ;\n MOV [x],$1 | MOV EAX,[x] | MOV EAX,[y] ;\n"
                        " | MOV [y],$1 | MOV EBX,[x] ;\nexists (1:EAX=1 /\\ 2:EAX=1 /\\ 2:EBX=0)\n", &n);
    assert_int_equal(n, 7);
    /* states in herd's order over 1:EAX, 2:EAX, 2:EBX: state 1 is 0,0,1:
     * one lane switching twice, P1's read of x, P2's read of y, P0 whole,
     * P2's read of x, P1's store of y (P1 switched to P2 before its
     * access 1, P2 to P0 before its access 1) */
    assert_non_null(strstr(s, ";1:0.0.2,0.0.0s1,0.0.1s1;"));
    free(s);
}

/* SB's weak state cannot fold: both threads must be in flight at once;
 * 3.SB's can. */
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
     * the state is SB's weak one between it and P2 */
    assert_true(strncmp(s, "0:0.0.0,0.0.1n,0.1.0;", 21) == 0);
    free(s);
    s = schedules("X86 SB\n{ }\n P0 | P1 ;\n MOV [x],$1 | MOV [y],$1 ;\n"
                  " MOV EAX,[y] | MOV EAX,[x] ;\nexists (0:EAX=0 /\\ 1:EAX=0)\n", &n);
    assert_true(strncmp(s, "0:", 2) != 0);
    assert_null(strstr(s, ";0:"));
    free(s);
}

/* SB+mfence+po's all-zero state: P1's load of x, P0's store of x, its
 * fence and load of y, then P1's store of y: P1's store is held back; SB
 * itself needs both stores buffered at once, which no hold says. */
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

/* ISA2+coi's state where P2 reads x=1 between P0's two stores to x: P0
 * is stretched before its second store. */
static void coi_stretches_between_stores(void **state)
{
    (void)state;
    int n;
    char *s = schedules("X86 ISA2+coi\n{ }\n P0 | P1 | P2 ;\n MOV [x],$1 | MOV EAX,[x] | MOV EAX,[y] ;\n"
                        " MOV [x],$2 | MOV [y],$1 | MOV EBX,[x] ;\n"
                        "exists ([x]=2 /\\ 1:EAX=2 /\\ 2:EAX=1 /\\ 2:EBX=0)\n", &n);
    assert_int_equal(n, 15);
    /* state 12 (herd's order): 1:EAX=2; 2:EAX=0; 2:EBX=1: P0 and P2
     * together, P2 whole between P0's stores (a switch before P0's access
     * 1), then P1 */
    assert_non_null(strstr(s, ";12:0.0.0s1,1.0.0,0.0.1;"));
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
    assert_non_null(strstr(s, ";13:0.0.0/2s1,0.0.1,0.1.0;"));
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sb_serial_states_only),
        cmocka_unit_test(mp_orders_of_threads),
        cmocka_unit_test(iriw_split_readers_fold_onto_two_lanes),
        cmocka_unit_test(wrc_folds_writer_after_reader),
        cmocka_unit_test(sb_folds_only_with_three_threads),
        cmocka_unit_test(coi_stretches_between_stores),
        cmocka_unit_test(switch_folds_three_overlapping_threads),
        cmocka_unit_test(sb_mfence_po_holds_the_unfenced_store),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
