/* Unit tests of the AArch64 parser: mnemonics decoded into family, size
 * and orderings, operands and addresses, labels and rows, the printed
 * form reading back the same, and refusals at their positions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "frontend/frontend.h"
#include "util/mem.h"

static fe_test *parse_ok(const char *s)
{
    diag d = {0};
    fe_test *t = fe_parse(s, strlen(s), "t.litmus", &d);
    if (!t)
        fail_msg("parse failed: %d:%d %s", d.line, d.col, d.msg);
    return t;
}

/* Parsing fails at LINE:COL with MSG in the message, status 2. */
static void parse_fails(const char *s, int line, int col, const char *msg)
{
    diag d = {0};
    fe_test *t = fe_parse(s, strlen(s), "t.litmus", &d);
    if (t)
        fail_msg("parsed, wanted '%s'", msg);
    assert_int_equal(d.status, 2);
    if (d.line != line || d.col != col || !strstr(d.msg, msg))
        fail_msg("got %d:%d: %s; wanted %d:%d: ...%s...", d.line, d.col, d.msg, line, col, msg);
}

static const char lse[] =
    "AArch64 lse\n{ 0:X1=x; 1:X1=x; }\n"
    " P0                | P1               ;\n"
    " LDAXRB W0,[X1]    | SWPAL X2,X3,[X1] ;\n"
    " STLXRB W4,W0,[X1] | STADDL W2,[X1]   ;\n"
    " LDAPRH W5,[X1]    | CASA W6,WZR,[X1] ;\n"
    " L0:               | B.NE L1          ;\n"
    " DMB ISHLD         | L1: LDCLRH W2,W3,[X1] ;\n"
    "exists (0:X0=0)\n";

/* Each family with its suffixes: size, A, Q, L, no result. */
static void test_mnemonics(void **st)
{
    (void)st;
    fe_test *t = parse_ok(lse);
    assert_int_equal(t->nthreads, 2);
    assert_int_equal(t->nrows, 5);
    const fe_a64_instr *a = t->threads[0].a64, *b = t->threads[1].a64;
    assert_int_equal(t->threads[0].na64, 5);
    assert_int_equal(a[0].op, FE_A64_LDXR);
    assert_true(a[0].acq && !a[0].rel);
    assert_int_equal(a[0].size, 1);
    assert_int_equal(a[1].op, FE_A64_STXR);
    assert_true(a[1].rel && !a[1].acq);
    assert_int_equal(a[1].nops, 3);
    assert_int_equal(a[2].op, FE_A64_LDR);
    assert_true(a[2].acqpc);
    assert_int_equal(a[2].size, 2);
    assert_int_equal(a[3].op, FE_A64_EMPTY);
    assert_string_equal(a[3].label, "L0");
    assert_int_equal(a[4].op, FE_A64_DMB);
    assert_int_equal(a[4].barrier, 5);     /* SY ST LD ISH ISHST ISHLD */
    assert_int_equal(b[0].op, FE_A64_SWP);
    assert_true(b[0].acq && b[0].rel);
    assert_true(b[0].o[0].wide);
    assert_int_equal(b[1].op, FE_A64_LDADD);
    assert_true(b[1].noret && b[1].rel && !b[1].acq);
    assert_int_equal(b[2].op, FE_A64_CAS);
    assert_int_equal(b[2].o[1].reg, FE_A64_ZR);
    assert_int_equal(b[3].op, FE_A64_BCOND);
    assert_int_equal(b[3].cond, FE_A64_NE);
    assert_string_equal(b[3].o[0].label, "L1");
    assert_int_equal(b[4].op, FE_A64_LDCLR);
    assert_string_equal(b[4].label, "L1");
    assert_int_equal(b[4].size, 2);
    fe_test_free(t);
}

/* Addresses: base, immediate offset, index with its extension and shift
 * (LSL #0 is no shift). */
static void test_addresses(void **st)
{
    (void)st;
    fe_test *t = parse_ok("AArch64 addr\n{ 0:X1=x; }\n P0 ;\n"
                          " LDR W0,[X1,#8] ;\n LDR W0,[X1,W2,SXTW] ;\n STR X0,[X1,X2,LSL #3] ;\n"
                          " LDRB W0,[X1,X2,LSL #0] ;\nexists (0:X0=0)\n");
    const fe_a64_instr *a = t->threads[0].a64;
    assert_int_equal(a[0].o[1].kind, FE_AO_MEM);
    assert_int_equal(a[0].o[1].imm, 8);
    assert_int_equal(a[0].o[1].index, -1);
    assert_int_equal(a[1].o[1].index, 2);
    assert_false(a[1].o[1].index_wide);
    assert_int_equal(a[1].o[1].ext, FE_A64_X_SXTW);
    assert_int_equal(a[2].o[1].ext, FE_A64_X_LSL);
    assert_int_equal(a[2].o[1].shift, 3);
    assert_int_equal(a[3].o[1].ext, FE_A64_X_NONE);
    char *text = fe_a64_instr_text(&a[2]);
    assert_string_equal(text, "STR X0,[X1,X2,LSL #3]");
    free(text);
    fe_test_free(t);
}

/* The printed test reads back the same tree; W registers in a state are
 * their X register. */
static void test_round_trip(void **st)
{
    (void)st;
    fe_test *t = parse_ok(lse);
    char *s = fe_print(t);
    fe_test *u = parse_ok(s);
    char why[256];
    if (!fe_test_equal(t, u, why, sizeof why))
        fail_msg("%s\n%s", why, s);
    free(s);
    fe_test_free(u);
    fe_test_free(t);
    t = parse_ok("AArch64 w\n{ 0:W1=x; }\n P0 ;\n LDR W0,[X1] ;\nexists (0:W0=1)\n");
    assert_string_equal(t->init[0].loc.name, "X1");
    assert_string_equal(t->cond.prop->lhs.name, "X0");
    fe_test_free(t);
}

/* Refusals name what is not read, where it is. */
static void test_refusals(void **st)
{
    (void)st;
    parse_fails("AArch64 e\n{ 0:X1=x; }\n P0 ;\n LDRSW X0,[X1] ;\nexists (0:X0=0)\n", 4, 2,
                "unsupported instruction 'LDRSW'");
    parse_fails("AArch64 e\n{ 0:X1=x; }\n P0 ;\n STADDA W0,[X1] ;\nexists (0:X0=0)\n", 4, 2,
                "unsupported instruction 'STADDA'");
    parse_fails("AArch64 e\n{ 0:X1=x; }\n P0 ;\n DMB NSH ;\nexists (0:X0=0)\n", 4, 6, "unsupported DMB option 'NSH'");
    parse_fails("AArch64 e\n{ 0:X1=x; }\n P0 ;\n LDR W0,[X1,#4]! ;\nexists (0:X0=0)\n", 4, 16,
                "pre- and post-indexed");
    parse_fails("AArch64 e\n{ 0:X1=x; }\n P0 ;\n LDAR W0,[X1,#4] ;\nexists (0:X0=0)\n", 4, 10,
                "without offset");
    parse_fails("AArch64 e\n{ 0:X1=x; }\n P0 ;\n SWP W0,X1,[X1] ;\nexists (0:X0=0)\n", 4, 2, "same width");
    parse_fails("AArch64 e\n{ 0:X1=x; }\n P0 ;\n B L9 ;\nexists (0:X0=0)\n", 4, 4, "unknown label 'L9'");
    parse_fails("AArch64 e\n{ 0:X1=x; }\n P0 ;\n ADD W0,W0,W1,LSL #2 ;\nexists (0:X0=0)\n", 4, 14,
                "too many operands");
    parse_fails("AArch64 e\n{ 0:X1=x; }\n P0 ;\n MOV W0,#1 ;\nexists (0:X31=0)\n", 5, 9, "unknown register");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mnemonics),
        cmocka_unit_test(test_addresses),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
