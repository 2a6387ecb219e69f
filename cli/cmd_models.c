/* litmusc models: the built-in models (the .cat files of model/cat, compiled into the
 * program) and, with --print NAME, one model's file, so that a user can
 * start a model of their own from it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/args.h"
#include "cli/cli.h"
#include "model/model.h"
#include "util/embed.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: litmusc models [--print NAME]\n"
               "\n"
               "List the built-in memory models (those --model NAME takes), with the title\n"
               "on each file's first line and the library files they include; --print writes\n"
               "one model's cat file to stdout, to start a model of your own from.\n"
               "\n"
               "  --print NAME  the cat file of NAME (sc, x86tso, rc11, jam21, aarch64, or a library\n"
               "                file such as cos or stdlib; jls04 has none)\n"
               "\n"
               "exit status: 0 done, 2 no such model or bad usage\n"
               "example: litmusc models --print x86tso > mytso.cat\n");
}

/* A model's title: the quoted string on its first line. */
static void title(const embed_file *e, char *buf, size_t size)
{
    const char *q = strchr(e->data, '"');
    const char *nl = strchr(e->data, '\n');
    buf[0] = '\0';
    if (q && (!nl || q < nl)) {
        const char *end = strchr(q + 1, '"');
        if (end)
            snprintf(buf, size, "%.*s", (int)(end - q - 1), q + 1);
    }
}

/* Whether NAME is in the NULL-terminated list NAMES (model_builtin_names,
 * or model_multi_names: the built-in models that are no cat file). */
static bool in_list(const char *const *names, const char *name)
{
    for (; *names; names++)
        if (!strcmp(name, *names))
            return true;
    return false;
}

int cmd_models(int argc, char **argv)
{
    const char *print = NULL;
    const cli_opt opts[] = {CLI_STR("--print", &print), {0}};
    cli_args it;
    int st = cli_parse(&it, "litmusc models", argc, argv, usage, opts, false);
    if (st >= 0)
        return st;
    st = EXIT_OK;
    if (it.nfiles) {
        fprintf(stderr, "litmusc models: error: unexpected argument '%s'\n", it.files[0]);
        st = EXIT_USAGE;
    } else if (print) {
        char path[128];
        snprintf(path, sizeof path, "model/cat/%s%s", print,
                 strlen(print) > 4 && !strcmp(print + strlen(print) - 4, ".cat") ? "" : ".cat");
        const embed_file *e = strchr(print, '/') ? NULL : embed_find(path);
        if (in_list(model_multi_names(), print)) {
            fprintf(stderr, "litmusc models: error: '%s' is a built-in multi-execution model: it has no cat file "
                    "(its causality check is C code, model/jls04/)\n", print);
            st = EXIT_USAGE;
        } else if (!e) {
            fprintf(stderr, "litmusc models: error: no built-in model '%s' (see litmusc models)\n", print);
            st = EXIT_USAGE;
        } else
            fwrite(e->data, 1, e->len, stdout);
    } else {
        printf("models (--model NAME):\n");
        for (int pass = 0; pass < 2; pass++) {
            if (pass)
                printf("library files they include:\n");
            for (int i = 0; embed_files[i].path; i++) {
                const char *p = embed_files[i].path;
                if (strncmp(p, "model/cat/", 10) || strlen(p) < 15)
                    continue;
                char name[64], t[128];
                snprintf(name, sizeof name, "%.*s", (int)(strlen(p) - 14), p + 10);
                if (in_list(model_builtin_names(), name) != !pass)
                    continue;
                title(&embed_files[i], t, sizeof t);
                printf("  %-10s %s\n", name, t);
            }
            for (const char *const *m = model_multi_names(); !pass && *m; m++)
                printf("  %-10s %s\n", *m, "Java 5 memory model, JLS 17.4 (multi-execution: causality; no cat file)");
        }
        printf("defaults: x86tso for X86, rc11 for C, jam21 for Java\n");
    }
    free(it.files);
    return st;
}
