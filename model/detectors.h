#ifndef LITMUSC_MODEL_DETECTORS_H
#define LITMUSC_MODEL_DETECTORS_H
/* The four race detectors (detect.h) over every consistent execution of a
 * test under a model: the pairs of source accesses each reports in some
 * execution, merged as races.h merges them, the nesting
 * exact <= hb <= hybrid <= lockset checked, and for each pair that a
 * detector misses and the next wider one reports, why. */
#include "model/detect.h"
#include "model/model.h"
#include "model/races.h"

typedef struct detectors_pair {
    races_access a, b;              /* a in the lower-numbered thread */
    unsigned mask;                  /* bit d: detector d reports it */
    uint64_t first[DET_N];          /* the first execution each reports it in, 0 none */
    uint64_t executions[DET_N];     /* consistent executions where each reports it */
    bool benign;                    /* a Java pair: the language defines plain races */
    /* why[d]: why detector d misses it in the first execution where d + 1
     * reports it and d does not (malloc'd), or NULL */
    char *why[DET_N];
} detectors_pair;

typedef struct detectors {
    bset *b;                        /* the behaviour set (owned) */
    detectors_pair *pairs;          /* in program order of a, then of b */
    int npairs;
    int count[DET_N];               /* pairs each reports */
    int harmful[DET_N];             /* of those, the ones not benign */
    uint64_t executions;            /* consistent executions seen */
} detectors;

/* Run T under M with every detector on every consistent execution.  NULL +
 * diag as model_run. */
detectors *detectors_run(const model *m, const ir_test *t, diag *d);
void detectors_free(detectors *r);

/* Whether the reports nest; when not, *PAIR and *DET name a pair detector
 * DET reports and DET + 1 does not. */
bool detectors_nested(const detectors *r, int *pair, int *det);
/* The widest detector that misses P (exact .. it all miss it when the
 * reports nest), or -1 when every detector reports it. */
int detectors_boundary(const detectors_pair *p);

#endif
