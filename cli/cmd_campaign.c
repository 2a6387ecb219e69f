/* litmusc campaign: many runs into one SQLite database (campaign/).
 *
 *   campaign run --db FILE [--targets LIST] [--cc CC]... [--cflags FLAGS]... [--shard I/N] [--quiet]
 *                [run options] FILE|DIR...
 *   campaign merge OUT.db IN.db...
 *   campaign report --db FILE [--html FILE] [--junit FILE] [--json]
 *   campaign diff A.db B.db
 *   campaign parallel --db FILE --jobs N [--shards N] [--sshlogin HOSTS] [run options] FILE|DIR...
 *   campaign slurm --db FILE --shards N [-o SCRIPT] [--partition P] [run options] FILE|DIR...
 *
 * This file parses and prints; the database, the runs, the shards and the
 * reports are campaign/'s. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "campaign/campaign.h"
#include "cli/cli.h"
#include "cli/run_opts.h"
#include "harness/harness.h"
#include "util/file.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: litmusc campaign run --db FILE [--targets x86,c11,java,cc-check] [--cc CC]...\n"
            "                            [--cflags FLAGS]... [--filter REGEX] [--shard I/N] [--quiet]\n"
            "                            [run options] FILE|DIR...\n"
            "       litmusc campaign merge OUT.db IN.db...\n"
            "       litmusc campaign report --db FILE [--html FILE] [--junit FILE] [--json]\n"
            "       litmusc campaign diff A.db B.db\n"
            "       litmusc campaign parallel --db FILE --jobs N [--shards N] [--sshlogin HOSTS]\n"
            "                            [run options] FILE|DIR...\n"
            "       litmusc campaign slurm --db FILE --shards N [-o SCRIPT] [--partition P]\n"
            "                            [run options] FILE|DIR...\n"
            "\n"
            "Run many tests x targets x compilers into one SQLite database, resumably: each\n"
            "finished run is committed as it ends, and the same command again runs only what\n"
            "is not finished.  A folder stands for every .litmus file below it.\n"
            "\n"
            "  --db FILE        the campaign database (created by run when missing)\n"
            "  --targets LIST   x86, c11, java (default: x86 for X86 tests, c11 otherwise), and\n"
            "                   cc-check: each C test compiled by each --cc with each --cflags,\n"
            "                   lifted back and compared with its model, as `litmusc cc-check`\n"
            "  --cc CC          a C compiler with its options ('gcc -O2'); give it again for more;\n"
            "                   for cc-check the compiler alone (a name or a path)\n"
            "  --cflags FLAGS   one flag set for cc-check (repeatable; default -O2): the runs are\n"
            "                   compiler x flag set; the report counts per pair the tests\n"
            "                   compiled, lifted, same, stronger, bug, refused (by reason)\n"
            "  --shard I/N      only the runs whose key falls in shard I of N\n"
            "  --quiet          no progress line (there is none when stderr is not a terminal)\n"
            "  run options      as for `litmusc run`: -s N -r N --sync M --affinity M --layout M\n"
            "                   --chunk N --period T --delay T --seed N --cpus N --time SEC\n"
            "                   --timeout SEC --model M --filter REGEX --cache-dir DIR\n"
            "                   --until-covered --max-iterations N\n"
            "  --html, --junit  write the report as HTML (SVG histograms) or JUnit XML\n"
            "  --json           print the report in the litmusc/1 JSON schema\n"
            "  --jobs N         shards at once (parallel); --shards N how many (default: jobs)\n"
            "  --sshlogin HOSTS GNU parallel's host list (the same paths must exist there)\n"
            "  -o SCRIPT        where slurm writes its job script (default: stdout); `sh SCRIPT`\n"
            "                   submits the array job and the merge that waits for it\n"
            "\n"
            "exit status: 0 done, nothing forbidden seen; 1 a run saw a forbidden state or\n"
            "cc-check found a compilation bug (run, parallel, report), or the campaigns differ\n"
            "(diff); 2 bad input or usage, a file that is not a campaign database; 3 environment\n"
            "failure (a run could not be built or run, interrupted; finished runs are kept)\n"
            "example: litmusc campaign run --db c.db --targets x86,c11 --cc gcc --cc clang -s 10k tests/corpus/x86\n"
            "         litmusc campaign run --db cc.db --targets cc-check --cc gcc --cc clang --cflags -O0 \\\n"
            "           --cflags -O2 tests/corpus/c11 && litmusc campaign report --db cc.db --html cc.html\n");
}

static int report_diag(const diag *d)
{
    char msg[DIAG_MSG_MAX + 300];
    diag_format(d, msg, sizeof msg);
    fprintf(stderr, "litmusc campaign: %s\n", msg);
    return d->status ? d->status : EXIT_INTERNAL;
}

/* The campaign options, taken out of ARGV before the run options are
 * parsed; ARGV keeps the rest (with argv[0]). */
typedef struct camp_opts {
    const char *db, *targets, *shard, *jobs, *shards, *sshlogin, *out, *partition, *html, *junit;
    const char *ccs[16];
    int nccs;
    const char *cflags[16];     /* cc-check's flag sets */
    int ncflags;
    bool quiet, json;
} camp_opts;

/* NEED_DB: the subcommand's name where it cannot go on without --db. */
static int take_options(camp_opts *co, int *argc, char **argv, const char *need_db)
{
    static const struct { const char *name; int slot; } valued[] = {
        {"--db", 0}, {"--targets", 1}, {"--shard", 2}, {"--jobs", 3}, {"--shards", 4}, {"--sshlogin", 5},
        {"-o", 6}, {"--partition", 7}, {"--html", 8}, {"--junit", 9}, {"--cc", 10}, {"--cflags", 11},
    };
    const char **slots[] = {&co->db, &co->targets, &co->shard, &co->jobs, &co->shards, &co->sshlogin,
                            &co->out, &co->partition, &co->html, &co->junit};
    int w = 1;
    bool files = false;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        if (files || !strcmp(a, "--")) {
            files = true;
            argv[w++] = argv[i];
            continue;
        }
        if (!strcmp(a, "--quiet")) {
            co->quiet = true;
            continue;
        }
        if (!strcmp(a, "--json")) {
            co->json = true;
            continue;
        }
        int hit = -1;
        const char *val = NULL;
        for (size_t k = 0; k < sizeof valued / sizeof *valued; k++) {
            size_t n = strlen(valued[k].name);
            if (!strcmp(a, valued[k].name)) {
                if (i + 1 >= *argc)
                    return cli_usage_error("litmusc campaign", "%s needs a value", a);
                hit = valued[k].slot;
                val = argv[++i];
                break;
            }
            if (!strncmp(a, valued[k].name, n) && a[n] == '=') {
                hit = valued[k].slot;
                val = a + n + 1;
                break;
            }
        }
        if (hit < 0) {
            argv[w++] = argv[i];
            continue;
        }
        if (hit == 10) {
            if (!*val)
                return cli_usage_error("litmusc campaign", "--cc needs a compiler");
            if (co->nccs == 16)
                return cli_usage_error("litmusc campaign", "at most 16 --cc");
            co->ccs[co->nccs++] = val;
        } else if (hit == 11) {
            if (co->ncflags == 16)
                return cli_usage_error("litmusc campaign", "at most 16 --cflags");
            co->cflags[co->ncflags++] = val;
        } else
            *slots[hit] = val;
    }
    argv[w] = NULL;
    *argc = w;
    if (need_db && !co->db)
        return cli_usage_error("litmusc campaign", "campaign %s needs --db FILE", need_db);
    return -1;
}

static bool positive(const char *s, int *out)
{
    char *end;
    errno = 0;
    long v = s ? strtol(s, &end, 10) : 0;
    if (!s || errno || end == s || *end || v < 1 || v > 100000)
        return false;
    *out = (int)v;
    return true;
}

/* --targets as configurations: target x compiler, and for cc-check
 * compiler x flag set. */
static int configs_of(const camp_opts *co, const run_opts *ro, campaign_config *cfg, int *n, char *options)
{
    enum { MAX_CONFIGS = 512 };
    const char *ccs[16];
    int nccs = co->nccs;
    for (int i = 0; i < nccs; i++)
        ccs[i] = co->ccs[i];
    if (!nccs)
        ccs[nccs++] = ro->cc;
    const char *flags[16];
    int nflags = co->ncflags;
    for (int i = 0; i < nflags; i++)
        flags[i] = co->cflags[i];
    if (!nflags)
        flags[nflags++] = "-O2";    /* as cc-check */
    char targets[128];
    snprintf(targets, sizeof targets, "%s", co->targets ? co->targets : ro->target ? ro->target : "auto");
    static const char *const known[] = {"x86", "c11", "java", "auto", CAMPAIGN_CC_TARGET};
    *n = 0;
    bool cc_check = false;
    char *save = NULL;
    for (char *t = strtok_r(targets, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        const char *name = NULL;
        for (size_t k = 0; k < sizeof known / sizeof *known && !name; k++)
            if (!strcmp(t, known[k]))
                name = known[k];
        if (!name)
            return cli_usage_error("litmusc campaign", "--targets: unknown target '%s' (x86, c11, java, cc-check)",
                                   t);
        bool cc = !strcmp(name, CAMPAIGN_CC_TARGET);
        cc_check |= cc;
        /* cc-check runs the compiler itself, unsplit: 'gcc -O2' is no compiler */
        for (int k = 0; cc && k < nccs; k++)
            if (strchr(ccs[k], ' ') && access(ccs[k], X_OK) != 0)
                return cli_usage_error("litmusc campaign", "--cc '%s': cc-check takes the compiler alone, "
                                       "its flags in --cflags", ccs[k]);
        int each = strcmp(name, "java") ? nccs : 1;
        for (int k = 0; k < each; k++)
            for (int f = 0; f < (cc ? nflags : 1); f++) {
                if (*n == MAX_CONFIGS)
                    return cli_usage_error("litmusc campaign", "too many targets, compilers and flag sets");
                /* cc-check's options are its flags; the run options are the harnesses' */
                cfg[*n] = (campaign_config){name, strcmp(name, "java") ? ccs[k] : "javac", ro->model,
                                            cc ? flags[f] : options};
                ++*n;
            }
    }
    if (co->ncflags && !cc_check)
        return cli_usage_error("litmusc campaign", "--cflags is for --targets cc-check");
    return *n ? -1 : cli_usage_error("litmusc campaign", "--targets names no target");
}

/* ---- progress ---------------------------------------------------------------- */

typedef struct progress {
    bool show;
    int width;
} progress;

static bool show_progress(void *ctx, const campaign_progress *p)
{
    progress *pr = ctx;
    if (!pr->show)
        return true;
    char eta[32] = "?";
    if (p->eta_s >= 0)
        snprintf(eta, sizeof eta, "%d:%02d", (int)p->eta_s / 60, (int)p->eta_s % 60);
    char line[256];
    if (p->current)
        snprintf(line, sizeof line, "campaign: %d/%d runs  %.2f runs/s  ETA %s  forbidden %d%s  %s", p->done, p->total,
                 p->rate, eta, p->forbidden, p->errors ? "  errors" : "", p->current);
    else
        snprintf(line, sizeof line, "campaign: %d/%d runs finished in %.1f s, forbidden %d", p->done, p->total,
                 p->elapsed_s, p->forbidden);
    int cols = pr->width > 20 ? pr->width - 1 : 79;
    fprintf(stderr, "\r%-*.*s", cols, cols, line);
    if (!p->current)
        fputc('\n', stderr);
    fflush(stderr);
    return true;
}

static void bad_file(void *ctx, const diag *d)
{
    int *bad = ctx;
    report_diag(d);
    ++*bad;
}

/* ---- subcommands ------------------------------------------------------------- */

static int cmd_run_campaign(const camp_opts *co, int argc, char **argv)
{
    run_opts o = {0};
    o.cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";
    o.timeout_s = 120;
    int st = run_opts_parse(&o, argc, argv, "litmusc campaign run", usage);
    char *options = NULL;
    campaign *c = NULL;
    if (st >= 0)
        goto out;
    st = EXIT_OK;
    if (!co->db) {
        st = cli_usage_error("litmusc campaign", "campaign run needs --db FILE");
        goto out;
    }
    if (o.json || o.xml) {
        st = cli_usage_error("litmusc campaign",
                             "--json and --xml are report options: use `litmusc campaign report`");
        goto out;
    }
    int shard = 1, nshards = 1;
    if (co->shard && (sscanf(co->shard, "%d/%d", &shard, &nshards) != 2 || nshards < 1 || shard < 1 || shard > nshards ||
                     !strchr(co->shard, '/'))) {
        st = cli_usage_error("litmusc campaign", "--shard '%s': expected I/N with 1 <= I <= N", co->shard);
        goto out;
    }
    options = run_opts_canonical(&o, true);
    campaign_config cfg[512];
    int ncfg;
    if ((st = configs_of(co, &o, cfg, &ncfg, options)) >= 0)
        goto out;
    st = EXIT_OK;
    diag d = {0};
    c = campaign_open(co->db, true, &d);
    if (!c) {
        st = report_diag(&d);
        goto out;
    }
    int bad = 0;
    campaign_plan_stats ps;
    if (!campaign_plan(c, (const char *const *)argv + optind, argc - optind, cfg, ncfg, o.filter, shard, nshards,
                       bad_file, &bad, &ps, &d)) {
        st = report_diag(&d);
        goto out;
    }
    if (!co->quiet)
        fprintf(stderr, "litmusc campaign: %d tests, %d runs in shard %d/%d, %d finished before%s\n", ps.tests,
                ps.runs, shard, nshards, ps.done, ps.skipped ? " (some target cannot run some test)" : "");
    progress pr = {!co->quiet && isatty(2), 80};
    const char *cols = getenv("COLUMNS");
    if (cols && atoi(cols) > 20)
        pr.width = atoi(cols);
    /* the run options' time limit; cc-check's compilers get it too */
    campaign_exec_opts eo = {shard, nshards, NULL, NULL, NULL, NULL, o.timeout_s, o.cache_dir, show_progress, &pr};
    campaign_exec_stats es;
    if (!campaign_execute(c, &eo, &es, &d)) {
        st = report_diag(&d);
        goto out;
    }
    campaign_summary sum;
    campaign_summarize(c, &sum, &d);
    if (!co->quiet)
        fprintf(stderr, "litmusc campaign: %d runs this time (%d with a forbidden state, %d failed, %d partial); "
                        "%d of %d finished%s\n",
                es.ran, es.forbidden, es.errors, es.partial, sum.done, sum.runs,
                es.interrupted ? "; interrupted: the same command resumes" : "");
    st = sum.forbidden_runs ? EXIT_FOUND : es.interrupted || es.errors || sum.errors ? EXIT_INTERNAL
         : bad ? EXIT_USAGE : EXIT_OK;
out:
    campaign_close(c);
    free(options);
    run_opts_free(&o);
    return st;
}

static int cmd_merge(int argc, char **argv)
{
    if (argc < 3)
        return cli_usage_error("litmusc campaign", "campaign merge needs OUT.db and at least one IN.db");
    diag d = {0};
    campaign *c = campaign_open(argv[1], true, &d);
    if (!c)
        return report_diag(&d);
    int st = EXIT_OK;
    for (int i = 2; i < argc; i++) {
        campaign_merge_stats ms;
        d = (diag){0};
        if (!campaign_merge(c, argv[i], &ms, &d)) {
            st = report_diag(&d);
            break;
        }
        printf("merged %s: %d runs added, %d already there, %d unfinished there\n", argv[i], ms.added, ms.already,
               ms.unfinished);
    }
    campaign_close(c);
    return st;
}

static int cmd_report(const camp_opts *co, int argc, char **argv)
{
    if (argc > 1)
        return cli_usage_error("litmusc campaign", "unexpected argument '%s'", argv[1]);
    diag d = {0};
    campaign *c = campaign_open(co->db, false, &d);
    if (!c)
        return report_diag(&d);
    campaign_summary s;
    bool ok = campaign_summarize(c, &s, &d);
    if (ok && co->html)
        ok = campaign_report_html(c, co->html, &d);
    if (ok && co->junit)
        ok = campaign_report_junit(c, co->junit, &d);
    if (ok && co->json) {
        strbuf out = {0};
        ok = campaign_report_json(c, &out, &d);
        if (ok)
            fputs(out.s, stdout);
        sb_free(&out);
    }
    if (ok && !co->json) {
        /* a finished run whose stored result is damaged is neither finished nor waiting to run */
        char corrupt[48] = "";
        if (s.corrupt)
            snprintf(corrupt, sizeof corrupt, " %d corrupt (the stored result does not parse),", s.corrupt);
        printf("campaign %s: %d tests, %d runs: %d finished, %d failed,%s %d not run; %d with a forbidden state, "
               "%d partial; %lld of %lld allowed states seen\n",
               co->db, s.tests, s.runs, s.done, s.errors, corrupt, s.pending, s.forbidden_runs, s.partial_runs,
               (long long)s.seen_allowed, (long long)s.allowed);
        strbuf cc = {0};
        ok = campaign_cc_text(c, &cc, &d);
        if (ok && cc.s)
            fputs(cc.s, stdout);
        sb_free(&cc);
    }
    int st = !ok ? report_diag(&d) : s.forbidden_runs ? EXIT_FOUND : EXIT_OK;
    campaign_close(c);
    return st;
}

static int cmd_diff(int argc, char **argv)
{
    if (argc != 3)
        return cli_usage_error("litmusc campaign", "campaign diff needs two databases");
    diag d = {0};
    campaign *a = campaign_open(argv[1], false, &d), *b = a ? campaign_open(argv[2], false, &d) : NULL;
    if (!a || !b) {
        campaign_close(a);
        return report_diag(&d);
    }
    strbuf out = {0};
    int changes = 0;
    int st = EXIT_OK;
    if (!campaign_diff(a, b, &out, &changes, &d))
        st = report_diag(&d);
    else {
        if (out.s)
            fputs(out.s, stdout);
        printf("campaign diff: %d change%s between %s and %s\n", changes, changes == 1 ? "" : "s", argv[1], argv[2]);
        st = changes ? EXIT_FOUND : EXIT_OK;
    }
    sb_free(&out);
    campaign_close(a);
    campaign_close(b);
    return st;
}

/* What each shard's `campaign run` gets: the campaign options the shards
 * share (targets, compilers), then the run options and files. */
static char **shard_args(const camp_opts *co, int argc, char **argv)
{
    char **v = xcalloc((size_t)argc + 2 * (size_t)(co->nccs + co->ncflags) + 4, sizeof *v);
    int k = 0;
    if (co->targets) {
        v[k++] = "--targets";
        v[k++] = (char *)co->targets;
    }
    for (int i = 0; i < co->nccs; i++) {
        v[k++] = "--cc";
        v[k++] = (char *)co->ccs[i];
    }
    for (int i = 0; i < co->ncflags; i++) {
        v[k++] = "--cflags";
        v[k++] = (char *)co->cflags[i];
    }
    for (int i = 1; i < argc; i++)
        v[k++] = argv[i];
    return v;
}

/* This program's path, for the shard commands. */
static char *self_path(void)
{
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0)
        return xstrdup("litmusc");
    buf[n] = '\0';
    return xstrdup(buf);
}

/* Check the shards' options as campaign run would, before anything runs. */
static int check_run_options(int argc, char **argv)
{
    run_opts o = {0};
    o.cc = "cc";
    o.timeout_s = 120;
    char **copy = xcalloc((size_t)argc + 1, sizeof *copy);
    memcpy(copy, argv, (size_t)argc * sizeof *copy);
    int st = run_opts_parse(&o, argc, copy, "litmusc campaign", usage);
    free(copy);
    run_opts_free(&o);
    return st;
}

static int cmd_parallel(const camp_opts *co, int argc, char **argv)
{
    int st, jobs, shards;
    if (!positive(co->jobs, &jobs))
        return cli_usage_error("litmusc campaign", "campaign parallel needs --jobs N (a positive number)");
    shards = jobs;
    if (co->shards && !positive(co->shards, &shards))
        return cli_usage_error("litmusc campaign", "--shards '%s': expected a positive number", co->shards);
    if ((st = check_run_options(argc, argv)) >= 0)
        return st;
    char **all = shard_args(co, argc, argv);
    diag d = {0};
    campaign *c = campaign_open(co->db, true, &d);
    if (!c) {
        free(all);
        return report_diag(&d);
    }
    char *self = self_path();
    campaign_merge_stats ms;
    bool ok = campaign_parallel(c, self, shards, jobs, co->sshlogin, all, &ms, &d);
    if (!co->quiet)
        fprintf(stderr, "litmusc campaign: %d shards on GNU parallel (%d at once): %d runs merged, %d already "
                        "there, %d unfinished\n",
                shards, jobs, ms.added, ms.already, ms.unfinished);
    campaign_summary s;
    campaign_summarize(c, &s, &d);
    st = !ok ? report_diag(&d) : s.forbidden_runs ? EXIT_FOUND : s.pending || s.errors ? EXIT_INTERNAL : EXIT_OK;
    campaign_close(c);
    free(self);
    free(all);
    return st;
}

static int cmd_slurm(const camp_opts *co, int argc, char **argv)
{
    int st, shards;
    if (!positive(co->shards, &shards))
        return cli_usage_error("litmusc campaign", "campaign slurm needs --shards N (a positive number)");
    if (co->partition && strspn(co->partition, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-,") !=
                            strlen(co->partition))
        return cli_usage_error("litmusc campaign",
                               "--partition '%s': letters, digits, '_', '-' and ',' only", co->partition);
    if ((st = check_run_options(argc, argv)) >= 0)
        return st;
    char **all = shard_args(co, argc, argv);
    char *self = self_path();
    /* the shards' paths must mean the same on the compute nodes: absolute */
    char *db = co->db[0] == '/' ? xstrdup(co->db) : NULL;
    if (!db) {
        char cwd[4096];
        db = getcwd(cwd, sizeof cwd) ? xasprintf("%s/%s", cwd, co->db) : xstrdup(co->db);
    }
    strbuf script = {0};
    diag d = {0};
    bool ok = campaign_slurm_script(self, db, shards, all, co->partition, &script, &d);
    if (ok && co->out) {
        if (!file_write_atomic(co->out, script.s, script.len)) {
            fprintf(stderr, "litmusc campaign: cannot write %s: %s\n", co->out, strerror(errno));
            st = EXIT_INTERNAL;
        } else
            fprintf(stderr, "litmusc campaign: Slurm job script for %d shards in %s (submit: sh %s)\n", shards,
                    co->out, co->out);
    } else if (ok)
        fputs(script.s, stdout);
    else
        st = report_diag(&d);
    sb_free(&script);
    free(db);
    free(self);
    free(all);
    return st < 0 ? EXIT_OK : st;
}

int cmd_campaign(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_USAGE : EXIT_OK;
    }
    const char *sub = argv[1];
    argc--;
    argv++;
    /* One text documents every subcommand, so 'campaign SUB --help' shows it. */
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return EXIT_OK;
        }
    /* merge and diff take databases as arguments, not the campaign options;
     * run checks its run options before it asks for --db. */
    static const struct {
        const char *name;
        int (*plain)(int argc, char **argv);
        int (*with_opts)(const camp_opts *co, int argc, char **argv);
        bool need_db;
    } subs[] = {
        {"run", NULL, cmd_run_campaign, false}, {"merge", cmd_merge, NULL, false},
        {"report", NULL, cmd_report, true},     {"diff", cmd_diff, NULL, false},
        {"parallel", NULL, cmd_parallel, true}, {"slurm", NULL, cmd_slurm, true},
    };
    for (size_t i = 0; i < sizeof subs / sizeof *subs; i++) {
        if (strcmp(sub, subs[i].name))
            continue;
        if (subs[i].plain)
            return subs[i].plain(argc, argv);
        camp_opts co = {0};
        int st = take_options(&co, &argc, argv, subs[i].need_db ? sub : NULL);
        return st >= 0 ? st : subs[i].with_opts(&co, argc, argv);
    }
    return cli_usage_error("litmusc campaign",
                           "unknown campaign command '%s' (run, merge, report, diff, parallel, slurm)", sub);
}
