/* `litmusc ir`: print the SSA IR of litmus tests, or read IR text back
 * (--read), verify it and print it again (the round trip is exact). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/args.h"
#include "cli/cli.h"
#include "util/file.h"
#include "util/mem.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: litmusc ir [--read] [--check] [--cond] [--observables] [--unroll N] FILE...\n"
            "\n"
            "Print the SSA IR of each litmus test FILE in the text form of ir/README.md\n"
            "(tests separated by an empty line).\n"
            "\n"
            "  --read    FILE is IR text (one or more tests, as this command prints them):\n"
            "            read it, verify it and print it back\n"
            "  --check   verify only; print nothing on success\n"
            "  --cond    print herd's Condition line for each test instead of the IR\n"
            "  --observables  print the observables of each test's final states, in herd's\n"
            "            order, one line per test (\"0:EAX 1:EAX [x]\")\n"
            "  --unroll N  a loop's body is unrolled at most N times (default 2; a test's\n"
            "            Unroll=N line wins); past it the path ends in a cut\n"
            "  --help    this text\n"
            "\n"
            "exit status: 0 ok, 2 bad input or usage, 3 internal failure\n\n"
            "example: litmusc ir SB.litmus > SB.ir && litmusc ir --read --check SB.ir\n");
}

/* The whole of PATH as a NUL-terminated string; NULL + diag on error. */
static char *slurp(const char *path, diag *d)
{
    strbuf b = {0};
    bool opened;
    if (!file_read_all(path, &b, &opened)) {
        if (errno == EFBIG)
            diag_error(d, path, 0, 0, "%s", file_error(errno));
        else if (opened)
            diag_error(d, path, 0, 0, "read error: %s", strerror(errno));
        else
            diag_error(d, path, 0, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    if (b.len && memchr(b.s, 0, b.len)) {
        sb_free(&b);
        diag_error(d, path, 0, 0, "IR text cannot contain a NUL byte");
        return NULL;
    }
    return sb_take(&b);
}

/* Read every test of an IR text file: a test starts at each line that
 * begins with "test " (the printer writes nothing else there). */
static bool read_ir(const char *path, ir_test ***tests, int *n, diag *d)
{
    char *text = slurp(path, d);
    if (!text)
        return false;
    int line = 1, start_line = 1;
    size_t start = 0, len = strlen(text);
    bool ok = true;
    for (size_t i = 0; ok && i <= len; i++) {
        bool boundary = i == len || (i > start && text[i - 1] == '\n' && !strncmp(text + i, "test ", 5));
        if (boundary) {
            char *chunk = xstrndup(text + start, i - start);
            ir_test *t = ir_read_at(chunk, path, start_line, d);
            free(chunk);
            if (t && !ir_verify(t, d)) {
                ir_test_free(t);
                t = NULL;
            }
            if (!t) {
                ok = false;
                break;
            }
            *tests = xrealloc(*tests, (size_t)(*n + 1) * sizeof **tests);
            (*tests)[(*n)++] = t;
            start = i;
            start_line = line;
        }
        if (i < len && text[i] == '\n')
            line++;
    }
    free(text);
    return ok;
}

/* The condition and the final-state observables as herd prints them. */
static void print_herd_forms(const ir_test *t, bool cond, bool observables)
{
    if (cond) {
        char *c = ir_format_cond(t);
        printf("Condition %s\n", c);
        free(c);
    }
    if (observables) {
        int n;
        ir_obs *obs = ir_observables(t, &n);
        for (int k = 0; k < n; k++) {
            char *s = ir_format_obs(t, &obs[k]);
            printf("%s%s", k ? " " : "", s);
            free(s);
        }
        putchar('\n');
        free(obs);
    }
}

int cmd_ir(int argc, char **argv)
{
    bool read = false, check = false, cond = false, observables = false;
    const char *unroll_arg = NULL;
    const cli_opt opts[] = {CLI_FLAG("--read", &read), CLI_FLAG("--check", &check), CLI_FLAG("--cond", &cond),
                            CLI_FLAG("--observables", &observables),
                            CLI_STR("--unroll", &unroll_arg), {0}};
    cli_args it;
    int st = cli_parse(&it, "litmusc ir", argc, argv, usage, opts, true);
    if (st >= 0)
        return st;
    if (!cli_set_unroll("litmusc ir", unroll_arg)) {
        free(it.files);
        return EXIT_USAGE;
    }
    /* Everything is checked before anything is printed, so a bad file
     * leaves no partial output. */
    ir_test **tests = NULL;
    int n = 0;
    int status = EXIT_OK;
    for (int i = 0; i < it.nfiles && status == EXIT_OK; i++) {
        diag d = {0};
        if (read) {
            if (!read_ir(it.files[i], &tests, &n, &d))
                status = cli_report(&d);
            continue;
        }
        ir_test *t = cli_load_test(it.files[i], &d);
        if (!t) {
            status = cli_report(&d);
            continue;
        }
        tests = xrealloc(tests, (size_t)(n + 1) * sizeof *tests);
        tests[n++] = t;
    }
    if (status == EXIT_OK && !check) {
        for (int i = 0; i < n; i++) {
            if (cond || observables) {
                print_herd_forms(tests[i], cond, observables);
                continue;
            }
            if (i)
                putchar('\n');
            ir_print(stdout, tests[i]);
        }
        if (!cli_flush_stdout())
            status = EXIT_INTERNAL;   /* main says why */
    }
    for (int i = 0; i < n; i++)
        ir_test_free(tests[i]);
    free(tests);
    free(it.files);
    return status;
}
