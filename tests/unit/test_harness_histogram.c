/* The raw histogram protocol parser: what it accepts, and that it refuses
 * every malformed or inconsistent runner output with a precise line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "harness/harness.h"

static harness_hist *parse(const char *text, int nobs, diag *d)
{
    memset(d, 0, sizeof *d);
    return harness_parse_histogram(text, strlen(text), nobs, "sb.out", d);
}

static const char *GOOD =
    "litmusc-histogram 1\n"
    "config sync loose\n"
    "config layout line\n"
    "config size 1000\n"
    "outcome 7 0 0\n"
    "outcome 490 1 0\n"
    "outcome 500 0 1\n"
    "outcome 3 1 1\n"
    "iterations 1000\n"
    "elapsed 0.125000\n"
    "interrupted 0\n"
    "end\n";

static void accepts_a_complete_histogram(void **state)
{
    (void)state;
    diag d;
    harness_hist *h = parse(GOOD, 2, &d);
    assert_non_null(h);
    assert_false(d.set);
    assert_int_equal(h->noutcomes, 4);
    assert_int_equal(h->nobs, 2);
    assert_int_equal(h->outcomes[1].count, 490);
    assert_int_equal(h->outcomes[1].vals[0], 1);
    assert_int_equal(h->outcomes[1].vals[1], 0);
    assert_int_equal(h->iterations, 1000);
    assert_true(h->elapsed > 0.1249 && h->elapsed < 0.1251);
    assert_false(h->interrupted);
    assert_int_equal(h->nconfig, 3);
    assert_string_equal(harness_config_get(h, "layout"), "line");
    assert_string_equal(harness_config_get(h, "size"), "1000");
    assert_null(harness_config_get(h, "affinity"));
    harness_hist_free(h);
}

static void keeps_config_values_with_spaces_and_negative_values(void **state)
{
    (void)state;
    diag d;
    harness_hist *h = parse("litmusc-histogram 1\nconfig cpu AMD EPYC 7B13\n"
                            "outcome 2 -1 -9223372036854775808 9223372036854775807\n"
                            "iterations 2\nelapsed 0\ninterrupted 1\nend\n",
                            3, &d);
    assert_non_null(h);
    assert_string_equal(harness_config_get(h, "cpu"), "AMD EPYC 7B13");
    assert_int_equal(h->outcomes[0].vals[0], -1);
    assert_true(h->outcomes[0].vals[1] == INT64_MIN);
    assert_true(h->outcomes[0].vals[2] == INT64_MAX);
    assert_true(h->interrupted);
    harness_hist_free(h);
}

static void accepts_an_empty_histogram_and_zero_observables(void **state)
{
    (void)state;
    diag d;
    harness_hist *h = parse("litmusc-histogram 1\niterations 0\nelapsed 0.0\ninterrupted 1\nend\n", 2, &d);
    assert_non_null(h);
    assert_int_equal(h->noutcomes, 0);
    harness_hist_free(h);
    h = parse("litmusc-histogram 1\noutcome 5\niterations 5\nelapsed 1\ninterrupted 0\nend", 0, &d);
    assert_non_null(h);
    assert_int_equal(h->noutcomes, 1);
    assert_int_equal(h->outcomes[0].count, 5);
    harness_hist_free(h);
}

/* Every bad output gives status 3 (the runner is at fault, not the user)
 * and names the offending line of the runner's output. */
static void expect_error(const char *text, int nobs, int line, const char *needle)
{
    diag d;
    harness_hist *h = parse(text, nobs, &d);
    assert_null(h);
    assert_true(d.set);
    assert_int_equal(d.status, 3);
    assert_string_equal(d.file, "sb.out");
    if (line != d.line || !strstr(d.msg, needle))
        fail_msg("line %d (want %d): %s (want '%s')", d.line, line, d.msg, needle);
}

static void counts_must_add_up(void **state)
{
    (void)state;
    expect_error("litmusc-histogram 1\noutcome 7 0 0\noutcome 3 1 1\niterations 11\n"
                 "elapsed 0.1\ninterrupted 0\nend\n",
                 2, 7, "counts do not add up: outcomes sum to 10 but iterations is 11");
    expect_error("litmusc-histogram 1\noutcome 18446744073709551615 0\noutcome 1 1\n"
                 "iterations 0\nelapsed 0.1\ninterrupted 0\nend\n",
                 1, 7, "overflow");
}

static void rejects_malformed_lines(void **state)
{
    (void)state;
    expect_error("", 2, 1, "no histogram");
    expect_error("hello\n", 2, 1, "expected the header");
    expect_error("litmusc-histogram 2\n", 2, 1, "expected the header");
    expect_error("litmusc-histogram 1\noutcome 1 0\niterations 1\nelapsed 0\ninterrupted 0\nend\n",
                 2, 2, "too few values");
    expect_error("litmusc-histogram 1\noutcome 1 0 0 0\n", 2, 2, "too many values");
    expect_error("litmusc-histogram 1\noutcome 1 0 x\n", 2, 2, "bad value");
    expect_error("litmusc-histogram 1\noutcome -1 0 0\n", 2, 2, "expected an outcome count");
    expect_error("litmusc-histogram 1\noutcome 1 0 99999999999999999999\n", 2, 2, "bad value");
    expect_error("litmusc-histogram 1\noutcome 1 0 0\noutcome 2 0 0\n", 2, 3, "listed twice");
    expect_error("litmusc-histogram 1\nstates 4\n", 2, 2, "unknown line");
    expect_error("litmusc-histogram 1\n\n", 2, 2, "empty line");
    expect_error("litmusc-histogram 1\nelapsed -1\n", 2, 2, "bad value");
    expect_error("litmusc-histogram 1\nelapsed nan\n", 2, 2, "bad value");
    expect_error("litmusc-histogram 1\ninterrupted 2\n", 2, 2, "bad value");
    expect_error("litmusc-histogram 1\niterations 1 2\n", 2, 2, "unexpected text");
    expect_error("litmusc-histogram 1\niterations 0\niterations 0\n", 2, 3, "repeated");
    expect_error("litmusc-histogram 1\niterations 0\noutcome 0 1 1\n", 2, 3, "after the totals");
    expect_error("litmusc-histogram 1\noutcome 0 1 1\nconfig a b\n", 2, 3, "config line after");
    expect_error("litmusc-histogram 1\niterations 0\nelapsed 0\nend\n", 2, 4, "end before");
}

static void rejects_truncated_or_trailing_output(void **state)
{
    (void)state;
    /* A runner killed mid-print leaves no `end`. */
    expect_error("litmusc-histogram 1\noutcome 7 0 0\niterations 7\n", 2, 4, "without its 'end'");
    expect_error("litmusc-histogram 1\niterations 0\nelapsed 0\ninterrupted 0\nend\nextra\n",
                 2, 6, "text after");
    const char bin[] = "litmusc-histogram 1\noutcome 1 0\0 0\n";
    diag d = {0};
    assert_null(harness_parse_histogram(bin, sizeof bin - 1, 2, "x", &d));
    assert_non_null(strstr(d.msg, "NUL"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(accepts_a_complete_histogram),
        cmocka_unit_test(keeps_config_values_with_spaces_and_negative_values),
        cmocka_unit_test(accepts_an_empty_histogram_and_zero_observables),
        cmocka_unit_test(counts_must_add_up),
        cmocka_unit_test(rejects_malformed_lines),
        cmocka_unit_test(rejects_truncated_or_trailing_output),
    };
    return cmocka_run_group_tests_name("harness_histogram", tests, NULL, NULL);
}
