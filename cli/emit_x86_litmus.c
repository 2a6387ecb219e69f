/* `litmusc emit --target x86-litmus --scheme S FILE... [-o OUT] [--map FILE]`:
 * compile each test with scheme S and write it as a herd X86 litmus test.
 * One input goes to OUT (or stdout); several, or one with OUT an existing
 * folder, go into the folder OUT as NAME.litmus (+ NAME.map).  Nothing is written unless every test
 * compiles. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "backends/x86/x86.h"
#include "backends/x86litmus/x86litmus.h"
#include "cli/args.h"
#include "cli/cli.h"
#include "util/file.h"
#include "util/mem.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: litmusc emit --target x86-litmus [--scheme NAME|PATH] [--map FILE] FILE... [-o OUT]\n"
               "  --scheme S   compilation scheme (shipped:");
    cli_print_schemes(f);
    fprintf(f, "; or a .scheme file);\n"
               "               X86 tests need none (identity compilation)\n"
               "  -o OUT       output file (one test) or folder (several); default stdout\n"
               "  --map FILE   also write the register map (one test; with several,\n"
               "               OUT/NAME.map is written beside each test)\n"
               "  -h, --help   this text\n\n"
               "exit status: 0 written, 2 bad input or usage (file:line:col: error: ...),\n"
               "3 internal failure; no partial output file is left behind\n\n"
               "example: litmusc emit --target x86-litmus --scheme java-x86-hotspot SB.litmus -o SB-x86.litmus\n");
}

/* Writes TEXT to PATH whole or not at all (no partial file on failure). */
static bool write_file(const char *path, const char *text, diag *d)
{
    if (file_write_atomic(path, text, strlen(text)))
        return true;
    diag_fail(d, "cannot write %s: %s", path, strerror(errno));
    return false;
}

typedef struct out_item { char *name, *litmus, *map; } out_item;

int emit_x86_litmus(int argc, char **argv)
{
    emit_opts eo;
    int parsed = emit_parse(argc, argv, EMIT_OUT | EMIT_SCHEME | EMIT_MAP, usage, &eo);
    if (parsed >= 0)
        return parsed;
    const char *scheme_arg = eo.scheme, *out = eo.out, *map = eo.map;
    const char **files = eo.files;
    int nfiles = eo.nfiles;
    /* Two inputs with one file name would overwrite each other in OUT. */
    for (int i = 0; nfiles > 1 && i < nfiles; i++)
        for (int j = 0; j < i; j++) {
            char *a = file_stem(files[i]), *b = file_stem(files[j]);
            bool same = !strcmp(a, b);
            free(a);
            free(b);
            if (same) {
                fprintf(stderr, "litmusc emit: %s and %s would both be written as %s/%s.litmus\n", files[j], files[i],
                        out, b = file_stem(files[i]));
                free(b);
                free(files);
                return EXIT_USAGE;
            }
        }
    diag d = {0};
    x86_scheme *s = NULL;
    if (scheme_arg && !(s = x86_scheme_load(scheme_arg, &d))) {
        free(files);
        return cli_report(&d);
    }
    out_item *items = xcalloc((size_t)nfiles, sizeof *items);
    int status = EXIT_OK;
    for (int i = 0; i < nfiles && status == EXIT_OK; i++) {
        ir_test *t = cli_load_test(files[i], &d);
        /* the text would run a cut path as if the thread ended there */
        x86_prog *p = t && ir_refuse_loops(t, "herd7's X86 text", &d) ? x86_compile(t, s, &d) : NULL;
        if (!p) {
            status = cli_report(&d);
        } else {
            items[i].name = file_stem(files[i]);
            items[i].litmus = x86litmus_print(p);
            items[i].map = x86litmus_map_text(p);
        }
        x86_prog_free(p);
        ir_test_free(t);
    }
    if (status == EXIT_OK) {
        struct stat st;
        bool out_is_dir = out && stat(out, &st) == 0 && S_ISDIR(st.st_mode);
        if (nfiles == 1 && !out_is_dir) {
            if (out ? !write_file(out, items[0].litmus, &d) : fputs(items[0].litmus, stdout) < 0)
                status = d.set ? cli_report(&d) : EXIT_INTERNAL;
            if (status == EXIT_OK && map && !write_file(map, items[0].map, &d)) {
                if (out)
                    unlink(out);
                status = cli_report(&d);
            }
        } else {
            if (!out_is_dir && mkdir(out, 0777) != 0) {
                diag_error(&d, out, 0, 0, "cannot create output folder: %s", strerror(errno));
                status = cli_report(&d);
            }
            for (int i = 0; i < nfiles && status == EXIT_OK; i++) {
                char *path = xasprintf("%s/%s.litmus", out, items[i].name);
                char *mpath = xasprintf("%s/%s.map", out, items[i].name);
                if (!write_file(path, items[i].litmus, &d) || (map && !write_file(mpath, items[i].map, &d))) {
                    status = cli_report(&d);
                    /* Take back what this run wrote. */
                    for (int j = 0; j <= i; j++) {
                        char *pj = xasprintf("%s/%s.litmus", out, items[j].name);
                        char *mj = xasprintf("%s/%s.map", out, items[j].name);
                        unlink(pj);
                        if (map)
                            unlink(mj);
                        free(pj);
                        free(mj);
                    }
                }
                free(path);
                free(mpath);
            }
        }
    }
    for (int i = 0; i < nfiles; i++) {
        free(items[i].name);
        free(items[i].litmus);
        free(items[i].map);
    }
    free(items);
    free(files);
    x86_scheme_free(s);
    return status;
}
