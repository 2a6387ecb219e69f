/* Unit tests of the shared command-line walk (cli/args.c): options with
 * and without values, --name=value, files, "--", help, and the two
 * complaints.  The file is included: the CLI is not an archive. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "cli/args.c"

enum { O_MODEL = 1, O_JSON, O_OUT };
static const cli_opt opts[] = {{"--model", O_MODEL, true}, {"-model", O_MODEL, true},
                               {"--json", O_JSON, false}, {"-o", O_OUT, true}, {0}};

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options_and_files),
        cmocka_unit_test(test_double_dash_and_help),
        cmocka_unit_test(test_complaints),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
