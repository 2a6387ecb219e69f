/* Unit tests of compilation schemes: the shipped files parse, rules match
 * what they say, bad scheme text gets file:line:col errors, and
 * x86_scheme_apply rewrites accesses into the right x86 events. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "backends/x86/scheme_internal.h"
#include "util/mem.h"

static void test_builtins_parse(void **state)
{
    (void)state;
    int n = 0;
    for (const char *const *name = x86_scheme_builtins(); *name; name++, n++) {
        diag d = {0};
        x86_scheme *s = x86_scheme_load(*name, &d);
        if (!s)
            fail_msg("%s: %s:%d:%d: %s", *name, d.file, d.line, d.col, d.msg);
        assert_string_equal(x86_scheme_name(s), *name);
        x86_scheme_free(s);
    }
    assert_int_equal(n, 7);
}

static const scheme_rule *match(const x86_scheme *s, scheme_kind k, ir_mode m, ir_rmw_op op, ir_fence_kind f)
{
    return scheme_match(s, k, m, op, f);
}

static void test_hotspot_rules(void **state)
{
    (void)state;
    diag d = {0};
    x86_scheme *s = x86_scheme_load("java-x86-hotspot", &d);
    assert_non_null(s);
    assert_int_equal(x86_scheme_arch(s), IR_ARCH_JAVA);
    const scheme_rule *r = match(s, SK_STORE, IR_JM_VOLATILE, 0, 0);
    assert_non_null(r);
    assert_int_equal(r->nitems, 2);
    assert_int_equal(r->items[0].kind, SI_MOV);
    assert_int_equal(r->items[1].kind, SI_LOCK_ADD_SCRATCH);
    r = match(s, SK_STORE, IR_JM_RELEASE, 0, 0);
    assert_int_equal(r->nitems, 1);
    assert_int_equal(r->items[0].kind, SI_MOV);
    r = match(s, SK_FENCE, IR_MODE_NONE, 0, IR_FENCE_J_ACQUIRE);
    assert_non_null(r);
    assert_int_equal(r->nitems, 0);
    r = match(s, SK_FENCE, IR_MODE_NONE, 0, IR_FENCE_J_FULL);
    assert_int_equal(r->items[0].kind, SI_LOCK_ADD_SCRATCH);
    r = match(s, SK_RMW, IR_JM_VOLATILE, IR_RMW_CAS, 0);
    assert_int_equal(r->items[scheme_rule_access(r)].kind, SI_LOCK_CMPXCHG);
    r = match(s, SK_RMW, IR_JM_ACQUIRE, IR_RMW_XCHG, 0);
    assert_int_equal(r->items[0].kind, SI_XCHG);
    /* C modes and x86 fences are not Java's. */
    assert_null(match(s, SK_LOAD, IR_MO_SC, 0, 0));
    assert_null(match(s, SK_FENCE, IR_MODE_NONE, 0, IR_FENCE_MFENCE));
    x86_scheme_free(s);
}

static void test_c11_rules(void **state)
{
    (void)state;
    diag d = {0};
    x86_scheme *x = x86_scheme_load("c11-x86-xchg", &d), *m = x86_scheme_load("c11-x86-mfence", &d),
               *b = x86_scheme_load("broken-c11-x86-plainsc", &d);
    assert_non_null(x);
    assert_non_null(m);
    assert_non_null(b);
    assert_int_equal(match(x, SK_STORE, IR_MO_SC, 0, 0)->items[0].kind, SI_XCHG);
    const scheme_rule *r = match(m, SK_STORE, IR_MO_SC, 0, 0);
    assert_int_equal(r->nitems, 2);
    assert_int_equal(r->items[1].kind, SI_MFENCE);
    r = match(b, SK_STORE, IR_MO_SC, 0, 0);
    assert_int_equal(r->nitems, 1);
    assert_int_equal(r->items[0].kind, SI_MOV);
    assert_int_equal(match(x, SK_FENCE, IR_MO_SC, 0, IR_FENCE_C)->items[0].kind, SI_MFENCE);
    assert_int_equal(match(x, SK_FENCE, IR_MO_ACQ_REL, 0, IR_FENCE_C)->nitems, 0);
    assert_int_equal(match(x, SK_LOAD, IR_MO_NA, 0, 0)->items[0].kind, SI_MOV);
    x86_scheme_free(x);
    x86_scheme_free(m);
    x86_scheme_free(b);
}

static void test_syntax_variants(void **state)
{
    (void)state;
    diag d = {0};
    x86_scheme *s = x86_scheme_parse("scheme t # name\nsource c\n"
                                     "store sc = mov ;  lock;add [Scratch], 0\n"
                                     "load * = LOCK   XADD\n"
                                     "fence * =\n"
                                     "rmw add rlx = LOCK ADD\n",
                                     "t.scheme", &d);
    if (!s)
        fail_msg("%s:%d:%d: %s", d.file, d.line, d.col, d.msg);
    const scheme_rule *r = match(s, SK_STORE, IR_MO_SC, 0, 0);
    assert_int_equal(r->nitems, 2);
    assert_int_equal(r->items[1].kind, SI_LOCK_ADD_SCRATCH);
    assert_int_equal(match(s, SK_LOAD, IR_MO_RLX, 0, 0)->items[0].kind, SI_LOCK_XADD);
    assert_int_equal(match(s, SK_FENCE, IR_MO_SC, 0, IR_FENCE_C)->nitems, 0);
    r = match(s, SK_RMW, IR_MO_RLX, IR_RMW_ADD, 0);
    assert_int_equal(r->items[0].kind, SI_LOCK_OP);
    assert_int_equal(r->items[0].op, IR_RMW_ADD);
    assert_null(match(s, SK_RMW, IR_MO_SC, IR_RMW_ADD, 0));
    assert_null(match(s, SK_STORE, IR_MO_RLX, 0, 0));
    x86_scheme_free(s);
}

static void expect_error(const char *text, int line, int col, const char *msg)
{
    diag d = {0};
    x86_scheme *s = x86_scheme_parse(text, "bad.scheme", &d);
    assert_null(s);
    assert_true(d.set);
    assert_int_equal(d.status, 2);
    assert_string_equal(d.file, "bad.scheme");
    if (d.line != line || d.col != col || !strstr(d.msg, msg))
        fail_msg("got %d:%d: %s; want %d:%d: ...%s...", d.line, d.col, d.msg, line, col, msg);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("source c\nload * = MOV\n", 2, 1, "no 'scheme NAME'");
    expect_error("scheme a\nload * = MOV\n", 2, 1, "must follow the 'source' line");
    expect_error("scheme a\nsource pascal\n", 2, 8, "expected 'source c|java|x86'");
    expect_error("scheme a\nsource c\nlod sc = MOV\n", 3, 1, "unknown rule 'lod'");
    expect_error("scheme a\nsource c\nstore rlx,sq = MOV\n", 3, 11, "unknown access mode 'sq'");
    expect_error("scheme a\nsource c\nstore volatile = MOV\n", 3, 7, "mode that C tests do not use");
    expect_error("scheme a\nsource c\nstore sc = MOV; MFENSE\n", 3, 17, "unknown instruction 'MFENSE'");
    expect_error("scheme a\nsource c\nstore sc = MFENCE\n", 3, 11, "needs the access itself");
    expect_error("scheme a\nsource c\nstore sc = MOV; XCHG\n", 3, 17, "only one access");
    expect_error("scheme a\nsource c\nload sc = XCHG\n", 3, 11, "MOV or LOCK XADD");
    expect_error("scheme a\nsource c\nrmw add,cas * = LOCK XADD\n", 3, 17, "only implements the add and sub");
    expect_error("scheme a\nsource c\nrmw mul * = XCHG\n", 3, 5, "unknown RMW operation 'mul'");
    expect_error("scheme a\nsource c\nfence c,big = MFENCE\n", 3, 9, "unknown fence kind 'big'");
    expect_error("scheme a\nsource c\nfence c = MOV\n", 3, 11, "no access");
    expect_error("scheme a\nsource c\nload = MOV\n", 3, 6, "expected 'load|store MODES");
    expect_error("scheme a\nsource c\nstore sc = MOV;;MFENCE\n", 3, 16, "empty item");
    expect_error("scheme a\nscheme b\n", 2, 1, "already named");
    expect_error("scheme a\nsource c\nsource c\n", 3, 1, "'source' given twice");
    expect_error("scheme a\nsource c\n = MOV\n", 3, 2, "needs a kind");
    expect_error("scheme a\nsource c\nmov it\n", 3, 1, "expected 'scheme NAME'");
}

static void test_load_errors(void **state)
{
    (void)state;
    diag d = {0};
    assert_null(x86_scheme_load("no-such-scheme", &d));
    assert_non_null(strstr(d.msg, "java-x86-hotspot"));
    diag e = {0};
    assert_null(x86_scheme_load("/nonexistent/x.scheme", &e));
    assert_string_equal(e.file, "/nonexistent/x.scheme");
    assert_int_equal(e.status, 2);
}

/* SB with seq_cst C accesses, as the C frontend lowers it. */
static const char sb_sc[] =
    "test \"SB\"\narch C\nloc x int init 0\nloc y int init 0\n"
    "thread 0 P0\n  b0:\n    store.sc &x, 1                      @3:1\n    %0 = load.sc &y\n    ret\n"
    "  final r0 = %0\nend\n"
    "thread 1 P1\n  b0:\n    store.sc &y, 1\n    %0 = load.sc &x\n    fence.c.sc\n    fence.c.acq\n    ret\n"
    "  final r0 = %0\nend\n"
    "cond exists 0:r0=0 /\\ 1:r0=0\n";

static ir_test *read_ok(const char *text)
{
    diag d = {0};
    ir_test *t = ir_read(text, "t.ir", &d);
    if (!t)
        fail_msg("%s:%d:%d: %s", d.file, d.line, d.col, d.msg);
    return t;
}

static void test_apply(void **state)
{
    (void)state;
    ir_test *t = read_ok(sb_sc);
    diag d = {0};
    x86_scheme *x = x86_scheme_load("c11-x86-xchg", &d), *m = x86_scheme_load("c11-x86-mfence", &d);
    ir_test *a = x86_scheme_apply(t, x, &d);
    if (!a)
        fail_msg("%s", d.msg);
    assert_int_equal(a->arch, IR_ARCH_X86);
    /* P0: XCHG store (an RMW with an unread result), MOV load. */
    const ir_block *b = &a->threads[0].blocks[0];
    assert_int_equal(b->ninstrs, 3);
    assert_int_equal(b->instrs[0].op, IR_RMW);
    assert_int_equal(b->instrs[0].rmw_op, IR_RMW_XCHG);
    assert_int_equal(b->instrs[0].mode, IR_X86_LOCKED);
    assert_int_equal(b->instrs[0].line, 3);
    assert_int_equal(b->instrs[1].op, IR_LOAD);
    assert_int_equal(b->instrs[1].mode, IR_X86_PLAIN);
    assert_int_equal(b->instrs[1].dst, 0);
    /* P1: the sc fence becomes MFENCE, the acquire fence nothing. */
    b = &a->threads[1].blocks[0];
    assert_int_equal(b->ninstrs, 4);
    assert_int_equal(b->instrs[2].op, IR_FENCE);
    assert_int_equal(b->instrs[2].fence, IR_FENCE_MFENCE);
    ir_test_free(a);
    a = x86_scheme_apply(t, m, &d);
    b = &a->threads[0].blocks[0];
    assert_int_equal(b->ninstrs, 4);
    assert_int_equal(b->instrs[0].op, IR_STORE);
    assert_int_equal(b->instrs[1].fence, IR_FENCE_MFENCE);
    ir_test_free(a);
    /* A Java scheme refuses a C test. */
    x86_scheme *j = x86_scheme_load("java-x86-hotspot", &d);
    diag e = {0};
    assert_null(x86_scheme_apply(t, j, &e));
    assert_non_null(strstr(e.msg, "compiles Java tests, not C"));
    x86_scheme_free(j);
    x86_scheme_free(x);
    x86_scheme_free(m);
    ir_test_free(t);
}

static void test_apply_no_rule(void **state)
{
    (void)state;
    ir_test *t = read_ok(sb_sc);
    diag d = {0};
    x86_scheme *s = x86_scheme_parse("scheme partial\nsource c\nload * = MOV\nstore rlx = MOV\n", "p.scheme", &d);
    assert_non_null(s);
    assert_null(x86_scheme_apply(t, s, &d));
    assert_int_equal(d.line, 3);
    assert_int_equal(d.col, 1);
    assert_non_null(strstr(d.msg, "no rule for store sc"));
    x86_scheme_free(s);
    ir_test_free(t);
}

static void test_scratch_per_thread(void **state)
{
    (void)state;
    const char *text =
        "test \"SB\"\narch Java\nloc x int init 0\nloc y int init 0\n"
        "thread 0 Thread0\n  b0:\n    store.volatile &x, 1\n    %0 = load.volatile &y\n    ret\n"
        "  final r0 = %0\nend\n"
        "thread 1 Thread1\n  b0:\n    store.volatile &y, 1\n    fence.full\n    %0 = load.volatile &x\n    ret\n"
        "  final r0 = %0\nend\n"
        "cond exists 0:r0=0 /\\ 1:r0=0\n";
    ir_test *t = read_ok(text);
    diag d = {0};
    x86_scheme *s = x86_scheme_load("java-x86-hotspot", &d);
    ir_test *a = x86_scheme_apply(t, s, &d);
    assert_non_null(a);
    /* Two threads, two private scratch locations (threads never share the stack). */
    assert_int_equal(a->nlocs, 4);
    assert_string_equal(a->locs[2].name, "scratch0");
    assert_string_equal(a->locs[3].name, "scratch1");
    const ir_instr *in = &a->threads[1].blocks[0].instrs[1];
    assert_int_equal(in->op, IR_RMW);
    assert_int_equal(in->rmw_op, IR_RMW_ADD);
    assert_int_equal(in->addr.imm, IR_ADDR(3));
    assert_int_equal(a->threads[1].blocks[0].instrs[2].addr.imm, IR_ADDR(3));
    ir_test_free(a);
    x86_scheme_free(s);
    ir_test_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtins_parse),
        cmocka_unit_test(test_hotspot_rules),
        cmocka_unit_test(test_c11_rules),
        cmocka_unit_test(test_syntax_variants),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_load_errors),
        cmocka_unit_test(test_apply),
        cmocka_unit_test(test_apply_no_rule),
        cmocka_unit_test(test_scratch_per_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
