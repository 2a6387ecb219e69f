/* Random numbers for placements, delays and shuffles (splitmix64). */
#include "lrt_internal.h"

void lrt_rng_seed(lrt_rng *r, uint64_t seed)
{
    r->s = seed;
}

uint64_t lrt_rng_next(lrt_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Rejection sampling, so small ranges carry no modulo bias. */
uint64_t lrt_rng_below(lrt_rng *r, uint64_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = lrt_rng_next(r);
    while (x >= limit);
    return x % n;
}

void lrt_rng_shuffle(lrt_rng *r, int *a, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)lrt_rng_below(r, (uint64_t)i + 1);
        int tmp = a[i];
        a[i] = a[j];
        a[j] = tmp;
    }
}
