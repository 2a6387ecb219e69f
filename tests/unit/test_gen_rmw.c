/* C's read-modify-writes and access fences in the generator: their
 * names (parsed, printed, refused), the C they print, the values of
 * locations an or or an and writes, the refusals that keep a condition
 * the cycle's, the vocabulary list, and the rc11 verdicts of known
 * shapes (each worked out by hand and checked against herd7 7.57). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "frontend/frontend.h"
#include "gen/internal.h"
#include "ir/lower.h"
#include "model/model.h"

static const gen_arch *C;

static int setup(void **st)
{
    (void)st;
    C = gen_arch_get(GEN_C);
    return 0;
}

static gen_edge parse(const char *s)
{
    gen_edge e;
    int r = gen_edge_parse(C, s, &e);
    if (r != 1)
        fail_msg("'%s' does not parse on C (%d)", s, r);
    return e;
}

static void assert_name(const gen_edge *e, const char *want)
{
    strbuf b = {0};
    gen_edge_name(C, e, &b);
    assert_string_equal(b.s, want);
    sb_free(&b);
}

/* The test for the cycle in S (edges separated by spaces); fails the
 * test on an error. */
static gen_test make(const char *s)
{
    char *copy = xstrdup(s), *save = NULL;
    const char *edges[GEN_MAX_EDGES];
    int n = 0;
    for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
        edges[n++] = w;
    gen_test t;
    diag d = {0};
    if (!gen_one(GEN_C, edges, n, NULL, &t, &d))
        fail_msg("%s: %s", s, d.msg);
    free(copy);
    return t;
}

/* The error message gen_one gives for the cycle S. */
static void assert_refused(const char *s, const char *part)
{
    char *copy = xstrdup(s), *save = NULL;
    const char *edges[GEN_MAX_EDGES];
    int n = 0;
    for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
        edges[n++] = w;
    gen_test t;
    diag d = {0};
    bool ok = gen_one(GEN_C, edges, n, NULL, &t, &d);
    free(copy);
    if (ok) {
        gen_test_free(&t);
        fail_msg("%s was made", s);
    }
    if (!strstr(d.msg, part))
        fail_msg("%s: '%s' does not say '%s'", s, d.msg, part);
    assert_int_equal(d.status, 2);
}

static void assert_has(const char *text, const char *part)
{
    if (!strstr(text, part))
        fail_msg("no '%s' in\n%s", part, text);
}

/* "Never", "Sometimes" or "Always" for TEXT under MODEL. */
static const char *observe(const char *text, const char *model_name, int *nstates)
{
    diag d = {0};
    fe_test *ft = fe_parse(text, strlen(text), "gen.litmus", &d);
    if (!ft)
        fail_msg("parse: %d:%d: %s\n%s", d.line, d.col, d.msg, text);
    ir_test *t = ir_lower(ft, &d);
    if (!t)
        fail_msg("lower: %s", d.msg);
    model *m = model_load(model_name, &d);
    assert_non_null(m);
    bset *b = model_run(m, t, &d);
    if (!b)
        fail_msg("model: %s", d.msg);
    const char *o = bset_observation(t, b);
    if (nstates)
        *nstates = b->nstates;
    bset_free(b);
    model_free(m);
    ir_test_free(t);
    fe_test_free(ft);
    return o;
}

static void test_rmw_names(void **st)
{
    (void)st;
    gen_edge e = parse("Rmw"), f = parse("Exch"), g = parse("RmwXchg");
    assert_int_equal(e.kind, GK_RMW);
    assert_true(gen_edge_equal(&e, &f) && gen_edge_equal(&e, &g));
    assert_name(&e, "Exch");
    e = parse("RmwAddAcqRel");
    assert_int_equal(e.op, GEN_OP_ADD);
    assert_int_equal(gen_rmw_order(e.a1, e.a2), 2);     /* acq_rel */
    assert_name(&e, "RmwAddAcqRel");
    e = parse("RmwOrIgRlxRlx");
    assert_true(e.unused);
    assert_name(&e, "RmwOrIgRlxRlx");
    /* a failure order that is C's default is not written */
    e = parse("RmwCasAcqRelAcq");
    assert_int_equal(e.fail, 0);
    assert_name(&e, "RmwCasAcqRel");
    e = parse("RmwCasWScScRlx");
    assert_int_equal(e.op, GEN_OP_CASW);
    assert_name(&e, "RmwCasWScScRlx");
    e = parse("FenceAddIdIgScShdWR");
    assert_int_equal(e.kind, GK_FENCED);
    assert_true(e.afence && e.idem && e.unused && e.shared && e.diff);
    assert_int_equal(e.mo, 3);
    assert_name(&e, "FenceAddIdIgScShdWR");
    e = parse("FenceCasARRlxsRWAcqRlx");
    assert_false(e.diff);
    assert_int_equal(e.fail, 4 + 1);
    assert_int_equal(e.a1, 0);
    assert_name(&e, "FenceCasARRlxsRWAcqRlx");
    e = parse("FenceLdAcqd*W");
    assert_int_equal(e.src, GD_IRR);
    /* access fences come after C's own fences, Rmw edges after everything */
    f = parse("FenceScdWR");
    g = parse("FenceXchgRlxdWR");
    assert_true(gen_edge_poly_cmp(&f, &g) < 0);
    e = parse("RmwXorRlxRlx");
    f = parse("ExchRlxRlx");
    assert_true(gen_edge_poly_cmp(&f, &e) < 0);
}

static void test_rmw_refusals(void **st)
{
    (void)st;
    gen_edge e;
    assert_int_equal(gen_edge_parse(C, "RmwCasIgRlxRlx", &e), 0);      /* a CAS shows it succeeded */
    assert_int_equal(gen_edge_parse(C, "RmwCasRlxRlxAcq", &e), 0);     /* failure stronger than success */
    assert_int_equal(gen_edge_parse(C, "RmwCasAcqRelRel", &e), 0);     /* a release failure */
    assert_int_equal(gen_edge_parse(C, "FenceLdIdAcqdWR", &e), 0);     /* a load has no operand */
    assert_int_equal(gen_edge_parse(C, "FenceStIgReldWR", &e), 0);     /* nor a store a result */
    assert_int_equal(gen_edge_parse(C, "FenceLdReldWR", &e), 0);       /* a release load */
    assert_int_equal(gen_edge_parse(C, "RmwAdd", &e), 1);
    assert_int_equal(gen_edge_parse(gen_arch_get(GEN_X86), "RmwAdd", &e), -1);   /* C's only */
    assert_int_equal(gen_edge_parse(gen_arch_get(GEN_X86), "FenceAddScdWR", &e), -1);
    /* diy7 7.57 takes a C Rmw whose events are plain but prints no test
     * for it ("Non atomic RMW"): C has no plain read-modify-write */
    assert_refused("PodWR Rmw Rfe PodRW Coe", "give its memory order");
    assert_refused("PodWRRlxSc Rmw RfeRlxRlx PodRWRlxRlx CoeRlxRlx", "no C memory order reads as Sc and writes as Rlx");
    /* two unkept fetch_ands commute: the final value cannot say which came first */
    assert_refused("PodRRRlxRlx RmwAndIgRlxRlx RfeRlxRlx RmwAndIgRlxRlx PodWWRlxRlx RfeRlxRlx",
                   "same in either coherence order");
    assert_refused("PodWRRlxRlx RmwOrRlxRlx RfeRlxRlx RmwAndRlxRlx PodWWRlxRlx CoeRlxRlx", "an or and an and");
}

/* diy7's Rmw on C: the exchange it means (diy7 7.57 parses it and
 * resolves its annotations to ExchAcqRlx, as here, but prints nothing). */
static void test_rmw_exchange(void **st)
{
    (void)st;
    gen_test t = make("PodWRRlxAcq Rmw RfeRlxRlx PodRWRlxRlx CoeRlxRlx");
    assert_string_equal(t.name, "S+porlxacq-rmwacqrlx+porlxrlx");
    assert_string_equal(t.cycle, "PodWRRlxAcq ExchAcqRlx RfeRlxRlx PodRWRlxRlx CoeRlxRlx");
    assert_has(t.text, "P0 (atomic_int* y,atomic_int* x) {\n"
                       "  atomic_store_explicit(x,2,memory_order_relaxed);\n"
                       "  int r0 = atomic_exchange_explicit(y,1,memory_order_acquire);\n}\n");
    assert_has(t.text, "exists ([x]=2 /\\ 0:r0=0 /\\ 1:r0=1)");
    int n;
    assert_string_equal(observe(t.text, "rc11", &n), "Sometimes");
    assert_int_equal(n, 4);
    assert_string_equal(observe(t.text, "sc", NULL), "Never");
    gen_test_free(&t);
}

/* Each operation's operand takes the location from the value read to
 * the value written; CAS expects what it reads. */
static void test_rmw_operations(void **st)
{
    (void)st;
    static const struct { const char *edge, *call, *cond; } cases[] = {
        {"RmwAddRlxRlx", "int r0 = atomic_fetch_add_explicit(y,1,memory_order_relaxed);", "0:r0=0"},
        {"RmwSubAcqRlx", "int r0 = atomic_fetch_sub_explicit(y,-1,memory_order_acquire);", "0:r0=0"},
        {"RmwXorScSc", "int r0 = atomic_fetch_xor_explicit(y,1,memory_order_seq_cst);", "0:r0=0"},
        {"RmwOrConRlx", "int r0 = atomic_fetch_or_explicit(y,1,memory_order_consume);", "0:r0=0"},
        {"RmwCasAcqRel",
         "int r0 = atomic_compare_exchange_strong_explicit(y,c0_0,1,memory_order_acq_rel,memory_order_acquire);",
         "0:r0=1"},
        {"RmwCasWRlxRlx",
         "int r0 = atomic_compare_exchange_weak_explicit(y,c0_0,1,memory_order_relaxed,memory_order_relaxed);",
         "0:r0=1"},
        {"RmwAddIgRlxRlx", "  atomic_fetch_add_explicit(y,1,memory_order_relaxed);", "exists ([x]=2 /\\ 1:r0=1)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char cyc[160];
        /* the neighbours take the Rmw's annotations: "PodWR Rmw Rfe" leave them open */
        snprintf(cyc, sizeof cyc, "PodWR %s Rfe PodRWRlxRlx CoeRlxRlx", cases[i].edge);
        gen_test t = make(cyc);
        assert_has(t.text, cases[i].call);
        assert_has(t.text, cases[i].cond);
        assert_string_equal(observe(t.text, "sc", NULL), "Never");
        assert_string_equal(observe(t.text, "rc11", NULL), "Sometimes");
        gen_test_free(&t);
    }
    /* the expected value of a CAS that reads 1 starts at 1 */
    gen_test t = make("PodWWRlxRlx RfeRlxRlx RmwCasRlxRlx PodWRRlxRlx FreRlxRlx");
    assert_has(t.text, "{ c1_0=1; }");
    assert_has(t.text, "atomic_compare_exchange_strong_explicit(y,c1_0,2,");
    gen_test_free(&t);
}

/* An or's location takes 0 1 3 ..., an and's starts with every bit set
 * and loses one a write: 2+2W with an unkept or, and with an and. */
static void test_rmw_bit_values(void **st)
{
    (void)st;
    gen_test t = make("PodWRRelAcq RmwOrIgAcqRel CoeRelRlx PodWRRlxAcq RmwOrIgAcqRel CoeRelRel");
    assert_has(t.text, "{}");
    assert_has(t.text, "  atomic_store_explicit(y,2,memory_order_relaxed);\n"
                       "  atomic_fetch_or_explicit(x,1,memory_order_acq_rel);\n");
    assert_has(t.text, "exists ([x]=2 /\\ [y]=2)");
    /* were the or's value 1 and the store's 3, an or after the store would leave 3 too */
    assert_string_equal(observe(t.text, "sc", NULL), "Never");
    assert_string_equal(observe(t.text, "rc11", NULL), "Sometimes");
    gen_test_free(&t);
    t = make("PodWRRelAcq RmwAndAcqRel CoeRelRlx PodWRRlxAcq RmwAndIgAcqRel CoeRelRel");
    assert_has(t.text, "{ x=3; y=3; }");
    assert_has(t.text, "int r0 = atomic_fetch_and_explicit(y,-2,memory_order_acq_rel);");
    assert_has(t.text, "exists ([x]=1 /\\ [y]=1 /\\ 0:r0=3)");
    assert_string_equal(observe(t.text, "sc", NULL), "Never");
    gen_test_free(&t);
}

/* SB with an RMW as a fence between the write and the read: on one
 * location the threads share, seq_cst (or acq_rel: the later RMW reads
 * from the earlier and synchronises with it) forbids the relaxed
 * outcome, relaxed allows it; on a location of each thread's own even
 * seq_cst allows it (C11 orders seq_cst accesses, not what is around
 * them), as an atomic_thread_fence(seq_cst) does not. */
static void test_access_fences_sb(void **st)
{
    (void)st;
    static const struct { const char *fence, *call, *verdict; } cases[] = {
        {"FenceAddIgScShdWR", "  atomic_fetch_add_explicit(fs,1,memory_order_seq_cst);\n", "Never"},
        {"FenceAddIgARShdWR", "  atomic_fetch_add_explicit(fs,1,memory_order_acq_rel);\n", "Never"},
        {"FenceAddIgRlxShdWR", "  atomic_fetch_add_explicit(fs,1,memory_order_relaxed);\n", "Sometimes"},
        {"FenceAddIgScdWR", "  atomic_fetch_add_explicit(f0,1,memory_order_seq_cst);\n", "Sometimes"},
        {"FenceXchgIdIgScShdWR", "  atomic_exchange_explicit(fs,0,memory_order_seq_cst);\n", "Never"},
        {"FenceAndIdIgRlxShdWR", "  atomic_fetch_and_explicit(fs,-1,memory_order_relaxed);\n", "Sometimes"},
        {"FenceOrIdScShdWR", "  int r0 = atomic_fetch_or_explicit(fs,0,memory_order_seq_cst);\n", "Never"},
        {"FenceLdScShdWR", "  int r0 = atomic_load_explicit(fs,memory_order_seq_cst);\n", "Sometimes"},
        {"FenceStScShdWR", "  atomic_store_explicit(fs,1,memory_order_seq_cst);\n", "Sometimes"},
        {"FenceCasScdWR", "  int r0 = atomic_compare_exchange_strong_explicit(f0,c0_0,1,memory_order_seq_cst,"
                          "memory_order_seq_cst);\n", "Sometimes"},
        {"FenceScdWR", "  atomic_thread_fence(memory_order_seq_cst);\n", "Never"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char cyc[128];
        snprintf(cyc, sizeof cyc, "%sRlxRlx FreRlxRlx %sRlxRlx FreRlxRlx", cases[i].fence, cases[i].fence);
        gen_test t = make(cyc);
        assert_has(t.text, cases[i].call);
        const char *o = observe(t.text, "rc11", NULL);
        if (strcmp(o, cases[i].verdict))
            fail_msg("%s: %s under rc11, not %s\n%s", cases[i].fence, o, cases[i].verdict, t.text);
        assert_string_equal(observe(t.text, "sc", NULL), "Never");
        gen_test_free(&t);
    }
    /* a kept result on the thread's own location is known: the condition says it */
    gen_test t = make("FenceAddScdWRRlxRlx FreRlxRlx FenceAddScdWRRlxRlx FreRlxRlx");
    assert_has(t.text, "P0 (atomic_int* y,atomic_int* x,atomic_int* f0) {\n"
                       "  atomic_store_explicit(x,1,memory_order_relaxed);\n"
                       "  int r0 = atomic_fetch_add_explicit(f0,1,memory_order_seq_cst);\n"
                       "  int r1 = atomic_load_explicit(y,memory_order_relaxed);\n}\n");
    assert_has(t.text, "exists (0:r0=0 /\\ 0:r1=0 /\\ 1:r0=0 /\\ 1:r1=0)");
    assert_string_equal(t.name, "SB+fenceaddscrlxrlxs");
    gen_test_free(&t);
}

/* The release sequence: an RMW between a release write and an acquire
 * read that reads from the RMW carries the synchronisation (MP never
 * shows the stale read); a plain relaxed write there does not. */
static void test_release_sequence(void **st)
{
    (void)st;
    gen_test t = make("PodWWRlxRel RfeRelRlx RmwAddRlxRlx RfeRlxAcq PodRRAcqRlx FreRlxRlx");
    assert_has(t.text, "int r0 = atomic_fetch_add_explicit(y,1,memory_order_relaxed);");
    assert_string_equal(observe(t.text, "rc11", NULL), "Never");
    gen_test_free(&t);
    t = make("PodWWRlxRel CoeRelRlx RfeRlxAcq PodRRAcqRlx FreRlxRlx");
    assert_has(t.text, "P0 (atomic_int* x) {\n  atomic_store_explicit(x,2,memory_order_relaxed);\n}\n");
    assert_string_equal(observe(t.text, "rc11", NULL), "Sometimes");
    gen_test_free(&t);
}

/* Every name of the vocabulary parses back to itself. */
static void test_vocabulary(void **st)
{
    (void)st;
    char *v = gen_c_vocabulary();
    assert_has(v, " ExchRlxRlx ");
    assert_has(v, " RmwCasWScScRlx ");
    assert_has(v, " FenceAddIdIgScShdWRRlxRlx ");
    assert_has(v, " PodWWRlxRel ");
    assert_has(v, " DpAddrdWAcqRlx ");
    assert_null(strstr(v, "*"));
    int n = 0, k = 0;
    char *save = NULL;
    for (char *w = strtok_r(v, " ", &save); w; w = strtok_r(NULL, " ", &save), k++) {
        if (k % 13)
            continue;       /* a sample keeps the test quick */
        gen_edge e;
        if (gen_edge_parse(C, w, &e) != 1)
            fail_msg("'%s' does not parse", w);
        assert_name(&e, w);
        n++;
    }
    assert_true(k > 10000);
    assert_true(n > 0);
    free(v);
}

/* An enumeration over access fences and Rmw edges: every test under sc
 * is Never (its condition is the cycle's), and it stays fast. */
typedef struct seen {
    int n, never;
} seen;

static bool count(void *ctx, gen_test *t, const char *r, const char *s)
{
    (void)r;
    (void)s;
    seen *c = ctx;
    if (c->n++ % 25 == 0)
        c->never += !strcmp(observe(t->text, "sc", NULL), "Never") ? 25 : 0;
    gen_test_free(t);
    return true;
}

static void test_enumerate_rmw(void **st)
{
    (void)st;
    const char *relax[] = {"Rmw", "RmwAddIg", "FenceXchgIgScShdWR", "FenceAddIdRlxdWR"};
    const char *safe[] = {"Rfe", "Fre", "Coe", "PodWW", "PodRR", "PodWR", "PodRW"};
    const char *var[] = {"Rlx", "Acq", "Rel", "Sc"};
    gen_enum_opts o = {.arch = GEN_C, .size = 5, .nprocs = 3, .max_ins = 4, .mode = GEN_MODE_CRITICAL,
                       .relax = relax, .nrelax = 4, .safe = safe, .nsafe = 7, .min_relax = 1, .max_relax = 100,
                       .varatom = var, .nvaratom = 4};
    seen c = {0};
    diag d = {0};
    assert_true(gen_enumerate(&o, count, &c, &d));
    assert_true(c.n > 1000);
    assert_int_equal(c.never, (c.n + 24) / 25 * 25);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rmw_names),
        cmocka_unit_test(test_rmw_refusals),
        cmocka_unit_test(test_rmw_exchange),
        cmocka_unit_test(test_rmw_operations),
        cmocka_unit_test(test_rmw_bit_values),
        cmocka_unit_test(test_access_fences_sb),
        cmocka_unit_test(test_release_sequence),
        cmocka_unit_test(test_vocabulary),
        cmocka_unit_test(test_enumerate_rmw),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
