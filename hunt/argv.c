/* A command's argv from a compiler command that may hold wrapper words
 * ("ccache gcc"), a flag string split at blanks, and the words after:
 * for bisection's compiler runs and confirmation's link. */
#include <stdlib.h>
#include <string.h>
#include "hunt/internal.h"

char **hunt_argv(const char *cc, const char *flags, const char *const *more)
{
    char **v = NULL;
    int n = 0;
    const char *parts[2] = {cc, flags};
    for (int k = 0; k < 2; k++) {
        char *s = xstrdup(parts[k] ? parts[k] : "");
        for (char *w = strtok(s, " \t"); w; w = strtok(NULL, " \t")) {
            v = xrealloc(v, (size_t)(n + 1) * sizeof *v);
            v[n++] = xstrdup(w);
        }
        free(s);
    }
    for (; more && *more; more++) {
        v = xrealloc(v, (size_t)(n + 1) * sizeof *v);
        v[n++] = xstrdup(*more);
    }
    v = xrealloc(v, (size_t)(n + 1) * sizeof *v);
    v[n] = NULL;
    return v;
}

void hunt_argv_free(char **v)
{
    for (int i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}
