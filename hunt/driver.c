/* The native stress driver that confirm.c links with a bug's very object
 * and that repro.c carries with the test's translation unit: one pinned
 * thread per test thread, each round the globals reset, every thread
 * released at one time-stamp-counter tick (a shared tick, not a barrier
 * every thread leaves at its own moment: store buffering shows only when
 * the threads' accesses overlap within some tens of cycles), a small
 * shifting offset per thread so the overlaps sweep, then the outcome read
 * and counted.  The driver's own synchronisation is acquire loads and
 * release stores only, plain moves on x86: a compiler that drops fences or
 * breaks xchg, as the bugs it confirms, leaves it working. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hunt/internal.h"
#include "lift/lift.h"

bool hunt_parse_state(const char *text, hunt_obs **obs, int *n)
{
    *obs = NULL;
    *n = 0;
    const char *p = text;
    while (*p) {
        while (*p == ' ' || *p == ';' || *p == '\t' || *p == '\n')
            p++;
        if (!*p)
            break;
        const char *eq = strchr(p, '=');
        if (!eq || eq == p)
            goto bad;
        char *end;
        long long v = strtoll(eq + 1, &end, 10);
        if (end == eq + 1 || (*end && *end != ';' && *end != ' '))
            goto bad;
        for (const char *c = p; c < eq; c++)
            if (!(*c == '_' || isalpha((unsigned char)*c) || (c > p && isdigit((unsigned char)*c))))
                goto bad;
        *obs = xrealloc(*obs, (size_t)(*n + 1) * sizeof **obs);
        (*obs)[*n].name = xstrndup(p, (size_t)(eq - p));
        (*obs)[(*n)++].value = v;
        p = end;
    }
    return *n > 0;
bad:
    hunt_obs_free(*obs, *n);
    *obs = NULL;
    *n = 0;
    return false;
}

void hunt_obs_free(hunt_obs *obs, int n)
{
    for (int i = 0; i < n; i++)
        free(obs[i].name);
    free(obs);
}

/* Is NAME a global of T's translation unit: a location or P<n>_<reg>? */
static bool tu_global(const ir_test *t, const char *name)
{
    for (int i = 0; i < t->nlocs; i++)
        if (!strcmp(t->locs[i].name, name))
            return true;
    for (int n = 0; n < t->nthreads; n++)
        for (int r = 0; r < t->threads[n].nfinal_regs; r++) {
            char g[256];
            snprintf(g, sizeof g, "P%d_%s", n, t->threads[n].final_regs[r].name);
            if (!strcmp(g, name))
                return true;
        }
    return false;
}

bool hunt_state_obs(const ir_test *t, const char *forbidden, hunt_obs **obs, int *n, diag *d)
{
    if (!forbidden || !hunt_parse_state(forbidden, obs, n))
        return diag_error(d, t->file, 0, 0, "hunt: the forbidden state '%s' is not of the form 'x=1; P0_r0=0;'",
                          forbidden ? forbidden : "");
    for (int k = 0; k < *n; k++) {
        if (!strcmp((*obs)[k].name, LIFT_UNROLL_LOC)) {
            free((*obs)[k].name);
            memmove(*obs + k, *obs + k + 1, sizeof **obs * (size_t)(*n - k - 1));
            --*n, k--;
        } else if (!tu_global(t, (*obs)[k].name)) {
            diag_error(d, t->file, 0, 0, "hunt: the forbidden state names '%s', no global of test %s",
                       (*obs)[k].name, t->name);
            hunt_obs_free(*obs, *n);
            *obs = NULL, *n = 0;
            return false;
        }
    }
    if (*n == 0) {
        free(*obs);
        *obs = NULL;
        return diag_error(d, t->file, 0, 0, "hunt: the forbidden state '%s' names nothing a run can read",
                          forbidden);
    }
    return true;
}

/* A location's type without its atomic qualifier: the driver reads and
 * resets the globals through volatile plain accesses of the same size. */
static char *plain_type(const char *ctype)
{
    if (!ctype)
        return xstrdup("int");
    const char *p = ctype;
    if (!strncmp(p, "_Atomic ", 8))
        p += 8;
    else if (!strncmp(p, "atomic_", 7))
        p += 7;
    if (!strcmp(p, "llong"))
        return xstrdup("long long");
    if (!strcmp(p, "ullong"))
        return xstrdup("unsigned long long");
    if (!strncmp(p, "u", 1) && strcmp(p, "unsigned") && strncmp(p, "uint", 4))
        return xasprintf("unsigned %s", p + 1);
    return xstrdup(p);
}

/* The driver's fixed part: everything after the test's names. */
static const char *driver_body =
    "#define hd_NOBS (int)(sizeof hd_obs_ptr / sizeof hd_obs_ptr[0])\n"
    "typedef struct { volatile long v; char pad[56]; } hd_lane;\n"
    "static hd_lane hd_seq, hd_stop, hd_done[hd_NT];\n"
    "static volatile unsigned long long hd_start_at[hd_NT];\n"
    "static int hd_cpus[1024], hd_ncpus, hd_oversub;\n"
    "static long hd_ld(volatile long *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }\n"
    "static void hd_st(volatile long *p, long v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }\n"
    "static void hd_relax(void) { if (hd_oversub) sched_yield(); else __builtin_ia32_pause(); }\n"
    "static void hd_pin(int i)\n"
    "{\n"
    "    cpu_set_t s;\n"
    "    CPU_ZERO(&s);\n"
    "    CPU_SET(hd_cpus[i % hd_ncpus], &s);\n"
    "    sched_setaffinity(0, sizeof s, &s);\n"
    "}\n"
    "static volatile int hd_late[hd_NT];\n"
    "static void hd_at(int i)\n"
    "{\n"
    "    unsigned long long t = hd_start_at[i];\n"
    "    hd_late[i] = __builtin_ia32_rdtsc() > t;\n"
    "    while (__builtin_ia32_rdtsc() < t)\n"
    "        if (hd_oversub) sched_yield();\n"
    "}\n"
    "static void *hd_worker(void *arg)\n"
    "{\n"
    "    int i = (int)(long)arg;\n"
    "    hd_pin(i);\n"
    "    for (long r = 1;; r++) {\n"
    "        while (hd_ld(&hd_seq.v) < r)\n"
    "            hd_relax();\n"
    "        if (hd_ld(&hd_stop.v))\n"
    "            return NULL;\n"
    "        hd_at(i);\n"
    "        hd_thread_fn[i]();\n"
    "        hd_st(&hd_done[i].v, r);\n"
    "    }\n"
    "}\n"
    "static double hd_now(void)\n"
    "{\n"
    "    struct timespec ts;\n"
    "    clock_gettime(CLOCK_MONOTONIC, &ts);\n"
    "    return ts.tv_sec + ts.tv_nsec * 1e-9;\n"
    "}\n"
    "#define hd_MAXST 256\n"
    "static long long hd_seen[hd_MAXST][hd_NOBS > 0 ? hd_NOBS : 1];\n"
    "static long hd_counts[hd_MAXST];\n"
    "static int hd_nseen;\n"
    "static void hd_count(const long long *v)\n"
    "{\n"
    "    for (int s = 0; s < hd_nseen; s++)\n"
    "        if (!memcmp(hd_seen[s], v, sizeof hd_seen[s])) {\n"
    "            hd_counts[s]++;\n"
    "            return;\n"
    "        }\n"
    "    if (hd_nseen < hd_MAXST) {\n"
    "        memcpy(hd_seen[hd_nseen], v, sizeof hd_seen[hd_nseen]);\n"
    "        hd_counts[hd_nseen++] = 1;\n"
    "    }\n"
    "}\n"
    "int main(int argc, char **argv)\n"
    "{\n"
    "    double budget = argc > 1 ? atof(argv[1]) : hd_DEFAULT_SECONDS;\n"
    "    long max_rounds = argc > 2 ? atol(argv[2]) : hd_DEFAULT_ROUNDS;\n"
    "    int until = argc > 3 ? atoi(argv[3]) : 0;\n"
    "    cpu_set_t s;\n"
    "    CPU_ZERO(&s);\n"
    "    if (sched_getaffinity(0, sizeof s, &s) == 0)\n"
    "        for (int c = 0; c < CPU_SETSIZE && hd_ncpus < 1024; c++)\n"
    "            if (CPU_ISSET(c, &s))\n"
    "                hd_cpus[hd_ncpus++] = c;\n"
    "    if (!hd_ncpus)\n"
    "        hd_cpus[hd_ncpus++] = 0;\n"
    "    hd_oversub = hd_NT > hd_ncpus;\n"
    "    hd_pin(0);\n"
    "    pthread_t th[hd_NT];\n"
    "    for (long i = 1; i < hd_NT; i++)\n"
    "        if (pthread_create(&th[i], NULL, hd_worker, (void *)i)) {\n"
    "            perror(\"pthread_create\");\n"
    "            return 3;\n"
    "        }\n"
    "    unsigned long long rnd = 0x9e3779b97f4a7c15ull, lead = hd_oversub ? 20000 : 3000;\n"
    "    long rounds = 0, hits = 0;\n"
    "    double t0 = hd_now(), t = t0;\n"
    "    long long v[hd_NOBS > 0 ? hd_NOBS : 1];\n"
    "    for (long r = 1; max_rounds <= 0 || r <= max_rounds; r++) {\n"
    "        hd_reset();\n"
    "        /* start LEAD cycles on, each thread up to 255 later */\n"
    "        unsigned long long base = __builtin_ia32_rdtsc() + lead;\n"
    "        for (int i = 0; i < hd_NT; i++) {\n"
    "            rnd ^= rnd << 13, rnd ^= rnd >> 7, rnd ^= rnd << 17;\n"
    "            hd_start_at[i] = base + (rnd & 255);\n"
    "        }\n"
    "        hd_st(&hd_seq.v, r);\n"
    "        hd_at(0);\n"
    "        hd_thread_fn[0]();\n"
    "        for (int i = 1; i < hd_NT; i++)\n"
    "            while (hd_ld(&hd_done[i].v) < r)\n"
    "                hd_relax();\n"
    "        int hit = 1;\n"
    "        for (int k = 0; k < hd_NOBS; k++) {\n"
    "            v[k] = hd_obs_read(k);\n"
    "            hit &= v[k] == hd_obs_want[k];\n"
    "        }\n"
    "        hd_count(v);\n"
    "        /* a thread that heard of the round after its tick ran late: more\n"
    "         * lead; all on time: a little less, so rounds stay cheap */\n"
    "        int late = 0;\n"
    "        for (int i = 0; i < hd_NT; i++)\n"
    "            late |= hd_late[i];\n"
    "        if (late && lead < 4000000)\n"
    "            lead += lead / 8;\n"
    "        else if (!late && lead > 1000)\n"
    "            lead -= lead / 64;\n"
    "        rounds++;\n"
    "        hits += hit;\n"
    "        if (hit && until)\n"
    "            break;\n"
    "        if ((t = hd_now()) - t0 >= budget)\n"
    "            break;\n"
    "    }\n"
    "    t = hd_now();\n"
    "    hd_st(&hd_stop.v, 1);\n"
    "    hd_st(&hd_seq.v, 1L << 62);\n"
    "    for (int i = 1; i < hd_NT; i++)\n"
    "        pthread_join(th[i], NULL);\n"
    "    printf(\"config threads=%d cpus=\", hd_NT);\n"
    "    for (int i = 0; i < hd_NT; i++)\n"
    "        printf(\"%s%d\", i ? \",\" : \"\", hd_cpus[i % hd_ncpus]);\n"
    "    printf(\" allowed-cpus=%d rounds=%ld seconds=%.3f until-covered=%s start-lead=%llu-cycles\\n\", hd_ncpus,\n"
    "           rounds, t - t0, until ? \"yes\" : \"no\", lead);\n"
    "    for (int s2 = 0; s2 < hd_nseen; s2++) {\n"
    "        printf(\"state %ld\", hd_counts[s2]);\n"
    "        for (int k = 0; k < hd_NOBS; k++)\n"
    "            printf(\" %s=%lld;\", hd_obs_name[k], hd_seen[s2][k]);\n"
    "        printf(\"\\n\");\n"
    "    }\n"
    "    printf(\"forbidden state seen %ld times in %ld rounds\\n\", hits, rounds);\n"
    "    return 0;\n"
    "}\n";

char *hunt_driver_text(const ir_test *t, const char *prefix, const hunt_obs *obs, int nobs, const char *tu)
{
    strbuf b = {0};
    sb_add(&b, "#ifndef _GNU_SOURCE\n#define _GNU_SOURCE\n#endif\n#include <pthread.h>\n#include <sched.h>\n#include <stdio.h>\n"
               "#include <stdlib.h>\n#include <string.h>\n#include <time.h>\n");
    if (tu) {
        /* the threads stay functions of their own, as in the object the
         * lifter read: called through volatile pointers, never inlined */
        for (int n = 0; n < t->nthreads; n++)
            sb_printf(&b, "void P%d(void) __attribute__((noinline));\n", n);
        sb_add(&b, "\n/* ---- the test ---- */\n");
        sb_add(&b, tu);
        sb_add(&b, "\n/* ---- the stress driver ---- */\n");
    } else {
        sb_add(&b, "#include <stdint.h>\n");
        for (int n = 0; n < t->nthreads; n++)
            sb_printf(&b, "extern void %sP%d(void);\n", prefix, n);
        for (int i = 0; i < t->nlocs; i++) {
            char *ty = plain_type(t->locs[i].ctype);
            sb_printf(&b, "extern %s %s%s;\n", ty, prefix, t->locs[i].name);
            free(ty);
        }
        for (int n = 0; n < t->nthreads; n++)
            for (int r = 0; r < t->threads[n].nfinal_regs; r++)
                sb_printf(&b, "extern int %sP%d_%s;\n", prefix, n, t->threads[n].final_regs[r].name);
    }
    /* repro.c's own run, when given no arguments: long enough for SB */
    sb_printf(&b, "#define hd_NT %d\n#define hd_DEFAULT_SECONDS 5.0\n#define hd_DEFAULT_ROUNDS 0\n", t->nthreads);
    sb_add(&b, "static void (*volatile const hd_thread_fn[hd_NT])(void) = {");
    for (int n = 0; n < t->nthreads; n++)
        sb_printf(&b, "%s%sP%d", n ? ", " : "", prefix, n);
    sb_add(&b, "};\n");
    /* each round: locations to their initial values, registers to 0 */
    sb_add(&b, "static void hd_reset(void)\n{\n");
    for (int i = 0; i < t->nlocs; i++) {
        char *ty = plain_type(t->locs[i].ctype);
        sb_printf(&b, "    *(volatile %s *)&%s%s = %lld;\n", ty, prefix, t->locs[i].name,
                  (long long)t->locs[i].init);
        free(ty);
    }
    for (int n = 0; n < t->nthreads; n++)
        for (int r = 0; r < t->threads[n].nfinal_regs; r++)
            sb_printf(&b, "    *(volatile int *)&%sP%d_%s = 0;\n", prefix, n, t->threads[n].final_regs[r].name);
    sb_add(&b, "}\n");
    sb_add(&b, "static const char *const hd_obs_name[] = {");
    for (int k = 0; k < nobs; k++)
        sb_printf(&b, "%s\"%s\"", k ? ", " : "", obs[k].name);
    sb_add(&b, nobs ? "};\n" : "\"\"};\n");
    sb_add(&b, "static const long long hd_obs_want[] = {");
    for (int k = 0; k < nobs; k++)
        sb_printf(&b, "%s%lldLL", k ? ", " : "", obs[k].value);
    sb_add(&b, nobs ? "};\n" : "0};\n");
    sb_add(&b, "static volatile void *const hd_obs_ptr[] = {");
    for (int k = 0; k < nobs; k++)
        sb_printf(&b, "%s(volatile void *)&%s%s", k ? ", " : "", prefix, obs[k].name);
    sb_add(&b, nobs ? "};\n" : "0};\n");
    /* each observable read as its own type */
    sb_add(&b, "static long long hd_obs_read(int k)\n{\n    switch (k) {\n");
    for (int k = 0; k < nobs; k++) {
        const char *ty = "int";
        char *own = NULL;
        for (int i = 0; i < t->nlocs; i++)
            if (!strcmp(t->locs[i].name, obs[k].name))
                ty = own = plain_type(t->locs[i].ctype);
        sb_printf(&b, "    case %d: return *(volatile %s *)hd_obs_ptr[%d];\n", k, ty, k);
        free(own);
    }
    sb_add(&b, "    }\n    return 0;\n}\n");
    sb_add(&b, driver_body);
    return sb_take(&b);
}
