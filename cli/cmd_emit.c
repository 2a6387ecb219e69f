/* `litmusc emit --target T ...`: hand the arguments to the target's emitter. */
#include <stdio.h>
#include <string.h>
#include "cli/args.h"
#include "cli/cli.h"

static const cli_verb targets[] = {
    {"x86-litmus", emit_x86_litmus, "a litmus test for herd7: the X86 program a scheme compiles the test to"},
    {"jcstress", emit_jcstress, "jcstress test sources (-o DIR, --package P)"},
    {"java", emit_java, "standalone Java stress runner sources"},
    {"c11", emit_c11, "native stress harness in C11 atomics and pthreads (C source to compile)"},
    {"x86", emit_x86_native, "native stress harness in x86 inline asm (C source to compile; not herd text)"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: litmusc emit --target TARGET [OPTIONS] FILE... [-o OUT]\n\ntargets:\n");
    cli_verbs_list(f, targets, sizeof targets / sizeof *targets, 11);
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
    const cli_verb *t = cli_verb_find(targets, sizeof targets / sizeof *targets, target);
    if (t)
        return t->run(argc, argv);
    fprintf(stderr, "litmusc emit: unknown target '%s'\n", target);
    usage(stderr);
    return EXIT_USAGE;
}
