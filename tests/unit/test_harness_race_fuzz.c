/* Unit tests of harness_fuzz_plan and harness_fuzz_seen
 * (harness/race_fuzz.c): which states prove that the hybrid detector's
 * pairs ran unordered, and which observed states confirm them.  MP with a
 * plain x and a release/acquire flag races on x when the flag read sees 0;
 * guarding the read of x by the flag leaves the hybrid's x pair a false
 * alarm no state proves. */
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

static const char mp_na[] =
    "C MP+na+rel\n{ x = 0; y = 0; }\n"
    "P0 (int *x, atomic_int *y) {\n  *x = 1;\n  atomic_store_explicit(y, 1, memory_order_release);\n}\n"
    "P1 (int *x, atomic_int *y) {\n  int r0 = atomic_load_explicit(y, memory_order_acquire);\n  int r1 = *x;\n}\n"
    "exists (1:r0=1 /\\ 1:r1=0)\n";

static const char mp_guard[] =
    "C MP+guard\n{ x = 0; y = 0; }\n"
    "P0 (int *x, atomic_int *y) {\n  *x = 1;\n  atomic_store_explicit(y, 1, memory_order_release);\n}\n"
    "P1 (int *x, atomic_int *y) {\n  int r1 = -1;\n  int r0 = atomic_load_explicit(y, memory_order_acquire);\n"
    "  if (r0 == 1) { r1 = *x; }\n}\n"
    "exists (1:r0=1 /\\ 1:r1=0)\n";

typedef struct planned {
    ir_test *t;
    model *m;
    detectors *dt;
    harness_fuzz f;
} planned;

static void plan(planned *p, const char *text)
{
    diag d = {0};
    p->t = unit_litmus(text);
    p->m = model_load("rc11", &d);
    assert_non_null(p->m);
    p->dt = detectors_run(p->m, p->t, &d);
    assert_non_null(p->dt);
    assert_true(harness_fuzz_plan(&p->f, p->m, p->t, p->dt, &d));
}

static void unplan(planned *p)
{
    harness_fuzz_free(&p->f);
    detectors_free(p->dt);
    model_free(p->m);
    ir_test_free(p->t);
}

/* The target on location NAME. */
static int target_on(const planned *p, const char *name)
{
    for (int k = 0; k < p->f.ntargets; k++) {
        races_pair q = harness_fuzz_pair(&p->f, k);
        if (!strcmp(p->t->locs[q.a.loc].name, name))
            return k;
    }
    fail_msg("no target on %s", name);
    return -1;
}

static void flag_read_zero_proves_the_race(void **state)
{
    (void)state;
    planned p;
    plan(&p, mp_na);
    assert_int_equal(p.f.ntargets, 2);
    int kx = target_on(&p, "x"), ky = target_on(&p, "y");
    /* rc11's states over 1:r0, 1:r1: 0,0; 0,1; 1,1 (1,0 needs the race
     * and sw at once).  r0=0: nothing orders either pair; r0=1: sw
     * orders both. */
    const bset *b = p.dt->b;
    assert_int_equal(b->nstates, 3);
    for (int s = 0; s < b->nstates; s++) {
        bool r0 = b->states[s].vals[0] != 0;
        assert_int_equal(p.f.proves[kx * b->nstates + s], !r0);
        assert_int_equal(p.f.proves[ky * b->nstates + s], !r0);
        assert_int_equal(p.f.aim[s], !r0);
    }
    assert_int_equal(p.f.nproving[kx], 2);
    unplan(&p);
}

static void guarded_read_is_a_false_alarm(void **state)
{
    (void)state;
    planned p;
    plan(&p, mp_guard);
    assert_int_equal(p.f.ntargets, 2);
    int kx = target_on(&p, "x"), ky = target_on(&p, "y");
    assert_int_equal(p.f.nproving[kx], 0);
    assert_int_equal(p.f.nproving[ky], 1);
    harness_verdict v = {0};
    assert_non_null(harness_fuzz_why(&p.f, &v, kx));
    assert_non_null(strstr(harness_fuzz_why(&p.f, &v, kx), "false alarm"));
    unplan(&p);
}

static void confirmed_only_by_an_observed_proving_state(void **state)
{
    (void)state;
    planned p;
    plan(&p, mp_na);
    const bset *b = p.dt->b;
    int kx = target_on(&p, "x");
    /* observed: 1:r0=1; 1:r1=1 only, 7 times: it proves nothing */
    harness_hist h = {0};
    harness_outcome o = {0};
    ir_val vals[2] = {1, 1};
    o.vals = vals;
    o.count = 7;
    h.outcomes = &o;
    h.noutcomes = 1;
    h.nobs = 2;
    int st = bset_find(b, vals);
    assert_true(st >= 0);
    harness_verdict v = {0};
    v.state = &st;
    harness_fuzz_seen(&v, &p.f, &h);
    assert_int_equal(v.fuzz_count[kx], 0);
    assert_non_null(strstr(harness_fuzz_why(&p.f, &v, kx), "none of the states"));
    free(v.fuzz_count);
    free(v.fuzz_states);
    /* observed: 1:r0=0; 1:r1=1, 5 times: it confirms both */
    vals[0] = 0;
    st = bset_find(b, vals);
    assert_true(st >= 0);
    o.count = 5;
    v = (harness_verdict){0};
    v.state = &st;
    harness_fuzz_seen(&v, &p.f, &h);
    for (int k = 0; k < p.f.ntargets; k++) {
        assert_int_equal(v.fuzz_count[k], 5);
        assert_int_equal(v.fuzz_states[k], 1);
        assert_null(harness_fuzz_why(&p.f, &v, k));
    }
    free(v.fuzz_count);
    free(v.fuzz_states);
    unplan(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(flag_read_zero_proves_the_race),
        cmocka_unit_test(guarded_read_is_a_false_alarm),
        cmocka_unit_test(confirmed_only_by_an_observed_proving_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
