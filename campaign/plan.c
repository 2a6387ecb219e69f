/* Planning a campaign: the tests (their source text goes into the
 * database, so a run, a resume or a merge elsewhere needs no files) and
 * one run per test and configuration of the shard.
 *
 * A run's key is a digest of the test (name and herd hash) and the
 * configuration (target, compiler, model, options): the same run on any
 * machine has the same key, which is what resuming, sharding and merging
 * go by. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <errno.h>
#include <ftw.h>
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "campaign/internal.h"
#include "frontend/frontend.h"
#include "isa/isa.h"
#include "ir/lower.h"
#include "model/model.h"
#include "util/file.h"
#include "util/md5.h"

/* ---- the files ---------------------------------------------------------- */

typedef struct file_list {
    char **v;
    size_t n, cap;
} file_list;

static file_list *walk_list;

static int walk_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)ftw;
    size_t n = strlen(path);
    if (flag == FTW_F && n > 7 && !strcmp(path + n - 7, ".litmus"))
        VEC_PUSH(walk_list->v, walk_list->n, walk_list->cap, xstrdup(path));
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every path as given, a folder as its .litmus files (sorted). */
static void collect(const char *const *paths, int npaths, file_list *out)
{
    for (int i = 0; i < npaths; i++) {
        struct stat sb;
        if (stat(paths[i], &sb) == 0 && S_ISDIR(sb.st_mode)) {
            file_list sub = {0};
            walk_list = &sub;
            nftw(paths[i], walk_one, 16, FTW_PHYS);
            walk_list = NULL;
            if (sub.n)  /* an empty folder: no array */
                qsort(sub.v, sub.n, sizeof *sub.v, cmp_str);
            for (size_t k = 0; k < sub.n; k++)
                VEC_PUSH(out->v, out->n, out->cap, sub.v[k]);
            free(sub.v);
        } else
            VEC_PUSH(out->v, out->n, out->cap, xstrdup(paths[i]));
    }
}

/* ---- the runs ----------------------------------------------------------- */


/* Can TARGET run a test of ARCH?  x86 compiles C and Java through a
 * scheme, c11 takes every test, java only C and Java, cc-check only C. */
static bool target_runs(const char *target, ir_arch arch)
{
    if (!strcmp(target, "java"))
        return arch == IR_ARCH_C || arch == IR_ARCH_JAVA;
    if (!strcmp(target, CAMPAIGN_CC_TARGET))
        return arch == IR_ARCH_C;   /* a C compiler builds it */
    return true;
}

static void run_key(const ir_test *t, const campaign_config *cf, const char *model, char out[33])
{
    char *s = xasprintf("%s\n%s\n%s\n%s\n%s\n%s", t->hash, t->name, cf->target, cf->compiler, model,
                        cf->options);
    unsigned char dig[16];
    md5(s, strlen(s), dig);
    md5_hex(dig, out);
    free(s);
}

static int64_t test_id(campaign *c, const ir_test *t, const char *path, const char *source, diag *d)
{
    const char *vals[] = {t->name, t->hash, ir_arch_name(t->arch), path, source};
    return cdb_upsert(c, "INSERT OR IGNORE INTO tests (name, hash, arch, path, source) VALUES (?1, ?2, ?3, ?4, ?5)",
                      "SELECT id FROM tests WHERE name = ?1 AND hash = ?2", vals, 5, 2, d);
}

static int64_t config_id(campaign *c, const campaign_config *cf, const char *model, diag *d)
{
    const char *vals[] = {cf->target, cf->compiler, model, cf->options};
    return cdb_upsert(c, "INSERT OR IGNORE INTO configs (target, compiler, model, options) VALUES (?1, ?2, ?3, ?4)",
                      "SELECT id FROM configs WHERE target = ?1 AND compiler = ?2 AND model = ?3 AND options = ?4",
                      vals, 4, 4, d);
}

/* Add one test's runs; false only for a database failure. */
static bool plan_test(campaign *c, const ir_test *t, const char *path, const char *source,
                      const campaign_config *configs, int nconfigs, int shard, int nshards, campaign_plan_stats *st,
                      diag *d)
{
    int64_t tid = -1;
    for (int k = 0; k < nconfigs; k++) {
        campaign_config one = configs[k];
        const campaign_config *cf = &one;
        /* "auto": what run picks, x86 for X86 tests and c11 otherwise */
        if (!strcmp(one.target, "auto"))
            one.target = isa_native_target(t->arch, "c11");
        if (!strcmp(one.target, "java"))
            one.compiler = "javac";
        if (!target_runs(cf->target, t->arch)) {
            st->skipped++;
            continue;
        }
        const char *model = cf->model ? cf->model : model_default_name(t->arch);
        char key[33];
        run_key(t, cf, model, key);
        if (campaign_shard_of(key, nshards) != shard)
            continue;
        if (tid < 0 && (tid = test_id(c, t, path, source, d)) < 0)
            return false;
        int64_t cid = config_id(c, cf, model, d);
        if (cid < 0)
            return false;
        sqlite3_stmt *ins = cdb_prepare(c, "INSERT OR IGNORE INTO runs (key, test_id, config_id, status) "
                                           "VALUES (?1, ?2, ?3, 'pending')", d);
        if (!ins)
            return false;
        cdb_bind_text(ins, 1, key);
        sqlite3_bind_int64(ins, 2, tid);
        sqlite3_bind_int64(ins, 3, cid);
        bool ok = cdb_done(c, ins, d);
        sqlite3_finalize(ins);
        if (!ok)
            return false;
        st->runs++;
        sqlite3_stmt *q = cdb_prepare(c, "SELECT status FROM runs WHERE key = ?1", d);
        if (!q)
            return false;
        cdb_bind_text(q, 1, key);
        if (sqlite3_step(q) == SQLITE_ROW && !strcmp((const char *)sqlite3_column_text(q, 0), "done"))
            st->done++;
        sqlite3_finalize(q);
    }
    if (tid >= 0)
        st->tests++;
    return true;
}

bool campaign_plan(campaign *c, const char *const *paths, int npaths, const campaign_config *configs,
                   int nconfigs, const char *filter, int shard, int nshards, campaign_bad_file bad,
                   void *bad_ctx, campaign_plan_stats *st, diag *d)
{
    memset(st, 0, sizeof *st);
    if (nshards < 1 || shard < 1 || shard > nshards)
        return diag_error(d, NULL, 0, 0, "--shard %d/%d: I must be between 1 and N", shard, nshards);
    pcre2_code *re = NULL;
    pcre2_match_data *md = NULL;
    if (filter) {
        int err;
        PCRE2_SIZE off;
        re = pcre2_compile((PCRE2_SPTR)filter, PCRE2_ZERO_TERMINATED, 0, &err, &off, NULL);
        if (!re) {
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(err, msg, sizeof msg);
            return diag_error(d, NULL, 0, 0, "--filter '%s': %s at offset %zu", filter, (char *)msg, (size_t)off);
        }
        md = pcre2_match_data_create_from_pattern(re, NULL);
    }
    file_list files = {0};
    collect(paths, npaths, &files);
    bool ok = cdb_begin(c, d);
    for (size_t i = 0; ok && i < files.n; i++) {
        strbuf text = {0};
        bool opened;
        diag fd = {0};
        if (!file_read_all(files.v[i], &text, &opened)) {
            diag_error(&fd, files.v[i], 0, 0, opened ? "cannot read: %s" : "cannot open: %s", file_error(errno));
            if (bad)
                bad(bad_ctx, &fd);
            continue;
        }
        fe_test *ft = fe_parse(text.s ? text.s : "", text.len, files.v[i], &fd);
        ir_test *t = ft ? ir_lower(ft, &fd) : NULL;
        fe_test_free(ft);
        if (!t) {
            if (bad)
                bad(bad_ctx, &fd);
        } else if (!re || pcre2_match(re, (PCRE2_SPTR)t->name, strlen(t->name), 0, 0, md, NULL) >= 0) {
            ok = plan_test(c, t, files.v[i], text.s ? text.s : "", configs, nconfigs, shard, nshards, st, d);
        }
        ir_test_free(t);
        sb_free(&text);
    }
    if (ok)
        ok = cdb_commit(c, d);
    else
        cdb_rollback(c);
    for (size_t i = 0; i < files.n; i++)
        free(files.v[i]);
    free(files.v);
    if (md)
        pcre2_match_data_free(md);
    if (re)
        pcre2_code_free(re);
    return ok;
}
