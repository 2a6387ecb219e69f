/* The verdict of one run against the behaviour set, as text (printed after
 * the litmus7 block) and as JSON.  Every result carries the configuration
 * and the machine, because a histogram means nothing without them. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness/harness.h"

void harness_machine(harness_runinfo *ri)
{
    memset(ri, 0, sizeof *ri);
    snprintf(ri->cpu, sizeof ri->cpu, "unknown");
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    ri->cores = n > 0 ? (int)n : 1;
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10))
            continue;
        char *p = strchr(line, ':');
        if (!p)
            continue;
        p++;
        while (*p == ' ' || *p == '\t')
            p++;
        p[strcspn(p, "\n")] = 0;
        snprintf(ri->cpu, sizeof ri->cpu, "%s", p);
        break;
    }
    fclose(f);
}

static void add_state(strbuf *out, const ir_test *t, const ir_obs *obs, const ir_val *vals, int n)
{
    char *s = ir_format_state(t, obs, vals, n);
    sb_add(out, s);
    free(s);
}

/* The runner's own settings first (what it really did), in litmus7's
 * S/R vocabulary, then what only the harness knows. */
static void format_config(strbuf *out, const ir_test *t, const harness_hist *h,
                          const harness_runinfo *ri)
{
    const char *s = harness_config_get(h, "size");
    const char *r = harness_config_get(h, "runs");
    sb_printf(out, "Config %s target=%s", t->name, ri->target ? ri->target : "?");
    if (s)
        sb_printf(out, " S=%s", s);
    if (r)
        sb_printf(out, " R=%s", r);
    for (int i = 0; i < h->nconfig; i++) {
        const harness_kv *kv = &h->config[i];
        /* size and runs are S and R above; target and test repeat the line's own. */
        if (strcmp(kv->key, "size") && strcmp(kv->key, "runs") && strcmp(kv->key, "target") &&
            strcmp(kv->key, "test"))
            sb_printf(out, " %s=%s", kv->key, kv->value);
    }
    sb_printf(out, " iterations=%" PRIu64 "\n", h->iterations);
    sb_printf(out, "Machine %s cpu=\"%s\" cores=%d compiler=\"%s\"", t->name, ri->cpu,
              ri->cores, ri->compiler ? ri->compiler : "?");
    if (ri->build)
        sb_printf(out, " build=\"%s\"", ri->build);
    sb_addc(out, '\n');
}

/* One line per racing pair some observed state implies, or one saying that
 * none does (only for a test the model finds races in). */
static void format_races_seen(strbuf *out, const ir_test *t, const harness_verdict *v)
{
    if (!v->races)
        return;
    bool any = false;
    for (int k = 0; k < v->races->npairs; k++) {
        if (!v->race_count[k])
            continue;
        sb_printf(out, "RaceSeen %s ", t->name);
        races_format_pair(out, t, t->file, &v->races->pairs[k]);
        sb_printf(out, " count %" PRIu64 "%s\n", v->race_count[k],
                  v->races->pairs[k].benign ? RACES_BENIGN : "");
        any = true;
    }
    if (!any)
        sb_printf(out, "RaceSeen %s none: no observed state implies a race\n", t->name);
}

/* run --race-fuzz: a summary line, then each target confirmed (with its
 * count) or not (with why). */
static void format_race_fuzz(strbuf *out, const ir_test *t, const harness_verdict *v)
{
    const harness_fuzz *f = v->fuzz;
    if (!f)
        return;
    int confirmed = 0;
    for (int k = 0; k < f->ntargets; k++)
        confirmed += v->fuzz_count[k] != 0;
    sb_printf(out, "RaceFuzz %s targets %d confirmed %d (the hybrid detector's pairs)\n", t->name, f->ntargets,
              confirmed);
    for (int k = 0; k < f->ntargets; k++) {
        races_pair p = harness_fuzz_pair(f, k);
        const char *why = harness_fuzz_why(f, v, k);
        sb_printf(out, "RaceFuzz %s %s ", t->name, why ? "unconfirmed" : "confirmed");
        races_format_pair(out, t, t->file, &p);
        if (why)
            sb_printf(out, ": %s\n", why);
        else
            sb_printf(out, " count %" PRIu64 " states %d\n", v->fuzz_count[k], v->fuzz_states[k]);
    }
}

void harness_format_verdict(strbuf *out, const ir_test *t, const bset *b,
                            const harness_hist *h, const harness_verdict *v,
                            const harness_runinfo *ri)
{
    int n = 0;
    ir_obs *obs = ir_observables(t, &n);
    if (n > h->nobs)
        n = h->nobs;
    const char *model = ri->model ? ri->model : "the model";
    /* herd's Observation word for the model, from its execution counts. */
    const char *obs_word = b->pos == 0 ? "Never" : b->neg == 0 ? "Always" : "Sometimes";
    sb_printf(out, "Model %s %s %d states, observation %s %" PRIu64 " %" PRIu64 "%s\n", t->name,
              model, b->nstates, obs_word, b->pos, b->neg,
              b->undef ? " (undefined: a data race makes every outcome acceptable)" : "");
    int *order = harness_trie_order(h);
    for (int k = 0; k < h->noutcomes; k++) {
        int i = order[k];
        sb_printf(out, "State %s %-9s %-6" PRIu64 " ", t->name,
                  v->allowed[i] ? "allowed" : "FORBIDDEN", h->outcomes[i].count);
        add_state(out, t, obs, h->outcomes[i].vals, n);
        sb_addc(out, '\n');
    }
    for (int k = 0; k < v->nunseen; k++) {
        sb_printf(out, "Unseen %s ", t->name);
        add_state(out, t, b->obs, b->states[v->unseen[k]].vals, b->nobs);
        sb_addc(out, '\n');
    }
    harness_format_coverage(out, t, b, h, v);
    format_races_seen(out, t, v);
    format_race_fuzz(out, t, v);
    format_config(out, t, h, ri);
    if (ri->status)
        sb_printf(out, "Status %s %s\n", t->name, ri->status);
    if (h->interrupted)
        sb_printf(out, "Status %s interrupted: partial histogram of %" PRIu64 " iterations\n",
                  t->name, h->iterations);
    if (v->nforbidden)
        sb_printf(out, "Verdict %s FORBIDDEN: %d state%s outside the %s behaviour set, seen %" PRIu64
                       " time%s\n",
                  t->name, v->nforbidden, v->nforbidden == 1 ? "" : "s", model,
                  v->forbidden_count, v->forbidden_count == 1 ? "" : "s");
    else if (strcmp(harness_run_status(h, ri), "done"))
        sb_printf(out, "Verdict %s Partial: every state observed in the %" PRIu64 " iterations run "
                       "before it stopped is allowed by %s (%d of %d allowed states seen)\n",
                  t->name, h->iterations, model, b->nstates - v->nunseen, b->nstates);
    else
        sb_printf(out, "Verdict %s Ok: every observed state is allowed by %s (%d of %d allowed states seen)\n",
                  t->name, model, b->nstates - v->nunseen, b->nstates);
    sb_addc(out, '\n');
    free(order);
    free(obs);
}
