/* `litmusc emit --target c11|x86`: native harness sources.
 *
 * One input and no -o: the program on stdout.  One input and -o FILE: that
 * file.  Several inputs, or -o naming a folder (existing, or ending in
 * '/'): one NAME.c per test plus the runtime files in that folder, ready to
 * compile.  Every test is generated before anything is written, so a bad
 * input leaves no output at all. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "backends/native.h"
#include "cli/args.h"
#include "cli/cli.h"
#include "util/mem.h"

/* Shared with cli/emit_x86_native.c. */
int emit_native_main(int argc, char **argv, native_target target);

static void usage(FILE *f, native_target target)
{
    fprintf(f, "usage: litmusc emit --target %s [OPTIONS] FILE... [-o OUT]\n",
            target == NATIVE_C11 ? "c11" : "x86");
    fprintf(f, "Writes a standalone stress-harness program per test (compile it with the\n"
               "runtime files: cc " NATIVE_CFLAGS " NAME.c lrt_*.c).\n\noptions:\n"
               "  -o OUT            output file (one test) or folder (with the runtime files)\n");
    if (target == NATIVE_C11)
        fprintf(f, "  --plain MODE      non-atomic accesses as 'volatile' (default) or 'relaxed' atomics\n");
    else
        fprintf(f, "  --scheme NAME     compilation scheme for C and Java tests (default:\n"
                   "                    c11-x86-xchg for C, java-x86-hotspot for Java)\n");
    fprintf(f, "  -h, --help        this text\n\n"
               "exit status: 0 written, 2 bad input or usage (file:line:col: error: ...),\n"
               "3 internal failure; no partial output file is left behind\n\n"
               "example: litmusc emit --target %s SB.litmus -o sb/ && cc " NATIVE_CFLAGS " -o sb/SB sb/*.c\n",
            target == NATIVE_C11 ? "c11" : "x86");
}

static void usage_c11(FILE *f)
{
    usage(f, NATIVE_C11);
}

static void usage_x86(FILE *f)
{
    usage(f, NATIVE_X86);
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

typedef struct emitted {
    char *stem, *src;
} emitted;

int emit_native_main(int argc, char **argv, native_target target)
{
    native_opts o;
    native_opts_init(&o);
    o.target = target;
    /* --plain belongs to the C11 target, --scheme to the x86 one. */
    emit_opts eo;
    int parsed = emit_parse(argc, argv, EMIT_OUT | (target == NATIVE_C11 ? EMIT_PLAIN : EMIT_SCHEME),
                            target == NATIVE_C11 ? usage_c11 : usage_x86, &eo);
    if (parsed >= 0)
        return parsed;
    const char *out = eo.out;
    o.scheme = eo.scheme;
    o.plain_as_relaxed = eo.plain && !strcmp(eo.plain, "relaxed");
    const char **files = eo.files;
    int nfiles = eo.nfiles;
    size_t outlen = out ? strlen(out) : 0;
    bool folder = out && (nfiles > 1 || is_dir(out) || (outlen && out[outlen - 1] == '/'));

    /* Generate everything first: on any error, nothing is written. */
    emitted *em = xcalloc((size_t)nfiles, sizeof *em);
    int status = EXIT_OK;
    for (int i = 0; i < nfiles; i++) {
        diag d = {0};
        ir_test *t = cli_load_test(files[i], &d);
        if (t) {
            em[i].src = native_generate(t, &o, &d);
            if (em[i].src)
                em[i].stem = native_file_stem(t->name);
            ir_test_free(t);
        }
        if (!em[i].src)
            cli_report_worst(&d, &status);
    }
    /* Two tests with one name would overwrite each other's file. */
    for (int i = 0; status == EXIT_OK && folder && i < nfiles; i++)
        for (int j = 0; j < i; j++)
            if (!strcmp(em[i].stem, em[j].stem)) {
                diag d = {0};
                diag_error(&d, files[i], 0, 0, "test name '%s' is also used by %s", em[i].stem, files[j]);
                status = cli_report(&d);
                break;
            }
    if (status == EXIT_OK) {
        diag d = {0};
        bool ok = true;
        if (!out) {
            ok = fputs(em[0].src, stdout) >= 0 && cli_flush_stdout();
            if (!ok)
                diag_fail(&d, "cannot write the output: %s", strerror(errno));
        } else if (!folder) {
            ok = native_write_file(out, em[0].src, strlen(em[0].src), &d);
        } else {
            if (!is_dir(out) && mkdir(out, 0777) != 0 && errno != EEXIST) {
                diag_fail(&d, "cannot create folder %s: %s", out, strerror(errno));
                ok = false;
            }
            for (int i = 0; ok && i < nfiles; i++) {
                char *path = xasprintf("%s/%s.c", out, em[i].stem);
                ok = native_write_file(path, em[i].src, strlen(em[i].src), &d);
                free(path);
            }
            if (ok)
                ok = native_write_runtime(out, &d);
        }
        if (!ok)
            status = cli_report(&d);
    }
    for (int i = 0; i < nfiles; i++) {
        free(em[i].src);
        free(em[i].stem);
    }
    free(em);
    free(files);
    return status;
}

int emit_c11(int argc, char **argv)
{
    return emit_native_main(argc, argv, NATIVE_C11);
}
