#ifndef LITMUSC_BACKENDS_JAVA_JAVAOUT_H
#define LITMUSC_BACKENDS_JAVA_JAVAOUT_H
/* Writing a set of generated Java sources all or nothing: a failure half
 * way through removes the files already written, so a bad input or a full
 * disk never leaves a partial output behind. */
#include <stdbool.h>
#include "util/diag.h"

typedef struct javaout_set {
    char **paths;
    char **data;
    int n, cap;
} javaout_set;

/* Add PATH with contents DATA (both taken over). */
void javaout_add(javaout_set *s, char *path, char *data);
/* Write every file, creating folders as needed; each goes to a temporary
 * file beside it that is then renamed.  false + diag (status 3) after
 * removing whatever this call wrote. */
bool javaout_write(const javaout_set *s, diag *d);
void javaout_free(javaout_set *s);

/* mkdir -p.  false + diag (status 3). */
bool javaout_mkdirs(const char *dir, diag *d);
/* ROOT/a/b/CLS.java for package "a.b". malloc'd. */
char *javaout_source_path(const char *root, const char *package, const char *cls);

#endif
