/* Unit tests of the shared command-line walk (cli/args.c): options with
 * and without values, --name=value, files, "--", help, and the two
 * complaints; rows that store their value themselves (CLI_STR, CLI_FLAG)
 * and the whole walk over them (cli_parse).  The file is included: the CLI is not an archive. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "cli/args.c"

enum { O_MODEL = 1, O_JSON, O_OUT };
static const cli_opt opts[] = {CLI_ID("--model", O_MODEL, true), CLI_ID("-model", O_MODEL, true),
                               CLI_ID("--json", O_JSON, false), CLI_ID("-o", O_OUT, true), {0}};

static int usage_calls;
static void usage(FILE *f)
{
    (void)f;
    usage_calls++;
}

static void test_options_and_files(void **state)
{
    (void)state;
    char *argv[] = {"prog", "a.litmus", "--model", "sc", "--json", "-", "--model=x86tso",
                    "-o", "dir", "b.litmus"};
    cli_args a;
    cli_args_init(&a, "test", 10, argv, usage);
    const char *v;
    assert_int_equal(cli_next(&a, opts, &v), O_MODEL);
    assert_string_equal(v, "sc");
    assert_int_equal(cli_next(&a, opts, &v), O_JSON);
    assert_null(v);
    assert_int_equal(cli_next(&a, opts, &v), O_MODEL);
    assert_string_equal(v, "x86tso");
    assert_int_equal(cli_next(&a, opts, &v), O_OUT);
    assert_string_equal(v, "dir");
    assert_int_equal(cli_next(&a, opts, &v), CLI_END);
    assert_int_equal(cli_next(&a, opts, &v), CLI_END);
    /* Files in order, "-" (stdin) among them. */
    assert_int_equal(a.nfiles, 3);
    assert_string_equal(a.files[0], "a.litmus");
    assert_string_equal(a.files[1], "-");
    assert_string_equal(a.files[2], "b.litmus");
    assert_null(a.files[3]);
    free(a.files);
}

static void test_double_dash_and_help(void **state)
{
    (void)state;
    char *argv[] = {"prog", "--", "--json", "-o"};
    cli_args a;
    cli_args_init(&a, "test", 4, argv, usage);
    const char *v;
    assert_int_equal(cli_next(&a, opts, &v), CLI_END);
    assert_int_equal(a.nfiles, 2);
    assert_string_equal(a.files[0], "--json");
    assert_string_equal(a.files[1], "-o");
    free(a.files);
    char *argv2[] = {"prog", "x", "--help", "y"};
    cli_args_init(&a, "test", 4, argv2, usage);
    usage_calls = 0;
    int id = cli_next(&a, opts, &v);
    assert_int_equal(id, CLI_HELP);
    assert_int_equal(usage_calls, 1);
    assert_int_equal(cli_stop(&a, id), 0);
    assert_null(a.files);
}

static void expect_bad(int argc, char **argv)
{
    cli_args a;
    cli_args_init(&a, "test", argc, argv, usage);
    const char *v;
    usage_calls = 0;
    int id;
    while ((id = cli_next(&a, opts, &v)) > 0)
        ;
    assert_int_equal(id, CLI_BAD);
    assert_int_equal(usage_calls, 1);
    assert_int_equal(cli_stop(&a, id), 2);
}

static void test_complaints(void **state)
{
    (void)state;
    char *missing[] = {"prog", "--model"};
    expect_bad(2, missing);
    char *unknown[] = {"prog", "--modelx"};
    expect_bad(2, unknown);
    char *prefix[] = {"prog", "--mode", "sc"};       /* no prefix matching */
    expect_bad(3, prefix);
    char *novalue[] = {"prog", "--json=1"};
    expect_bad(2, novalue);
    /* '=' splits only long options: "-model=rc11" is not "-model". */
    char *short_eq[] = {"prog", "-model=rc11"};
    expect_bad(2, short_eq);
    /* An empty =value is a value. */
    char *empty[] = {"prog", "--model="};
    cli_args a;
    cli_args_init(&a, "test", 2, empty, usage);
    const char *v;
    assert_int_equal(cli_next(&a, opts, &v), O_MODEL);
    assert_string_equal(v, "");
    free(a.files);
}

/* Rows that store: the walk goes on past them, the last value wins, an
 * id row among them still stops the walk. */
static void test_storing_rows(void **state)
{
    (void)state;
    const char *model = NULL;
    bool json = false;
    const cli_opt rows[] = {CLI_STR("--model", &model), CLI_FLAG("--json", &json), CLI_ID("-o", O_OUT, true),
                            {0}};
    char *argv[] = {"prog", "--model", "sc", "a", "--json", "--model=rc11", "-o", "d", "b"};
    cli_args a;
    cli_args_init(&a, "test", 9, argv, usage);
    const char *v;
    assert_int_equal(cli_next(&a, rows, &v), O_OUT);
    assert_string_equal(v, "d");
    assert_string_equal(model, "rc11");
    assert_true(json);
    assert_int_equal(cli_next(&a, rows, &v), CLI_END);
    assert_null(v);
    assert_int_equal(a.nfiles, 2);
    free(a.files);
}

static void test_parse_whole_walk(void **state)
{
    (void)state;
    const char *model = NULL;
    bool json = false;
    const cli_opt rows[] = {CLI_STR("--model", &model), CLI_FLAG("--json", &json), {0}};
    char *argv[] = {"prog", "--json", "x.litmus", "--model", "sc"};
    cli_args a;
    assert_int_equal(cli_parse(&a, "test", 5, argv, usage, rows, true), -1);
    assert_true(json);
    assert_string_equal(model, "sc");
    assert_int_equal(a.nfiles, 1);
    assert_string_equal(a.files[0], "x.litmus");
    free(a.files);
    /* No files: a usage error where files are needed, fine where not. */
    usage_calls = 0;
    assert_int_equal(cli_parse(&a, "test", 2, argv, usage, rows, true), 2);
    assert_int_equal(usage_calls, 1);
    assert_null(a.files);
    assert_int_equal(cli_parse(&a, "test", 2, argv, usage, rows, false), -1);
    free(a.files);
    /* Help: status 0; an unknown option: 2; files freed either way. */
    char *help[] = {"prog", "--help"};
    assert_int_equal(cli_parse(&a, "test", 2, help, usage, rows, true), 0);
    assert_null(a.files);
    char *bad[] = {"prog", "-o", "x"};
    assert_int_equal(cli_parse(&a, "test", 3, bad, usage, rows, true), 2);
    assert_null(a.files);
}

static void test_seconds(void **state)
{
    (void)state;
    double s = -1;
    assert_true(cli_parse_seconds("2.5", &s));
    assert_true(s == 2.5);
    assert_true(cli_parse_seconds("604800", &s));
    const char *bad[] = {"0", "-1", "", "1x", "nan", "inf", "604801", "1e999"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        s = 7;
        assert_false(cli_parse_seconds(bad[i], &s));
        assert_true(s == 7);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options_and_files),
        cmocka_unit_test(test_double_dash_and_help),
        cmocka_unit_test(test_complaints),
        cmocka_unit_test(test_storing_rows),
        cmocka_unit_test(test_parse_whole_walk),
        cmocka_unit_test(test_seconds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
