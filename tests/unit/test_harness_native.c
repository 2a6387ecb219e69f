/* One native run end to end through the real generator, compiler and
 * runtime: a hand-built C11 SB test is generated, built (then found in the
 * cache), run, and its histogram read back with counts that add up. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "harness/harness.h"

static char cache[] = "/tmp/litmusc-native-test-XXXXXX";

static ir_cond *atom(int th, const char *r, ir_val v)
{
    ir_cond *c = ir_cond_new(IR_C_ATOM);
    c->lhs.kind = IR_OBS_REG;
    c->lhs.thread = th;
    c->lhs.reg = xstrdup(r);
    c->rhs = v;
    return c;
}

/* C SB with relaxed atomics: P_i stores 1 to one location, loads the other. */
static ir_test *sb(void)
{
    ir_test *t = ir_test_new("SB", IR_ARCH_C);
    int x = ir_add_loc(t, "x", IR_T_INT), y = ir_add_loc(t, "y", IR_T_INT);
    t->locs[x].atomic = t->locs[y].atomic = true;
    for (int i = 0; i < 2; i++) {
        ir_thread *th = ir_add_thread(t, i, i ? "P1" : "P0");
        int b = ir_add_block(th);
        ir_instr *s = ir_emit(th, b, IR_STORE);
        s->addr = ir_imm(IR_ADDR(i ? y : x));
        s->a = ir_imm(1);
        s->mode = IR_MO_RLX;
        int v = ir_new_val(th);
        ir_instr *l = ir_emit(th, b, IR_LOAD);
        l->dst = v;
        l->addr = ir_imm(IR_ADDR(i ? x : y));
        l->mode = IR_MO_RLX;
        ir_emit(th, b, IR_RET);
        ir_set_final_reg(th, "r0", ir_value(v));
    }
    ir_cond_free(t->cond);
    t->quant = IR_Q_EXISTS;
    t->cond = ir_cond_new(IR_C_AND);
    t->cond->l = atom(0, "r0", 0);
    t->cond->r = atom(1, "r0", 0);
    ir_finish(t);
    diag d = {0};
    if (!ir_verify(t, &d))
        fail_msg("%s", d.msg);
    return t;
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(cache) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char *cmd = xasprintf("rm -rf '%s'", cache);
    int r = system(cmd);
    free(cmd);
    return r;
}

static void runs_and_counts(void **state)
{
    (void)state;
    ir_test *t = sb();
    diag d = {0};
    char *ver = harness_cc_version("cc", &d);
    assert_non_null(ver);
    char *args[] = {"-s", "2000", "-r", "3", "--sync", "user", "--layout", "shuffle", NULL};
    harness_native_opts o = {0};
    native_opts_init(&o.gen);
    o.cc = "cc";
    o.cc_version = ver;
    o.cache_dir = cache;
    o.run_args = args;
    o.timeout_s = 60;
    harness_run_result r;
    if (!harness_run_native(t, &o, &r, &d))
        fail_msg("%s", d.msg);
    assert_false(r.cached);
    assert_null(r.status);
    assert_non_null(r.hist);
    assert_int_equal(r.hist->iterations, 6000);
    assert_int_equal(r.hist->nobs, 2);
    uint64_t sum = 0;
    for (int i = 0; i < r.hist->noutcomes; i++) {
        sum += r.hist->outcomes[i].count;
        for (int k = 0; k < 2; k++)
            assert_true(r.hist->outcomes[i].vals[k] == 0 || r.hist->outcomes[i].vals[k] == 1);
    }
    assert_int_equal(sum, 6000);
    assert_string_equal(harness_config_get(r.hist, "sync"), "user");
    assert_string_equal(harness_config_get(r.hist, "layout"), "shuffle");
    assert_non_null(strstr(r.compiler, "cc -O2"));
    harness_run_result_free(&r);
    /* The same test again: served from the cache. */
    assert_true(harness_run_native(t, &o, &r, &d));
    assert_true(r.cached);
    harness_run_result_free(&r);
    free(ver);
    ir_test_free(t);
}

/* A runner the runtime refuses (bad option) is an environment failure
 * naming the runner's complaint. */
static void runner_refusal_is_reported(void **state)
{
    (void)state;
    ir_test *t = sb();
    diag d = {0};
    char *args[] = {"--sync", "nonsense", NULL};
    harness_native_opts o = {0};
    native_opts_init(&o.gen);
    o.cc = "cc";
    o.cache_dir = cache;
    o.run_args = args;
    o.timeout_s = 60;
    harness_run_result r;
    assert_false(harness_run_native(t, &o, &r, &d));
    assert_int_equal(d.status, 3);
    assert_non_null(strstr(d.msg, "SB: the runner exited with status 2"));
    harness_run_result_free(&r);
    ir_test_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(runs_and_counts),
        cmocka_unit_test(runner_refusal_is_reported),
    };
    return cmocka_run_group_tests_name("harness_native", tests, setup, teardown);
}
