/* Parser for the raw histogram protocol that every runner prints (see
 * harness.h).  It is strict on purpose: a runner that prints anything
 * unexpected, or whose counts do not add up, has a bug, and a measurement
 * from it must not be reported as if it were sound. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "harness/harness.h"

typedef struct cursor {
    const char *p, *end;    /* rest of the current line */
    const char *origin;
    int line;
    diag *d;
} cursor;

static bool fail_at(cursor *c, int col, const char *msg, const char *what)
{
    diag_error(c->d, c->origin, c->line, col, "%s%s%s", msg, what ? ": " : "", what ? what : "");
    c->d->status = 3;   /* a runner's output is not the user's input */
    return false;
}

static int col_of(const cursor *c, const char *line_start)
{
    return (int)(c->p - line_start) + 1;
}

/* Next space-separated word of the line, or false at end of line. */
static bool next_word(cursor *c, const char **w, size_t *n)
{
    while (c->p < c->end && *c->p == ' ')
        c->p++;
    if (c->p >= c->end)
        return false;
    *w = c->p;
    while (c->p < c->end && *c->p != ' ')
        c->p++;
    *n = (size_t)(c->p - *w);
    return true;
}

static bool word_is(const char *w, size_t n, const char *s)
{
    return strlen(s) == n && memcmp(w, s, n) == 0;
}

/* The word [W, W+N) as a C string in BUF, for strto*; false when it is
 * empty or too long to be a number. */
static bool word_copy(const char *w, size_t n, char *buf, size_t size)
{
    if (n == 0 || n >= size)
        return false;
    memcpy(buf, w, n);
    buf[n] = 0;
    errno = 0;
    return true;
}

static bool parse_u64(const char *w, size_t n, uint64_t *out)
{
    char buf[32], *e;
    if (!word_copy(w, n, buf, sizeof buf) || w[0] == '-' || w[0] == '+')
        return false;
    unsigned long long v = strtoull(buf, &e, 10);
    if (errno || *e)
        return false;
    *out = (uint64_t)v;
    return true;
}

/* A signed word is an optional '-' before an unsigned one. */
static bool parse_i64(const char *w, size_t n, int64_t *out)
{
    bool neg = n > 0 && w[0] == '-';
    uint64_t m;
    if (!parse_u64(w + neg, n - neg, &m) || m > (uint64_t)INT64_MAX + neg)
        return false;
    *out = neg && m ? -(int64_t)(m - 1) - 1 : (int64_t)m;
    return true;
}

static bool parse_seconds(const char *w, size_t n, double *out)
{
    char buf[64], *e;
    if (!word_copy(w, n, buf, sizeof buf))
        return false;
    double v = strtod(buf, &e);
    if (errno || *e || !isfinite(v) || v < 0)
        return false;
    *out = v;
    return true;
}

static bool same_vals(const ir_val *a, const ir_val *b, int n)
{
    for (int i = 0; i < n; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

/* One `outcome COUNT V1 ... Vn` line (after the keyword). */
static bool parse_outcome(cursor *c, const char *ls, harness_hist *h, size_t *cap)
{
    const char *w;
    size_t n;
    harness_outcome o = {0, NULL, 0};
    if (!next_word(c, &w, &n) || !parse_u64(w, n, &o.count))
        return fail_at(c, col_of(c, ls), "expected an outcome count", NULL);
    o.vals = xcalloc((size_t)h->nobs + 1, sizeof *o.vals);
    for (int i = 0; i < h->nobs; i++) {
        if (!next_word(c, &w, &n)) {
            free(o.vals);
            char what[64];
            snprintf(what, sizeof what, "%d values for %d observables", i, h->nobs);
            return fail_at(c, col_of(c, ls), "too few values", what);
        }
        if (!parse_i64(w, n, &o.vals[i])) {
            free(o.vals);
            return fail_at(c, (int)(w - ls) + 1, "bad value (expected a decimal int64)", NULL);
        }
    }
    if (next_word(c, &w, &n)) {
        free(o.vals);
        return fail_at(c, (int)(w - ls) + 1, "too many values on an outcome line", NULL);
    }
    for (int i = 0; i < h->noutcomes; i++)
        if (same_vals(h->outcomes[i].vals, o.vals, h->nobs)) {
            free(o.vals);
            return fail_at(c, 1, "the same outcome is listed twice", NULL);
        }
    size_t len = (size_t)h->noutcomes;
    VEC_PUSH(h->outcomes, len, *cap, o);
    h->noutcomes = (int)len;
    return true;
}

static bool parse_config(cursor *c, const char *ls, harness_hist *h, size_t *cap)
{
    const char *w;
    size_t n;
    if (!next_word(c, &w, &n))
        return fail_at(c, col_of(c, ls), "config line without a key", NULL);
    harness_kv kv;
    kv.key = xstrndup(w, n);
    while (c->p < c->end && *c->p == ' ')
        c->p++;
    kv.value = xstrndup(c->p, (size_t)(c->end - c->p));
    size_t len = (size_t)h->nconfig;
    VEC_PUSH(h->config, len, *cap, kv);
    h->nconfig = (int)len;
    return true;
}

/* A line with KEYWORD followed by exactly one word; returns that word. */
static bool one_arg(cursor *c, const char *ls, const char **w, size_t *n)
{
    const char *extra;
    size_t en;
    if (!next_word(c, w, n))
        return fail_at(c, col_of(c, ls), "missing value", NULL);
    if (next_word(c, &extra, &en))
        return fail_at(c, (int)(extra - ls) + 1, "unexpected text after the value", NULL);
    return true;
}

/* Checks once `end` is read: every outcome is counted exactly once. */
static bool check_totals(cursor *c, harness_hist *h)
{
    uint64_t sum = 0;
    for (int i = 0; i < h->noutcomes; i++) {
        if (h->outcomes[i].count > UINT64_MAX - sum)
            return fail_at(c, 1, "outcome counts overflow 64 bits", NULL);
        sum += h->outcomes[i].count;
    }
    if (sum != h->iterations) {
        char what[128];
        snprintf(what, sizeof what, "outcomes sum to %" PRIu64 " but iterations is %" PRIu64,
                 sum, h->iterations);
        return fail_at(c, 1, "counts do not add up", what);
    }
    return true;
}

enum { SEEN_ITER = 1, SEEN_ELAPSED = 2, SEEN_INTR = 4 };

/* One `first ITER V1 ... Vn` line: when an outcome listed before was first
 * seen. */
static bool parse_first(cursor *c, const char *ls, harness_hist *h)
{
    const char *w;
    size_t n;
    uint64_t at;
    if (!next_word(c, &w, &n) || !parse_u64(w, n, &at) || at == 0)
        return fail_at(c, col_of(c, ls), "expected the iteration an outcome was first seen", NULL);
    ir_val vals[64];
    int k = 0;
    while (next_word(c, &w, &n)) {
        if (k == h->nobs || k == 64)
            return fail_at(c, (int)(w - ls) + 1, "too many values on a first line", NULL);
        if (!parse_i64(w, n, &vals[k++]))
            return fail_at(c, (int)(w - ls) + 1, "bad value (expected a decimal int64)", NULL);
    }
    if (k != h->nobs)
        return fail_at(c, col_of(c, ls), "too few values on a first line", NULL);
    for (int i = 0; i < h->noutcomes; i++)
        if (same_vals(h->outcomes[i].vals, vals, h->nobs)) {
            if (h->outcomes[i].first)
                return fail_at(c, 1, "an outcome is first seen twice", NULL);
            h->outcomes[i].first = at;
            return true;
        }
    return fail_at(c, 1, "a first line for an outcome the histogram does not have", NULL);
}

static bool parse_line(cursor *c, const char *ls, harness_hist *h, int *seen,
                       size_t *ocap, size_t *ccap, bool *done)
{
    const char *w, *v;
    size_t n, vn;
    if (!next_word(c, &w, &n))
        return fail_at(c, 1, "empty line", NULL);
    if (word_is(w, n, "outcome")) {
        if (*seen)
            return fail_at(c, 1, "outcome line after the totals", NULL);
        return parse_outcome(c, ls, h, ocap);
    }
    if (word_is(w, n, "config")) {
        if (h->noutcomes || *seen)
            return fail_at(c, 1, "config line after the outcomes", NULL);
        return parse_config(c, ls, h, ccap);
    }
    if (word_is(w, n, "first")) {
        if (*seen)
            return fail_at(c, 1, "first line after the totals", NULL);
        return parse_first(c, ls, h);
    }
    if (word_is(w, n, "covered")) {
        if (*seen || h->covered)
            return fail_at(c, 1, "covered line out of place", NULL);
        if (!one_arg(c, ls, &v, &vn) || !(word_is(v, vn, "0") || word_is(v, vn, "1")))
            return fail_at(c, 1, "covered takes 0 or 1", NULL);
        h->covered = word_is(v, vn, "1") ? HARNESS_COVERED : HARNESS_UNCOVERED;
        return true;
    }
    if (word_is(w, n, "iterations") || word_is(w, n, "elapsed") || word_is(w, n, "interrupted")) {
        int bit = word_is(w, n, "iterations") ? SEEN_ITER
                  : word_is(w, n, "elapsed")  ? SEEN_ELAPSED
                                              : SEEN_INTR;
        if (*seen & bit)
            return fail_at(c, 1, "repeated totals line", NULL);
        *seen |= bit;
        if (!one_arg(c, ls, &v, &vn))
            return false;
        bool good = bit == SEEN_ITER      ? parse_u64(v, vn, &h->iterations)
                    : bit == SEEN_ELAPSED ? parse_seconds(v, vn, &h->elapsed)
                                          : (word_is(v, vn, "0") || word_is(v, vn, "1"));
        if (bit == SEEN_INTR)
            h->interrupted = word_is(v, vn, "1");
        if (!good)
            return fail_at(c, (int)(v - ls) + 1, "bad value", NULL);
        return true;
    }
    if (word_is(w, n, "end")) {
        if (next_word(c, &v, &vn))
            return fail_at(c, (int)(v - ls) + 1, "unexpected text after end", NULL);
        if (*seen != (SEEN_ITER | SEEN_ELAPSED | SEEN_INTR))
            return fail_at(c, 1, "end before the iterations, elapsed and interrupted lines", NULL);
        *done = true;
        return check_totals(c, h);
    }
    return fail_at(c, 1, "unknown line in the histogram", NULL);
}

harness_hist *harness_parse_histogram(const char *text, size_t len, int nobs,
                                      const char *origin, diag *d)
{
    cursor c = {text, text, origin ? origin : "runner output", 0, d};
    const char *end = text + len;
    harness_hist *h = xcalloc(1, sizeof *h);
    h->nobs = nobs;
    size_t ocap = 0, ccap = 0;
    int seen = 0;
    bool header = false, done = false;
    const char *ls = text;
    while (ls < end && !done) {
        const char *nl = memchr(ls, '\n', (size_t)(end - ls));
        const char *le = nl ? nl : end;
        c.line++;
        c.p = ls;
        c.end = le;
        if (le > ls && le[-1] == '\r')
            c.end--;
        if (memchr(ls, 0, (size_t)(le - ls))) {
            fail_at(&c, 1, "NUL byte in the runner's output", NULL);
            goto bad;
        }
        if (!header) {
            if ((size_t)(c.end - ls) != strlen(NATIVE_PROTOCOL_MAGIC) ||
                memcmp(ls, NATIVE_PROTOCOL_MAGIC, strlen(NATIVE_PROTOCOL_MAGIC))) {
                fail_at(&c, 1, "expected the header '" NATIVE_PROTOCOL_MAGIC "'", NULL);
                goto bad;
            }
            header = true;
        } else if (!parse_line(&c, ls, h, &seen, &ocap, &ccap, &done)) {
            goto bad;
        }
        ls = nl ? nl + 1 : end;
    }
    if (!header) {
        c.line = 1;
        fail_at(&c, 1, "the runner printed no histogram", NULL);
        goto bad;
    }
    if (!done) {
        c.line++;
        fail_at(&c, 1, "the histogram ends without its 'end' line", NULL);
        goto bad;
    }
    if (ls < end) {
        c.line++;
        fail_at(&c, 1, "text after the histogram's 'end' line", NULL);
        goto bad;
    }
    return h;
bad:
    harness_hist_free(h);
    return NULL;
}

void harness_hist_free(harness_hist *h)
{
    if (!h)
        return;
    for (int i = 0; i < h->noutcomes; i++)
        free(h->outcomes[i].vals);
    free(h->outcomes);
    kv_free(h->config, h->nconfig);
    free(h);
}

const char *harness_config_get(const harness_hist *h, const char *key)
{
    for (int i = 0; i < h->nconfig; i++)
        if (!strcmp(h->config[i].key, key))
            return h->config[i].value;
    return NULL;
}
