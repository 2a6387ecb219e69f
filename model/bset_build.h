#ifndef LITMUSC_MODEL_BSET_BUILD_H
#define LITMUSC_MODEL_BSET_BUILD_H
/* Accumulating a behaviour set while candidates are checked (model/). */
#include "model/model.h"

typedef struct bset_acc {
    bset *b;
    int *slot;              /* open-addressing hash table of state indices, -1 = empty */
    int nslot;
    int cap;                /* capacity of b->states */
} bset_acc;

/* Start B with observables OBS[0..nobs) (copied). */
void bacc_init(bset_acc *a, bset *b, const ir_obs *obs, int nobs);
/* One consistent execution, COUNT times, with final state VALS. */
void bacc_add(bset_acc *a, const ir_val *vals, bool cond, uint64_t count);
/* Sort the states as herd prints them and release the table. */
void bacc_finish(bset_acc *a);

void bset_add_flag(bset *b, const char *name);

#endif
