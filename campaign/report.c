/* Reports read from the campaign database: the summary, the JSON report
 * (schema litmusc/1, command "campaign": each finished run's result as
 * `run --json` gives it, with its configuration), JUnit XML through the
 * harness's libxml2 writer, and the diff of two campaigns. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "campaign/internal.h"
#include "harness/harness.h"

/* Finished runs whose result reads: what the sums go over. */
#define DONE_OK " FROM runs r WHERE r.status = 'done' AND NOT " CDB_CORRUPT("r")

bool campaign_summarize(campaign *c, campaign_summary *s, diag *d)
{
    (void)d;
    memset(s, 0, sizeof *s);
    s->tests = (int)cdb_scalar(c, "SELECT count(DISTINCT test_id) FROM runs");
    s->runs = (int)cdb_scalar(c, "SELECT count(*) FROM runs");
    s->corrupt = (int)cdb_scalar(c, "SELECT count(*) FROM runs r WHERE " CDB_CORRUPT("r"));
    s->done = (int)cdb_scalar(c, "SELECT count(*)" DONE_OK);
    s->errors = (int)cdb_scalar(c, "SELECT count(*) FROM runs WHERE status = 'error'");
    s->pending = s->runs - s->done - s->errors - s->corrupt;
    s->forbidden_runs = (int)cdb_scalar(c, "SELECT count(*)" DONE_OK " AND forbidden_states > 0");
    s->partial_runs = (int)cdb_scalar(c, "SELECT count(*)" DONE_OK " AND verdict = 'partial'");
    s->allowed = cdb_scalar(c, "SELECT coalesce(sum(allowed_states), 0)" DONE_OK);
    s->seen_allowed = cdb_scalar(c, "SELECT coalesce(sum(seen_allowed), 0)" DONE_OK);
    s->iterations = (uint64_t)cdb_scalar(c, "SELECT coalesce(sum(iterations), 0)" DONE_OK);
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(c->db, "SELECT coalesce(sum(seconds), 0)" DONE_OK, -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        s->seconds = sqlite3_column_double(st, 0);
    sqlite3_finalize(st);
    return true;
}

/* Every run, test and configuration, in report order. */
static const char runs_sql[] =
    "SELECT t.name, t.arch, t.path, t.hash, g.target, g.compiler, g.model, g.options, r.status, r.verdict,"
    "  r.message, r.result, m.host, r.seconds, r.forbidden_states, " CDB_CORRUPT("r") ","
    "  CASE WHEN r.status = 'done' AND json_valid(r.result) THEN json_extract(r.result, '$.cc_check.reason') END,"
    "  CASE WHEN r.status = 'done' AND json_valid(r.result) THEN (SELECT group_concat(value, ' | ')"
    "    FROM json_each(r.result, '$.cc_check.bug_states')) END,"
    "  CASE WHEN r.status = 'done' AND json_valid(r.result) THEN json_extract(r.result, '$.cc_check.lifted_test') END"
    " FROM runs r JOIN tests t ON t.id = r.test_id JOIN configs g ON g.id = r.config_id"
    " LEFT JOIN machines m ON m.id = r.machine_id"
    " ORDER BY t.name, t.hash, g.target, g.compiler, g.model, g.options";

static void counts_json(json *j, const char *key, const char *what, const campaign_cc_count *v, int n)
{
    json_key(j, key);
    json_array(j);
    for (int i = 0; i < n; i++) {
        json_object(j);
        json_kv_string(j, what, v[i].what);
        json_kv_int(j, "count", v[i].count);
        json_end_object(j);
    }
    json_end_array(j);
}

/* "cc_check": the table of campaign/report_cc.c, when there are cc-check runs. */
static bool cc_json(campaign *c, json *j, diag *d)
{
    campaign_cc_row *rows;
    int n;
    if (!campaign_cc_table(c, &rows, &n, d))
        return false;
    if (n) {
        json_key(j, "cc_check");
        json_array(j);
    }
    for (int i = 0; i < n; i++) {
        const campaign_cc_row *r = &rows[i];
        json_object(j);
        json_kv_string(j, "compiler", r->compiler);
        json_kv_string(j, "cflags", r->cflags);
        json_kv_string(j, "model", r->model);
        static const char *const keys[] = {"tests", "compiled", "lifted", "same", "stronger", "bug", "refused",
                                           "not_run", "failed", "corrupt"};
        const int vals[] = {r->tests, r->compiled, r->lifted, r->same, r->stronger, r->bug, r->refused,
                            r->pending, r->errors, r->corrupt};
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
            json_kv_int(j, keys[k], vals[k]);
        counts_json(j, "reasons", "reason", r->reasons, r->nreasons);
        /* a bug as its test and state, apart */
        json_key(j, "bugs");
        json_array(j);
        for (int k = 0; k < r->nbugs; k++) {
            const char *colon = strstr(r->bugs[k].what, ": ");
            char *test = xstrndup(r->bugs[k].what, (size_t)(colon - r->bugs[k].what));
            json_object(j);
            json_kv_string(j, "test", test);
            json_kv_string(j, "state", colon + 2);
            json_end_object(j);
            free(test);
        }
        json_end_array(j);
        json_end_object(j);
    }
    if (n)
        json_end_array(j);
    campaign_cc_table_free(rows, n);
    return true;
}

bool campaign_report_json(campaign *c, strbuf *out, diag *d)
{
    sqlite3_stmt *st = cdb_prepare(c, runs_sql, d);
    if (!st)
        return false;
    json j;
    json_init(&j, out);
    harness_json_begin(&j, "campaign");
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *status = cdb_text(st, 8), *result = cdb_text(st, 11);
        strbuf block = {0};
        json b;
        json_init(&b, &block);
        json_object(&b);
        json_kv_string(&b, "target", cdb_text(st, 4));
        json_kv_string(&b, "compiler", cdb_text(st, 5));
        json_kv_string(&b, "model", cdb_text(st, 6));
        json_kv_string(&b, "options", cdb_text(st, 7));
        json_kv_string(&b, "status", status);
        json_kv_string(&b, "host", sqlite3_column_type(st, 12) == SQLITE_NULL ? NULL : cdb_text(st, 12));
        json_end_object(&b);
        size_t len = strlen(result);
        if (!strcmp(status, "done") && !sqlite3_column_int(st, 15)) {
            /* the stored run --json result, with its configuration added */
            char *r = xasprintf("%.*s,\"campaign\":%s}", (int)(len - 1), result, block.s);
            json_raw(&j, r);
            free(r);
        } else {
            json_object(&j);
            json_kv_string(&j, "test", cdb_text(st, 0));
            json_kv_string(&j, "file", cdb_text(st, 2));
            json_kv_string(&j, "arch", cdb_text(st, 1));
            json_kv_string(&j, "hash", cdb_text(st, 3));
            /* a done run whose stored result is not an object was damaged: say so, never "not run" */
            json_kv_string(&j, "error", !strcmp(status, "error")  ? cdb_text(st, 10)
                                        : !strcmp(status, "done") ? "corrupt: the stored result does not parse"
                                                                  : "not run yet");
            json_key(&j, "campaign");
            json_raw(&j, block.s);
            json_end_object(&j);
        }
        sb_free(&block);
    }
    sqlite3_finalize(st);
    json_end_array(&j);
    bool ok = cc_json(c, &j, d);
    json_end_object(&j);
    sb_addc(out, '\n');
    return ok;
}

bool campaign_report_junit(campaign *c, const char *path, diag *d)
{
    sqlite3_stmt *st = cdb_prepare(c, runs_sql, d);
    if (!st)
        return false;
    harness_report *rep = harness_report_new("litmusc campaign");
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *status = cdb_text(st, 8), *verdict = cdb_text(st, 9);
        /* cc-check's flag set is part of its configuration's name */
        char *cls = !strcmp(cdb_text(st, 4), CAMPAIGN_CC_TARGET)
                        ? xasprintf("litmusc.campaign.%s.%s.%s.%s", cdb_text(st, 4), cdb_text(st, 5),
                                    *cdb_text(st, 7) ? cdb_text(st, 7) : "(none)", cdb_text(st, 6))
                        : xasprintf("litmusc.campaign.%s.%s.%s", cdb_text(st, 4), cdb_text(st, 5), cdb_text(st, 6));
        for (char *p = cls; *p; p++)
            if (*p == ' ')
                *p = '_';
        harness_result res;
        char *msg;
        const char *detail = NULL;
        bool cc = !strcmp(cdb_text(st, 4), CAMPAIGN_CC_TARGET);
        if (sqlite3_column_int(st, 15)) {
            res = HARNESS_ERROR;
            msg = xstrdup("corrupt: the stored result does not parse");
        } else if (cc && !strcmp(status, "done")) {
            /* a compilation bug fails, a refusal is skipped with its reason */
            res = !strcmp(verdict, "bug") ? HARNESS_FAIL : !strcmp(verdict, "refused") ? HARNESS_SKIPPED
                                                                                       : HARNESS_PASS;
            msg = res == HARNESS_FAIL      ? xasprintf("bug: a state the source forbids: %s", cdb_text(st, 17))
                  : res == HARNESS_SKIPPED ? xasprintf("refused: %s", cdb_text(st, 16))
                                           : xstrdup(verdict);
            if (res == HARNESS_FAIL)
                detail = cdb_text(st, 18);
        } else if (!strcmp(status, "done") && !strcmp(verdict, "forbidden")) {
            res = HARNESS_FAIL;
            msg = xasprintf("%d forbidden state(s) observed", sqlite3_column_int(st, 14));
        } else if (!strcmp(status, "done") && !strcmp(verdict, "partial")) {
            res = HARNESS_ERROR;
            msg = xasprintf("partial: %s", cdb_text(st, 10));
        } else if (!strcmp(status, "done")) {
            res = HARNESS_PASS;
            msg = xstrdup("no forbidden state observed");
        } else if (!strcmp(status, "error")) {
            res = HARNESS_ERROR;
            msg = xstrdup(cdb_text(st, 10));
        } else {
            res = HARNESS_SKIPPED;
            msg = xasprintf("not run yet (%s)", status);
        }
        harness_report_add(rep, cdb_text(st, 0), cls, res, msg, detail, sqlite3_column_double(st, 13));
        free(cls);
        free(msg);
    }
    sqlite3_finalize(st);
    bool ok = harness_report_write(rep, path, d);
    harness_report_free(rep);
    return ok;
}

/* ---- diff ------------------------------------------------------------------ */

/* One side's runs of a test x target x model x options, compilers merged. */
typedef struct side {
    char *key;              /* "test|hash|target|model|options" */
    char *label;            /* "NAME on TARGET (MODEL, OPTIONS)" */
    char *verdict;          /* the worst over compilers: forbidden > partial > error > ok */
    uint64_t iterations, positive;
    char **states;          /* observed, sorted */
    int nstates, capstates;
    bool done;
} side;

typedef struct sides {
    side *v;
    size_t n, cap;
} sides;

static int verdict_rank(const char *v)
{
    /* cc-check's: a bug is as bad as a forbidden state, a refusal as an error */
    return !strcmp(v, "forbidden") || !strcmp(v, "bug") ? 4 : !strcmp(v, "partial") ? 3
           : !strcmp(v, "error") || !strcmp(v, "refused") ? 2
           : !strcmp(v, "ok") || !strcmp(v, "same") || !strcmp(v, "stronger") ? 1 : 0;
}

static side *find_side(sides *s, const char *key)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->v[i].key, key))
            return &s->v[i];
    return NULL;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool load_sides(campaign *c, sides *out, diag *d)
{
    sqlite3_stmt *st = cdb_prepare(c,
        "SELECT t.name, t.hash, g.target, g.model, g.options, r.status, r.verdict, r.iterations, r.positive, r.id"
        " FROM runs r JOIN tests t ON t.id = r.test_id JOIN configs g ON g.id = r.config_id"
        " ORDER BY t.name, t.hash, g.target, g.model, g.options", d);
    sqlite3_stmt *ss = cdb_prepare(c, "SELECT state FROM states WHERE run_id = ?1", d);
    if (!st || !ss) {
        sqlite3_finalize(st);
        sqlite3_finalize(ss);
        return false;
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
        char *key = xasprintf("%s|%s|%s|%s|%s", cdb_text(st, 0), cdb_text(st, 1), cdb_text(st, 2), cdb_text(st, 3), cdb_text(st, 4));
        side *s = find_side(out, key);
        if (!s) {
            side n = {0};
            n.key = key;
            n.label = xasprintf("%s on %s (%s%s%s)", cdb_text(st, 0), cdb_text(st, 2), cdb_text(st, 3), *cdb_text(st, 4) ? ", " : "",
                                cdb_text(st, 4));
            n.verdict = xstrdup("");
            VEC_PUSH(out->v, out->n, out->cap, n);
            s = &out->v[out->n - 1];
        } else
            free(key);
        const char *status = cdb_text(st, 5);
        const char *v = !strcmp(status, "done") ? cdb_text(st, 6) : !strcmp(status, "error") ? "error" : "";
        if (verdict_rank(v) > verdict_rank(s->verdict)) {
            free(s->verdict);
            s->verdict = xstrdup(v);
        }
        if (!strcmp(status, "done")) {
            s->done = true;
            s->iterations += (uint64_t)sqlite3_column_int64(st, 7);
            s->positive += (uint64_t)sqlite3_column_int64(st, 8);
            sqlite3_reset(ss);
            sqlite3_bind_int64(ss, 1, sqlite3_column_int64(st, 9));
            while (sqlite3_step(ss) == SQLITE_ROW) {
                const char *state = cdb_text(ss, 0);
                bool have = false;
                for (int k = 0; k < s->nstates && !have; k++)
                    have = !strcmp(s->states[k], state);
                if (!have)
                    VEC_PUSH(s->states, s->nstates, s->capstates, xstrdup(state));
            }
        }
    }
    sqlite3_finalize(st);
    sqlite3_finalize(ss);
    for (size_t i = 0; i < out->n; i++)
        if (out->v[i].nstates)  /* a cc-check run has no histogram: no array to sort */
            qsort(out->v[i].states, (size_t)out->v[i].nstates, sizeof *out->v[i].states, cmp_str);
    return true;
}

static void free_sides(sides *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->v[i].key);
        free(s->v[i].label);
        free(s->v[i].verdict);
        for (int k = 0; k < s->v[i].nstates; k++)
            free(s->v[i].states[k]);
        free(s->v[i].states);
    }
    free(s->v);
}

static bool has_state(const side *s, const char *state)
{
    for (int k = 0; k < s->nstates; k++)
        if (!strcmp(s->states[k], state))
            return true;
    return false;
}

bool campaign_diff(campaign *a, campaign *b, strbuf *out, int *changes, diag *d)
{
    *changes = 0;
    sides sa = {0}, sb = {0};
    if (!load_sides(a, &sa, d) || !load_sides(b, &sb, d)) {
        free_sides(&sa);
        free_sides(&sb);
        return false;
    }
    for (size_t i = 0; i < sa.n; i++) {
        side *x = &sa.v[i], *y = find_side(&sb, x->key);
        if (!y) {
            sb_printf(out, "only in A: %s\n", x->label);
            ++*changes;
            continue;
        }
        if (!x->done || !y->done) {
            if (x->done != y->done) {
                sb_printf(out, "%s: finished only in %s\n", x->label, x->done ? "A" : "B");
                ++*changes;
            }
            continue;
        }
        if (strcmp(x->verdict, y->verdict)) {
            sb_printf(out, "%s: verdict %s -> %s\n", x->label, x->verdict, y->verdict);
            ++*changes;
        }
        strbuf gained = {0}, lost = {0};
        for (int k = 0; k < y->nstates; k++)
            if (!has_state(x, y->states[k]))
                sb_printf(&gained, " {%s}", y->states[k]);
        for (int k = 0; k < x->nstates; k++)
            if (!has_state(y, x->states[k]))
                sb_printf(&lost, " {%s}", x->states[k]);
        if (gained.len || lost.len) {
            sb_printf(out, "%s: states", x->label);
            if (gained.len)
                sb_printf(out, " + %s", gained.s + 1);
            if (lost.len)
                sb_printf(out, " - %s", lost.s + 1);
            sb_addc(out, '\n');
            ++*changes;
        }
        sb_free(&gained);
        sb_free(&lost);
        double ra = x->iterations ? (double)x->positive / (double)x->iterations : 0;
        double rb = y->iterations ? (double)y->positive / (double)y->iterations : 0;
        bool moved = (ra == 0) != (rb == 0) || (ra > 0 && rb > 0 && (ra / rb >= 2 || rb / ra >= 2));
        if (moved) {
            sb_printf(out, "%s: witness rate %.3g -> %.3g (%llu of %llu -> %llu of %llu)\n", x->label, ra, rb,
                      (unsigned long long)x->positive, (unsigned long long)x->iterations,
                      (unsigned long long)y->positive, (unsigned long long)y->iterations);
            ++*changes;
        }
    }
    for (size_t i = 0; i < sb.n; i++)
        if (!find_side(&sa, sb.v[i].key)) {
            sb_printf(out, "only in B: %s\n", sb.v[i].label);
            ++*changes;
        }
    free_sides(&sa);
    free_sides(&sb);
    return true;
}
