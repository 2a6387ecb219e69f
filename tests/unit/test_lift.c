/* The lifter on objects compiled here from C: gcc -O2's seq_cst store is
 * an xchg naming the global; gcc's seq_cst fence (lock orq $0,(%rsp))
 * becomes mfence; clang -O0's stack slots become spare registers; a call
 * is refused naming its callee and the thread. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "frontend/frontend.h"
#include "ir/lower.h"
#include "lift/lift.h"

/* The lifted text of the C test SRC built by CC with FLAGS; NULL with D
 * set when it does not lift. */
static char *lift_c(const char *src, const char *cc, const char *flags, diag *d)
{
    memset(d, 0, sizeof *d);
    fe_test *ft = fe_parse(src, strlen(src), "t.litmus", d);
    assert_non_null(ft);
    ir_test *t = ir_lower(ft, d);
    assert_non_null(t);
    char dir[] = "/tmp/test-lift-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char c[64], o[64];
    snprintf(c, sizeof c, "%s/t.c", dir);
    snprintf(o, sizeof o, "%s/t.o", dir);
    char *tu = lift_tu_text(ft, t, d);
    FILE *f = fopen(c, "w");
    fputs(tu, f);
    fclose(f);
    char *text = NULL;
    lift_func fn[4] = {0};
    if (lift_compile(cc, flags, c, o, d)) {
        bool ok = true;
        for (int n = 0; n < t->nthreads && ok; n++) {
            char name[16];
            snprintf(name, sizeof name, "P%d", n);
            ok = lift_elf_func(o, name, &fn[n], d);
        }
        if (ok) {
            char *why = NULL;
            text = lift_test_text(t, fn, 2, "cc", &why, d);
            free(why);
        }
    }
    for (int n = 0; n < 4; n++)
        lift_func_free(&fn[n]);
    unlink(c), unlink(o), rmdir(dir);
    free(tu);
    ir_test_free(t);
    fe_test_free(ft);
    return text;
}

static const char *sb_sc = "C SB\n{}\n"
                           "P0 (atomic_int* x, atomic_int* y) {\n"
                           "  atomic_store(x, 1);\n  int r0 = atomic_load(y);\n}\n"
                           "P1 (atomic_int* x, atomic_int* y) {\n"
                           "  atomic_store_explicit(y, 1, memory_order_relaxed);\n"
                           "  atomic_thread_fence(memory_order_seq_cst);\n"
                           "  int r0 = atomic_load_explicit(x, memory_order_relaxed);\n}\n"
                           "exists (0:r0=0 /\\ 1:r0=0)\n";

static void gcc_o2_sc_store_and_fence(void **state)
{
    (void)state;
    diag d;
    char *s = lift_c(sb_sc, "gcc", "-O2", &d);
    assert_non_null(s);
    assert_non_null(strstr(s, "xchgl %eax, (x)") ? strstr(s, "xchgl %eax, (x)") : strstr(s, "xchgl (x), %eax"));
    assert_non_null(strstr(s, "mfence"));
    assert_non_null(strstr(s, "movl %eax, (P0_r0)"));
    assert_non_null(strstr(s, "exists ((P0_r0=0 /\\ P1_r0=0))"));
    assert_null(strstr(s, "lock or"));
    free(s);
}

static void clang_o0_stack_slots_are_registers(void **state)
{
    (void)state;
    diag d;
    char *s = lift_c(sb_sc, "clang", "-O0", &d);
    assert_non_null(s);
    assert_null(strstr(s, "%rbp"));
    assert_null(strstr(s, "push"));
    assert_non_null(strstr(s, "%r8d"));
    free(s);
}

static void call_refused_by_name(void **state)
{
    (void)state;
    diag d;
    char *s = lift_c(sb_sc, "gcc", "-O2 -fstack-protector-all", &d);
    assert_null(s);
    assert_true(d.set);
    assert_int_equal(d.status, 2);
    assert_non_null(strstr(d.msg, "P0: cannot lift 'call __stack_chk_fail' (a call)"));
}

/* A register declared in an if's block: declared at the function's top
 * (0, herd's value when the branch is not taken), assigned in the block;
 * one declared at function scope is left as written; the TU compiles. */
static void inner_block_register_hoisted(void **state)
{
    (void)state;
    const char *src = "C MP+ctrl\n{}\n"
                      "P0 (volatile int* y, volatile int* x) {\n  *x = 1;\n  *y = 1;\n}\n"
                      "P1 (volatile int* y, volatile int* x) {\n  int r0 = *y;\n"
                      "  if (r0 == 1) {\n    int r1 = *x;\n  }\n}\n"
                      "exists (1:r0=1 /\\ 1:r1=0)\n";
    diag d = {0};
    fe_test *ft = fe_parse(src, strlen(src), "t.litmus", &d);
    assert_non_null(ft);
    ir_test *t = ir_lower(ft, &d);
    assert_non_null(t);
    char *body = lift_tu_hoist(ft->threads[1].body_text, &t->threads[1]);
    assert_non_null(strstr(body, "  int r1 = 0;\n"));
    assert_non_null(strstr(body, "{\n    r1 = *x;"));
    assert_non_null(strstr(body, "int r0 = *y;"));
    assert_null(strstr(body, "int r0 = 0;"));
    free(body);
    ir_test_free(t);
    fe_test_free(ft);
    char *s = lift_c(src, "gcc", "-O2", &d);
    assert_non_null(s);
    assert_non_null(strstr(s, "P1_r1"));
    free(s);
}

/* gcc -O0 keeps each pointer in a stack slot (movq $x,-8(%rbp)) and
 * reloads it before each access: the access lifts to (x) and the
 * address moves disappear, also in a branch's block. */
static void gcc_o0_pointer_slots_lift(void **state)
{
    (void)state;
    diag d;
    char *s = lift_c(sb_sc, "gcc", "-O0", &d);
    assert_non_null(s);
    assert_non_null(strstr(s, "(x)"));
    assert_non_null(strstr(s, "(y)"));
    assert_null(strstr(s, "(%rax)"));
    assert_null(strstr(s, "movq $0"));
    assert_null(strstr(s, "%rbp"));
    free(s);
    const char *ctrl = "C WRC+ctrl\n{}\n"
                       "P0 (atomic_int* y, atomic_int* x) {\n  int r0 = atomic_load_explicit(x, memory_order_acquire);\n"
                       "  if (r0 == 1) {\n    atomic_store_explicit(y, 1, memory_order_release);\n  }\n}\n"
                       "P1 (atomic_int* y, atomic_int* x) {\n  atomic_store_explicit(x, 1, memory_order_relaxed);\n}\n"
                       "exists (0:r0=1)\n";
    s = lift_c(ctrl, "gcc", "-O0", &d);
    assert_non_null(s);
    assert_non_null(strstr(s, "(y)"));
    free(s);
}

/* x + (r0 & 128): gcc -O2's x(,%rdx,4) lifts to herd's (%r8,%rdx,4)
 * with %r8 holding x's address from the init; gcc -O0's arithmetic on
 * x's address (addq) cannot be said: refused naming the instruction. */
static void address_dependency_refused_by_name(void **state)
{
    (void)state;
    const char *src = "C MP+addr\n{}\n"
                      "P0 (atomic_int* y, atomic_int* x) {\n  atomic_store_explicit(x, 1, memory_order_relaxed);\n"
                      "  atomic_store_explicit(y, 1, memory_order_release);\n}\n"
                      "P1 (atomic_int* y, atomic_int* x) {\n  int r0 = atomic_load_explicit(y, memory_order_relaxed);\n"
                      "  int r1 = atomic_load_explicit(x + (r0 & 128), memory_order_relaxed);\n}\n"
                      "exists (1:r0=1 /\\ 1:r1=0)\n";
    diag d;
    char *s = lift_c(src, "gcc", "-O0", &d);
    assert_null(s);
    assert_int_equal(d.status, 2);
    s = lift_c(src, "gcc", "-O2", &d);
    assert_non_null(s);
    const char *init = strstr(s, "  uint64_t 1:r");
    assert_non_null(init);
    char reg[8];
    assert_int_equal(sscanf(init, "  uint64_t 1:%7[a-z0-9]=x;", reg), 1);
    char op[32];
    snprintf(op, sizeof op, "(%%%s,%%r", reg);
    assert_non_null(strstr(s, op));
    free(s);
}

static char **rows_of(const char *const *v, int n)
{
    char **r = calloc((size_t)n, sizeof *r);
    for (int i = 0; i < n; i++)
        r[i] = strdup(v[i]);
    return r;
}

/* gcc -O1's layout of `if (r0 == 1) r1 = *x;`: the then-block after the
 * ret, jumping back to the join, becomes the join's copy; a conditional
 * jump back (a retry loop) is refused with --unroll 0, and unrolled twice
 * with 2, the last copy's jump back a store to cc_unroll. */
static void jump_back_to_join_copied_loop_refused(void **state)
{
    (void)state;
    const char *const join[] = {"movl y(%rip), %eax", "cmpl $1, %eax", "je L1d", "L10:",
                                "movl %edx, P1_r1(%rip)", "ret", "L1d:", "movl x(%rip), %edx", "jmp L10"};
    char **r = rows_of(join, 9);
    int n = 9;
    diag d = {0};
    bool unrolled = false;
    assert_true(lift_layout(&r, &n, 1, 2, &unrolled, "t.litmus", &d));
    assert_false(unrolled);
    assert_int_equal(n, 10);
    assert_string_equal(r[7], "movl x(%rip), %edx");
    assert_string_equal(r[8], "movl %edx, P1_r1(%rip)");
    assert_string_equal(r[9], "ret");
    strv_free(r, n);
    const char *const loop[] = {"L5:", "movl x(%rip), %eax", "lock cmpxchgl %edx, x(%rip)", "jne L5"};
    r = rows_of(loop, 4);
    n = 4;
    assert_false(lift_layout(&r, &n, 0, 0, &unrolled, "t.litmus", &d));
    assert_int_equal(d.status, 2);
    strv_free(r, n);
    r = rows_of(loop, 4);
    n = 4;
    d = (diag){0};
    assert_true(lift_layout(&r, &n, 0, 2, &unrolled, "t.litmus", &d));
    assert_true(unrolled);
    /* two copies, each a jcc forward and a jmp out, then the cut and the exit */
    const char *const want[] = {"L5:", "movl x(%rip), %eax", "lock cmpxchgl %edx, x(%rip)", "jne L5u1k1", "jmp Lexit1",
                                "L5u1k1:", "movl x(%rip), %eax", "lock cmpxchgl %edx, x(%rip)", "jne Lcut1",
                                "jmp Lexit1", "Lcut1:", "movl $1, cc_unroll(%rip)", "ret", "Lexit1:"};
    assert_int_equal(n, 14);
    for (int i = 0; i < 14; i++)
        assert_string_equal(r[i], want[i]);
    strv_free(r, n);
}

int main(void)
{
    if (system("gcc --version >/dev/null 2>&1") || system("clang --version >/dev/null 2>&1")) {
        puts("SKIP: needs gcc and clang");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gcc_o2_sc_store_and_fence),
        cmocka_unit_test(clang_o0_stack_slots_are_registers),
        cmocka_unit_test(call_refused_by_name),
        cmocka_unit_test(inner_block_register_hoisted),
        cmocka_unit_test(gcc_o0_pointer_slots_lift),
        cmocka_unit_test(address_dependency_refused_by_name),
        cmocka_unit_test(jump_back_to_join_copied_loop_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
