/* Loading a cat model: find the file (embedded name or path, cat_find.c),
 * parse it, resolve it with its includes, and type-check it by running it
 * once on an empty execution, so that a model with a type error is
 * rejected when it is loaded rather than on the first candidate. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/cat/cat_impl.h"
#include "util/mem.h"

static char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b);
    if (n > 4 && !strcmp(b + n - 4, ".cat")) n -= 4;
    return xstrndup(b, n);
}

/* Run the model once on an execution with no events: every expression on
 * the path is evaluated, so type errors surface with their position. */
static bool dry_run(const cat_model *m, diag *d)
{
    exec *x = xcalloc(1, sizeof *x);
    cat_run *r = cat_run_new(m);
    r->dry = true;
    cat_verdict v;
    bool ok = cat_run_check(r, x, &v, d);
    cat_run_free(r);
    free(x);
    return ok;
}

static cat_model *load_text(const char *text, const char *path, const char *name, diag *d)
{
    cat_model *m = xcalloc(1, sizeof *m);
    m->co_slot = -1;
    m->name = xstrdup(name);
    const char *file = cat_model_intern_file(m, path ? path : "<model>");
    cat_file *f = xcalloc(1, sizeof *f);
    if (!cat_parse(text, file, f, d)) {
        free(f);
        cat_free(m);
        return NULL;
    }
    m->title = xstrdup(f->title ? f->title : "");
    if (!cat_resolve(m, f, file, d)) {
        cat_free(m);
        return NULL;
    }
    for (int k = 0; k < m->nparsed; k++) m->catdep |= m->parsed[k]->catdep;
    if (!dry_run(m, d)) {
        cat_free(m);
        return NULL;
    }
    return m;
}

cat_model *cat_load_text(const char *text, const char *file, diag *d)
{
    char *name = base_name(file ? file : "model");
    cat_model *m = load_text(text, file, name, d);
    free(name);
    return m;
}

static bool is_builtin_name(const char *s)
{
    return strchr(s, '/') == NULL && strchr(s, '.') == NULL;
}

cat_model *cat_load(const char *name_or_path, diag *d)
{
    char *text, *path, *name = base_name(name_or_path);
    if (is_builtin_name(name_or_path)) {
        char *file = xasprintf("%s.cat", name_or_path);
        text = cat_embedded_text(file, &path);
        free(file);
        if (!text) {
            /* model_load words this for the user, with the models it knows */
            diag_error(d, NULL, 0, 0, "unknown model '%s' (no embedded model/cat/%s.cat)", name_or_path,
                       name_or_path);
            free(name);
            return NULL;
        }
    } else {
        text = cat_read_file(name_or_path);
        if (!text) {
            diag_error(d, name_or_path, 0, 0, "cannot read model: %s", strerror(errno));
            free(name);
            return NULL;
        }
        path = xstrdup(name_or_path);
    }
    cat_model *m = load_text(text, path, name, d);
    free(text);
    free(path);
    free(name);
    return m;
}

void cat_free(cat_model *m)
{
    if (!m) return;
    for (int i = 0; i < m->nparsed; i++) {
        cat_file_free(m->parsed[i]);
        free(m->parsed[i]);
    }
    free(m->parsed);
    strv_free(m->files, m->nfiles);
    strv_free(m->flags, m->nflags);
    strv_free(m->tags, m->ntags);
    free(m->top);
    strv_free(m->top_names, m->ntop_names);
    free(m->top_slots);
    free(m->global_dyn);
    free(m->name);
    free(m->title);
    free(m);
}

const char *cat_model_name(const cat_model *m) { return m->name; }
bool cat_model_generates_co(const cat_model *m) { return m->generates_co; }
bool cat_model_handles_locks(const cat_model *m) { return m->handles_locks; }
int cat_model_nflags(const cat_model *m) { return m->nflags; }
const char *cat_model_flag_name(const cat_model *m, int i) { return i >= 0 && i < m->nflags ? m->flags[i] : NULL; }
