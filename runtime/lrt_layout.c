/* Where each instance's cells live.  Placement changes what a run can
 * observe: cells sharing a line interact through false sharing, cells on
 * their own lines through coherence alone, and shuffled slots vary the
 * distance (and cache sets) between an instance's cells from run to run. */
#include <stdlib.h>
#include <string.h>
#include "lrt_internal.h"

static void layout_place(lrt_layout *l)
{
    size_t n = l->ninst * (size_t)l->nlocs;
    for (size_t k = 0; k < n; k++) {
        size_t s = l->slot ? l->slot[k] : k;
        if (l->kind == LRT_LAYOUT_ARRAY)    /* location-major */
            s = (k % (size_t)l->nlocs) * l->ninst + k / (size_t)l->nlocs;
        l->cell[k] = l->arena + s * l->stride;
    }
}

bool lrt_layout_init(lrt_layout *l, lrt_layout_kind kind, size_t ninst, int nlocs, int cell_size)
{
    if (cell_size <= 0 || cell_size > LRT_CELL_SIZE || (cell_size & (cell_size - 1)))
        cell_size = LRT_CELL_SIZE;
    memset(l, 0, sizeof *l);
    l->kind = kind;
    l->ninst = ninst;
    l->nlocs = nlocs;
    l->stride = kind == LRT_LAYOUT_PACKED || kind == LRT_LAYOUT_ARRAY ? (size_t)cell_size : LRT_LINE;
    size_t n = ninst * (size_t)nlocs;
    size_t bytes = (n ? n : 1) * l->stride;
    bytes = (bytes + LRT_LINE - 1) / LRT_LINE * LRT_LINE;
    l->arena = aligned_alloc(LRT_LINE, bytes);
    l->cell = malloc((n ? n : 1) * sizeof *l->cell);
    if (kind == LRT_LAYOUT_SHUFFLE)
        l->slot = malloc((n ? n : 1) * sizeof *l->slot);
    if (!l->arena || !l->cell || (kind == LRT_LAYOUT_SHUFFLE && !l->slot)) {
        lrt_layout_free(l);
        return false;
    }
    memset(l->arena, 0, bytes);
    if (l->slot)
        for (size_t k = 0; k < n; k++)
            l->slot[k] = k;
    layout_place(l);
    return true;
}

void lrt_layout_free(lrt_layout *l)
{
    free(l->arena);
    free(l->cell);
    free(l->slot);
    l->arena = NULL;
    l->cell = NULL;
    l->slot = NULL;
}

bool lrt_layout_place_as(lrt_layout *l, lrt_layout_kind kind)
{
    bool swaps = (kind == LRT_LAYOUT_ARRAY && l->kind == LRT_LAYOUT_PACKED) ||
                 (kind == LRT_LAYOUT_PACKED && l->kind == LRT_LAYOUT_ARRAY);
    if (!swaps)
        return false;
    l->kind = kind;
    layout_place(l);
    return true;
}

void lrt_layout_shuffle(lrt_layout *l, lrt_rng *r)
{
    if (l->kind != LRT_LAYOUT_SHUFFLE)
        return;
    size_t n = l->ninst * (size_t)l->nlocs;
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)lrt_rng_below(r, i);
        size_t tmp = l->slot[i - 1];
        l->slot[i - 1] = l->slot[j];
        l->slot[j] = tmp;
    }
    layout_place(l);
}
