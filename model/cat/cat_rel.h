#ifndef LITMUSC_MODEL_CAT_REL_H
#define LITMUSC_MODEL_CAT_REL_H
/* Relation algebra on exec_rel bitsets: the inner loop of every model.
 * All operations look only at the first N rows (N = number of events) and
 * assume bits at or above N are clear, so they cost O(N) or O(N^2/64)
 * word operations.  Inline so that the evaluator's calls compile to loops. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "model/exec.h"

/* The set {0..n-1}. */
static inline exec_set cr_all(int n) { return n >= 64 ? ~(exec_set)0 : (((exec_set)1 << n) - 1); }

static inline void cr_clear(exec_rel *r, int n) { memset(r->row, 0, (size_t)n * sizeof r->row[0]); }
static inline void cr_copy(exec_rel *d, const exec_rel *s, int n) { memcpy(d->row, s->row, (size_t)n * sizeof d->row[0]); }

static inline bool cr_is_empty(const exec_rel *r, int n)
{
    exec_set acc = 0;
    for (int i = 0; i < n; i++) acc |= r->row[i];
    return acc == 0;
}

static inline bool cr_equal(const exec_rel *a, const exec_rel *b, int n)
{
    return memcmp(a->row, b->row, (size_t)n * sizeof a->row[0]) == 0;
}

/* a ⊆ b */
static inline bool cr_subset(const exec_rel *a, const exec_rel *b, int n)
{
    for (int i = 0; i < n; i++) if (a->row[i] & ~b->row[i]) return false;
    return true;
}

static inline void cr_union(exec_rel *d, const exec_rel *a, const exec_rel *b, int n)
{
    for (int i = 0; i < n; i++) d->row[i] = a->row[i] | b->row[i];
}
static inline void cr_inter(exec_rel *d, const exec_rel *a, const exec_rel *b, int n)
{
    for (int i = 0; i < n; i++) d->row[i] = a->row[i] & b->row[i];
}
static inline void cr_diff(exec_rel *d, const exec_rel *a, const exec_rel *b, int n)
{
    for (int i = 0; i < n; i++) d->row[i] = a->row[i] & ~b->row[i];
}
/* Complement within {0..n-1}². */
static inline void cr_comp(exec_rel *d, const exec_rel *a, int n)
{
    exec_set all = cr_all(n);
    for (int i = 0; i < n; i++) d->row[i] = ~a->row[i] & all;
}

/* d = a;b.  D may not alias B (it may alias A: row i of a is read before
 * row i of d is written). */
static inline void cr_seq(exec_rel *d, const exec_rel *a, const exec_rel *b, int n)
{
    for (int i = 0; i < n; i++) {
        exec_set src = a->row[i], out = 0;
        while (src) {
            int j = __builtin_ctzll(src);
            src &= src - 1;
            out |= b->row[j];
        }
        d->row[i] = out;
    }
}

/* d = a⁻¹ (d may not alias a). */
static inline void cr_inv(exec_rel *d, const exec_rel *a, int n)
{
    cr_clear(d, n);
    for (int i = 0; i < n; i++) {
        exec_set src = a->row[i];
        while (src) {
            int j = __builtin_ctzll(src);
            src &= src - 1;
            d->row[j] |= (exec_set)1 << i;
        }
    }
}

/* [s]: identity on s. */
static inline void cr_toid(exec_rel *d, exec_set s, int n)
{
    for (int i = 0; i < n; i++) d->row[i] = (s >> i & 1) ? (exec_set)1 << i : 0;
}

/* s × t */
static inline void cr_cart(exec_rel *d, exec_set s, exec_set t, int n)
{
    for (int i = 0; i < n; i++) d->row[i] = (s >> i & 1) ? t : 0;
}

/* In place transitive closure (Warshall, one word per row). */
static inline void cr_plus_inplace(exec_rel *r, int n)
{
    for (int k = 0; k < n; k++) {
        exec_set rk = r->row[k], bit = (exec_set)1 << k;
        if (!rk) continue;
        for (int i = 0; i < n; i++)
            if (r->row[i] & bit) r->row[i] |= rk;
    }
}

static inline void cr_add_id(exec_rel *r, exec_set s, int n)
{
    for (int i = 0; i < n; i++) if (s >> i & 1) r->row[i] |= (exec_set)1 << i;
}

static inline bool cr_irreflexive(const exec_rel *r, int n)
{
    if (n > EXEC_MAX) n = EXEC_MAX;     /* tells the compiler the bound */
    for (int i = 0; i < n; i++) if (r->row[i] >> i & 1) return false;
    return true;
}

/* Acyclicity by peeling sinks: a node with no successor among the remaining
 * nodes cannot lie on a cycle.  O(n²) word operations, no copy. */
static inline bool cr_acyclic(const exec_rel *r, int n)
{
    exec_set left = cr_all(n);
    /* Nodes without outgoing edges cannot be on a cycle. */
    for (int i = 0; i < n; i++) if (!r->row[i]) left &= ~((exec_set)1 << i);
    bool progress = true;
    while (left && progress) {
        progress = false;
        exec_set scan = left;
        while (scan) {
            int i = __builtin_ctzll(scan);
            scan &= scan - 1;
            if (!(r->row[i] & left)) { left &= ~((exec_set)1 << i); progress = true; }
        }
    }
    return left == 0;
}

static inline exec_set cr_domain(const exec_rel *r, int n)
{
    exec_set d = 0;
    for (int i = 0; i < n; i++) if (r->row[i]) d |= (exec_set)1 << i;
    return d;
}
static inline exec_set cr_range(const exec_rel *r, int n)
{
    exec_set d = 0;
    for (int i = 0; i < n; i++) d |= r->row[i];
    return d;
}

/* Restrict rows to S and columns to T: [S];r;[T]. */
static inline void cr_restrict(exec_rel *d, const exec_rel *a, exec_set s, exec_set t, int n)
{
    for (int i = 0; i < n; i++) d->row[i] = (s >> i & 1) ? (a->row[i] & t) : 0;
}

#endif
