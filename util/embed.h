#ifndef LITMUSC_UTIL_EMBED_H
#define LITMUSC_UTIL_EMBED_H
/* Data files compiled into the program by mk/embed.sh: the model files
 * (model/cat), runtime sources (runtime), compilation schemes
 * (backends/schemes) and Java runner sources (backends/java).
 * Paths are relative to the source root, e.g. "model/cat/rc11.cat". */
#include <stddef.h>

typedef struct embed_file {
    const char *path;
    const char *data; /* NUL-terminated copy of the file */
    size_t len;
} embed_file;

extern const embed_file embed_files[]; /* ends with a NULL path */

/* The embedded file at PATH, or NULL. */
const embed_file *embed_find(const char *path);

#endif
