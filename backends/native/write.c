/* Writing generated files so that a failure never leaves a partial file:
 * each goes to a temporary file beside its destination, then is renamed
 * over it (atomic within one file system). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "backends/native/native_internal.h"
#include "util/file.h"

bool native_write_file(const char *path, const char *data, size_t len, diag *d)
{
    if (file_write_atomic(path, data, len))
        return true;
    return diag_fail(d, "cannot write %s: %s", path, strerror(errno));
}

bool native_write_runtime(const char *dir, diag *d)
{
    for (int i = 0; native_runtime_file(i); i++) {
        const embed_file *f = native_runtime_file(i);
        const char *base = strrchr(f->path, '/');
        char *path = xasprintf("%s/%s", dir, base ? base + 1 : f->path);
        bool ok = native_write_file(path, f->data, f->len, d);
        free(path);
        if (!ok)
            return false;
    }
    return true;
}

char *native_file_stem(const char *name)
{
    strbuf b = {0};
    for (const unsigned char *p = (const unsigned char *)(name ? name : ""); *p; p++) {
        unsigned char c = *p;
        bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '+' || (c == '.' && b.len > 0);
        sb_addc(&b, keep ? (char)c : '_');
    }
    if (b.len == 0)
        sb_add(&b, "test");
    return sb_take(&b);
}
