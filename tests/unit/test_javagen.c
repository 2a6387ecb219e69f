/* Unit tests for the Java lowering shared by the jcstress and standalone
 * runner targets (backends/java/javagen.h, javarun.h), on IR built by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "backends/java/javagen.h"
#include "backends/java/javarun.h"
#include "ir/ir.h"
#include "util/mem.h"

/* ---- building tests ------------------------------------------------------------ */

static ir_cond *atom_reg(int thread, const char *reg, ir_val v)
{
    ir_cond *c = ir_cond_new(IR_C_ATOM);
    c->lhs.kind = IR_OBS_REG;
    c->lhs.thread = thread;
    c->lhs.reg = xstrdup(reg);
    c->rhs = v;
    return c;
}

static ir_cond *atom_mem(int loc, ir_val v)
{
    ir_cond *c = ir_cond_new(IR_C_ATOM);
    c->lhs.kind = IR_OBS_MEM;
    c->lhs.loc = loc;
    c->rhs = v;
    return c;
}

static ir_cond *and2(ir_cond *l, ir_cond *r)
{
    ir_cond *c = ir_cond_new(IR_C_AND);
    c->l = l;
    c->r = r;
    return c;
}

static void set_cond(ir_test *t, ir_quant q, ir_cond *c)
{
    free(t->cond);
    t->quant = q;
    t->cond = c;
}

/* store MODE [&loc], v */
static void store(ir_thread *th, int b, int loc, ir_val v, ir_mode m)
{
    ir_instr *in = ir_emit(th, b, IR_STORE);
    in->addr = ir_imm(IR_ADDR(loc));
    in->a = ir_imm(v);
    in->mode = m;
    in->line = 3;
    in->col = 1;
}

static int load(ir_thread *th, int b, int loc, ir_mode m)
{
    int v = ir_new_val(th);
    ir_instr *in = ir_emit(th, b, IR_LOAD);
    in->dst = v;
    in->addr = ir_imm(IR_ADDR(loc));
    in->mode = m;
    return v;
}

/* SB with every access in MODE: exists (0:r0=0 /\ 1:r0=0). */
static ir_test *sb_test(ir_arch arch, ir_mode m)
{
    ir_test *t = ir_test_new("SB", arch);
    t->file = xstrdup("SB.litmus");
    int x = ir_add_loc(t, "x", IR_T_INT), y = ir_add_loc(t, "y", IR_T_INT);
    for (int i = 0; i < 2; i++) {
        ir_thread *th = ir_add_thread(t, i, i ? "Thread1" : "Thread0");
        int b = ir_add_block(th);
        store(th, b, i ? y : x, 1, m);
        int v = load(th, b, i ? x : y, m);
        ir_emit(th, b, IR_RET);
        ir_set_final_reg(th, "r0", ir_value(v));
    }
    set_cond(t, IR_Q_EXISTS, and2(atom_reg(0, "r0", 0), atom_reg(1, "r0", 0)));
    ir_finish(t);
    return t;
}

static char *runner_src(const ir_test *t)
{
    diag d = {0};
    char *s = javarun_generate(t, "p", "C", &d);
    assert_non_null(s);
    assert_false(d.set);
    return s;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* ---- modes ------------------------------------------------------------------------ */

static void test_java_modes(void **state)
{
    (void)state;
    static const struct { ir_mode m; const char *st, *ld; } cases[] = {
        {IR_JM_PLAIN, "VH_x.set(s, 1);", "(int) VH_y.get(s);"},
        {IR_JM_OPAQUE, "VH_x.setOpaque(s, 1);", "(int) VH_y.getOpaque(s);"},
        {IR_JM_VOLATILE, "VH_x.setVolatile(s, 1);", "(int) VH_y.getVolatile(s);"},
        {IR_MO_RLX, "VH_x.setOpaque(s, 1);", "(int) VH_y.getOpaque(s);"},
        {IR_MO_NA, "VH_x.set(s, 1);", "(int) VH_y.get(s);"},
        {IR_MO_SC, "VH_x.setVolatile(s, 1);", "(int) VH_y.getVolatile(s);"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ir_test *t = sb_test(cases[i].m >= IR_JM_PLAIN ? IR_ARCH_JAVA : IR_ARCH_C, cases[i].m);
        char *s = runner_src(t);
        assert_non_null(strstr(s, cases[i].st));
        assert_non_null(strstr(s, cases[i].ld));
        free(s);
        ir_test_free(t);
    }
}

static void test_release_acquire(void **state)
{
    (void)state;
    ir_test *t = ir_test_new("MP", IR_ARCH_C);
    t->file = xstrdup("MP.litmus");
    int x = ir_add_loc(t, "x", IR_T_INT), y = ir_add_loc(t, "y", IR_T_INT);
    ir_thread *t0 = ir_add_thread(t, 0, "P0");
    int b = ir_add_block(t0);
    store(t0, b, x, 1, IR_MO_RLX);
    store(t0, b, y, 1, IR_MO_REL);
    ir_emit(t0, b, IR_RET);
    ir_thread *t1 = ir_add_thread(t, 1, "P1");
    b = ir_add_block(t1);
    int r0 = load(t1, b, y, IR_MO_ACQ);
    ir_instr *f = ir_emit(t1, b, IR_FENCE);
    f->fence = IR_FENCE_C;
    f->mode = IR_MO_SC;
    int r1 = load(t1, b, x, IR_MO_CON);
    ir_emit(t1, b, IR_RET);
    ir_set_final_reg(t1, "r0", ir_value(r0));
    ir_set_final_reg(t1, "r1", ir_value(r1));
    set_cond(t, IR_Q_EXISTS, and2(atom_reg(1, "r0", 1), atom_reg(1, "r1", 0)));
    ir_finish(t);
    char *s = runner_src(t);
    assert_non_null(strstr(s, "VH_y.setRelease(s, 1);"));
    assert_non_null(strstr(s, "(int) VH_y.getAcquire(s);"));
    assert_non_null(strstr(s, "(int) VH_x.getAcquire(s);"));  /* consume -> acquire */
    assert_non_null(strstr(s, "VarHandle.fullFence();"));
    /* both registers of thread 1 land in its own result array */
    assert_non_null(strstr(s, "res[i * 2 + 0] = v0;"));
    assert_non_null(strstr(s, "res[i * 2 + 1] = v1;"));
    assert_null(strstr(s, "res$0"));
    free(s);
    ir_test_free(t);
}

static int rmw(ir_thread *th, int b, int loc, ir_rmw_op op, ir_val a, ir_val exp, ir_mode m,
               ir_mode fail, bool weak)
{
    int v = ir_new_val(th);
    ir_instr *in = ir_emit(th, b, IR_RMW);
    in->dst = v;
    in->addr = ir_imm(IR_ADDR(loc));
    in->rmw_op = op;
    in->a = ir_imm(a);
    in->b = op == IR_RMW_CAS ? ir_imm(exp) : ir_none();
    in->mode = m;
    in->fail_mode = fail;
    in->weak = weak;
    return v;
}

static void test_rmw_forms(void **state)
{
    (void)state;
    ir_test *t = ir_test_new("RMW", IR_ARCH_C);
    t->file = xstrdup("RMW.litmus");
    int x = ir_add_loc(t, "x", IR_T_INT);
    ir_thread *th = ir_add_thread(t, 0, "P0");
    int b = ir_add_block(th);
    int c1 = rmw(th, b, x, IR_RMW_CAS, 2, 0, IR_MO_ACQ, IR_MO_RLX, false);
    int c2 = rmw(th, b, x, IR_RMW_CAS, 3, 2, IR_MO_REL, IR_MO_RLX, false);
    int c3 = rmw(th, b, x, IR_RMW_CAS, 4, 3, IR_MO_REL, IR_MO_ACQ, false);
    rmw(th, b, x, IR_RMW_CAS, 5, 4, IR_MO_SC, IR_MO_SC, false);          /* result unused */
    rmw(th, b, x, IR_RMW_CAS, 6, 5, IR_MO_RLX, IR_MO_RLX, true);         /* weak, unused */
    rmw(th, b, x, IR_RMW_CAS, 7, 6, IR_MO_NA, IR_MO_NA, true);           /* weak plain */
    int a1 = rmw(th, b, x, IR_RMW_ADD, 1, 0, IR_MO_RLX, IR_MODE_NONE, false);
    int a2 = rmw(th, b, x, IR_RMW_SUB, 2, 0, IR_MO_SC, IR_MODE_NONE, false);
    int a3 = rmw(th, b, x, IR_RMW_XCHG, 9, 0, IR_JM_RELEASE, IR_MODE_NONE, false);
    int a4 = rmw(th, b, x, IR_RMW_OR, 8, 0, IR_JM_ACQUIRE, IR_MODE_NONE, false);
    ir_emit(th, b, IR_RET);
    ir_set_final_reg(th, "c1", ir_value(c1));
    ir_set_final_reg(th, "c2", ir_value(c2));
    ir_set_final_reg(th, "c3", ir_value(c3));
    ir_set_final_reg(th, "a1", ir_value(a1));
    ir_set_final_reg(th, "a2", ir_value(a2));
    ir_set_final_reg(th, "a3", ir_value(a3));
    ir_set_final_reg(th, "a4", ir_value(a4));
    set_cond(t, IR_Q_EXISTS, atom_reg(0, "c1", 0));
    ir_finish(t);
    char *s = runner_src(t);
    assert_non_null(strstr(s, "v0 = (int) VH_x.compareAndExchangeAcquire(s, 0, 2);"));
    assert_non_null(strstr(s, "v1 = (int) VH_x.compareAndExchangeRelease(s, 2, 3);"));
    /* release success with an acquire failure read needs both: volatile */
    assert_non_null(strstr(s, "v2 = (int) VH_x.compareAndExchange(s, 3, 4);"));
    assert_non_null(strstr(s, "VH_x.compareAndSet(s, 4, 5);"));
    assert_non_null(strstr(s, "VH_x.weakCompareAndSetAcquire(s, 5, 6);"));
    assert_non_null(strstr(s, "VH_x.weakCompareAndSetPlain(s, 6, 7);"));
    assert_non_null(strstr(s, "(int) VH_x.getAndAddAcquire(s, 1);"));
    assert_non_null(strstr(s, "(int) VH_x.getAndAdd(s, (-2));"));
    assert_non_null(strstr(s, "(int) VH_x.getAndSetRelease(s, 9);"));
    assert_non_null(strstr(s, "(int) VH_x.getAndBitwiseOrAcquire(s, 8);"));
    free(s);
    ir_test_free(t);
}

/* ---- control flow --------------------------------------------------------------- */

/* Thread0 { int r0 = X.get(); int r1 = -1; if (r0 == 1) { r1 = Y.get(); } } */
static void test_branch_and_phi(void **state)
{
    (void)state;
    ir_test *t = ir_test_new("BR", IR_ARCH_JAVA);
    t->file = xstrdup("BR.litmus");
    int x = ir_add_loc(t, "x", IR_T_INT), y = ir_add_loc(t, "y", IR_T_INT);
    ir_thread *th = ir_add_thread(t, 0, "Thread0");
    int b0 = ir_add_block(th), b1 = ir_add_block(th), b2 = ir_add_block(th);
    int r0 = load(th, b0, x, IR_JM_PLAIN);
    int c = ir_new_val(th);
    ir_instr *cmp = ir_emit(th, b0, IR_BIN);
    cmp->dst = c;
    cmp->binop = IR_EQ;
    cmp->a = ir_value(r0);
    cmp->b = ir_imm(1);
    ir_instr *br = ir_emit(th, b0, IR_BR);
    br->a = ir_value(c);
    br->then_block = b1;
    br->else_block = b2;
    int r1 = load(th, b1, y, IR_JM_PLAIN);
    ir_instr *j = ir_emit(th, b1, IR_JMP);
    j->then_block = b2;
    ir_finish(t);
    /* block 2's predecessors are now known: phi in their order */
    ir_block *join = &th->blocks[b2];
    int p = ir_new_val(th);
    ir_instr *phi = ir_emit(th, b2, IR_PHI);
    phi->dst = p;
    phi->nphi_args = join->npreds;
    phi->phi_args = xcalloc(2, sizeof *phi->phi_args);
    for (int i = 0; i < join->npreds; i++)
        phi->phi_args[i] = join->preds[i] == b1 ? ir_value(r1) : ir_imm(-1);
    ir_emit(th, b2, IR_RET);
    ir_set_final_reg(th, "r0", ir_value(r0));
    ir_set_final_reg(th, "r1", ir_value(p));
    set_cond(t, IR_Q_EXISTS, atom_reg(0, "r1", 0));
    char *s = runner_src(t);
    assert_non_null(strstr(s, "v1 = (v0 == 1) ? 1 : 0;"));
    assert_non_null(strstr(s, "if (v1 != 0) {"));
    assert_non_null(strstr(s, "if (blk == 1) {"));
    assert_non_null(strstr(s, "v3 = v2;"));     /* edge 1 -> 2 */
    assert_non_null(strstr(s, "v3 = (-1);"));   /* edge 0 -> 2 */
    /* block 2 is dispatched after both of its predecessors */
    assert_true(strstr(s, "if (blk == 2)") > strstr(s, "if (blk == 1)"));
    free(s);
    ir_test_free(t);
}

static void test_division_guarded(void **state)
{
    (void)state;
    ir_test *t = ir_test_new("DIV", IR_ARCH_C);
    t->file = xstrdup("DIV.litmus");
    int x = ir_add_loc(t, "x", IR_T_INT);
    ir_thread *th = ir_add_thread(t, 0, "P0");
    int b = ir_add_block(th);
    int r = load(th, b, x, IR_MO_RLX);
    int q = ir_new_val(th);
    ir_instr *in = ir_emit(th, b, IR_BIN);
    in->dst = q;
    in->binop = IR_DIV;
    in->a = ir_imm(7);
    in->b = ir_value(r);
    ir_emit(th, b, IR_RET);
    ir_set_final_reg(th, "q", ir_value(q));
    set_cond(t, IR_Q_EXISTS, atom_reg(0, "q", 0));
    ir_finish(t);
    char *s = runner_src(t);
    assert_non_null(strstr(s, "v1 = v0 == 0 ? 0 : 7 / v0;"));
    free(s);
    ir_test_free(t);
}

/* ---- observables ------------------------------------------------------------------- */

static void test_memory_observable_and_init(void **state)
{
    (void)state;
    ir_test *t = sb_test(IR_ARCH_JAVA, IR_JM_OPAQUE);
    t->locs[1].init = 5;
    t->locs[1].init_given = true;
    ir_cond *c = and2(t->cond, atom_mem(0, 1));
    t->cond = c;
    char *s = runner_src(t);
    assert_non_null(strstr(s, "int x = 0;"));
    assert_non_null(strstr(s, "s.y = 5;"));
    assert_non_null(strstr(s, "v[2] = st$[i].x;"));
    assert_non_null(strstr(s, "return 3;"));   /* observables */
    free(s);
    ir_test_free(t);
}

/* An observed register that the thread never has reads 0 (herd). */
static void test_absent_register_reads_zero(void **state)
{
    (void)state;
    ir_test *t = sb_test(IR_ARCH_JAVA, IR_JM_PLAIN);
    t->cond = and2(t->cond, atom_reg(1, "r9", 0));
    char *s = runner_src(t);
    assert_non_null(strstr(s, "= 0;"));
    assert_int_equal(count(s, "res[i * 2 + 1] = 0;"), 1);
    free(s);
    ir_test_free(t);
}

/* ---- rejections ---------------------------------------------------------------------------- */

static void test_rejects_x86(void **state)
{
    (void)state;
    ir_test *t = sb_test(IR_ARCH_X86, IR_X86_PLAIN);
    diag d = {0};
    assert_null(javarun_generate(t, "p", "C", &d));
    assert_true(d.set);
    assert_int_equal(d.status, 2);
    assert_non_null(strstr(d.msg, "Java and C tests"));
    ir_test_free(t);
}

static void test_rejects_wide_value(void **state)
{
    (void)state;
    ir_test *t = sb_test(IR_ARCH_C, IR_MO_RLX);
    t->threads[0].blocks[0].instrs[0].a = ir_imm((ir_val)1 << 40);
    diag d = {0};
    assert_null(javarun_generate(t, "p", "C", &d));
    assert_true(d.set);
    assert_int_equal(d.line, 3);
    assert_non_null(strstr(d.msg, "does not fit in a Java int"));
    ir_test_free(t);
}

static void test_rejects_computed_address(void **state)
{
    (void)state;
    ir_test *t = sb_test(IR_ARCH_C, IR_MO_RLX);
    /* thread 1 stores through its loaded value */
    ir_instr *in = &t->threads[0].blocks[0].instrs[0];
    in->addr = ir_value(0);
    diag d = {0};
    assert_null(javarun_generate(t, "p", "C", &d));
    assert_true(d.set);
    assert_non_null(strstr(d.msg, "computed addresses"));
    ir_test_free(t);
}

/* ---- names and escapes ------------------------------------------------------------------- */

static void test_identifiers(void **state)
{
    (void)state;
    char *s = javagen_ident("class");
    assert_string_equal(s, "class_");
    free(s);
    s = javagen_ident("0x");
    assert_string_equal(s, "_0x");
    free(s);
    s = javagen_ident("a-b.c$");
    assert_string_equal(s, "a_b_c_");
    free(s);
    s = javagen_ident("_");
    assert_string_equal(s, "__");
    free(s);
    s = javagen_class_name("6.SB", NULL, 0);
    assert_string_equal(s, "T6_SB");
    free(s);
    s = javagen_class_name("II_Result", NULL, 0);
    assert_string_equal(s, "II_Result_Test");
    free(s);
    s = javagen_class_name("State", NULL, 0);
    assert_string_equal(s, "State_Test");
    free(s);
    const char *taken[] = {"SB", "SB_2"};
    s = javagen_class_name("SB", taken, 2);
    assert_string_equal(s, "SB_3");
    free(s);
    assert_true(javagen_valid_package("litmusc.generated"));
    assert_false(javagen_valid_package("a..b"));
    assert_false(javagen_valid_package("a.int"));
    assert_false(javagen_valid_package("1a"));
    assert_false(javagen_valid_package("a;b"));
    assert_false(javagen_valid_package(""));
}

/* Two locations that mangle alike, and one named like a handle. */
static void test_unique_fields(void **state)
{
    (void)state;
    ir_test *t = ir_test_new("N", IR_ARCH_C);
    t->file = xstrdup("N.litmus");
    ir_add_loc(t, "a.b", IR_T_INT);
    ir_add_loc(t, "a-b", IR_T_INT);
    ir_add_loc(t, "VH_a_b", IR_T_INT);
    ir_add_loc(t, "int", IR_T_INT);
    ir_thread *th = ir_add_thread(t, 0, "P0");
    int b = ir_add_block(th);
    ir_emit(th, b, IR_RET);
    ir_finish(t);
    javagen_names n;
    diag d = {0};
    assert_true(javagen_prepare(t, &n, &d));
    assert_string_equal(n.field[0], "a_b");
    assert_string_equal(n.field[1], "a_b_2");
    assert_string_equal(n.field[2], "VH_a_b");
    assert_string_equal(n.field[3], "int_");
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            assert_string_not_equal(n.field[i], n.handle[j]);
            if (i != j) {
                assert_string_not_equal(n.field[i], n.field[j]);
                assert_string_not_equal(n.handle[i], n.handle[j]);
            }
        }
    javagen_names_free(&n, t);
    ir_test_free(t);
}

static void test_string_and_comment_escapes(void **state)
{
    (void)state;
    strbuf b = {0};
    javagen_string(&b, "a\"b\\u0022\n\xc3\xa9");
    assert_string_equal(b.s, "a\\\"b\\\\u0022\\012\\303\\251");
    free(sb_take(&b));
    javagen_comment(&b, "x\\u000a = 1;\r*/");
    assert_string_equal(b.s, "x\\\\u000a = 1; */");
    free(sb_take(&b));
    ir_val v[3] = {-1, 0, 7};
    javagen_outcome_id(&b, v, 3);
    assert_string_equal(b.s, "-1, 0, 7");
    sb_free(&b);
}

static void test_library_files(void **state)
{
    (void)state;
    int n = 0;
    bool main_found = false;
    for (const embed_file *f; (f = javarun_library_file(n)); n++) {
        assert_non_null(strstr(f->path, "backends/java/"));
        if (strstr(f->path, "LitmusMain.java"))
            main_found = strstr(f->data, "class LitmusMain") != NULL;
    }
    assert_true(n >= 2);
    assert_true(main_found);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_java_modes),
        cmocka_unit_test(test_release_acquire),
        cmocka_unit_test(test_rmw_forms),
        cmocka_unit_test(test_branch_and_phi),
        cmocka_unit_test(test_division_guarded),
        cmocka_unit_test(test_memory_observable_and_init),
        cmocka_unit_test(test_absent_register_reads_zero),
        cmocka_unit_test(test_rejects_x86),
        cmocka_unit_test(test_rejects_wide_value),
        cmocka_unit_test(test_rejects_computed_address),
        cmocka_unit_test(test_identifiers),
        cmocka_unit_test(test_unique_fields),
        cmocka_unit_test(test_string_and_comment_escapes),
        cmocka_unit_test(test_library_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
