/* Merging campaign databases (shards, or campaigns run elsewhere): the
 * other file is attached and its finished runs are copied in SQL, tests,
 * configurations and machines matched by their unique keys, in one
 * transaction.  A run this database has finished already is kept, so
 * merging the same shard twice adds nothing; a run the other file has not
 * finished is added as pending (if it is new here), so resuming the merged
 * campaign completes it. */
#include <string.h>
#include <sys/stat.h>
#include "campaign/internal.h"

static const char merge_sql[] =
    "INSERT OR IGNORE INTO main.tests (name, hash, arch, path, source)"
    "  SELECT name, hash, arch, path, source FROM src.tests;"
    "INSERT OR IGNORE INTO main.configs (target, compiler, model, options)"
    "  SELECT target, compiler, model, options FROM src.configs;"
    "INSERT OR IGNORE INTO main.machines (host, cpu, cores, os) SELECT host, cpu, cores, os FROM src.machines;"
    "CREATE TEMP TABLE merge_new AS SELECT key FROM src.runs WHERE status = 'done'"
    "  AND key NOT IN (SELECT key FROM main.runs WHERE status = 'done');"
    /* unfinished copies here give way to the finished ones */
    "DELETE FROM main.runs WHERE key IN (SELECT key FROM merge_new);"
    "INSERT INTO main.runs (key, test_id, config_id, status, machine_id, started, finished, verdict, model_name,"
    "  observation, iterations, seconds, build_seconds, positive, negative, allowed_states, seen_allowed,"
    "  forbidden_states, forbidden_count, message, result)"
    "  SELECT s.key, mt.id, mc.id, 'done', mm.id, s.started, s.finished, s.verdict, s.model_name, s.observation,"
    "    s.iterations, s.seconds, s.build_seconds, s.positive, s.negative, s.allowed_states, s.seen_allowed,"
    "    s.forbidden_states, s.forbidden_count, s.message, s.result"
    "  FROM src.runs s JOIN src.tests st ON st.id = s.test_id"
    "    JOIN main.tests mt ON mt.name = st.name AND mt.hash = st.hash"
    "    JOIN src.configs sc ON sc.id = s.config_id"
    "    JOIN main.configs mc ON mc.target = sc.target AND mc.compiler = sc.compiler AND mc.model = sc.model"
    "      AND mc.options = sc.options"
    "    LEFT JOIN src.machines sm ON sm.id = s.machine_id"
    "    LEFT JOIN main.machines mm ON mm.host = sm.host AND mm.cpu = sm.cpu AND mm.cores = sm.cores AND mm.os = sm.os"
    "  WHERE s.key IN (SELECT key FROM merge_new);"
    "INSERT INTO main.states (run_id, state, count, allowed, condition)"
    "  SELECT mr.id, ss.state, ss.count, ss.allowed, ss.condition"
    "  FROM src.states ss JOIN src.runs sr ON sr.id = ss.run_id JOIN main.runs mr ON mr.key = sr.key"
    "  WHERE sr.key IN (SELECT key FROM merge_new);"
    "INSERT OR IGNORE INTO main.model_states (test_id, model, state, condition)"
    "  SELECT mt.id, sm.model, sm.state, sm.condition FROM src.model_states sm"
    "  JOIN src.tests st ON st.id = sm.test_id JOIN main.tests mt ON mt.name = st.name AND mt.hash = st.hash;"
    "INSERT OR IGNORE INTO main.runs (key, test_id, config_id, status)"
    "  SELECT s.key, mt.id, mc.id, 'pending'"
    "  FROM src.runs s JOIN src.tests st ON st.id = s.test_id"
    "    JOIN main.tests mt ON mt.name = st.name AND mt.hash = st.hash"
    "    JOIN src.configs sc ON sc.id = s.config_id"
    "    JOIN main.configs mc ON mc.target = sc.target AND mc.compiler = sc.compiler AND mc.model = sc.model"
    "      AND mc.options = sc.options"
    "  WHERE s.status != 'done';";

bool campaign_merge(campaign *c, const char *in_path, campaign_merge_stats *st, diag *d)
{
    memset(st, 0, sizeof *st);
    /* the same file under any name (itself, a link) would wait for its own
     * write lock ("database is locked"): bad input, said as such */
    struct stat a_st, b_st;
    if (stat(c->path, &a_st) == 0 && stat(in_path, &b_st) == 0 && a_st.st_dev == b_st.st_dev &&
        a_st.st_ino == b_st.st_ino)
        return diag_error(d, in_path, 0, 0, "the same database as %s: nothing to merge", c->path);
    /* the other file must be a campaign of our schema, and not this one */
    campaign *in = campaign_open(in_path, false, d);
    if (!in)
        return false;
    campaign_close(in);
    sqlite3_stmt *a = cdb_prepare(c, "ATTACH DATABASE ?1 AS src", d);
    if (!a)
        return false;
    cdb_bind_text(a, 1, in_path);
    bool ok = cdb_done(c, a, d);
    sqlite3_finalize(a);
    if (!ok)
        return false;
    int64_t src_done = cdb_scalar(c, "SELECT count(*) FROM src.runs WHERE status = 'done'");
    int64_t src_rest = cdb_scalar(c, "SELECT count(*) FROM src.runs WHERE status != 'done'");
    ok = cdb_begin(c, d);
    if (ok) {
        ok = cdb_exec(c, merge_sql, d) && campaign_hunt_merge(c, d);
        int64_t added = ok ? cdb_scalar(c, "SELECT count(*) FROM merge_new") : 0;
        if (ok) {
            st->added = (int)added;
            st->already = (int)(src_done - added);
            st->unfinished = (int)src_rest;
        }
        ok = ok && cdb_exec(c, "DROP TABLE merge_new", d);
        if (ok)
            ok = cdb_commit(c, d);
        else
            cdb_rollback(c);
    }
    diag dd = {0};
    cdb_exec(c, "DETACH DATABASE src", ok ? d : &dd);
    return ok;
}
