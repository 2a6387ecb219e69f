/* Text writers keep their output well-formed whatever bytes a path or a
 * database holds: JSON strings and HTML text replace invalid UTF-8 and
 * control bytes with U+FFFD and pass valid UTF-8 through. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "campaign/internal.h"
#include "util/json.h"
#include "util/utf8.h"

static void test_seq_len(void **state)
{
    (void)state;
    assert_int_equal(utf8_seq_len((const unsigned char *)"a"), 1);
    assert_int_equal(utf8_seq_len((const unsigned char *)"\xc3\xa9"), 2);          /* é */
    assert_int_equal(utf8_seq_len((const unsigned char *)"\xe2\x82\xac"), 3);      /* € */
    assert_int_equal(utf8_seq_len((const unsigned char *)"\xf0\x9f\x98\x80"), 4);  /* U+1F600 */
    assert_int_equal(utf8_seq_len((const unsigned char *)"\xff"), 0);
    assert_int_equal(utf8_seq_len((const unsigned char *)"\xc0\xaf"), 0);          /* overlong '/' */
    assert_int_equal(utf8_seq_len((const unsigned char *)"\xed\xa0\x80"), 0);      /* a surrogate */
    assert_int_equal(utf8_seq_len((const unsigned char *)"\xf4\x90\x80\x80"), 0);  /* past U+10FFFF */
    assert_int_equal(utf8_seq_len((const unsigned char *)"\xe2\x82"), 0);          /* cut short */
}

static void test_json_quote(void **state)
{
    (void)state;
    strbuf b = {0};
    json_quote(&b, "a\xff/\xc3\xa9\x01\xe2\x82");
    assert_string_equal(b.s, "\"a\\ufffd/\xc3\xa9\\u0001\\ufffd\\ufffd\"");
    sb_free(&b);
}

static void test_html_escape(void **state)
{
    (void)state;
    strbuf b = {0};
    sb_add(&b, "");
    campaign_html_escape(&b, "<\x01\xff>\xc3\xa9\n\x7f&");
    assert_string_equal(b.s, "&lt;&#xfffd;&#xfffd;&gt;\xc3\xa9\n&#xfffd;&amp;");
    sb_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seq_len),
        cmocka_unit_test(test_json_quote),
        cmocka_unit_test(test_html_escape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
