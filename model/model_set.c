/* Models loaded once per name: a corpus run, a campaign or a batch of
 * tests uses one or two models many times (model.h). */
#include <stdlib.h>
#include <string.h>
#include "model/model.h"
#include "util/mem.h"

struct model_set {
    char **names;
    model **models;
    size_t n, cap, cap2;
};

model_set *model_set_new(void)
{
    return xcalloc(1, sizeof(model_set));
}

model *model_set_get(model_set *s, const char *name, diag *d)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->names[i], name))
            return s->models[i];
    model *m = model_load(name, d);
    if (!m)
        return NULL;
    size_t n = s->n;
    VEC_PUSH(s->names, s->n, s->cap, xstrdup(name));
    VEC_PUSH(s->models, n, s->cap2, m);
    return m;
}

void model_set_free(model_set *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++) {
        free(s->names[i]);
        model_free(s->models[i]);
    }
    free(s->names);
    free(s->models);
    free(s);
}
