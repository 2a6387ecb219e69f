/* Unit tests of the x86 inline-asm generator (backends/x86native) and the
 * shared frame: operand constraints, markers and clobbers in the emitted
 * asm; programs that compile under gcc and clang and run; outcomes that
 * x86-TSO forbids and so can never be observed; and refusals with a diag. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "backends/native.h"
#include "backends/x86native/x86native.h"
#include "ir/ir.h"
#include "util/mem.h"
#include "native_build.h"
#include "tests/unit/unit_litmus.h"

static ir_test *read_ir(const char *text)
{
    diag d = {0};
    ir_test *t = ir_read(text, "t.ir", &d);
    if (!t)
        fail_msg("ir_read: %d:%d: %s", d.line, d.col, d.msg);
    if (!ir_verify(t, &d))
        fail_msg("ir_verify: %s", d.msg);
    return t;
}

/* T's x86 harness through SCHEME (NULL: the arch's default); frees T. */
static char *gen_x86_of(ir_test *t, const char *scheme)
{
    native_opts o;
    native_opts_init(&o);
    o.target = NATIVE_X86;
    o.scheme = scheme;
    diag d = {0};
    char *src = native_generate(t, &o, &d);
    if (!src)
        fail_msg("native_generate: %s:%d:%d: %s", d.file, d.line, d.col, d.msg);
    ir_test_free(t);
    return src;
}

static char *gen_x86(const char *text, const char *scheme)
{
    return gen_x86_of(read_ir(text), scheme);
}

static void assert_has(const char *src, const char *what)
{
    if (!strstr(src, what))
        fail_msg("generated source lacks: %s\n----\n%s", what, src);
}

/* Sum of the counts of outcomes whose values start with PREFIX. */
static uint64_t outcomes_with(const char *out, const char *prefix)
{
    uint64_t sum = 0;
    for (const char *p = out; (p = strstr(p, "\noutcome ")) != NULL; p++) {
        unsigned long long c;
        int len = 0;
        if (sscanf(p, "\noutcome %llu %n", &c, &len) == 1 && !strncmp(p + len, prefix, strlen(prefix)))
            sum += c;
    }
    return sum;
}

static uint64_t iterations(const char *out)
{
    const char *p = strstr(out, "\niterations ");
    unsigned long long n = 0;
    if (!p || sscanf(p, "\niterations %llu", &n) != 1)
        fail_msg("no iterations line in:\n%s", out);
    return n;
}

static const char sb_x86[] =
    "test \"SB\"\narch X86\nloc x int init 0\nloc y int init 0\n"
    "thread 0 P0\n  b0:\n    store.x86 &x, 1\n    %0 = load.x86 &y\n    ret\n  final EAX = %0\nend\n"
    "thread 1 P1\n  b0:\n    store.x86 &y, 1\n    %0 = load.x86 &x\n    ret\n  final EAX = %0\nend\n"
    "cond exists 0:EAX=0 /\\ 1:EAX=0\n";

static void test_sb_asm_shape(void **state)
{
    (void)state;
    char *src = gen_x86(sb_x86, NULL);
    assert_has(src, "__asm__ __volatile__(");
    assert_has(src, "\"#START _litmus_P0\\n\"");
    assert_has(src, "\"#_litmus_P0_0\\n\"");
    assert_has(src, "\"\\tmovl $1,%[m0]\\n\"");
    assert_has(src, "\"\\tmovl %[m1],%k[eax]\\n\"");
    assert_has(src, "\"#END _litmus_P1\\n\"");
    assert_has(src, "[m0] \"+m\" (*(volatile int32_t *)lt_c[0])");
    assert_has(src, "[eax] \"+&a\" (lt_eax)");
    assert_has(src, ": \"cc\", \"memory\");");
    assert_has(src, "lt_out[0] = (int64_t)(int32_t)lt_eax;");
    /* The gapped twin: a spin before each access, from lt_gap[k], in a
     * scratch register; its markers do not pass for the test's. */
    assert_has(src, "static inline void lt_gthread_1(void *const *lt_c, int64_t *lt_out, const uint32_t *lt_gap)");
    assert_has(src, "\"#START _litmus_gapped_P0\\n\"");
    assert_has(src, "\"\\tmovl 0(%q[gp]), %k[gc]\\n\"");
    assert_has(src, "\"\\tmovl 4(%q[gp]), %k[gc]\\n\"");
    assert_has(src, "[gc] \"=&r\" (lt_gc)\n        : [gp] \"r\" (lt_gap)");
    /* a gap of all ones switches: lrt_switch called below the red zone,
     * every register and the flags saved, the vector registers clobbered */
    assert_has(src, "\"\\tcmpl $-1, %k[gc]\\n\\tjne 1f\\n\"");
    assert_has(src, "\"\\tleaq -128(%%rsp), %%rsp\\n\\tpushfq\\n\"");
    assert_has(src, "\"\\tpushq %%r15\\n\"");
    assert_has(src, "\\tandq $-16, %%rsp\\n\\tcall lrt_switch\\n\\tmovq %%rbx, %%rsp\\n");
    assert_has(src, "\"\\tpopq %%rax\\n\"");
    assert_has(src, "\"\\tpopfq\\n\\tleaq 128(%%rsp), %%rsp\\n\\tjmp 2f\\n\"");
    assert_has(src, "\"xmm15\");");
    assert_has(src, "static const lrt_gap_sweep_fn lt_gsweeps[2] = {lt_gsweep_0, lt_gsweep_1};");
    /* what each thread loads and stores, a bit per location (x, y) */
    assert_has(src, "static const uint64_t lt_loads[] = {0x2u, 0x1u};");
    assert_has(src, "static const uint64_t lt_stores[] = {0x1u, 0x2u};");
    assert_has(src, "lt_gsweeps, lt_loads, lt_stores,\n    lt_asweeps, lt_acount_range\n};");
    /* the array layout's sweeps: each instance's cells computed from the
     * locations' first cells (4 bytes apart), not read from the table */
    assert_has(src, "static lrt_sweep_fn lt_asweeps[2] = {lt_asweep_0, lt_asweep_1};");
    assert_has(src, "    char *const lt_b0 = (char *)lt_c[0], *const lt_b1 = (char *)lt_c[1];\n");
    assert_has(src, "        void *const lt_ci[2] = {lt_b0 + (lt_i) * 4, lt_b1 + (lt_i) * 4};\n"
                    "        lt_thread_0(lt_ci, lt_out + lt_i * 1);\n");
    assert_has(src, "        void *const lt_ci3[2] = {lt_b0 + (lt_i + 3) * 4, lt_b1 + (lt_i + 3) * 4};\n"
                    "        lt_thread_1(lt_ci3, lt_blk + 3);\n");
    assert_has(src, "    lt_asweeps[1] = lt_awsweep_1;\n");
    assert_has(src, "        memset(lt_b1 + lt_lo * 4, 0, (lt_hi - lt_lo) * 4);\n");
    free(src);
}

/* The same test in X86_64 syntax: 64-bit cells, instruction forms and
 * registers, and registers copied out whole (no 32-bit truncation). */
static void test_sb_x86_64_is_wide(void **state)
{
    (void)state;
    const char *rest = strstr(sb_x86, "arch X86\n");
    assert_non_null(rest);
    char *text = xasprintf("test \"SB\"\narch X86_64\n%s", rest + strlen("arch X86\n"));
    char *src = gen_x86(text, NULL);
    assert_has(src, "\"\\tmovq $1,%[m0]\\n\"");
    assert_has(src, "\"\\tmovq %[m1],%q[eax]\\n\"");
    assert_has(src, "[m0] \"+m\" (*(volatile int64_t *)lt_c[0])");
    assert_has(src, "atomic_store_explicit((_Atomic int64_t *)lt_c[0]");
    assert_has(src, "lt_out[0] = lt_eax;");
    free(src);
    free(text);
}

/* MP with locked RMWs, a fence and a branch with a phi.  Thread 0:
 * x=1; y=1; EAX = lock xadd x,5 (old 1); mfence; EBX = xchg y,7 (old 1).
 * Thread 1: EAX=y; EBX=x; ECX = EAX==1 ? EBX : 9.
 * TSO keeps stores in order: seeing y=1 (or 7) with x=0 is impossible. */
static const char mp_x86[] =
    "test \"MP+rmw\"\narch X86\nloc x int init 0\nloc y int init 0\n"
    "thread 0 P0\n  b0:\n    store.x86 &x, 1\n    store.x86 &y, 1\n    %0 = rmw.add.locked &x, 5\n"
    "    fence.mfence\n    %1 = rmw.xchg.locked &y, 7\n    ret\n  final EAX = %0\n  final EBX = %1\nend\n"
    "thread 1 P1\n  b0:\n    %0 = load.x86 &y\n    %1 = load.x86 &x\n    %2 = eq %0, 1\n    br %2, b1, b2\n"
    "  b1:\n    jmp b2\n  b2:\n    %3 = phi [%1, b1], [9, b0]\n    ret\n"
    "  final EAX = %0\n  final EBX = %1\n  final ECX = %3\nend\n"
    "cond exists 1:EAX=1 /\\ 1:EBX=0 /\\ 0:EAX=1 /\\ 0:EBX=1 /\\ 1:ECX=0\n"
    "locations [x] [y]\n";

static void test_mp_rmw_runs(void **state)
{
    (void)state;
    char *src = gen_x86(mp_x86, NULL);
    assert_has(src, "lock xaddl");
    assert_has(src, "\"\\tmfence\\n\"");
    assert_has(src, "xchgl");
    assert_has(src, "lt_L0_%=");
    const char *ccs[] = {"gcc", "clang"};
    for (int i = 0; i < 2; i++) {
        if (!unit_have_cc(ccs[i]))
            continue;
        char *out = unit_build_run(src, ccs[i], "-s 20000 -r 5 --sync timebase");
        assert_int_equal(iterations(out), 100000);
        /* Observables: 0:EAX 0:EBX 1:EAX 1:EBX 1:ECX [x] [y].  Thread 0
         * always reads its own writes back through the RMWs, and the
         * final memory is always x=6, y=7. */
        assert_int_equal(outcomes_with(out, "1 1 "), 100000);
        uint64_t final_ok = 0;
        for (const char *p = out; (p = strstr(p, " 6 7\n")) != NULL; p++)
            final_ok++;
        if (final_ok == 0)
            fail_msg("no outcome ends with x=6 y=7:\n%s", out);
        /* Forbidden by TSO: y seen as 1 or 7 but x as 0. */
        assert_int_equal(outcomes_with(out, "1 1 1 0 "), 0);
        assert_int_equal(outcomes_with(out, "1 1 7 0 "), 0);
        /* The phi: when y was not 1, ECX is 9. */
        assert_int_equal(outcomes_with(out, "1 1 0 0 0 "), 0);
        free(out);
    }
    free(src);
}

/* C SB with seq_cst accesses through the default scheme (XCHG stores):
 * never both zero on x86. */
static const char sb_c_sc[] =
    "test \"SB+sc\"\narch C\n"
    "loc x int ctype \"atomic_int\" atomic init 0\nloc y int ctype \"atomic_int\" atomic init 0\n"
    "thread 0 P0\n  b0:\n    store.sc &x, 1\n    %0 = load.sc &y\n    ret\n  final r0 = %0\nend\n"
    "thread 1 P1\n  b0:\n    store.sc &y, 1\n    %0 = load.sc &x\n    ret\n  final r0 = %0\nend\n"
    "cond exists 0:r0=0 /\\ 1:r0=0\n";

/* Where gcc is there: SRC built and run for 100000 iterations, none of
 * them an outcome starting with FORBIDDEN. */
static void assert_never_runs_to(const char *src, const char *forbidden)
{
    if (!unit_have_cc("gcc"))
        return;
    char *out = unit_build_run(src, "gcc", "-s 20000 -r 5");
    assert_int_equal(iterations(out), 100000);
    assert_int_equal(outcomes_with(out, forbidden), 0);
    free(out);
}

static void test_c_through_scheme(void **state)
{
    (void)state;
    char *src = gen_x86(sb_c_sc, NULL);
    assert_has(src, "scheme c11-x86-xchg");
    assert_has(src, "xchgl");
    assert_never_runs_to(src, "0 0\n");
    free(src);
    src = gen_x86(sb_c_sc, "c11-x86-mfence");
    assert_has(src, "mfence");
    free(src);
}

/* A C address dependency through the default scheme: P1 copies x's
 * address and adds (r0 & 128) to it, then loads through it.  The address
 * is a host pointer, so the copy and the add are 64-bit (movq, addq)
 * though the test's data are 32-bit: with movl the pointer lost its
 * upper half and the runner faulted.  The load itself is 32-bit. */
static const char mp_addr_c[] =
    "C MP+porlxrel+addrrlxrlx\n{}\n"
    "P0 (atomic_int* y,atomic_int* x) {\n"
    "  atomic_store_explicit(x,1,memory_order_relaxed);\n"
    "  atomic_store_explicit(y,1,memory_order_release);\n}\n"
    "P1 (atomic_int* y,atomic_int* x) {\n"
    "  int r0 = atomic_load_explicit(y,memory_order_relaxed);\n"
    "  int r1 = atomic_load_explicit(x + (r0 & 128),memory_order_relaxed);\n}\n"
    "exists (1:r0=1 /\\ 1:r1=0)\n";

static void test_address_dependency_is_wide(void **state)
{
    (void)state;
    char *src = gen_x86_of(unit_litmus(mp_addr_c), NULL);
    assert_has(src, "\\tmovq %q[");
    assert_has(src, "\\taddq %q[");
    assert_has(src, "\\tandl $128,");
    assert_has(src, "\\tmovl (%q[");
    /* x86 keeps the loads in order: never y=1 then x=0 */
    assert_never_runs_to(src, "1 0\n");
    free(src);
}

/* The address registers, instruction by instruction: EAX starts with x's
 * address; a copy to EDX carries it, adding data to EDX keeps it, a load
 * into EAX replaces it with data, XCHG with a cell puts the cell's data
 * in EDX, and a jump carries what holds at it to its label. */
static void test_address_registers(void **state)
{
    (void)state;
    x86_opnd eax = {.kind = X86_O_REG, .reg = X86_EAX}, ecx = {.kind = X86_O_REG, .reg = X86_ECX},
             edx = {.kind = X86_O_REG, .reg = X86_EDX}, at_edx = {.kind = X86_O_MEM_REG, .reg = X86_EDX},
             x = {.kind = X86_O_MEM, .loc = 0}, one = {.kind = X86_O_IMM, .imm = 1},
             l0 = {.kind = X86_O_LABEL, .label = 0};
    x86_instr code[] = {
        {.op = X86_MOV, .dst = edx, .src = eax},        /* 0: EAX */
        {.op = X86_ADD, .dst = edx, .src = ecx},        /* 1: EAX EDX */
        {.op = X86_JE, .dst = l0},                      /* 2: EAX EDX */
        {.op = X86_MOV, .dst = eax, .src = at_edx},     /* 3: EAX EDX */
        {.op = X86_XCHG, .dst = x, .src = edx},         /* 4: EDX */
        {.op = X86_LABEL, .label = 0},                  /* 5: from 2 and 4 */
        {.op = X86_MOV, .dst = ecx, .src = one},        /* 6 */
    };
    x86_init_reg init = {X86_EAX, IR_ADDR(0)};
    x86_thread xt = {.id = 0, .code = code, .ncode = 7, .inits = &init, .ninits = 1};
    unsigned before[7];
    x86native_address_regs(&xt, before);
    unsigned A = 1u << X86_EAX, D = 1u << X86_EDX;
    assert_int_equal(before[0], A);
    assert_int_equal(before[1], A | D);
    assert_int_equal(before[3], A | D);
    assert_int_equal(before[4], D);
    assert_int_equal(before[5], A | D);
    assert_int_equal(before[6], A | D);
    /* 64-bit forms: the copy and the add; not the load, nor a constant */
    assert_true(x86native_address_op(&code[0], before[0]));
    assert_true(x86native_address_op(&code[1], before[1]));
    assert_false(x86native_address_op(&code[3], before[3]));
    assert_false(x86native_address_op(&code[6], before[6]));
}

static void expect_refusal(const char *text, const char *scheme, const char *msg)
{
    ir_test *t = read_ir(text);
    native_opts o;
    native_opts_init(&o);
    o.target = NATIVE_X86;
    o.scheme = scheme;
    diag d = {0};
    char *src = native_generate(t, &o, &d);
    if (src)
        fail_msg("generated code for a test it should refuse");
    assert_true(d.set);
    assert_int_equal(d.status, 2);
    if (!strstr(d.msg, msg))
        fail_msg("diag '%s' lacks '%s'", d.msg, msg);
    ir_test_free(t);
}

static void test_refusals(void **state)
{
    (void)state;
    /* 64-bit cells have no 32-bit x86 form. */
    expect_refusal("test \"W\"\narch C\nloc x int ctype \"atomic_long\" atomic init 0\n"
                   "thread 0 P0\n  b0:\n    store.rlx &x, 1\n    ret\nend\ncond exists [x]=1\n",
                   NULL, "32-bit");
    /* A Java scheme for a C test. */
    expect_refusal(sb_c_sc, "java-x86-hotspot", "scheme");
    assert_string_equal(x86native_default_scheme(IR_ARCH_C), "c11-x86-xchg");
    assert_string_equal(x86native_default_scheme(IR_ARCH_JAVA), "java-x86-hotspot");
    assert_null(x86native_default_scheme(IR_ARCH_X86));
}

/* The runtime files the harness must compile: headers and sources. */
static void test_runtime_files(void **state)
{
    (void)state;
    bool have_h = false, have_main = false;
    int n = 0;
    for (const embed_file *f; (f = native_runtime_file(n)) != NULL; n++) {
        assert_memory_equal(f->path, "runtime/", 8);
        have_h |= !strcmp(f->path, "runtime/lrt.h");
        have_main |= strstr(f->data, "int lrt_main(") != NULL && strstr(f->path, ".c") != NULL;
    }
    assert_true(n >= 4);
    assert_true(have_h);
    assert_true(have_main);
    char *s = native_file_stem("../a b/c*:d");
    assert_string_equal(s, "_._a_b_c__d");
    free(s);
    s = native_file_stem("");
    assert_string_equal(s, "test");
    free(s);
    s = native_file_stem("MP+rel.acq-2");
    assert_string_equal(s, "MP+rel.acq-2");
    free(s);
}

/* Threads of one, two, three and four outputs, each reading back what it
 * stored, so that every instance ends the same way: the wide sweeps
 * (backends/native/wide_sweep.c) for the threads of 1, 2 and 4 outputs
 * (blocks of 4, 2 and 1 instances), the plain one for 3.  A run of 1003
 * instances, not a multiple of a block, ends each wide sweep in its
 * plain tail; an output put in the wrong slot, or a slot left unwritten,
 * shows as another outcome.  Where the CPU has AVX2 (as every x86-64
 * this project builds on has) the wide sweeps are what runs. */
static const char outputs_x86[] =
    "test \"W\"\narch X86\nloc x int init 0\nloc y int init 0\nloc z int init 0\nloc w int init 0\n"
    "thread 0 P0\n  b0:\n    store.x86 &x, 1\n    %0 = load.x86 &x\n    ret\n  final EAX = %0\nend\n"
    "thread 1 P1\n  b0:\n    store.x86 &y, 2\n    %0 = load.x86 &y\n    store.x86 &y, 3\n    %1 = load.x86 &y\n"
    "    ret\n  final EAX = %0\n  final EBX = %1\nend\n"
    "thread 2 P2\n  b0:\n    store.x86 &z, 4\n    %0 = load.x86 &z\n    store.x86 &z, 5\n    %1 = load.x86 &z\n"
    "    store.x86 &z, 6\n    %2 = load.x86 &z\n    ret\n  final EAX = %0\n  final EBX = %1\n  final ECX = %2\nend\n"
    "thread 3 P3\n  b0:\n    store.x86 &w, 7\n    %0 = load.x86 &w\n    store.x86 &w, 8\n    %1 = load.x86 &w\n"
    "    store.x86 &w, 9\n    %2 = load.x86 &w\n    store.x86 &w, 10\n    %3 = load.x86 &w\n    ret\n"
    "  final EAX = %0\n  final EBX = %1\n  final ECX = %2\n  final EDX = %3\nend\n"
    "cond exists 0:EAX=0 /\\ 1:EAX=0 /\\ 1:EBX=0 /\\ 2:EAX=0 /\\ 2:EBX=0 /\\ 2:ECX=0 /\\ 3:EAX=0 /\\ 3:EBX=0 /\\ "
    "3:ECX=0 /\\ 3:EDX=0\n";

static void test_wide_sweeps_place_outputs(void **state)
{
    (void)state;
    char *src = gen_x86(outputs_x86, NULL);
    assert_has(src, "#define LT_WIDE __attribute__((target(\"avx2\")))");
    assert_has(src, "LT_WIDE static void lt_wsweep_0(");
    assert_has(src, "    for (; lt_i + 4 <= lt_hi; lt_i += 4) {\n        int64_t lt_blk[4];\n");
    assert_has(src, "        lt_put4(lt_out + lt_i * 2 + 0, lt_blk[0], lt_blk[1], lt_blk[2], lt_blk[3]);\n");
    assert_has(src, "        lt_put4(lt_out + lt_i * 4 + 0, lt_blk[0], lt_blk[1], lt_blk[2], lt_blk[3]);\n");
    assert_null(strstr(src, "lt_wsweep_2("));
    assert_has(src, "    lt_sweeps[3] = lt_wsweep_3;\n");
    assert_has(src, "    lt_pick_sweeps();\n");
    const char *ccs[] = {"gcc", "clang"};
    for (int i = 0; i < 2; i++) {
        if (!unit_have_cc(ccs[i]))
            continue;
        char *out = unit_build_run(src, ccs[i], "-s 1003 -r 3");
        assert_int_equal(iterations(out), 3009);
        assert_int_equal(outcomes_with(out, "1 2 3 4 5 6 7 8 9 10\n"), 3009);
        free(out);
    }
    free(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sb_asm_shape),
        cmocka_unit_test(test_sb_x86_64_is_wide),
        cmocka_unit_test(test_mp_rmw_runs),
        cmocka_unit_test(test_c_through_scheme),
        cmocka_unit_test(test_address_dependency_is_wide),
        cmocka_unit_test(test_address_registers),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_runtime_files),
        cmocka_unit_test(test_wide_sweeps_place_outputs),
    };
    return cmocka_run_group_tests_name("x86 native generator", tests, NULL, NULL);
}
