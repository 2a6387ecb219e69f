/* Test-name filters (PCRE2) and JUnit XML reports (libxml2): matching,
 * bad patterns with their position, escaping, counts, and that a failed
 * write leaves no file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "harness/harness.h"

static void filter_matches_like_grep(void **state)
{
    (void)state;
    diag d = {0};
    harness_filter *f = harness_filter_new("^SB(\\+|$)", &d);
    assert_non_null(f);
    assert_true(harness_filter_match(f, "SB"));
    assert_true(harness_filter_match(f, "SB+mfences"));
    assert_false(harness_filter_match(f, "SBx"));
    assert_false(harness_filter_match(f, "2+2W"));
    harness_filter_free(f);
    f = harness_filter_new("mfence", &d);
    assert_true(harness_filter_match(f, "R+mfence+po"));
    assert_false(harness_filter_match(f, "MP"));
    harness_filter_free(f);
}

static void bad_pattern_is_a_usage_error(void **state)
{
    (void)state;
    diag d = {0};
    assert_null(harness_filter_new("SB(", &d));
    assert_true(d.set);
    assert_int_equal(d.status, 2);
    assert_int_equal(d.col, 4);
    assert_non_null(strstr(d.msg, "bad pattern 'SB('"));
}

static xmlNodePtr child_named(xmlNodePtr n, const char *name)
{
    for (xmlNodePtr c = n ? n->children : NULL; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE && !strcmp((const char *)c->name, name))
            return c;
    return NULL;
}

static void assert_prop(xmlNodePtr n, const char *k, const char *want)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)k);
    assert_non_null(v);
    assert_string_equal((const char *)v, want);
    xmlFree(v);
}

static void report_round_trips(void **state)
{
    (void)state;
    char dir[] = "/tmp/litmusc-report-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *path = xasprintf("%s/r.xml", dir);
    harness_report *r = harness_report_new("litmusc run");
    harness_report_add(r, "SB", "x86tso", HARNESS_PASS, NULL, "Test SB Allowed\n", 0.5);
    harness_report_add(r, "A<&>\"b", "x86tso", HARNESS_FAIL, "1 forbidden state <x>", "log\x01", 1.25);
    harness_report_add(r, "Hang", "x86tso", HARNESS_ERROR, "timed out after 1 s", NULL, 1);
    diag d = {0};
    assert_true(harness_report_write(r, path, &d));
    harness_report_free(r);
    xmlDocPtr doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    xmlNodePtr root = xmlDocGetRootElement(doc);
    assert_string_equal((const char *)root->name, "testsuites");
    xmlNodePtr suite = child_named(root, "testsuite");
    assert_non_null(suite);
    assert_prop(suite, "tests", "3");
    assert_prop(suite, "failures", "1");
    assert_prop(suite, "errors", "1");
    assert_prop(suite, "time", "2.750");
    xmlNodePtr tc = child_named(suite, "testcase");
    assert_prop(tc, "name", "SB");
    assert_null(child_named(tc, "failure"));
    tc = tc->next;
    while (tc && tc->type != XML_ELEMENT_NODE)
        tc = tc->next;
    assert_prop(tc, "name", "A<&>\"b");
    xmlNodePtr fail = child_named(tc, "failure");
    assert_non_null(fail);
    assert_prop(fail, "message", "1 forbidden state <x>");
    xmlNodePtr out = child_named(tc, "system-out");
    xmlChar *text = xmlNodeGetContent(out);
    assert_string_equal((const char *)text, "log?");
    xmlFree(text);
    xmlFreeDoc(doc);
    /* No temporary file is left beside the report. */
    char *cmd = xasprintf("test $(ls '%s' | wc -l) -eq 1", dir);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    unlink(path);
    rmdir(dir);
    free(path);
}

/* Bytes that are no UTF-8 (a file name, a compiler's stderr) and the
 * characters XML 1.0 cannot hold become U+FFFD: the report stays
 * well-formed. */
static void invalid_bytes_stay_well_formed(void **state)
{
    (void)state;
    char dir[] = "/tmp/litmusc-report-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *path = xasprintf("%s/r.xml", dir);
    harness_report *r = harness_report_new("litmusc \xff run");
    harness_report_add(r, "SB\xff", "x86\xc3", HARNESS_FAIL, "msg \xfe\xef\xbf\xbf", "err \xff\xed\xa0\x80 ok \xc3\xa9", 1);
    diag d = {0};
    assert_true(harness_report_write(r, path, &d));
    harness_report_free(r);
    xmlDocPtr doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    xmlNodePtr suite = child_named(xmlDocGetRootElement(doc), "testsuite");
    assert_non_null(suite);
    xmlNodePtr tc = child_named(suite, "testcase");
    assert_prop(tc, "name", "SB\xef\xbf\xbd");
    assert_prop(tc, "classname", "x86\xef\xbf\xbd");
    assert_prop(child_named(tc, "failure"), "message", "msg \xef\xbf\xbd\xef\xbf\xbd");
    xmlChar *text = xmlNodeGetContent(child_named(tc, "system-out"));
    assert_string_equal((const char *)text, "err \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd ok \xc3\xa9");
    xmlFree(text);
    xmlFreeDoc(doc);
    unlink(path);
    rmdir(dir);
    free(path);
}

static void failed_write_leaves_nothing(void **state)
{
    (void)state;
    harness_report *r = harness_report_new("s");
    harness_report_add(r, "SB", NULL, HARNESS_PASS, NULL, NULL, 0);
    diag d = {0};
    assert_false(harness_report_write(r, "/nonexistent-dir/r.xml", &d));
    assert_int_equal(d.status, 3);
    assert_non_null(strstr(d.msg, "/nonexistent-dir/r.xml"));
    assert_int_equal(access("/nonexistent-dir/r.xml", F_OK), -1);
    harness_report_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(filter_matches_like_grep),
        cmocka_unit_test(bad_pattern_is_a_usage_error),
        cmocka_unit_test(invalid_bytes_stay_well_formed),
        cmocka_unit_test(report_round_trips),
        cmocka_unit_test(failed_write_leaves_nothing),
    };
    return cmocka_run_group_tests_name("harness_filter_report", tests, NULL, NULL);
}
