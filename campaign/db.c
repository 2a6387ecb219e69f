/* The campaign database: its schema, opening a file safely, and the small
 * SQLite helpers the rest of campaign/ uses.
 *
 * Opening never damages a file that is not ours: SQLite is opened
 * read-write without create, the header is read (a foreign file fails
 * there), SQLite's quick integrity check runs, and only a database with
 * no tables at all (a new or empty file) gets the schema. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "campaign/internal.h"
#include "harness/harness.h"
#include "util/md5.h"
#include "util/utf8.h"

/* The schema, as the README documents it. */
static const char schema_sql[] =
    "CREATE TABLE campaign (key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
    "CREATE TABLE machines (id INTEGER PRIMARY KEY, host TEXT NOT NULL, cpu TEXT NOT NULL,\n"
    "  cores INTEGER NOT NULL, os TEXT NOT NULL, UNIQUE (host, cpu, cores, os));\n"
    "CREATE TABLE tests (id INTEGER PRIMARY KEY, name TEXT NOT NULL, hash TEXT NOT NULL,\n"
    "  arch TEXT NOT NULL, path TEXT NOT NULL, source TEXT NOT NULL, UNIQUE (name, hash));\n"
    "CREATE TABLE configs (id INTEGER PRIMARY KEY, target TEXT NOT NULL, compiler TEXT NOT NULL,\n"
    "  model TEXT NOT NULL, options TEXT NOT NULL, UNIQUE (target, compiler, model, options));\n"
    "CREATE TABLE workers (id INTEGER PRIMARY KEY, host TEXT NOT NULL, pid INTEGER NOT NULL,\n"
    "  started REAL NOT NULL);\n"
    "CREATE TABLE runs (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE,\n"
    "  test_id INTEGER NOT NULL REFERENCES tests(id), config_id INTEGER NOT NULL REFERENCES configs(id),\n"
    "  status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'done', 'error')),\n"
    "  worker_id INTEGER REFERENCES workers(id), machine_id INTEGER REFERENCES machines(id),\n"
    "  started REAL, finished REAL, verdict TEXT, model_name TEXT, observation TEXT,\n"
    "  iterations INTEGER, seconds REAL, build_seconds REAL, positive INTEGER, negative INTEGER,\n"
    "  allowed_states INTEGER, seen_allowed INTEGER, forbidden_states INTEGER, forbidden_count INTEGER,\n"
    "  message TEXT, result TEXT);\n"
    "CREATE INDEX runs_by_status ON runs (status);\n"
    "CREATE TABLE states (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  state TEXT NOT NULL, count INTEGER NOT NULL, allowed INTEGER NOT NULL, condition INTEGER NOT NULL,\n"
    "  PRIMARY KEY (run_id, state));\n"
    "CREATE TABLE model_states (test_id INTEGER NOT NULL REFERENCES tests(id), model TEXT NOT NULL,\n"
    "  state TEXT NOT NULL, condition INTEGER NOT NULL, PRIMARY KEY (test_id, model, state));\n";

bool cdb_error(campaign *c, const char *what, diag *d)
{
    return diag_fail(d, "%s: %s: %s", c->path, what, sqlite3_errmsg(c->db));
}

bool cdb_exec(campaign *c, const char *sql, diag *d)
{
    char *err = NULL;
    if (sqlite3_exec(c->db, sql, NULL, NULL, &err) == SQLITE_OK)
        return true;
    diag_fail(d, "%s: %s", c->path, err ? err : sqlite3_errmsg(c->db));
    sqlite3_free(err);
    return false;
}

sqlite3_stmt *cdb_prepare(campaign *c, const char *sql, diag *d)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK) {
        cdb_error(c, "preparing a query", d);
        return NULL;
    }
    return st;
}

bool cdb_done(campaign *c, sqlite3_stmt *st, diag *d)
{
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE || rc == SQLITE_ROW)
        return true;
    return cdb_error(c, "writing", d);
}

bool cdb_clear_states(campaign *c, int64_t run_id, diag *d)
{
    sqlite3_stmt *del = cdb_prepare(c, "DELETE FROM states WHERE run_id = ?1", d);
    if (!del)
        return false;
    sqlite3_bind_int64(del, 1, run_id);
    bool ok = cdb_done(c, del, d);
    sqlite3_finalize(del);
    return ok;
}

bool cdb_begin(campaign *c, diag *d)
{
    return cdb_exec(c, "BEGIN IMMEDIATE", d);
}

bool cdb_commit(campaign *c, diag *d)
{
    return cdb_exec(c, "COMMIT", d);
}

void cdb_rollback(campaign *c)
{
    sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
}

const char *cdb_text(sqlite3_stmt *st, int i)
{
    const unsigned char *s = sqlite3_column_text(st, i);
    return s ? (const char *)s : "";
}

void cdb_bind_text(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

int64_t cdb_upsert(campaign *c, const char *insert_sql, const char *select_sql, const char *const *vals, int nins,
                   int n, diag *d)
{
    sqlite3_stmt *ins = cdb_prepare(c, insert_sql, d);
    if (!ins)
        return -1;
    for (int i = 0; i < nins; i++)
        cdb_bind_text(ins, i + 1, vals[i]);
    bool ok = cdb_done(c, ins, d);
    sqlite3_finalize(ins);
    if (!ok)
        return -1;
    sqlite3_stmt *sel = cdb_prepare(c, select_sql, d);
    if (!sel)
        return -1;
    for (int i = 0; i < n; i++)
        cdb_bind_text(sel, i + 1, vals[i]);
    int64_t id = -1;
    if (sqlite3_step(sel) == SQLITE_ROW)
        id = sqlite3_column_int64(sel, 0);
    else
        cdb_error(c, "finding a row just written", d);
    sqlite3_finalize(sel);
    return id;
}

int64_t cdb_scalar(campaign *c, const char *sql)
{
    sqlite3_stmt *st = NULL;
    int64_t v = -1;
    if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* An existing file: is it ours, whole, and of our schema? */
static bool check_existing(campaign *c, diag *d)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(c->db, "PRAGMA quick_check", -1, &st, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT) {
        sqlite3_finalize(st);
        return diag_error(d, c->path, 0, 0, "not a litmusc campaign database: %s",
                          rc == SQLITE_NOTADB ? "not an SQLite database" : "the database is corrupted");
    }
    if (rc != SQLITE_ROW) {
        sqlite3_finalize(st);
        return diag_error(d, c->path, 0, 0, "cannot read the database: %s", sqlite3_errmsg(c->db));
    }
    const char *res = (const char *)sqlite3_column_text(st, 0);
    bool healthy = res && !strcmp(res, "ok");
    char first[160];
    snprintf(first, sizeof first, "%s", res ? res : "");
    sqlite3_finalize(st);
    if (!healthy)
        return diag_error(d, c->path, 0, 0, "the campaign database is corrupted (SQLite says: %s)", first);
    if (cdb_scalar(c, "SELECT count(*) FROM sqlite_master") == 0)
        return true;    /* empty: the caller may create */
    if (cdb_scalar(c, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'campaign'") != 1)
        return diag_error(d, c->path, 0, 0, "not a litmusc campaign database (an SQLite database of "
                          "something else: it has no campaign table)");
    st = NULL;
    char schema[64] = "";
    if (sqlite3_prepare_v2(c->db, "SELECT value FROM campaign WHERE key = 'schema'", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        snprintf(schema, sizeof schema, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    if (strcmp(schema, CAMPAIGN_SCHEMA))
        return diag_error(d, c->path, 0, 0, "campaign database of schema '%s', this litmusc reads '%s'",
                          schema, CAMPAIGN_SCHEMA);
    return true;
}

/* WAL lets readers and the writer go on together.  Switching to it takes
 * the database for a moment, which another process opening the same file
 * may hold: wait for it. */
static bool set_wal(campaign *c, diag *d)
{
    for (int tries = 0; tries < 600; tries++) {
        sqlite3_stmt *st = NULL;
        int rc = sqlite3_prepare_v2(c->db, "PRAGMA journal_mode = WAL", -1, &st, NULL);
        if (rc == SQLITE_OK)
            rc = sqlite3_step(st);
        sqlite3_finalize(st);
        if (rc == SQLITE_ROW || rc == SQLITE_DONE)
            return true;
        if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
            return cdb_error(c, "switching to WAL mode", d);
        usleep(50000);
    }
    return cdb_error(c, "switching to WAL mode", d);
}

/* Another process may be creating the same new file: the schema goes in
 * under an exclusive lock, if it is still not there. */
static bool create_schema(campaign *c, diag *d)
{
    if (!cdb_exec(c, "BEGIN EXCLUSIVE", d))
        return false;
    if (cdb_scalar(c, "SELECT count(*) FROM sqlite_master") != 0) {
        cdb_rollback(c);
        return check_existing(c, d);
    }
    char created[64];
    time_t now = time(NULL);
    strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    bool ok = cdb_exec(c, schema_sql, d);
    sqlite3_stmt *st = ok ? cdb_prepare(c, "INSERT INTO campaign (key, value) VALUES ('schema', ?1), "
                                           "('created', ?2)", d) : NULL;
    if (st) {
        cdb_bind_text(st, 1, CAMPAIGN_SCHEMA);
        cdb_bind_text(st, 2, created);
        ok = cdb_done(c, st, d);
        sqlite3_finalize(st);
    } else
        ok = false;
    if (ok)
        return cdb_commit(c, d);
    cdb_rollback(c);
    return false;
}

/* Whether PATH and its folder can both be written. */
static bool writable(const char *path)
{
    if (access(path, W_OK) != 0)
        return false;
    char *dir = xstrdup(path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        strcpy(dir, ".");
    else if (slash == dir)
        dir[1] = 0;
    else
        *slash = 0;
    bool ok = access(dir, W_OK) == 0;
    free(dir);
    return ok;
}

/* "file:PATH?immutable=1", PATH percent-encoded where a URI needs it. */
static char *immutable_uri(const char *path)
{
    strbuf b = {0};
    sb_add(&b, "file:");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (*p == '%' || *p == '?' || *p == '#' || *p <= ' ' || *p >= 0x7f)
            sb_printf(&b, "%%%02X", *p);
        else
            sb_addc(&b, (char)*p);
    }
    sb_add(&b, "?immutable=1");
    return b.s;
}

campaign *campaign_open(const char *path, bool create, diag *d)
{
    struct stat sb;
    bool exists = stat(path, &sb) == 0;
    if (exists && !S_ISREG(sb.st_mode)) {
        diag_error(d, path, 0, 0, "not a litmusc campaign database: not a regular file");
        return NULL;
    }
    if (!exists && !create) {
        diag_error(d, path, 0, 0, "no such campaign database");
        return NULL;
    }
    campaign *c = xcalloc(1, sizeof *c);
    c->path = xstrdup(path);
    /* A database that cannot be written (its file or its folder, where WAL
     * needs its -shm file) is opened read-only and immutable, so that a
     * report still works; nobody can be writing to it then. */
    bool readonly = exists && !create && !writable(path);
    int flags = readonly ? SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
                         : SQLITE_OPEN_READWRITE | (exists ? 0 : SQLITE_OPEN_CREATE);
    char *uri = readonly ? immutable_uri(path) : NULL;
    int orc = sqlite3_open_v2(uri ? uri : path, &c->db, flags, NULL);
    free(uri);
    if (orc != SQLITE_OK) {
        diag_fail(d, "%s: cannot open: %s", path, c->db ? sqlite3_errmsg(c->db) : "out of memory");
        campaign_close(c);
        return NULL;
    }
    sqlite3_busy_timeout(c->db, 30000);
    sqlite3_extended_result_codes(c->db, 0);
    if (exists && !check_existing(c, d)) {
        campaign_close(c);
        return NULL;
    }
    bool empty = cdb_scalar(c, "SELECT count(*) FROM sqlite_master") == 0;
    if (empty && !create) {
        diag_error(d, path, 0, 0, "an empty file, not a campaign database");
        campaign_close(c);
        return NULL;
    }
    if (readonly)
        return c;
    if ((empty && !create_schema(c, d)) || !set_wal(c, d) ||
        !cdb_exec(c, "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL", d)) {
        /* the file stays: another process may be opening it too */
        campaign_close(c);
        return NULL;
    }
    return c;
}

void campaign_close(campaign *c)
{
    if (!c)
        return;
    if (c->db)
        sqlite3_close(c->db);
    free(c->path);
    free(c);
}

const char *campaign_path(const campaign *c)
{
    return c->path;
}

int64_t campaign_machine_id(campaign *c, diag *d)
{
    harness_runinfo ri;
    harness_machine(&ri);
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    struct utsname u;
    char os[200] = "";
    if (uname(&u) == 0)
        snprintf(os, sizeof os, "%s %s %s", u.sysname, u.release, u.machine);
    char cores[16];
    snprintf(cores, sizeof cores, "%d", ri.cores);
    const char *vals[] = {host, ri.cpu, cores, os};
    return cdb_upsert(c, "INSERT OR IGNORE INTO machines (host, cpu, cores, os) VALUES (?1, ?2, ?3, ?4)",
                      "SELECT id FROM machines WHERE host = ?1 AND cpu = ?2 AND cores = ?3 AND os = ?4", vals, 4,
                      4, d);
}

int campaign_shard_of(const char *key, int nshards)
{
    unsigned char dig[16];
    md5(key, strlen(key), dig);
    uint64_t h = 0;
    for (int i = 0; i < 8; i++)
        h = h << 8 | dig[i];
    return nshards > 1 ? (int)(h % (uint64_t)nshards) + 1 : 1;
}

char *campaign_shard_path(const char *db, int shard, int nshards)
{
    return xasprintf("%s.shard-%d-of-%d", db, shard, nshards);
}

char *campaign_shell_words(char *const *args)
{
    strbuf b = {0};
    for (int i = 0; args[i]; i++) {
        if (i)
            sb_addc(&b, ' ');
        bool plain = *args[i] != '\0';
        for (const char *p = args[i]; *p; p++)
            plain &= (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                     strchr("-_./=:,+@%", *p) != NULL;
        if (plain) {
            sb_add(&b, args[i]);
            continue;
        }
        sb_addc(&b, '\'');
        for (const char *p = args[i]; *p; p++) {
            if (*p == '\'')
                sb_add(&b, "'\\''");
            else
                sb_addc(&b, *p);
        }
        sb_addc(&b, '\'');
    }
    return sb_take(&b);
}

void campaign_html_escape(strbuf *out, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': sb_add(out, "&lt;"); break;
        case '>': sb_add(out, "&gt;"); break;
        case '&': sb_add(out, "&amp;"); break;
        case '"': sb_add(out, "&quot;"); break;
        case '\'': sb_add(out, "&#39;"); break;
        case '\n': case '\t': sb_addc(out, *s); break;
        default: {
            /* control bytes and bytes outside valid UTF-8 (from a path or
             * a compiler's message) show as U+FFFD, never raw */
            const unsigned char *p = (const unsigned char *)s;
            size_t n = *p < 0x20 || *p == 0x7f ? 0 : utf8_seq_len(p);
            if (n == 0) {
                sb_add(out, "&#xfffd;");
                break;
            }
            for (size_t i = 0; i < n; i++)
                sb_addc(out, (char)p[i]);
            s += n - 1;
        }
        }
    }
}
