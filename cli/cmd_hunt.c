/* litmusc hunt [--target T] --cc CC [--cc CC2]... [--cflags F]... [--budget 10m] [--max-tests N] [--seed N] [--order O] [--mix]
 *              [--batch N] [--shard I/N] [--db FILE] [--edges LIST] [--confirm-time T] [--max-bugs N] -o DIR
 *
 * Parses the hunt's options, shows its progress line on stderr and its
 * summary on stdout; the hunt itself is hunt/. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/args.h"
#include "cli/cli.h"
#include "hunt/hunt.h"
#include "lift/lift.h"
#include "util/mem.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: litmusc hunt [--target T] --cc CC [--cc CC]... [--cflags FLAGS]... [--budget TIME]\n"
               "                    [--max-tests N] [--seed N] [--order random|enum] [--mix] [--batch N]\n"
               "                    [--shard I/N] [--db FILE]\n"
               "                    [--edges LIST] [--confirm-time TIME] [--max-bugs N] [--unroll N] -o DIR\n\n"
               "Hunt for compiler bugs: generate C litmus tests (diy7's cycles, drawn from the\n"
               "vocabulary of annotated C edges by a walk seeded with the seed and the test's\n"
               "number), compile them in batches with every compiler x flag set, lift the\n"
               "machine code back to X86_64 and compare its x86tso states with the source's\n"
               "rc11 states, as cc-check does, until the budget is spent.  Each bug is reduced,\n"
               "bisected, confirmed on this machine with the very object that was lifted, and\n"
               "written to DIR/bugs/ID/ (report.md, minimal.litmus, lifted.litmus, repro.c);\n"
               "DIR/report.json lists them all.  The hunt is kept in DIR/hunt.db, a campaign\n"
               "database: the same command resumes it, shards merge with `campaign merge`.\n\n"
               "  --target T       x86_64 (default) or aarch64: the machine compiled for and\n"
               "                   lifted, with cc-check --target's flags and models (aarch64:\n"
               "                   -mno-outline-atomics, the source under rc11-lb, the lifted\n"
               "                   test under aarch64; confirmation only on an AArch64 machine,\n"
               "                   repro.c is written all the same).  A hunt resumes only with\n"
               "                   its own target\n"
               "  --cc CC          compiler by name or path (repeatable; default cc, for aarch64\n"
               "                   aarch64-linux-gnu-gcc)\n"
               "  --cflags F       a flag set, split at blanks (repeatable; default -O2)\n"
               "  --budget TIME    search for this long: 30s, 10m, 1h (default 1m)\n"
               "  --max-tests N    stop after the first N tests of the stream (with no\n"
               "                   --budget: however long that takes)\n"
               "  --seed N         the stream's seed (default 1)\n"
               "  --order O        random (default): each test a cycle drawn at random, 2 to 4\n"
               "                   threads, every kind of edge about as often; enum: every\n"
               "                   cycle of 4, then 5, then 6 edges (up to 4 threads), the\n"
               "                   vocabulary's communication edges with slices of 32 others\n"
               "                   (the seed shuffles the slices).  random is the default:\n"
               "                   the whole vocabulary has 670,000 4-edge cycles and millions\n"
               "                   of 5-edge ones; enum is for a short --edges list or a sweep\n"
               "  --mix            also each test with each thread from another configuration\n"
               "                   (globals defined weak so the objects link together)\n"
               "  --batch N        tests per translation unit and compiler call (default 64;\n"
               "                   1 compiles each test alone, as cc-check)\n"
               "  --shard I/N      only the tests k with k mod N = I-1\n"
               "  --db FILE        the hunt's database (default DIR/hunt.db)\n"
               "  --edges LIST     the vocabulary: annotated C edges, blank separated (default:\n"
               "                   gen's C edges with every atomic annotation)\n"
               "  --confirm-time T each hardware confirmation runs this long (default 5s)\n"
               "  --max-bugs N     reduce and report at most N bugs a run (default 10; 0 none;\n"
               "                   the rest wait for the next run)\n"
               "  --unroll N       loop unrolling bound for the lifter (default 2)\n"
               "  -o DIR           the output folder (created)\n"
               "  -h, --help       this text\n\n"
               "exit status: 0 no bug, 1 a bug found, 2 bad usage, 3 environment failure\n"
               "(a compiler missing, a file that cannot be written)\n\n"
               "example: litmusc hunt --cc gcc --cc clang --cflags -O0 --cflags -O2 --budget 10m -o hunt1\n");
}

/* The progress line: on a terminal rewritten in place, else a line every 10 s. */
typedef struct pstate {
    bool tty;
    double last;
    int width;
} pstate;

static bool on_progress(void *ctx, const hunt_progress *p)
{
    pstate *ps = ctx;
    bool end = !strcmp(p->phase, "done");
    if (!end && !ps->tty && p->elapsed_s - ps->last < 10 && strcmp(p->phase, "search"))
        return true;
    if (!end && !ps->tty && p->elapsed_s - ps->last < 10)
        return true;
    ps->last = p->elapsed_s;
    char line[512];
    int n;
    if (!strcmp(p->phase, "search") || end)
        n = snprintf(line, sizeof line, "hunt: %ld tests, %ld configurations, %ld lifted, %ld bugs found, %.1f/s%s%s",
                     p->tests, p->configs, p->lifted, p->raw_bugs, p->rate, p->where ? "; " : "",
                     p->where ? p->where : "");
    else
        n = snprintf(line, sizeof line, "hunt: %s %s", p->phase, p->current ? p->current : "");
    if (ps->tty) {
        fprintf(stderr, "\r%s%*s", line, ps->width > n ? ps->width - n : 0, "");
        ps->width = n;
        if (end)
            fputc('\n', stderr);
    } else if (!end)
        fprintf(stderr, "%s\n", line);
    return true;
}

static bool parse_count(const char *v, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi)
        return false;
    *out = x;
    return true;
}

int cmd_hunt(int argc, char **argv)
{
    const char *budget = NULL, *max_tests = NULL, *seed = "1", *batch = "64", *shard = NULL, *db = NULL;
    const char *order = "random", *target = "x86_64", *edges = NULL, *confirm = "5s", *max_bugs = "10", *unroll = "2", *out = NULL;
    bool mix = false;
    cli_ccs cc;
    const cli_opt opts[] = {CLI_STR("--target", &target), CLI_STR("--budget", &budget), CLI_STR("--max-tests", &max_tests),
                            CLI_STR("--seed", &seed), CLI_STR("--order", &order), CLI_FLAG("--mix", &mix), CLI_STR("--batch", &batch),
                            CLI_STR("--shard", &shard), CLI_STR("--db", &db), CLI_STR("--edges", &edges),
                            CLI_STR("--confirm-time", &confirm), CLI_STR("--max-bugs", &max_bugs),
                            CLI_STR("--unroll", &unroll), CLI_STR("-o", &out), {0}};
    cli_args it;
    cli_args_init(&it, "litmusc hunt", argc, argv, usage);
    int id = cli_walk_ccs(&it, opts, &cc);
    if (id != CLI_END)
        return cli_stop(&it, id);
    int nfiles = it.nfiles;
    free(it.files);
    const char *cmd = "litmusc hunt";
    if (nfiles)
        return cli_usage_error(cmd, "hunt takes no files (it generates its tests)");
    if (!out)
        return cli_usage_error(cmd, "-o DIR is required");
    lift_target tg;
    if (!lift_target_parse(target, &tg))
        return cli_usage_error(cmd, "--target takes x86_64 or aarch64, not '%s'", target);
    if (cc.cc_default)
        cc.cc[0] = lift_target_get(tg)->cc;
    hunt_opts o = {.target = tg, .ccs = cc.cc, .ncc = cc.ncc, .cflags = cc.cflags, .ncflags = cc.ncflags, .mix = mix,
                   .dir = out, .db = db, .vocab = edges, .shard = 1, .nshards = 1};
    long x;
    char *end;
    errno = 0;
    unsigned long long s = strtoull(seed, &end, 10);
    if (errno || end == seed || *end || *seed == '-')
        return cli_usage_error(cmd, "--seed takes a number, not '%s'", seed);
    o.seed = s;
    if (!strcmp(order, "enum"))
        o.order = HUNT_ORDER_ENUM;
    else if (strcmp(order, "random"))
        return cli_usage_error(cmd, "--order takes random or enum, not '%s'", order);
    if (budget && !hunt_parse_duration(budget, &o.budget_s))
        return cli_usage_error(cmd, "--budget takes a time such as 30s, 10m or 1h, not '%s'", budget);
    if (max_tests && !parse_count(max_tests, 1, 1000000000L, &o.max_tests))
        return cli_usage_error(cmd, "--max-tests takes a count of at least 1, not '%s'", max_tests);
    if (!budget && !max_tests)
        o.budget_s = 60;
    if (!parse_count(batch, 1, 1000, &x))
        return cli_usage_error(cmd, "--batch takes a count from 1 to 1000, not '%s'", batch);
    o.batch = (int)x;
    if (!hunt_parse_duration(confirm, &o.confirm_s))
        return cli_usage_error(cmd, "--confirm-time takes a time such as 5s, not '%s'", confirm);
    if (!parse_count(max_bugs, 0, 100000, &x))
        return cli_usage_error(cmd, "--max-bugs takes a count, not '%s'", max_bugs);
    o.max_bugs = (int)x;
    if (!parse_count(unroll, 0, 16, &x))
        return cli_usage_error(cmd, "--unroll takes a count from 0 to 16, not '%s'", unroll);
    o.unroll = (int)x;
    if (shard) {
        int i = 0, n = 0;
        char c;
        if (sscanf(shard, "%d/%d%c", &i, &n, &c) != 2 || n < 1 || i < 1 || i > n)
            return cli_usage_error(cmd, "--shard takes I/N with 1 <= I <= N, not '%s'", shard);
        o.shard = i, o.nshards = n;
    }
    pstate ps = {.tty = isatty(2)};
    o.progress = on_progress;
    o.ctx = &ps;
    hunt_stats st;
    diag d = {0};
    bool ok = hunt_run(&o, &st, &d);
    if (!ok)
        return cli_report(&d);
    printf("hunt: %ld tests, %ld configurations (%ld compiled, %ld lifted, %ld refused), %ld showed a "
           "forbidden state, %d bugs\n",
           st.p.tests, st.p.configs, st.p.compiled, st.p.lifted, st.refused, st.p.raw_bugs, st.p.bugs);
    printf("hunt: this run %.1f s searching, %.1f configurations/s, %ld compiler calls, %d of the %d edges of "
           "the vocabulary drawn\n",
           st.p.elapsed_s, st.p.rate, st.p.compiler_calls, st.vocab_drawn, st.vocab);
    if (st.where[0])
        printf("hunt: %s\n", st.where);
    printf("hunt: report %s/report.json\n", out);
    if (!cli_flush_stdout())
        return EXIT_INTERNAL;
    return st.p.raw_bugs ? EXIT_FOUND : EXIT_OK;
}
