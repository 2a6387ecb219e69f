/* The HTML report: one self-contained file (styles and the sorting script
 * inline, no network), with the campaign's summary, a table of every run
 * that sorts on any column, and per run an SVG histogram of its states:
 * allowed states seen, forbidden states seen and allowed states never
 * seen in three colours, bar heights on a log scale, the count of each
 * on hover.  Everything that comes from the database is escaped. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "campaign/internal.h"
#include "util/file.h"

static const char style[] =
    "body{font-family:sans-serif;margin:1.5em;color:#222}"
    "table{border-collapse:collapse;margin:.5em 0}"
    "th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left}"
    "td.num,th.num{text-align:right}"
    "#runs th{cursor:pointer;background:#f2f2f2}"
    "#runs th:after{content:' \\2195';color:#999}"
    "tr.forbidden td{background:#fbe3e2}"
    "tr.error td,tr.partial td,tr.corrupt td{background:#fdf3d9}"
    "tr.bug td{background:#fbe3e2}tr.refused td{background:#eef0f3}"
    "pre{background:#f7f7f7;padding:.4em;overflow:auto}"
    ".run{margin:1.2em 0;border-top:1px solid #ddd;padding-top:.6em}"
    "rect.allowed{fill:#3d7cc9}rect.forbidden{fill:#d9443f}"
    "rect.unseen{fill:#fff;stroke:#999;stroke-dasharray:3 2}"
    ".legend span{display:inline-block;width:.9em;height:.9em;margin:0 .3em 0 1em;vertical-align:middle}"
    ".legend .allowed{background:#3d7cc9}.legend .forbidden{background:#d9443f}"
    ".legend .unseen{border:1px dashed #999}"
    "svg text{font-size:10px;fill:#444}";

/* Sort the runs table on a click on its header: numbers as numbers.  A
 * link ending in #sort-N (or #sort-N-desc) opens the report sorted on
 * column N. */
static const char script[] =
    "document.querySelectorAll('#runs th').forEach(function(th,col){"
    "th.addEventListener('click',function(){"
    "var tb=document.querySelector('#runs tbody');"
    "var rows=Array.prototype.slice.call(tb.rows);"
    "var dir=th.getAttribute('data-dir')==='asc'?-1:1;th.setAttribute('data-dir',dir>0?'asc':'desc');"
    "var num=th.classList.contains('num');"
    "rows.sort(function(a,b){var x=a.cells[col].getAttribute('data-v')||a.cells[col].textContent,"
    "y=b.cells[col].getAttribute('data-v')||b.cells[col].textContent;"
    "if(num){x=parseFloat(x)||0;y=parseFloat(y)||0;return dir*(x-y);}"
    "return dir*x.localeCompare(y);});"
    "rows.forEach(function(r){tb.appendChild(r);});});});"
    "var m=/^#sort-(\\d+)(-desc)?$/.exec(location.hash);"
    "if(m){var h=document.querySelectorAll('#runs th')[+m[1]];if(h){h.click();if(m[2])h.click();}}";

static void esc(strbuf *out, const char *s)
{
    campaign_html_escape(out, s);
}

typedef struct bar {
    char *state;
    int64_t count;
    const char *kind;   /* allowed, forbidden, unseen */
} bar;

static void histogram(campaign *c, sqlite3_stmt *obs, sqlite3_stmt *model, int64_t run, int64_t test,
                      const char *mname, strbuf *out)
{
    bar *bars = NULL;
    size_t n = 0, cap = 0;
    sqlite3_reset(obs);
    sqlite3_bind_int64(obs, 1, run);
    while (sqlite3_step(obs) == SQLITE_ROW) {
        bar b = {xstrdup(cdb_text(obs, 0)), sqlite3_column_int64(obs, 1), sqlite3_column_int(obs, 2) ? "allowed" : "forbidden"};
        VEC_PUSH(bars, n, cap, b);
    }
    size_t observed = n;
    sqlite3_reset(model);
    sqlite3_bind_int64(model, 1, test);
    cdb_bind_text(model, 2, mname);
    while (sqlite3_step(model) == SQLITE_ROW) {
        const char *s = cdb_text(model, 0);
        bool seen = false;
        for (size_t i = 0; i < observed && !seen; i++)
            seen = !strcmp(bars[i].state, s);
        if (!seen) {
            bar b = {xstrdup(s), 0, "unseen"};
            VEC_PUSH(bars, n, cap, b);
        }
    }
    (void)c;
    int64_t max = 1;
    for (size_t i = 0; i < n; i++)
        if (bars[i].count > max)
            max = bars[i].count;
    const int bw = 26, gap = 8, h = 110, top = 8, bottom = 18;
    int width = (int)n * (bw + gap) + gap;
    if (width < 120)
        width = 120;
    sb_printf(out, "<svg class=\"histogram\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                   "role=\"img\" aria-label=\"histogram of %zu states\">", width, h + top + bottom, n);
    sb_printf(out, "<line x1=\"0\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>", top + h, width, top + h);
    double lmax = log10((double)max + 1);
    for (size_t i = 0; i < n; i++) {
        int x = gap + (int)i * (bw + gap);
        int bh = bars[i].count ? (int)(h * log10((double)bars[i].count + 1) / lmax) : h / 8;
        if (bh < 2)
            bh = 2;
        sb_printf(out, "<rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"><title>", bars[i].kind, x,
                  top + h - bh, bw, bh);
        esc(out, bars[i].state);
        sb_printf(out, " %lld (%s)</title></rect>", (long long)bars[i].count,
                  !strcmp(bars[i].kind, "unseen") ? "allowed, never seen" : bars[i].kind);
        sb_printf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%zu</text>", x + bw / 2, top + h + 13, i + 1);
    }
    sb_add(out, "</svg>\n<table class=\"states\"><tr><th>#</th><th>state</th><th class=\"num\">count</th>"
                "<th>the model</th></tr>");
    for (size_t i = 0; i < n; i++) {
        sb_printf(out, "<tr class=\"%s\"><td>%zu</td><td>", bars[i].kind, i + 1);
        esc(out, bars[i].state);
        sb_printf(out, "</td><td class=\"num\">%lld</td><td>%s</td></tr>", (long long)bars[i].count,
                  !strcmp(bars[i].kind, "forbidden") ? "FORBIDDEN" : !strcmp(bars[i].kind, "unseen") ? "allowed, unseen"
                                                                                                   : "allowed");
        free(bars[i].state);
    }
    sb_add(out, "</table>\n");
    free(bars);
}

static const char runs_sql[] =
    "SELECT r.id, t.id, t.name, g.target, g.compiler, coalesce(r.model_name, g.model), g.options, r.status,"
    "  coalesce(r.verdict, ''), r.iterations, r.positive, r.forbidden_states, r.allowed_states, r.seen_allowed,"
    "  r.seconds, coalesce(r.message, ''), r.observation, m.host, m.cpu, m.cores, t.path, t.arch, "
    CDB_CORRUPT("r") ","
    "  CASE WHEN r.status = 'done' AND json_valid(r.result) THEN json_extract(r.result, '$.cc_check.lifted_test') END,"
    "  CASE WHEN r.status = 'done' AND json_valid(r.result) THEN (SELECT group_concat(value, char(10))"
    "    FROM json_each(r.result, '$.cc_check.bug_states')) END"
    " FROM runs r JOIN tests t ON t.id = r.test_id JOIN configs g ON g.id = r.config_id"
    " LEFT JOIN machines m ON m.id = r.machine_id"
    " ORDER BY t.name, t.arch, g.target, g.compiler, g.model, g.options";

/* The summary table at the top of the report. */
static void summary_section(strbuf *b, const campaign_summary *sp)
{
    const campaign_summary s = *sp;
    double cover = s.allowed ? 100.0 * (double)s.seen_allowed / (double)s.allowed : 0;
    sb_printf(b, "<section id=\"summary\"><h2>Summary</h2><table>"
                    "<tr><th>tests</th><td id=\"sum-tests\">%d</td></tr>"
                    "<tr><th>runs</th><td id=\"sum-runs\">%d</td></tr>"
                    "<tr><th>finished</th><td id=\"sum-done\">%d</td></tr>"
                    "<tr><th>failed</th><td id=\"sum-errors\">%d</td></tr>"
                    "<tr><th>corrupt (the stored result does not parse)</th><td id=\"sum-corrupt\">%d</td></tr>"
                    "<tr><th>not run yet</th><td id=\"sum-pending\">%d</td></tr>"
                    "<tr><th>runs with a forbidden state</th><td id=\"sum-forbidden\">%d</td></tr>"
                    "<tr><th>partial runs</th><td id=\"sum-partial\">%d</td></tr>"
                    "<tr><th>coverage of allowed states</th><td id=\"sum-coverage\">%lld of %lld (%.1f%%)</td></tr>"
                    "<tr><th>iterations</th><td id=\"sum-iterations\">%llu</td></tr>"
                    "<tr><th>run time</th><td id=\"sum-seconds\">%.2f s</td></tr>"
                    "</table>\n<p class=\"legend\">states:<span class=\"allowed\"></span>allowed, seen"
                    "<span class=\"forbidden\"></span>forbidden, seen<span class=\"unseen\"></span>allowed, never "
                    "seen</p></section>\n",
              s.tests, s.runs, s.done, s.errors, s.corrupt, s.pending, s.forbidden_runs, s.partial_runs, (long long)s.seen_allowed,
              (long long)s.allowed, cover, (unsigned long long)s.iterations, s.seconds);
}

/* One run as a row of the runs table. */
static void run_row(strbuf *rows, sqlite3_stmt *st, const char *status, const char *verdict, bool done, bool cc)
{
    int64_t rid = sqlite3_column_int64(st, 0);
    int allowed = sqlite3_column_int(st, 12), seen = sqlite3_column_int(st, 13);
    sb_add(rows, "<tr class=\"");
    esc(rows, done ? verdict : status);
    sb_printf(rows, "\"><td><a href=\"#run-%lld\">", (long long)rid);
    esc(rows, cdb_text(st, 2));
    sb_add(rows, "</a></td>");
    static const int text_cols[] = {21, 3, 4, 5};   /* arch, target, compiler, model */
    for (size_t k = 0; k < sizeof text_cols / sizeof *text_cols; k++) {
        sb_add(rows, "<td>");
        esc(rows, cdb_text(st, text_cols[k]));
        if (cc && text_cols[k] == 4 && *cdb_text(st, 6)) {
            /* cc-check's configuration is its compiler and flags */
            sb_addc(rows, ' ');
            esc(rows, cdb_text(st, 6));
        }
        sb_add(rows, "</td>");
    }
    sb_add(rows, "<td>");
    esc(rows, status);
    sb_add(rows, "</td><td>");
    esc(rows, done ? verdict : "");
    sb_add(rows, "</td>");
    if (done && cc)
        sb_printf(rows, "<td class=\"num\"></td><td class=\"num\"></td><td class=\"num\">%d</td>"
                         "<td class=\"num\"></td><td class=\"num\">%.3f</td></tr>\n",
                  sqlite3_column_int(st, 11), sqlite3_column_double(st, 14));
    else if (done)
        sb_printf(rows, "<td class=\"num\">%lld</td><td class=\"num\">%lld</td><td class=\"num\">%d</td>"
                         "<td class=\"num\" data-v=\"%.4f\">%d/%d</td><td class=\"num\">%.3f</td></tr>\n",
                  (long long)sqlite3_column_int64(st, 9), (long long)sqlite3_column_int64(st, 10),
                  sqlite3_column_int(st, 11), allowed ? (double)seen / allowed : 0, seen, allowed,
                  sqlite3_column_double(st, 14));
    else
        sb_add(rows, "<td class=\"num\"></td><td class=\"num\"></td><td class=\"num\"></td>"
                      "<td class=\"num\"></td><td class=\"num\"></td></tr>\n");
}

/* One run's details: configuration, machine, and its histogram or lifted test. */
static void run_details(strbuf *details, campaign *c, sqlite3_stmt *st, sqlite3_stmt *obs, sqlite3_stmt *model,
                        const char *status, const char *verdict, bool done, bool cc, bool corrupt)
{
    int64_t rid = sqlite3_column_int64(st, 0), tid = sqlite3_column_int64(st, 1);
    sb_printf(details, "<div class=\"run\" id=\"run-%lld\"><h3>", (long long)rid);
    esc(details, cdb_text(st, 21));
    sb_addc(details, ' ');
    esc(details, cdb_text(st, 2));
    sb_add(details, " on ");
    esc(details, cdb_text(st, 3));
    sb_add(details, ", ");
    esc(details, cdb_text(st, 4));
    sb_add(details, "</h3>\n<p>file ");
    esc(details, cdb_text(st, 20));
    sb_add(details, "; model ");
    esc(details, cdb_text(st, 5));
    if (done && cc) {
        sb_add(details, "; cc-check: ");
        esc(details, verdict);
        if (*cdb_text(st, 15)) {
            sb_add(details, ": ");
            esc(details, cdb_text(st, 15));
        }
    } else if (done) {
        sb_add(details, ": ");
        esc(details, cdb_text(st, 16));
        sb_add(details, "; run: ");
        esc(details, verdict);
        sb_printf(details, ", %lld iterations, %lld witnesses", (long long)sqlite3_column_int64(st, 9),
                  (long long)sqlite3_column_int64(st, 10));
    } else if (corrupt) {
        sb_add(details, "; corrupt: the stored result does not parse");
    } else {
        sb_add(details, "; ");
        esc(details, status);
        if (*cdb_text(st, 15)) {
            sb_add(details, ": ");
            esc(details, cdb_text(st, 15));
        }
    }
    sb_add(details, cc ? "<br>flags: " : "<br>options: ");
    esc(details, cdb_text(st, 6));
    if (sqlite3_column_type(st, 17) != SQLITE_NULL) {
        sb_add(details, "; machine: ");
        esc(details, cdb_text(st, 17));
        sb_add(details, ", ");
        esc(details, cdb_text(st, 18));
        sb_printf(details, ", %d cores", sqlite3_column_int(st, 19));
    }
    sb_add(details, "</p>\n");
    if (done && cc && *cdb_text(st, 24)) {
        sb_add(details, "<p>states the source forbids:</p>\n<pre class=\"bug-states\">");
        esc(details, cdb_text(st, 24));
        sb_add(details, "</pre>\n");
    }
    if (done && cc && *cdb_text(st, 23)) {
        sb_add(details, "<details><summary>the lifted test</summary><pre>");
        esc(details, cdb_text(st, 23));
        sb_add(details, "</pre></details>\n");
    } else if (done && !cc)
        histogram(c, obs, model, rid, tid, cdb_text(st, 5), details);
    sb_add(details, "</div>\n");
}

bool campaign_report_html(campaign *c, const char *path, diag *d)
{
    campaign_summary s;
    if (!campaign_summarize(c, &s, d))
        return false;
    sqlite3_stmt *st = cdb_prepare(c, runs_sql, d);
    sqlite3_stmt *obs = cdb_prepare(c, "SELECT state, count, allowed FROM states WHERE run_id = ?1 ORDER BY state", d);
    sqlite3_stmt *model = cdb_prepare(c, "SELECT state FROM model_states WHERE test_id = ?1 AND model = ?2 "
                                         "ORDER BY state", d);
    if (!st || !obs || !model) {
        sqlite3_finalize(st);
        sqlite3_finalize(obs);
        sqlite3_finalize(model);
        return false;
    }
    strbuf out = {0}, rows = {0}, details = {0};
    sb_add(&out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>litmusc campaign: ");
    esc(&out, campaign_path(c));
    sb_printf(&out, "</title><style>%s</style></head><body>\n<h1>litmusc campaign</h1>\n<p>", style);
    esc(&out, campaign_path(c));
    sb_add(&out, "</p>\n");
    summary_section(&out, &s);
    if (!ccreport_html(c, &out, d) || !campaign_hunt_html(c, &out, d)) {
        sqlite3_finalize(st);
        sqlite3_finalize(obs);
        sqlite3_finalize(model);
        sb_free(&out);
        return false;
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *verdict = cdb_text(st, 8);
        /* a finished run whose stored result does not parse is neither finished nor waiting */
        bool corrupt = sqlite3_column_int(st, 22) != 0;
        const char *status = corrupt ? "corrupt" : cdb_text(st, 7);
        bool done = !strcmp(status, "done");
        bool cc = !strcmp(cdb_text(st, 3), CAMPAIGN_CC_TARGET);
        run_row(&rows, st, status, verdict, done, cc);
        run_details(&details, c, st, obs, model, status, verdict, done, cc, corrupt);
    }
    sb_add(&out, "<section><h2>Runs</h2><table id=\"runs\"><thead><tr><th>test</th><th>arch</th><th>target</th>"
                 "<th>compiler</th>"
                 "<th>model</th><th>status</th><th>verdict</th><th class=\"num\">iterations</th>"
                 "<th class=\"num\">witnesses</th><th class=\"num\">forbidden</th><th class=\"num\">coverage</th>"
                 "<th class=\"num\">seconds</th></tr></thead><tbody>\n");
    sb_add(&out, rows.s ? rows.s : "");
    sb_add(&out, "</tbody></table></section>\n<section id=\"histograms\"><h2>Histograms</h2>\n");
    sb_add(&out, details.s ? details.s : "");
    sb_printf(&out, "</section>\n<script>%s</script>\n</body></html>\n", script);
    sqlite3_finalize(st);
    sqlite3_finalize(obs);
    sqlite3_finalize(model);
    bool ok = file_write_atomic(path, out.s, out.len);
    if (!ok)
        diag_fail(d, "cannot write %s: %s", path, strerror(errno));
    sb_free(&out);
    sb_free(&rows);
    sb_free(&details);
    return ok;
}
