#ifndef LITMUSC_MODEL_BSET_BUILD_H
#define LITMUSC_MODEL_BSET_BUILD_H
/* Accumulating a behaviour set while candidates are checked (model/), and
 * the hash of its table. */
#include "model/bset.h"

typedef struct bset_acc {
    bset *b;
    int *slot;              /* open-addressing hash table of state indices, -1 = empty */
    int nslot;
    int cap;                /* capacity of b->states */
} bset_acc;

/* Start B with observables OBS[0..nobs) (copied). */
void bset_acc_init(bset_acc *a, bset *b, const ir_obs *obs, int nobs);
/* One consistent execution, COUNT times, with final state VALS. */
void bset_acc_add(bset_acc *a, const ir_val *vals, bool cond, uint64_t count);
/* Sort the states as herd prints them and release the table. */
void bset_acc_finish(bset_acc *a);

void bset_add_flag(bset *b, const char *name);

/* The hash of the accumulator's table, also used for races' tables of
 * states and pairs: FNV-1a's constants, a word at a time, with a shift so
 * that the low bits a table is indexed by depend on the high ones. */
#define BSET_HASH_SEED 0xcbf29ce484222325u

static inline uint64_t bset_hash_mix(uint64_t h, uint64_t v)
{
    h ^= v;
    h *= 0x100000001b3u;
    return h ^ (h >> 29);
}

static inline uint64_t bset_hash_vals(const ir_val *v, int n)
{
    uint64_t h = BSET_HASH_SEED;
    for (int i = 0; i < n; i++)
        h = bset_hash_mix(h, (uint64_t)v[i]);
    return h;
}

#endif
