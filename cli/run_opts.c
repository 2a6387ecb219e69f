/* The options of `litmusc run`, parsed in one place for `run` and for
 * `campaign run` (run_opts.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/run_opts.h"
#include "util/mem.h"

static bool one_of(const char *v, const char *const *names)
{
    for (; *names; names++)
        if (!strcmp(v, *names))
            return true;
    return false;
}

/* A count as the runner takes it: digits with an optional k/M/G. */
static bool valid_count(const char *v)
{
    size_t n = strspn(v, "0123456789");
    if (n == 0 || n > 12)
        return false;
    return !v[n] || (strchr("kKmMgG", v[n]) && !v[n + 1]);
}

static void add_run_arg(run_opts *o, const char *flag, const char *value)
{
    VEC_PUSH(o->run_args, o->nrun_args, o->run_args_cap, xstrdup(flag));
    VEC_PUSH(o->run_args, o->nrun_args, o->run_args_cap, xstrdup(value));
}

/* Each flag once, however often it is given (the list has room for all). */
static void note_native_only(run_opts *o, const char *flag)
{
    for (int i = 0; i < o->nnative_only; i++)
        if (!strcmp(o->native_only[i], flag))
            return;
    if (o->nnative_only < (int)(sizeof o->native_only / sizeof *o->native_only))
        o->native_only[o->nnative_only++] = flag;
}

static const char *cmd_name = "litmusc run";

enum {
    OPT_TARGET = 256, OPT_SYNC, OPT_AFFINITY, OPT_LAYOUT, OPT_MODEL, OPT_CC, OPT_TIMEOUT,
    OPT_JSON, OPT_FILTER, OPT_XML, OPT_CACHE, OPT_SEED, OPT_CPUS, OPT_TIME, OPT_SCHEME, OPT_PLAIN,
    OPT_CHUNK, OPT_PERIOD, OPT_DELAY, OPT_UNTIL_COVERED, OPT_MAX_ITER, OPT_RACE_FUZZ, OPT_CFLAGS,
    OPT_MAX_CAND, OPT_MODEL_TIMEOUT
};

/* --until-covered without --max-iterations stops at this many. */
#define DEFAULT_MAX_ITERATIONS "10M"

/* What the option parsers below return for an option that is not theirs. */
enum { NOT_MINE = -2 };

/* The native runner's counts and stress options: -1 when C was one and
 * fine, NOT_MINE when it is not one, else the exit status. */
static int runner_option(run_opts *o, int c, const char *v, bool *max_iterations)
{
    switch (c) {
    case 's':
    case 'r':
        if (!valid_count(v))
            return cli_usage_error(cmd_name, "-%s needs a count (digits, optional k/M/G), not '%s'",
                                   c == 's' ? "s" : "r", v);
        /* 0 would run nothing (and -s 0 fails in the runner): refuse it here. */
        if (strtoull(v, NULL, 10) == 0)
            return cli_usage_error(cmd_name, "-%s must be positive, not '%s'", c == 's' ? "s" : "r", v);
        add_run_arg(o, c == 's' ? "-s" : "-r", v);
        *(c == 's' ? &o->size : &o->runs) = v;
        break;
    case OPT_CHUNK:
        if (!valid_count(v))
            return cli_usage_error(cmd_name,
                                   "--chunk needs a count (digits, optional k/M/G), not '%s'", v);
        add_run_arg(o, "--chunk", v);
        note_native_only(o, "--chunk");
        break;
    case OPT_PERIOD:
    case OPT_DELAY: {
        const char *flag = c == OPT_PERIOD ? "--period" : "--delay";
        if (strcmp(v, "auto") && !valid_count(v))
            return cli_usage_error(cmd_name, "%s needs a number of ticks or auto, not '%s'", flag, v);
        /* valid_count: at most 12 digits, then an optional suffix. */
        if (c == OPT_PERIOD && strcmp(v, "auto") && strtoull(v, NULL, 10) == 0)
            return cli_usage_error(cmd_name, "--period must be positive (or auto)");
        add_run_arg(o, flag, v);
        note_native_only(o, flag);
        break;
    }
    case OPT_UNTIL_COVERED:
        o->until_covered = true;
        note_native_only(o, "--until-covered");
        break;
    case OPT_RACE_FUZZ:
        /* a run until the states that confirm the targets are seen */
        o->race_fuzz = o->until_covered = true;
        note_native_only(o, "--race-fuzz");
        break;
    case OPT_MAX_ITER:
        if (!valid_count(v) || strtoull(v, NULL, 10) == 0)
            return cli_usage_error(cmd_name,
                                   "--max-iterations needs a positive count (digits, optional k/M/G), "
                                   "not '%s'", v);
        add_run_arg(o, "--max-iterations", v);
        *max_iterations = true;
        break;
    case OPT_SEED:
    case OPT_CPUS:
        if (!*v || strspn(v, "0123456789") != strlen(v) || strlen(v) > 19)
            return cli_usage_error(cmd_name,
                                   "%s needs a number, not '%s'", c == OPT_SEED ? "--seed" : "--cpus", v);
        /* the runner takes 1 to 99999 CPUs: say so here (exit 2), not as a
         * runner that failed (exit 3) */
        if (c == OPT_CPUS && (strtoull(v, NULL, 10) < 1 || strtoull(v, NULL, 10) > 99999))
            return cli_usage_error(cmd_name, "--cpus needs a count from 1 to 99999, not '%s'", v);
        add_run_arg(o, c == OPT_SEED ? "--seed" : "--cpus", v);
        note_native_only(o, c == OPT_SEED ? "--seed" : "--cpus");
        break;
    default:
        return NOT_MINE;
    }
    return -1;
}

/* The target, the runner's modes, limits, model, compiler and outputs:
 * -1 when C was one and fine, NOT_MINE when it is not one, else the exit
 * status. */
static int harness_option(run_opts *o, int c, const char *v)
{
    static const char *const targets[] = {"c11", "x86", "java", NULL};
    static const char *const syncs[] = {"loose", "timebase", "user", NULL};
    static const char *const affinities[] = {"none", "incr", "random", NULL};
    static const char *const layouts[] = {"packed", "line", "shuffle", "array", NULL};
    static const char *const plains[] = {"volatile", "relaxed", NULL};
    switch (c) {
    case OPT_TARGET:
        if (!strcmp(v, "aarch64"))
            return cli_usage_error(cmd_name, "target 'aarch64': litmusc has no native AArch64 runner (its "
                                   "harnesses run x86 machine code); run AArch64 tests on an Arm machine "
                                   "with herd's litmus7");
        if (!one_of(v, targets))
            return cli_usage_error(cmd_name, "unknown target '%s' (c11, x86, java)", v);
        o->target = v;
        break;
    case OPT_SYNC:
    case OPT_AFFINITY:
    case OPT_LAYOUT: {
        const char *const *names = c == OPT_SYNC ? syncs : c == OPT_AFFINITY ? affinities : layouts;
        const char *flag = c == OPT_SYNC ? "--sync" : c == OPT_AFFINITY ? "--affinity" : "--layout";
        if (!one_of(v, names))
            return cli_usage_error(cmd_name, "%s: unknown mode '%s'", flag, v);
        add_run_arg(o, flag, v);
        if (c != OPT_SYNC || strcmp(v, "loose"))
            note_native_only(o, flag);
        break;
    }
    case OPT_TIME:
    case OPT_TIMEOUT: {
        double s;
        if (!cli_parse_seconds(v, &s))
            return cli_usage_error(cmd_name, "%s needs a positive number of seconds, not '%s'",
                                   c == OPT_TIME ? "--time" : "--timeout", v);
        if (c == OPT_TIME)
            add_run_arg(o, "--time", v), o->time = v;
        else
            o->timeout_s = s;
        break;
    }
    case OPT_MODEL: o->model = v; break;
    case OPT_MAX_CAND:          /* the budget of the model run each test's states come from */
        if (!cli_set_budget(cmd_name, v, NULL))
            return EXIT_USAGE;
        break;
    case OPT_MODEL_TIMEOUT:
        if (!cli_set_budget(cmd_name, NULL, v))
            return EXIT_USAGE;
        break;
    case OPT_CC:
        if (!*v)
            return cli_usage_error(cmd_name, "--cc needs a compiler");
        o->cc = v;
        note_native_only(o, "--cc");
        break;
    case OPT_CFLAGS:
        o->cflags = v;
        note_native_only(o, "--cflags");
        break;
    case OPT_JSON: o->json = true; break;
    case OPT_FILTER: o->filter = v; break;
    case OPT_XML: o->xml = v; break;
    case OPT_CACHE: o->cache_dir = v; break;
    case OPT_SCHEME:
        o->scheme = v;
        note_native_only(o, "--scheme");
        break;
    case OPT_PLAIN:
        if (!one_of(v, plains))
            return cli_usage_error(cmd_name, "--plain: '%s' is neither volatile nor relaxed", v);
        o->plain_relaxed = !strcmp(v, "relaxed");
        note_native_only(o, "--plain");
        break;
    default:
        return NOT_MINE;
    }
    return -1;
}

int run_opts_parse(run_opts *o, int argc, char **argv, const char *cmd, void (*usage)(FILE *f))
{
    cmd_name = cmd;
    static const struct option longs[] = {
        {"target", required_argument, 0, OPT_TARGET}, {"sync", required_argument, 0, OPT_SYNC},
        {"affinity", required_argument, 0, OPT_AFFINITY}, {"layout", required_argument, 0, OPT_LAYOUT},
        {"model", required_argument, 0, OPT_MODEL}, {"cc", required_argument, 0, OPT_CC},
        {"cflags", required_argument, 0, OPT_CFLAGS},
        {"timeout", required_argument, 0, OPT_TIMEOUT}, {"json", no_argument, 0, OPT_JSON},
        {"filter", required_argument, 0, OPT_FILTER}, {"xml", required_argument, 0, OPT_XML},
        {"cache-dir", required_argument, 0, OPT_CACHE}, {"seed", required_argument, 0, OPT_SEED},
        {"cpus", required_argument, 0, OPT_CPUS}, {"time", required_argument, 0, OPT_TIME},
        {"scheme", required_argument, 0, OPT_SCHEME}, {"plain", required_argument, 0, OPT_PLAIN},
        {"chunk", required_argument, 0, OPT_CHUNK}, {"period", required_argument, 0, OPT_PERIOD},
        {"delay", required_argument, 0, OPT_DELAY},
        {"max-candidates", required_argument, 0, OPT_MAX_CAND},
        {"model-timeout", required_argument, 0, OPT_MODEL_TIMEOUT},
        {"until-covered", no_argument, 0, OPT_UNTIL_COVERED},
        {"race-fuzz", no_argument, 0, OPT_RACE_FUZZ},
        {"max-iterations", required_argument, 0, OPT_MAX_ITER},
        {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    optind = 1;
    opterr = 0;
    int c;
    bool max_iterations = false;
    while ((c = getopt_long(argc, argv, "+s:r:h", longs, NULL)) != -1) {
        int st = runner_option(o, c, optarg, &max_iterations);
        if (st == NOT_MINE)
            st = harness_option(o, c, optarg);
        if (st == -1)
            continue;
        if (st != NOT_MINE)
            return st;
        if (c == 'h') {
            usage(stdout);
            return EXIT_OK;
        }
        if (optopt && optopt < 256)
            return cli_usage_error(cmd_name, "unknown option or missing value: -%c", optopt);
        return cli_usage_error(cmd_name, "unknown option or missing value: %s", argv[optind - 1]);
    }
    if (optind >= argc && !o->files_optional)
        return cli_usage_error(cmd_name, "no test files given");
    if (max_iterations && !o->until_covered)
        return cli_usage_error(cmd_name,
                               "--max-iterations bounds --until-covered; without it, -s and -r say how many");
    if (o->until_covered && !max_iterations)
        add_run_arg(o, "--max-iterations", DEFAULT_MAX_ITERATIONS);
    VEC_PUSH(o->run_args, o->nrun_args, o->run_args_cap, NULL);
    return -1;
}


/* Sorted by flag, so that the same options in another order make the
 * same configuration. */
static int cmp_pair(const void *a, const void *b)
{
    const char *const *x = a, *const *y = b;
    int c = strcmp(x[0], y[0]);
    return c ? c : strcmp(x[1], y[1]);
}

void run_opts_free(run_opts *o)
{
    for (size_t i = 0; i < o->nrun_args; i++)
        free(o->run_args[i]);
    free(o->run_args);
}

char *run_opts_canonical(const run_opts *o, bool with_timeout)
{
    size_t npairs = o->nrun_args / 2;
    const char **pairs = xcalloc(npairs * 2 + 2, sizeof *pairs);
    for (size_t i = 0; i < npairs * 2; i++)
        pairs[i] = o->run_args[i];
    qsort(pairs, npairs, 2 * sizeof *pairs, cmp_pair);
    strbuf b = {0};
    for (size_t i = 0; i < npairs; i++)
        sb_printf(&b, "%s%s %s", i ? " " : "", pairs[2 * i], pairs[2 * i + 1]);
    if (o->race_fuzz)
        sb_printf(&b, "%s--race-fuzz on", b.len ? " " : "");
    else if (o->until_covered)
        sb_printf(&b, "%s--until-covered on", b.len ? " " : "");   /* flag and value, as the rest */
    if (o->cflags)          /* builds a different runner; absent, the string is as before */
        sb_printf(&b, "%s--cflags %s", b.len ? " " : "", o->cflags);
    if (with_timeout)
        sb_printf(&b, "%s--timeout %g", b.len ? " " : "", o->timeout_s);
    free(pairs);
    return sb_take(&b);
}
