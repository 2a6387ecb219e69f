/* litmusc parse: read litmus tests and print each back in canonical herd
 * syntax (or, with --hash, its name and herd hash).  --check re-parses
 * the printed text and fails if the tree changed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/args.h"
#include "cli/cli.h"
#include "frontend/frontend.h"
#include "util/mem.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: litmusc parse [--hash] [--check] FILE...\n"
            "\n"
            "Parse herd-format litmus tests (X86, X86_64, AArch64, C, Java) and print\n"
            "each one back in canonical herd syntax, separated by empty lines.\n"
            "\n"
            "  --hash    print 'NAME HASH' (herd's test hash) instead of the test\n"
            "  --check   also parse the printed text again and fail (exit 3) if the\n"
            "            tree differs from the first parse, or printing it again\n"
            "            gives different text\n"
            "  --help    this text\n"
            "\n"
            "exit status: 0 all parsed, 2 a file is malformed or unreadable (the error\n"
            "is printed as file:line:col: error: message), 3 internal failure\n\n"
            "example: litmusc parse --check tests/corpus/x86/classic/*.litmus > /dev/null\n");
}

/* Print one test; returns an exit status. */
static int parse_one(const char *path, bool hash, bool check, bool *first)
{
    diag d = {0};
    fe_test *t = fe_parse_file(path, &d);
    if (!t)
        return cli_report(&d);
    int rc = EXIT_OK;
    char *text = fe_print(t);
    if (check) {
        diag d2 = {0};
        fe_test *u = fe_parse(text, strlen(text), path, &d2);
        char why[256];
        if (!u) {
            char msg[DIAG_MSG_MAX + 300];
            diag_format(&d2, msg, sizeof msg);
            fprintf(stderr, "litmusc: %s: printed test does not parse again: %s\n", path, msg);
            rc = EXIT_INTERNAL;
        } else if (!fe_test_equal(t, u, why, sizeof why)) {
            fprintf(stderr, "litmusc: %s: printed test parses differently: %s\n", path, why);
            rc = EXIT_INTERNAL;
        } else {
            /* and the printed text is a fixed point of parse+print */
            char *again = fe_print(u);
            if (strcmp(again, text)) {
                fprintf(stderr, "litmusc: %s: printing the re-parsed test gives different text\n", path);
                rc = EXIT_INTERNAL;
            }
            free(again);
        }
        fe_test_free(u);
    }
    if (rc == EXIT_OK) {
        if (hash) {
            printf("%s %s\n", t->name, t->hash);
        } else {
            if (!*first)
                putchar('\n');
            fputs(text, stdout);
        }
        *first = false;
    }
    free(text);
    fe_test_free(t);
    return rc;
}

int cmd_parse(int argc, char **argv)
{
    bool hash = false, check = false;
    const cli_opt opts[] = {CLI_FLAG("--hash", &hash), CLI_FLAG("--check", &check), {0}};
    cli_args it;
    int st = cli_parse(&it, "litmusc parse", argc, argv, usage, opts, true);
    if (st >= 0)
        return st;
    int worst = EXIT_OK;
    bool first = true;
    for (int i = 0; i < it.nfiles; i++) {
        int rc = parse_one(it.files[i], hash, check, &first);
        if (rc > worst)
            worst = rc;
    }
    free(it.files);
    cli_flush_stdout();
    return worst;
}
