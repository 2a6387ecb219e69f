/* Where a cat model's files come from: a path on disk, or the embedded
 * model/cat/ files; and the file names a model keeps for its messages.
 * cat_load.c opens the model itself, cat_resolve.c its includes. */
#include <stdlib.h>
#include <string.h>
#include "model/cat/cat_impl.h"
#include "util/embed.h"
#include "util/file.h"
#include "util/mem.h"

char *cat_read_file(const char *path)
{
    strbuf b = {0};
    bool opened;
    return file_read_all(path, &b, &opened) ? sb_take(&b) : NULL;
}

char *cat_embedded_text(const char *name, char **path)
{
    char *p = xasprintf("model/cat/%s", name);
    const embed_file *e = embed_find(p);
    if (!e) { free(p); return NULL; }
    *path = p;
    return xstrdup(e->data);
}

bool cat_find_include(const char *name, const char *from_path, char **text, char **path)
{
    if (from_path && from_path[0] != '<' && strncmp(from_path, "model/cat/", 10) != 0 && strchr(name, '/') == NULL) {
        const char *slash = strrchr(from_path, '/');
        char *cand = slash ? xasprintf("%.*s/%s", (int)(slash - from_path), from_path, name) : xstrdup(name);
        char *t = cat_read_file(cand);
        if (t) { *text = t; *path = cand; return true; }
        free(cand);
    } else if (strchr(name, '/')) {
        char *t = cat_read_file(name);
        if (t) { *text = t; *path = xstrdup(name); return true; }
    }
    char *t = cat_embedded_text(name, path);
    if (!t) return false;
    *text = t;
    return true;
}

const char *cat_model_intern_file(cat_model *m, const char *path)
{
    for (int i = 0; i < m->nfiles; i++)
        if (!strcmp(m->files[i], path)) return m->files[i];
    m->files = xrealloc(m->files, (size_t)(m->nfiles + 1) * sizeof *m->files);
    m->files[m->nfiles] = xstrdup(path);
    return m->files[m->nfiles++];
}
