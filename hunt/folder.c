/* A bug folder, DIR/bugs/<id>/: the test as found, the minimal test
 * (herd C syntax), the lifted X86_64 or AArch64 test, repro.c and report.md (the
 * compiler's version, flags, culprit, the forbidden state, the source's
 * and the compiled states, each thread's C beside its machine code, the
 * hardware counts of the object lifted and of the minimal test's); and the bug's entry of report.json, kept in the
 * database. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "frontend/frontend.h"
#include "hunt/hunt_internal.h"
#include "model/bset.h"
#include "util/file.h"
#include "util/json.h"
#include "util/mem.h"

void hunt_bug_free(hunt_bug *b)
{
    free(b->config_name), free(b->minimal), free(b->reduce_err);
    if (!b->bisect_err)
        hunt_bisect_free(&b->bisect);
    free(b->bisect_err), free(b->culprit);
    for (int i = 0; i < b->nmixb; i++) {
        if (!b->mixb[i].err)
            hunt_bisect_free(&b->mixb[i].r);
        free(b->mixb[i].err), free(b->mixb[i].threads);
    }
    free(b->mixb);
    if (b->confirmed)
        hunt_confirm_free(&b->confirm);
    free(b->confirm_err);
    if (b->mconfirmed)
        hunt_confirm_free(&b->mconfirm);
    free(b->mconfirm_err);
    if (b->mt)
        ir_test_free(b->mt);
    if (b->mft)
        fe_test_free(b->mft);
    if (b->sb)
        bset_free(b->sb);
    if (b->t)
        ir_test_free(b->t);
    if (b->ft)
        fe_test_free(b->ft);
    free(b->mforbidden), free(b->mlifted), free(b->mcb_text), free(b->repro), free(b->repro_err);
    memset(b, 0, sizeof *b);
}

/* Thread TH's column of the lifted TEXT's code rows, one instruction a line. */
static void column(strbuf *out, const char *text, int th)
{
    const char *p = strstr(text, "\n P0");
    if (!p)
        return;
    p = strchr(p + 1, '\n');
    while (p && p[1] && strncmp(p + 1, "exists", 6) && strncmp(p + 1, "locations", 9) &&
           strncmp(p + 1, "~exists", 7) && strncmp(p + 1, "forall", 6)) {
        const char *line = p + 1, *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char *row = xasprintf("%.*s", (int)len, line);
        char *semi = strrchr(row, ';');
        if (semi)
            *semi = 0;
        char *cell = row;
        for (int i = 0; i < th && cell; i++)
            cell = strchr(cell, '|') ? strchr(cell, '|') + 1 : NULL;
        if (cell) {
            char *bar = strchr(cell, '|');
            if (bar)
                *bar = 0;
            while (*cell == ' ')
                cell++;
            size_t l = strlen(cell);
            while (l && cell[l - 1] == ' ')
                cell[--l] = 0;
            if (*cell)
                sb_printf(out, "%s\n", cell);
        }
        free(row);
        p = end;
    }
}

static void fence(strbuf *b, const char *lang, const char *text)
{
    sb_printf(b, "```%s\n%s%s```\n\n", lang, text, *text && text[strlen(text) - 1] != '\n' ? "\n" : "");
}

/* report.md. */
static char *report_md(const hctx *h, const hunt_bug *b)
{
    strbuf m = {0};
    const campaign_hunt_raw *r = b->raw;
    sb_printf(&m, "# Bug %s: %s allows a state %s forbids\n\n", b->id, b->config_name, r->test);
    if (b->cfg) {
        sb_printf(&m, "- compiler: `%s` (%s)\n", b->cfg->cc, b->cfg->version ? b->cfg->version : "version unknown");
        char *pre = lift_target_flags(h->o->target, b->cfg->cc);
        sb_printf(&m, "- flags: `%s` (always after `-c -fno-pic%s%s`)\n", b->cfg->cflags, *pre ? " " : "", pre);
        free(pre);
    } else
        sb_printf(&m, "- configuration: %s\n", b->config_name);
    sb_printf(&m, "- target: %s (the source judged under %s, the lifted test under %s)\n", h->row->name,
              h->row->source_model, h->row->model);
    sb_printf(&m, "- culprit: %s", b->culprit);
    if (b->nmixb)
        sb_add(&m, " (each compiler of the mix bisected with the other threads compiled as found)");
    else if (b->bisect_err)
        sb_printf(&m, " (bisection: %s)", b->bisect_err);
    else if (b->bisect.detail)
        sb_printf(&m, " (%s)", b->bisect.detail);
    sb_add(&m, "\n");
    for (int i = 0; i < b->nmixb; i++) {
        const hunt_mix_bisect *x = &b->mixb[i];
        sb_printf(&m, "  - %s, compiled by `%s %s`: %s\n", x->threads, h->cfgs[x->config].cc,
                  h->cfgs[x->config].cflags, x->err ? x->err : x->r.detail ? x->r.detail : "no detail");
    }
    const char *which = b->minimal ? "minimal test" : "test as found (not reduced)";
    sb_printf(&m, "- forbidden state (as found): `%s`\n", r->forbidden);
    if (b->mforbidden)
        sb_printf(&m, "- forbidden state (the %s, compiled alone): `%s`\n", which, b->mforbidden);
    sb_printf(&m, "- found: entry %ld of the stream of seed %llu (test %s)\n", r->k, (unsigned long long)b->seed,
              r->test);
    /* two objects ran: the one the hunt lifted, and the minimal test's own */
    sb_printf(&m, "- hardware, the object the hunt lifted (the test as found, compiled in its batch; "
                  "the state as found): ");
    if (b->confirmed)
        sb_printf(&m, "the forbidden state %ld times in %ld runs (%.1f s): %s\n", b->confirm.hits,
                  b->confirm.iterations, b->confirm.seconds, b->confirm.config ? b->confirm.config : "");
    else
        sb_printf(&m, "not run: %s\n", b->confirm_err);
    sb_printf(&m, "- hardware, the %s compiled alone (its own state above): ", which);
    if (b->mconfirmed)
        sb_printf(&m, "the forbidden state %ld times in %ld runs (%.1f s): %s\n", b->mconfirm.hits,
                  b->mconfirm.iterations, b->mconfirm.seconds, b->mconfirm.config ? b->mconfirm.config : "");
    else
        sb_printf(&m, "not run: %s\n", b->mconfirm_err ? b->mconfirm_err : "no reason given");
    sb_add(&m, "\n## Minimal test\n\n");
    if (b->minimal) {
        sb_printf(&m, "Reduced in %d tries from %d threads and %d accesses to %d and %d (minimal.litmus)%s:\n\n",
                  b->rstats.tries, b->rstats.threads_before, b->rstats.accesses_before, b->rstats.threads_after,
                  b->rstats.accesses_after,
                  b->cfg ? "" : ", no thread dropped: each keeps the compiler and flags of its number");
        fence(&m, "", b->minimal);
    } else
        sb_printf(&m, "Not reduced: %s.  The test as found (test.litmus):\n\n", b->reduce_err);
    if (!b->minimal)
        fence(&m, "", r->source);
    /* the states of the test the rest of the report shows: the minimal
     * one when there is one */
    sb_printf(&m, "## Source states (%s%s)\n\n", h->row->source_model, b->mt ? ", the minimal test" : "");
    strbuf s = {0};
    diag md = {0};
    struct bset *msb = b->mt ? model_run(h->src, b->mt, &md) : NULL;
    bset_format_herd(&s, msb ? b->mt : b->t, msb ? msb : b->sb, 0);
    if (msb)
        bset_free(msb);
    fence(&m, "", s.s ? s.s : "");
    sb_free(&s);
    sb_printf(&m, "## Compiled states (%s, the lifted %stest)\n\n", h->row->model, b->mt ? "minimal " : "");
    fence(&m, "", b->mcb_text ? b->mcb_text : "(the lifted test did not run again: see lifted.litmus)\n");
    const fe_test *ft = b->mft ? b->mft : b->ft;
    const char *lifted = b->mlifted ? b->mlifted : r->lifted;
    sb_printf(&m, "## Each thread: C and machine code%s\n\n", b->mft ? " (minimal test)" : "");
    for (int n = 0; n < ft->nthreads; n++) {
        strbuf col = {0};
        column(&col, lifted, n);
        sb_printf(&m, "### P%d\n\n<table><tr><td>\n\n", n);
        fence(&m, "c", ft->threads[n].body_text ? ft->threads[n].body_text : "");
        sb_add(&m, "</td><td>\n\n");
        fence(&m, "asm", col.s ? col.s : "");
        sb_add(&m, "</td></tr></table>\n\n");
        sb_free(&col);
    }
    sb_add(&m, "## Lifted test (lifted.litmus)\n\n");
    fence(&m, "", lifted);
    sb_add(&m, "## Reproduce\n\n");
    if (b->repro && b->cfg)
        sb_printf(&m, "```\n%s %s -pthread repro.c -o repro && ./repro\n```\n", b->cfg->cc, b->cfg->cflags);
    else
        sb_printf(&m, "No repro.c: %s\n", b->repro_err ? b->repro_err : "not written");
    return sb_take(&m);
}

/* The bug's entry of report.json. */
static char *entry_json(const hctx *h, const hunt_bug *b, const char *folder)
{
    strbuf out = {0};
    json j;
    json_init(&j, &out);
    json_object(&j);
    json_kv_string(&j, "id", b->id);
    json_kv_string(&j, "folder", folder);
    json_kv_string(&j, "configuration", b->config_name);
    json_kv_string(&j, "compiler", b->cfg ? b->cfg->cc : NULL);
    json_kv_string(&j, "version", b->cfg ? b->cfg->version : NULL);
    json_kv_string(&j, "cflags", b->cfg ? b->cfg->cflags : NULL);
    json_kv_string(&j, "test", b->raw->test);
    json_kv_int(&j, "stream_entry", b->raw->k);
    json_kv_string(&j, "forbidden", b->raw->forbidden);
    json_key(&j, "reduce");
    json_object(&j);
    json_kv_bool(&j, "ok", b->minimal != NULL);
    json_kv_string(&j, "error", b->reduce_err);
    json_kv_string(&j, "minimal", b->minimal);
    json_kv_string(&j, "forbidden", b->mforbidden);
    json_kv_int(&j, "tries", b->rstats.tries);
    json_end_object(&j);
    static const char *const kinds[] = {"pass", "not-a-pass", "unknown"};
    json_key(&j, "bisect");
    json_object(&j);
    bool mok = b->nmixb > 0;
    for (int i = 0; i < b->nmixb; i++)
        mok &= !b->mixb[i].err;
    json_kv_bool(&j, "ok", !b->bisect_err || mok);
    json_kv_string(&j, "error", b->nmixb ? NULL : b->bisect_err);
    json_kv_string(&j, "culprit", b->culprit);
    if (b->nmixb) {
        json_key(&j, "mix");
        json_array(&j);
        for (int i = 0; i < b->nmixb; i++) {
            const hunt_mix_bisect *x = &b->mixb[i];
            json_object(&j);
            json_kv_string(&j, "threads", x->threads);
            json_kv_string(&j, "compiler", h->cfgs[x->config].cc);
            json_kv_string(&j, "cflags", h->cfgs[x->config].cflags);
            json_kv_bool(&j, "ok", !x->err);
            json_kv_string(&j, "error", x->err);
            if (!x->err) {
                json_kv_string(&j, "kind", kinds[x->r.kind]);
                json_kv_string(&j, "pass", x->r.pass);
                json_kv_string(&j, "flags", x->r.flags);
                json_kv_int(&j, "limit", x->r.limit);
                json_kv_string(&j, "detail", x->r.detail);
            }
            json_end_object(&j);
        }
        json_end_array(&j);
    }
    if (!b->bisect_err) {
        json_kv_string(&j, "kind", kinds[b->bisect.kind]);
        json_kv_string(&j, "pass", b->bisect.pass);
        json_kv_string(&j, "flags", b->bisect.flags);
        json_kv_int(&j, "limit", b->bisect.limit);
        json_kv_string(&j, "detail", b->bisect.detail);
    }
    json_end_object(&j);
    json_key(&j, "confirm");
    json_object(&j);
    json_kv_bool(&j, "ok", b->confirmed);
    json_kv_string(&j, "error", b->confirm_err);
    if (b->confirmed) {
        json_kv_int(&j, "iterations", b->confirm.iterations);
        json_kv_int(&j, "hits", b->confirm.hits);
        json_kv_double(&j, "seconds", b->confirm.seconds);
        json_kv_string(&j, "config", b->confirm.config);
    }
    json_end_object(&j);
    json_key(&j, "confirm_minimal");
    json_object(&j);
    json_kv_bool(&j, "ok", b->mconfirmed);
    json_kv_string(&j, "error", b->mconfirm_err);
    if (b->mconfirmed) {
        json_kv_int(&j, "iterations", b->mconfirm.iterations);
        json_kv_int(&j, "hits", b->mconfirm.hits);
        json_kv_double(&j, "seconds", b->mconfirm.seconds);
        json_kv_string(&j, "config", b->mconfirm.config);
    }
    json_end_object(&j);
    json_kv_string(&j, "repro_error", b->repro_err);
    json_end_object(&j);
    return sb_take(&out);
}

/* FILE in folder DIR, TEXT whole or not at all. */
static bool put(const char *dir, const char *file, const char *text, diag *d)
{
    char *p = xasprintf("%s/%s", dir, file);
    bool ok = file_write_atomic(p, text, strlen(text));
    if (!ok)
        diag_fail(d, "hunt: cannot write %s: %s", p, strerror(errno));
    free(p);
    return ok;
}

bool hunt_bug_write(hctx *h, const hunt_bug *b, diag *d)
{
    char *rel = xasprintf("bugs/%s", b->id);
    char *dir = xasprintf("%s/%s", h->o->dir, rel);
    struct stat stt;
    bool fresh = stat(dir, &stt) != 0;
    bool ok = true;
    if (fresh) {
        if (!file_mkdirs(dir, 0777))
            ok = diag_fail(d, "hunt: cannot make %s: %s", dir, strerror(errno));
        ok = ok && put(dir, "test.litmus", b->raw->source, d);
        if (ok && b->minimal)
            ok = put(dir, "minimal.litmus", b->minimal, d);
        ok = ok && put(dir, "lifted.litmus", b->mlifted ? b->mlifted : b->raw->lifted, d);
        if (ok && b->repro)
            ok = put(dir, "repro.c", b->repro, d);
        char *md = ok ? report_md(h, b) : NULL;
        ok = ok && put(dir, "report.md", md, d);
        free(md);
    }
    char *js = entry_json(h, b, rel);
    char hw[96];
    if (b->confirmed)
        snprintf(hw, sizeof hw, "%ld of %ld", b->confirm.hits, b->confirm.iterations);
    else
        snprintf(hw, sizeof hw, "not confirmed");
    long ck = b->raw->k;
    int cc = b->raw->config;
    campaign_hunt_bug row = {.id = b->id, .k = b->raw->k, .config = b->raw->config, .compiler = b->config_name,
                             .cflags = b->cfg ? b->cfg->cflags : "", .test = b->raw->test,
                             .forbidden = b->raw->forbidden, .culprit = b->culprit, .hardware = hw, .json = js,
                             .covers_k = &ck, .covers_config = &cc, .ncovers = 1};
    ok = ok && campaign_hunt_bug_put(h->db, &row, d);
    free(js), free(dir), free(rel);
    return ok;
}

bool hunt_bug_cover(hctx *h, const char *id, const campaign_hunt_raw *r, diag *d)
{
    long ck = r->k;
    int cc = r->config;
    campaign_hunt_bug row = {.id = id, .k = r->k, .config = r->config, .compiler = "", .cflags = "", .test = r->test,
                             .forbidden = r->forbidden, .culprit = "", .hardware = "", .json = "{}",
                             .covers_k = &ck, .covers_config = &cc, .ncovers = 1};
    return campaign_hunt_bug_put(h->db, &row, d);
}
