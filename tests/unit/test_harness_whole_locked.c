/* Unit tests of harness_x86_whole_locked (harness/reachable.c): the states
 * of an x86 test that an execution with every locked instruction whole
 * shows.  LB+po+rmw-po's state 0:EAX=0; 1:EAX=1; [y]=1 needs XCHG's write
 * co-before the store its read read, which herd's x86tso allows and no
 * x86 does; 2+2W with XCHGs splits nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tests/unit/unit_litmus.h"
#include "harness/harness.h"
#include "model/model.h"

/* NSTATES: x86tso's states of TEXT; returns how many are whole, and in
 * WHOLE (at least NSTATES long) which. */
static int whole_states(const char *text, int *nstates, bool *whole)
{
    diag d = {0};
    ir_test *t = unit_litmus(text);
    model *m = model_load("x86tso", &d);
    assert_non_null(m);
    bset *b = model_run(m, t, &d);
    assert_non_null(b);
    bset *w = harness_x86_whole_locked(m, t, b, &d);
    assert_non_null(w);
    *nstates = b->nstates;
    for (int k = 0; k < b->nstates; k++)
        whole[k] = bset_find(w, b->states[k].vals) >= 0;
    int n = w->nstates;
    bset_free(w);
    bset_free(b);
    model_free(m);
    ir_test_free(t);
    return n;
}

static void split_xchg_state_left_out(void **state)
{
    (void)state;
    bool whole[8];
    int n;
    int k = whole_states("X86 LB+po+rmw-po\n{ }\n P0 | P1 ;\n MOV EAX,[x] | MOV EAX,$2 ;\n"
                         " MOV [y],$1 | XCHG [y],EAX ;\n | MOV [x],$1 ;\n"
                         "exists ([y]=2 /\\ 0:EAX=1 /\\ 1:EAX=1)\n", &n, whole);
    assert_int_equal(n, 4);
    assert_int_equal(k, 3);
    /* herd's order over 0:EAX, 1:EAX, [y]: 0,0,1; 0,1,1; 0,1,2; 1,0,1 */
    assert_true(whole[0] && !whole[1] && whole[2] && whole[3]);
}

static void whole_xchgs_keep_every_state(void **state)
{
    (void)state;
    bool whole[8];
    int n;
    int k = whole_states("X86 2+2W+rmws\n{ }\n P0 | P1 ;\n MOV EAX,$1 | MOV EAX,$1 ;\n"
                         " XCHG [x],EAX | XCHG [y],EAX ;\n MOV [y],$2 | MOV [x],$2 ;\n"
                         "exists ([x]=1 /\\ [y]=1)\n", &n, whole);
    assert_int_equal(k, n);
    assert_true(n >= 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(split_xchg_state_left_out),
        cmocka_unit_test(whole_xchgs_keep_every_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
