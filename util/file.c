/* Reading a whole file (file.h). */
#include <errno.h>
#include <stdio.h>
#include "util/file.h"

bool file_read_all(const char *path, strbuf *out, bool *opened)
{
    FILE *f = fopen(path, "rb");
    *opened = f != NULL;
    if (!f)
        return false;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        sb_addn(out, buf, n);
    int bad = ferror(f);
    int why = errno;
    fclose(f);
    if (bad) {
        sb_free(out);
        errno = why ? why : EIO;
        return false;
    }
    return true;
}
