/* The cc-check table of a campaign: per compiler, flag set and source
 * model, how many tests compiled, lifted, came out the same, stronger, a
 * bug or refused (refusals counted by kind, each bug with its test and
 * state).  It reads the runs' columns (the reason is the message) and the
 * "cc_check" object of their stored results (SQLite's JSON functions), so
 * it needs nothing the schema did not have; a result that does not parse
 * counts as corrupt. */
#include <stdlib.h>
#include <string.h>
#include "campaign/internal.h"

static const char table_sql[] =
    "SELECT g.compiler, g.options, g.model, r.status, coalesce(r.verdict, ''), " CDB_CORRUPT("r") ","
    "  CASE WHEN r.status = 'done' AND json_valid(r.result) THEN json_extract(r.result, '$.cc_check.compiled') END,"
    "  CASE WHEN r.status = 'done' AND json_valid(r.result) THEN json_extract(r.result, '$.cc_check.lifted') END,"
    "  coalesce(r.message, ''),"
    "  t.name, r.result"
    " FROM runs r JOIN tests t ON t.id = r.test_id JOIN configs g ON g.id = r.config_id"
    " WHERE g.target = '" CAMPAIGN_CC_TARGET "'"
    " ORDER BY g.compiler, g.options, g.model, t.name, t.hash";

static void count(campaign_cc_count **v, int *n, const char *what)
{
    for (int i = 0; i < *n; i++)
        if (!strcmp((*v)[i].what, what)) {
            (*v)[i].count++;
            return;
        }
    *v = xrealloc(*v, (size_t)(*n + 1) * sizeof **v);
    (*v)[(*n)++] = (campaign_cc_count){xstrdup(what), 1};
}

static int by_count(const void *a, const void *b)
{
    const campaign_cc_count *x = a, *y = b;
    return x->count != y->count ? y->count - x->count : strcmp(x->what, y->what);
}

/* The bug states of a run's RESULT, each as "TEST: STATE". */
static void add_bugs(sqlite3_stmt *each, const char *test, const char *result, campaign_cc_row *row)
{
    sqlite3_reset(each);
    cdb_bind_text(each, 1, result);
    while (sqlite3_step(each) == SQLITE_ROW) {
        char *s = xasprintf("%s: %s", test, cdb_text(each, 0));
        count(&row->bugs, &row->nbugs, s);
        free(s);
    }
}

bool campaign_cc_table(campaign *c, campaign_cc_row **rows, int *n, diag *d)
{
    *rows = NULL;
    *n = 0;
    sqlite3_stmt *st = cdb_prepare(c, table_sql, d);
    sqlite3_stmt *each = st ? cdb_prepare(c, "SELECT value FROM json_each(?1, '$.cc_check.bug_states')", d) : NULL;
    if (!each) {
        sqlite3_finalize(st);
        return false;
    }
    size_t cap = 0, len = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *cc = cdb_text(st, 0), *flags = cdb_text(st, 1), *model = cdb_text(st, 2);
        campaign_cc_row *row = len ? &(*rows)[len - 1] : NULL;
        if (!row || strcmp(row->compiler, cc) || strcmp(row->cflags, flags) || strcmp(row->model, model)) {
            campaign_cc_row fresh = {0};
            fresh.compiler = xstrdup(cc);
            fresh.cflags = xstrdup(flags);
            fresh.model = xstrdup(model);
            VEC_PUSH(*rows, len, cap, fresh);
            row = &(*rows)[len - 1];
        }
        row->tests++;
        const char *status = cdb_text(st, 3), *verdict = cdb_text(st, 4);
        if (sqlite3_column_int(st, 5)) {
            row->corrupt++;
            continue;
        }
        if (!strcmp(status, "error")) {
            row->errors++;
            continue;
        }
        if (strcmp(status, "done")) {
            row->pending++;
            continue;
        }
        row->compiled += sqlite3_column_int(st, 6) != 0;
        row->lifted += sqlite3_column_int(st, 7) != 0;
        if (!strcmp(verdict, "same"))
            row->same++;
        else if (!strcmp(verdict, "stronger"))
            row->stronger++;
        else if (!strcmp(verdict, "bug")) {
            row->bug++;
            add_bugs(each, cdb_text(st, 9), cdb_text(st, 10), row);
        } else {
            row->refused++;
            /* the kind is worked out here, so every database counts alike */
            strbuf kind = {0};
            ccrun_reason_kind(cdb_text(st, 8), &kind);
            count(&row->reasons, &row->nreasons, kind.len ? kind.s : "unknown");
            sb_free(&kind);
        }
    }
    sqlite3_finalize(st);
    sqlite3_finalize(each);
    *n = (int)len;
    for (size_t i = 0; i < len; i++)
        if ((*rows)[i].nreasons)
            qsort((*rows)[i].reasons, (size_t)(*rows)[i].nreasons, sizeof *(*rows)[i].reasons, by_count);
    if (rc != SQLITE_DONE) {
        campaign_cc_table_free(*rows, *n);
        *rows = NULL;
        *n = 0;
        return cdb_error(c, "reading the cc-check runs", d);
    }
    return true;
}

static void free_counts(campaign_cc_count *v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i].what);
    free(v);
}

void campaign_cc_table_free(campaign_cc_row *rows, int n)
{
    for (int i = 0; i < n; i++) {
        free(rows[i].compiler);
        free(rows[i].cflags);
        free(rows[i].model);
        free_counts(rows[i].reasons, rows[i].nreasons);
        free_counts(rows[i].bugs, rows[i].nbugs);
    }
    free(rows);
}

bool campaign_cc_text(campaign *c, strbuf *out, diag *d)
{
    campaign_cc_row *rows;
    int n;
    if (!campaign_cc_table(c, &rows, &n, d))
        return false;
    for (int i = 0; i < n; i++) {
        const campaign_cc_row *r = &rows[i];
        sb_printf(out, "cc-check %s %s (%s): %d tests, %d compiled, %d lifted: %d same, %d stronger, %d bug, "
                       "%d refused",
                  r->compiler, *r->cflags ? r->cflags : "(none)", r->model, r->tests, r->compiled, r->lifted, r->same,
                  r->stronger, r->bug, r->refused);
        if (r->pending || r->errors || r->corrupt)
            sb_printf(out, "; %d not run, %d failed, %d corrupt", r->pending, r->errors, r->corrupt);
        sb_addc(out, '\n');
        for (int k = 0; k < r->nreasons; k++)
            sb_printf(out, "  refused %d: %s\n", r->reasons[k].count, r->reasons[k].what);
        for (int k = 0; k < r->nbugs; k++)
            sb_printf(out, "  bug %s\n", r->bugs[k].what);
    }
    campaign_cc_table_free(rows, n);
    return true;
}

/* One cell of counts (a refusal's kind or a bug), each on a line. */
static void counts_html(strbuf *out, const campaign_cc_count *v, int n, bool with_count)
{
    sb_add(out, "<td>");
    for (int i = 0; i < n; i++) {
        if (i)
            sb_add(out, "<br>");
        if (with_count)
            sb_printf(out, "%d &times; ", v[i].count);
        campaign_html_escape(out, v[i].what);
    }
    sb_add(out, "</td>");
}

bool ccreport_html(campaign *c, strbuf *out, diag *d)
{
    campaign_cc_row *rows;
    int n;
    if (!campaign_cc_table(c, &rows, &n, d))
        return false;
    if (n)
        sb_add(out, "<section id=\"cc-check\"><h2>Compilers (cc-check)</h2><table id=\"cc\"><thead><tr>"
                    "<th>compiler</th><th>flags</th><th>model</th><th class=\"num\">tests</th>"
                    "<th class=\"num\">compiled</th><th class=\"num\">lifted</th><th class=\"num\">same</th>"
                    "<th class=\"num\">stronger</th><th class=\"num\">bug</th><th class=\"num\">refused</th>"
                    "<th class=\"num\">no verdict</th><th>refused, by reason</th><th>bugs: test: state</th>"
                    "</tr></thead><tbody>\n");
    for (int i = 0; i < n; i++) {
        const campaign_cc_row *r = &rows[i];
        sb_printf(out, "<tr class=\"%s\">", r->bug ? "bug" : r->refused ? "refused" : "ok");
        const char *texts[] = {r->compiler, *r->cflags ? r->cflags : "(none)", r->model};
        for (int k = 0; k < 3; k++) {
            sb_add(out, "<td>");
            campaign_html_escape(out, texts[k]);
            sb_add(out, "</td>");
        }
        /* no verdict: not run yet, failed or corrupt */
        const int nums[] = {r->tests, r->compiled, r->lifted, r->same, r->stronger, r->bug, r->refused,
                            r->pending + r->errors + r->corrupt};
        static const char *const ids[] = {"tests", "compiled", "lifted", "same", "stronger", "bug", "refused",
                                          "none"};
        for (int k = 0; k < 8; k++)
            sb_printf(out, "<td class=\"num cc-%s\">%d</td>", ids[k], nums[k]);
        counts_html(out, r->reasons, r->nreasons, true);
        counts_html(out, r->bugs, r->nbugs, false);
        sb_add(out, "</tr>\n");
    }
    if (n)
        sb_add(out, "</tbody></table></section>\n");
    campaign_cc_table_free(rows, n);
    return true;
}
