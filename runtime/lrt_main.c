/* The harness program's command line and output (the raw histogram
 * protocol of backends/native.h).  stdout carries the protocol and nothing
 * else; complaints go to stderr. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lrt_internal.h"

static const char *const sync_names[] = {"loose", "timebase", "user"};
static const char *const affinity_names[] = {"none", "incr", "random"};
static const char *const layout_names[] = {"packed", "line", "shuffle", "array"};

static void on_signal(int sig)
{
    (void)sig;
    lrt_stop_requested = 1;
}

static void usage(FILE *f, const char *prog)
{
    fprintf(f,
            "usage: %s [-s N] [-r N] [--sync loose|timebase|user] [--affinity none|incr|random]\n"
            "       [--layout packed|line|shuffle|array] [--cpus N] [--seed N] [--period TICKS|auto]\n"
            "       [--delay TICKS|auto] [--chunk N] [--time SECONDS]\n"
            "       [--until-covered V,V;V,V... [--max-iterations N]] [--schedules K:G[.L.P][/M][sK][h][n],G;K:=T.E,T;...]\n"
            "Runs the test's threads on N instances per run, R runs, and prints the\n"
            "outcome histogram (litmusc-histogram protocol) on stdout.  With\n"
            "--until-covered (the allowed states, one per ';', values in outcome\n"
            "order) the runs go on until each of them has been seen.\n",
            prog);
}

/* A count with an optional k/M/G suffix. */
static bool parse_count(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!*s || *s == '-')
        return false;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s)
        return false;
    uint64_t mul = 1;
    if (*end == 'k' || *end == 'K')
        mul = 1000, end++;
    else if (*end == 'm' || *end == 'M')
        mul = 1000000, end++;
    else if (*end == 'g' || *end == 'G')
        mul = 1000000000, end++;
    if (*end || (v && mul > UINT64_MAX / v))
        return false;
    *out = (uint64_t)v * mul;
    return true;
}

static int pick(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(s, names[i]))
            return i;
    return -1;
}

/* "1,0;0,0" -> C->allowed, NOBS values a state; false if malformed. */
static bool parse_states(const char *s, int nobs, lrt_config *c)
{
    size_t cap = 0;
    const char *p = s;
    for (;;) {
        if ((size_t)c->nallowed == cap) {
            cap = cap ? 2 * cap : 16;
            int64_t *grown = realloc(c->allowed, cap * (size_t)nobs * sizeof *grown);
            if (!grown)
                return false;
            c->allowed = grown;
        }
        int64_t *vals = c->allowed + (size_t)c->nallowed * (size_t)nobs;
        for (int i = 0; i < nobs; i++) {
            char *end;
            errno = 0;
            long long v = strtoll(p, &end, 10);
            char want = i + 1 < nobs ? ',' : ';';
            if (errno || end == p || (*end != want && !(i + 1 == nobs && *end == 0)))
                return false;
            vals[i] = v;
            p = i + 1 < nobs ? end + 1 : end;
        }
        c->nallowed++;
        if (!*p)
            return true;
        p++;                        /* the ';' */
        if (!*p)
            return false;
    }
}

/* Whether the lanes of SC are whole: in each group, each lane's places
 * are 0, 1, ... with none twice, and a thread the lane switches away from
 * has a next one in its lane (which may be switched too). */
static bool lanes_whole(lrt_schedule *sc, int nthreads)
{
    for (int t = 0; t < nthreads; t++) {
        int same = 0, below = 0;
        bool next = !sc->split[t];
        for (int u = 0; u < nthreads; u++)
            if (sc->group[u] == sc->group[t] && sc->lane[u] == sc->lane[t]) {
                same++;
                below += sc->pos[u] < sc->pos[t];
                if (u != t && sc->pos[u] == sc->pos[t])
                    return false;
                next |= sc->pos[u] == sc->pos[t] + 1;
            }
        if (below != sc->pos[t] || !next)
            return false;
        sc->folded |= same > 1;
    }
    for (int g = 0; g < sc->ngroups; g++) {
        int n = 0;
        for (int t = 0; t < nthreads; t++)
            n += sc->group[t] == g;
        sc->largest = n > sc->largest ? n : sc->largest;
    }
    return true;
}

/* After "K:=": an interleaving, pieces "T.E" (thread T from where it
 * stopped up to its access E, 1 <= E <= LRT_GAPS - 2, each of T's larger
 * than the last) or "T" (T to its end, its last piece), ',' between;
 * returns where it stopped, or NULL if malformed. */
static const char *parse_interleaving(const char *p, int nthreads, lrt_schedule *sc)
{
    long last[LRT_MAX_THREADS] = {0};
    bool ended[LRT_MAX_THREADS] = {false};
    for (;;) {
        char *end;
        long u = strtol(p, &end, 10), e = 0;
        if (end == p || u < 0 || u >= nthreads || ended[u] || sc->npieces == LRT_MAX_PIECES)
            return NULL;
        if (*end == '.') {
            p = end + 1;
            e = strtol(p, &end, 10);
            if (end == p || e <= last[u] || e > LRT_GAPS - 2)
                return NULL;
            last[u] = e;
        } else {
            ended[u] = true;
        }
        sc->piece_thread[sc->npieces] = (unsigned char)u;
        sc->piece_end[sc->npieces++] = (unsigned char)e;
        if (*end != ',')
            return end;
        p = end + 1;
    }
}

/* "2:0,0,1;3:1,0,0" -> C->schedules: the target state's index, then the
 * group of each of the NTHREADS test threads, each optionally ".L.P"
 * (its lane in the group and its place in the lane; without it a thread
 * has a lane of its own), then optionally "/M" (its stretches, a bit per
 * gap position), "sK" (the lane switches to its next thread before this
 * one's access K, 1 <= K <= LRT_GAPS - 2), "h" (its stores held back) and
 * "n" (no fence between the thread before it in its lane and it, where
 * the test says it loads nothing that one stores); false if malformed. */
static bool parse_schedules(const char *s, int nthreads, lrt_config *c)
{
    const char *p = s;
    while (*p) {
        lrt_schedule sc;
        memset(&sc, 0, sizeof sc);
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || *end != ':' || v < -1 || v >= 1 << 20)
            return false;
        sc.target = (int)v;
        p = end + 1;
        if (*p == '=') {
            sc.ngroups = 1;
            if (!(p = parse_interleaving(p + 1, nthreads, &sc)))
                return false;
        }
        for (int t = 0; t < nthreads && !sc.npieces; t++) {
            v = strtol(p, &end, 10);
            if (end == p || v < 0 || v >= nthreads)
                return false;
            sc.group[t] = (unsigned char)v;
            if ((int)v + 1 > sc.ngroups)
                sc.ngroups = (int)v + 1;
            sc.lane[t] = (unsigned char)t;
            if (*end == '.') {
                for (int k = 0; k < 2; k++) {
                    p = end + 1;
                    v = strtol(p, &end, 10);
                    if (end == p || v < 0 || v >= nthreads || (k == 0 && *end != '.'))
                        return false;
                    if (k == 0)
                        sc.lane[t] = (unsigned char)v;
                    else
                        sc.pos[t] = (unsigned char)v;
                }
            }
            if (*end == '/') {
                p = end + 1;
                v = strtol(p, &end, 10);
                if (end == p || v < 0 || v > 255)
                    return false;
                sc.stretch[t] = (unsigned char)v;
                sc.stretched |= v != 0;
            }
            if (*end == 's') {
                p = end + 1;
                v = strtol(p, &end, 10);
                if (end == p || v < 1 || v > LRT_GAPS - 2)
                    return false;
                sc.split[t] = (unsigned char)v;
                sc.switched = true;
            }
            if (*end == 'h') {
                sc.hold[t] = sc.held = true;
                end++;
            }
            if (*end == 'n') {
                sc.nofence[t] = true;
                end++;
            }
            if (t + 1 < nthreads && *end != ',')
                return false;
            p = t + 1 < nthreads ? end + 1 : end;
        }
        if ((*p && *p != ';') || (!sc.npieces && !lanes_whole(&sc, nthreads)))
            return false;
        lrt_schedule *grown = realloc(c->schedules, (size_t)(c->nschedules + 1) * sizeof *grown);
        if (!grown)
            return false;
        c->schedules = grown;
        c->schedules[c->nschedules++] = sc;
        if (*p && !*++p)
            return false;           /* a ';' with nothing after it */
    }
    return c->nschedules > 0;
}

/* Parses into C; returns 0 (go), 1 (help printed) or 2 (bad usage). */
static int parse_args(lrt_config *c, const lrt_test *t, int argc, char **argv)
{
    const char *prog = argc > 0 ? argv[0] : "harness";
    bool seeded = false, chunked = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout, prog);
            return 1;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "%s: unknown option or missing value: %s\n", prog, a);
            return 2;
        }
        const char *v = argv[++i];
        uint64_t n = 0;
        int k = -1;
        bool ok = true;
        if (!strcmp(a, "-s"))
            ok = parse_count(v, &c->size) && c->size > 0 && c->size <= (UINT64_C(1) << 32);
        else if (!strcmp(a, "-r"))
            ok = parse_count(v, &c->runs);
        else if (!strcmp(a, "--sync"))
            ok = (k = pick(v, sync_names, 3)) >= 0, c->sync = (lrt_sync_kind)(k < 0 ? 0 : k);
        else if (!strcmp(a, "--affinity"))
            ok = (k = pick(v, affinity_names, 3)) >= 0, c->affinity = (lrt_affinity_kind)(k < 0 ? 0 : k);
        else if (!strcmp(a, "--layout"))
            ok = (k = pick(v, layout_names, 4)) >= 0, c->layout = (lrt_layout_kind)(k < 0 ? 0 : k);
        else if (!strcmp(a, "--cpus"))
            ok = parse_count(v, &n) && n > 0 && n < 100000, c->cpus = (int)n;
        else if (!strcmp(a, "--seed"))
            ok = parse_count(v, &c->seed), seeded = true;
        else if (!strcmp(a, "--period"))
            ok = !strcmp(v, "auto") ? (c->period = 0, true) : parse_count(v, &c->period) && c->period > 0;
        else if (!strcmp(a, "--delay"))
            ok = !strcmp(v, "auto") ? (c->delay = LRT_DELAY_AUTO, true)
                                    : parse_count(v, &c->delay) && c->delay < (UINT64_C(1) << 40);
        else if (!strcmp(a, "--chunk"))
            ok = parse_count(v, &c->chunk), chunked = true;
        else if (!strcmp(a, "--until-covered"))
            ok = t->nobs > 0 && !c->nallowed && parse_states(v, t->nobs, c);
        else if (!strcmp(a, "--schedules"))
            ok = !c->nschedules && parse_schedules(v, t->nthreads, c);
        else if (!strcmp(a, "--max-iterations"))
            ok = parse_count(v, &c->max_iterations);
        else if (!strcmp(a, "--time")) {
            char *end;
            c->time_limit = strtod(v, &end);
            ok = end != v && !*end && c->time_limit >= 0;
        } else {
            fprintf(stderr, "%s: unknown option: %s\n", prog, a);
            return 2;
        }
        if (!ok) {
            fprintf(stderr, "%s: bad value for %s: %s\n", prog, a, v);
            return 2;
        }
    }
    if (!chunked)
        c->chunk = lrt_default_chunk(c->sync);
    if (!seeded) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        c->seed = ((uint64_t)ts.tv_sec * 1000000007u) ^ (uint64_t)ts.tv_nsec;
    }
    return 0;
}

static bool print_result(const lrt_test *t, const lrt_config *c, const lrt_result *r)
{
    const lrt_hist *h = &r->hist;
    size_t *idx = lrt_hist_sorted(h);
    if (!idx)
        return false;
    printf("litmusc-histogram 1\n");
    printf("config sync %s\n", sync_names[c->sync]);
    printf("config affinity %s\n", affinity_names[c->affinity]);
    printf("config layout %s\n", layout_names[c->layout]);
    printf("config size %" PRIu64 "\n", c->size);
    printf("config runs %" PRIu64 "\n", c->runs);
    if (c->nallowed) {
        printf("config until-covered %d\n", c->nallowed);
        printf("config ramp %d\n", LRT_RAMP_START);
        printf("config runs-done %" PRIu64 "\n", r->runs_done);
    }
    if (c->max_iterations)
        printf("config max-iterations %" PRIu64 "\n", c->max_iterations);
    if (c->nschedules) {
        int folded = 0, switched = 0, interleavings = 0;
        for (int k = 0; k < c->nschedules; k++) {
            folded += c->schedules[k].folded;
            switched += c->schedules[k].switched;
            interleavings += c->schedules[k].npieces > 0;
        }
        printf("config schedules %d\n", c->nschedules);
        printf("config directed %" PRIu64 "\n", r->directed_runs);
        if (folded)
            printf("config folded %d\n", folded);
        if (switched)
            printf("config switched %d\n", switched);
        if (interleavings) {
            printf("config interleavings %d\n", interleavings);
            printf("config interleaved %" PRIu64 "\n", r->interleaved_runs);
        }
    }
    if (r->gapped_runs)
        printf("config gapped %" PRIu64 "\n", r->gapped_runs);
    if (r->laned_runs)
        printf("config laned %" PRIu64 "\n", r->laned_runs);
    if (r->handshake_runs)
        printf("config handshake %" PRIu64 "\n", r->handshake_runs);
    if (r->stalled_runs)
        printf("config stalled %" PRIu64 "\n", r->stalled_runs);
    printf("config threads %d\n", t->nthreads);
    printf("config cpus %d\n", r->cpus);
    printf("config oversubscribed %d\n", r->oversubscribed ? 1 : 0);
    printf("config seed %" PRIu64 "\n", c->seed);
    if (c->sync != LRT_SYNC_USER)
        printf("config chunk %" PRIu64 "\n", c->chunk);
    if (c->sync == LRT_SYNC_TIMEBASE) {
        if (c->period)
            printf("config period %" PRIu64 "\n", c->period);
        else
            printf("config period auto %" PRIu64 "\n", r->period);
        if (c->delay == LRT_DELAY_AUTO)
            printf("config delay auto\n");
        else
            printf("config delay %" PRIu64 "\n", c->delay);
        printf("config aligned %.3f\n", r->aligned);
    }
    for (size_t k = 0; k < h->n; k++) {
        size_t i = idx[k];
        printf("outcome %" PRIu64, h->counts[i]);
        for (int j = 0; j < h->width; j++)
            printf(" %" PRId64, h->keys[i * (size_t)h->width + (size_t)j]);
        printf("\n");
    }
    free(idx);
    /* first-seen lines go with the outcomes, in the same order */
    const lrt_hist *f = &r->first;
    if ((idx = lrt_hist_sorted(h)) == NULL)
        return false;
    for (size_t k = 0; k < h->n; k++) {
        const int64_t *key = h->keys + idx[k] * (size_t)h->width;
        uint64_t at = f->cap ? lrt_hist_get(f, key) : 0;
        if (!at)
            continue;
        printf("first %" PRIu64, at);
        for (int j = 0; j < h->width; j++)
            printf(" %" PRId64, key[j]);
        printf("\n");
    }
    free(idx);
    if (c->nallowed)
        printf("covered %d\n", r->covered ? 1 : 0);
    printf("iterations %" PRIu64 "\n", r->iterations);
    printf("elapsed %.6f\n", r->elapsed);
    printf("interrupted %d\n", r->interrupted ? 1 : 0);
    printf("end\n");
    return fflush(stdout) == 0;
}

int lrt_main(const lrt_test *t, int argc, char **argv)
{
    lrt_config c;
    lrt_config_default(&c);
    int p = parse_args(&c, t, argc, argv);
    if (p)
        return p == 1 ? 0 : 2;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    lrt_result r;
    if (lrt_run(t, &c, &r) != 0) {
        fprintf(stderr, "%s: out of memory or threads\n", argc > 0 ? argv[0] : "harness");
        return 3;
    }
    bool ok = print_result(t, &c, &r);
    lrt_result_free(&r);
    free(c.allowed);
    free(c.schedules);
    return ok ? 0 : 3;
}
