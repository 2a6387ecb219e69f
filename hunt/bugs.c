/* What becomes of each configuration that showed a forbidden state: the
 * bug predicate (compile the candidate with the configuration and extra
 * flags, lift, compare), reduction, bisection, confirmation on this
 * machine with the very object the lifter read and with the minimal test
 * compiled alone, a repro, and one bug per minimal shape and culprit.  A
 * mixed configuration goes through the same steps, each thread compiled
 * with its own configuration (bugs_compile.c), bisected per compiler.  Each step that fails is said in the bug's
 * report; the bug is reported all the same. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "frontend/frontend.h"
#include "hunt/bug.h"
#include "hunt/hunt_internal.h"
#include "ir/lower.h"
#include "lift/lift.h"
#include "model/bset.h"
#include "util/file.h"
#include "util/md5.h"
#include "util/mem.h"

/* The predicate's context: the hunt, the bug's configuration and stream
 * entry (a mix's threads take their configurations from it), and the one
 * configuration of a mix the extra flags go to (-1: all). */
typedef struct pctx {
    hctx *h;
    int config;
    long k;
    int only;
    int calls;
} pctx;

/* Check TEXT with the configuration (and EXTRA flags): R filled, FT/T
 * kept for the caller when wanted; -1 when it cannot say, else 1/0. */
static int check_text(pctx *p, const char *text, const char *extra, lift_result *r, fe_test **ftp, ir_test **tp,
                      diag *d)
{
    hctx *h = p->h;
    p->calls++;
    memset(r, 0, sizeof *r);
    fe_test *ft = fe_parse(text, strlen(text), "candidate", d);
    ir_test *t = ft ? ir_lower(ft, d) : NULL;
    bset *sb = t ? model_run(h->src, t, d) : NULL;
    int res = -1;
    if (sb && p->config < h->ncfg) {
        const hcfg *f = &h->cfgs[p->config];
        char *flags = xasprintf("%s%s%s", f->cflags, extra && *extra ? " " : "", extra ? extra : "");
        if (lift_check_target(ft, t, sb, h->lifted, h->o->target, f->cc, flags, h->o->unroll, LIFT_CC_TIMEOUT_S, r,
                              d))
            res = r->nbad > 0;
        free(flags);
    } else if (sb) {
        /* a mix: each thread's function from its own configuration's object */
        char **objs = NULL;
        int n = 0;
        if (hunt_compile_objs(h, p->config, p->k, ft, t, extra, p->only, false, &objs, &n, d)) {
            char *name = hunt_config_name(h, p->config, p->k, t->nthreads);
            if (lift_check_objects_target(t, sb, h->lifted, h->o->target, (const char *const *)objs, "", "mix", name,
                                          h->o->unroll, r, d))
                res = r->nbad > 0;
            free(name);
            hunt_objs_free(objs, n);
        }
    }
    if (sb)
        bset_free(sb);
    if (tp && res >= 0) {
        *tp = t, *ftp = ft;
        return res;
    }
    if (t)
        ir_test_free(t);
    if (ft)
        fe_test_free(ft);
    return res;
}

static int pred(void *ctx, const char *text, const char *extra, diag *d)
{
    lift_result r;
    int res = check_text(ctx, text, extra, &r, NULL, NULL, d);
    lift_result_free(&r);
    return res;
}

/* D's message, malloc'd. */
static char *msg_of(const diag *d)
{
    char m[DIAG_MSG_MAX];
    if (!d->set)
        return xstrdup("failed, no reason given");
    diag_format(d, m, sizeof m);
    /* the report says which step it was; "error: " adds nothing there */
    const char *e = strstr(m, "error: ");
    return xstrdup(e ? e + 7 : m);
}

/* The culprit, one short phrase (the dedup key's part and the report's). */
static char *culprit_of(const hunt_bisect_result *b, const char *err)
{
    if (err)
        return xstrdup("unknown (bisection failed)");
    if (b->kind == HUNT_BISECT_NOT_A_PASS)
        return xstrdup("not a pass of the compiler proper");
    if (b->kind == HUNT_BISECT_PASS && b->pass)
        return xasprintf("pass %s", b->pass);
    if (b->kind == HUNT_BISECT_PASS && b->flags)
        return xasprintf("flags %s", b->flags);
    return xstrdup("unknown");
}

/* The test's family: diy7's name up to its first '+' (SB, MP, 2+2W). */
static char *family(const char *name)
{
    if (!strncmp(name, "2+2W", 4))
        return xstrdup("2+2W");
    return xasprintf("%.*s", (int)strcspn(name, "+"), name);
}

/* Test TEXT's shape: its text without the first line (the name). */
static const char *shape(const char *text)
{
    const char *nl = strchr(text, '\n');
    return nl ? nl + 1 : text;
}

/* Each configuration a mix's threads use, bisected with the extra flags
 * going to that configuration's threads only, the others compiled as
 * found; which threads, in B->mixb. */
static void bisect_mix(hctx *h, hunt_bug *b, const char *best)
{
    b->mixb = xcalloc((size_t)h->ncfg, sizeof *b->mixb);
    for (int c = 0; c < h->ncfg; c++) {
        strbuf th = {0};
        for (int n = 0; n < b->t->nthreads; n++)
            if (hunt_mix_config(h, b->k, n) == c)
                sb_printf(&th, "%sP%d", th.len ? " " : "", n);
        if (!th.len)
            continue;
        hunt_mix_bisect *m = &b->mixb[b->nmixb++];
        m->config = c;
        m->threads = sb_take(&th);
        pctx pc = {.h = h, .config = b->config, .k = b->k, .only = c};
        diag bd = {0};
        char *pre = lift_target_flags(h->o->target, h->cfgs[c].cc);
        if (!hunt_bisect_with(h->cfgs[c].cc, pre, h->cfgs[c].cflags, best, pred, &pc, &m->r, &bd))
            m->err = msg_of(&bd);
        free(pre);
    }
}

/* A mix's culprit: each configuration's, after its threads. */
static char *mix_culprit(const hctx *h, const hunt_bug *b)
{
    strbuf c = {0};
    for (int i = 0; i < b->nmixb; i++) {
        const hunt_mix_bisect *m = &b->mixb[i];
        char *one = culprit_of(&m->r, m->err);
        sb_printf(&c, "%s%s (%s %s): %s", i ? "; " : "", m->threads, h->cfgs[m->config].cc,
                  h->cfgs[m->config].cflags, one);
        free(one);
    }
    return c.s ? sb_take(&c) : xstrdup("unknown");
}

/* Why a cross target's objects were not run (malloc'd): repro.c is what
 * a user runs on such a machine. */
static char *not_here(const hctx *h)
{
    return xasprintf("no %s machine here", h->row->machine_name);
}

/* The minimal test (or the test as found, when it was not reduced)
 * compiled alone, linked with the driver and run: the hardware count of
 * the state that test shows, beside the found object's. */
static void confirm_minimal(hctx *h, hunt_bug *b)
{
    if (!hunt_target_native(h)) {
        b->mconfirm_err = not_here(h);
        return;
    }
    if (!b->mt || !b->mforbidden) {
        b->mconfirm_err = xstrdup(b->repro_err && !b->mforbidden ? b->repro_err
                                  : "the test compiled alone shows no forbidden state");
        return;
    }
    char **objs = NULL;
    int n = 0;
    diag cd = {0};
    if (!hunt_compile_objs(h, b->config, b->k, b->mft, b->mt, NULL, -1, true, &objs, &n, &cd)) {
        b->mconfirm_err = msg_of(&cd);
        return;
    }
    hunt_confirm_opts co = {.budget_s = h->o->confirm_s > 0 ? h->o->confirm_s : 10};
    if (hunt_confirm(b->mt, "", (const char *const *)objs, n, b->mforbidden, &co, &b->mconfirm, &cd))
        b->mconfirmed = true;
    else
        b->mconfirm_err = msg_of(&cd);
    hunt_objs_free(objs, n);
}

/* Reduce, bisect, confirm and write raw bug R; its bug's id in *ID. */
static bool process(hctx *h, const campaign_hunt_raw *r, char **id, diag *d)
{
    const hunt_opts *o = h->o;
    bool mix = r->config >= h->ncfg;
    hunt_bug b = {.raw = r, .k = r->k, .config = r->config, .seed = o->seed};
    b.config_name = hunt_config_name(h, r->config, r->k, 0);
    if (!mix)
        b.cfg = &h->cfgs[r->config];
    diag dd = {0};
    fe_test *ft = fe_parse(r->source, strlen(r->source), r->test, &dd);
    ir_test *t = ft ? ir_lower(ft, &dd) : NULL;
    bset *sb = t ? model_run(h->src, t, &dd) : NULL;
    if (!sb) {
        if (t)
            ir_test_free(t);
        if (ft)
            fe_test_free(ft);
        free(b.config_name);
        char *m = msg_of(&dd);
        bool ok = diag_fail(d, "hunt: the stored test %s does not read back: %s", r->test, m);
        free(m);
        return ok;
    }
    if (t->nthreads)
        free(b.config_name), b.config_name = hunt_config_name(h, r->config, r->k, t->nthreads);
    b.ft = ft, b.t = t, b.sb = sb;
    pctx pc = {.h = h, .config = r->config, .k = r->k, .only = -1};
    /* reduce (a mix's threads are not dropped: each keeps its compiler) */
    report_step(h, "reduce", r->test);
    diag rd = {0};
    b.minimal = hunt_reduce(r->source, pred, &pc, mix, &b.rstats, &rd);
    if (!b.minimal)
        b.reduce_err = msg_of(&rd);
    const char *best = b.minimal ? b.minimal : r->source;
    /* bisect (a mix: each of its compilers) */
    report_step(h, "bisect", r->test);
    if (mix) {
        bisect_mix(h, &b, best);
        b.bisect_err = xstrdup("a mixed configuration is bisected one compiler at a time (below)");
        b.culprit = mix_culprit(h, &b);
    } else {
        diag bd = {0};
        char *pre = lift_target_flags(o->target, b.cfg->cc);
        if (!hunt_bisect_with(b.cfg->cc, pre, b.cfg->cflags, best, pred, &pc, &b.bisect, &bd))
            b.bisect_err = msg_of(&bd);
        free(pre);
        b.culprit = culprit_of(&b.bisect, b.bisect_err);
    }
    /* confirm with the very object (a mix: one a thread, linked together) */
    report_step(h, "confirm", r->test);
    int nobj = r->object_size ? 1 : r->nthread_objects;
    if (!hunt_target_native(h))
        b.confirm_err = not_here(h);
    else if (!nobj)
        b.confirm_err = xstrdup("no object was kept for this configuration");
    else {
        char **paths = xcalloc((size_t)nobj, sizeof *paths);
        bool written = true;
        for (int n = 0; n < nobj; n++) {
            paths[n] = xasprintf("%s/confirm-%ld-%d-%d.o", h->tmp, r->k, r->config, n);
            const unsigned char *bytes = r->object_size ? r->object : r->thread_objects[n];
            size_t size = r->object_size ? r->object_size : r->thread_sizes[n];
            if (written && !file_write_atomic(paths[n], (const char *)bytes, size)) {
                b.confirm_err = xasprintf("cannot write %s", paths[n]);
                written = false;
            }
        }
        char prefix[32];
        hunt_prefix(r->k, prefix, sizeof prefix);
        for (int n = 0; written && !r->object_size && n < nobj; n++)
            if (!hunt_only_thread(t, prefix, n, paths[n], &b.confirm_err))
                written = false;
        if (written) {
            diag cd = {0};
            hunt_confirm_opts co = {.budget_s = o->confirm_s > 0 ? o->confirm_s : 10};
            if (hunt_confirm(t, prefix, (const char *const *)paths, nobj, r->forbidden, &co, &b.confirm, &cd))
                b.confirmed = true;
            else
                b.confirm_err = msg_of(&cd);
        }
        for (int n = 0; n < nobj; n++) {
            unlink(paths[n]);
            free(paths[n]);
        }
        free(paths);
    }
    /* the minimal test's own states, its repro and its hardware count */
    diag md = {0};
    lift_result mr;
    int res = check_text(&pc, best, NULL, &mr, &b.mft, &b.mt, &md);
    if (res == 1) {
        b.mforbidden = hunt_state_text(&mr, mr.bad[0]);
        b.mlifted = xstrdup(mr.text);
        strbuf sbt = {0};
        bset_format_herd(&sbt, mr.ct, mr.cb, 0);
        b.mcb_text = sb_take(&sbt);
        diag pd = {0};
        if (mix)
            b.repro_err = xstrdup("a mixed configuration has no single-compiler repro");
        else if (!(b.repro = hunt_repro_text(b.mft, b.mt, b.mforbidden, &pd)))
            b.repro_err = msg_of(&pd);
    } else
        b.repro_err = xasprintf("the %s test does not show the bug when compiled alone%s",
                                b.minimal ? "minimal" : "found", res < 0 ? " (it does not compile or lift)" : "");
    lift_result_free(&mr);
    report_step(h, "confirm", r->test);
    confirm_minimal(h, &b);
    /* one bug per configuration, minimal shape and culprit */
    char *key = xasprintf("%s\n%s\n%s", b.config_name, shape(best), b.culprit);
    unsigned char dg[16];
    char hex[33];
    md5(key, strlen(key), dg);
    md5_hex(dg, hex);
    free(key);
    *id = xasprintf("%.12s", hex);
    b.id = *id;
    bool ok = hunt_bug_write(h, &b, d);
    hunt_bug_free(&b);
    return ok;
}

bool hunt_process_bugs(hctx *h, diag *d)
{
    campaign_hunt_raw *raw = NULL;
    int n = 0;
    if (!campaign_hunt_raw_list(h->db, &raw, &n, d))
        return false;
    /* raw bugs of one configuration and one family count as instances of
     * the first one's bug, without reducing again */
    char **fam = xcalloc((size_t)n + 1, sizeof *fam);
    bool ok = true;
    int processed = 0;
    for (int i = 0; ok && i < n; i++) {
        fam[i] = family(raw[i].test);
        const campaign_hunt_raw *r = &raw[i];
        const char *same = NULL;
        for (int j = 0; j < i && !same; j++)
            if (raw[j].config == r->config && !strcmp(fam[j], fam[i]) && *raw[j].bug_id)
                same = raw[j].bug_id;
        if (*r->bug_id)
            continue;
        if (same) {
            free(raw[i].bug_id);
            raw[i].bug_id = xstrdup(same);
            ok = hunt_bug_cover(h, same, r, d);
            continue;
        }
        if (processed >= h->o->max_bugs)
            continue;
        char *id = NULL;
        ok = process(h, r, &id, d);
        processed++;
        if (ok) {
            free(raw[i].bug_id);
            raw[i].bug_id = id;
        } else
            free(id);
    }
    for (int i = 0; i < n; i++)
        free(fam[i]);
    free(fam);
    campaign_hunt_raw_free(raw, n);
    return ok;
}
