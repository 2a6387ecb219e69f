/* The shared tokenizer: token kinds and positions, comment styles,
 * numbers, and errors on bytes it does not know. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "frontend/internal.h"

static lexer lx;
static diag d;

static void start(const char *s, int flags)
{
    memset(&d, 0, sizeof d);
    lx_init(&lx, s, s + strlen(s), 1, 1, flags, "t.litmus", &d);
}

static void test_idents_numbers_positions(void **st)
{
    (void)st;
    start("MOV EAX,[x]\n  0x1f 42", 0);
    assert_int_equal(lx.cur.kind, TK_IDENT);
    assert_true(lx_is(&lx, "MOV"));
    assert_int_equal(lx.cur.line, 1);
    assert_int_equal(lx.cur.col, 1);
    lx_next(&lx);
    assert_true(lx_is_ident(&lx, "EAX"));
    assert_int_equal(lx.cur.col, 5);
    lx_next(&lx);
    assert_true(lx_is(&lx, ","));
    lx_next(&lx);
    assert_true(lx_is(&lx, "["));
    lx_next(&lx);
    assert_true(lx_is(&lx, "x"));
    lx_next(&lx);
    assert_true(lx_is(&lx, "]"));
    lx_next(&lx);
    assert_int_equal(lx.cur.kind, TK_NUM);
    assert_int_equal(lx.cur.num, 31);
    assert_int_equal(lx.cur.line, 2);
    assert_int_equal(lx.cur.col, 3);
    lx_next(&lx);
    assert_int_equal(lx.cur.num, 42);
    lx_next(&lx);
    assert_int_equal(lx.cur.kind, TK_EOF);
    assert_false(d.set);
}

static void test_two_char_operators(void **st)
{
    (void)st;
    start("/\\ \\/ => == != <> <= >= && || ~ -", 0);
    const char *want[] = {"/\\", "\\/", "=>", "==", "!=", "<>", "<=", ">=", "&&", "||", "~", "-"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        assert_int_equal(lx.cur.kind, TK_PUNCT);
        assert_true(lx_is(&lx, want[i]));
        lx_next(&lx);
    }
    assert_int_equal(lx.cur.kind, TK_EOF);
}

static void test_nested_ml_comments(void **st)
{
    (void)st;
    start("a (* one (* two *) still *) b", LX_ML_COMMENTS);
    assert_true(lx_is(&lx, "a"));
    lx_next(&lx);
    assert_true(lx_is(&lx, "b"));
    assert_int_equal(lx.cur.col, 29);
}

static void test_c_comments_only_when_enabled(void **st)
{
    (void)st;
    start("x // note\n/* multi\nline */ y", LX_C_COMMENTS);
    lx_next(&lx);
    assert_true(lx_is(&lx, "y"));
    assert_int_equal(lx.cur.line, 3);
    assert_int_equal(lx.cur.col, 9);
    /* without C comments, '(*' is code, and '/' a token */
    start("(*p)", LX_C_COMMENTS);
    assert_true(lx_is(&lx, "("));
    lx_next(&lx);
    assert_true(lx_is(&lx, "*"));
}

static void test_unterminated_comment(void **st)
{
    (void)st;
    start("x (* never closed", LX_ML_COMMENTS);
    lx_next(&lx);
    assert_true(d.set);
    assert_int_equal(d.line, 1);
    assert_int_equal(d.col, 3);
    assert_non_null(strstr(d.msg, "unterminated comment"));
}

static void test_bad_bytes(void **st)
{
    (void)st;
    const char buf[] = {'x', ' ', 0, 'y'};
    memset(&d, 0, sizeof d);
    lx_init(&lx, buf, buf + sizeof buf, 1, 1, 0, "t.litmus", &d);
    lx_next(&lx);
    assert_true(d.set);
    assert_int_equal(d.col, 3);
    assert_non_null(strstr(d.msg, "0x00"));
    start("a @", 0);
    lx_next(&lx);
    assert_true(d.set);
    assert_non_null(strstr(d.msg, "'@'"));
    start("\xc3\xa9", 0);
    assert_true(d.set);
    assert_non_null(strstr(d.msg, "0xc3"));
}

static void test_numbers(void **st)
{
    (void)st;
    start("18446744073709551615 18446744073709551616 0x10000000000000000 12ab", 0);
    assert_int_equal(lx.cur.num, UINT64_MAX);
    assert_false(lx.cur.big);
    lx_next(&lx);
    assert_true(lx.cur.big);
    lx_next(&lx);
    assert_true(lx.cur.big);
    lx_next(&lx);
    assert_true(d.set);
    assert_non_null(strstr(d.msg, "malformed number"));
}

static void test_error_names_the_token(void **st)
{
    (void)st;
    start("  frobnicate", 0);
    lx_error(&lx, "unknown thing");
    assert_int_equal(d.col, 3);
    assert_string_equal(d.msg, "unknown thing, found 'frobnicate'");
    /* a long token is shortened in the message */
    char big[200];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = 0;
    start(big, 0);
    lx_error(&lx, "bad");
    assert_true(strlen(d.msg) < 80);
    assert_non_null(strstr(d.msg, "..."));
}

static void test_hash_comments(void **st)
{
    (void)st;
    start("a ; #(a)Wy1 | (c)\nb", LX_HASH_COMMENTS);
    lx_next(&lx);
    assert_true(lx_is(&lx, ";"));
    lx_next(&lx);
    assert_true(lx_is(&lx, "b"));
    assert_int_equal(lx.cur.line, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_idents_numbers_positions),
        cmocka_unit_test(test_two_char_operators),
        cmocka_unit_test(test_nested_ml_comments),
        cmocka_unit_test(test_c_comments_only_when_enabled),
        cmocka_unit_test(test_unterminated_comment),
        cmocka_unit_test(test_bad_bytes),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_error_names_the_token),
        cmocka_unit_test(test_hash_comments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
