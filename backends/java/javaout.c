/* All-or-nothing writing of generated sources (see javaout.h). */
#include "backends/java/javaout.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/file.h"
#include "util/mem.h"

void javaout_add(javaout_set *s, char *path, char *data)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 8;
        s->paths = xrealloc(s->paths, (size_t)s->cap * sizeof *s->paths);
        s->data = xrealloc(s->data, (size_t)s->cap * sizeof *s->data);
    }
    s->paths[s->n] = path;
    s->data[s->n] = data;
    s->n++;
}

void javaout_free(javaout_set *s)
{
    for (int i = 0; i < s->n; i++) {
        free(s->paths[i]);
        free(s->data[i]);
    }
    free(s->paths);
    free(s->data);
    memset(s, 0, sizeof *s);
}

bool javaout_mkdirs(const char *dir, diag *d)
{
    if (file_mkdirs(dir, 0777))
        return true;
    return diag_fail(d, errno == ENOTDIR ? "%s is not a folder" : "cannot create folder %s: %s", dir,
                     strerror(errno));
}

char *javaout_source_path(const char *root, const char *package, const char *cls)
{
    char *pkg = xstrdup(package);
    for (char *q = pkg; *q; q++)
        if (*q == '.')
            *q = '/';
    char *path = xasprintf("%s/%s/%s.java", root, pkg, cls);
    free(pkg);
    return path;
}

static bool write_one(const char *path, const char *data, diag *d)
{
    char *dir = xstrdup(path);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        if (!javaout_mkdirs(dir, d)) {
            free(dir);
            return false;
        }
    }
    free(dir);
    if (file_write_atomic(path, data, strlen(data)))
        return true;
    return diag_fail(d, "cannot write %s: %s", path, strerror(errno));
}

bool javaout_write(const javaout_set *s, diag *d)
{
    for (int i = 0; i < s->n; i++) {
        if (!write_one(s->paths[i], s->data[i], d)) {
            for (int j = 0; j < i; j++)
                unlink(s->paths[j]);
            return false;
        }
    }
    return true;
}
