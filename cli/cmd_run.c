/* litmusc run: for each test, compute the behaviour set, build and run the
 * native (or Java) harness, print the litmus7-compatible log and the
 * verdict against the model, with the data races the observed states
 * imply.  Exit 1 when a forbidden state was observed, 2 for bad input, 3
 * when the environment failed (no compiler, a runner crashed or hung, an
 * interrupt). */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/run_opts.h"
#include "harness/harness.h"
#include "isa/isa.h"
#include "util/proc.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: litmusc run [OPTIONS] FILE...\n"
            "Build and run each test's stress harness, print a litmus7-style log and the\n"
            "verdict against the behaviour set.\n\n"
            "  --target c11|x86|java  runner (default: x86 for X86 tests, c11 otherwise)\n"
            "  -s N                   instances per run (k/M suffixes; default 100000,\n"
            "                         10000 for the java target)\n"
            "  -r N                   runs (default 10)\n"
            "  --sync MODE            timebase | loose | user (default timebase)\n"
            "  --affinity MODE        none | incr | random (default incr)\n"
            "  --layout MODE          array | packed | line | shuffle (default array)\n"
            "  --chunk N              instances a thread sweeps without waiting: timebase\n"
            "                         chunks start on the clock (default 96), loose\n"
            "                         threads meet after each (default 256; 0: never)\n"
            "  --period TICKS|auto    timebase: ticks between chunks (default auto:\n"
            "                         adapted run by run to keep the threads together)\n"
            "  --delay TICKS|auto     timebase: per-thread start offsets, redrawn every\n"
            "                         run (default auto: up to half an instance's share)\n"
            "  --seed N, --cpus N     passed to the runner\n"
            "  --until-covered        native runners: go on past -r runs until every state\n"
            "                         the model allows has been seen (c11 target on x86:\n"
            "                         every one the test's x86 compilation can show)\n"
            "  --race-fuzz            native runners: RaceFuzzer; the hybrid race detector's\n"
            "                         pairs are targets, the run aims at the states that\n"
            "                         prove both accesses ran unordered, and each target is\n"
            "                         confirmed only when one was seen (implies --until-covered)\n"
            "  --max-iterations N     --until-covered: stop after N iterations (default " "10M" ")\n"
            "  --time SEC             time budget: each runner stops by itself after SEC\n"
            "                         seconds and reports what it saw (a normal end)\n"
            "  --model NAME|PATH      memory model (default: the arch's: x86tso, rc11, jam21)\n"
            CLI_BUDGET_HELP
            "  --scheme NAME          x86 target, C or Java test: compilation scheme\n"
            "  --plain volatile|relaxed  C11 target: how plain accesses are emitted\n"
            "  --cc CC                C compiler (default: $CC, else cc)\n"
            "  --cflags FLAGS         native runners: compiler flags in place of -O2 (split\n"
            "                         at blanks; -std=c11 -pthread kept): the harness built\n"
            "                         as cc-check --cflags builds the test\n"
            "  --timeout SEC          safety limit: a runner still going after SEC seconds\n"
            "                         is killed and its run marked timed-out (default 120)\n"
            "  --cache-dir DIR        build cache (default: $LITMUSC_CACHE, else\n"
            "                         $XDG_CACHE_HOME/litmusc, else ~/.cache/litmusc)\n"
            "  --filter REGEX         only tests whose name matches (PCRE2)\n"
            "  --json                 the results as one JSON object (schema litmusc/1) instead of the log\n"
            "  --xml FILE             also write a JUnit XML report\n\n"
            "exit status: 0 nothing forbidden observed, 1 a forbidden state was observed,\n"
            "2 bad input or usage, 3 environment failure (no compiler, a runner crashed\n"
            "or hung, interrupted) or the model's budget spent\n\n"
            "example: litmusc run -s 1M -r 10 --affinity incr SB.litmus\n");
}

/* The tests seen (the printer counts the outcomes). */
typedef struct outcome_counts {
    int tests, skipped;
    bool stop;              /* interrupted, or a failure every test would repeat */
} outcome_counts;

typedef struct run_ctx {
    run_opts *o;
    model_set *models;
    char *cc_version;
    harness_filter *filter;
    run_printer out;
    harness_runinfo machine;
    outcome_counts n;
} run_ctx;

static const char *target_of(const run_opts *o, const ir_test *t)
{
    if (o->target)
        return o->target;
    return isa_native_target(t->arch, "c11");
}

static void run_native(run_ctx *cx, const ir_test *t, const char *target, const model *m, const races *rc)
{
    const bset *b = rc->b;
    diag d = {0};
    if (!cx->cc_version) {
        cx->cc_version = harness_cc_version(cx->o->cc, &d);
        if (!cx->cc_version) {
            run_printer_error(&cx->out, t->name, &d);
            cx->n.stop = true;  /* every other test would fail the same way */
            return;
        }
    }
    harness_native_opts no = {0};
    native_opts_init(&no.gen);
    no.gen.target = !strcmp(target, "x86") ? NATIVE_X86 : NATIVE_C11;
    no.gen.plain_as_relaxed = cx->o->plain_relaxed;
    no.gen.scheme = cx->o->scheme;
    no.cc = cx->o->cc;
    no.cflags = cx->o->cflags;
    no.cc_version = cx->cc_version;
    no.cache_dir = cx->o->cache_dir;
    no.run_args = cx->o->run_args;
    no.timeout_s = cx->o->timeout_s;
    /* The C11 harness on x86 shows at most what the test's x86 compilation
     * does: coverage counts those states too, and --until-covered aims at
     * them (a state only the source model allows would keep it running to
     * the bound). */
    /* --race-fuzz: the hybrid detector's pairs are the targets, and the
     * run aims only at the states that would confirm them */
    detectors *dt = NULL;
    harness_fuzz fz = {0};
    if (cx->o->race_fuzz && (!(dt = detectors_run(m, t, &d)) || !harness_fuzz_plan(&fz, m, t, dt, &d))) {
        run_printer_error(&cx->out, t->name, &d);
        detectors_free(dt);
        return;
    }
    harness_aim aim;
    if (!harness_aim_init_only(&aim, cx->models, m, t, b, &no.gen, cx->o->until_covered, dt ? fz.aim : NULL, &d)) {
        run_printer_error(&cx->out, t->name, &d);
        harness_fuzz_free(&fz);
        detectors_free(dt);
        return;
    }
    no.until_covered = aim.states;
    no.schedules = aim.schedules;
    harness_run_result r;
    bool ran = harness_run_native(t, &no, &r, &d);
    if (!ran) {
        run_printer_error(&cx->out, t->name, &d);
        if (r.interrupted)
            cx->n.stop = true;
        harness_run_result_free(&r);
        harness_aim_free(&aim);
        harness_fuzz_free(&fz);
        detectors_free(dt);
        return;
    }
    harness_verdict v;
    if (!harness_compare(t, b, r.hist, &v, &d)) {
        run_printer_error(&cx->out, t->name, &d);
        harness_run_result_free(&r);
        harness_aim_free(&aim);
        harness_fuzz_free(&fz);
        detectors_free(dt);
        return;
    }
    harness_races_seen(&v, rc, r.hist);
    if (dt)
        harness_fuzz_seen(&v, &fz, r.hist);
    v.reachable = aim.reachable;
    harness_runinfo ri = cx->machine;
    ri.target = target;
    ri.model = model_name(m);
    char *compiler = xasprintf("%s [%s]", r.compiler, cx->cc_version);
    ri.compiler = compiler;
    ri.status = r.status;
    ri.timed_out = r.timed_out;
    char *build = r.cached ? xstrdup("cached") : xasprintf("built in %.2f s", r.build_s);
    ri.build = build;
    run_printer_result(&cx->out, t, t->file, b, r.hist, &v, &ri, r.build_s + r.run_s);
    if (r.timed_out) {
        fprintf(stderr, "litmusc run: %s: %s\n", t->name, r.status);
        cx->out.env_errors++;
    }
    if (r.interrupted) {
        fprintf(stderr, "litmusc run: %s: %s; stopping\n", t->name, r.status);
        cx->out.env_errors++;
        cx->n.stop = true;
    }
    free(compiler);
    free(build);
    harness_verdict_free(&v);
    harness_run_result_free(&r);
    harness_aim_free(&aim);
    harness_fuzz_free(&fz);
    detectors_free(dt);
}

static void run_file(run_ctx *cx, const char *path)
{
    diag d = {0};
    ir_test *t = cli_load_test(path, &d);
    if (!t) {
        run_printer_error(&cx->out, path, &d);
        return;
    }
    if (cx->filter && !harness_filter_match(cx->filter, t->name)) {
        cx->n.skipped++;
        ir_test_free(t);
        return;
    }
    cx->n.tests++;
    /* A test whose instruction set has no native runner here (AArch64 on
     * an x86 machine) is refused before its model runs. */
    const isa *machine = isa_of(t->arch);
    if (machine && !machine->native) {
        int line = 1, col = 1;
        ir_thread_pos(t, 0, &line, &col);
        diag_error(&d, t->file, line, col, "%s tests do not run here: litmusc's native harnesses run x86 "
                   "machine code, and this test needs an %s machine", machine->name, machine->name);
        run_printer_error(&cx->out, t->name, &d);
        ir_test_free(t);
        return;
    }
    const char *target = target_of(cx->o, t);
    const char *mname = cx->o->model ? cx->o->model : model_default_name(t->arch);
    model *m = model_set_get(cx->models, mname, &d);
    races *rc = m ? races_run(m, t, &d) : NULL;
    if (!rc) {
        run_printer_error(&cx->out, t->name, &d);
        if (!m)
            cx->n.stop = true;  /* the same model would fail for every test */
        ir_test_free(t);
        return;
    }
    run_native(cx, t, target, m, rc);
    races_free(rc);
    ir_test_free(t);
}

int cmd_run(int argc, char **argv)
{
    run_opts o = {0};
    o.cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";
    o.timeout_s = 120;
    int st = run_opts_parse(&o, argc, argv, "litmusc run", usage);
    if (st < 0 && o.target && !strcmp(o.target, "java"))
        st = run_java(&o, argv + optind, argc - optind);
    if (st >= 0) {
        run_opts_free(&o);
        return st;
    }
    run_ctx cx = {0};
    cx.o = &o;
    cx.models = model_set_new();
    diag d = {0};
    if (o.filter && !(cx.filter = harness_filter_new(o.filter, &d))) {
        cli_report(&d);
        st = EXIT_USAGE;
        goto done;
    }
    run_printer_begin(&cx.out, o.json, o.xml);
    harness_machine(&cx.machine);
    harness_signals_install();
    /* outside a runner's (or compiler's) wait, litmusc is computing a
     * behaviour set, which has no partial result: a signal then ends it at
     * once, the tests printed so far kept */
    proc_signals_quit_idle("litmusc run: interrupted\n");
    for (int i = optind; i < argc && !cx.n.stop && !harness_interrupted(); i++) {
        run_file(&cx, argv[i]);
        fflush(stdout);
    }
    run_printer_end(&cx.out, o.xml);
    if (harness_interrupted() && !cx.n.stop)
        cx.out.env_errors++;
    st = run_printer_status(&cx.out, cx.filter ? o.filter : NULL, cx.n.tests);
done:
    harness_filter_free(cx.filter);
    model_set_free(cx.models);
    free(cx.cc_version);
    run_opts_free(&o);
    return st;
}
