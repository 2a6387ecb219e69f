#ifndef LITMUSC_HARNESS_LANE_ORDER_H
#define LITMUSC_HARNESS_LANE_ORDER_H
/* How a lane orders the events of an execution (harness/lane_order.c),
 * for the lane search and the stretches (harness/lanes.c).  Events are
 * bits of an exec_set; R is a closed order, R[i] bit j: i before j. */
#include <stdbool.h>
#include <stdint.h>
#include "model/exec.h"

/* The most ids a lane view holds (lanes.c's members and threads). */
enum { LANE_MAX_IDS = 32 };

/* What a lane's threads are, by id (a group member, or a test thread). */
typedef struct lane_view {
    const exec_set *of;         /* its events */
    const exec_set *pre;        /* switched: its events before the switch; else empty */
    const exec_set *loads;      /* its plain loads (not of a locked instruction) */
    const exec_set *stores;     /* its plain stores (not locked, nor compiled to one) */
    const uint64_t *load_locs;  /* the locations its code may load; NULL: unknown */
    const uint64_t *store_locs; /* ... store */
    const exec_set *order;      /* the execution's own order (harness_exec_order) */
} lane_view;

/* The place after the chain of switches that starts at place Q of the
 * lane SEQ of LEN ids (Q + 1 when SEQ[Q] is not switched). */
int lane_chain_end(const int *seq, int len, int q, const exec_set *pre);
/* The lane SEQ of LEN ids added to R in the order it runs them; false on
 * a cycle.  NOFENCE[id] (unless NULL) is set for the threads the lane
 * runs after the one before it with no fence between. */
bool lane_in_order(exec_set *r, int n, const int *seq, int len, const lane_view *v, bool *nofence);
/* ACCESS[i]: event i's access of its thread, counted as the runner's gap
 * positions count them (an instruction that touches memory or fences it,
 * in program order; the events of one instruction share it). */
void lane_access_index(const exec *x, int *access);
/* Plain loads and stores of event E, as lane_view counts them. */
bool lane_plain_load(const exec_event *e);
bool lane_plain_store(const exec_event *e);

#endif
