#ifndef LITMUSC_CAMPAIGN_INTERNAL_H
#define LITMUSC_CAMPAIGN_INTERNAL_H
/* Shared by the files of campaign/: the open database and small SQLite
 * helpers that turn failures into diags. */
#include <sqlite3.h>
#include "campaign/campaign.h"

struct campaign {
    sqlite3 *db;
    char *path;
};

/* Worker liveness (campaign/liveness.c): the lock file of the database
 * DBPATH, named by the file's device and inode in the folder it really is
 * in (malloc'd; NULL when DBPATH cannot be resolved), opened (an fd, -1
 * when it cannot be); a worker holds its byte while it runs; alive: 1
 * held, 0 free (the worker is gone), -1 unknown. */
char *cworker_lock_path(const char *dbpath);
int cworker_lock_open(const char *dbpath);
bool cworker_lock_hold(int fd, int64_t worker);
int cworker_alive(int fd, int64_t worker);

/* Run SQL (no rows); false + diag (status 3) naming the statement. */
bool cdb_exec(campaign *c, const char *sql, diag *d);
/* Prepare SQL; NULL + diag. */
sqlite3_stmt *cdb_prepare(campaign *c, const char *sql, diag *d);
/* A step that must end the statement (SQLITE_DONE); false + diag. */
bool cdb_done(campaign *c, sqlite3_stmt *st, diag *d);
/* Delete the states stored for run RUN_ID (before its result is recorded
 * anew); false + diag on a database error. */
bool cdb_clear_states(campaign *c, int64_t run_id, diag *d);
/* The diag for the connection's last error. */
bool cdb_error(campaign *c, const char *what, diag *d);
/* BEGIN IMMEDIATE (waiting for other writers), COMMIT, ROLLBACK. */
bool cdb_begin(campaign *c, diag *d);
bool cdb_commit(campaign *c, diag *d);
void cdb_rollback(campaign *c);
/* The id of the row matching a UNIQUE key, inserting it first if absent:
 * INSERT_SQL inserts (OR IGNORE) the row with the NINS text parameters
 * VALS (NULL binds NULL), SELECT_SQL finds its id with the first N of
 * them.  -1 + diag. */
int64_t cdb_upsert(campaign *c, const char *insert_sql, const char *select_sql, const char *const *vals, int nins,
                   int n, diag *d);
void cdb_bind_text(sqlite3_stmt *st, int i, const char *s);
/* Column I of the current row as text ("" for NULL). */
const char *cdb_text(sqlite3_stmt *st, int i);
/* One integer from a query, or -1 when it fails. */
int64_t cdb_scalar(campaign *c, const char *sql);

/* This machine as a row of `machines`, and this process's row of `workers`. */
int64_t campaign_machine_id(campaign *c, diag *d);

/* Escape S for HTML text and attributes. */
void campaign_html_escape(strbuf *out, const char *s);

/* cc-check runs (campaign/cc_run.c): configuration target
 * CAMPAIGN_CC_TARGET, compiler the compiler's command, options the flag set. */
typedef struct ccrun_job {
    int64_t id;
    const char *name, *path, *source;
    const char *compiler, *model, *cflags;
    double timeout_s;       /* the compiler's time limit (the run option --timeout) */
} ccrun_job;
typedef struct ccrun_outcome {
    bool recorded;          /* its row was written (else: interrupted, give it back) */
    bool interrupted;
    bool bug, failed;       /* a compilation bug; an error (no verdict) */
    bool db_failed;
} ccrun_outcome;
struct model_set;
/* Run job J and record it; false + D for a database failure only. */
bool ccrun_one(campaign *c, const ccrun_job *j, int64_t machine, struct model_set *models, ccrun_outcome *out,
               diag *d);
/* The kind of a refusal MSG, to count refusals by: the words in its
 * closing parentheses ("a call", "compiler not found"), else its last
 * clause with quoted parts elided. */
void ccrun_reason_kind(const char *msg, strbuf *out);

/* The cc-check table as an HTML section (campaign/report_cc.c), nothing
 * when the campaign has no cc-check run. */
bool ccreport_html(campaign *c, strbuf *out, diag *d);

/* SQL: whether run R (an alias) is finished but its stored result does not
 * parse as a JSON object (a damaged database): neither done nor pending. */
#define CDB_CORRUPT(r) \
    "(" r ".status = 'done' AND NOT (CASE WHEN json_valid(" r ".result) THEN json_type(" r ".result) = 'object' " \
    "ELSE 0 END))"

/* Copy the hunt tables of the attached database src into main (nothing
 * when src holds no hunt); inside campaign_merge's transaction. */
bool campaign_hunt_merge(campaign *c, diag *d);
/* The hunt's totals and bugs as an HTML section (nothing when no hunt). */
bool campaign_hunt_html(campaign *c, strbuf *out, diag *d);

#endif
