/* Unit tests of the IR core: builder, arithmetic, printer/reader, the
 * herd forms of conditions and states, observables. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "ir/ir.h"
#include "util/mem.h"

/* herd's catalogue SB (X86), built by hand through the builder. */
static ir_test *build_sb(void)
{
    ir_test *t = ir_test_new("SB", IR_ARCH_X86);
    int x = ir_add_loc(t, "x", IR_T_INT);
    int y = ir_add_loc(t, "y", IR_T_INT);
    for (int p = 0; p < 2; p++) {
        char name[8];
        snprintf(name, sizeof name, "P%d", p);
        ir_thread *th = ir_add_thread(t, p, name);
        int b = ir_add_block(th);
        ir_instr *st = ir_emit(th, b, IR_STORE);
        st->addr = ir_imm(IR_ADDR(p ? y : x));
        st->a = ir_imm(1);
        st->mode = IR_X86_PLAIN;
        st->line = 6;
        st->col = p ? 15 : 2;
        st->src = xstrdup(p ? "MOV [y],$1" : "MOV [x],$1");
        int v = ir_new_val(th);
        ir_instr *ld = ir_emit(th, b, IR_LOAD);
        ld->dst = v;
        ld->addr = ir_imm(IR_ADDR(p ? x : y));
        ld->mode = IR_X86_PLAIN;
        ir_emit(th, b, IR_RET);
        ir_set_final_reg(th, "EAX", ir_value(v));
    }
    t->quant = IR_Q_EXISTS;
    ir_cond_free(t->cond);
    ir_cond *l = ir_cond_new(IR_C_ATOM), *r = ir_cond_new(IR_C_ATOM);
    l->lhs = (ir_obs){IR_OBS_REG, 0, xstrdup("EAX"), -1};
    r->lhs = (ir_obs){IR_OBS_REG, 1, xstrdup("EAX"), -1};
    t->cond = ir_cond_join(IR_C_AND, l, r);
    ir_finish(t);
    return t;
}

static const char sb_text[] =
    "test \"SB\"\n"
    "arch X86\n"
    "loc x int init 0\n"
    "loc y int init 0\n"
    "thread 0 P0\n"
    "  b0:\n"
    "    store.x86 &x, 1                      @6:2 \"MOV [x],$1\"\n"
    "    %0 = load.x86 &y\n"
    "    ret\n"
    "  final EAX = %0\n"
    "end\n"
    "thread 1 P1\n"
    "  b0:\n"
    "    store.x86 &y, 1                      @6:15 \"MOV [y],$1\"\n"
    "    %0 = load.x86 &x\n"
    "    ret\n"
    "  final EAX = %0\n"
    "end\n"
    "cond exists 0:EAX=0 /\\ 1:EAX=0\n";

/* ir_find_loc through the index ir_add_loc keeps: every one of many
 * names found where it was added, absent names not, and locations a
 * builder appended by hand (no index for them) still found. */
static void test_find_loc_many(void **state)
{
    (void)state;
    ir_test *t = ir_test_new("T", IR_ARCH_X86);
    char name[32];
    for (int i = 0; i < 5000; i++) {
        snprintf(name, sizeof name, "v%d", i);
        assert_int_equal(ir_add_loc(t, name, IR_T_INT), i);
    }
    for (int i = 0; i < 5000; i += 7) {
        snprintf(name, sizeof name, "v%d", i);
        assert_int_equal(ir_find_loc(t, name), i);
        assert_int_equal(ir_add_loc(t, name, IR_T_PTR), i);
    }
    assert_int_equal(ir_find_loc(t, "v5000"), -1);
    assert_int_equal(ir_find_loc(t, ""), -1);
    /* a location added by hand: found by the scan, then indexed with the rest */
    t->locs = xrealloc(t->locs, (size_t)(t->nlocs + 1) * sizeof *t->locs);
    t->locs[t->nlocs] = (ir_loc){.name = xstrdup("hand")};
    t->nlocs++;
    assert_int_equal(ir_find_loc(t, "hand"), 5000);
    assert_int_equal(ir_add_loc(t, "after", IR_T_INT), 5001);
    assert_int_equal(ir_find_loc(t, "hand"), 5000);
    assert_int_equal(ir_find_loc(t, "v4999"), 4999);
    ir_test_free(t);
}

static void test_builder(void **state)
{
    (void)state;
    ir_test *t = ir_test_new("T", IR_ARCH_C);
    assert_int_equal(t->quant, IR_Q_FORALL);
    assert_int_equal(t->cond->kind, IR_C_TRUE);
    assert_int_equal(ir_add_loc(t, "x", IR_T_INT), 0);
    assert_int_equal(ir_add_loc(t, "y", IR_T_INT), 1);
    assert_int_equal(ir_add_loc(t, "x", IR_T_PTR), 0);
    assert_int_equal(ir_find_loc(t, "y"), 1);
    assert_int_equal(ir_find_loc(t, "z"), -1);
    ir_thread *th = ir_add_thread(t, 0, "P0");
    assert_int_equal(ir_add_block(th), 0);
    assert_int_equal(ir_add_block(th), 1);
    assert_int_equal(ir_new_val(th), 0);
    assert_int_equal(ir_new_val(th), 1);
    ir_instr *in = ir_emit(th, 1, IR_LOAD);
    assert_int_equal(in->dst, -1);
    assert_int_equal(in->addr.kind, IR_OPND_NONE);
    assert_int_equal(in->then_block, -1);
    ir_set_final_reg(th, "r2", ir_imm(0));
    ir_set_final_reg(th, "r10", ir_imm(1));
    ir_set_final_reg(th, "a", ir_imm(2));
    ir_set_final_reg(th, "r2", ir_imm(3));   /* replaces */
    assert_int_equal(th->nfinal_regs, 3);
    assert_string_equal(th->final_regs[0].name, "a");
    assert_string_equal(th->final_regs[1].name, "r10");
    assert_string_equal(th->final_regs[2].name, "r2");
    assert_int_equal(th->final_regs[2].value.imm, 3);
    assert_int_equal(ir_thread_find_reg(th, "r10"), 1);
    assert_int_equal(ir_thread_find_reg(th, "r9"), -1);
    ir_test_free(t);
}

static void test_binop_eval(void **state)
{
    (void)state;
    ir_val v = 7;
    assert_true(ir_binop_eval(IR_ADD, INT64_MAX, 1, &v));
    assert_true(v == INT64_MIN);
    assert_true(ir_binop_eval(IR_SUB, 3, 5, &v));
    assert_int_equal(v, -2);
    assert_true(ir_binop_eval(IR_MUL, -3, 5, &v));
    assert_int_equal(v, -15);
    v = 42;
    assert_false(ir_binop_eval(IR_DIV, 1, 0, &v));
    assert_int_equal(v, 42);
    assert_false(ir_binop_eval(IR_REM, 1, 0, &v));
    assert_true(ir_binop_eval(IR_DIV, INT64_MIN, -1, &v));
    assert_true(v == INT64_MIN);
    assert_true(ir_binop_eval(IR_DIV, -7, 2, &v));
    assert_int_equal(v, -3);
    assert_true(ir_binop_eval(IR_XOR, 6, 3, &v));
    assert_int_equal(v, 5);
    assert_true(ir_binop_eval(IR_LT, -1, 0, &v));
    assert_int_equal(v, 1);
    assert_true(ir_binop_eval(IR_GE, -1, 0, &v));
    assert_int_equal(v, 0);
    assert_true(ir_binop_eval(IR_SHL, 1, 65, &v));
    assert_int_equal(v, 2);
    assert_true(ir_binop_eval(IR_EQ, 4, 4, &v));
    assert_int_equal(v, 1);
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(ir_mode_name(IR_MO_ACQ_REL), "acq_rel");
    assert_string_equal(ir_mode_name(IR_X86_LOCKED), "locked");
    assert_string_equal(ir_fence_name(IR_FENCE_J_STORESTORE), "storestore");
    assert_string_equal(ir_rmw_name(IR_RMW_CAS), "cas");
    assert_string_equal(ir_binop_name(IR_GE), "ge");
    assert_string_equal(ir_arch_name(IR_ARCH_X86_64), "X86_64");
    for (int m = 0; m < IR_MODE_COUNT; m++)
        assert_int_equal(ir_mode_from_name(ir_mode_name((ir_mode)m)), m);
    for (int b = 0; b < IR_BINOP_COUNT; b++)
        assert_int_equal(ir_binop_from_name(ir_binop_name((ir_binop)b)), b);
    assert_int_equal(ir_mode_from_name("bogus"), -1);
}

static void test_print_sb(void **state)
{
    (void)state;
    ir_test *t = build_sb();
    diag d = {0};
    assert_true(ir_verify(t, &d));
    char *s = ir_print_str(t);
    assert_string_equal(s, sb_text);
    ir_test *u = ir_read(s, "sb.ir", &d);
    assert_non_null(u);
    assert_true(ir_verify(u, &d));
    char *s2 = ir_print_str(u);
    assert_string_equal(s, s2);
    free(s);
    free(s2);
    ir_test_free(t);
    ir_test_free(u);
}

/* Everything the text form carries, including quoting, phis and CAS. */
static const char full_text[] =
    "test \"MP+a \\\"b\\\"\"\n"
    "arch C\n"
    "doc \"a doc\\tstring\"\n"
    "info \"Cycle\" \"Rfe PodRR\"\n"
    "hash \"0123456789abcdef0123456789abcdef\"\n"
    "loc p ptr ctype \"int*\" init &x given\n"
    "loc x int ctype \"atomic_int\" atomic init 0\n"
    "loc \"odd name\" int128 init -5 given\n"
    "thread 0 P0\n"
    "  init r9 = 4\n"
    "  init x = &x\n"
    "  b0:\n"
    "    %0 = load.acq &x                     @3:5 \"int r0 = atomic_load_explicit(x, memory_order_acquire);\"\n"
    "    %1 = eq %0, 1\n"
    "    br %1, b1, b2\n"
    "  b1:\n"
    "    %2 = rmw.cas.sc &x, expected 1, new 2, fail rlx, weak\n"
    "    %3 = rmw.add.rel &\"odd name\", %2\n"
    "    fence.c.acq_rel\n"
    "    jmp b2                               @9:1\n"
    "  b2:\n"
    "    %4 = phi [%0, b0], [%2, b1]\n"
    "    store.na &x, %4\n"
    "    ret\n"
    "  final r0 = %4\n"
    "  final r1 = 0\n"
    "  final x = &x\n"
    "end\n"
    "cond ~exists (0:r0=1 \\/ [x]!=&p) /\\ ~[\"odd name\"]=0:r1 /\\ true => false => [p]=&x\n"
    "filter 0:r0=0 \\/ 0:r1=0 /\\ 0:r0=1\n"
    "locations [x] 0:r1\n";

static void test_round_trip_full(void **state)
{
    (void)state;
    diag d = {0};
    ir_test *t = ir_read(full_text, "full.ir", &d);
    if (!t)
        fail_msg("%s:%d:%d: %s", d.file, d.line, d.col, d.msg);
    if (!ir_verify(t, &d))
        fail_msg("%s", d.msg);
    char *s = ir_print_str(t);
    assert_string_equal(s, full_text);
    assert_string_equal(t->name, "MP+a \"b\"");
    assert_int_equal(t->quant, IR_Q_NOT_EXISTS);
    assert_int_equal(t->locs[0].init, IR_ADDR(1));
    assert_true(t->locs[1].atomic);
    assert_int_equal(t->locs[2].type, IR_T_INT128);
    const ir_instr *cas = &t->threads[0].blocks[1].instrs[0];
    assert_int_equal(cas->rmw_op, IR_RMW_CAS);
    assert_int_equal(cas->b.imm, 1);     /* expected */
    assert_int_equal(cas->a.imm, 2);     /* new */
    assert_int_equal(cas->fail_mode, IR_MO_RLX);
    assert_true(cas->weak);
    free(s);
    ir_test_free(t);
}

/* Phi arguments written out of predecessor order are put in order. */
static void test_read_phi_order(void **state)
{
    (void)state;
    const char *text =
        "test \"T\"\narch Java\nloc x int init 0\n"
        "thread 0 Thread0\n  b0:\n    %0 = load.plain &x\n    br %0, b1, b2\n"
        "  b1:\n    jmp b2\n  b2:\n    %1 = phi [7, b1], [%0, b0]\n    ret\n  final r0 = %1\nend\n"
        "cond exists 0:r0=7\n";
    diag d = {0};
    ir_test *t = ir_read(text, "t.ir", &d);
    assert_non_null(t);
    assert_true(ir_verify(t, &d));
    const ir_instr *phi = &t->threads[0].blocks[2].instrs[0];
    assert_int_equal(t->threads[0].blocks[2].preds[0], 0);
    assert_int_equal(phi->phi_args[0].kind, IR_OPND_VAL);
    assert_int_equal(phi->phi_args[1].imm, 7);
    ir_test_free(t);
}

static void expect_read_error(const char *text, int line, int col, const char *msg)
{
    diag d = {0};
    ir_test *t = ir_read(text, "bad.ir", &d);
    if (t)
        fail_msg("accepted: %s", text);
    assert_true(d.set);
    assert_int_equal(d.status, 2);
    assert_string_equal(d.file, "bad.ir");
    if (d.line != line || d.col != col || !strstr(d.msg, msg))
        fail_msg("got %d:%d: %s; wanted %d:%d: ...%s...", d.line, d.col, d.msg, line, col, msg);
}

static void test_read_errors(void **state)
{
    (void)state;
    expect_read_error("", 1, 1, "expected 'test'");
    expect_read_error("test \"T\"\narch ARM\n", 2, 6, "architecture");
    expect_read_error("test \"T\"\narch C\nloc x int init &y\ncond exists true\n", 3, 17, "unknown location 'y'");
    expect_read_error("test \"T\"\narch C\nloc x int init 0\nloc x int init 0\n", 4, 5, "declared twice");
    expect_read_error("test \"T\"\narch C\nthread 1 P1\n", 3, 8, "out of order");
    expect_read_error("test \"T\"\narch C\nthread 0 P0\n  b0:\n    %0 = frob 1\n", 5, 10, "unknown instruction 'frob'");
    expect_read_error("test \"T\"\narch C\nthread 0 P0\n  b0:\n    %0 = load.fast &x\n", 5, 15, "access mode");
    expect_read_error("test \"T\n", 1, 6, "unterminated string");
    expect_read_error("test \"T\"\narch C\ncond exists 0:r0=99999999999999999999\n", 3, 18, "out of range");
    expect_read_error("test \"T\"\narch C\ncond exists 0:r0=1 junk\n", 3, 20, "end of the text");
    expect_read_error("test \"T\"\narch C\ncond exists ($\n", 3, 14, "unexpected character '$'");
    expect_read_error("test \"T\"\narch C\nthread 0 P0\n  b0:\n    %0 = phi [1, b3]\n    ret\nend\n", 5, 5,
                      "not a predecessor");
}

static ir_test *read_ok(const char *text)
{
    diag d = {0};
    ir_test *t = ir_read(text, "t.ir", &d);
    if (!t)
        fail_msg("%d:%d: %s", d.line, d.col, d.msg);
    return t;
}

static ir_cond *atom_reg(int th, const char *reg, ir_val v)
{
    ir_cond *c = ir_cond_new(IR_C_ATOM);
    c->lhs = (ir_obs){IR_OBS_REG, th, xstrdup(reg), -1};
    c->rhs = v;
    return c;
}

static ir_cond *atom_mem(int loc, ir_val v)
{
    ir_cond *c = ir_cond_new(IR_C_ATOM);
    c->lhs = (ir_obs){IR_OBS_MEM, -1, NULL, loc};
    c->rhs = v;
    return c;
}

static void check_cond(ir_test *t, ir_quant q, ir_cond *c, const char *want)
{
    ir_cond_free(t->cond);
    t->cond = c;
    t->quant = q;
    char *s = ir_format_cond(t);
    assert_string_equal(s, want);
    free(s);
}

/* herd's normal form (ConstrGen.pp_prop). */
static void test_format_cond(void **state)
{
    (void)state;
    ir_test *t = ir_test_new("T", IR_ARCH_X86);
    int z = ir_add_loc(t, "z", IR_T_INT), y = ir_add_loc(t, "y", IR_T_INT), x = ir_add_loc(t, "x", IR_T_INT);
    char *s = ir_format_cond(t);
    assert_string_equal(s, "forall (true)");
    free(s);
    check_cond(t, IR_Q_EXISTS, ir_cond_join(IR_C_AND, atom_reg(0, "EAX", 0), atom_reg(1, "EAX", 0)),
               "exists (0:EAX=0 /\\ 1:EAX=0)");
    check_cond(t, IR_Q_NOT_EXISTS, ir_cond_join(IR_C_AND, atom_mem(z, 0), atom_mem(y, 2)),
               "~exists ([z]=0 /\\ [y]=2)");
    check_cond(t, IR_Q_EXISTS, ir_cond_join(IR_C_NOT, atom_mem(x, 7), NULL), "exists (not ([x]=7))");
    ir_cond *ne = atom_reg(0, "r1", 0);
    ne->ne = true;
    check_cond(t, IR_Q_EXISTS, ne, "exists (not (0:r1=0))");
    /* /\ under \/ stays bare; \/ under /\ is parenthesised; chains are flat. */
    check_cond(t, IR_Q_FORALL,
               ir_cond_join(IR_C_OR, atom_mem(x, 1), ir_cond_join(IR_C_AND, atom_mem(y, 1), atom_mem(z, 1))),
               "forall ([x]=1 \\/ [y]=1 /\\ [z]=1)");
    check_cond(t, IR_Q_FORALL,
               ir_cond_join(IR_C_AND, ir_cond_join(IR_C_OR, atom_mem(x, 1), atom_mem(y, 1)), atom_mem(z, 1)),
               "forall (([x]=1 \\/ [y]=1) /\\ [z]=1)");
    check_cond(t, IR_Q_EXISTS,
               ir_cond_join(IR_C_AND, atom_mem(x, 1), ir_cond_join(IR_C_AND, atom_mem(y, 1), atom_mem(z, 1))),
               "exists ([x]=1 /\\ [y]=1 /\\ [z]=1)");
    check_cond(t, IR_Q_EXISTS,
               ir_cond_join(IR_C_AND, atom_mem(x, 1),
                            ir_cond_join(IR_C_IMPLIES, atom_mem(y, 1), atom_mem(z, 1))),
               "exists ([x]=1 /\\ ([y]=1 => [z]=1))");
    check_cond(t, IR_Q_EXISTS,
               ir_cond_join(IR_C_IMPLIES, ir_cond_join(IR_C_OR, atom_mem(x, 1), ir_cond_new(IR_C_FALSE)),
                            ir_cond_join(IR_C_IMPLIES, atom_mem(y, 1), ir_cond_new(IR_C_TRUE))),
               "exists (([x]=1 \\/ false) => [y]=1 => true)");
    /* Addresses print as the location's name; locations compared with locations. */
    ir_cond *ll = atom_mem(x, IR_ADDR(y));
    check_cond(t, IR_Q_EXISTS, ll, "exists ([x]=y)");
    ir_cond *lo = atom_mem(x, 0);
    lo->rhs_is_obs = true;
    lo->rhs_obs = (ir_obs){IR_OBS_REG, 1, xstrdup("EBX"), -1};
    check_cond(t, IR_Q_EXISTS, lo, "exists ([x]=1:EBX)");
    ir_test_free(t);
}

static void test_observables(void **state)
{
    (void)state;
    /* X86 registers in herd's order, threads first, memory last by name. */
    ir_test *t = read_ok(
        "test \"T\"\narch X86\nloc y int init 0\nloc x int init 0\n"
        "thread 0 P0\n  b0:\n    ret\n  final EAX = 0\n  final EBX = 0\n  final ESI = 0\nend\n"
        "thread 1 P1\n  b0:\n    ret\n  final EAX = 0\nend\n"
        "cond exists [y]=1 /\\ 1:EAX=0 /\\ 0:ESI=0 /\\ 0:EBX=1 /\\ [x]=2 /\\ 0:EAX=0 /\\ 0:EBX!=2\n"
        "locations [x] 0:EAX\n");
    int n;
    ir_obs *obs = ir_observables(t, &n);
    assert_int_equal(n, 6);
    ir_val vals[6] = {0, 1, 0, 0, 2, IR_ADDR(0)};
    char *s = ir_format_state(t, obs, vals, n);
    assert_string_equal(s, "0:EAX=0; 0:EBX=1; 0:ESI=0; 1:EAX=0; [x]=2; [y]=y;");
    free(s);
    assert_false(ir_cond_eval(t->cond, obs, vals, n));
    vals[5] = 1;
    assert_true(ir_cond_eval(t->cond, obs, vals, n));
    free(obs);
    ir_test_free(t);

    /* X86_64: by register base, r8 after rsp. */
    t = read_ok("test \"T\"\narch X86_64\n"
                "thread 0 P0\n  b0:\n    ret\n  final r8 = 0\n  final rax = 0\n  final rsp = 0\nend\n"
                "cond exists 0:r8=1 /\\ 0:rsp=1 /\\ 0:rax=1\n");
    obs = ir_observables(t, &n);
    assert_int_equal(n, 3);
    assert_string_equal(obs[0].reg, "rax");
    assert_string_equal(obs[1].reg, "rsp");
    assert_string_equal(obs[2].reg, "r8");
    free(obs);
    ir_test_free(t);

    /* C and Java registers sort as strings: r10 < r2. */
    t = read_ok("test \"T\"\narch C\n"
                "thread 0 P0\n  b0:\n    ret\n  final r10 = 0\n  final r2 = 0\nend\n"
                "cond exists 0:r2=1 /\\ 0:r10=1\nfilter 0:r2=1 /\\ 0:r10=1 \\/ 0:r3=5\n");
    obs = ir_observables(t, &n);
    assert_int_equal(n, 2);
    assert_string_equal(obs[0].reg, "r10");
    assert_string_equal(obs[1].reg, "r2");
    free(obs);
    obs = ir_filter_observables(t, &n);
    assert_int_equal(n, 1);
    assert_string_equal(obs[0].reg, "r3");
    free(obs);
    ir_test_free(t);
}

static void test_cond_eval(void **state)
{
    (void)state;
    ir_test *t = read_ok("test \"T\"\narch C\nloc x int init 0\n"
                         "thread 0 P0\n  b0:\n    ret\n  final r0 = 0\n  final r1 = 0\nend\n"
                         "cond forall 0:r0=1 => ([x]!=2 \\/ 0:r1=[x])\n");
    ir_obs obs[3] = {{IR_OBS_REG, 0, "r0", -1}, {IR_OBS_REG, 0, "r1", -1}, {IR_OBS_MEM, -1, NULL, 0}};
    ir_val v1[3] = {0, 0, 2}, v2[3] = {1, 0, 2}, v3[3] = {1, 2, 2}, v4[3] = {1, 5, 3};
    assert_true(ir_cond_eval(t->cond, obs, v1, 3));
    assert_false(ir_cond_eval(t->cond, obs, v2, 3));
    assert_true(ir_cond_eval(t->cond, obs, v3, 3));
    assert_true(ir_cond_eval(t->cond, obs, v4, 3));
    /* A register that is not among the observables reads 0. */
    assert_true(ir_cond_eval(t->cond, obs, v2, 0));
    char buf[32];
    ir_format_val(t, IR_ADDR(0), buf, sizeof buf);
    assert_string_equal(buf, "x");
    ir_format_val(t, -1, buf, sizeof buf);
    assert_string_equal(buf, "-1");
    ir_test_free(t);
}

/* Every prefix of a valid text, and texts with one byte changed, either
 * read (and then print and verify without crashing) or fail with a
 * positioned diagnostic. */
static void test_read_damaged(void **state)
{
    (void)state;
    size_t n = strlen(full_text);
    char *buf = xmalloc(n + 1);
    static const char bytes[] = {'%', '&', '"', '[', ']', ',', '\n', ' ', 'b', '9', '-', '~', '\\', ';', '@', 'x'};
    unsigned seed = 12345;
    for (size_t len = 0; len <= n; len++) {
        for (int variant = 0; variant < 3; variant++) {
            memcpy(buf, full_text, n + 1);
            if (variant == 0) {
                buf[len] = 0;
            } else if (len < n) {
                seed = seed * 1103515245u + 12345u;
                buf[len] = bytes[(seed >> 16) % sizeof bytes];
            }
            diag d = {0};
            ir_test *t = ir_read(buf, "d.ir", &d);
            if (t) {
                char *s = ir_print_str(t);
                diag d2 = {0};
                (void)ir_verify(t, &d2);
                free(s);
                ir_test_free(t);
            } else {
                assert_true(d.set);
                assert_true(d.line >= 1);
                assert_true(d.col >= 1);
            }
        }
    }
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builder),
        cmocka_unit_test(test_find_loc_many),
        cmocka_unit_test(test_binop_eval),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_print_sb),
        cmocka_unit_test(test_round_trip_full),
        cmocka_unit_test(test_read_phi_order),
        cmocka_unit_test(test_read_errors),
        cmocka_unit_test(test_read_damaged),
        cmocka_unit_test(test_format_cond),
        cmocka_unit_test(test_observables),
        cmocka_unit_test(test_cond_eval),
    };
    return cmocka_run_group_tests_name("ir", tests, NULL, NULL);
}
