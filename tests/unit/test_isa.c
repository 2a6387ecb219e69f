/* Unit tests of the instruction-set table (isa/isa.c): each test
 * architecture finds its row by its fe_arch and ir_arch value, the source
 * languages find none, a header name finds its row exactly as herd spells
 * it, and the answers the rest of the program asks of a row (the default
 * model, the native target, all-atomic accesses) are X86's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "frontend/frontend.h"
#include "ir/ir.h"
#include "isa/isa.h"
#include "model/model.h"

/* fe_arch and ir_arch values reach the same row; C and Java reach none. */
static void test_rows_by_arch(void **state)
{
    (void)state;
    assert_string_equal(isa_of(IR_ARCH_X86)->name, "X86");
    assert_string_equal(isa_of(FE_ARCH_X86_64)->name, "X86_64");
    assert_ptr_equal(isa_of(IR_ARCH_X86_64), isa_of(FE_ARCH_X86_64));
    assert_null(isa_of(IR_ARCH_C));
    assert_null(isa_of(FE_ARCH_JAVA));
    assert_null(isa_of(-1));
    for (int i = 0; i < ISA_COUNT; i++) {
        assert_int_equal(isa_at(i)->id, i);
        assert_string_equal(ir_arch_name((ir_arch)i), isa_at(i)->name);
    }
    assert_null(isa_at(ISA_COUNT));
}

/* herd matches the header's architecture name exactly: "x86" is not X86. */
static void test_named(void **state)
{
    (void)state;
    assert_int_equal(isa_named("X86", 3)->id, ISA_X86);
    assert_int_equal(isa_named("X86_64 SB", 6)->id, ISA_X86_64);
    assert_null(isa_named("x86", 3));
    assert_null(isa_named("X86_6", 5));
    assert_null(isa_named("C", 1));
    assert_int_equal(isa_named("AArch64", 7)->id, ISA_AARCH64);
    assert_null(isa_named("AARCH64", 7));
}

/* AArch64 has no native runner here, is judged under the aarch64 model,
 * has no data races (machine accesses), and shows its states in declared
 * types (herd's widths); X86 and X86_64 show values as computed. */
static void test_aarch64_row(void **state)
{
    (void)state;
    assert_string_equal(ir_arch_name(IR_ARCH_AARCH64), "AArch64");
    assert_ptr_equal(isa_of(FE_ARCH_AARCH64), isa_of(IR_ARCH_AARCH64));
    assert_string_equal(isa_native_target(IR_ARCH_AARCH64, "c11"), "c11");
    assert_string_equal(model_default_name(IR_ARCH_AARCH64), "aarch64");
    assert_true(isa_all_atomic(IR_ARCH_AARCH64));
    assert_true(isa_of(IR_ARCH_AARCH64)->wide);
    assert_false(isa_of(IR_ARCH_AARCH64)->att);
    assert_true(isa_of(IR_ARCH_AARCH64)->typed_state);
    assert_false(isa_of(IR_ARCH_X86)->typed_state);
    assert_false(isa_of(IR_ARCH_X86_64)->typed_state);
    assert_int_equal(ir_mode_from_name("a64acqrel"), IR_A64_ACQREL);
    assert_true(ir_mode_legal(IR_ARCH_AARCH64, IR_RMW, IR_A64_ACQREL));
    assert_false(ir_mode_legal(IR_ARCH_AARCH64, IR_LOAD, IR_A64_REL));
    assert_false(ir_mode_legal(IR_ARCH_AARCH64, IR_STORE, IR_A64_ACQ));
}

/* What the seven former name tests now ask: X86 and X86_64 run on the x86
 * runner under x86tso with every access atomic; C and Java fall through. */
static void test_answers(void **state)
{
    (void)state;
    assert_true(isa_all_atomic(IR_ARCH_X86));
    assert_true(isa_all_atomic(IR_ARCH_X86_64));
    assert_false(isa_all_atomic(IR_ARCH_C));
    assert_false(isa_all_atomic(IR_ARCH_JAVA));
    assert_string_equal(isa_native_target(IR_ARCH_X86_64, "c11"), "x86");
    assert_string_equal(isa_native_target(IR_ARCH_JAVA, "c11"), "c11");
    assert_string_equal(model_default_name(IR_ARCH_X86), "x86tso");
    assert_string_equal(model_default_name(IR_ARCH_X86_64), "x86tso");
    assert_string_equal(model_default_name(IR_ARCH_C), "rc11");
    assert_string_equal(model_default_name(IR_ARCH_JAVA), "jam21");
    assert_false(isa_of(IR_ARCH_X86)->att);
    assert_true(isa_of(IR_ARCH_X86_64)->att);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_by_arch),
        cmocka_unit_test(test_named),
        cmocka_unit_test(test_answers),
        cmocka_unit_test(test_aarch64_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
