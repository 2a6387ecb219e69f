/* A compiler bug hunt's tables in a campaign database, beside the
 * campaign's own (created when a hunt first opens the file, so a campaign
 * without a hunt is unchanged): the hunt's parameters, each (test,
 * configuration) finished, each configuration that showed a forbidden
 * state with the very object it was lifted from, and the bugs after
 * reduction.  A batch's rows go in one transaction, so a hunt killed at
 * any moment resumes with nothing repeated and nothing lost. */
#include <stdlib.h>
#include <string.h>
#include "campaign/internal.h"

static const char hunt_schema_sql[] =
    "CREATE TABLE IF NOT EXISTS hunt (key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
    "CREATE TABLE IF NOT EXISTS hunt_runs (k INTEGER NOT NULL, config INTEGER NOT NULL, test TEXT NOT NULL,\n"
    "  verdict TEXT NOT NULL, compiled INTEGER NOT NULL, lifted INTEGER NOT NULL, detail TEXT,\n"
    "  PRIMARY KEY (k, config));\n"
    "CREATE TABLE IF NOT EXISTS hunt_raw_bugs (k INTEGER NOT NULL, config INTEGER NOT NULL,\n"
    "  test TEXT NOT NULL, source TEXT NOT NULL, lifted TEXT NOT NULL, forbidden TEXT NOT NULL,\n"
    "  object BLOB, bug_id TEXT, PRIMARY KEY (k, config));\n"
    "CREATE TABLE IF NOT EXISTS hunt_objects (k INTEGER NOT NULL, config INTEGER NOT NULL,\n"
    "  thread INTEGER NOT NULL, object BLOB NOT NULL, PRIMARY KEY (k, config, thread));\n"
    "CREATE TABLE IF NOT EXISTS hunt_bugs (id TEXT PRIMARY KEY, k INTEGER NOT NULL, config INTEGER NOT NULL,\n"
    "  compiler TEXT NOT NULL, cflags TEXT NOT NULL, test TEXT NOT NULL, forbidden TEXT NOT NULL,\n"
    "  culprit TEXT NOT NULL, hardware TEXT NOT NULL, instances INTEGER NOT NULL, json TEXT NOT NULL);\n";

bool campaign_hunt_init(campaign *c, const char *params, diag *d)
{
    if (!cdb_exec(c, hunt_schema_sql, d))
        return false;
    sqlite3_stmt *st = cdb_prepare(c, "SELECT value FROM hunt WHERE key = 'params'", d);
    if (!st)
        return false;
    char *have = sqlite3_step(st) == SQLITE_ROW ? xstrdup(cdb_text(st, 0)) : NULL;
    sqlite3_finalize(st);
    if (have) {
        bool same = !strcmp(have, params);
        if (!same)
            diag_error(d, c->path, 0, 0, "holds a hunt of other parameters (%s), not %s: use another folder",
                       have, params);
        free(have);
        return same;
    }
    st = cdb_prepare(c, "INSERT INTO hunt (key, value) VALUES ('params', ?1)", d);
    if (!st)
        return false;
    cdb_bind_text(st, 1, params);
    bool ok = cdb_done(c, st, d);
    sqlite3_finalize(st);
    return ok;
}

bool campaign_hunt_done_tests(campaign *c, int nconfigs, long **ks, int *n, diag *d)
{
    *ks = NULL, *n = 0;
    sqlite3_stmt *st = cdb_prepare(c, "SELECT k FROM hunt_runs GROUP BY k HAVING count(*) >= ?1 ORDER BY k", d);
    if (!st)
        return false;
    sqlite3_bind_int(st, 1, nconfigs);
    size_t cap = 0, len = 0;
    while (sqlite3_step(st) == SQLITE_ROW)
        VEC_PUSH(*ks, len, cap, (long)sqlite3_column_int64(st, 0));
    sqlite3_finalize(st);
    *n = (int)len;
    return true;
}

/* One row, and its raw bug when it has one (with a mix's objects, one a
 * thread, in OBJ). */
static bool put_row(campaign *c, sqlite3_stmt *run, sqlite3_stmt *raw, sqlite3_stmt *obj, const campaign_hunt_row *r,
                    diag *d)
{
    sqlite3_reset(run);
    sqlite3_bind_int64(run, 1, r->k);
    sqlite3_bind_int(run, 2, r->config);
    cdb_bind_text(run, 3, r->test);
    cdb_bind_text(run, 4, r->verdict);
    sqlite3_bind_int(run, 5, r->compiled);
    sqlite3_bind_int(run, 6, r->lifted);
    cdb_bind_text(run, 7, r->detail);
    if (!cdb_done(c, run, d))
        return false;
    if (!r->forbidden)
        return true;
    sqlite3_reset(raw);
    sqlite3_bind_int64(raw, 1, r->k);
    sqlite3_bind_int(raw, 2, r->config);
    cdb_bind_text(raw, 3, r->test);
    cdb_bind_text(raw, 4, r->source);
    cdb_bind_text(raw, 5, r->lifted_text);
    cdb_bind_text(raw, 6, r->forbidden);
    if (r->object)
        sqlite3_bind_blob(raw, 7, r->object, (int)r->object_size, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(raw, 7);
    if (!cdb_done(c, raw, d))
        return false;
    for (int n = 0; n < r->nthread_objects; n++) {
        sqlite3_reset(obj);
        sqlite3_bind_int64(obj, 1, r->k);
        sqlite3_bind_int(obj, 2, r->config);
        sqlite3_bind_int(obj, 3, n);
        sqlite3_bind_blob(obj, 4, r->thread_objects[n] ? (const void *)r->thread_objects[n] : "",
                          (int)r->thread_sizes[n], SQLITE_TRANSIENT);
        if (!cdb_done(c, obj, d))
            return false;
    }
    return true;
}

bool campaign_hunt_record(campaign *c, const campaign_hunt_row *rows, int n, diag *d)
{
    if (!cdb_begin(c, d))
        return false;
    sqlite3_stmt *run = cdb_prepare(c, "INSERT OR IGNORE INTO hunt_runs (k, config, test, verdict, compiled, "
                                       "lifted, detail) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", d);
    sqlite3_stmt *raw = run ? cdb_prepare(c, "INSERT OR IGNORE INTO hunt_raw_bugs (k, config, test, source, "
                                             "lifted, forbidden, object) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", d)
                            : NULL;
    sqlite3_stmt *obj = raw ? cdb_prepare(c, "INSERT OR IGNORE INTO hunt_objects (k, config, thread, object) "
                                             "VALUES (?1, ?2, ?3, ?4)", d) : NULL;
    bool ok = run && raw && obj;
    for (int i = 0; ok && i < n; i++)
        ok = put_row(c, run, raw, obj, &rows[i], d);
    sqlite3_finalize(run);
    sqlite3_finalize(raw);
    sqlite3_finalize(obj);
    if (ok)
        return cdb_commit(c, d);
    cdb_rollback(c);
    return false;
}

bool campaign_hunt_count(campaign *c, campaign_hunt_totals *t, diag *d)
{
    memset(t, 0, sizeof *t);
    sqlite3_stmt *st = cdb_prepare(c, "SELECT count(DISTINCT k), count(*), coalesce(sum(compiled), 0), "
                                      "coalesce(sum(lifted), 0), coalesce(sum(verdict = 'refused'), 0), "
                                      "coalesce(sum(verdict = 'bug'), 0) FROM hunt_runs", d);
    if (!st)
        return false;
    if (sqlite3_step(st) == SQLITE_ROW) {
        t->tests = sqlite3_column_int64(st, 0);
        t->configs = sqlite3_column_int64(st, 1);
        t->compiled = sqlite3_column_int64(st, 2);
        t->lifted = sqlite3_column_int64(st, 3);
        t->refused = sqlite3_column_int64(st, 4);
        t->raw_bugs = sqlite3_column_int64(st, 5);
    }
    sqlite3_finalize(st);
    return true;
}

bool campaign_hunt_raw_list(campaign *c, campaign_hunt_raw **out, int *n, diag *d)
{
    *out = NULL, *n = 0;
    sqlite3_stmt *st = cdb_prepare(c, "SELECT k, config, test, source, lifted, forbidden, object, "
                                      "coalesce(bug_id, '') FROM hunt_raw_bugs ORDER BY k, config", d);
    if (!st)
        return false;
    size_t cap = 0, len = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        campaign_hunt_raw r = {.k = sqlite3_column_int64(st, 0), .config = sqlite3_column_int(st, 1),
                               .test = xstrdup(cdb_text(st, 2)), .source = xstrdup(cdb_text(st, 3)),
                               .lifted = xstrdup(cdb_text(st, 4)), .forbidden = xstrdup(cdb_text(st, 5)),
                               .bug_id = xstrdup(cdb_text(st, 7))};
        r.object_size = (size_t)sqlite3_column_bytes(st, 6);
        r.object = xmalloc(r.object_size + 1);
        if (r.object_size)
            memcpy(r.object, sqlite3_column_blob(st, 6), r.object_size);
        VEC_PUSH(*out, len, cap, r);
    }
    sqlite3_finalize(st);
    *n = (int)len;
    /* a mix's objects, one a thread */
    st = cdb_prepare(c, "SELECT object FROM hunt_objects WHERE k = ?1 AND config = ?2 ORDER BY thread", d);
    for (int i = 0; st && i < *n; i++) {
        campaign_hunt_raw *r = &(*out)[i];
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, r->k);
        sqlite3_bind_int(st, 2, r->config);
        while (sqlite3_step(st) == SQLITE_ROW) {
            size_t sz = (size_t)sqlite3_column_bytes(st, 0);
            unsigned char *b = xmalloc(sz + 1);
            if (sz)
                memcpy(b, sqlite3_column_blob(st, 0), sz);
            r->thread_objects = xrealloc(r->thread_objects, sizeof *r->thread_objects * (size_t)(r->nthread_objects + 1));
            r->thread_sizes = xrealloc(r->thread_sizes, sizeof *r->thread_sizes * (size_t)(r->nthread_objects + 1));
            r->thread_objects[r->nthread_objects] = b;
            r->thread_sizes[r->nthread_objects++] = sz;
        }
    }
    sqlite3_finalize(st);
    return st != NULL || !*n;
}

void campaign_hunt_raw_free(campaign_hunt_raw *r, int n)
{
    for (int i = 0; i < n; i++) {
        free(r[i].test), free(r[i].source), free(r[i].lifted), free(r[i].forbidden);
        free(r[i].object), free(r[i].bug_id);
        for (int t = 0; t < r[i].nthread_objects; t++)
            free(r[i].thread_objects[t]);
        free(r[i].thread_objects), free(r[i].thread_sizes);
    }
    free(r);
}

bool campaign_hunt_bug_put(campaign *c, const campaign_hunt_bug *b, diag *d)
{
    if (!cdb_begin(c, d))
        return false;
    sqlite3_stmt *st = cdb_prepare(c, "INSERT INTO hunt_bugs (id, k, config, compiler, cflags, test, forbidden, "
                                      "culprit, hardware, instances, json) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
                                      "?9, 1, ?10) ON CONFLICT (id) DO UPDATE SET instances = instances + 1", d);
    bool ok = st != NULL;
    if (ok) {
        cdb_bind_text(st, 1, b->id);
        sqlite3_bind_int64(st, 2, b->k);
        sqlite3_bind_int(st, 3, b->config);
        cdb_bind_text(st, 4, b->compiler);
        cdb_bind_text(st, 5, b->cflags);
        cdb_bind_text(st, 6, b->test);
        cdb_bind_text(st, 7, b->forbidden);
        cdb_bind_text(st, 8, b->culprit);
        cdb_bind_text(st, 9, b->hardware);
        cdb_bind_text(st, 10, b->json);
        ok = cdb_done(c, st, d);
        sqlite3_finalize(st);
    }
    /* each raw bug it covers points at it, so a resume does not redo them */
    st = ok ? cdb_prepare(c, "UPDATE hunt_raw_bugs SET bug_id = ?1 WHERE k = ?2 AND config = ?3", d) : NULL;
    for (int i = 0; st && ok && i < b->ncovers; i++) {
        sqlite3_reset(st);
        cdb_bind_text(st, 1, b->id);
        sqlite3_bind_int64(st, 2, b->covers_k[i]);
        sqlite3_bind_int(st, 3, b->covers_config[i]);
        ok = cdb_done(c, st, d);
    }
    sqlite3_finalize(st);
    ok = ok && st;
    if (ok)
        return cdb_commit(c, d);
    cdb_rollback(c);
    return false;
}

bool campaign_hunt_bug_list(campaign *c, char ***ids, char ***jsons, int **instances, int *n, diag *d)
{
    *ids = NULL, *jsons = NULL, *instances = NULL, *n = 0;
    if (cdb_scalar(c, "SELECT count(*) FROM sqlite_master WHERE name = 'hunt_bugs'") != 1)
        return true;
    sqlite3_stmt *st = cdb_prepare(c, "SELECT id, json, instances FROM hunt_bugs ORDER BY k, config", d);
    if (!st)
        return false;
    size_t c1 = 0, c2 = 0, c3 = 0, l1 = 0, l2 = 0, l3 = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        VEC_PUSH(*ids, l1, c1, xstrdup(cdb_text(st, 0)));
        VEC_PUSH(*jsons, l2, c2, xstrdup(cdb_text(st, 1)));
        VEC_PUSH(*instances, l3, c3, sqlite3_column_int(st, 2));
    }
    sqlite3_finalize(st);
    *n = (int)l1;
    return true;
}

bool campaign_hunt_merge(campaign *c, diag *d)
{
    if (cdb_scalar(c, "SELECT count(*) FROM src.sqlite_master WHERE name = 'hunt_runs'") != 1)
        return true;    /* the other file holds no hunt */
    if (!cdb_exec(c, hunt_schema_sql, d))
        return false;
    return cdb_exec(c,
                    "INSERT OR IGNORE INTO main.hunt SELECT * FROM src.hunt;"
                    "INSERT OR IGNORE INTO main.hunt_runs SELECT * FROM src.hunt_runs;"
                    "INSERT OR IGNORE INTO main.hunt_raw_bugs SELECT * FROM src.hunt_raw_bugs;"
                    "INSERT OR IGNORE INTO main.hunt_objects SELECT * FROM src.hunt_objects;"
                    "INSERT OR IGNORE INTO main.hunt_bugs SELECT * FROM src.hunt_bugs;", d);
}

bool campaign_hunt_html(campaign *c, strbuf *out, diag *d)
{
    if (cdb_scalar(c, "SELECT count(*) FROM sqlite_master WHERE name = 'hunt_bugs'") != 1)
        return true;
    campaign_hunt_totals t;
    if (!campaign_hunt_count(c, &t, d))
        return false;
    sqlite3_stmt *st = cdb_prepare(c, "SELECT id, compiler, test, forbidden, culprit, hardware, instances "
                                      "FROM hunt_bugs ORDER BY k, config", d);
    if (!st)
        return false;
    sb_printf(out, "<section id=\"bugs\"><h2>Bugs</h2><p>A compiler bug hunt: %ld tests, %ld configurations "
                   "(%ld compiled, %ld lifted, %ld refused), %ld showed a state the source forbids.</p>\n"
                   "<table id=\"hunt-bugs\"><thead><tr><th>bug</th><th>configuration</th><th>test</th>"
                   "<th>forbidden state</th><th>culprit</th><th>hardware</th><th class=\"num\">instances</th>"
                   "</tr></thead><tbody>\n",
              t.tests, t.configs, t.compiled, t.lifted, t.refused, t.raw_bugs);
    int n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        sb_add(out, "<tr>");
        for (int i = 0; i < 6; i++) {
            sb_add(out, "<td>");
            campaign_html_escape(out, cdb_text(st, i));
            sb_add(out, "</td>");
        }
        sb_printf(out, "<td class=\"num\">%d</td></tr>\n", sqlite3_column_int(st, 6));
        n++;
    }
    sqlite3_finalize(st);
    sb_printf(out, "</tbody></table>%s</section>\n", n ? "" : "<p>No bug.</p>");
    return true;
}
