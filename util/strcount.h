#ifndef LITMUSC_UTIL_STRCOUNT_H
#define LITMUSC_UTIL_STRCOUNT_H
/* A set of strings, each with a count (how many times it was added): open
 * addressing, the capacity a power of two, so a look-up stays O(1) however
 * many keys a long enumeration makes.  Zero-initialise to start empty. */
#include <stddef.h>

typedef struct strcount {
    char **keys;
    int *counts;
    size_t n, cap;
} strcount;

/* KEY's count before this call (0 when it was absent); KEY is then counted
 * once more (copied the first time). */
int strcount_add(strcount *s, const char *key);
/* KEY's count (0 when absent). */
int strcount_get(const strcount *s, const char *key);
void strcount_free(strcount *s);

#endif
