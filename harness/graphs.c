/* Pictures of witness executions into a folder (model --graph): the
 * model runs with an observer, each execution in which the condition
 * holds is drawn (model/graph.h), rendered by dot when SVG is asked for,
 * and written whole as DIR/NAME-K.EXT.  The folder is checked before any
 * test runs, so an unwritable one fails with nothing written. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness/harness.h"
#include "model/graph.h"
#include "util/file.h"
#include "util/mem.h"

/* dot takes well under a second on a litmus-sized graph. */
#define DOT_TIMEOUT_S 60.0

typedef struct drawn_model { const model *m; model_graph *g; } drawn_model;

struct harness_graphs {
    char *dir;
    harness_graph_format format;
    char **show;
    int nshow;
    drawn_model *models;
    size_t nmodels, capmodels;
    char **stems;           /* file names of the tests drawn so far */
    size_t nstems, capstems;
};

harness_graphs *harness_graphs_new(const char *dir, harness_graph_format format, const char *const *show,
                                   int nshow, diag *d)
{
    /* dot first: a missing one must not leave an empty folder behind */
    if (format == HARNESS_GRAPH_SVG && !harness_dot_check(d))
        return NULL;
    if (!file_mkdirs(dir, 0777)) {
        diag_error(d, NULL, 0, 0, "cannot create the folder %s: %s", dir, strerror(errno));
        return NULL;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        diag_error(d, NULL, 0, 0, "cannot write into the folder %s: %s", dir, strerror(errno));
        return NULL;
    }
    harness_graphs *g = xcalloc(1, sizeof *g);
    g->dir = xstrdup(dir);
    g->format = format;
    g->nshow = nshow;
    g->show = xcalloc((size_t)(nshow ? nshow : 1), sizeof *g->show);
    for (int k = 0; k < nshow; k++)
        g->show[k] = xstrdup(show[k]);
    return g;
}

void harness_graphs_free(harness_graphs *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->nmodels; i++)
        model_graph_free(g->models[i].g);
    free(g->models);
    strv_free(g->stems, (int)g->nstems);
    strv_free(g->show, g->nshow);
    free(g->dir);
    free(g);
}

static model_graph *graph_of(harness_graphs *g, const model *m, diag *d)
{
    for (size_t i = 0; i < g->nmodels; i++)
        if (g->models[i].m == m)
            return g->models[i].g;
    model_graph *mg = model_graph_new(m, (const char *const *)g->show, g->nshow, d);
    if (!mg)
        return NULL;
    drawn_model dm = {m, mg};
    VEC_PUSH(g->models, g->nmodels, g->capmodels, dm);
    return mg;
}

bool harness_graphs_check(harness_graphs *g, const model *m, diag *d)
{
    return graph_of(g, m, d) != NULL;
}

typedef struct drawing_ctx {
    harness_graphs *g;
    model_graph *mg;
    const char *stem;
} drawing_ctx;

static bool draw(void *ctx, const struct exec *x, const model_exec_info *info, diag *d)
{
    drawing_ctx *c = ctx;
    if (!info->cond)
        return true;
    char *text = model_graph_dot(c->mg, x, info, d);
    if (!text)
        return false;
    const char *data = text;
    size_t len = strlen(text);
    char *svg = NULL;
    if (c->g->format == HARNESS_GRAPH_SVG) {
        svg = harness_dot_render(text, "svg", DOT_TIMEOUT_S, &len, d);
        if (!svg) {
            free(text);
            return false;
        }
        data = svg;
    }
    char *path = xasprintf("%s/%s-%llu.%s", c->g->dir, c->stem, (unsigned long long)info->index,
                           c->g->format == HARNESS_GRAPH_SVG ? "svg" : "dot");
    bool ok = file_write_atomic(path, data, len);
    if (!ok)
        diag_fail(d, "cannot write %s: %s", path, strerror(errno));
    free(path);
    free(svg);
    free(text);
    return ok;
}

bset *harness_graphs_run(harness_graphs *g, const model *m, const ir_test *t, diag *d)
{
    model_graph *mg = graph_of(g, m, d);
    if (!mg)
        return NULL;
    char *stem = native_file_stem(t->name);
    for (size_t i = 0; i < g->nstems; i++)
        if (!strcmp(g->stems[i], stem)) {
            diag_error(d, t->file, 0, 0, "a second test named %s: its pictures would replace the first's"
                       " in %s", stem, g->dir);
            free(stem);
            return NULL;
        }
    VEC_PUSH(g->stems, g->nstems, g->capstems, stem);
    drawing_ctx c = {g, mg, stem};
    return model_run_observed(m, t, draw, &c, d);
}
