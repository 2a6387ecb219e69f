/* The counted string set of strcount.h. */
#include <stdlib.h>
#include <string.h>
#include "util/mem.h"
#include "util/strcount.h"

static unsigned long hash_str(const char *s)
{
    unsigned long h = 5381;
    for (; *s; s++)
        h = h * 33 + (unsigned char)*s;
    return h;
}

/* The slot of KEY (its own, or the empty one it would take). */
static size_t slot(const strcount *s, const char *key)
{
    size_t j = hash_str(key) & (s->cap - 1);
    while (s->keys[j] && strcmp(s->keys[j], key))
        j = (j + 1) & (s->cap - 1);
    return j;
}

static void grow(strcount *s)
{
    if (2 * (s->n + 1) <= s->cap)
        return;
    strcount g = {.cap = s->cap ? 2 * s->cap : 1024, .n = s->n};
    g.keys = xcalloc(g.cap, sizeof *g.keys);
    g.counts = xcalloc(g.cap, sizeof *g.counts);
    for (size_t i = 0; i < s->cap; i++)
        if (s->keys[i]) {
            size_t j = slot(&g, s->keys[i]);
            g.keys[j] = s->keys[i];
            g.counts[j] = s->counts[i];
        }
    free(s->keys);
    free(s->counts);
    *s = g;
}

int strcount_add(strcount *s, const char *key)
{
    grow(s);
    size_t j = slot(s, key);
    int c = s->keys[j] ? s->counts[j] : 0;
    if (!s->keys[j]) {
        s->keys[j] = xstrdup(key);
        s->n++;
    }
    s->counts[j]++;
    return c;
}

int strcount_get(const strcount *s, const char *key)
{
    if (s->cap == 0)
        return 0;
    size_t j = slot(s, key);
    return s->keys[j] ? s->counts[j] : 0;
}

void strcount_free(strcount *s)
{
    for (size_t i = 0; i < s->cap; i++)
        free(s->keys[i]);
    free(s->keys);
    free(s->counts);
}
