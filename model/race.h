#ifndef LITMUSC_MODEL_RACE_H
#define LITMUSC_MODEL_RACE_H
/* Naming the data race behind an undefined C test. */
#include "model/exec.h"

/* RC11's data race (cnf & ext minus hb, hb^-1 and atomic pairs) on the
 * consistent execution X, described as
 *   "line L: `src` and line M: `src`"
 * for the first racing pair (malloc'd), or NULL when X has none. */
char *race_describe(const exec *x);

#endif
