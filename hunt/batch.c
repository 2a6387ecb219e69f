/* A batch of a hunt: many tests in one translation unit, one compiler call
 * per configuration, each test's functions read from the one object under
 * its prefix and lifted as cc-check lifts a test compiled alone.  A unit
 * the compiler refuses goes again one test at a time, so that one bad
 * test does not lose the others.  Each (test, configuration) finished is
 * recorded in the hunt's database, the whole batch in one transaction. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "hunt/hunt_internal.h"
#include "lift/lift.h"
#include "util/file.h"
#include "util/mem.h"

double hunt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void hunt_prefix(long k, char *buf, size_t size)
{
    snprintf(buf, size, "t%ld_", k);
}

int hunt_mix_config(const hctx *h, long k, int th)
{
    uint64_t z = h->o->seed ^ ((uint64_t)k * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)(th + 1) << 40);
    z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9ULL;
    z ^= z >> 29;
    /* neighbouring threads from different configurations where there are two */
    int c = (int)(z % (uint64_t)h->ncfg);
    return h->ncfg > 1 && th % 2 == 1 && c == hunt_mix_config(h, k, th - 1) ? (c + 1) % h->ncfg : c;
}

char *hunt_config_name(const hctx *h, int c, long k, int nthreads)
{
    if (c < h->ncfg)
        return xasprintf("%s %s", h->cfgs[c].cc, h->cfgs[c].cflags);
    strbuf b = {0};
    sb_add(&b, "mix(");
    for (int n = 0; n < nthreads; n++) {
        const hcfg *f = &h->cfgs[hunt_mix_config(h, k, n)];
        sb_printf(&b, "%sP%d: %s %s", n ? " | " : "", n, f->cc, f->cflags);
    }
    sb_add(&b, ")");
    return sb_take(&b);
}

/* The unit of tests IT[FROM..TO): the headers, then each test's part. */
static char *unit_text(const hctx *h, hitem *it, int from, int to, diag *d)
{
    strbuf b = {0};
    char *head = lift_tu_head();
    sb_add(&b, head);
    free(head);
    for (int i = from; i < to; i++) {
        /* under --mix the globals are weak, so that the objects of two
         * configurations link into one program */
        char *part = lift_tu_part(it[i].ft, it[i].t, it[i].prefix, h->o->mix, d);
        if (!part) {
            sb_free(&b);
            return NULL;
        }
        sb_add(&b, part);
        free(part);
    }
    return sb_take(&b);
}

/* Write TEXT (N tests) to SRC and compile it into OBJ with configuration
 * C, under cc-check's time limit for each test of it. */
static bool build(hctx *h, int c, const char *text, int n, const char *src, const char *obj, diag *d)
{
    if (!file_write_atomic(src, text, strlen(text)))
        return diag_fail(d, "hunt: cannot write %s: %s", src, file_error(errno));
    h->st->p.compiler_calls++;
    return lift_compile_target(h->cfgs[c].cc, h->cfgs[c].cflags, h->o->target, src, obj,
                               LIFT_CC_TIMEOUT_S * (n < 4 ? 1 : n / 4), h->tmp, d);
}

char *hunt_state_text(const lift_result *r, int i)
{
    /* cc_unroll is the lifter's own location (a loop past its bound), no
     * global of the test: the state a run of the object can show is the rest */
    char *s = lift_state_text(r, i);
    char *u = strstr(s, LIFT_UNROLL_LOC "=");
    if (u) {
        char *end = strchr(u, ';');
        end = end ? end + 1 : u + strlen(u);
        while (*end == ' ')
            end++;
        memmove(u, end, strlen(end) + 1);
        size_t l = strlen(s);
        while (l && s[l - 1] == ' ')
            s[--l] = 0;
    }
    return s;
}

/* The bytes of OBJ (NULL when it cannot be read). */
static unsigned char *slurp(const char *obj, size_t *size)
{
    strbuf b = {0};
    if (!file_read_all(obj, &b, &(bool){false}))
        return NULL;
    *size = b.len;
    return (unsigned char *)sb_take(&b);
}

/* One row of the batch: test I under configuration C from OBJS. */
typedef struct hrow {
    campaign_hunt_row r;
    char *detail, *lifted, *forbidden;
    unsigned char *object;
    unsigned char **tobj;   /* a mix's objects, one a thread */
    size_t *tsize;
} hrow;

static void check(hctx *h, hitem *it, int c, const char *const *objs, const char *why_not, hrow *row)
{
    const hunt_opts *o = h->o;
    row->r = (campaign_hunt_row){.k = it->k, .config = c, .test = it->g.name, .verdict = "refused"};
    if (why_not) {
        row->detail = xstrdup(why_not);
        row->r.detail = row->detail;
        return;
    }
    row->r.compiled = true;
    char *name = hunt_config_name(h, c, it->k, it->t->nthreads);
    const char *cc = c < h->ncfg ? h->cfgs[c].cc : "mix";
    const char *cflags = c < h->ncfg ? h->cfgs[c].cflags : name;
    lift_result r;
    diag d = {0};
    bool ok = lift_check_objects_target(it->t, it->sb, h->lifted, o->target, objs, it->prefix, cc, cflags, o->unroll,
                                        &r, &d);
    row->r.lifted = r.lifted;
    if (!ok) {
        char msg[DIAG_MSG_MAX];
        diag_format(&d, msg, sizeof msg);
        row->detail = xstrdup(msg);
        row->r.detail = row->detail;
    } else {
        row->r.verdict = lift_verdict_name(r.verdict);
        if (r.nbad) {
            row->forbidden = hunt_state_text(&r, r.bad[0]);
            row->lifted = xstrdup(r.text);
            row->r.forbidden = row->forbidden;
            row->r.lifted_text = row->lifted;
            row->r.source = it->g.text;
            /* the very object, for confirmation; a mix's threads come from
             * several, kept in the order of the configurations */
            if (c < h->ncfg)
                row->object = slurp(objs[0], &row->r.object_size);
            row->r.object = row->object;
            int nt = it->t->nthreads;
            if (c >= h->ncfg) {
                row->tobj = xcalloc((size_t)nt, sizeof *row->tobj);
                row->tsize = xcalloc((size_t)nt, sizeof *row->tsize);
                for (int n = 0; n < nt; n++)
                    row->tobj[n] = slurp(objs[n], &row->tsize[n]);
                row->r.thread_objects = (const unsigned char *const *)row->tobj;
                row->r.thread_sizes = row->tsize;
                row->r.nthread_objects = nt;
            }
        }
    }
    lift_result_free(&r);
    free(name);
}

bool hunt_batch(hctx *h, hitem *it, int n, bool (*stop)(hctx *h), diag *d)
{
    int ncfg = h->ncfg;
    /* objs[c][i]: the object test I of configuration C is in; why[c][i]: why none */
    char ***objs = xcalloc((size_t)ncfg, sizeof *objs);
    char ***why = xcalloc((size_t)ncfg, sizeof *why);
    char *text = unit_text(h, it, 0, n, d);
    bool ok = text != NULL;
    for (int c = 0; ok && c < ncfg; c++) {
        objs[c] = xcalloc((size_t)n, sizeof **objs);
        why[c] = xcalloc((size_t)n, sizeof **why);
        char *src = xasprintf("%s/b%d.c", h->tmp, c), *obj = xasprintf("%s/b%d.o", h->tmp, c);
        diag cd = {0};
        if (build(h, c, text, n, src, obj, &cd)) {
            for (int i = 0; i < n; i++)
                objs[c][i] = xstrdup(obj);
        } else if (cd.status == 3 && n == 1) {
            ok = diag_fail(d, "%s", cd.msg);
        } else {
            /* one by one: a test the compiler refuses (or chokes on, past
             * the time limit) costs only itself; a compiler that cannot
             * run at all stops the hunt */
            if (n > 1)
                h->st->fallbacks++;
            for (int i = 0; i < n; i++) {
                char *s1 = xasprintf("%s/b%d-%d.c", h->tmp, c, i), *o1 = xasprintf("%s/b%d-%d.o", h->tmp, c, i);
                char *one = n > 1 ? unit_text(h, it, i, i + 1, d) : NULL;
                diag od = {0};
                if (n > 1 && one && build(h, c, one, 1, s1, o1, &od))
                    objs[c][i] = xstrdup(o1);
                else if (od.status == 3 && strstr(od.msg, "cannot run")) {
                    ok = diag_fail(d, "%s", od.msg);
                    free(one), free(s1), free(o1);
                    break;
                } else {
                    char msg[DIAG_MSG_MAX];
                    diag_format(n > 1 ? &od : &cd, msg, sizeof msg);
                    why[c][i] = xstrdup(msg);
                }
                free(one), free(s1), free(o1);
            }
        }
        free(src), free(obj);
    }
    free(text);
    hrow *rows = xcalloc((size_t)n * (size_t)h->nall, sizeof *rows);
    int nrows = 0;
    for (int i = 0; ok && i < n; i++) {
        if (stop(h))
            break;
        int nt = it[i].t->nthreads;
        const char **to = xcalloc((size_t)nt + 1, sizeof *to);
        for (int c = 0; c < h->nall; c++) {
            const char *why_not = NULL;
            for (int th = 0; th < nt; th++) {
                int cc = c < ncfg ? c : hunt_mix_config(h, it[i].k, th);
                to[th] = objs[cc][i];
                if (!to[th])
                    why_not = why[cc][i];
            }
            check(h, &it[i], c, to, why_not, &rows[nrows]);
            hunt_progress *p = &h->st->p;
            p->configs++, h->configs_here++;
            p->compiled += rows[nrows].r.compiled;
            p->lifted += rows[nrows].r.lifted;
            p->raw_bugs += rows[nrows].forbidden != NULL;
            h->st->refused += !strcmp(rows[nrows].r.verdict, "refused");
            nrows++;
        }
        h->st->p.tests++;
        /* the vocabulary's coverage: the edges of each test checked */
        char *cyc = xstrdup(it[i].g.cycle ? it[i].g.cycle : "");
        for (char *w = strtok(cyc, " "); w; w = strtok(NULL, " ")) {
            int e = hunt_vocab_find(h->vocab, w);
            if (e >= 0 && !h->drawn[e]) {
                h->drawn[e] = true;
                h->st->vocab_drawn++;
            }
        }
        free(cyc);
        free(to);
    }
    campaign_hunt_row *rr = xcalloc((size_t)nrows + 1, sizeof *rr);
    for (int i = 0; i < nrows; i++)
        rr[i] = rows[i].r;
    ok = ok && campaign_hunt_record(h->db, rr, nrows, d);
    free(rr);
    for (int i = 0; i < nrows; i++)
    {
        free(rows[i].detail), free(rows[i].lifted), free(rows[i].forbidden), free(rows[i].object);
        for (int n = 0; rows[i].tobj && n < rows[i].r.nthread_objects; n++)
            free(rows[i].tobj[n]);
        free(rows[i].tobj), free(rows[i].tsize);
    }
    free(rows);
    for (int c = 0; c < ncfg; c++) {
        for (int i = 0; objs[c] && i < n; i++)
            free(objs[c][i]), free(why[c][i]);
        free(objs[c]), free(why[c]);
    }
    free(objs), free(why);
    return ok;
}
