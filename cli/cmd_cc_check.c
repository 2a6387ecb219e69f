/* litmusc cc-check [--target T] [--cc CC]... [--cflags FLAGS]... [--model M] [--target-model M] [--out DIR]
 *                  [--accesses] [--unroll N] [--timeout SEC] FILE...
 *
 * Each C test, built by each compiler with each flag set, is lifted from
 * the object's machine code back to a litmus test of the target (lift/:
 * X86_64, AArch64), whose states under the target's model (x86tso-rmw,
 * aarch64) are compared with the source's under M:
 *   cc-check NAME CC FLAGS: same|stronger|bug
 * A state the compiled code allows and the source forbids is a
 * compilation bug, printed with each thread's instructions (exit 1). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "backends/native.h"
#include "cli/args.h"
#include "cli/cli.h"
#include "frontend/frontend.h"
#include "ir/lower.h"
#include "lift/lift.h"
#include "model/model.h"
#include "util/file.h"
#include "util/mem.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: litmusc cc-check [--target T] [--cc CC]... [--cflags FLAGS]... [--model M]\n"
               "                        [--target-model M] [--out DIR] [--accesses] [--unroll N] [--timeout SEC]\n"
               "                        [--max-candidates N] [--model-timeout SEC] FILE...\n\n"
               "Compile each C test with a real compiler (each thread a function P<n>, each\n"
               "location a global, each register a global P<n>_<reg>), lift each thread's\n"
               "machine code back to a litmus test of the target (x86_64: Capstone; aarch64:\n"
               "LLVM's disassembler; libelf for both), and compare its states under the\n"
               "target's model with the source's under the model.  One line per test and\n"
               "configuration:\n"
               "  cc-check NAME CC FLAGS: same | stronger | bug\n"
               "A bug is a state the compiled code allows and the source forbids; it is\n"
               "printed with the lifted code.\n\n"
               "  --target T     x86_64 (default) or aarch64: the objects' machine, the lifted\n"
               "                 test's dialect and its model.  aarch64 gives every compiler\n"
               "                 -mno-outline-atomics (the atomics inline, not libgcc calls) and a\n"
               "                 compiler named clang* --target=aarch64-linux-gnu; an exclusive\n"
               "                 retry loop is cut, and runs that fail it are dropped; a lock\n"
               "                 test's locks are a spin lock on the atomics, its wait cut\n"
               "                 (x86_64 refuses a lock test by name)\n"
               "  --cc CC        compiler by name or path (repeatable; default cc, for aarch64\n"
               "                 aarch64-linux-gnu-gcc)\n"
               "  --cflags F     one flag set, split at blanks (repeatable; default -O2);\n"
               "                 each CC x FLAGS pair is one configuration; -c -fno-pic are\n"
               "                 always given (globals as x(%%rip) with plain relocations)\n"
               "  --model M      the source's model (default rc11; for aarch64 rc11-lb,\n"
               "                 rc11 without no-thin-air: see litmusc models)\n"
               "  --target-model M  the lifted test's model (default x86tso-rmw, for aarch64\n"
               "                 aarch64; herd's aarch64.cat by path works too)\n"
               "  --out DIR      write each lifted test as DIR/NAME.CC.FLAGS.litmus, in the\n"
               "                 X86_64 or AArch64 herd7 7.57 reads as it is (its header says\n"
               "                 so, or names the instruction herd has no form for), and the\n"
               "                 translation unit every compiler is given as DIR/NAME.c\n"
               "  --accesses     after each verdict, each C access (by line) with what it\n"
               "                 compiled to, paired by order of memory accesses per\n"
               "                 thread, beside litmusc's c11-x86-mfence scheme for it (x86_64)\n"
               "  --unroll N     unroll each loop (a lock cmpxchg retry loop) N times (default\n"
               "                 2); a run that needs more is exit 3 naming the bound (x86_64;\n"
               "                 aarch64 cuts each loop's retry instead, see --target)\n"
               "  --timeout SEC  a compiler still going after SEC seconds is killed, with all\n"
               "                 it started, and the configuration is exit 3 (default 60)\n"
               CLI_BUDGET_HELP
               "                  (for each of the two model runs, source and lifted)\n"
               "  -h, --help     this text\n\n"
               "exit status: 0 no bug, 1 a compilation bug, 2 bad input or code that cannot\n"
               "lift (named: a call, an indirect jump, an instruction outside the dialect),\n"
               "3 internal failure, a limit crossed, the model's budget spent, a compiler that\n"
               "cannot run (not found) or runs past --timeout\n\n"
               "example: litmusc cc-check --cc gcc --cc clang --cflags -O0 --cflags -O2 \\\n"
               "           tests/corpus/c11/classic/SB+scs.litmus\n");
}


/* A file name part: the one sanitiser of test names (emit, model --graph),
 * so that a name like "../x" stays inside --out. */
static char *tag(const char *s)
{
    return native_file_stem(*s ? s : "none");
}

/* One configuration of one test (lift/check.c): the exit status. */
static int check_one(const fe_test *ft, const ir_test *t, const bset *sb, model *tso, lift_target tg,
                     const char *cc, const char *cflags, const char *out_dir, bool accesses, int unroll,
                     double timeout_s, diag *d)
{
    lift_result r;
    bool ok = lift_check_target(ft, t, sb, tso, tg, cc, cflags, unroll, timeout_s, &r, d);
    if (r.herd_note)
        fprintf(stderr, "litmusc cc-check: %s %s %s: note: the lifted test is outside herd7 7.57's X86_64 (%s)\n",
                t->name, cc, cflags, r.herd_note);
    if (r.text && out_dir) {
        char *a = tag(cc), *b = tag(cflags);
        const char *base = strrchr(cc, '/') ? a + (strrchr(cc, '/') - cc) + 1 : a;
        char *n = tag(t->name);
        char *path = xasprintf("%s/%s.%s.%s.litmus", out_dir, n, base, b);
        /* a refusal after lifting (a limit) keeps its own reason */
        if (!file_write_atomic(path, r.text, strlen(r.text)) && ok)
            ok = diag_fail(d, "cc-check: cannot write %s: %s", path, strerror(errno));
        free(path), free(a), free(b), free(n);
    }
    if (!ok) {
        lift_result_free(&r);
        return d->status ? d->status : 3;
    }
    printf("cc-check %s %s %s: %s", t->name, cc, *cflags ? cflags : "(none)", lift_verdict_name(r.verdict));
    printf(" (%d states compiled, %d source)\n", r.cb->nstates, sb->nstates);
    for (int i = 0; i < r.nbad; i++) {
        char *s = lift_state_text(&r, r.bad[i]);
        printf("  state the source forbids: %s\n", s);
        free(s);
    }
    int st = EXIT_OK;
    if (accesses) {
        char *rep = lift_access_report(t, r.text, "c11-x86-mfence", d);
        if (rep)
            fputs(rep, stdout);
        free(rep);
        st = rep ? st : d->status ? d->status : 3;
    }
    if (r.nbad && st == EXIT_OK) {
        printf("  compiled code:\n%s", r.text);
        st = 1;
    }
    lift_result_free(&r);
    return st;
}

int cmd_cc_check(int argc, char **argv)
{
    const char *model_arg = NULL, *out_dir = NULL, *target_arg = "x86_64", *target_model = NULL;
    bool accesses = false;
    const char *unroll_arg = "2", *timeout_arg = "60", *max_cand_arg = NULL, *model_timeout_arg = NULL;
    cli_ccs cc;
    const cli_opt opts[] = {CLI_STR("--model", &model_arg), CLI_STR("--out", &out_dir),
                            CLI_STR("--target", &target_arg), CLI_STR("--target-model", &target_model),
                            CLI_FLAG("--accesses", &accesses), CLI_STR("--unroll", &unroll_arg),
                            CLI_STR("--timeout", &timeout_arg), CLI_STR("--max-candidates", &max_cand_arg),
                            CLI_STR("--model-timeout", &model_timeout_arg), {0}};
    cli_args it;
    cli_args_init(&it, "litmusc cc-check", argc, argv, usage);
    int id = cli_walk_ccs(&it, opts, &cc);
    if (id != CLI_END)
        return cli_stop(&it, id);
    lift_target tg;
    if (!lift_target_parse(target_arg, &tg)) {
        fprintf(stderr, "litmusc cc-check: --target takes x86_64 or aarch64, not '%s'\n", target_arg);
        free(it.files);
        return EXIT_USAGE;
    }
    if (accesses && !lift_target_get(tg)->accesses) {
        fprintf(stderr, "litmusc cc-check: --accesses pairs C accesses with x86-64 code only\n");
        free(it.files);
        return EXIT_USAGE;
    }
    char *end;
    long unroll = strtol(unroll_arg, &end, 10);
    if (*end || end == unroll_arg || unroll < 0 || unroll > 16) {
        fprintf(stderr, "litmusc cc-check: --unroll takes a count from 0 to 16, not '%s'\n", unroll_arg);
        free(it.files);
        return EXIT_USAGE;
    }
    double timeout_s = strtod(timeout_arg, &end);
    if (*end || end == timeout_arg || !(timeout_s > 0) || timeout_s > 1e6) {
        fprintf(stderr, "litmusc cc-check: --timeout takes seconds above 0, not '%s'\n", timeout_arg);
        free(it.files);
        return EXIT_USAGE;
    }
    if (!cli_set_budget("litmusc cc-check", max_cand_arg, model_timeout_arg)) {
        free(it.files);
        return EXIT_USAGE;
    }
    if (it.nfiles == 0) {
        usage(stderr);
        free(it.files);
        return EXIT_USAGE;
    }
    if (!model_arg)
        model_arg = lift_target_get(tg)->source_model;
    if (cc.cc_default)
        cc.cc[0] = lift_target_get(tg)->cc;
    if (out_dir && !file_mkdirs(out_dir, 0777)) {
        fprintf(stderr, "litmusc cc-check: cannot create --out %s: %s\n", out_dir, strerror(errno));
        free(it.files);
        return EXIT_INTERNAL;
    }
    model_set *models = model_set_new();
    int status = EXIT_OK;
    for (int f = 0; f < it.nfiles; f++) {
        diag d = {0};
        fe_test *ft = fe_parse_file(it.files[f], &d);
        ir_test *t = ft ? ir_lower(ft, &d) : NULL;
        if (t && t->arch != IR_ARCH_C)
            diag_error(&d, it.files[f], 0, 0, "cc-check takes C tests, not %s", fe_arch_name(ft->arch));
        model *src_m = d.set ? NULL : model_set_get(models, model_arg, &d);
        const char *lifted_model = target_model ? target_model : lift_target_get(tg)->model;
        model *tso = d.set ? NULL : model_set_get(models, lifted_model, &d);
        bset *sb = d.set ? NULL : model_run(src_m, t, &d);
        if (sb && out_dir) {
            /* the translation unit every compiler is given, beside the lifted tests */
            char *tu = lift_tu_text(ft, t, &d);
            char *n = tag(t->name);
            char *path = tu ? xasprintf("%s/%s.c", out_dir, n) : NULL;
            if (tu && !file_write_atomic(path, tu, strlen(tu)))
                diag_fail(&d, "cc-check: cannot write %s: %s", path, strerror(errno));
            free(path);
            free(n);
            free(tu);
            if (d.set) {
                bset_free(sb);
                sb = NULL;
            }
        }
        for (int c = 0; c < cc.ncc && sb; c++)
            for (int g = 0; g < cc.ncflags; g++) {
                diag dd = {0};
                int st = check_one(ft, t, sb, tso, tg, cc.cc[c], cc.cflags[g], out_dir, accesses, unroll, timeout_s, &dd);
                if (dd.set) {
                    char msg[DIAG_MSG_MAX];
                    diag_format(&dd, msg, sizeof msg);
                    printf("cc-check %s %s %s: refused\n", t->name, cc.cc[c], cc.cflags[g]);
                    fprintf(stderr, "%s\n", msg);
                }
                if (st == 1 || (status != 1 && st > status))
                    status = st;
            }
        if (d.set)
            cli_report_worst(&d, &status);
        if (sb)
            bset_free(sb);
        if (t)
            ir_test_free(t);
        if (ft)
            fe_test_free(ft);
    }
    model_set_free(models);
    free(it.files);
    return status;
}
