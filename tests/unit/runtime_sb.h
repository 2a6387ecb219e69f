#ifndef LITMUSC_TESTS_UNIT_RUNTIME_SB_H
#define LITMUSC_TESTS_UNIT_RUNTIME_SB_H
/* The hand-written SB test (2 to 4 threads) that the runtime's unit tests
 * run, and the check of its result; included after the runtime's sources.
 * Not every file uses every part. */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-const-variable"

#endif

/* ---- whole runs ---------------------------------------------------------------
 * SB on relaxed atomics: thread k stores 1 to cell k, then loads cell 1-k.
 * With 4 threads (two SB pairs sharing cells 0/1 and 2/3) the same shape
 * oversubscribes a 2-CPU machine. */
static void sb0(void *const *c, int64_t *out)
{
    atomic_store_explicit((_Atomic int32_t *)c[0], 1, memory_order_relaxed);
    out[0] = atomic_load_explicit((_Atomic int32_t *)c[1], memory_order_relaxed);
}
static void sb1(void *const *c, int64_t *out)
{
    atomic_store_explicit((_Atomic int32_t *)c[1], 1, memory_order_relaxed);
    out[0] = atomic_load_explicit((_Atomic int32_t *)c[0], memory_order_relaxed);
}
static void sb2(void *const *c, int64_t *out)
{
    atomic_store_explicit((_Atomic int32_t *)c[2], 1, memory_order_relaxed);
    out[0] = atomic_load_explicit((_Atomic int32_t *)c[3], memory_order_relaxed);
}
static void sb3(void *const *c, int64_t *out)
{
    atomic_store_explicit((_Atomic int32_t *)c[3], 1, memory_order_relaxed);
    out[0] = atomic_load_explicit((_Atomic int32_t *)c[2], memory_order_relaxed);
}
static void sb_reset(void *const *c)
{
    for (int l = 0; l < 4; l++)
        atomic_store_explicit((_Atomic int32_t *)c[l], 0, memory_order_relaxed);
}
static void sb_collect(void *const *c, int64_t *const *o, int64_t *v)
{
    (void)c;
    for (int k = 0; k < 2; k++)
        v[k] = o[k][0];
}
static void sb_collect4(void *const *c, int64_t *const *o, int64_t *v)
{
    (void)c;
    for (int k = 0; k < 4; k++)
        v[k] = o[k][0];
}
/* Final memory as well: every cell must read 1 after its store. */
static void sb_collect2(void *const *c, int64_t *const *o, int64_t *v)
{
    v[0] = o[0][0];
    v[1] = o[1][0];
    v[2] = atomic_load_explicit((_Atomic int32_t *)c[0], memory_order_relaxed);
    v[3] = atomic_load_explicit((_Atomic int32_t *)c[1], memory_order_relaxed);
}

static const int nout4[4] = {1, 1, 1, 1};
static const lrt_thread_fn fns4[4] = {sb0, sb1, sb2, sb3};

static void check_sb_result(const lrt_result *r, int nthreads, uint64_t expect)
{
    assert_int_equal(r->iterations, expect);
    assert_int_equal(lrt_hist_total(&r->hist), expect);
    /* Every outcome is one of the values the threads can load. */
    for (size_t i = 0; i < r->hist.cap; i++) {
        if (!r->hist.counts[i])
            continue;
        for (int k = 0; k < r->hist.width; k++) {
            int64_t v = r->hist.keys[i * (size_t)r->hist.width + (size_t)k];
            assert_true(v == 0 || v == 1);
        }
    }
    (void)nthreads;
}

static void run_sb(lrt_sync_kind sync, lrt_layout_kind layout, lrt_affinity_kind aff, int nthreads, int cpus)
{
    /* The cells are 32-bit: every mode runs on 4-byte slots here. */
    lrt_test t = {"SB", nthreads, 4, nthreads, nout4, fns4, sb_reset,
                  nthreads == 4 ? sb_collect4 : sb_collect, NULL, NULL, NULL, 4, NULL, NULL, NULL, NULL, NULL};
    lrt_config c;
    lrt_config_default(&c);
    c.size = 2000;
    c.runs = 5;
    c.sync = sync;
    c.layout = layout;
    c.affinity = aff;
    c.cpus = cpus;
    c.seed = 12345;
    lrt_result r;
    assert_int_equal(lrt_run(&t, &c, &r), 0);
    check_sb_result(&r, nthreads, 10000);
    assert_int_equal(r.runs_done, 5);
    assert_false(r.interrupted);
    assert_true(r.elapsed > 0);
    lrt_result_free(&r);
}

/* Final memory is collected after every thread finished, and reset
 * between runs: both cells always read 1. */
static void sb_reset2(void *const *c)
{
    atomic_store_explicit((_Atomic int32_t *)c[0], 0, memory_order_relaxed);
    atomic_store_explicit((_Atomic int32_t *)c[1], 0, memory_order_relaxed);
}

#endif
