/* Unit tests for the jcstress source generator (backends/jcstress), on IR
 * and behaviour sets built by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "backends/jcstress/jcstress.h"
#include "ir/ir.h"
#include "model/model.h"
#include "util/mem.h"

static ir_cond *atom(ir_obs_kind kind, int thread_or_loc, const char *reg, ir_val v)
{
    ir_cond *c = ir_cond_new(IR_C_ATOM);
    c->lhs.kind = kind;
    if (kind == IR_OBS_REG) {
        c->lhs.thread = thread_or_loc;
        c->lhs.reg = xstrdup(reg);
    } else {
        c->lhs.loc = thread_or_loc;
    }
    c->rhs = v;
    return c;
}

static ir_cond *both(ir_cond *l, ir_cond *r)
{
    ir_cond *c = ir_cond_new(IR_C_AND);
    c->l = l;
    c->r = r;
    return c;
}

/* NT threads; thread i stores 1 to loc i and loads loc i+1 (mod NT) into
 * r0, in mode M.  The condition: every r0 is 0 (and [x0]=1 if MEM). */
static ir_test *ring(int nt, ir_mode m, ir_quant q, bool mem)
{
    ir_test *t = ir_test_new("Ring", IR_ARCH_JAVA);
    t->file = xstrdup("ring.litmus");
    for (int i = 0; i < nt; i++) {
        char name[16];
        snprintf(name, sizeof name, "x%d", i);
        ir_add_loc(t, name, IR_T_INT);
    }
    ir_cond *c = NULL;
    for (int i = 0; i < nt; i++) {
        ir_thread *th = ir_add_thread(t, i, "Thread");
        int b = ir_add_block(th);
        ir_instr *st = ir_emit(th, b, IR_STORE);
        st->addr = ir_imm(IR_ADDR(i));
        st->a = ir_imm(1);
        st->mode = m;
        int v = ir_new_val(th);
        ir_instr *ld = ir_emit(th, b, IR_LOAD);
        ld->dst = v;
        ld->addr = ir_imm(IR_ADDR((i + 1) % nt));
        ld->mode = m;
        ir_emit(th, b, IR_RET);
        ir_set_final_reg(th, "r0", ir_value(v));
        ir_cond *a = atom(IR_OBS_REG, i, "r0", 0);
        c = c ? both(c, a) : a;
    }
    if (mem)
        c = both(c, atom(IR_OBS_MEM, 0, NULL, 1));
    free(t->cond);
    t->cond = c;
    t->quant = q;
    ir_finish(t);
    return t;
}

/* The behaviour set of every combination of 0/1 over T's observables
 * (the P flag computed from the condition), without SKIP (a bit mask
 * over the observables, -1 for none). */
static bset *all_states(const ir_test *t, long skip)
{
    bset *b = xcalloc(1, sizeof *b);
    b->obs = ir_observables(t, &b->nobs);
    int n = 1 << b->nobs;
    b->states = xcalloc((size_t)n, sizeof *b->states);
    for (int s = 0; s < n; s++) {
        if (s == skip)
            continue;
        bset_state *st = &b->states[b->nstates++];
        st->vals = xcalloc((size_t)b->nobs, sizeof *st->vals);
        for (int k = 0; k < b->nobs; k++)
            st->vals[k] = (s >> (b->nobs - 1 - k)) & 1;
        st->cond = ir_cond_eval(t->cond, b->obs, st->vals, b->nobs);
    }
    return b;
}

static void free_states(bset *b)
{
    for (int i = 0; i < b->nstates; i++)
        free(b->states[i].vals);
    free(b->states);
    free(b->obs);
    free(b);
}

static char *generate(const ir_test *t, const bset *b)
{
    jcstress_opts o = {"litmusc.generated", "Ring", "jam21"};
    diag d = {0};
    char *s = jcstress_generate(t, b, &o, &d);
    assert_non_null(s);
    return s;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

static void test_sb_outcomes(void **state)
{
    (void)state;
    ir_test *t = ring(2, IR_JM_VOLATILE, IR_Q_EXISTS, false);
    bset *b = all_states(t, 0);   /* volatile SB: 0, 0 is not allowed */
    char *s = generate(t, b);
    assert_non_null(strstr(s, "package litmusc.generated;"));
    assert_non_null(strstr(s, "import org.openjdk.jcstress.infra.results.II_Result;"));
    assert_non_null(strstr(s, "@State\npublic class Ring {"));
    assert_int_equal(count(s, "@Actor"), 2);
    assert_int_equal(count(s, "@Outcome(id = "), 3);
    assert_null(strstr(s, "@Outcome(id = \"0, 0\""));
    assert_non_null(strstr(s, "@Outcome(id = \"1, 1\", expect = Expect.ACCEPTABLE, "));
    assert_non_null(strstr(s, "@Outcome(expect = Expect.FORBIDDEN"));
    assert_non_null(strstr(s, "VH_x0.setVolatile(this, 1);"));
    assert_non_null(strstr(s, "r.r2 = v0;"));
    assert_non_null(strstr(s, "    int x0;\n"));        /* no initialiser: reset in place */
    assert_null(strstr(s, "@Arbiter\n"));
    assert_non_null(strstr(s, "exists (0:r0=0 /\\\\ 1:r0=0)"));
    free(s);
    free_states(b);
    ir_test_free(t);
}

static void test_interesting_state(void **state)
{
    (void)state;
    ir_test *t = ring(2, IR_JM_PLAIN, IR_Q_EXISTS, false);
    bset *b = all_states(t, -1);
    char *s = generate(t, b);
    assert_non_null(strstr(s, "@Outcome(id = \"0, 0\", expect = Expect.ACCEPTABLE_INTERESTING"));
    assert_int_equal(count(s, "ACCEPTABLE_INTERESTING"), 1);
    free(s);
    free_states(b);
    ir_test_free(t);
}

/* forall: the interesting states are the counterexamples. */
static void test_forall_counterexamples(void **state)
{
    (void)state;
    ir_test *t = ring(2, IR_JM_PLAIN, IR_Q_FORALL, false);
    bset *b = all_states(t, -1);
    char *s = generate(t, b);
    assert_int_equal(count(s, "ACCEPTABLE_INTERESTING"), 3);
    assert_non_null(strstr(s, "@Outcome(id = \"0, 0\", expect = Expect.ACCEPTABLE, "));
    assert_true(jcstress_interesting(t, false));
    assert_false(jcstress_interesting(t, true));
    free(s);
    free_states(b);
    ir_test_free(t);
}

static void test_memory_needs_arbiter(void **state)
{
    (void)state;
    ir_test *t = ring(3, IR_JM_OPAQUE, IR_Q_EXISTS, true);
    t->locs[2].init = 7;
    bset *b = all_states(t, -1);
    char *s = generate(t, b);
    assert_non_null(strstr(s, "IIII_Result"));
    assert_non_null(strstr(s, "@Arbiter\n    public void arbiter(IIII_Result r) {\n        r.r4 = this.x0;"));
    assert_non_null(strstr(s, "    int x2 = 7;\n"));
    free(s);
    free_states(b);
    ir_test_free(t);
}

/* Nine values: no shipped class, so a nested @Result class. */
static void test_custom_result_class(void **state)
{
    (void)state;
    ir_test *t = ring(9, IR_JM_OPAQUE, IR_Q_EXISTS, false);
    bset *b = xcalloc(1, sizeof *b);
    b->obs = ir_observables(t, &b->nobs);
    b->nstates = 1;
    b->states = xcalloc(1, sizeof *b->states);
    b->states[0].vals = xcalloc(9, sizeof(ir_val));
    b->states[0].vals[8] = -1;
    char *s = generate(t, b);
    assert_non_null(strstr(s, "@Result\n    public static class Observed implements java.io.Serializable {"));
    assert_non_null(strstr(s, "public int jcstress_trap;"));
    assert_non_null(strstr(s, "public int r9;"));
    assert_non_null(strstr(s, "public boolean equals(Object o)"));
    assert_non_null(strstr(s, "public int hashCode()"));
    assert_non_null(strstr(s, "return \"\" + r1 + \", \" + r2"));
    assert_non_null(strstr(s, "public void actor8(Observed r)"));
    assert_non_null(strstr(s, "@Outcome(id = \"0, 0, 0, 0, 0, 0, 0, 0, -1\""));
    assert_null(strstr(s, "infra.results"));
    free(s);
    free_states(b);
    ir_test_free(t);
}

/* A race makes the test undefined: every outcome is acceptable. */
static void test_undefined_accepts_all(void **state)
{
    (void)state;
    ir_test *t = ring(2, IR_JM_PLAIN, IR_Q_EXISTS, false);
    bset *b = all_states(t, -1);
    b->undef = true;
    char *s = generate(t, b);
    assert_null(strstr(s, "Expect.FORBIDDEN"));
    assert_non_null(strstr(s, "@Outcome(expect = Expect.ACCEPTABLE, desc = \"jam21 flags a data race"));
    free(s);
    free_states(b);
    ir_test_free(t);
}

/* Observables are matched by identity, whatever order the set lists them in. */
static void test_observables_by_identity(void **state)
{
    (void)state;
    ir_test *t = ring(2, IR_JM_PLAIN, IR_Q_EXISTS, false);
    bset *b = all_states(t, -1);
    ir_obs o = b->obs[0];
    b->obs[0] = b->obs[1];
    b->obs[1] = o;
    for (int i = 0; i < b->nstates; i++) {
        ir_val v = b->states[i].vals[0];
        b->states[i].vals[0] = b->states[i].vals[1];
        b->states[i].vals[1] = v;
    }
    b->states[1].vals[0] = 5;   /* state (0,1) becomes 1:r0=5, 0:r0=0 */
    char *s = generate(t, b);
    assert_non_null(strstr(s, "@Outcome(id = \"0, 5\""));
    free(s);
    /* a set for other observables is refused */
    b->obs[0].reg = "r7";
    jcstress_opts op = {"p", "Ring", "jam21"};
    diag d = {0};
    assert_null(jcstress_generate(t, b, &op, &d));
    assert_true(d.set);
    assert_int_equal(d.status, 3);
    b->obs[0].reg = b->obs[1].reg;
    free_states(b);
    ir_test_free(t);
}

static void test_hostile_names(void **state)
{
    (void)state;
    ir_test *t = ring(2, IR_JM_PLAIN, IR_Q_EXISTS, false);
    free(t->name);
    t->name = xstrdup("a\"); System.exit(1); //\\u000a");
    free(t->locs[0].name);
    t->locs[0].name = xstrdup("class");
    free(t->file);
    t->file = xstrdup("evil\\u000a.litmus\nnext");
    bset *b = all_states(t, -1);
    char *s = generate(t, b);
    assert_non_null(strstr(s, "litmus test a\\\"); System.exit(1); //\\\\u000a,"));
    assert_non_null(strstr(s, "int class_;"));
    assert_non_null(strstr(s, "// Generated by litmusc from evil\\\\u000a.litmus next\n"));
    free(s);
    free_states(b);
    ir_test_free(t);
}

/* No observables: every result prints as "", jcstress's default case. */
static void test_nothing_observed(void **state)
{
    (void)state;
    ir_test *t = ring(2, IR_JM_PLAIN, IR_Q_FORALL, false);
    free(t->cond->l->lhs.reg);
    free(t->cond->r->lhs.reg);
    free(t->cond->l);
    free(t->cond->r);
    t->cond->kind = IR_C_TRUE;
    t->cond->l = t->cond->r = NULL;
    bset *b = all_states(t, -1);
    assert_int_equal(b->nobs, 0);
    assert_int_equal(b->nstates, 1);
    char *s = generate(t, b);
    assert_null(strstr(s, "@Outcome(id"));
    assert_int_equal(count(s, "@Outcome("), 1);
    assert_non_null(strstr(s, "@Outcome(expect = Expect.ACCEPTABLE, desc = \"allowed by jam21"));
    assert_non_null(strstr(s, "public static class Observed"));
    free(s);
    b->nstates = 0;   /* nothing allowed at all: the default forbids */
    s = generate(t, b);
    assert_non_null(strstr(s, "@Outcome(expect = Expect.FORBIDDEN"));
    b->nstates = 1;
    free(s);
    free_states(b);
    ir_test_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sb_outcomes),
        cmocka_unit_test(test_interesting_state),
        cmocka_unit_test(test_forall_counterexamples),
        cmocka_unit_test(test_memory_needs_arbiter),
        cmocka_unit_test(test_custom_result_class),
        cmocka_unit_test(test_undefined_accepts_all),
        cmocka_unit_test(test_observables_by_identity),
        cmocka_unit_test(test_hostile_names),
        cmocka_unit_test(test_nothing_observed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
