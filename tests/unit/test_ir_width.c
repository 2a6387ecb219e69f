/* Unit tests of values seen through C types (ir/width.c): herd7 7.57's
 * sizes and signedness, the cut to a width, how an AArch64 final state
 * shows a typed or untyped register or location, and the condition's
 * constants compared as herd masks them.  Expected values worked out with
 * herd7 on the same tests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tests/unit/unit_litmus.h"
#include "ir/ir.h"

/* herd's TestType.size_of and is_signed: long is 4 bytes, atomic_t unsigned. */
static void test_ctype_bytes(void **st)
{
    (void)st;
    bool sgn = false;
    assert_int_equal(ir_ctype_bytes(NULL, &sgn), 4);
    assert_true(sgn);
    assert_int_equal(ir_ctype_bytes("int8_t", &sgn), 1);
    assert_true(sgn);
    assert_int_equal(ir_ctype_bytes("uint16_t", &sgn), 2);
    assert_false(sgn);
    assert_int_equal(ir_ctype_bytes("long", &sgn), 4);
    assert_true(sgn);
    assert_int_equal(ir_ctype_bytes("atomic_t", &sgn), 4);
    assert_false(sgn);
    assert_int_equal(ir_ctype_bytes("uint64_t", &sgn), 8);
    assert_false(sgn);
    assert_int_equal(ir_ctype_bytes("int*", &sgn), 8);
}

/* The low bytes, zero- or sign-extended. */
static void test_val_cast(void **st)
{
    (void)st;
    assert_int_equal(ir_val_cast(256, 1, false), 0);          /* A11: STRB of 256 */
    assert_int_equal(ir_val_cast(65537, 2, true), 1);         /* A20 */
    assert_int_equal(ir_val_cast(255, 1, true), -1);          /* L011: int8_t 0:X1 */
    assert_int_equal(ir_val_cast(-2, 2, false), 65534);       /* LDRH of int16_t -2 */
    assert_int_equal(ir_val_cast(0x100000002, 4, false), 2);  /* A176 */
    assert_int_equal(ir_val_cast(0xffffffff, 4, true), -1);
    assert_int_equal(ir_val_cast(0xffffffff, 4, false), 0xffffffff);
    assert_int_equal(ir_val_cast(-5, 8, false), -5);
}

static ir_obs reg_obs(int th, const char *r)
{
    ir_obs o = {IR_OBS_REG, th, (char *)r, -1};
    return o;
}

/* An AArch64 state: a typed register in its type, an untyped one as int,
 * a uint64_t one unsigned, a location in its type, an address whole. */
static void test_obs_shown(void **st)
{
    (void)st;
    ir_test *t = unit_litmus("AArch64 s\n{ uint32_t 0:X3; int8_t 0:X1; uint64_t 0:X9; int8_t x = 257; 0:X2=x; }\n"
                             " P0 ;\n NOP ;\nlocations [0:X1; 0:X2; 0:X3; 0:X4; 0:X9; x;]\n");
    ir_obs x1 = reg_obs(0, "X1"), x2 = reg_obs(0, "X2"), x3 = reg_obs(0, "X3"), x4 = reg_obs(0, "X4"),
           x9 = reg_obs(0, "X9");
    ir_obs mx = {IR_OBS_MEM, -1, NULL, ir_find_loc(t, "x")};
    assert_int_equal(ir_obs_shown(t, &x1, 255), -1);
    assert_int_equal(ir_obs_shown(t, &x3, 0xffffffff), 0xffffffff);
    assert_int_equal(ir_obs_shown(t, &x4, 0xffffffff), -1);
    assert_int_equal(ir_obs_shown(t, &x4, 0x100000000), 0);    /* herd's t5: MOV X9,X10 of 2^32 shows 0 */
    assert_int_equal(ir_obs_shown(t, &mx, 257), 1);            /* A15 */
    assert_int_equal(ir_obs_shown(t, &x2, IR_ADDR(mx.loc)), IR_ADDR(mx.loc));
    assert_true(ir_obs_unsigned64(t, &x9));
    assert_false(ir_obs_unsigned64(t, &x3));
    ir_val vals[6] = {-1, IR_ADDR(mx.loc), 0xffffffff, 0, -1, 1};
    ir_obs obs[6] = {x1, x2, x3, x4, x9, mx};
    char *s = ir_format_state(t, obs, vals, 6);
    assert_string_equal(s, "0:X1=-1; 0:X2=x; 0:X3=4294967295; 0:X4=0; 0:X9=18446744073709551615; [x]=1;");
    free(s);
    ir_test_free(t);
}

/* herd masks both sides by the type: an int8_t register holding 0xff
 * equals 255 and -1; an untyped one holding -1 equals 4294967295. */
static void test_cond_holds(void **st)
{
    (void)st;
    ir_test *t = unit_litmus("AArch64 c\n{ int8_t 0:X0; }\n P0 ;\n NOP ;\n"
                             "exists (0:X0=255 /\\ 0:X0=-1 /\\ 0:X1=4294967295 /\\ not (0:X1=1))\n");
    ir_obs obs[2] = {reg_obs(0, "X0"), reg_obs(0, "X1")};
    ir_val vals[2] = {ir_obs_shown(t, &obs[0], 255), ir_obs_shown(t, &obs[1], -1)};
    assert_true(ir_cond_holds(t, t->cond, obs, vals, 2));
    assert_false(ir_cond_eval(t->cond, obs, vals, 2));          /* as written, 255 is not -1 */
    ir_test_free(t);
}

/* X86 keeps its values as computed (its row has no typed_state). */
static void test_x86_untouched(void **st)
{
    (void)st;
    ir_test *t = unit_litmus("X86 u\n{ x=0; }\n P0 ;\n MOV EAX,[x] ;\nexists (0:EAX=4294967295)\n");
    ir_obs o = reg_obs(0, "EAX");
    assert_int_equal(ir_obs_shown(t, &o, 0xffffffff), 0xffffffff);
    ir_val v = -1;
    assert_false(ir_cond_holds(t, t->cond, &o, &v, 1));
    ir_test_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ctype_bytes),
        cmocka_unit_test(test_val_cast),
        cmocka_unit_test(test_obs_shown),
        cmocka_unit_test(test_cond_holds),
        cmocka_unit_test(test_x86_untouched),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
