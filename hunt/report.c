/* DIR/report.json: the hunt's configurations, its totals over every
 * process that worked on it (read from the database, so a resumed or
 * merged hunt counts everything once), and each bug's entry (schema
 * litmusc-hunt/1, documented in the README and in hunt/report.schema.json). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hunt/hunt_internal.h"
#include "util/file.h"
#include "util/json.h"
#include "util/mem.h"

bool hunt_write_report(hctx *h, diag *d)
{
    campaign_hunt_totals t;
    char **ids = NULL, **jsons = NULL;
    int *inst = NULL, n = 0;
    if (!campaign_hunt_count(h->db, &t, d) || !campaign_hunt_bug_list(h->db, &ids, &jsons, &inst, &n, d))
        return false;
    hunt_stats *st = h->st;
    st->p.tests = t.tests, st->p.configs = t.configs, st->p.compiled = t.compiled, st->p.lifted = t.lifted;
    st->p.raw_bugs = t.raw_bugs, st->refused = t.refused, st->p.bugs = n;
    strbuf out = {0};
    json j;
    json_init(&j, &out);
    json_object(&j);
    json_kv_string(&j, "schema", "litmusc-hunt/1");
    json_kv_uint(&j, "seed", h->o->seed);
    json_kv_bool(&j, "mix", h->nall > h->ncfg);
    json_kv_string(&j, "order", h->o->order == HUNT_ORDER_ENUM ? "enum" : "random");
    json_kv_string(&j, "target", h->row->name);
    json_kv_string(&j, "source_model", h->row->source_model);
    json_kv_string(&j, "lifted_model", h->row->model);
    json_key(&j, "configurations");
    json_array(&j);
    for (int c = 0; c < h->ncfg; c++) {
        json_object(&j);
        json_kv_string(&j, "compiler", h->cfgs[c].cc);
        json_kv_string(&j, "version", h->cfgs[c].version);
        json_kv_string(&j, "cflags", h->cfgs[c].cflags);
        json_end_object(&j);
    }
    json_end_array(&j);
    json_key(&j, "vocabulary");
    json_object(&j);
    json_kv_int(&j, "edges", st->vocab);
    json_kv_int(&j, "skipped", st->vocab_skipped);
    json_kv_int(&j, "drawn_this_run", st->vocab_drawn);
    json_end_object(&j);
    json_key(&j, "totals");
    json_object(&j);
    json_kv_int(&j, "tests", t.tests);
    json_kv_int(&j, "configurations", t.configs);
    json_kv_int(&j, "compiled", t.compiled);
    json_kv_int(&j, "lifted", t.lifted);
    json_kv_int(&j, "refused", t.refused);
    json_kv_int(&j, "raw_bugs", t.raw_bugs);
    json_kv_int(&j, "bugs", n);
    json_end_object(&j);
    json_key(&j, "this_run");
    json_object(&j);
    json_kv_int(&j, "configurations", h->configs_here);
    json_kv_int(&j, "compiler_calls", st->p.compiler_calls);
    json_kv_int(&j, "fallbacks", st->fallbacks);
    json_kv_double(&j, "search_seconds", st->p.elapsed_s);
    json_kv_double(&j, "rate", st->p.rate);
    if (h->en)
        json_kv_string(&j, "enumeration", st->where);
    json_end_object(&j);
    json_key(&j, "bugs");
    json_array(&j);
    for (int i = 0; i < n; i++) {
        /* the stored entry, with its count of instances added */
        size_t l = strlen(jsons[i]);
        char *e = l > 2 ? xasprintf("%.*s,\"instances\":%d}", (int)(l - 1), jsons[i], inst[i])
                        : xasprintf("{\"id\":\"%s\",\"instances\":%d}", ids[i], inst[i]);
        json_raw(&j, e);
        free(e);
    }
    json_end_array(&j);
    json_end_object(&j);
    sb_add(&out, "\n");
    char *path = xasprintf("%s/report.json", h->o->dir);
    bool ok = file_write_atomic(path, out.s, out.len);
    if (!ok)
        diag_fail(d, "hunt: cannot write %s: %s", path, strerror(errno));
    free(path);
    sb_free(&out);
    for (int i = 0; i < n; i++)
        free(ids[i]), free(jsons[i]);
    free(ids), free(jsons), free(inst);
    return ok;
}
