/* The AArch64 lifter on functions given as bytes, relocations and symbols
 * (taken from aarch64-linux-gnu-gcc's objects), so that no cross compiler
 * is needed: gcc's section anchor (.bss plus an offset) names each
 * location; an exclusive loop's retry is cut to cc_unroll; LSE, RCpc and
 * barriers are kept; a stack slot becomes a spare register, freed after
 * the slot's last read; an address dependency is a register offset, or
 * into STLR an address computed with ADDs; a jump back to a shared tail
 * lifts the tail again; a call and a pointer stored are refused naming
 * the thread. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "frontend/frontend.h"
#include "ir/lower.h"
#include "lift/lift.h"
#include "util/mem.h"

static const char *sb = "C SB\n{}\n"
                        "P0 (atomic_int* x, atomic_int* y) {\n"
                        "  atomic_store_explicit(x, 1, memory_order_seq_cst);\n"
                        "  int r0 = atomic_load_explicit(y, memory_order_seq_cst);\n"
                        "}\n"
                        "P1 (atomic_int* x, atomic_int* y) {\n"
                        "  atomic_store_explicit(y, 1, memory_order_seq_cst);\n"
                        "  int r0 = atomic_load_explicit(x, memory_order_seq_cst);\n"
                        "}\n"
                        "exists (0:r0=0 /\\ 1:r0=0)\n";

enum { BSS = 3 };

/* A function of WORDS with RELOCS, in an object whose .bss (section BSS)
 * holds x, y, P0_r0 and P1_r0 in that order. */
static lift_func func(const uint32_t *words, int n, const lift_reloc *relocs, int nrelocs)
{
    lift_func f = {0};
    f.name = xstrdup("P0");
    f.size = (size_t)n * 4;
    f.code = xmalloc(f.size);
    for (int i = 0; i < n; i++)
        for (int b = 0; b < 4; b++)
            f.code[4 * i + b] = (unsigned char)(words[i] >> (8 * b));
    f.relocs = xcalloc((size_t)nrelocs + 1, sizeof *f.relocs);
    for (int i = 0; i < nrelocs; i++) {
        f.relocs[i] = relocs[i];
        f.relocs[i].sym = xstrdup(relocs[i].sym);
    }
    f.nrelocs = nrelocs;
    static const char *const names[] = {"x", "y", "P0_r0", "P1_r0"};
    f.syms = xcalloc(4, sizeof *f.syms);
    for (int i = 0; i < 4; i++)
        f.syms[i] = (lift_sym){xstrdup(names[i]), BSS, (uint64_t)(4 * i), 4};
    f.nsyms = 4;
    return f;
}

/* The lifted text of SB with both threads' code F; NULL and D set when it does not lift. */
static char *lift(lift_func *f, diag *d)
{
    memset(d, 0, sizeof *d);
    fe_test *ft = fe_parse(sb, strlen(sb), "t.litmus", d);
    assert_non_null(ft);
    ir_test *t = ir_lower(ft, d);
    assert_non_null(t);
    lift_func fs[2] = {*f, *f};
    char *text = lift_a64_test_text(t, fs, "cc", d);
    lift_func_free(f);
    ir_test_free(t);
    fe_test_free(ft);
    return text;
}

static int setup(void **state)
{
    (void)state;
#ifndef LITMUSC_HAVE_LLVM
    skip();
#endif
    return 0;
}

/* gcc -O2: adrp/add of .bss, stlr, add #4 (y), ldar, str [x0,#8] (P0_r0) */
static void test_section_anchor(void **state)
{
    (void)state;
    static const uint32_t w[] = {0x90000000, 0x91000000, 0x52800021, 0x889ffc01,
                                 0x91001001, 0x88dffc21, 0xb9000801, 0xd65f03c0};
    lift_reloc r[] = {{0, ".bss", 0, 275, BSS, 0}, {4, ".bss", 0, 277, BSS, 0}};
    lift_func f = func(w, 8, r, 2);
    diag d;
    char *text = lift(&f, &d);
    assert_non_null(text);
    assert_non_null(strstr(text, "AArch64 SB\n"));
    assert_non_null(strstr(text, " STLR W1,[X9] "));
    assert_non_null(strstr(text, " LDAR W1,[X10] "));
    assert_non_null(strstr(text, " STR W1,[X11] "));
    assert_non_null(strstr(text, " 0:X9=x; 0:X10=y; 0:X11=P0_r0;"));
    assert_null(strstr(text, "ADRP"));
    assert_null(strstr(text, "RET"));
    free(text);
}

/* x0 = x, x1 = y; an LDAXR/STLXR loop on y, SWPAL, DMB, LDAPR on x, a stack slot */
static void test_exclusive_lse_stack(void **state)
{
    (void)state;
    static const uint32_t w[] = {0x90000000, 0x91000000, 0x90000001, 0x91000021, 0x885ffc23, 0x11000463,
                                 0x8802fc23, 0x35ffffa2, 0xb8e58002, 0xd5033bbf, 0xb8bfc004, 0xb9000fe4,
                                 0xb9400fe5, 0xd65f03c0};
    lift_reloc r[] = {{0, "x", 0, 275, BSS, 0}, {4, "x", 0, 277, BSS, 0}, {8, "y", 0, 275, BSS, 4},
                      {12, "y", 0, 277, BSS, 4}};
    lift_func f = func(w, 14, r, 4);
    diag d;
    char *text = lift(&f, &d);
    if (!text)
        fail_msg("%s", d.msg);
    const char *want[] = {" LDAXR W3,[X9] ", " ADD W3,W3,#1 ", " STLXR W2,W3,[X9] ", " CBNZ W2,L0_cut ",
                          " SWPAL W5,W2,[X10] ", " DMB ISH ", " LDAPR W4,[X10] ", " MOV W11,W4 ", " MOV W5,W11 ",
                          " L0_cut: ", " MOV W0,#1 ", " STR W0,[X12] ", " 0:X12=cc_unroll;", " int32_t cc_unroll=0;",
                          "locations [cc_unroll;]"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(text, want[i]))
            fail_msg("no '%s' in\n%s", want[i], text);
    free(text);
}

/* bl to libgcc's outline atomic: refused naming the callee */
static void test_call_refused(void **state)
{
    (void)state;
    static const uint32_t w[] = {0x90000000, 0x91000000, 0x94000000, 0xd65f03c0};
    lift_reloc r[] = {{0, "x", 0, 275, BSS, 0}, {4, "x", 0, 277, BSS, 0},
                      {8, "__aarch64_swp4_acq_rel", 0, 283, 0, 0}};
    lift_func f = func(w, 4, r, 3);
    diag d;
    assert_null(lift(&f, &d));
    assert_int_equal(d.status, 2);
    assert_non_null(strstr(d.msg, "P0: cannot lift 'bl __aarch64_swp4_acq_rel' (a call)"));
}

/* add x2, x0, x3 with x0 = x, then ldr w0, [x2]: an address dependency,
 * herd's register offset with x3's value copied to a spare register */
static void test_address_dependency(void **state)
{
    (void)state;
    static const uint32_t w[] = {0x90000000, 0x91000000, 0x8b030002, 0xb9400040, 0xd65f03c0};
    lift_reloc r[] = {{0, "x", 0, 275, BSS, 0}, {4, "x", 0, 277, BSS, 0}};
    lift_func f = func(w, 5, r, 2);
    diag d;
    char *text = lift(&f, &d);
    if (!text)
        fail_msg("%s", d.msg);
    if (!strstr(text, " MOV X9,X3 ") || !strstr(text, " LDR W0,[X10,X9] ") || !strstr(text, "0:X10=x;"))
        fail_msg("no register offset in\n%s", text);
    free(text);
}

/* ldr w1, [x0]; and x1, x1, #0x80; add x2, x0, x1, lsl #2; stlr w1, [x2]:
 * herd's STLR has no register offset, so the address is computed into a
 * spare register with ADDs (the shift as doublings), the dependency kept */
static void test_dependency_into_stlr(void **state)
{
    (void)state;
    static const uint32_t w[] = {0x90000000, 0x91000000, 0xb9400001, 0x92790021, 0x8b010802, 0x889ffc41,
                                 0xd65f03c0};
    lift_reloc r[] = {{0, "x", 0, 275, BSS, 0}, {4, "x", 0, 277, BSS, 0}};
    lift_func f = func(w, 7, r, 2);
    diag d;
    char *text = lift(&f, &d);
    if (!text)
        fail_msg("%s", d.msg);
    const char *want[] = {" LDR W1,[X9] ", " AND X1,X1,#128 ", " MOV X10,X1 ", " ADD X11,X10,X10 ",
                          " ADD X11,X11,X11 ", " ADD X11,X9,X11 ", " STLR W1,[X11] ", "0:X9=x;"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(text, want[i]))
            fail_msg("no '%s' in\n%s", want[i], text);
    free(text);
}

/* cbz w1, 1f; 2: str w1, [x0]; ret; 1: mov w1, #1; b 2b: the jump back is
 * to a tail that runs into RET, no loop: lifted again there, nothing cut */
static void test_shared_tail(void **state)
{
    (void)state;
    static const uint32_t w[] = {0x90000000, 0x91000000, 0xb9400001, 0x34000061, 0xb9000001, 0xd65f03c0,
                                 0x52800021, 0x17fffffd};
    lift_reloc r[] = {{0, "x", 0, 275, BSS, 0}, {4, "x", 0, 277, BSS, 0}};
    lift_func f = func(w, 8, r, 2);
    diag d;
    char *text = lift(&f, &d);
    if (!text)
        fail_msg("%s", d.msg);
    const char *second = strstr(text, " STR W1,[X9] ");
    if (!second || !strstr(second + 1, " STR W1,[X9] ") || !strstr(text, " MOV W1,#1 ") || strstr(text, "cut") ||
        !strstr(text, " L0_end: "))
        fail_msg("the tail not lifted again in\n%s", text);
    free(text);
}

/* str w1, [sp, #4]; ldr w2, [sp, #4]; str w2, [sp, #8]; ldr w3, [sp, #8]:
 * the second slot takes the register the first one's last read freed */
static void test_slot_register_reused(void **state)
{
    (void)state;
    static const uint32_t w[] = {0x90000000, 0x91000000, 0xb9400001, 0xb90007e1, 0xb94007e2, 0xb9000be2,
                                 0xb9400be3, 0xb9000003, 0xd65f03c0};
    lift_reloc r[] = {{0, "x", 0, 275, BSS, 0}, {4, "x", 0, 277, BSS, 0}};
    lift_func f = func(w, 9, r, 2);
    diag d;
    char *text = lift(&f, &d);
    if (!text)
        fail_msg("%s", d.msg);
    const char *want[] = {" MOV W10,W1 ", " MOV W2,W10 ", " MOV W10,W2 ", " MOV W3,W10 ", " STR W3,[X9] "};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(text, want[i]))
            fail_msg("no '%s' in\n%s", want[i], text);
    if (strstr(text, "X11") || strstr(text, "W11"))
        fail_msg("a second register for the second slot in\n%s", text);
    free(text);
}

/* str x0, [x1] with x0 = x and x1 = y: a pointer stored, refused */
static void test_pointer_stored(void **state)
{
    (void)state;
    static const uint32_t w[] = {0x90000000, 0x91000000, 0x90000001, 0x91000021, 0xf9000020, 0xd65f03c0};
    lift_reloc r[] = {{0, "x", 0, 275, BSS, 0}, {4, "x", 0, 277, BSS, 0}, {8, "y", 0, 275, BSS, 4},
                      {12, "y", 0, 277, BSS, 4}};
    lift_func f = func(w, 6, r, 4);
    diag d;
    assert_null(lift(&f, &d));
    assert_int_equal(d.status, 2);
    assert_non_null(strstr(d.msg, "P0: cannot lift 'str x0, [x1]' (a location's address used as a value"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_section_anchor, setup),
        cmocka_unit_test_setup(test_exclusive_lse_stack, setup),
        cmocka_unit_test_setup(test_call_refused, setup),
        cmocka_unit_test_setup(test_address_dependency, setup),
        cmocka_unit_test_setup(test_pointer_stored, setup),
        cmocka_unit_test_setup(test_dependency_into_stlr, setup),
        cmocka_unit_test_setup(test_shared_tail, setup),
        cmocka_unit_test_setup(test_slot_register_reused, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
