/* A campaign's cc-check runs: configuration target "cc-check", compiler
 * CC, options the flag set.  Each runs lift/'s pipeline in this process
 * (lift_check) and is recorded like any run, in one transaction: status
 * done with verdict same, stronger, bug or refused (the reason in
 * `message`), forbidden_states the number of states the source forbids,
 * and `result` a litmusc/1 result whose "cc_check" object keeps what the
 * reports count (compiled, lifted, the bug states, the lifted test).  What stops the pipeline for want of this machine (a
 * temporary folder) is an error, retried by the next resume; what the
 * compiler or the lifter refuses is a verdict. */
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include "campaign/internal.h"
#include "frontend/frontend.h"
#include "harness/harness.h"
#include "ir/lower.h"
#include "lift/lift.h"
#include "model/model.h"

/* The loop bound cc-check uses by default: one retry of a CAS loop. */
enum { CC_UNROLL = 2 };

static double now_s(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + tv.tv_usec / 1e6;
}

/* Whether the ' at P opens or closes a quote (QUOTED: inside one): a quote
 * opens after a blank or a parenthesis and closes before one, so the
 * apostrophe of "x's address" is neither. */
static bool quote_mark(const char *s, const char *p, const char *end, bool quoted)
{
    if (*p != '\'')
        return false;
    if (!quoted)
        return p == s || p[-1] == ' ' || p[-1] == '(';
    return p + 1 == end || strchr(" ),:", p[1]) != NULL;
}

/* The last part of S[0..N) after ": ", outside quotes. */
static const char *last_clause(const char *s, size_t n)
{
    const char *from = s;
    bool quoted = false;
    for (size_t i = 0; i + 1 < n; i++) {
        if (quote_mark(s, s + i, s + n, quoted))
            quoted = !quoted;
        else if (!quoted && s[i] == ':' && s[i + 1] == ' ')
            from = s + i + 2;
    }
    return from;
}

void ccrun_reason_kind(const char *msg, strbuf *out)
{
    size_t n = strlen(msg);
    const char *s = msg, *end = msg + n;
    if (n && msg[n - 1] == ')') {
        /* "cannot lift 'movl (, %rdx, 4), %edx' (an indexed address into x: an
         * address dependency, ...)": the closing parentheses, their last clause */
        int depth = 0;
        for (const char *p = end - 1; p >= msg; p--) {
            depth += *p == ')' ? 1 : *p == '(' ? -1 : 0;
            if (depth == 0) {
                s = p + 1;
                end--;
                break;
            }
        }
    }
    s = last_clause(s, (size_t)(end - s));
    /* quoted parts (an instruction, a compiler's command) elided */
    bool quoted = false;
    size_t start = out->len;
    for (const char *p = s; p < end; p++) {
        if (quote_mark(s, p, end, quoted))
            quoted = !quoted;
        else if (!quoted && !(*p == ' ' && (out->len == start || out->s[out->len - 1] == ' ')))
            sb_addc(out, *p);
    }
    while (out->len > start && out->s[out->len - 1] == ' ')
        out->s[--out->len] = '\0';
}

/* The run's result object (litmusc/1, with "cc_check"). */
static char *result_json(const ccrun_job *j, const ir_test *t, const bset *sb, const lift_result *r,
                         const char *reason)
{
    strbuf out = {0};
    json w;
    json_init(&w, &out);
    json_object(&w);
    json_kv_string(&w, "test", j->name);
    json_kv_string(&w, "file", j->path);
    json_kv_string(&w, "arch", ir_arch_name(t->arch));
    json_kv_string(&w, "hash", t->hash);
    json_key(&w, "cc_check");
    json_object(&w);
    json_kv_string(&w, "compiler", j->compiler);
    json_kv_string(&w, "cflags", j->cflags);
    json_kv_string(&w, "model", j->model);
    json_kv_string(&w, "verdict", lift_verdict_name(r->verdict));
    json_kv_bool(&w, "compiled", r->compiled);
    json_kv_bool(&w, "lifted", r->lifted);
    json_kv_int(&w, "source_states", sb->nstates);
    json_key(&w, "compiled_states");
    if (r->verdict == LIFT_REFUSED)
        json_null(&w);
    else
        json_int(&w, r->cb->nstates);
    json_key(&w, "bug_states");
    json_array(&w);
    for (int i = 0; i < r->nbad; i++) {
        char *s = lift_state_text(r, r->bad[i]);
        json_string(&w, s);
        free(s);
    }
    json_end_array(&w);
    json_kv_string(&w, "reason", reason);
    json_kv_string(&w, "lifted_test", r->text);
    json_end_object(&w);
    json_end_object(&w);
    return sb_take(&out);
}

/* One transaction: the run's row (its states table has no rows: the
 * compiled states are the model's, not a histogram). */
static bool record(campaign *c, const ccrun_job *j, int64_t machine, double secs, const char *verdict, int nbad,
                   const char *message, const char *result, diag *d)
{
    if (!cdb_begin(c, d))
        return false;
    bool ok = cdb_clear_states(c, j->id, d);
    sqlite3_stmt *u = ok ? cdb_prepare(c,
        "UPDATE runs SET status = ?2, worker_id = NULL, machine_id = ?3, finished = ?4, verdict = ?5, "
        "model_name = ?6, observation = NULL, iterations = NULL, seconds = ?7, build_seconds = NULL, "
        "positive = NULL, negative = NULL, allowed_states = NULL, seen_allowed = NULL, forbidden_states = ?8, "
        "forbidden_count = NULL, message = ?9, result = ?10 WHERE id = ?1", d) : NULL;
    if (u) {
        sqlite3_bind_int64(u, 1, j->id);
        cdb_bind_text(u, 2, result ? "done" : "error");
        sqlite3_bind_int64(u, 3, machine);
        sqlite3_bind_double(u, 4, now_s());
        cdb_bind_text(u, 5, result ? verdict : "error");
        cdb_bind_text(u, 6, j->model);
        sqlite3_bind_double(u, 7, secs);
        sqlite3_bind_int(u, 8, nbad);
        cdb_bind_text(u, 9, message);
        cdb_bind_text(u, 10, result);
        ok = cdb_done(c, u, d);
        sqlite3_finalize(u);
    } else
        ok = false;
    if (ok)
        return cdb_commit(c, d);
    cdb_rollback(c);
    return false;
}

bool ccrun_one(campaign *c, const ccrun_job *j, int64_t machine, model_set *models, ccrun_outcome *out, diag *d)
{
    memset(out, 0, sizeof *out);
    double start = now_s();
    diag td = {0};
    fe_test *ft = fe_parse(j->source, strlen(j->source), j->path, &td);
    ir_test *t = ft ? ir_lower(ft, &td) : NULL;
    model *src_m = t ? model_set_get(models, j->model, &td) : NULL;
    model *tso = src_m ? model_set_get(models, "x86tso", &td) : NULL;
    bset *sb = tso ? model_run(src_m, t, &td) : NULL;
    lift_result r = {0};
    char msg[DIAG_MSG_MAX + 300];
    char *result = NULL;
    const char *message = NULL;
    if (sb) {
        diag ld = {0};
        bool ok = lift_check_within(ft, t, sb, tso, j->compiler, j->cflags, CC_UNROLL, j->timeout_s, &r, &ld);
        /* a refusal: the compiler's or the lifter's answer (what the machine
         * lacked before the compiler ran is an error below) */
        if (ok || r.compiled || ld.status == 2) {
            if (!ok) {
                snprintf(msg, sizeof msg, "%s", ld.msg);
                message = msg;
            }
            result = result_json(j, t, sb, &r, message);
        } else
            td = ld;
    }
    if (harness_interrupted()) {
        /* the compiler died of the same signal: not its verdict */
        out->interrupted = true;
    } else {
        if (!result) {
            if (!td.set)
                diag_fail(&td, "%s: the run produced no result", j->name);
            diag_format(&td, msg, sizeof msg);
            message = msg;
        }
        out->recorded = true;
        out->bug = result && r.verdict == LIFT_BUG;
        out->failed = !result;
        if (!record(c, j, machine, now_s() - start, result ? lift_verdict_name(r.verdict) : NULL, r.nbad, message,
                    result, d))
            out->db_failed = true;
    }
    free(result);
    lift_result_free(&r);
    if (sb)
        bset_free(sb);
    ir_test_free(t);
    fe_test_free(ft);
    return !out->db_failed;
}
