/* The one JSON schema every `--json` prints (litmusc/1, written down in
 * harness/litmusc.schema.json and the README): an object naming the
 * schema and the command, holding one result per test.  A result has
 * the test, the model's behaviour set, for `races` the racing pairs, and
 * for `run` what the run saw (with the races its states imply).
 * States are arrays of values in the order of "observables"; words are
 * lower case; numbers are numbers. */
#include <stdlib.h>
#include <string.h>
#include "harness/harness.h"

void harness_json_begin(json *j, const char *command)
{
    json_object(j);
    json_kv_string(j, "schema", HARNESS_JSON_SCHEMA);
    json_kv_string(j, "command", command);
    json_key(j, "results");
    json_array(j);
}

void harness_json_end(json *j)
{
    json_end_array(j);
    json_end_object(j);
}

static void value(json *j, const ir_test *t, ir_val v)
{
    if (IR_IS_ADDR(v)) {
        char buf[128];
        ir_format_val(t, v, buf, sizeof buf);
        json_string(j, buf);
    } else
        json_int(j, (int64_t)v);
}

static void values(json *j, const ir_test *t, const ir_val *vals, int n)
{
    json_array(j);
    for (int i = 0; i < n; i++)
        value(j, t, vals[i]);
    json_end_array(j);
}


/* herd's Ok/No/Undef and Never/Sometimes/Always, in lower case. */
static const char *lower_word(const char *w)
{
    if (!strcmp(w, "Ok")) return "ok";
    if (!strcmp(w, "No")) return "no";
    if (!strcmp(w, "Undef")) return "undefined";
    if (!strcmp(w, "Never")) return "never";
    if (!strcmp(w, "Sometimes")) return "sometimes";
    if (!strcmp(w, "Always")) return "always";
    return w;
}

static void test_fields(json *j, const ir_test *t, const char *file, const bset *b)
{
    json_kv_string(j, "test", t->name);
    json_kv_string(j, "file", file);
    json_kv_string(j, "arch", ir_arch_name(t->arch));
    json_kv_string(j, "hash", t->hash ? t->hash : "");
    char *cond = ir_format_cond(t);
    json_kv_string(j, "condition", cond);
    free(cond);
    json_key(j, "observables");
    json_array(j);
    for (int i = 0; i < b->nobs; i++) {
        char *o = ir_format_obs(t, &b->obs[i]);
        json_string(j, o);
        free(o);
    }
    json_end_array(j);
}

/* The "model" object; SECONDS < 0 leaves the cost fields out. */
static void model_fields(json *j, const ir_test *t, const char *model, const bset *b, double seconds)
{
    json_key(j, "model");
    json_object(j);
    json_kv_string(j, "name", model);
    json_kv_string(j, "verdict", lower_word(bset_verdict(t, b)));
    json_kv_string(j, "observation", lower_word(bset_observation(t, b)));
    json_kv_uint(j, "positive", b->pos);
    json_kv_uint(j, "negative", b->neg);
    json_key(j, "states");
    json_array(j);
    for (int i = 0; i < b->nstates; i++) {
        json_object(j);
        json_key(j, "values");
        values(j, t, b->states[i].vals, b->nobs);
        json_kv_bool(j, "condition", b->states[i].cond);
        json_end_object(j);
    }
    json_end_array(j);
    json_key(j, "flags");
    json_array(j);
    for (int i = 0; i < b->nflags; i++)
        json_string(j, b->flags[i]);
    json_end_array(j);
    json_kv_bool(j, "symbolic", b->symbolic);
    json_kv_string(j, "race", b->race);
    json_kv_bool(j, "loop", b->cutoff);
    json_kv_bool(j, "complete", !b->lossy_line);
    if (seconds >= 0) {
        json_kv_int(j, "events", b->events);
        json_kv_uint(j, "candidates", b->candidates);
        json_kv_double(j, "seconds", seconds);
    }
    json_end_object(j);
}

void harness_json_model(json *j, const ir_test *t, const char *file, const char *model, const bset *b,
                        double seconds)
{
    json_object(j);
    test_fields(j, t, file, b);
    model_fields(j, t, model, b, seconds < 0 ? 0 : seconds);
    json_end_object(j);
}

static void access_fields(json *j, const ir_test *t, const races_access *a)
{
    json_object(j);
    json_kv_string(j, "thread", races_thread_name(t, a));
    json_kv_int(j, "index", a->poi);
    json_kv_int(j, "line", a->instr->line);
    json_kv_int(j, "col", a->instr->col);
    json_kv_string(j, "access", races_access_kind(a));
    json_kv_string(j, "mode", ir_mode_name(a->mode));
    json_kv_string(j, "location", races_loc_name(t, a));
    json_kv_string(j, "source", a->instr->src);
    json_end_object(j);
}

/* The two accesses of a racing pair and whether the language defines the race. */
static void pair_fields(json *j, const ir_test *t, const races_pair *p)
{
    json_key(j, "a");
    access_fields(j, t, &p->a);
    json_key(j, "b");
    access_fields(j, t, &p->b);
    json_kv_bool(j, "benign", p->benign);
}

void harness_json_races(json *j, const ir_test *t, const char *file, const char *model, const races *r,
                        double seconds)
{
    json_object(j);
    test_fields(j, t, file, r->b);
    model_fields(j, t, model, r->b, seconds < 0 ? 0 : seconds);
    json_key(j, "races");
    json_array(j);
    for (int k = 0; k < r->npairs; k++) {
        json_object(j);
        pair_fields(j, t, &r->pairs[k]);
        json_kv_uint(j, "execution", r->pairs[k].first);
        json_kv_uint(j, "executions", r->pairs[k].executions);
        json_end_object(j);
    }
    json_end_array(j);
    json_end_object(j);
}

/* Every detector's pairs (those it reports, with the first execution and
 * the count), whether they nest, and why each pair some selected detector
 * misses is missed. */
void harness_json_detectors(json *j, const ir_test *t, const char *file, const char *model, const detectors *r,
                            unsigned selected, double seconds)
{
    json_object(j);
    test_fields(j, t, file, r->b);
    model_fields(j, t, model, r->b, seconds < 0 ? 0 : seconds);
    json_key(j, "detectors");
    json_object(j);
    int bad_pair, bad_det;
    json_kv_bool(j, "nested", detectors_nested(r, &bad_pair, &bad_det));
    json_key(j, "pairs");
    json_object(j);
    for (int d = 0; d < DET_N; d++) {
        if (!((selected >> d) & 1))
            continue;
        json_key(j, detect_names[d]);
        json_array(j);
        for (int k = 0; k < r->npairs; k++) {
            const detectors_pair *p = &r->pairs[k];
            if (!((p->mask >> d) & 1))
                continue;
            json_object(j);
            pair_fields(j, t, &(races_pair){.a = p->a, .b = p->b, .benign = p->benign});
            json_kv_uint(j, "execution", p->first[d]);
            json_kv_uint(j, "executions", p->executions[d]);
            json_end_object(j);
        }
        json_end_array(j);
    }
    json_end_object(j);
    json_key(j, "why");
    json_array(j);
    for (int k = 0; k < r->npairs; k++) {
        const detectors_pair *p = &r->pairs[k];
        int edge = detectors_boundary(p);
        if (edge < 0 || !(selected & ~p->mask))
            continue;
        json_object(j);
        pair_fields(j, t, &(races_pair){.a = p->a, .b = p->b, .benign = p->benign});
        json_key(j, "reported_by");
        json_array(j);
        for (int d = 0; d < DET_N; d++)
            if ((p->mask >> d) & 1)
                json_string(j, detect_names[d]);
        json_end_array(j);
        json_key(j, "missed_by");
        json_array(j);
        for (int d = 0; d < DET_N; d++)
            if (!((p->mask >> d) & 1))
                json_string(j, detect_names[d]);
        json_end_array(j);
        json_kv_string(j, "detector", detect_names[edge]);
        json_kv_string(j, "why", p->why[edge]);
        json_end_object(j);
    }
    json_end_array(j);
    json_end_object(j);
    json_end_object(j);
}

/* The racing pairs the observed states imply, with the iterations and the
 * states that imply each (only for a test whose model has races). */
static void races_seen_fields(json *j, const ir_test *t, const harness_verdict *v)
{
    if (!v->races)
        return;
    json_key(j, "races_seen");
    json_array(j);
    for (int k = 0; k < v->races->npairs; k++) {
        if (!v->race_count[k])
            continue;
        json_object(j);
        pair_fields(j, t, &v->races->pairs[k]);
        json_kv_uint(j, "count", v->race_count[k]);
        json_kv_int(j, "states", v->race_states[k]);
        json_end_object(j);
    }
    json_end_array(j);
}

/* run --race-fuzz: every target, confirmed with its count, or not with why. */
static void race_fuzz_fields(json *j, const ir_test *t, const harness_verdict *v)
{
    const harness_fuzz *f = v->fuzz;
    if (!f)
        return;
    json_key(j, "race_fuzz");
    json_array(j);
    for (int k = 0; k < f->ntargets; k++) {
        races_pair p = harness_fuzz_pair(f, k);
        const char *why = harness_fuzz_why(f, v, k);
        json_object(j);
        pair_fields(j, t, &p);
        json_kv_bool(j, "confirmed", why == NULL);
        json_kv_uint(j, "count", v->fuzz_count[k]);
        json_kv_int(j, "states", v->fuzz_states[k]);
        json_kv_int(j, "proving_states", f->nproving[k]);
        if (why)
            json_kv_string(j, "why", why);
        json_end_object(j);
    }
    json_end_array(j);
}

const char *harness_run_status(const harness_hist *h, const harness_runinfo *ri)
{
    if (!h->interrupted && !ri->status)
        return "done";
    return ri->timed_out ? "timed-out" : "interrupted";
}

const char *harness_run_verdict(const harness_hist *h, const harness_verdict *v, const harness_runinfo *ri)
{
    if (v->nforbidden)
        return "forbidden";
    return strcmp(harness_run_status(h, ri), "done") ? "partial" : "ok";
}

void harness_json_run(json *j, const ir_test *t, const char *file, const bset *b, const harness_hist *h,
                      const harness_verdict *v, const harness_runinfo *ri)
{
    int n = 0;
    ir_obs *obs = ir_observables(t, &n);
    if (n > h->nobs)
        n = h->nobs;
    harness_tally r = harness_tally_of(t, h);
    json_object(j);
    test_fields(j, t, file, b);
    model_fields(j, t, ri->model, b, -1);
    json_key(j, "run");
    json_object(j);
    json_kv_string(j, "target", ri->target);
    json_kv_string(j, "status", harness_run_status(h, ri));
    json_kv_uint(j, "iterations", h->iterations);
    json_kv_double(j, "seconds", h->elapsed);
    json_kv_uint(j, "positive", r.pos);
    json_kv_uint(j, "negative", r.neg);
    json_key(j, "histogram");
    json_array(j);
    int *order = harness_trie_order(h);
    for (int k = 0; k < h->noutcomes; k++) {
        int i = order[k];
        json_object(j);
        json_key(j, "values");
        values(j, t, h->outcomes[i].vals, n);
        json_kv_uint(j, "count", h->outcomes[i].count);
        json_kv_bool(j, "condition", ir_cond_eval(t->cond, obs, h->outcomes[i].vals, n));
        json_kv_bool(j, "allowed", v->allowed[i]);
        json_end_object(j);
    }
    free(order);
    json_end_array(j);
    json_key(j, "unseen");
    json_array(j);
    for (int k = 0; k < v->nunseen; k++)
        values(j, t, b->states[v->unseen[k]].vals, b->nobs);
    json_end_array(j);
    json_kv_int(j, "forbidden_states", v->nforbidden);
    json_kv_uint(j, "forbidden_count", v->forbidden_count);
    harness_json_coverage(j, b, h, v);
    races_seen_fields(j, t, v);
    race_fuzz_fields(j, t, v);
    json_key(j, "config");
    json_object(j);
    for (int i = 0; i < h->nconfig; i++) {
        json_key(j, h->config[i].key);
        json_number_or_string(j, h->config[i].value);
    }
    json_end_object(j);
    json_key(j, "machine");
    json_object(j);
    json_kv_string(j, "cpu", ri->cpu);
    json_kv_int(j, "cores", ri->cores);
    json_kv_string(j, "compiler", ri->compiler);
    json_kv_string(j, "build", ri->build);
    json_end_object(j);
    json_end_object(j);
    json_kv_string(j, "verdict", harness_run_verdict(h, v, ri));
    json_end_object(j);
    free(obs);
}
