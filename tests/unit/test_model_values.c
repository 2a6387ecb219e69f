/* Unit tests of symbolic thread values (model/paths/values.h) and of the z3
 * value solver (model/enum/solver.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "model/enum/solver.h"
#include "model/paths/values.h"

static void test_folding(void **state)
{
    (void)state;
    vpool p = {0};
    int two = vx_const(&p, 2), three = vx_const(&p, 3);
    int five = vx_bin(&p, IR_ADD, two, three);
    assert_true(vx_is_const(&p, five));
    assert_int_equal(p.e[five].c, 5);
    assert_int_equal(vx_const(&p, 5), five);            /* shared */
    int r = vx_read(&p, 3);
    assert_int_equal(vx_read(&p, 3), r);
    int e = vx_bin(&p, IR_OR, r, vx_const(&p, 1));
    assert_false(vx_is_const(&p, e));
    assert_int_equal(p.e[e].deps, (uint64_t)1 << 3);
    ir_val vals[64] = {0}, out = -1;
    assert_false(vx_eval(&p, e, vals, 0, &out));        /* slot 3 not known yet */
    vals[3] = 4;
    assert_true(vx_eval(&p, e, vals, (uint64_t)1 << 3, &out));
    assert_int_equal(out, 5);
    int z = vx_bin(&p, IR_DIV, five, vx_const(&p, 0));  /* herd: no value; folds to 0 */
    assert_true(vx_is_const(&p, z));
    int lt = vx_bin(&p, IR_LT, vx_const(&p, -1), two);
    assert_int_equal(p.e[lt].c, 1);
    vp_free(&p);
}

/* Thread 0: slot 0 reads what thread 1 writes (its slot 0); thread 1's
 * slot 0 reads thread 0's slot 0 | 1.  Solutions: any odd value, split by
 * the condition's atoms (== 1 or not). */
static int nsol;
static ir_val seen[8][2];
static ir_val *v0, *v1;

static bool collect(void *ctx)
{
    (void)ctx;
    if (nsol < 8) {
        seen[nsol][0] = v0[0];
        seen[nsol][1] = v1[0];
    }
    nsol++;
    return true;
}

/* A value only picked by a read (an AArch64 CAS's Rs, decided by its
 * compare) keeps its value and its own dependencies, carries the pick
 * through arithmetic and folding, and is never shared with a plain one. */
static void test_picked(void **state)
{
    (void)state;
    vpool p = {0};
    int one = vx_const(&p, 1), r0 = vx_read(&p, 0), r1 = vx_read(&p, 1);
    int k = vx_picked(&p, one, (uint64_t)1 << 0);
    assert_int_not_equal(k, one);
    assert_true(vx_is_const(&p, k));
    assert_int_equal(p.e[k].c, 1);
    assert_int_equal(p.e[k].deps, 0);
    assert_int_equal(p.e[k].pdeps, 1);
    /* the plain constant 1 is still the shared one */
    assert_int_equal(vx_const(&p, 1), one);
    assert_int_equal(p.e[one].pdeps, 0);
    /* k ^ k folds to 0, still picked by slot 0 */
    int z = vx_bin(&p, IR_XOR, k, k);
    assert_true(vx_is_const(&p, z));
    assert_int_equal(p.e[z].c, 0);
    assert_int_equal(p.e[z].pdeps, 1);
    assert_int_equal(vx_const(&p, 0) == z, 0);
    /* through a read: its deps and the pick both */
    int s = vx_bin(&p, IR_ADD, vx_picked(&p, r1, (uint64_t)1 << 0), r0);
    assert_int_equal(p.e[s].deps, 3);
    assert_int_equal(p.e[s].pdeps, 1);
    assert_int_equal(vx_read(&p, 1), r1);
    /* picking by what already picks it changes nothing */
    assert_int_equal(vx_picked(&p, k, 1), k);
    vp_free(&p);
}

static void test_solver_cycle(void **state)
{
    (void)state;
    vpool pools[2] = {{0}, {0}};
    int a = vx_read(&pools[0], 0);
    int b = vx_bin(&pools[0], IR_OR, a, vx_const(&pools[0], 1));
    int c = vx_read(&pools[1], 0);
    ir_val vals0[64] = {0}, vals1[64] = {0};
    ir_val *vals[2] = {vals0, vals1};
    v0 = vals0;
    v1 = vals1;
    uint64_t known[2] = {0, 0}, used[2] = {1, 1};
    int eq_th[2] = {0, 1}, eq_slot[2] = {0, 0};
    sv_term eq_val[2] = {{1, c, 0}, {0, b, 0}};
    sv_term obs[2] = {{0, a, 0}, {1, c, 0}};
    int atom_obs[2] = {0, 1};
    ir_val atom_val[2] = {1, 1};
    sv_problem p = {
        .nthreads = 2, .pools = pools, .vals = vals, .known = known, .used = used,
        .eq_th = eq_th, .eq_slot = eq_slot, .eq_val = eq_val, .neq = 2,
        .obs = obs, .nobs = 2, .atom_obs = atom_obs, .atom_val = atom_val, .natoms = 2,
    };
    diag d = {0};
    sv_ctx *s = sv_new();
    nsol = 0;
    int n = sv_solve_all(s, &p, 16, collect, NULL, &d);
    assert_int_equal(n, 2);     /* a=c=1, and a=c=some other odd value */
    bool one = false, other = false;
    for (int i = 0; i < 2; i++) {
        assert_int_equal(seen[i][0], seen[i][1]);
        assert_true(seen[i][0] & 1);
        if (seen[i][0] == 1)
            one = true;
        else
            other = true;
    }
    assert_true(one && other);
    /* Forbid odd values by a path assumption: a & 1 == 0.  Unsatisfiable. */
    int low = vx_bin(&pools[0], IR_AND, a, vx_const(&pools[0], 1));
    sv_term cond[1] = {{0, low, 0}};
    bool nonzero[1] = {false};
    p.pools = pools;
    p.cond = cond;
    p.nonzero = nonzero;
    p.ncond = 1;
    nsol = 0;
    assert_int_equal(sv_solve_all(s, &p, 16, collect, NULL, &d), 0);
    assert_int_equal(nsol, 0);
    sv_free(s);
    vp_free(&pools[0]);
    vp_free(&pools[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_folding),
        cmocka_unit_test(test_picked),
        cmocka_unit_test(test_solver_cycle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
