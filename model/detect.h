#ifndef LITMUSC_MODEL_DETECT_H
#define LITMUSC_MODEL_DETECT_H
/* The four race detectors of `races --detector`, on one candidate
 * execution (model/detect.c), and over every consistent execution of a test
 * (model/detectors.c).  Definitions (doc/races-detectors.md has them with
 * their sources):
 *   exact    RC11's data race: conflicting, not both atomic, unordered by
 *            hb = (po | sw)+ (model/hb.h).
 *   hb       pure happens-before by vector clocks: conflicting, not both
 *            atomic (atomics synchronise, as sw, and are not data), and
 *            unordered by po plus sw (RC11's release/acquire and fence
 *            edges; an unlock -> the lock that reads it).  Under
 *            RC11 this is the exact race again, computed apart.
 *   hybrid   lockset pairs (no common lock held) unordered by the limited
 *            happens-before of thread start/join and messages; lock
 *            hand-offs and memory are not messages.  A litmus test has no
 *            spawn or join, so that relation is po within each thread.
 *   lockset  Eraser's per-location state machine (virgin, exclusive,
 *            shared, shared-modified) with lockset refinement; every
 *            conflicting pair on a location that reaches shared-modified
 *            with an empty candidate set, and every pair with no lock
 *            held at both accesses (so that hybrid stays within it).
 * Hybrid and lockset know no atomics: every access is a memory access, and
 * only locks protect one (the survey's MEM events).
 * Conflicting: same location, different threads, at least one a write;
 * initial writes are not accesses. */
#include <stdbool.h>
#include <stdint.h>
#include "model/exec.h"
#include "model/races.h"

enum { DET_EXACT, DET_HB, DET_HYBRID, DET_LOCKSET, DET_N };
#define DET_ALL ((1u << DET_N) - 1)

/* "exact", "hb", "hybrid", "lockset". */
extern const char *const detect_names[DET_N];
/* The mask of NAME (one detector, or "all" for every one); 0 when unknown. */
unsigned detect_parse(const char *name);

/* A set of locks, bit k = lock k. */
typedef uint64_t detect_locks;

/* The locks held just before each event of X, from the lock and unlock
 * events of its thread in program order (lock k = location k). */
void detect_locksets(const exec *x, detect_locks held[EXEC_MAX]);

/* One execution's verdicts: bit d of rep[i][j] (i < j, event indices) says
 * detector d reports the pair of events (i, j). */
typedef struct detect_exec {
    exec_rel sw, hb;                    /* RC11's, as hb.h computes them */
    exec_rel limited;                   /* the hybrid's: po and joins */
    detect_locks held[EXEC_MAX];
    unsigned char rep[EXEC_MAX][EXEC_MAX];
    bool conflict[EXEC_MAX][EXEC_MAX];  /* i < j conflicting */
} detect_exec;

/* Fill D for X.  False (D unset) when po | sw has a cycle, which no
 * consistent execution of the models here has. */
bool detect_exec_run(const exec *x, detect_exec *d);

/* One line saying why detector DET does not report the conflicting pair
 * (I, J) of X that the next wider detector does (malloc'd), e.g.
 * "ordered by the release at line 5 synchronising with the acquire at line 9". */
char *detect_why_not(const exec *x, const detect_exec *d, int det, int i, int j);

#endif
