#ifndef LITMUSC_MODEL_CAT_REL_H
#define LITMUSC_MODEL_CAT_REL_H
/* Relation algebra on exec_rel bitsets: the inner loop of every model.
 * All operations look only at the first N rows (N = number of events) and
 * assume bits at or above N are clear; a row's bits are walked only in the
 * exec_words(N) words that can hold them, so they cost O(N) or O(N^2/64)
 * word operations.  Inline so that the evaluator's calls compile to loops. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "model/exec.h"

/* A set of events under 64 from its one word: the
 * fast paths below keep such sets in a register (a set built a word at a
 * time in memory and read back whole stalls on store forwarding). */
static inline exec_set cr_word(uint64_t w)
{
    exec_set s = {{w}};
    return s;
}

/* The set {0..n-1}. */
static inline exec_set cr_all(int n) { return es_all(n); }

static inline void cr_clear(exec_rel *r, int n) { memset(r->row, 0, (size_t)n * sizeof r->row[0]); }
static inline void cr_copy(exec_rel *d, const exec_rel *s, int n) { memcpy(d->row, s->row, (size_t)n * sizeof d->row[0]); }

static inline bool cr_is_empty(const exec_rel *r, int n)
{
    exec_set acc = es_none();
    for (int i = 0; i < n; i++) acc = es_or(acc, r->row[i]);
    return es_empty(acc);
}

static inline bool cr_equal(const exec_rel *a, const exec_rel *b, int n)
{
    return memcmp(a->row, b->row, (size_t)n * sizeof a->row[0]) == 0;
}

/* a ⊆ b */
static inline bool cr_subset(const exec_rel *a, const exec_rel *b, int n)
{
    for (int i = 0; i < n; i++) if (!es_empty(es_minus(a->row[i], b->row[i]))) return false;
    return true;
}

static inline void cr_union(exec_rel *d, const exec_rel *a, const exec_rel *b, int n)
{
    if (n <= 64) {
        for (int i = 0; i < n; i++) d->row[i] = cr_word(a->row[i].w[0] | b->row[i].w[0]);
        return;
    }
    for (int i = 0; i < n; i++) d->row[i] = es_or(a->row[i], b->row[i]);
}
static inline void cr_inter(exec_rel *d, const exec_rel *a, const exec_rel *b, int n)
{
    if (n <= 64) {
        for (int i = 0; i < n; i++) d->row[i] = cr_word(a->row[i].w[0] & b->row[i].w[0]);
        return;
    }
    for (int i = 0; i < n; i++) d->row[i] = es_and(a->row[i], b->row[i]);
}
static inline void cr_diff(exec_rel *d, const exec_rel *a, const exec_rel *b, int n)
{
    if (n <= 64) {
        for (int i = 0; i < n; i++) d->row[i] = cr_word(a->row[i].w[0] & ~b->row[i].w[0]);
        return;
    }
    for (int i = 0; i < n; i++) d->row[i] = es_minus(a->row[i], b->row[i]);
}
/* Complement within {0..n-1}². */
static inline void cr_comp(exec_rel *d, const exec_rel *a, int n)
{
    exec_set all = cr_all(n);
    if (n <= 64) {
        for (int i = 0; i < n; i++) d->row[i] = cr_word(all.w[0] & ~a->row[i].w[0]);
        return;
    }
    for (int i = 0; i < n; i++) d->row[i] = es_minus(all, a->row[i]);
}

/* d = a;b.  D may not alias B (it may alias A: row i of a is read before
 * row i of d is written). */
static inline void cr_seq(exec_rel *d, const exec_rel *a, const exec_rel *b, int n)
{
    int nw = exec_words(n);
    if (nw == 1) {
        for (int i = 0; i < n; i++) {
            uint64_t out = 0;
            for (uint64_t src = a->row[i].w[0]; src; src &= src - 1)
                out |= b->row[__builtin_ctzll(src)].w[0];
            d->row[i] = cr_word(out);
        }
        return;
    }
    for (int i = 0; i < n; i++) {
        uint64_t out[EXEC_WORDS] = {0};
        for (int k = 0; k < nw; k++)
            for (uint64_t src = a->row[i].w[k]; src; src &= src - 1) {
                const uint64_t *bj = b->row[64 * k + __builtin_ctzll(src)].w;
                for (int v = 0; v < nw; v++) out[v] |= bj[v];
            }
        memcpy(d->row[i].w, out, sizeof out);
    }
}

/* d = a⁻¹ (d may not alias a). */
static inline void cr_inv(exec_rel *d, const exec_rel *a, int n)
{
    int nw = exec_words(n);
    cr_clear(d, n);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < nw; k++)
            for (uint64_t src = a->row[i].w[k]; src; src &= src - 1)
                es_add(&d->row[64 * k + __builtin_ctzll(src)], i);
}

/* [s]: identity on s. */
static inline void cr_toid(exec_rel *d, exec_set s, int n)
{
    if (n <= 64) {
        for (int i = 0; i < n; i++) d->row[i] = cr_word(s.w[0] & (uint64_t)1 << i);
        return;
    }
    for (int i = 0; i < n; i++) d->row[i] = es_has(s, i) ? es_one(i) : es_none();
}

/* s × t */
static inline void cr_cart(exec_rel *d, exec_set s, exec_set t, int n)
{
    if (n <= 64) {
        for (int i = 0; i < n; i++) d->row[i] = cr_word(s.w[0] >> i & 1 ? t.w[0] : 0);
        return;
    }
    for (int i = 0; i < n; i++) d->row[i] = es_has(s, i) ? t : es_none();
}

/* In place transitive closure (Warshall, a set per row). */
static inline void cr_plus_inplace(exec_rel *r, int n)
{
    int nw = exec_words(n);
    for (int k = 0; k < n; k++) {
        int wk = k >> 6;
        uint64_t bit = (uint64_t)1 << (k & 63);
        if (nw == 1) {
            uint64_t rk = r->row[k].w[0];
            if (!rk) continue;
            for (int i = 0; i < n; i++)
                if (r->row[i].w[0] & bit) r->row[i].w[0] |= rk;
            continue;
        }
        const uint64_t *rk = r->row[k].w;
        for (int i = 0; i < n; i++)
            if (r->row[i].w[wk] & bit)
                for (int v = 0; v < nw; v++) r->row[i].w[v] |= rk[v];
    }
}

static inline void cr_add_id(exec_rel *r, exec_set s, int n)
{
    if (n <= 64) {
        for (int i = 0; i < n; i++) r->row[i].w[0] |= s.w[0] & (uint64_t)1 << i;
        return;
    }
    for (int i = 0; i < n; i++) if (es_has(s, i)) es_add(&r->row[i], i);
}

static inline bool cr_irreflexive(const exec_rel *r, int n)
{
    if (n > EXEC_MAX) n = EXEC_MAX;     /* tells the compiler the bound */
    for (int i = 0; i < n; i++) if (es_has(r->row[i], i)) return false;
    return true;
}

/* Acyclicity by peeling sinks: a node with no successor among the remaining
 * nodes cannot lie on a cycle.  O(n²) word operations, no copy. */
static inline bool cr_acyclic(const exec_rel *r, int n)
{
    int nw = exec_words(n);
    if (nw == 1) {
        uint64_t left = cr_all(n).w[0];
        for (int i = 0; i < n; i++) if (!r->row[i].w[0]) left &= ~((uint64_t)1 << i);
        bool progress = true;
        while (left && progress) {
            progress = false;
            for (uint64_t scan = left; scan; scan &= scan - 1) {
                int i = __builtin_ctzll(scan);
                if (!(r->row[i].w[0] & left)) { left &= ~((uint64_t)1 << i); progress = true; }
            }
        }
        return left == 0;
    }
    exec_set left = cr_all(n);
    /* Nodes without outgoing edges cannot be on a cycle. */
    for (int i = 0; i < n; i++) if (es_empty(r->row[i])) es_del(&left, i);
    bool progress = true;
    while (!es_empty(left) && progress) {
        progress = false;
        for (int k = 0; k < nw; k++)
            for (uint64_t scan = left.w[k]; scan; scan &= scan - 1) {
                int i = 64 * k + __builtin_ctzll(scan);
                if (!es_meets(r->row[i], left)) { es_del(&left, i); progress = true; }
            }
    }
    return es_empty(left);
}

static inline exec_set cr_domain(const exec_rel *r, int n)
{
    exec_set d = es_none();
    for (int i = 0; i < n; i++) if (!es_empty(r->row[i])) es_add(&d, i);
    return d;
}
static inline exec_set cr_range(const exec_rel *r, int n)
{
    exec_set d = es_none();
    for (int i = 0; i < n; i++) d = es_or(d, r->row[i]);
    return d;
}

/* Restrict rows to S and columns to T: [S];r;[T]. */
static inline void cr_restrict(exec_rel *d, const exec_rel *a, exec_set s, exec_set t, int n)
{
    if (n <= 64) {
        for (int i = 0; i < n; i++) d->row[i] = cr_word(s.w[0] >> i & 1 ? a->row[i].w[0] & t.w[0] : 0);
        return;
    }
    for (int i = 0; i < n; i++) d->row[i] = es_has(s, i) ? es_and(a->row[i], t) : es_none();
}

#endif
