/* Hardware confirmation: the very objects the lifter read, linked with
 * the stress driver (driver.c) and run on this machine, counting how often
 * the forbidden state shows.  Nothing of the test is compiled again; the
 * driver alone is, with DRIVER_CC -O2, and linked -no-pie as the objects
 * are -fno-pic. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include "harness/harness.h"
#include "hunt/internal.h"
#include "util/file.h"

/* The driver's output OUT read into R: the config line, the states, the
 * count line; false when it is not there. */
static bool read_output(const char *out, hunt_confirm_result *r, char **config)
{
    strbuf hist = {0};
    bool counted = false;
    for (const char *p = out; p && *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        if (len > 7 && !strncmp(p, "config ", 7)) {
            free(*config);
            *config = xstrndup(p + 7, len - 7);
        } else if (len > 6 && !strncmp(p, "state ", 6)) {
            sb_addn(&hist, p + 6, len - 6);
            sb_addc(&hist, '\n');
        } else if (sscanf(p, "forbidden state seen %ld times in %ld rounds", &r->hits, &r->iterations) == 2) {
            counted = true;
        }
        p = eol ? eol + 1 : NULL;
    }
    r->histogram = sb_take(&hist);
    return counted && *config;
}

bool hunt_confirm(const ir_test *t, const char *prefix, const char *const *objs, int nobjs, const char *forbidden,
                  const hunt_confirm_opts *o, hunt_confirm_result *r, diag *d)
{
    memset(r, 0, sizeof *r);
    hunt_confirm_opts def = {0};
    if (!o)
        o = &def;
    double budget = o->budget_s > 0 ? o->budget_s : 10;
    const char *dcc = o->driver_cc && *o->driver_cc ? o->driver_cc : "cc";
    hunt_obs *obs = NULL;
    int nobs = 0;
    if (!hunt_state_obs(t, forbidden, &obs, &nobs, d))
        return false;
    char *dir = file_temp_dir("litmusc-confirm");
    if (!dir) {
        hunt_obs_free(obs, nobs);
        return diag_fail(d, "hunt: cannot make a temporary folder: %s", strerror(errno));
    }
    char *text = hunt_driver_text(t, prefix ? prefix : "", obs, nobs, NULL);
    hunt_obs_free(obs, nobs);
    char *src = xasprintf("%s/driver.c", dir), *exe = xasprintf("%s/driver", dir);
    bool ok = file_write_atomic(src, text, strlen(text));
    free(text);
    if (!ok)
        diag_fail(d, "hunt: cannot write %s", src);
    const char **more = xcalloc((size_t)nobjs + 7, sizeof *more);
    const char *flags[] = {"-O2", "-pthread", "-no-pie", "-o", exe, src};
    for (int i = 0; i < 6; i++)
        more[i] = flags[i];
    for (int i = 0; i < nobjs; i++)
        more[6 + i] = objs[i];
    char **argv = hunt_argv(dcc, NULL, more);
    free(more);
    harness_child c = {0};
    if (ok) {
        ok = harness_child_run(argv, 120, 1, &c, d);
        if (ok && (c.exit_status != 0 || c.timed_out))
            ok = harness_child_failed(d, &c, 120, "hunt: linking the stress driver with the test's object");
        harness_child_free(&c);
    }
    hunt_argv_free(argv);
    char *config = NULL;
    if (ok) {
        char secs[32], rounds[32];
        snprintf(secs, sizeof secs, "%g", budget);
        snprintf(rounds, sizeof rounds, "%ld", o->max_iterations);
        char *run[] = {exe, secs, rounds, o->until_covered ? "1" : "0", NULL};
        double limit = budget + 30;
        ok = harness_child_run(run, limit, 1, &c, d);
        if (ok && (c.exit_status != 0 || c.timed_out))
            ok = harness_child_failed(d, &c, limit, "hunt: the stress driver");
        if (ok && !read_output(c.out ? c.out : "", r, &config))
            ok = diag_fail(d, "hunt: the stress driver printed no count");
        harness_child_free(&c);
    }
    if (ok) {
        struct utsname u;
        harness_runinfo ri;
        harness_machine(&ri);
        bool un = uname(&u) == 0;
        const char *cfg = config;
        const char *sec = strstr(cfg, "seconds=");
        if (sec)
            r->seconds = atof(sec + 8);
        strbuf b = {0};
        sb_printf(&b, "%s budget=%gs", cfg, budget);
        if (o->max_iterations > 0)
            sb_printf(&b, " max-rounds=%ld", o->max_iterations);
        sb_printf(&b, "; machine %s %s %s, %s, %d cores; driver %s -O2 -pthread -no-pie linked with",
                  un ? u.sysname : "?", un ? u.release : "?", un ? u.machine : "?", ri.cpu, ri.cores, dcc);
        for (int i = 0; i < nobjs; i++)
            sb_printf(&b, " %s", objs[i]);
        r->config = sb_take(&b);
    }
    free(config);
    file_remove_tree(dir);
    free(dir), free(src), free(exe);
    return ok;
}

void hunt_confirm_free(hunt_confirm_result *r)
{
    free(r->config);
    free(r->histogram);
    memset(r, 0, sizeof *r);
}
