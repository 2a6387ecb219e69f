/* Running a campaign's unfinished runs, one at a time, each committed in
 * its own transaction when it ends.
 *
 * A run is claimed (status running, with this process's worker row)
 * before it starts and finished (done or error, its histogram in
 * `states`) in one transaction, so a process killed in between leaves
 * only a claim; the next process on the same host sees that the claimant
 * is gone and runs it again.  Each run executes with its own
 * configuration's options (stored with it), whatever the command line that
 * resumes it says.  Each run is tried at most once per execution: a run
 * that fails stays an error until the next resume. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include "campaign/internal.h"
#include "frontend/frontend.h"
#include "harness/harness.h"
#include "ir/lower.h"
#include "lift/lift.h"
#include "model/model.h"

static double now_s(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + tv.tv_usec / 1e6;
}

/* Models and compiler versions, loaded once per name. */
typedef struct cache {
    model_set *models;
    kv_pair *ccs;           /* a compiler, and its version */
    size_t nc, cc;
} cache;

static const char *get_cc_version(cache *k, const char *cc, diag *d)
{
    for (size_t i = 0; i < k->nc; i++)
        if (!strcmp(k->ccs[i].key, cc))
            return k->ccs[i].value;
    char *v = harness_cc_version(cc, d);
    if (v) {
        kv_pair p = {xstrdup(cc), v};
        VEC_PUSH(k->ccs, k->nc, k->cc, p);
    }
    return v;
}

static void cache_free(cache *k)
{
    model_set_free(k->models);
    kv_free(k->ccs, (int)k->nc);
}

/* ---- one run's row ------------------------------------------------------- */

typedef struct job {
    int64_t id;
    char *name, *path, *source;
    char *target, *compiler, *model, *options;
} job;

static void job_free(job *j)
{
    free(j->name);
    free(j->path);
    free(j->source);
    free(j->target);
    free(j->compiler);
    free(j->model);
    free(j->options);
}

static char *col(sqlite3_stmt *st, int i)
{
    const unsigned char *s = sqlite3_column_text(st, i);
    return xstrdup(s ? (const char *)s : "");
}

/* Claim the next unfinished run after AFTER; false when none is left (or D
 * is set). */
static bool claim(campaign *c, int64_t worker, int64_t after, job *j, diag *d)
{
    memset(j, 0, sizeof *j);
    if (!cdb_begin(c, d))
        return false;
    sqlite3_stmt *q = cdb_prepare(c,
        "SELECT r.id, t.name, t.path, t.source, g.target, g.compiler, g.model, g.options "
        "FROM runs r JOIN tests t ON t.id = r.test_id JOIN configs g ON g.id = r.config_id "
        "WHERE r.status IN ('pending', 'error') AND r.id > ?1 ORDER BY r.id LIMIT 1", d);
    bool found = false;
    if (q) {
        sqlite3_bind_int64(q, 1, after);
        if (sqlite3_step(q) == SQLITE_ROW) {
            found = true;
            j->id = sqlite3_column_int64(q, 0);
            j->name = col(q, 1);
            j->path = col(q, 2);
            j->source = col(q, 3);
            j->target = col(q, 4);
            j->compiler = col(q, 5);
            j->model = col(q, 6);
            j->options = col(q, 7);
        }
        sqlite3_finalize(q);
    }
    if (found) {
        sqlite3_stmt *u = cdb_prepare(c, "UPDATE runs SET status = 'running', worker_id = ?1, started = ?2 "
                                         "WHERE id = ?3", d);
        if (u) {
            sqlite3_bind_int64(u, 1, worker);
            sqlite3_bind_double(u, 2, now_s());
            sqlite3_bind_int64(u, 3, j->id);
            found = cdb_done(c, u, d);
            sqlite3_finalize(u);
        } else
            found = false;
    }
    if (d->set) {
        cdb_rollback(c);
        job_free(j);
        return false;
    }
    if (!cdb_commit(c, d)) {
        job_free(j);
        return false;
    }
    return found;
}

/* Give a claimed run back (the campaign was interrupted). */
static void release(campaign *c, int64_t id)
{
    diag d = {0};
    sqlite3_stmt *u = cdb_prepare(c, "UPDATE runs SET status = 'pending', worker_id = NULL WHERE id = ?1", &d);
    if (u) {
        sqlite3_bind_int64(u, 1, id);
        cdb_done(c, u, &d);
        sqlite3_finalize(u);
    }
}

/* The run finished: its row and histogram, in one transaction. */
typedef struct outcome {
    const ir_test *t;
    const bset *b;
    const harness_hist *h;
    const harness_verdict *v;
    const harness_runinfo *ri;
    double build_s;
    const char *error;      /* the run failed: why (no histogram) */
} outcome;

static bool record(campaign *c, const job *j, int64_t machine, const outcome *o, diag *d)
{
    if (!cdb_begin(c, d))
        return false;
    bool ok = cdb_clear_states(c, j->id, d);
    sqlite3_stmt *u = ok ? cdb_prepare(c,
        "UPDATE runs SET status = ?2, worker_id = NULL, machine_id = ?3, finished = ?4, verdict = ?5, "
        "model_name = ?6, observation = ?7, iterations = ?8, seconds = ?9, build_seconds = ?10, positive = ?11, "
        "negative = ?12, allowed_states = ?13, seen_allowed = ?14, forbidden_states = ?15, forbidden_count = ?16, "
        "message = ?17, result = ?18 WHERE id = ?1", d) : NULL;
    if (!u) {
        cdb_rollback(c);
        return false;
    }
    sqlite3_bind_int64(u, 1, j->id);
    sqlite3_bind_int64(u, 3, machine);
    sqlite3_bind_double(u, 4, now_s());
    sqlite3_bind_double(u, 10, o->build_s);
    if (o->error) {
        cdb_bind_text(u, 2, "error");
        cdb_bind_text(u, 5, "error");
        cdb_bind_text(u, 17, o->error);
    } else {
        const ir_test *t = o->t;
        const bset *b = o->b;
        const harness_hist *h = o->h;
        const harness_verdict *v = o->v;
        harness_tally tl = harness_tally_of(t, h);
        strbuf js = {0};
        json w;
        json_init(&w, &js);
        harness_json_run(&w, t, j->path, b, h, v, o->ri);
        cdb_bind_text(u, 2, "done");
        cdb_bind_text(u, 5, harness_run_verdict(h, v, o->ri));
        cdb_bind_text(u, 6, o->ri->model);
        cdb_bind_text(u, 7, bset_observation(t, b));
        sqlite3_bind_int64(u, 8, (sqlite3_int64)h->iterations);
        sqlite3_bind_double(u, 9, h->elapsed);
        sqlite3_bind_int64(u, 11, (sqlite3_int64)tl.pos);
        sqlite3_bind_int64(u, 12, (sqlite3_int64)tl.neg);
        sqlite3_bind_int(u, 13, b->nstates);
        sqlite3_bind_int(u, 14, b->nstates - v->nunseen);
        sqlite3_bind_int(u, 15, v->nforbidden);
        sqlite3_bind_int64(u, 16, (sqlite3_int64)v->forbidden_count);
        cdb_bind_text(u, 17, o->ri->status);
        cdb_bind_text(u, 18, js.s);
        sb_free(&js);
    }
    ok = cdb_done(c, u, d);
    sqlite3_finalize(u);
    if (ok && !o->error) {
        /* the observed states, and the behaviour set (once per test and model) */
        int n = 0;
        ir_obs *obs = ir_observables(o->t, &n);
        if (n > o->h->nobs)
            n = o->h->nobs;
        sqlite3_stmt *ins = cdb_prepare(c, "INSERT INTO states (run_id, state, count, allowed, condition) "
                                           "VALUES (?1, ?2, ?3, ?4, ?5)", d);
        for (int i = 0; ins && ok && i < o->h->noutcomes; i++) {
            char *s = ir_format_state(o->t, obs, o->h->outcomes[i].vals, n);
            sqlite3_reset(ins);
            sqlite3_bind_int64(ins, 1, j->id);
            cdb_bind_text(ins, 2, s);
            sqlite3_bind_int64(ins, 3, (sqlite3_int64)o->h->outcomes[i].count);
            sqlite3_bind_int(ins, 4, o->v->allowed[i]);
            sqlite3_bind_int(ins, 5, ir_cond_eval(o->t->cond, obs, o->h->outcomes[i].vals, n));
            ok = cdb_done(c, ins, d);
            free(s);
        }
        sqlite3_finalize(ins);
        ok = ok && ins;
        sqlite3_stmt *ms = ok ? cdb_prepare(c, "INSERT OR IGNORE INTO model_states (test_id, model, state, condition) "
                                               "SELECT test_id, ?2, ?3, ?4 FROM runs WHERE id = ?1", d) : NULL;
        for (int i = 0; ms && ok && i < o->b->nstates; i++) {
            char *s = ir_format_state(o->t, o->b->obs, o->b->states[i].vals, o->b->nobs);
            sqlite3_reset(ms);
            sqlite3_bind_int64(ms, 1, j->id);
            cdb_bind_text(ms, 2, o->ri->model);
            cdb_bind_text(ms, 3, s);
            sqlite3_bind_int(ms, 4, o->b->states[i].cond);
            ok = cdb_done(c, ms, d);
            free(s);
        }
        sqlite3_finalize(ms);
        ok = ok && ms;
        free(obs);
    }
    if (ok)
        return cdb_commit(c, d);
    cdb_rollback(c);
    return false;
}

/* ---- executing a run ------------------------------------------------------ */

/* A configuration's canonical options back into their parts. */
typedef struct run_options {
    char **args;            /* for the native runner, NULL-terminated */
    size_t n, cap;
    const char *size, *runs, *time;
    double timeout_s;
    bool until_covered;     /* "--until-covered on": the behaviour set goes to the runner */
    char *words;
} run_options;

static void parse_options(const char *options, run_options *r)
{
    memset(r, 0, sizeof *r);
    r->timeout_s = 120;
    r->words = xstrdup(options);
    char *save = NULL;
    for (char *w = strtok_r(r->words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        char *v = strtok_r(NULL, " ", &save);
        if (!v)
            break;
        if (!strcmp(w, "--timeout")) {
            r->timeout_s = strtod(v, NULL);
            continue;
        }
        if (!strcmp(w, "--until-covered")) {
            r->until_covered = true;
            continue;
        }
        if (!strcmp(w, "-s"))
            r->size = v;
        else if (!strcmp(w, "-r"))
            r->runs = v;
        else if (!strcmp(w, "--time"))
            r->time = v;
        VEC_PUSH(r->args, r->n, r->cap, w);
        VEC_PUSH(r->args, r->n, r->cap, v);
    }
    VEC_PUSH(r->args, r->n, r->cap, NULL);
}

static void free_options(run_options *r)
{
    free(r->args);
    free(r->words);
}

typedef struct exec_ctx {
    campaign *c;
    const job *j;
    int64_t machine;
    const ir_test *t;
    const bset *b;
    const bset *reachable;      /* harness_aim's, or NULL */
    const char *model;
    bool recorded, forbidden, partial, failed;
    diag *d;
    bool db_ok;
} exec_ctx;

static void finish(exec_ctx *x, const harness_hist *h, harness_runinfo *ri, double build_s, const char *error)
{
    diag cd = {0};
    harness_verdict v = {0};
    if (h && !harness_compare(x->t, x->b, h, &v, &cd))
        error = cd.msg;
    v.reachable = x->reachable;
    outcome o = {x->t, x->b, h, &v, ri, build_s, h && !cd.set ? NULL : error};
    if (!o.error) {
        x->forbidden = v.nforbidden > 0;
        x->partial = strcmp(harness_run_status(h, ri), "done") != 0;
    }
    x->failed = o.error != NULL;
    x->db_ok = record(x->c, x->j, x->machine, &o, x->d);
    x->recorded = true;
    if (h && !cd.set)
        harness_verdict_free(&v);
}

static void java_done(void *ctx, int i, const harness_hist *h, harness_runinfo *ri, const diag *d)
{
    (void)i;
    exec_ctx *x = ctx;
    if (ri)
        ri->model = x->model;
    finish(x, h, ri, 0, h ? NULL : d->msg);
}

/* A cc-check run (campaign/cc_run.c): false for a database failure only. */
static bool run_cc(campaign *c, const job *j, int64_t machine, cache *k, double timeout_s, campaign_exec_stats *st,
                   diag *d)
{
    ccrun_job cj = {j->id, j->name, j->path, j->source, j->compiler, j->model, j->options,
                    timeout_s > 0 ? timeout_s : LIFT_CC_TIMEOUT_S};
    ccrun_outcome o;
    bool ok = ccrun_one(c, &cj, machine, k->models, &o, d);
    if (o.interrupted) {
        release(c, j->id);
        st->interrupted = true;
    } else if (o.recorded) {
        st->ran++;
        st->forbidden += o.bug;
        st->errors += o.failed;
    }
    return ok;
}

/* Run J: false for a database failure only. */
static bool run_one(campaign *c, const job *j, int64_t machine, cache *k, const campaign_exec_opts *eo,
                    campaign_exec_stats *st, diag *d)
{
    if (!strcmp(j->target, CAMPAIGN_CC_TARGET))
        return run_cc(c, j, machine, k, eo->timeout_s, st, d);
    exec_ctx x = {c, j, machine, NULL, NULL, NULL, NULL, false, false, false, false, d, true};
    diag td = {0};
    char msg[DIAG_MSG_MAX + 300];
    fe_test *ft = fe_parse(j->source, strlen(j->source), j->path, &td);
    ir_test *t = ft ? ir_lower(ft, &td) : NULL;
    fe_test_free(ft);
    model *m = t ? model_set_get(k->models, j->model, &td) : NULL;
    bset *b = m ? model_run(m, t, &td) : NULL;
    run_options ro;
    parse_options(j->options, &ro);
    x.t = t;
    x.b = b;
    x.model = j->model;
    if (b && !strcmp(j->target, "java")) {
        const char *jv = get_cc_version(k, "javac", &td);
        harness_java_opts jo = {ro.size, ro.runs, ro.time, ro.timeout_s, eo->cache_dir, jv};
        const ir_test *one[1] = {t};
        if (jv && !harness_run_java(one, 1, &jo, java_done, &x, &td) && !x.recorded) {
            diag_format(&td, msg, sizeof msg);
            finish(&x, NULL, NULL, 0, msg);
        }
    } else if (b) {
        const char *ccv = get_cc_version(k, j->compiler, &td);
        if (ccv) {
            harness_native_opts no = {0};
            native_opts_init(&no.gen);
            no.gen.target = !strcmp(j->target, "x86") ? NATIVE_X86 : NATIVE_C11;
            no.cc = j->compiler;
            no.cc_version = ccv;
            no.cache_dir = eo->cache_dir;
            no.run_args = ro.args;
            no.timeout_s = ro.timeout_s;
            harness_aim aim;
            bool aimed = harness_aim_init(&aim, k->models, m, t, b, &no.gen, ro.until_covered, &td);
            no.until_covered = aim.states;
            no.schedules = aim.schedules;
            x.reachable = aim.reachable;
            harness_run_result r;
            memset(&r, 0, sizeof r);
            bool ran = aimed && harness_run_native(t, &no, &r, &td);
            if (ran && !harness_interrupted()) {
                harness_runinfo ri;
                harness_machine(&ri);
                ri.target = j->target;
                ri.model = model_name(m);
                char *compiler = xasprintf("%s [%s]", r.compiler, ccv);
                char *build = r.cached ? xstrdup("cached") : xasprintf("built in %.2f s", r.build_s);
                ri.compiler = compiler;
                ri.build = build;
                ri.status = r.status;
                ri.timed_out = r.timed_out;
                finish(&x, r.hist, &ri, r.build_s, NULL);
                free(compiler);
                free(build);
            }
            harness_run_result_free(&r);
            x.reachable = NULL;     /* a failure recorded below has no histogram to count */
            harness_aim_free(&aim);
        }
    }
    if (!x.recorded && !harness_interrupted()) {
        if (!td.set)
            diag_fail(&td, "%s: the run produced no result", j->name);
        diag_format(&td, msg, sizeof msg);
        finish(&x, NULL, NULL, 0, msg);
    }
    if (harness_interrupted() && !x.recorded) {
        release(c, j->id);
        st->interrupted = true;
    } else if (x.recorded) {
        st->ran++;
        st->forbidden += x.forbidden;
        st->partial += x.partial;
        st->errors += x.failed;
    }
    free_options(&ro);
    if (b)
        bset_free(b);
    ir_test_free(t);
    return x.db_ok;
}

/* ---- the loop ------------------------------------------------------------- */

static int64_t count_runs(campaign *c, const char *where)
{
    char *sql = xasprintf("SELECT count(*) FROM runs%s%s", where ? " WHERE " : "", where ? where : "");
    int64_t n = cdb_scalar(c, sql);
    free(sql);
    return n < 0 ? 0 : n;
}

/* Runs left running by a process of this host that is gone become pending.
 * Gone: its byte of the workers' lock file is free (campaign/liveness.c);
 * where that file cannot be read, the pid no longer exists. */
static bool reclaim(campaign *c, const char *host, int lockfd, diag *d)
{
    sqlite3_stmt *q = cdb_prepare(c, "SELECT DISTINCT w.id, w.pid FROM runs r JOIN workers w ON w.id = r.worker_id "
                                     "WHERE r.status = 'running' AND w.host = ?1", d);
    if (!q)
        return false;
    cdb_bind_text(q, 1, host);
    int64_t gone[256];
    int ngone = 0;
    while (sqlite3_step(q) == SQLITE_ROW && ngone < 256) {
        int64_t w = sqlite3_column_int64(q, 0);
        pid_t pid = (pid_t)sqlite3_column_int64(q, 1);
        int alive = cworker_alive(lockfd, w);
        if (alive == 0 || (alive < 0 && pid > 0 && kill(pid, 0) != 0 && errno == ESRCH))
            gone[ngone++] = w;
    }
    sqlite3_finalize(q);
    for (int i = 0; i < ngone; i++) {
        sqlite3_stmt *u = cdb_prepare(c, "UPDATE runs SET status = 'pending', worker_id = NULL "
                                         "WHERE status = 'running' AND worker_id = ?1", d);
        if (!u)
            return false;
        sqlite3_bind_int64(u, 1, gone[i]);
        bool ok = cdb_done(c, u, d);
        sqlite3_finalize(u);
        if (!ok)
            return false;
    }
    /* a run whose claim names no worker at all is nobody's */
    return cdb_exec(c, "UPDATE runs SET status = 'pending' WHERE status = 'running' AND worker_id IS NULL", d);
}

bool campaign_execute(campaign *c, const campaign_exec_opts *o, campaign_exec_stats *st, diag *d)
{
    memset(st, 0, sizeof *st);
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    int64_t machine = campaign_machine_id(c, d);
    int lockfd = cworker_lock_open(c->path);
    if (machine < 0 || !reclaim(c, host, lockfd, d)) {
        if (lockfd >= 0)
            close(lockfd);
        return false;
    }
    char pid[32];
    snprintf(pid, sizeof pid, "%ld", (long)getpid());
    const char *wvals[] = {host, pid};
    char *ins = xasprintf("INSERT INTO workers (host, pid, started) VALUES (?1, ?2, %.6f)", now_s());
    int64_t worker = cdb_upsert(c, ins, "SELECT max(id) FROM workers WHERE host = ?1 AND pid = ?2", wvals, 2, 2,
                                d);
    free(ins);
    /* held until this function returns (or the process dies), before any
     * run is claimed, so a claimed run's worker is never seen as gone */
    if (worker < 0 || (lockfd >= 0 && !cworker_lock_hold(lockfd, worker))) {
        if (worker >= 0) {
            char *lp = cworker_lock_path(c->path);
            diag_fail(d, "cannot lock %s: %s", lp ? lp : c->path, strerror(errno));
            free(lp);
        }
        if (lockfd >= 0)
            close(lockfd);
        return false;
    }
    cache k = {model_set_new(), NULL, 0, 0};
    double start = now_s();
    int total = (int)count_runs(c, NULL);
    int done0 = (int)count_runs(c, "status = 'done'");
    int forbidden0 = (int)count_runs(c, "status = 'done' AND forbidden_states > 0");
    int64_t after = 0;
    bool ok = true;
    harness_signals_install();
    for (;;) {
        job j;
        if (harness_interrupted() || !claim(c, worker, after, &j, d))
            break;
        after = j.id;
        if (o->progress) {
            double el = now_s() - start;
            double rate = el > 0 ? st->ran / el : 0;
            int done = done0 + st->ran - st->errors;
            campaign_progress p = {done, total, j.name, el, rate,
                                   rate > 0 ? (total - done) / rate : -1, forbidden0 + st->forbidden, st->errors};
            if (!o->progress(o->ctx, &p)) {
                release(c, j.id);
                job_free(&j);
                break;
            }
        }
        ok = run_one(c, &j, machine, &k, o, st, d);
        job_free(&j);
        if (!ok || st->interrupted)
            break;
    }
    if (d->set)
        ok = false;
    if (harness_interrupted())
        st->interrupted = true;
    if (o->progress) {
        double el = now_s() - start;
        int done = (int)count_runs(c, "status = 'done'");
        campaign_progress p = {done, total, NULL, el, el > 0 ? st->ran / el : 0, 0,
                               (int)count_runs(c, "status = 'done' AND forbidden_states > 0"), st->errors};
        o->progress(o->ctx, &p);
    }
    cache_free(&k);
    if (lockfd >= 0)
        close(lockfd);
    return ok;
}
