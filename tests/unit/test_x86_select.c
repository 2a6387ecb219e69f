/* Unit tests of instruction selection, register allocation and the herd
 * X86 printer, on IR read from its text form. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "backends/x86/x86.h"
#include "backends/x86litmus/x86litmus.h"
#include "util/mem.h"

static ir_test *read_ok(const char *text)
{
    diag d = {0};
    ir_test *t = ir_read(text, "t.ir", &d);
    if (!t)
        fail_msg("%s:%d:%d: %s", d.file, d.line, d.col, d.msg);
    return t;
}

static x86_prog *compile_ok(const ir_test *t, const char *scheme)
{
    diag d = {0};
    x86_scheme *s = scheme ? x86_scheme_load(scheme, &d) : NULL;
    x86_prog *p = x86_compile(t, s, &d);
    if (!p)
        fail_msg("%s:%d:%d: %s", d.file, d.line, d.col, d.msg);
    x86_scheme_free(s);
    return p;
}

static const char sb_c[] =
    "test \"SB+sc\"\narch C\nloc x int init 0\nloc y int init 0\n"
    "thread 0 P0\n  b0:\n    store.sc &x, 1\n    %0 = load.sc &y\n    ret\n  final r0 = %0\nend\n"
    "thread 1 P1\n  b0:\n    store.sc &y, 1\n    %0 = load.sc &x\n    ret\n  final r0 = %0\nend\n"
    "cond exists 0:r0=0 /\\ 1:r0=0\n";

static void test_sb_xchg_text(void **state)
{
    (void)state;
    ir_test *t = read_ok(sb_c);
    x86_prog *p = compile_ok(t, "c11-x86-xchg");
    char *s = x86litmus_print(p);
    assert_non_null(strstr(s, "X86 SB+sc\n"));
    assert_non_null(strstr(s, "(* register map: 0:r0=0:EAX 1:r0=1:EAX *)\n"));
    assert_non_null(strstr(s, "{ x=0; y=0; }\n"));
    assert_non_null(strstr(s, " P0           | P1           ;\n"));
    assert_non_null(strstr(s, " MOV EAX,$1   | MOV EAX,$1   ;\n"));
    assert_non_null(strstr(s, " XCHG [x],EAX | XCHG [y],EAX ;\n"));
    assert_non_null(strstr(s, " MOV EAX,[y]  | MOV EAX,[x]  ;\n"));
    assert_non_null(strstr(s, "\nexists (0:EAX=0 /\\ 1:EAX=0)\n"));
    assert_true(p->herd_ok);
    assert_null(strstr(s, "not runnable"));
    assert_int_equal(x86_prog_lookup(p, 1, "r0"), X86_EAX);
    assert_int_equal(x86_prog_lookup(p, 1, "r9"), X86_NOREG);
    char *m = x86litmus_map_text(p);
    assert_non_null(strstr(m, "\n0:r0 0:EAX\n1:r0 1:EAX\n"));
    free(m);
    free(s);
    x86_prog_free(p);
    ir_test_free(t);
}

static void test_sb_mfence_and_broken(void **state)
{
    (void)state;
    ir_test *t = read_ok(sb_c);
    x86_prog *p = compile_ok(t, "c11-x86-mfence");
    char *s = x86litmus_print(p);
    assert_non_null(strstr(s, " MOV [x],$1  | MOV [y],$1  ;\n MFENCE      | MFENCE      ;\n MOV EAX,[y] | MOV EAX,[x] ;\n"));
    free(s);
    x86_prog_free(p);
    p = compile_ok(t, "broken-c11-x86-plainsc");
    s = x86litmus_print(p);
    assert_non_null(strstr(s, " MOV [x],$1  | MOV [y],$1  ;\n MOV EAX,[y] | MOV EAX,[x] ;\nexists"));
    free(s);
    x86_prog_free(p);
    ir_test_free(t);
}

/* A branch on a compare, a phi, CAS through EAX, used and unused adds. */
static const char branchy[] =
    "test \"MP+br\"\narch Java\nloc x int init 0\nloc y int init 0\n"
    "thread 0 Thread0\n  b0:\n    store.plain &x, 1\n    store.volatile &y, 1\n    ret\nend\n"
    "thread 1 Thread1\n  b0:\n    %0 = load.volatile &y\n    %1 = eq %0, 1\n    br %1, b1, b2\n"
    "  b1:\n    %2 = load.plain &x\n    jmp b2\n"
    "  b2:\n    %3 = phi [-1, b0], [%2, b1]\n"
    "    %4 = rmw.cas.volatile &x, expected 1, new 2\n"
    "    %5 = rmw.add.volatile &y, 3\n"
    "    %6 = rmw.add.volatile &y, 1\n"
    "    %7 = eq %6, %3\n    ret\n"
    "  final r0 = %0\n  final r1 = %3\n  final r2 = %4\n  final r3 = %7\nend\n"
    "cond exists 1:r0=1 /\\ 1:r1=0 /\\ 1:r2=1 /\\ 1:r3=0 /\\ [x]=1\n";

static int find(const x86_thread *th, x86_op op, int from)
{
    for (int i = from; i < th->ncode; i++)
        if (th->code[i].op == op)
            return i;
    return -1;
}

static void test_branches_phis_cas(void **state)
{
    (void)state;
    ir_test *t = read_ok(branchy);
    x86_prog *p = compile_ok(t, "java-x86-hotspot");
    const x86_thread *th = &p->threads[1];
    /* The compare feeding the branch is fused: CMP r0,$1; JNE else. */
    int cmp = find(th, X86_CMP, 0);
    assert_true(cmp >= 0);
    assert_int_equal(th->code[cmp].src.kind, X86_O_IMM);
    assert_int_equal(th->code[cmp].src.imm, 1);
    assert_int_equal(th->code[cmp].dst.reg, x86_prog_lookup(p, 1, "r0"));
    assert_int_equal(th->code[cmp + 1].op, X86_JNE);
    /* CAS: expected value into EAX, locked CMPXCHG, old value out of EAX. */
    int cx = find(th, X86_CMPXCHG, 0);
    assert_true(cx > 0);
    assert_true(th->code[cx].lock);
    assert_int_equal(th->code[cx - 1].op, X86_MOV);
    assert_int_equal(th->code[cx - 1].dst.reg, X86_EAX);
    assert_int_equal(th->code[cx + 1].src.reg, X86_EAX);
    assert_int_equal(th->code[cx + 1].dst.reg, x86_prog_lookup(p, 1, "r2"));
    /* EAX holds no value of its own in a thread that uses CMPXCHG. */
    for (int i = 0; i < p->nmap; i++)
        assert_int_not_equal(p->map[i].reg, X86_EAX);
    /* The add whose result nobody reads is a plain LOCK ADD, the other XADD. */
    int add = find(th, X86_ADD, 0);
    assert_true(add > cx);
    assert_true(th->code[add].lock);
    assert_int_equal(th->code[add].src.imm, 3);
    assert_true(find(th, X86_XADD, add) > add);
    /* Observed registers are all distinct (all live at the end). */
    x86_reg r[4] = {x86_prog_lookup(p, 1, "r0"), x86_prog_lookup(p, 1, "r1"), x86_prog_lookup(p, 1, "r2"),
                    x86_prog_lookup(p, 1, "r3")};
    for (int i = 0; i < 4; i++) {
        assert_int_not_equal(r[i], X86_NOREG);
        for (int j = 0; j < i; j++)
            assert_int_not_equal(r[i], r[j]);
    }
    /* Not runnable by herd7 7.57, and it says so. */
    assert_false(p->herd_ok);
    char *s = x86litmus_print(p);
    assert_false(p->x86_64);
    assert_non_null(strstr(s, "(* not runnable by herd7 7.57: thread 1 uses LOCK XADD, which herd7 7.57 runs in neither"));
    assert_non_null(strstr(s, "LOCK ADD [scratch0],$0"));
    assert_non_null(strstr(s, "[x]=1)\n"));
    free(s);
    x86_prog_free(p);
    ir_test_free(t);
}

/* A CAS alone: herd runs CMPXCHG only in X86_64 mode, so the test is
 * printed there, in AT&T syntax with herd's memory-first cmpxchg. */
static void test_cas_prints_x86_64(void **state)
{
    (void)state;
    const char *text =
        "test \"CAS\"\narch C\nloc x int init 0\n"
        "thread 0 P0\n  b0:\n    %0 = rmw.cas.sc &x, expected 0, new 1\n    ret\n  final r0 = %0\nend\n"
        "thread 1 P1\n  b0:\n    store.rlx &x, 2\n    %0 = load.acq &x\n    %1 = eq %0, 2\n    br %1, b1, b2\n"
        "  b1:\n    store.rlx &x, 3\n    jmp b2\n  b2:\n    ret\n  final r1 = %0\nend\n"
        "cond exists 0:r0=0 /\\ 1:r1=1\n";
    ir_test *t = read_ok(text);
    x86_prog *p = compile_ok(t, "c11-x86-xchg");
    assert_true(p->x86_64);
    assert_true(p->herd_ok);
    char *s = x86litmus_print(p);
    assert_non_null(strstr(s, "X86_64 CAS\n"));
    assert_non_null(strstr(s, " movq $0,%rax "));
    assert_non_null(strstr(s, " lock cmpxchgq (x),%rbx "));
    assert_non_null(strstr(s, " movq $2,(x) "));
    assert_non_null(strstr(s, " cmpq $2,%rax "));
    assert_non_null(strstr(s, " jne L1_0 "));
    assert_non_null(strstr(s, " L1_0: "));
    assert_non_null(strstr(s, "(* register map: 0:r0=0:rcx 1:r1=1:rax *)") ||
                    strstr(s, "(* register map: 0:r0=0:rbx 1:r1=1:rax *)"));
    assert_non_null(strstr(s, "exists (0:r"));
    assert_null(strstr(s, "not runnable"));
    assert_string_equal(x86_prog_reg_name(p, X86_EAX), "rax");
    free(s);
    x86_prog_free(p);
    ir_test_free(t);
}

static void test_identity_keeps_names(void **state)
{
    (void)state;
    const char *text =
        "test \"R\"\narch X86\nloc x int init 0\nloc y int init 0\n"
        "thread 0 P0\n  b0:\n    store.x86 &x, 1\n    fence.mfence\n    store.x86 &y, 1\n    ret\nend\n"
        "thread 1 P1\n  b0:\n    store.x86 &y, 2\n    %0 = rmw.xchg.locked &x, 3\n    %1 = load.x86 &x\n    ret\n"
        "  final EDX = %0\n  final ESI = %1\nend\n"
        "cond exists 1:EDX=0 /\\ 1:ESI=3 /\\ [y]=2\n";
    ir_test *t = read_ok(text);
    x86_prog *p = compile_ok(t, NULL);
    assert_string_equal(p->scheme, "x86-identity");
    assert_int_equal(x86_prog_lookup(p, 1, "EDX"), X86_EDX);
    assert_int_equal(x86_prog_lookup(p, 1, "ESI"), X86_ESI);
    char *s = x86litmus_print(p);
    assert_non_null(strstr(s, " MFENCE     | MOV EDX,$3   ;\n"));
    assert_non_null(strstr(s, "| XCHG [x],EDX ;\n"));
    assert_non_null(strstr(s, "exists (1:EDX=0 /\\ 1:ESI=3 /\\ [y]=2)") ||
                    strstr(s, "exists ((1:EDX=0 /\\ 1:ESI=3) /\\ [y]=2)"));
    assert_true(p->herd_ok);
    free(s);
    x86_prog_free(p);
    /* A C test has no identity compilation. */
    ir_test *c = read_ok(sb_c);
    diag d = {0};
    assert_null(x86_compile(c, NULL, &d));
    assert_non_null(strstr(d.msg, "needs a compilation scheme"));
    ir_test_free(c);
    ir_test_free(t);
}

static void test_too_many_registers(void **state)
{
    (void)state;
    strbuf b = {0};
    sb_add(&b, "test \"many\"\narch C\nloc x int init 0\nthread 0 P0\n  b0:\n");
    for (int i = 0; i < 9; i++)
        sb_printf(&b, "    %%%d = load.rlx &x\n", i);
    sb_add(&b, "    ret\n");
    for (int i = 0; i < 9; i++)
        sb_printf(&b, "  final r%d = %%%d\n", i, i);
    sb_add(&b, "end\ncond exists 0:r0=0");
    for (int i = 1; i < 9; i++)
        sb_printf(&b, " /\\ 0:r%d=0", i);
    sb_add(&b, "\n");
    ir_test *t = read_ok(b.s);
    diag d = {0};
    x86_scheme *s = x86_scheme_load("c11-x86-xchg", &d);
    assert_null(x86_compile(t, s, &d));
    assert_non_null(strstr(d.msg, "needs more than the 8 x86 registers"));
    x86_scheme_free(s);
    ir_test_free(t);
    sb_free(&b);
}

static void test_bad_names_and_ops(void **state)
{
    (void)state;
    assert_true(x86_loc_name_ok("x"));
    assert_true(x86_loc_name_ok("a_1"));
    assert_true(x86_loc_name_ok("P1x"));
    assert_false(x86_loc_name_ok("_a1"));
    assert_false(x86_loc_name_ok("P1"));
    assert_false(x86_loc_name_ok("setnb"));
    assert_false(x86_loc_name_ok("eax"));
    assert_false(x86_loc_name_ok("MFENCE"));
    assert_false(x86_loc_name_ok("odd name"));
    assert_false(x86_loc_name_ok("1x"));
    assert_false(x86_loc_name_ok(""));
    const char *text =
        "test \"T\"\narch C\nloc \"odd name\" int init 0\n"
        "thread 0 P0\n  b0:\n    %0 = load.rlx &\"odd name\"\n    ret\n  final r0 = %0\nend\n"
        "cond exists 0:r0=0\n";
    ir_test *t = read_ok(text);
    diag d = {0};
    x86_scheme *s = x86_scheme_load("c11-x86-xchg", &d);
    assert_null(x86_compile(t, s, &d));
    assert_non_null(strstr(d.msg, "location name 'odd name'"));
    ir_test_free(t);
    /* A multiplication has no instruction in herd's X86 subset. */
    const char *mul =
        "test \"T\"\narch C\nloc x int init 0\n"
        "thread 0 P0\n  b0:\n    %0 = load.rlx &x          @4:7\n    %1 = mul %0, 3   @5:9\n    store.rlx &x, %1\n"
        "    ret\nend\ncond exists [x]=0\n";
    t = read_ok(mul);
    diag e = {0};
    assert_null(x86_compile(t, s, &e));
    assert_int_equal(e.line, 5);
    assert_int_equal(e.col, 9);
    assert_non_null(strstr(e.msg, "'mul'"));
    ir_test_free(t);
    x86_scheme_free(s);
}

static void test_herd_reader(void **state)
{
    (void)state;
    ir_test *t = read_ok(sb_c);
    x86_prog *p = compile_ok(t, "c11-x86-xchg");
    ir_obs obs[2] = {{IR_OBS_REG, 0, (char *)"r0", -1}, {IR_OBS_REG, 1, (char *)"r0", -1}};
    const char *out = "Test SB+sc Allowed\nStates 3\n0:EAX=0; 1:EAX=1;\n0:EAX=1; 1:EAX=0;\n0:EAX=1; 1:EAX=1;\nNo\n";
    diag d = {0};
    bset *b = x86litmus_read_herd(out, p, obs, 2, &d);
    if (!b)
        fail_msg("%s", d.msg);
    assert_int_equal(b->nstates, 3);
    assert_int_equal(b->states[0].vals[0], 0);
    assert_int_equal(b->states[0].vals[1], 1);
    assert_int_equal(b->states[2].vals[1], 1);
    bset_free(b);
    diag e = {0};
    assert_null(x86litmus_read_herd("Test SB Allowed\nStates 1\n0:EBX=0;\n", p, obs, 2, &e));
    assert_non_null(strstr(e.msg, "no value for 0:EAX"));
    diag f = {0};
    assert_null(x86litmus_read_herd("Warning: nothing\n", p, obs, 2, &f));
    x86_prog_free(p);
    ir_test_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sb_xchg_text),
        cmocka_unit_test(test_sb_mfence_and_broken),
        cmocka_unit_test(test_branches_phis_cas),
        cmocka_unit_test(test_cas_prints_x86_64),
        cmocka_unit_test(test_identity_keeps_names),
        cmocka_unit_test(test_too_many_registers),
        cmocka_unit_test(test_bad_names_and_ops),
        cmocka_unit_test(test_herd_reader),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
