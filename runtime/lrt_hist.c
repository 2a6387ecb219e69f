/* The outcome table: every finished instance adds its outcome here, so it
 * is a hot path.  Open addressing with linear probing keeps a lookup to one
 * or two cache lines; a test has few distinct outcomes, so the table stays
 * small and hot. */
#include <stdlib.h>
#include <string.h>
#include "lrt_internal.h"

enum { HIST_INITIAL = 64 };

static uint64_t hist_hash(const int64_t *key, int width)
{
    uint64_t h = 0x243f6a8885a308d3ULL;
    for (int i = 0; i < width; i++) {
        h ^= (uint64_t)key[i];
        h *= 0x9fb21c651e98df25ULL;
        h ^= h >> 29;
    }
    return h;
}

static bool hist_alloc(lrt_hist *h, size_t cap)
{
    size_t w = h->width > 0 ? (size_t)h->width : 1;
    h->keys = calloc(cap * w, sizeof *h->keys);
    h->counts = calloc(cap, sizeof *h->counts);
    if (!h->keys || !h->counts) {
        free(h->keys);
        free(h->counts);
        h->keys = NULL;
        h->counts = NULL;
        return false;
    }
    h->cap = cap;
    h->n = 0;
    return true;
}

bool lrt_hist_init(lrt_hist *h, int width)
{
    h->width = width;
    return hist_alloc(h, HIST_INITIAL);
}

void lrt_hist_free(lrt_hist *h)
{
    free(h->keys);
    free(h->counts);
    h->keys = NULL;
    h->counts = NULL;
    h->cap = h->n = 0;
}

void lrt_result_free(lrt_result *r)
{
    lrt_hist_free(&r->hist);
    lrt_hist_free(&r->first);
}

/* The slot holding KEY, or the empty slot where it belongs. */
static size_t hist_find(const lrt_hist *h, const int64_t *key)
{
    size_t w = (size_t)h->width;
    size_t mask = h->cap - 1;
    size_t i = (size_t)hist_hash(key, h->width) & mask;
    for (;;) {
        if (h->counts[i] == 0)
            return i;
        if (w == 0 || memcmp(h->keys + i * w, key, w * sizeof *key) == 0)
            return i;
        i = (i + 1) & mask;
    }
}

static bool hist_grow(lrt_hist *h)
{
    lrt_hist old = *h;
    if (!hist_alloc(h, old.cap * 2)) {
        *h = old;
        return false;
    }
    size_t w = (size_t)h->width;
    for (size_t i = 0; i < old.cap; i++) {
        if (old.counts[i] == 0)
            continue;
        size_t j = hist_find(h, old.keys + i * w);
        if (w)
            memcpy(h->keys + j * w, old.keys + i * w, w * sizeof *h->keys);
        h->counts[j] = old.counts[i];
        h->n++;
    }
    free(old.keys);
    free(old.counts);
    return true;
}

bool lrt_hist_add(lrt_hist *h, const int64_t *key, uint64_t count)
{
    size_t i = hist_find(h, key);
    if (h->counts[i] != 0) {
        h->counts[i] += count;
        return true;
    }
    /* Keep the load under one half, so probes stay short. */
    if (2 * (h->n + 1) > h->cap) {
        if (!hist_grow(h))
            return false;
        i = hist_find(h, key);
    }
    size_t w = (size_t)h->width;
    if (w)
        memcpy(h->keys + i * w, key, w * sizeof *key);
    h->counts[i] = count;
    h->n++;
    return true;
}

uint64_t lrt_hist_get(const lrt_hist *h, const int64_t *key)
{
    return h->counts[hist_find(h, key)];
}

uint64_t lrt_hist_total(const lrt_hist *h)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < h->cap; i++)
        sum += h->counts[i];
    return sum;
}

bool lrt_hist_merge(lrt_hist *into, const lrt_hist *from)
{
    size_t w = (size_t)from->width;
    for (size_t i = 0; i < from->cap; i++)
        if (from->counts[i] && !lrt_hist_add(into, from->keys + i * w, from->counts[i]))
            return false;
    return true;
}

/* qsort has no context argument in C11, so the table being sorted is
 * passed through a file-scope pointer (sorting happens once, at the end,
 * on one thread). */
static const lrt_hist *hist_sorting;

static int hist_cmp(const void *a, const void *b)
{
    size_t w = (size_t)hist_sorting->width;
    const int64_t *ka = hist_sorting->keys + *(const size_t *)a * w;
    const int64_t *kb = hist_sorting->keys + *(const size_t *)b * w;
    for (size_t i = 0; i < w; i++)
        if (ka[i] != kb[i])
            return ka[i] < kb[i] ? -1 : 1;
    return 0;
}

size_t *lrt_hist_sorted(const lrt_hist *h)
{
    size_t *idx = malloc((h->n ? h->n : 1) * sizeof *idx);
    if (!idx)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < h->cap; i++)
        if (h->counts[i])
            idx[k++] = i;
    hist_sorting = h;
    qsort(idx, k, sizeof *idx, hist_cmp);
    hist_sorting = NULL;
    return idx;
}

void lrt_tally_add(lrt_tally *t, const int64_t *vals, uint64_t count)
{
    if (!t->failed && !lrt_hist_add(t->hist, vals, count))
        t->failed = true;
}
