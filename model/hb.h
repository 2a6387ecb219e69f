#ifndef LITMUSC_MODEL_HB_H
#define LITMUSC_MODEL_HB_H
/* Happens-before and data races of one execution, the way the race
 * survey computes them: synchronisation edges from the access modes, then
 * vector clocks in one pass over the events in (po | sw) order, or, when
 * po | sw has a cycle the clocks cannot walk, its transitive closure (the
 * same relation; the unit tests compare the two).  hb_compute is that
 * choice, for every reader of executions (races, the detectors, pictures,
 * the race an undefined C test names). */
#include <stdbool.h>
#include "model/exec.h"

/* Whether the access is atomic in its language (C: any order but na;
 * Java: any mode but plain; x86: every access). */
bool hb_atomic(const exec_event *e);

/* sw of X: C's RC11 synchronises-with ([REL]; ([F]; sb)?; rs; rf; [R & A];
 * (sb; [F])?; [ACQ], rs the release sequence); for Java the same shape with
 * volatile as release and acquire, setRelease / getAcquire and the
 * release / acquire / full fences.  Empty for x86. */
void hb_sync(const exec *x, exec_rel *sw);

/* hb = (po | sw)+ by vector clocks; false when po | sw has a cycle (no
 * consistent execution of the models here has one), HB then unset. */
bool hb_clocks(const exec *x, const exec_rel *sw, exec_rel *hb);
/* The same relation by transitive closure: hb_compute's fallback. */
void hb_closure(const exec *x, const exec_rel *sw, exec_rel *hb);
/* SW = hb_sync(X) and HB = (po | sw)+: by clocks, else by closure. */
void hb_compute(const exec *x, exec_rel *sw, exec_rel *hb);

/* The racing pairs of X under HB: two accesses of one location from
 * different threads, at least one a write, not both atomic, unordered by
 * HB.  Initial writes never race.  Fills OUT (event indices, A in the
 * lower-numbered thread) up to MAX and returns how many there are. */
typedef struct race_pair { int a, b; } race_pair;
int hb_races(const exec *x, const exec_rel *hb, race_pair *out, int max);

/* The data race behind an undefined C test: RC11's race (cnf & ext minus
 * hb, hb^-1 and atomic pairs) on the consistent execution X, described as
 *   "line L: `src` and line M: `src`"
 * for the first racing pair (malloc'd), or NULL when X has none.  Whether
 * a test is undefined is the model's verdict, not this function's. */
char *hb_race_describe(const exec *x);

#endif
