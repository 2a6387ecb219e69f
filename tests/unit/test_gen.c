/* The generator's stages: edge names and their spellings, diy7's order
 * on edges, resolution of directions and annotations, the normal form
 * and family names, locations and values, the condition, and the
 * enumeration's rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "gen/internal.h"

static const gen_arch *X86, *C, *JAVA;

static int setup(void **st)
{
    (void)st;
    X86 = gen_arch_get(GEN_X86);
    C = gen_arch_get(GEN_C);
    JAVA = gen_arch_get(GEN_JAVA);
    return 0;
}

static gen_edge parse(const gen_arch *a, const char *s)
{
    gen_edge e;
    int r = gen_edge_parse(a, s, &e);
    if (r != 1)
        fail_msg("'%s' does not parse on %s (%d)", s, a->name, r);
    return e;
}

static void assert_name(const gen_arch *a, const gen_edge *e, const char *want)
{
    strbuf b = {0};
    gen_edge_name(a, e, &b);
    assert_string_equal(b.s, want);
    sb_free(&b);
}

static void test_edge_kinds(void **st)
{
    (void)st;
    gen_edge e = parse(X86, "Rfe");
    assert_int_equal(e.kind, GK_RF);
    assert_true(e.ext);
    assert_int_equal(gen_dir_src(&e), GD_W);
    assert_int_equal(gen_dir_tgt(&e), GD_R);
    e = parse(X86, "Fri");
    assert_int_equal(e.kind, GK_FR);
    assert_false(e.ext);
    e = parse(X86, "PodWR");
    assert_int_equal(e.kind, GK_PO);
    assert_true(e.diff);
    assert_int_equal(e.src, GD_W);
    assert_int_equal(e.tgt, GD_R);
    e = parse(X86, "Pos*W");
    assert_false(e.diff);
    assert_int_equal(e.src, GD_IRR);
    e = parse(X86, "MFencedWR");
    assert_int_equal(e.kind, GK_FENCED);
    e = parse(C, "DpAddrdW");
    assert_int_equal(e.kind, GK_DP);
    assert_int_equal(e.dp, GEN_DP_ADDR);
    assert_int_equal(gen_dir_src(&e), GD_R);
    e = parse(X86, "Rmw");
    assert_int_equal(e.kind, GK_RMW);
    assert_false(gen_is_ext(&e));
}

/* diy7's other spellings: Ws for Co, Fenced for the strongest fence,
 * P for no annotation, A for C's seq_cst, and its default dependencies. */
static void test_edge_spellings(void **st)
{
    (void)st;
    gen_edge a = parse(X86, "Wse"), b = parse(X86, "Coe");
    assert_true(gen_edge_equal(&a, &b));
    a = parse(X86, "FencedWR");
    b = parse(X86, "MFencedWR");
    assert_true(gen_edge_equal(&a, &b));
    a = parse(C, "FencedWR");
    b = parse(C, "FenceScdWR");
    assert_true(gen_edge_equal(&a, &b));
    a = parse(C, "PodWWPRel");
    b = parse(C, "PodWWNaRel");
    assert_true(gen_edge_equal(&a, &b));
    assert_int_equal(a.a1, -1);
    a = parse(C, "RfeAA");
    b = parse(C, "RfeScSc");
    assert_true(gen_edge_equal(&a, &b));
    a = parse(C, "DpdW");
    assert_int_equal(a.dp, GEN_DP_DATA);
    a = parse(C, "CtrldR");
    assert_int_equal(a.dp, GEN_DP_CTRL);
    a = parse(X86, "Exch");
    assert_int_equal(a.kind, GK_RMW);
}

static void test_edge_refusals(void **st)
{
    (void)st;
    gen_edge e;
    assert_int_equal(gen_edge_parse(X86, "PodXY", &e), 0);
    assert_int_equal(gen_edge_parse(X86, "", &e), 0);
    assert_int_equal(gen_edge_parse(X86, "DpAddrdW", &e), -1);   /* a C edge */
    assert_int_equal(gen_edge_parse(C, "MFencedWR", &e), -1);    /* an X86 edge */
    assert_int_equal(gen_edge_parse(JAVA, "DpAddrdR", &e), -1);  /* C's: Java has no address arithmetic */
    assert_int_equal(gen_edge_parse(C, "PodWRAcqRlx", &e), 0);   /* acquire write: no such edge */
    assert_int_equal(gen_edge_parse(C, "RfeNaNa", &e), 0);       /* two plain: written with none */
    assert_int_equal(gen_edge_parse(JAVA, "Rmw", &e), -1);       /* Java has no exchange */
}

static void test_edge_names(void **st)
{
    (void)st;
    gen_edge e = parse(C, "PodWWRlxRel");
    assert_name(C, &e, "PodWWRlxRel");
    e = parse(C, "PodWWPRel");
    assert_name(C, &e, "PodWWNaRel");
    e = parse(X86, "Wse");
    assert_name(X86, &e, "Coe");
    e = parse(JAVA, "FenceFulldWROpOp");
    assert_name(JAVA, &e, "FenceFulldWROpOp");
    char *list = gen_edge_list(GEN_X86);
    assert_non_null(strstr(list, "MFencedWR"));
    assert_non_null(strstr(list, "Rfe"));
    assert_null(strstr(list, "Dp"));
    free(list);
}

/* diy7 compares edges as OCaml compares its edge record. */
static void test_edge_order(void **st)
{
    (void)st;
    gen_edge rf = parse(X86, "Rfe"), fr = parse(X86, "Fre"), po = parse(X86, "PodWR"),
             pos = parse(X86, "PosWR"), rfi = parse(X86, "Rfi");
    assert_true(gen_edge_poly_cmp(&rf, &fr) < 0);
    assert_true(gen_edge_poly_cmp(&fr, &po) < 0);
    assert_true(gen_edge_poly_cmp(&pos, &po) < 0);   /* Same before Diff */
    assert_true(gen_edge_poly_cmp(&rfi, &rf) < 0);   /* Int before Ext */
    gen_edge ww = parse(X86, "PodWW"), wr = parse(X86, "PodWR");
    assert_true(gen_edge_poly_cmp(&ww, &wr) < 0);    /* W before R */
    gen_edge plain = parse(C, "PodWW"), rlx = parse(C, "PodWWRlxRlx");
    assert_true(gen_edge_poly_cmp(&plain, &rlx) < 0);   /* none before some */
}

static bool cycle(const gen_arch *a, const char *text, gen_cycle *c, diag *d)
{
    char *copy = xstrdup(text), *save = NULL;
    const char *names[GEN_MAX_EDGES];
    int n = 0;
    for (char *w = strtok_r(copy, " ", &save); w && n < GEN_MAX_EDGES; w = strtok_r(NULL, " ", &save))
        names[n++] = w;
    bool ok = gen_parse_cycle(a, names, n, c, d);
    free(copy);
    return ok;
}

static void test_resolve(void **st)
{
    (void)st;
    gen_cycle c;
    diag d = {0};
    /* '*' directions come from the neighbours */
    assert_true(cycle(X86, "Pod*R Fre Pod** Fre", &c, &d));
    assert_int_equal(c.ev[0].dir, GD_W);
    assert_int_equal(c.ev[2].dir, GD_W);
    assert_int_equal(c.e[2].tgt, GD_R);
    /* annotations spread to the communication edges */
    assert_true(cycle(C, "PodWWRlxRel Rfe PodRRAcqRlx Fre", &c, &d));
    assert_int_equal(c.e[1].a1, 1);     /* Rel */
    assert_int_equal(c.e[1].a2, 0);     /* Acq */
    assert_int_equal(c.e[3].a1, 4);     /* Rlx */
    assert_int_equal(c.ev[3].atom, 4);
    /* the edges must chain */
    memset(&d, 0, sizeof d);
    assert_false(cycle(X86, "PodWR Fre PodRR Fre", &c, &d));
    assert_non_null(strstr(d.msg, "edge 2 'Fre'"));
    memset(&d, 0, sizeof d);
    assert_false(cycle(X86, "Pod** Pod** Fre", &c, &d));
    assert_non_null(strstr(d.msg, "unknown"));
    memset(&d, 0, sizeof d);
    assert_false(cycle(X86, "PodWR PodRW", &c, &d));
    assert_non_null(strstr(d.msg, "no external communication"));
    assert_int_equal(d.status, 2);
}

static void test_normal_form_and_family(void **st)
{
    (void)st;
    gen_cycle c;
    diag d = {0};
    strbuf b = {0};
    int nprocs;
    assert_true(cycle(X86, "Rfe PodRR Fre PodWW", &c, &d));
    gen_normalise(&c);
    assert_int_equal(c.e[0].kind, GK_PO);   /* MP starts with its writer: WW+RR */
    assert_int_equal(c.e[0].src, GD_W);
    gen_family(&c, &b, &nprocs);
    assert_string_equal(b.s, "MP");
    assert_int_equal(nprocs, 2);
    b.len = 0;
    assert_true(cycle(X86, "Fre MFencedWR Fre PodWR", &c, &d));
    gen_normalise(&c);
    gen_test_name(&c, &b);
    assert_string_equal(b.s, "SB+mfence+po");
    b.len = 0;
    assert_true(cycle(X86, "PodWW Rfe PodRR Fre PodWW Rfe PodRR Fre", &c, &d));
    gen_normalise(&c);
    gen_family(&c, &b, &nprocs);
    assert_string_equal(b.s, "WW+RR+WW+RR");    /* no name in diy7's table */
    assert_int_equal(nprocs, 4);
    sb_free(&b);
}

static void test_locations_values(void **st)
{
    (void)st;
    gen_cycle c;
    diag d = {0};
    /* MP: x written 1 then read 0 (fr), y written 1 and read 1 (rf) */
    assert_true(cycle(X86, "PodWW Rfe PodRR Fre", &c, &d));
    gen_normalise(&c);
    assert_true(gen_place(&c, &d));
    assert_int_equal(c.nprocs, 2);
    assert_int_equal(c.nlocs, 2);
    assert_int_equal(c.ev[0].loc, 0);   /* x */
    assert_int_equal(c.ev[0].v, 1);
    assert_int_equal(c.ev[1].loc, 1);   /* y */
    assert_int_equal(c.ev[2].v, 1);     /* reads y = 1 */
    assert_int_equal(c.ev[3].v, 0);     /* reads x = 0 */
    assert_int_equal(c.ev[3].proc, 1);
    /* 2+2W: two writes per location give [x]=2 /\ [y]=2 */
    assert_true(cycle(X86, "PodWW Coe PodWW Coe", &c, &d));
    gen_normalise(&c);
    assert_true(gen_place(&c, &d));
    gen_final f[8];
    int n;
    assert_true(gen_memory_finals(&c, f, &n, &d));
    assert_int_equal(n, 2);
    assert_int_equal(f[0].loc, 0);
    assert_int_equal(f[0].v, 2);
    /* three writes to a location would need observers */
    assert_true(cycle(X86, "Coe PodWW Coe Coe PodWW Coe", &c, &d));
    gen_normalise(&c);
    assert_true(gen_place(&c, &d));
    assert_false(gen_memory_finals(&c, f, &n, &d));
    assert_non_null(strstr(d.msg, "written 3 times"));
    char name[8];
    gen_loc_name(3, name, sizeof name);
    assert_string_equal(name, "a");
    gen_loc_name(27, name, sizeof name);
    assert_string_equal(name, "x01");
}

static void test_one_test(void **st)
{
    (void)st;
    const char *sb[] = {"PodWR", "Fre", "PodWR", "Fre"};
    gen_test t;
    diag d = {0};
    assert_true(gen_one(GEN_X86, sb, 4, NULL, &t, &d));
    assert_string_equal(t.name, "SB");
    assert_string_equal(t.cycle, "PodWR Fre PodWR Fre");
    assert_int_equal(t.nprocs, 2);
    assert_non_null(strstr(t.text, "exists (0:EAX=0 /\\ 1:EAX=0)\n"));
    assert_non_null(strstr(t.text, "Com=Fr Fr\n"));
    gen_test_free(&t);
    const char *lb[] = {"DpCtrldW", "Rfe", "DpDatadW", "Rfe"};
    assert_true(gen_one(GEN_C, lb, 4, NULL, &t, &d));
    assert_string_equal(t.name, "LB+data+ctrl");     /* diy7 starts it at the data dependency */
    assert_non_null(strstr(t.text, "  if (r0 == 1) {\n    *x = 1;\n  }\n"));
    assert_non_null(strstr(t.text, "*y = 1 + (r0 & 128);"));
    gen_test_free(&t);
    assert_true(gen_one(GEN_JAVA, lb, 4, NULL, &t, &d));
    assert_non_null(strstr(t.text, "Y.set(1 + (r0 ^ r0));"));
    gen_test_free(&t);
    gen_one_opts o = {.name = "Mine", .keep_order = true, .generator = "g"};
    const char *rot[] = {"Fre", "PodWR", "Fre", "PodWR"};
    assert_true(gen_one(GEN_X86, rot, 4, &o, &t, &d));
    assert_string_equal(t.name, "Mine");
    assert_string_equal(t.cycle, "Fre PodWR Fre PodWR");
    assert_non_null(strstr(t.text, "Generator=g\n"));
    gen_test_free(&t);
}

static int count;
static bool counter(void *ctx, gen_test *t, const char *relax, const char *safe)
{
    (void)relax;
    (void)safe;
    if (ctx && strcmp(t->name, ctx) == 0)
        count += 1000;
    count++;
    gen_test_free(t);
    return true;
}

static void test_enumerate(void **st)
{
    (void)st;
    const char *safe[] = {"PodWR", "Rfe", "Fre", "Coe", "MFencedWR"};
    gen_enum_opts o = {.arch = GEN_X86, .size = 6, .nprocs = 4, .max_ins = 4, .safe = safe, .nsafe = 5,
                       .min_relax = 1, .max_relax = 100};
    diag d = {0};
    count = 0;
    assert_true(gen_enumerate(&o, counter, "SB", &d));
    assert_int_equal(count, 1007);      /* diy7 makes the same 7, SB among them */
    o.filter = "^SB";
    count = 0;
    assert_true(gen_enumerate(&o, counter, NULL, &d));
    assert_int_equal(count, 3);
    o.filter = "(";
    assert_false(gen_enumerate(&o, counter, NULL, &d));
    assert_non_null(strstr(d.msg, "--filter"));
    memset(&d, 0, sizeof d);
    o.filter = NULL;
    o.size = 0;
    assert_false(gen_enumerate(&o, counter, NULL, &d));
    memset(&d, 0, sizeof d);
    const char *relax[] = {"PodWR"}, *fre[] = {"Fre"};
    gen_enum_opts p = {.arch = GEN_X86, .size = 6, .nprocs = 4, .max_ins = 4, .relax = relax, .nrelax = 1,
                       .safe = fre, .nsafe = 1, .min_relax = 1, .max_relax = 100};
    count = 0;
    assert_true(gen_enumerate(&p, counter, NULL, &d));
    assert_int_equal(count, 2);         /* SB and 3.SB, as diy7 makes them */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edge_kinds),
        cmocka_unit_test(test_edge_spellings),
        cmocka_unit_test(test_edge_refusals),
        cmocka_unit_test(test_edge_names),
        cmocka_unit_test(test_edge_order),
        cmocka_unit_test(test_resolve),
        cmocka_unit_test(test_normal_form_and_family),
        cmocka_unit_test(test_locations_values),
        cmocka_unit_test(test_one_test),
        cmocka_unit_test(test_enumerate),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
