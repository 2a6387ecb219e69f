/* Unit tests of happens-before and data races (model/hb.c, model/races.c):
 * hb by vector clocks equals hb by closure on every consistent execution of
 * every C and Java test of tests/corpus, and a C execution races exactly
 * when rc11 flags it undefined; hand-built executions whose synchronisation
 * is worked out by hand (message passing with release/acquire, with relaxed
 * accesses, through fences, a release sequence through an RMW, Java
 * volatile); and the per-state races of races_run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "tests/unit/unit_litmus.h"
#include "frontend/frontend.h"
#include "ir/lower.h"
#include "model/hb.h"
#include "model/model.h"
#include "model/races.h"
#include "util/mem.h"

#define BIT(i) ((uint64_t)1 << (i))

/* ---- hand-built executions ------------------------------------------------ */

/* An execution over NLOCS locations: their initial writes, events 0..NLOCS-1. */
static void x_init(exec *x, const ir_test *t, int nlocs)
{
    memset(x, 0, sizeof *x);
    x->test = t;
    for (int i = 0; i < nlocs; i++)
        x->ev[x->n++] = (exec_event){.kind = EV_W | EV_IW, .thread = -1, .loc = i, .mode = IR_MODE_NONE};
}

/* Append an event of THREAD, after all its earlier ones in po. */
static int x_event(exec *x, int thread, unsigned kind, int loc, ir_mode mode, ir_fence_kind fence)
{
    int i = x->n++, poi = 0;
    for (int j = 0; j < i; j++)
        if (x->ev[j].thread == thread) {
            x->po.row[j].w[0] |= BIT(i);
            poi++;
        }
    x->ev[i] = (exec_event){.kind = kind, .thread = thread, .poi = poi, .loc = loc, .mode = mode,
                            .fence = fence, .is_rmw = (kind & (EV_R | EV_W)) == (EV_R | EV_W)};
    return i;
}

static int x_w(exec *x, int th, int loc, ir_mode m) { return x_event(x, th, EV_W, loc, m, IR_FENCE_C); }
static int x_r(exec *x, int th, int loc, ir_mode m, int from)
{
    int i = x_event(x, th, EV_R, loc, m, IR_FENCE_C);
    x->rf.row[from].w[0] |= BIT(i);
    return i;
}
static int x_rmw(exec *x, int th, int loc, ir_mode m, int from)
{
    int i = x_event(x, th, EV_R | EV_W, loc, m, IR_FENCE_C);
    x->rf.row[from].w[0] |= BIT(i);
    return i;
}
static int x_f(exec *x, int th, ir_fence_kind k, ir_mode m) { return x_event(x, th, EV_F, -1, m, k); }

static bool rel_equal(const exec *x, const exec_rel *a, const exec_rel *b)
{
    for (int i = 0; i < x->n; i++)
        if (a->row[i].w[0] != b->row[i].w[0])
            return false;
    return true;
}

/* hb of X by clocks, checked equal to the closure; the racing pairs into OUT. */
static int hb_and_races(const exec *x, exec_rel *sw, exec_rel *hb, race_pair *out, int max)
{
    exec_rel ref;
    hb_sync(x, sw);
    assert_true(hb_clocks(x, sw, hb));
    hb_closure(x, sw, &ref);
    assert_true(rel_equal(x, hb, &ref));
    return hb_races(x, hb, out, max);
}

static uint64_t sw_row(const exec_rel *sw, int i) { return sw->row[i].w[0]; }

static ir_test c_test = {.name = "C", .arch = IR_ARCH_C};
static ir_test java_test = {.name = "J", .arch = IR_ARCH_JAVA};
static ir_test x86_test = {.name = "X", .arch = IR_ARCH_X86};

enum { X = 0, Y = 1, Z = 2 };

/* MP: P0 *x = 1; y.store(1, rel) | P1 r0 = y.load(acq) (reads 1); r1 = *x.
 * sw = {(Wy, Ry)}, so Wx hb Rx: no race. */
static void test_mp_release_acquire(void **state)
{
    (void)state;
    exec x;
    x_init(&x, &c_test, 2);
    int wx = x_w(&x, 0, X, IR_MO_NA), wy = x_w(&x, 0, Y, IR_MO_REL);
    int ry = x_r(&x, 1, Y, IR_MO_ACQ, wy), rx = x_r(&x, 1, X, IR_MO_NA, wx);
    exec_rel sw, hb;
    race_pair p[4];
    assert_int_equal(hb_and_races(&x, &sw, &hb, p, 4), 0);
    assert_true(sw_row(&sw, wy) == BIT(ry));
    for (int i = 0; i < x.n; i++)
        if (i != wy)
            assert_true(sw_row(&sw, i) == 0);
    assert_true(hb.row[wx].w[0] & BIT(rx));
    assert_true(hb.row[wx].w[0] & BIT(ry));
    assert_false(hb.row[rx].w[0] & BIT(wx));

    /* the acquire reads the initial y instead: no sw, and the na pair races */
    x_init(&x, &c_test, 2);
    wx = x_w(&x, 0, X, IR_MO_NA);
    wy = x_w(&x, 0, Y, IR_MO_REL);
    ry = x_r(&x, 1, Y, IR_MO_ACQ, Y);
    rx = x_r(&x, 1, X, IR_MO_NA, X);
    assert_int_equal(hb_and_races(&x, &sw, &hb, p, 4), 1);
    assert_true(sw_row(&sw, wy) == 0);
    assert_int_equal(p[0].a, wx);
    assert_int_equal(p[0].b, rx);
}

/* The same shape with relaxed y: no synchronisation, the data races. */
static void test_mp_relaxed(void **state)
{
    (void)state;
    exec x;
    x_init(&x, &c_test, 2);
    int wx = x_w(&x, 0, X, IR_MO_NA), wy = x_w(&x, 0, Y, IR_MO_RLX);
    x_r(&x, 1, Y, IR_MO_RLX, wy);
    int rx = x_r(&x, 1, X, IR_MO_NA, wx);
    exec_rel sw, hb;
    race_pair p[4];
    assert_int_equal(hb_and_races(&x, &sw, &hb, p, 4), 1);
    for (int i = 0; i < x.n; i++)
        assert_true(sw_row(&sw, i) == 0);
    assert_int_equal(p[0].a, wx);
    assert_int_equal(p[0].b, rx);
    /* the pair is named lower thread first, even when its event comes later */
    exec y;
    x_init(&y, &c_test, 1);
    int r1 = x_r(&y, 1, X, IR_MO_NA, X);
    int w0 = x_w(&y, 0, X, IR_MO_RLX);
    assert_int_equal(hb_and_races(&y, &sw, &hb, p, 4), 1);
    assert_int_equal(p[0].a, w0);
    assert_int_equal(p[0].b, r1);
    /* two atomic accesses never race; two reads neither */
    y.ev[r1].mode = IR_MO_RLX;
    assert_int_equal(hb_and_races(&y, &sw, &hb, p, 4), 0);
    y.ev[r1].mode = IR_MO_NA;
    y.ev[w0].kind = EV_R;
    assert_int_equal(hb_and_races(&y, &sw, &hb, p, 4), 0);
}

/* Fences: P0 *x = 1; fence(rel); y.store(1, rlx) | P1 y.load(rlx) = 1;
 * fence(acq); *x: sw goes fence to fence, no race. */
static void test_fences(void **state)
{
    (void)state;
    exec x;
    x_init(&x, &c_test, 2);
    int wx = x_w(&x, 0, X, IR_MO_NA), f0 = x_f(&x, 0, IR_FENCE_C, IR_MO_REL), wy = x_w(&x, 0, Y, IR_MO_RLX);
    int ry = x_r(&x, 1, Y, IR_MO_RLX, wy), f1 = x_f(&x, 1, IR_FENCE_C, IR_MO_ACQ);
    int rx = x_r(&x, 1, X, IR_MO_NA, wx);
    exec_rel sw, hb;
    race_pair p[4];
    assert_int_equal(hb_and_races(&x, &sw, &hb, p, 4), 0);
    assert_true(sw_row(&sw, f0) == BIT(f1));
    assert_true(sw_row(&sw, wy) == 0);
    assert_true(hb.row[wx].w[0] & BIT(rx));
    assert_false(hb.row[wx].w[0] & BIT(ry));     /* the acquire fence comes after the read */
}

/* A release sequence through an RMW: P0 *x = 1; y.store(1, rel) |
 * P1 y.fetch_add(1, rlx) (reads 1) | P2 y.load(acq) (reads 2); *x.
 * The RMW continues P0's release sequence, so P0 synchronises with P2.
 * A plain relaxed store in P1's place does not: the data races. */
static void test_release_sequence_rmw(void **state)
{
    (void)state;
    exec x;
    x_init(&x, &c_test, 2);
    int wx = x_w(&x, 0, X, IR_MO_NA), wy = x_w(&x, 0, Y, IR_MO_REL);
    int u = x_rmw(&x, 1, Y, IR_MO_RLX, wy);
    int ry = x_r(&x, 2, Y, IR_MO_ACQ, u), rx = x_r(&x, 2, X, IR_MO_NA, wx);
    exec_rel sw, hb;
    race_pair p[4];
    assert_int_equal(hb_and_races(&x, &sw, &hb, p, 4), 0);
    assert_true(sw_row(&sw, wy) == BIT(ry));  /* not to the relaxed RMW */
    assert_true(sw_row(&sw, u) == 0);
    assert_true(hb.row[wx].w[0] & BIT(rx));
    assert_false(hb.row[u].w[0] & BIT(ry));

    x_init(&x, &c_test, 2);
    wx = x_w(&x, 0, X, IR_MO_NA);
    wy = x_w(&x, 0, Y, IR_MO_REL);
    int w2 = x_w(&x, 1, Y, IR_MO_RLX);
    ry = x_r(&x, 2, Y, IR_MO_ACQ, w2);
    rx = x_r(&x, 2, X, IR_MO_NA, wx);
    assert_int_equal(hb_and_races(&x, &sw, &hb, p, 4), 1);
    assert_true(sw_row(&sw, wy) == 0);
    assert_int_equal(p[0].a, wx);
    assert_int_equal(p[0].b, rx);
}

/* Java MP: X.set(1); Y.setVolatile(1) | Y.getVolatile() = 1; X.get():
 * volatile synchronises, the plain pair does not race; with opaque y it does. */
static void test_java_volatile_mp(void **state)
{
    (void)state;
    for (int opaque = 0; opaque < 2; opaque++) {
        exec x;
        x_init(&x, &java_test, 2);
        ir_mode m = opaque ? IR_JM_OPAQUE : IR_JM_VOLATILE;
        int wx = x_w(&x, 0, X, IR_JM_PLAIN), wy = x_w(&x, 0, Y, m);
        int ry = x_r(&x, 1, Y, m, wy), rx = x_r(&x, 1, X, IR_JM_PLAIN, wx);
        exec_rel sw, hb;
        race_pair p[4];
        assert_int_equal(hb_and_races(&x, &sw, &hb, p, 4), opaque);
        assert_true(sw_row(&sw, wy) == (opaque ? 0 : BIT(ry)));
        if (opaque) {
            assert_int_equal(p[0].a, wx);
            assert_int_equal(p[0].b, rx);
        }
    }
    /* setRelease / getAcquire synchronise too */
    exec x;
    x_init(&x, &java_test, 2);
    int wx = x_w(&x, 0, X, IR_JM_PLAIN), wy = x_w(&x, 0, Y, IR_JM_RELEASE);
    int ry = x_r(&x, 1, Y, IR_JM_ACQUIRE, wy), rx = x_r(&x, 1, X, IR_JM_PLAIN, wx);
    exec_rel sw, hb;
    race_pair p[4];
    assert_int_equal(hb_and_races(&x, &sw, &hb, p, 4), 0);
    assert_true(sw_row(&sw, wy) == BIT(ry));
    assert_true(hb.row[wx].w[0] & BIT(rx));
}

/* x86: no sw, and no race, every access being atomic. */
static void test_x86_never_races(void **state)
{
    (void)state;
    exec x;
    x_init(&x, &x86_test, 1);
    int w = x_w(&x, 0, X, IR_X86_PLAIN);
    x_r(&x, 1, X, IR_X86_PLAIN, w);
    exec_rel sw, hb;
    race_pair p[2];
    assert_int_equal(hb_and_races(&x, &sw, &hb, p, 2), 0);
    assert_true(sw_row(&sw, w) == 0);
}

/* ---- every consistent execution of the corpus --------------------------------- */

typedef struct walk {
    uint64_t tests, executions, racy;
    const char *file;
    bool c;
} walk;

static bool check_exec(void *ctx, const exec *x, const model_exec_info *info, diag *d)
{
    (void)d;
    walk *w = ctx;
    exec_rel sw, hb, ref;
    hb_sync(x, &sw);
    if (!hb_clocks(x, &sw, &hb))
        fail_msg("%s: execution %llu: po | sw has a cycle", w->file, (unsigned long long)info->index);
    hb_closure(x, &sw, &ref);
    for (int i = 0; i < x->n; i++)
        if (hb.row[i].w[0] != ref.row[i].w[0])
            fail_msg("%s: execution %llu: hb of event %d by clocks %llx, by closure %llx", w->file,
                     (unsigned long long)info->index, i, (unsigned long long)hb.row[i].w[0],
                     (unsigned long long)ref.row[i].w[0]);
    race_pair p;
    bool racy = hb_races(x, &hb, &p, 1) > 0;
    /* rc11's own race (cat_eval) and hb.c's agree on every execution */
    if (w->c && racy != info->undef)
        fail_msg("%s: execution %llu: hb_races says %s, rc11 %s", w->file, (unsigned long long)info->index,
                 racy ? "racy" : "race-free", info->undef ? "undefined" : "defined");
    w->executions++;
    w->racy += racy;
    return true;
}

static ir_test *load(const char *path)
{
    diag d = {0};
    fe_test *ft = fe_parse_file(path, &d);
    ir_test *t = ft ? ir_lower(ft, &d) : NULL;
    fe_test_free(ft);
    if (!t)
        fail_msg("%s:%d:%d: %s", d.file, d.line, d.col, d.msg);
    return t;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void walk_dir(const char *dir, model *m, walk *w)
{
    DIR *dh = opendir(dir);
    if (!dh)
        fail_msg("cannot open %s", dir);
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(dh)))
        if (de->d_name[0] != '.') {
            char *s = xasprintf("%s/%s", dir, de->d_name);
            VEC_PUSH(names, n, cap, s);
        }
    closedir(dh);
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        size_t len = strlen(names[i]);
        if (stat(names[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            walk_dir(names[i], m, w);
        } else if (len > 7 && !strcmp(names[i] + len - 7, ".litmus")) {
            ir_test *t = load(names[i]);
            diag d = {0};
            w->file = names[i];
            bset *b = model_run_observed(m, t, check_exec, w, &d);
            if (!b)
                fail_msg("%s: %s", names[i], d.msg);
            w->tests++;
            bset_free(b);
            ir_test_free(t);
        }
        free(names[i]);
    }
    free(names);
}

/* The corpus from the source root (make runs tests there), else from this
 * file's own location. */
static char *corpus_dir(const char *sub)
{
    char *p = xasprintf("tests/corpus/%s", sub);
    if (access(p, R_OK) == 0)
        return p;
    free(p);
    const char *me = __FILE__;
    const char *slash = strrchr(me, '/');
    return xasprintf("%.*s/../corpus/%s", slash ? (int)(slash - me) : 1, slash ? me : ".", sub);
}

static void corpus(const char *sub, const char *model_name, bool c, uint64_t min_tests)
{
    diag d = {0};
    model *m = model_load(model_name, &d);
    assert_non_null(m);
    char *dir = corpus_dir(sub);
    walk w = {.c = c};
    walk_dir(dir, m, &w);
    print_message("%s under %s: %llu tests, %llu consistent executions (%llu racy): clocks = closure\n", dir,
                  model_name, (unsigned long long)w.tests, (unsigned long long)w.executions,
                  (unsigned long long)w.racy);
    assert_true(w.tests >= min_tests);
    assert_true(w.executions > w.tests);
    if (c)
        assert_true(w.racy > 0);
    free(dir);
    model_free(m);
}

static void test_corpus_c(void **state)
{
    (void)state;
    corpus("c11", "rc11", true, 150);
}

static void test_corpus_java(void **state)
{
    (void)state;
    corpus("java", "jam21", false, 100);
}

/* ---- races_run: pairs merged over executions, the races each state implies ----- */

static races *run_races(const char *model_name, const ir_test *t)
{
    diag d = {0};
    model *m = model_load(model_name, &d);
    assert_non_null(m);
    races *r = races_run(m, t, &d);
    if (!r)
        fail_msg("races_run: %s", d.msg);
    model_free(m);
    return r;
}

/* MP with release/acquire and a plain x, only r1 observed.  Executions
 * (rc11): acquire reads 0 then x 0 or 1 (both race on x), or acquire reads
 * 1 then x 1 (synchronised, no race).  So state r1=0 implies the race and
 * r1=1, reached both ways, does not. */
static void test_races_per_state(void **state)
{
    (void)state;
    ir_test *t = unit_litmus("C MP\n{ }\n"
                             "P0 (int* x, atomic_int* y) {\n"
                             "  *x = 1;\n"
                             "  atomic_store_explicit(y, 1, memory_order_release);\n"
                             "}\n"
                             "P1 (int* x, atomic_int* y) {\n"
                             "  int r0 = atomic_load_explicit(y, memory_order_acquire);\n"
                             "  int r1 = *x;\n"
                             "}\n"
                             "exists (1:r1=0)\n");
    races *r = run_races("rc11", t);
    assert_int_equal(r->executions, 3);
    assert_int_equal(r->racy, 2);
    assert_int_equal(r->npairs, 1);
    assert_int_equal(r->nharmful, 1);
    const races_pair *p = &r->pairs[0];
    assert_int_equal(p->a.thread, 0);
    assert_int_equal(p->a.poi, 0);
    assert_true(p->a.write && !p->a.read);
    assert_int_equal(p->a.mode, IR_MO_NA);
    assert_int_equal(p->a.instr->line, 4);
    assert_int_equal(p->a.instr->col, 3);
    assert_int_equal(p->b.thread, 1);
    assert_int_equal(p->b.poi, 1);
    assert_true(p->b.read && !p->b.write);
    assert_int_equal(p->b.instr->line, 9);
    assert_string_equal(t->locs[p->a.loc].name, "x");
    assert_int_equal(p->executions, 2);
    assert_false(p->benign);
    assert_int_equal(r->b->nstates, 2);
    for (int s = 0; s < r->b->nstates; s++) {
        if (r->b->states[s].vals[0] == 0) {
            assert_int_equal(r->nimplied[s], 1);
            assert_int_equal(r->implied[s][0], 0);
        } else {
            assert_int_equal(r->nimplied[s], 0);
        }
    }
    strbuf sb = {0};
    races_format_pair(&sb, t, "t.litmus", p);
    assert_string_equal(sb.s, "P0:0 (t.litmus:4:3) W na x <-> P1:1 (t.litmus:9:3) R na x");
    sb_free(&sb);
    races_free(r);
    ir_test_free(t);
}

/* An RMW races as RW; Java races are benign; x86 tests have none. */
static void test_races_kinds(void **state)
{
    (void)state;
    ir_test *t = unit_litmus("C RMW\n{ }\n"
                             "P0 (atomic_int* x) {\n"
                             "  int r0 = atomic_fetch_add_explicit(x, 1, memory_order_relaxed);\n"
                             "}\n"
                             "P1 (int* x) { *x = 2; }\n"
                             "exists (0:r0=0)\n");
    races *r = run_races("rc11", t);
    assert_int_equal(r->npairs, 1);
    assert_string_equal(races_access_kind(&r->pairs[0].a), "RW");
    assert_int_equal(r->pairs[0].a.mode, IR_MO_RLX);
    assert_string_equal(races_access_kind(&r->pairs[0].b), "W");
    assert_int_equal(r->pairs[0].first, 1);
    races_free(r);
    ir_test_free(t);

    t = unit_litmus("Java MP\n{ x=0; y=0; 0:X=x; 0:Y=y; 1:X=x; 1:Y=y; }\n"
                    "Thread0 { X.set(1); Y.setVolatile(1); }\n"
                    "Thread1 { int r0 = Y.getVolatile(); int r1 = X.get(); }\n"
                    "exists (1:r0=1 /\\ 1:r1=0)\n");
    r = run_races("jam21", t);
    assert_int_equal(r->npairs, 1);
    assert_true(r->pairs[0].benign);
    assert_int_equal(r->nharmful, 0);
    assert_int_equal(r->pairs[0].b.mode, IR_JM_PLAIN);
    races_free(r);
    ir_test_free(t);

    t = unit_litmus("X86 SB\n{ }\n P0 | P1 ;\n MOV [x],$1 | MOV [y],$1 ;\n MOV EAX,[y] | MOV EAX,[x] ;\n"
                    "exists (0:EAX=0 /\\ 1:EAX=0)\n");
    r = run_races("x86tso", t);
    assert_int_equal(r->npairs, 0);
    assert_int_equal(r->b->nstates, 4);
    races_free(r);
    ir_test_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mp_release_acquire),
        cmocka_unit_test(test_mp_relaxed),
        cmocka_unit_test(test_fences),
        cmocka_unit_test(test_release_sequence_rmw),
        cmocka_unit_test(test_java_volatile_mp),
        cmocka_unit_test(test_x86_never_races),
        cmocka_unit_test(test_corpus_c),
        cmocka_unit_test(test_corpus_java),
        cmocka_unit_test(test_races_per_state),
        cmocka_unit_test(test_races_kinds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
