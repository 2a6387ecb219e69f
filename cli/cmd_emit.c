/* `litmusc emit --target T ...`: hand the arguments to the target's emitter. */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"

typedef struct emit_target {
    const char *name;
    int (*emit)(int argc, char **argv);
    const char *summary;
} emit_target;

static const emit_target targets[] = {
    {"x86-litmus", emit_x86_litmus, "a litmus test for herd7: the X86 program a scheme compiles the test to"},
    {"jcstress", emit_jcstress, "jcstress test sources (-o DIR, --package P)"},
    {"java", emit_java, "standalone Java stress runner sources"},
    {"c11", emit_c11, "native stress harness in C11 atomics and pthreads (C source to compile)"},
    {"x86", emit_x86_native, "native stress harness in x86 inline asm (C source to compile; not herd text)"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: litmusc emit --target TARGET [OPTIONS] FILE... [-o OUT]\n\ntargets:\n");
    for (size_t i = 0; i < sizeof targets / sizeof *targets; i++)
        fprintf(f, "  %-11s %s\n", targets[i].name, targets[i].summary);
    fprintf(f, "\nGenerate code that runs or restates each litmus test FILE.\n\n"
               "  --target T  what to generate (one of the targets above)\n"
               "  -o OUT      output file or folder (the target's help says which)\n"
               "  -h, --help  this text; with --target, the target's options\n\n"
               "exit status: 0 written, 2 bad input or usage (file:line:col: error: ...),\n"
               "3 internal failure\n\n"
               "example: litmusc emit --target c11 SB.litmus -o sb/\n");
}

int cmd_emit(int argc, char **argv)
{
    const char *target = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--target") && i + 1 < argc)
            target = argv[i + 1];
        else if (!strncmp(argv[i], "--target=", 9))
            target = argv[i] + 9;
    }
    if (!target) {
        for (int i = 1; i < argc; i++)
            if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
                usage(stdout);
                return EXIT_OK;
            }
        fprintf(stderr, "litmusc emit: --target is required\n");
        usage(stderr);
        return EXIT_USAGE;
    }
    for (size_t i = 0; i < sizeof targets / sizeof *targets; i++)
        if (!strcmp(target, targets[i].name))
            return targets[i].emit(argc, argv);
    fprintf(stderr, "litmusc emit: unknown target '%s'\n", target);
    usage(stderr);
    return EXIT_USAGE;
}
