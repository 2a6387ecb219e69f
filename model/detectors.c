/* The four race detectors over a whole test (detectors.h): each consistent
 * execution is judged by model/detect.c as the model finds it, and the
 * pairs of events merged into pairs of source accesses, known as races.c
 * knows them (thread, place in program order, instruction, read/write). */
#include <stdlib.h>
#include <string.h>
#include "model/detectors.h"
#include "util/mem.h"

typedef struct collect {
    const ir_test *t;
    detectors_pair *pairs;
    size_t npairs, cap;
    uint64_t executions;
} collect;

static bool same_access(const races_access *x, const races_access *y)
{
    return x->thread == y->thread && x->poi == y->poi && x->instr == y->instr && x->read == y->read &&
           x->write == y->write;
}

/* The pair of accesses A, B (A in the lower-numbered thread), added when
 * new.  A linear search: a litmus test has a few dozen conflicting pairs. */
static detectors_pair *pair_of(collect *c, const races_access *a, const races_access *b)
{
    for (size_t k = 0; k < c->npairs; k++)
        if (same_access(&c->pairs[k].a, a) && same_access(&c->pairs[k].b, b))
            return &c->pairs[k];
    detectors_pair p = {.a = *a, .b = *b, .benign = c->t->arch == IR_ARCH_JAVA};
    VEC_PUSH(c->pairs, c->npairs, c->cap, p);
    return &c->pairs[c->npairs - 1];
}

static bool on_exec(void *ctx, const exec *x, const model_exec_info *info, diag *d)
{
    (void)d;
    collect *c = ctx;
    static _Thread_local detect_exec de;
    c->executions++;
    detect_exec_run(x, &de);
    for (int i = 0; i < x->n; i++)
        for (int j = i + 1; j < x->n; j++) {
            unsigned r = de.rep[i][j];
            if (!r)
                continue;
            bool swap = x->ev[j].thread < x->ev[i].thread;
            races_access a = races_access_of(&x->ev[swap ? j : i]), b = races_access_of(&x->ev[swap ? i : j]);
            detectors_pair *p = pair_of(c, &a, &b);
            p->mask |= r;
            for (int k = 0; k < DET_N; k++) {
                if ((r >> k) & 1) {
                    p->executions[k]++;
                    if (!p->first[k])
                        p->first[k] = info->index;
                } else if (k + 1 < DET_N && ((r >> (k + 1)) & 1) && !p->why[k]) {
                    char *why = detect_why_not(x, &de, k, i, j);
                    p->why[k] = xasprintf("%s (execution %llu)", why, (unsigned long long)info->index);
                    free(why);
                }
            }
        }
    return true;
}

static int cmp_pair(const void *x, const void *y)
{
    const detectors_pair *p = x, *q = y;
    int r = races_access_cmp(&p->a, &q->a);
    return r ? r : races_access_cmp(&p->b, &q->b);
}

static void free_pairs(detectors_pair *p, size_t n)
{
    for (size_t k = 0; k < n; k++)
        for (int d = 0; d < DET_N; d++)
            free(p[k].why[d]);
    free(p);
}

detectors *detectors_run(const model *m, const ir_test *t, diag *d)
{
    collect c = {.t = t};
    bset *b = model_run_observed(m, t, on_exec, &c, d);
    if (!b) {
        free_pairs(c.pairs, c.npairs);
        return NULL;
    }
    detectors *r = xcalloc(1, sizeof *r);
    r->b = b;
    if (c.npairs)   /* qsort wants a non-null array even when empty */
        qsort(c.pairs, c.npairs, sizeof *c.pairs, cmp_pair);
    r->pairs = c.pairs;
    r->npairs = (int)c.npairs;
    r->executions = c.executions;
    for (int k = 0; k < r->npairs; k++)
        for (int det = 0; det < DET_N; det++)
            if ((r->pairs[k].mask >> det) & 1) {
                r->count[det]++;
                r->harmful[det] += !r->pairs[k].benign;
            }
    return r;
}

void detectors_free(detectors *r)
{
    if (!r)
        return;
    free_pairs(r->pairs, (size_t)r->npairs);
    bset_free(r->b);
    free(r);
}

bool detectors_nested(const detectors *r, int *pair, int *det)
{
    for (int k = 0; k < r->npairs; k++)
        for (int d = 0; d + 1 < DET_N; d++)
            if (((r->pairs[k].mask >> d) & 1) && !((r->pairs[k].mask >> (d + 1)) & 1)) {
                *pair = k;
                *det = d;
                return false;
            }
    return true;
}

int detectors_boundary(const detectors_pair *p)
{
    for (int d = DET_N - 1; d >= 0; d--)
        if (!((p->mask >> d) & 1))
            return d;
    return -1;
}
