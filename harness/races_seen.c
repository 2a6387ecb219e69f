/* The data races a run certainly exercised (harness.h): an observed state
 * implies a racing pair when every consistent execution that gives the
 * state races there, so the machine, having produced the state, ran the
 * two accesses unordered.  A state the model allows through both racy and
 * race-free executions proves nothing, and neither does one it forbids. */
#include <stdlib.h>
#include "harness/harness.h"

void harness_races_seen(harness_verdict *v, const races *r, const harness_hist *h)
{
    if (!r || r->npairs == 0 || !v->state)
        return;
    v->races = r;
    v->race_count = xcalloc((size_t)r->npairs, sizeof *v->race_count);
    v->race_states = xcalloc((size_t)r->npairs, sizeof *v->race_states);
    for (int i = 0; i < h->noutcomes; i++) {
        int s = v->state[i];
        if (s < 0 || h->outcomes[i].count == 0)
            continue;
        for (int k = 0; k < r->nimplied[s]; k++) {
            v->race_count[r->implied[s][k]] += h->outcomes[i].count;
            v->race_states[r->implied[s][k]]++;
        }
    }
}
