/* The litmus7 log and the verdict against a behaviour set, on hand-built
 * tests: SB under its three quantifiers (litmus7's log and herd's verdict arithmetic), memory
 * observables, filters, and states outside the behaviour set. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "harness/harness.h"

static ir_cond *atom_reg(int thread, const char *reg, ir_val v)
{
    ir_cond *c = ir_cond_new(IR_C_ATOM);
    c->lhs.kind = IR_OBS_REG;
    c->lhs.thread = thread;
    c->lhs.reg = xstrdup(reg);
    c->rhs = v;
    return c;
}

static ir_cond *both(ir_cond_kind k, ir_cond *l, ir_cond *r)
{
    ir_cond *c = ir_cond_new(k);
    c->l = l;
    c->r = r;
    return c;
}

/* The catalogue SB: exists (0:EAX=0 /\ 1:EAX=0), with its info lines. */
static ir_test *sb_test(ir_quant q)
{
    ir_test *t = ir_test_new("SB", IR_ARCH_X86);
    ir_add_loc(t, "x", IR_T_INT);
    ir_add_loc(t, "y", IR_T_INT);
    for (int i = 0; i < 2; i++) {
        ir_thread *th = ir_add_thread(t, i, i ? "P1" : "P0");
        ir_set_final_reg(th, "EAX", ir_imm(0));
    }
    ir_cond_free(t->cond);
    t->quant = q;
    if (q == IR_Q_FORALL)
        t->cond = both(IR_C_OR, atom_reg(0, "EAX", 1), atom_reg(1, "EAX", 1));
    else
        t->cond = both(IR_C_AND, atom_reg(0, "EAX", 0), atom_reg(1, "EAX", 0));
    t->hash = xstrdup("edd4722437d708675ed921e7607e77f0");
    ir_add_info(t, "Cycle", "Fre PodWR Fre PodWR");
    ir_add_info(t, "Prefetch", "0:x=F,0:y=T");
    return t;
}

/* A litmus7 run of SB, in an order unlike litmus7's. */
static const char *SB_RUN =
    "litmusc-histogram 1\n"
    "config size 10000\nconfig runs 10\nconfig sync loose\nconfig affinity incr\nconfig layout line\n"
    "outcome 6 1 1\noutcome 49990 1 0\noutcome 7 0 0\noutcome 49997 0 1\n"
    "iterations 100000\nelapsed 12.641234\ninterrupted 0\nend\n";

static harness_hist *hist(const char *text, int nobs)
{
    diag d = {0};
    harness_hist *h = harness_parse_histogram(text, strlen(text), nobs, "run", &d);
    if (!h)
        fail_msg("%s", d.msg);
    return h;
}

static char *log_of(const ir_test *t, const harness_hist *h)
{
    strbuf b = {0};
    harness_format_log(&b, t, h);
    return sb_take(&b);
}

static void sb_log_matches_litmus7(void **state)
{
    (void)state;
    ir_test *t = sb_test(IR_Q_EXISTS);
    harness_hist *h = hist(SB_RUN, 2);
    char *s = log_of(t, h);
    assert_string_equal(s,
                        "Test SB Allowed\n"
                        "Histogram (4 states)\n"
                        "7     *>0:EAX=0; 1:EAX=0;\n"
                        "49990 :>0:EAX=1; 1:EAX=0;\n"
                        "49997 :>0:EAX=0; 1:EAX=1;\n"
                        "6     :>0:EAX=1; 1:EAX=1;\n"
                        "Ok\n"
                        "\n"
                        "Witnesses\n"
                        "Positive: 7, Negative: 99993\n"
                        "Condition exists (0:EAX=0 /\\ 1:EAX=0) is validated\n"
                        "Hash=edd4722437d708675ed921e7607e77f0\n"
                        "Cycle=Fre PodWR Fre PodWR\n"
                        "Observation SB Sometimes 7 99993\n"
                        "Time SB 12.64\n"
                        "\n");
    free(s);
    harness_hist_free(h);
    ir_test_free(t);
}

/* ~exists swaps Positive/Negative but not Observation; forall stars the
 * violations (as herd7 and litmus7 count them). */
static void not_exists_and_forall(void **state)
{
    (void)state;
    ir_test *t = sb_test(IR_Q_NOT_EXISTS);
    harness_hist *h = hist(SB_RUN, 2);
    char *s = log_of(t, h);
    assert_non_null(strstr(s, "Test SB Forbidden\n"));
    assert_non_null(strstr(s, "7     *>0:EAX=0; 1:EAX=0;\n"));
    assert_non_null(strstr(s, "\nNo\n\nWitnesses\nPositive: 99993, Negative: 7\n"));
    assert_non_null(strstr(s, "Condition ~exists (0:EAX=0 /\\ 1:EAX=0) is NOT validated\n"));
    assert_non_null(strstr(s, "Observation SB Sometimes 7 99993\n"));
    free(s);
    ir_test_free(t);
    t = sb_test(IR_Q_FORALL);
    s = log_of(t, h);
    assert_non_null(strstr(s, "Test SB Required\n"));
    assert_non_null(strstr(s, "7     *>0:EAX=0; 1:EAX=0;\n49990 :>0:EAX=1; 1:EAX=0;\n"));
    assert_non_null(strstr(s, "\nNo\n\nWitnesses\nPositive: 99993, Negative: 7\n"));
    assert_non_null(strstr(s, "is NOT validated\n"));
    assert_non_null(strstr(s, "Observation SB Sometimes 99993 7\n"));
    free(s);
    harness_tally r = harness_tally_of(t, h);
    assert_int_equal(r.pos, 99993);
    assert_int_equal(r.neg, 7);
    assert_false(r.ok);
    harness_hist_free(h);
    ir_test_free(t);
}

static void never_and_always(void **state)
{
    (void)state;
    ir_test *t = sb_test(IR_Q_EXISTS);
    harness_hist *h = hist("litmusc-histogram 1\noutcome 3 1 0\noutcome 999999 0 1\n"
                           "iterations 1000002\nelapsed 0.5\ninterrupted 0\nend\n", 2);
    char *s = log_of(t, h);
    /* No gap once a count has six digits or more. */
    assert_non_null(strstr(s, "Histogram (2 states)\n3     :>0:EAX=1; 1:EAX=0;\n999999:>0:EAX=0; 1:EAX=1;\nNo\n"));
    assert_non_null(strstr(s, "Positive: 0, Negative: 1000002\n"));
    assert_non_null(strstr(s, "Observation SB Never 0 1000002\n"));
    free(s);
    harness_hist_free(h);
    h = hist("litmusc-histogram 1\noutcome 5 0 0\niterations 5\nelapsed 0\ninterrupted 0\nend\n", 2);
    s = log_of(t, h);
    assert_non_null(strstr(s, "Observation SB Always 5 0\n"));
    assert_non_null(strstr(s, "Ok\n"));
    free(s);
    harness_hist_free(h);
    ir_test_free(t);
}

/* A state with a memory observable, and the Relax info line. */
static void memory_and_relax(void **state)
{
    (void)state;
    ir_test *t = ir_test_new("MP+x", IR_ARCH_C);
    int x = ir_add_loc(t, "x", IR_T_INT);
    ir_set_final_reg(ir_add_thread(t, 0, "P0"), "r0", ir_imm(0));
    ir_cond_free(t->cond);
    t->quant = IR_Q_EXISTS;
    ir_cond *m = ir_cond_new(IR_C_ATOM);
    m->lhs.kind = IR_OBS_MEM;
    m->lhs.loc = x;
    m->rhs = 2;
    t->cond = both(IR_C_AND, atom_reg(0, "r0", -1), m);
    ir_add_info(t, "Relax", "PodWR");
    harness_hist *h = hist("litmusc-histogram 1\noutcome 4 -1 2\noutcome 1 0 2\noutcome 2 0 1\n"
                           "iterations 7\nelapsed 0\ninterrupted 0\nend\n", 2);
    char *s = log_of(t, h);
    assert_non_null(strstr(s, "2     :>0:r0=0; [x]=1;\n4     *>0:r0=-1; [x]=2;\n1     :>0:r0=0; [x]=2;\n"));
    assert_non_null(strstr(s, "Relax MP+x Ok PodWR\n"));
    assert_null(strstr(s, "Hash="));
    free(s);
    harness_hist_free(h);
    ir_test_free(t);
}

/* A hand-written behaviour set for SB under x86-TSO: all four states. */
static bset *sb_bset(const ir_test *t, int nstates, const ir_val (*vals)[2], bool undef)
{
    bset *b = xcalloc(1, sizeof *b);
    b->obs = ir_observables(t, &b->nobs);
    b->states = xcalloc((size_t)nstates, sizeof *b->states);
    b->nstates = nstates;
    for (int i = 0; i < nstates; i++) {
        b->states[i].vals = xcalloc(2, sizeof(ir_val));
        memcpy(b->states[i].vals, vals[i], sizeof vals[i]);
    }
    b->undef = undef;
    /* Executions: one per state here; P holds in 0,0 only. */
    for (int i = 0; i < nstates; i++) {
        b->states[i].cond = vals[i][0] == 0 && vals[i][1] == 0;
        if (b->states[i].cond)
            b->pos++;
        else
            b->neg++;
    }
    return b;
}

static void free_bset(bset *b)
{
    for (int i = 0; i < b->nstates; i++)
        free(b->states[i].vals);
    free(b->states);
    free(b->obs);
    free(b);
}

static void compare_marks_forbidden_and_unseen(void **state)
{
    (void)state;
    ir_test *t = sb_test(IR_Q_EXISTS);
    /* Under SC the weak state 0,0 is not allowed. */
    static const ir_val sc[3][2] = {{0, 1}, {1, 0}, {1, 1}};
    bset *b = sb_bset(t, 3, sc, false);
    harness_hist *h = hist("litmusc-histogram 1\noutcome 7 0 0\noutcome 90 1 0\noutcome 3 0 1\n"
                           "iterations 100\nelapsed 0\ninterrupted 0\nend\n", 2);
    harness_verdict v;
    diag d = {0};
    assert_true(harness_compare(t, b, h, &v, &d));
    assert_false(v.allowed[0]);
    assert_true(v.allowed[1]);
    assert_true(v.allowed[2]);
    assert_int_equal(v.nforbidden, 1);
    assert_int_equal(v.forbidden_count, 7);
    assert_int_equal(v.nunseen, 1);
    assert_int_equal(v.unseen[0], 2);
    harness_runinfo ri = {"x86", "sc", "cc -O2", NULL, "Test CPU", 2, "cached", false};
    strbuf sb = {0};
    harness_format_verdict(&sb, t, b, h, &v, &ri);
    char *s = sb_take(&sb);
    assert_string_equal(s,
                        "Model SB sc 3 states, observation Never 0 3\n"
                        "State SB FORBIDDEN 7      0:EAX=0; 1:EAX=0;\n"
                        "State SB allowed   90     0:EAX=1; 1:EAX=0;\n"
                        "State SB allowed   3      0:EAX=0; 1:EAX=1;\n"
                        "Unseen SB 0:EAX=1; 1:EAX=1;\n"
                        "Coverage SB 2/3\n"
                        "Config SB target=x86 iterations=100\n"
                        "Machine SB cpu=\"Test CPU\" cores=2 compiler=\"cc -O2\" build=\"cached\"\n"
                        "Verdict SB FORBIDDEN: 1 state outside the sc behaviour set, seen 7 times\n"
                        "\n");
    free(s);
    json j;
    json_init(&j, &sb);
    harness_json_begin(&j, "run");
    harness_json_run(&j, t, "sb.litmus", b, h, &v, &ri);
    harness_json_end(&j);
    s = sb_take(&sb);
    assert_non_null(strstr(s, "{\"schema\":\"litmusc/1\",\"command\":\"run\",\"results\":[{\"test\":\"SB\","));
    assert_non_null(strstr(s, "\"values\":[0,0],\"count\":7,\"condition\":true,\"allowed\":false"));
    assert_non_null(strstr(s, "\"unseen\":[[1,1]]"));
    assert_non_null(strstr(s, "\"status\":\"done\""));
    assert_non_null(strstr(s, "\"verdict\":\"forbidden\"}]}"));
    assert_non_null(strstr(s, "\"config\":{}"));
    free(s);
    harness_verdict_free(&v);
    free_bset(b);
    harness_hist_free(h);
    ir_test_free(t);
}

static void compare_all_allowed_with_config(void **state)
{
    (void)state;
    ir_test *t = sb_test(IR_Q_EXISTS);
    static const ir_val tso[4][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
    bset *b = sb_bset(t, 4, tso, false);
    harness_hist *h = hist(SB_RUN, 2);
    harness_verdict v;
    diag d = {0};
    assert_true(harness_compare(t, b, h, &v, &d));
    assert_int_equal(v.nforbidden, 0);
    assert_int_equal(v.nunseen, 0);
    harness_runinfo ri = {"x86", "x86tso", "gcc -O2", NULL, "AMD EPYC", 2, NULL, false};
    strbuf sb = {0};
    harness_format_verdict(&sb, t, b, h, &v, &ri);
    char *s = sb_take(&sb);
    assert_non_null(strstr(s, "Config SB target=x86 S=10000 R=10 sync=loose affinity=incr layout=line iterations=100000\n"));
    assert_non_null(strstr(s, "Verdict SB Ok: every observed state is allowed by x86tso (4 of 4 allowed states seen)\n"));
    free(s);
    /* the runner's config in JSON: numbers as numbers, words as strings */
    json j;
    json_init(&j, &sb);
    harness_json_run(&j, t, "sb.litmus", b, h, &v, &ri);
    s = sb_take(&sb);
    assert_non_null(strstr(s, "\"config\":{\"size\":10000,\"runs\":10,\"sync\":\"loose\",\"affinity\":\"incr\","));
    assert_non_null(strstr(s, "\"verdict\":\"ok\"}"));
    free(s);
    /* a run stopped at its time limit is partial, in text and JSON */
    ri.status = "timed out after 1 s: partial histogram";
    ri.timed_out = true;
    harness_format_verdict(&sb, t, b, h, &v, &ri);
    json_init(&j, &sb);
    harness_json_run(&j, t, "sb.litmus", b, h, &v, &ri);
    s = sb_take(&sb);
    assert_non_null(strstr(s, "Verdict SB Partial: every state observed in the 100000 iterations run before it "
                              "stopped is allowed by x86tso (4 of 4 allowed states seen)\n"));
    assert_non_null(strstr(s, "\"status\":\"timed-out\""));
    assert_non_null(strstr(s, "\"verdict\":\"partial\"}"));
    free(s);
    harness_verdict_free(&v);
    free_bset(b);
    harness_hist_free(h);
    ir_test_free(t);
}

/* A racy C program is undefined: nothing observed can be forbidden. */
/* The runner's first-seen lines give the Coverage line, in herd's order of
 * the allowed states; --until-covered adds the outcome. */
static void coverage_from_first_seen(void **state)
{
    (void)state;
    ir_test *t = sb_test(IR_Q_EXISTS);
    static const ir_val tso[4][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
    bset *b = sb_bset(t, 4, tso, false);
    harness_hist *h = hist("litmusc-histogram 1\noutcome 7 0 0\noutcome 2990 1 0\noutcome 3 0 1\n"
                           "first 2000 0 0\nfirst 1000 1 0\nfirst 3000 0 1\ncovered 0\n"
                           "iterations 3000\nelapsed 0\ninterrupted 0\nend\n", 2);
    assert_int_equal(h->covered, HARNESS_UNCOVERED);
    harness_verdict v;
    diag d = {0};
    assert_true(harness_compare(t, b, h, &v, &d));
    harness_cover c;
    harness_coverage(b, h, &v, &c);
    assert_int_equal(c.allowed, 4);
    assert_int_equal(c.seen, 3);
    assert_true(c.known);
    assert_int_equal(c.first[0], 2000);
    assert_int_equal(c.first[1], 3000);
    assert_int_equal(c.first[2], 1000);
    assert_int_equal(c.first[3], 0);
    assert_int_equal(c.complete_at, 0);
    harness_cover_free(&c);
    strbuf sb = {0};
    harness_format_coverage(&sb, t, b, h, &v);
    char *s = sb_take(&sb);
    assert_string_equal(s, "Coverage SB 3/4 first=2000,3000,1000,- (not covered within 3000 iterations)\n");
    free(s);
    /* a first line for an outcome that is not there, or twice, is refused */
    harness_hist_free(h);
    diag pd = {0};
    const char *stray = "litmusc-histogram 1\noutcome 3 0 1\nfirst 10 1 1\n"
                        "iterations 3\nelapsed 0\ninterrupted 0\nend\n";
    assert_null(harness_parse_histogram(stray, strlen(stray), 2, NULL, &pd));
    diag pd2 = {0};
    const char *twice = "litmusc-histogram 1\noutcome 3 0 1\nfirst 10 0 1\nfirst 10 0 1\n"
                        "iterations 3\nelapsed 0\ninterrupted 0\nend\n";
    assert_null(harness_parse_histogram(twice, strlen(twice), 2, NULL, &pd2));
    harness_verdict_free(&v);
    free_bset(b);
    ir_test_free(t);
}

static void undefined_allows_everything(void **state)
{
    (void)state;
    ir_test *t = sb_test(IR_Q_EXISTS);
    static const ir_val one[1][2] = {{1, 1}};
    bset *b = sb_bset(t, 1, one, true);
    harness_hist *h = hist(SB_RUN, 2);
    harness_verdict v;
    diag d = {0};
    assert_true(harness_compare(t, b, h, &v, &d));
    assert_int_equal(v.nforbidden, 0);
    assert_true(v.undef);
    harness_verdict_free(&v);
    free_bset(b);
    harness_hist_free(h);
    ir_test_free(t);
}

static void mismatched_observables_fail(void **state)
{
    (void)state;
    ir_test *t = sb_test(IR_Q_EXISTS);
    static const ir_val tso[1][2] = {{0, 0}};
    bset *b = sb_bset(t, 1, tso, false);
    b->obs[1].thread = 5;
    harness_hist *h = hist(SB_RUN, 2);
    harness_verdict v;
    diag d = {0};
    assert_false(harness_compare(t, b, h, &v, &d));
    assert_int_equal(d.status, 3);
    free_bset(b);
    harness_hist_free(h);
    ir_test_free(t);
}

/* `filter P`: outcomes failing P are left out of the histogram and the
 * counts, and are not forbidden although the behaviour set lacks them. */
static void filter_drops_states(void **state)
{
    (void)state;
    ir_test *t = sb_test(IR_Q_EXISTS);
    t->filter = atom_reg(1, "EAX", 0);
    harness_hist *h = hist(SB_RUN, 2);
    char *s = log_of(t, h);
    assert_non_null(strstr(s, "Histogram (2 states)\n7     *>0:EAX=0; 1:EAX=0;\n49990 :>0:EAX=1; 1:EAX=0;\nOk\n"));
    assert_non_null(strstr(s, "Positive: 7, Negative: 49990\n"));
    free(s);
    static const ir_val kept[2][2] = {{0, 0}, {1, 0}};
    bset *b = sb_bset(t, 2, kept, false);
    harness_verdict v;
    diag d = {0};
    assert_true(harness_compare(t, b, h, &v, &d));
    assert_int_equal(v.nforbidden, 0);
    assert_int_equal(v.nunseen, 0);
    harness_verdict_free(&v);
    free_bset(b);
    harness_hist_free(h);
    ir_test_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sb_log_matches_litmus7),
        cmocka_unit_test(not_exists_and_forall),
        cmocka_unit_test(never_and_always),
        cmocka_unit_test(memory_and_relax),
        cmocka_unit_test(compare_marks_forbidden_and_unseen),
        cmocka_unit_test(compare_all_allowed_with_config),
        cmocka_unit_test(coverage_from_first_seen),
        cmocka_unit_test(undefined_allows_everything),
        cmocka_unit_test(mismatched_observables_fail),
        cmocka_unit_test(filter_drops_states),
    };
    return cmocka_run_group_tests_name("harness_log", tests, NULL, NULL);
}
