/* The hunt's loop: check the compilers, open (or resume) the hunt's
 * database, walk this shard's part of the test stream in batches until
 * the budget or the test count is spent, then turn the raw bugs into bug
 * folders and write the report. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "harness/harness.h"
#include "hunt/hunt_internal.h"
#include "lift/lift.h"
#include "ir/lower.h"
#include "model/bset.h"
#include "util/file.h"
#include "util/md5.h"
#include "util/mem.h"

/* The first line of `CC --version`; false + D (status 3) when CC cannot run. */
static bool version_of(hcfg *f, diag *d)
{
    char *argv[] = {(char *)f->cc, "--version", NULL};
    harness_child ch = {0};
    diag cd = {0};
    if (!harness_child_run(argv, 30, 1, &ch, &cd)) {
        harness_child_free(&ch);    /* what it had read before it gave up */
        return diag_fail(d, "hunt: compiler '%s' cannot be run (not found?)", f->cc);
    }
    bool ok = ch.exit_status == 0;
    if (ok) {
        size_t n = strcspn(ch.out, "\n");
        f->version = xasprintf("%.*s", (int)n, ch.out);
    } else
        diag_fail(d, "hunt: '%s --version' failed: is it a compiler?", f->cc);
    harness_child_free(&ch);
    return ok;
}

/* The hunt's parameters as the database keeps them: a resume must agree. */
static char *params_text(const hctx *h, const hunt_vocab *v)
{
    strbuf b = {0};
    /* a drawn hunt's parameters as they were before there was an order, so
     * that its database still resumes */
    sb_printf(&b, "seed=%llu mix=%d %s", (unsigned long long)h->o->seed, h->o->mix,
              h->o->order == HUNT_ORDER_ENUM ? "order=enum " : "");
    /* likewise an x86-64 hunt's, from before there was a target */
    if (h->o->target != LIFT_X86_64)
        sb_printf(&b, "target=%s ", h->row->name);
    sb_add(&b, "vocab=");
    for (int i = 0; i < hunt_vocab_size(v); i++)
        sb_printf(&b, "%s%s", i ? "," : "", hunt_vocab_name(v, i));
    for (int c = 0; c < h->ncfg; c++)
        sb_printf(&b, " config%d=%s|%s", c, h->cfgs[c].cc, h->cfgs[c].cflags);
    /* the vocabulary can be long: keep its digest only */
    const char *vs = strstr(b.s, "vocab=") + 6, *ve = strchr(vs, ' ');
    size_t vl = ve ? (size_t)(ve - vs) : strlen(vs);
    unsigned char dg[16];
    char hex[33];
    md5(vs, vl, dg);
    md5_hex(dg, hex);
    char *s = xasprintf("%.*s%s%s", (int)(vs - b.s), b.s, hex, ve ? ve : "");
    sb_free(&b);
    return s;
}

/* The machine litmusc was built for is the one it runs on: a cross
 * target's objects cannot run here. */
bool hunt_target_native(const hctx *h)
{
    return h->row->native;
}

static bool out_of_budget(hctx *h)
{
    return h->o->budget_s > 0 && hunt_now() - h->t0 >= h->o->budget_s;
}

static bool report_progress(hctx *h, const char *phase, const char *current)
{
    hunt_progress *p = &h->st->p;
    p->phase = phase;
    p->current = current;
    p->elapsed_s = hunt_now() - h->t0;
    p->rate = p->elapsed_s > 0 ? (double)h->configs_here / p->elapsed_s : 0;
    p->where = h->en ? h->where : NULL;
    return !h->o->progress || h->o->progress(h->o->ctx, p);
}

void report_step(hctx *h, const char *phase, const char *test)
{
    report_progress(h, phase, test);
}

static void item_free(hitem *it)
{
    gen_test_free(&it->g);
    if (it->sb)
        bset_free(it->sb);
    if (it->t)
        ir_test_free(it->t);
    if (it->ft)
        fe_test_free(it->ft);
    memset(it, 0, sizeof *it);
}

/* Test K of the stream, parsed, lowered and run under the source model:
 * 1; 0 when it does not become one (counted, not fatal); -1 when the
 * enumeration has no test K (the stream's end); -2 and ED set when the
 * enumeration failed. */
static int item_make(hctx *h, const hunt_vocab *v, long k, hitem *it, diag *ed)
{
    memset(it, 0, sizeof *it);
    it->k = k;
    hunt_prefix(k, it->prefix, sizeof it->prefix);
    diag d = {0};
    if (h->en) {
        int r = hunt_enum_test(h->en, k, &it->g, ed);
        hunt_enum_where(h->en, h->where, sizeof h->where);
        if (r <= 0)
            return r - 1;
    } else if (!hunt_stream_test(v, h->o->seed, k, &it->g, &d))
        return 0;
    it->ft = fe_parse(it->g.text, strlen(it->g.text), it->g.name, &d);
    it->t = it->ft ? ir_lower(it->ft, &d) : NULL;
    it->sb = it->t ? model_run(h->src, it->t, &d) : NULL;
    if (!it->sb) {
        item_free(it);
        return 0;
    }
    return 1;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* The search: this shard's stream entries not yet done, batch by batch. */
static bool search(hctx *h, const hunt_vocab *v, diag *d)
{
    const hunt_opts *o = h->o;
    long *done = NULL;
    int ndone = 0;
    if (!campaign_hunt_done_tests(h->db, h->nall, &done, &ndone, d))
        return false;
    int bsz = o->batch > 0 ? o->batch : 64;
    hitem *items = xcalloc((size_t)bsz, sizeof *items);
    int n = 0, cur = o->budget_s > 0 && bsz > 8 ? 8 : bsz;
    bool ok = true, stopped = false;
    for (long k = o->shard - 1; ok && !stopped; k += o->nshards) {
        if (o->max_tests > 0 && k >= o->max_tests)
            break;
        if ((stopped = out_of_budget(h) || !report_progress(h, "search", NULL)))
            break;
        if (ndone && bsearch(&k, done, (size_t)ndone, sizeof *done, cmp_long))
            continue;
        int made = item_make(h, v, k, &items[n], d);
        if (made == -2)
            ok = false;
        if (made < 0)
            break;
        if (!made) {
            h->st->gen_failed++;
            continue;
        }
        if (++n < cur)
            continue;
        double t0 = hunt_now();
        ok = hunt_batch(h, items, n, out_of_budget, d);
        double dt = hunt_now() - t0;
        for (int i = 0; i < n; i++)
            item_free(&items[i]);
        n = 0;
        /* under a budget, batches grow from 8 while one takes under a
         * tenth of the time left, and shrink when one takes more than a
         * third, so that the budget's end drops little compiled work */
        if (o->budget_s > 0) {
            double left = o->budget_s - (hunt_now() - h->t0);
            if (dt * 10 < left && cur < bsz)
                cur = cur * 2 < bsz ? cur * 2 : bsz;
            else if (dt * 3 > left && cur > 1)
                cur /= 2;
        }
    }
    /* what is left when the stream ended (not the budget: a batch begun
     * after it would only be dropped) */
    if (ok && n && !out_of_budget(h))
        ok = hunt_batch(h, items, n, out_of_budget, d);
    for (int i = 0; i < n; i++)
        item_free(&items[i]);
    free(items);
    free(done);
    h->st->interrupted = stopped && !out_of_budget(h);
    return ok;
}

bool hunt_run(const hunt_opts *o, hunt_stats *st, diag *d)
{
    memset(st, 0, sizeof *st);
    hctx h = {.o = o, .st = st, .t0 = hunt_now(), .row = lift_target_get(o->target)};
    if (o->shard < 1 || o->nshards < 1 || o->shard > o->nshards)
        return diag_error(d, "hunt", 0, 0, "shard %d of %d does not exist", o->shard, o->nshards);
    h.ncfg = o->ncc * o->ncflags;
    h.cfgs = xcalloc((size_t)h.ncfg, sizeof *h.cfgs);
    for (int i = 0; i < o->ncc; i++)
        for (int j = 0; j < o->ncflags; j++)
            h.cfgs[i * o->ncflags + j] = (hcfg){.cc = o->ccs[i], .cflags = o->cflags[j]};
    h.nall = h.ncfg + (o->mix && h.ncfg > 1);
    bool ok = true;
    for (int c = 0; ok && c < h.ncfg; c++) {
        for (int e = 0; e < c && !h.cfgs[c].version; e++)
            if (!strcmp(h.cfgs[e].cc, h.cfgs[c].cc))
                h.cfgs[c].version = xstrdup(h.cfgs[e].version);
        ok = h.cfgs[c].version || version_of(&h.cfgs[c], d);
    }
    char *bugs = xasprintf("%s/bugs", o->dir);
    if (ok && !file_mkdirs(bugs, 0777))
        ok = diag_fail(d, "hunt: cannot make %s: %s", bugs, strerror(errno));
    free(bugs);
    char *dbpath = o->db ? xstrdup(o->db) : xasprintf("%s/hunt.db", o->dir);
    hunt_vocab *v = hunt_vocab_new(o->vocab, &st->vocab_skipped);
    st->vocab = hunt_vocab_size(v);
    h.vocab = v;
    h.drawn = xcalloc((size_t)st->vocab + 1, sizeof *h.drawn);
    if (ok && !st->vocab)
        ok = diag_error(d, "hunt", 0, 0, "the vocabulary has no edge the generator can place");
    if (ok && o->order == HUNT_ORDER_ENUM && (h.en = hunt_enum_new(v, o->seed, d)))
        hunt_enum_where(h.en, h.where, sizeof h.where);
    ok = ok && (o->order != HUNT_ORDER_ENUM || h.en);
    h.db = ok ? campaign_open(dbpath, true, d) : NULL;
    ok = h.db != NULL;
    char *params = ok ? params_text(&h, v) : NULL;
    ok = ok && campaign_hunt_init(h.db, params, d);
    free(params);
    h.models = model_set_new();
    if (ok && !(h.tmp = file_temp_dir("litmusc-hunt")))
        ok = diag_fail(d, "hunt: cannot make a temporary folder: %s", strerror(errno));
    ok = ok && (h.src = model_set_get(h.models, h.row->source_model, d)) &&
         (h.lifted = model_set_get(h.models, h.row->model, d));
    campaign_hunt_totals before = {0};
    ok = ok && campaign_hunt_count(h.db, &before, d);
    if (ok) {
        st->p.tests = before.tests, st->p.configs = before.configs, st->p.compiled = before.compiled;
        st->p.lifted = before.lifted, st->p.raw_bugs = before.raw_bugs;
        st->refused = before.refused;
    }
    ok = ok && search(&h, v, d);
    if (h.en)
        snprintf(st->where, sizeof st->where, "%s", h.where);
    report_progress(&h, "search", NULL);
    double searched = st->p.elapsed_s, rate = st->p.rate;
    ok = ok && hunt_process_bugs(&h, d);
    st->p.elapsed_s = searched, st->p.rate = rate;
    ok = ok && hunt_write_report(&h, d);
    if (ok && h.o->progress) {
        st->p.phase = "done", st->p.current = NULL;
        h.o->progress(h.o->ctx, &st->p);
    }
    if (h.tmp)
        file_remove_tree(h.tmp);
    free(h.tmp);
    if (h.models)
        model_set_free(h.models);
    if (h.db)
        campaign_close(h.db);
    hunt_enum_free(h.en);
    hunt_vocab_free(v);
    free(h.drawn);
    free(dbpath);
    for (int c = 0; c < h.ncfg; c++)
        free(h.cfgs[c].version);
    free(h.cfgs);
    return ok;
}
