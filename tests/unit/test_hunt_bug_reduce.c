/* The reducer's edits (drop a thread and renumber, drop statements and
 * the condition atoms on their registers, weaken orders, rename values)
 * and the whole reduction of a bug planted in a 4-thread, 12-access test
 * under a predicate that looks for the store-buffering core with seq_cst
 * accesses: what is left is the 2-thread SB test, worked out by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "frontend/frontend.h"
#include "hunt/internal.h"

static const char *big =
    "C big\n"
    "\"PodWR Fre PodWR Fre\"\n"
    "Generator=by hand\n"
    "{}\n"
    "P0 (atomic_int* x, atomic_int* y, atomic_int* z) {\n"
    "  atomic_store(x, 1);\n"
    "  atomic_store_explicit(z, 2, memory_order_relaxed);\n"
    "  int r0 = atomic_load(y);\n"
    "  int r1 = atomic_load_explicit(z, memory_order_acquire);\n"
    "}\n"
    "P1 (atomic_int* x, atomic_int* y, atomic_int* w) {\n"
    "  atomic_store(y, 1);\n"
    "  int r0 = atomic_load(x);\n"
    "  atomic_store_explicit(w, 3, memory_order_release);\n"
    "}\n"
    "P2 (atomic_int* z, atomic_int* w) {\n"
    "  int r0 = atomic_load_explicit(w, memory_order_relaxed);\n"
    "  atomic_store_explicit(z, 1, memory_order_relaxed);\n"
    "  atomic_thread_fence(memory_order_seq_cst);\n"
    "}\n"
    "P3 (atomic_int* w) {\n"
    "  atomic_store_explicit(w, 2, memory_order_relaxed);\n"
    "  int r0 = atomic_fetch_add_explicit(w, 1, memory_order_relaxed);\n"
    "}\n"
    "exists (0:r0=0 /\\ 1:r0=0 /\\ 2:r0=3 /\\ 0:r1=2)\n";

static const char *sb_want =
    "C big\n"
    "{ }\n"
    "P0(atomic_int* x, atomic_int* y) {\n"
    "  atomic_store_explicit(x, 1, memory_order_seq_cst);\n"
    "  int r0 = atomic_load_explicit(y, memory_order_seq_cst);\n"
    "}\n"
    "\n"
    "P1(atomic_int* x, atomic_int* y) {\n"
    "  atomic_store_explicit(y, 1, memory_order_seq_cst);\n"
    "  int r0 = atomic_load_explicit(x, memory_order_seq_cst);\n"
    "}\n"
    "\n"
    "exists (0:r0=0 /\\ 1:r0=0)\n";

/* Thread TH's statement I, when it is a call of kind C with order SC
 * (as a store, or a register's declaration): its address argument. */
static const char *sc_call(const fe_thread *th, int i, fe_c_call c)
{
    if (i >= th->body->nbody)
        return NULL;
    const fe_stmt *s = th->body->body[i];
    const fe_expr *e = s->e;
    if (!e || e->kind != FE_E_CCALL || e->ccall != c || e->mo != FE_MO_SEQ_CST)
        return NULL;
    if ((c == FE_C_LOAD) != (s->kind == FE_S_DECL))
        return NULL;
    return e->args[0]->kind == FE_E_REG ? e->args[0]->name : NULL;
}

/* Does thread TH store A seq_cst and then load B seq_cst, its first two
 * statements apart from any between them? */
static bool sb_side(const fe_thread *th, const char **a, const char **b)
{
    for (int i = 0; i < th->body->nbody; i++)
        for (int j = i + 1; j < th->body->nbody; j++)
            if ((*a = sc_call(th, i, FE_C_STORE)) && (*b = sc_call(th, j, FE_C_LOAD)) && strcmp(*a, *b))
                return true;
    return false;
}

/* The planted bug: two threads make the SB core with seq_cst accesses, and
 * the condition still names a register of each (as a compiler that drops
 * the seq_cst store's fence shows). */
static int sb_pred(void *ctx, const char *text, const char *extra, diag *d)
{
    (void)extra;
    ++*(int *)ctx;
    fe_test *t = fe_parse(text, strlen(text), "cand.litmus", d);
    if (!t)
        return -1;
    int found = 0;
    for (int p = 0; p < t->nthreads && !found; p++)
        for (int q = 0; q < t->nthreads && !found; q++) {
            const char *a, *b, *c, *e;
            if (p != q && sb_side(&t->threads[p], &a, &b) && sb_side(&t->threads[q], &c, &e) && !strcmp(a, e) &&
                !strcmp(b, c))
                found = 1;
        }
    char *cond = fe_print(t);
    if (found && !strstr(cond, "exists (0:r0=0 /\\ 1:r0=0"))
        found = 0;
    free(cond);
    fe_test_free(t);
    return found;
}

static void drop_thread_renumbers(void **state)
{
    (void)state;
    /* P0 goes: P1..P3 become P0..P2, 0:r* atoms go, x and y stay (P1 names them) */
    char *s = hunt_red_edit(big, HUNT_RED_THREAD, 0, 1);
    assert_non_null(s);
    assert_non_null(strstr(s, "P0(atomic_int* x, atomic_int* y, atomic_int* w) {\n"
                              "  atomic_store_explicit(y, 1, memory_order_seq_cst);"));
    assert_non_null(strstr(s, "P2(atomic_int* w) {"));
    assert_null(strstr(s, "P3"));
    assert_non_null(strstr(s, "exists (0:r0=0 /\\ 1:r0=3)\n"));
    free(s);
    /* P2 and P3: z, w stay as P0 and P1 name them */
    s = hunt_red_edit(big, HUNT_RED_THREAD, 2, 2);
    assert_non_null(strstr(s, "exists (0:r0=0 /\\ 1:r0=0 /\\ 0:r1=2)\n"));
    free(s);
    assert_int_equal(hunt_red_sites(big, HUNT_RED_THREAD), 4);
}

static void drop_statement_and_its_atom(void **state)
{
    (void)state;
    assert_int_equal(hunt_red_sites(big, HUNT_RED_STMT), 12);
    /* statement 3 is P0's `int r1 = ...`: its atom goes, z stays (statement 1) */
    char *s = hunt_red_edit(big, HUNT_RED_STMT, 3, 1);
    assert_non_null(s);
    assert_null(strstr(s, "r1"));
    assert_non_null(strstr(s, "exists (0:r0=0 /\\ 1:r0=0 /\\ 2:r0=3)\n"));
    free(s);
    /* P3's two statements: an empty thread, w still a location of P1 */
    s = hunt_red_edit(big, HUNT_RED_STMT, 10, 2);
    assert_non_null(strstr(s, "P3() {\n}\n"));
    free(s);
    /* SB with P0's store alone left observes nothing: no candidate */
    assert_int_equal(hunt_red_sites(sb_want, HUNT_RED_STMT), 4);
    assert_null(hunt_red_edit(sb_want, HUNT_RED_STMT, 1, 3));
    s = hunt_red_edit(sb_want, HUNT_RED_STMT, 1, 1);
    assert_non_null(strstr(s, "exists (1:r0=0)\n"));
    free(s);
    int th, acc;
    hunt_red_count(big, &th, &acc);
    assert_int_equal(th, 4);
    assert_int_equal(acc, 12);
}

static void weaken_steps(void **state)
{
    (void)state;
    /* P0's seq_cst store and load and acquire load, P1's seq_cst store and
     * load and release store, P2's fence */
    assert_int_equal(hunt_red_sites(big, HUNT_RED_WEAKEN), 7);
    char *s = hunt_red_edit(big, HUNT_RED_WEAKEN, 0, 2);
    assert_non_null(strstr(s, "atomic_store_explicit(x, 1, memory_order_release);\n"
                              "  atomic_store_explicit(z, 2, memory_order_relaxed);\n"));
    free(s);
    /* the fence: seq_cst to acq_rel, then acquire (or release) */
    s = hunt_red_edit(big, HUNT_RED_WEAKEN, 6, 1);
    assert_non_null(strstr(s, "atomic_thread_fence(memory_order_acq_rel);"));
    assert_int_equal(hunt_red_sites(s, HUNT_RED_WEAKEN_REL), 1);
    char *r = hunt_red_edit(s, HUNT_RED_WEAKEN_REL, 0, 1);
    assert_non_null(strstr(r, "atomic_thread_fence(memory_order_release);"));
    free(r);
    r = hunt_red_edit(s, HUNT_RED_WEAKEN, 6, 1);
    assert_non_null(strstr(r, "atomic_thread_fence(memory_order_acquire);"));
    /* an acquire fence goes no further (a relaxed one is no fence) */
    assert_int_equal(hunt_red_sites(r, HUNT_RED_WEAKEN), 6);
    free(r);
    free(s);
}

static void values_renamed(void **state)
{
    (void)state;
    /* 2 and 3 are stored, and 1 and 2 are used: neither can be smaller */
    assert_int_equal(hunt_red_sites(big, HUNT_RED_VALUE), 2);
    assert_null(hunt_red_edit(big, HUNT_RED_VALUE, 0, 2));
    /* without P3 and P0's z, w's 3 becomes 2 in P1 and in the condition */
    char *s = hunt_red_edit(big, HUNT_RED_THREAD, 3, 1);
    char *t = hunt_red_edit(s, HUNT_RED_STMT, 1, 1);
    free(s);
    s = hunt_red_edit(t, HUNT_RED_STMT, 2, 1);
    free(t);
    assert_int_equal(hunt_red_sites(s, HUNT_RED_VALUE), 1);
    t = hunt_red_edit(s, HUNT_RED_VALUE, 0, 1);
    assert_non_null(t);
    assert_non_null(strstr(t, "atomic_store_explicit(w, 2, memory_order_release);"));
    assert_non_null(strstr(t, "2:r0=2)"));
    free(t);
    free(s);
}

/* Statements inside an if's blocks are places of their own; every edit of
 * every kind gives a test that parses again, or nothing. */
static void nested_statements(void **state)
{
    (void)state;
    const char *t = "C nest\n{ x=0; y=3; }\n"
                    "P0 (atomic_int* x, atomic_int* y) {\n"
                    "  int r0 = atomic_load_explicit(y, memory_order_acquire);\n"
                    "  if (r0 == 3) {\n"
                    "    atomic_store_explicit(x, 4, memory_order_relaxed);\n"
                    "    int r1 = atomic_fetch_add(x, 5);\n"
                    "  } else {\n"
                    "    atomic_store_explicit(x, 6, memory_order_release);\n"
                    "  }\n"
                    "}\n"
                    "P1 (atomic_int* x, atomic_int* y) {\n"
                    "  int r0 = atomic_exchange(x, 7);\n"
                    "  atomic_store(y, 3);\n"
                    "}\n"
                    "exists (0:r0=3 /\\ (0:r1=4 \\/ 1:r0=1) /\\ x=9)\n";
    assert_int_equal(hunt_red_sites(t, HUNT_RED_STMT), 7);
    /* the fetch_add inside the if's first block: its atom goes, and with
     * it the disjunction that held it */
    char *s = hunt_red_edit(t, HUNT_RED_STMT, 3, 1);
    assert_non_null(s);
    assert_non_null(strstr(s, "if (r0 == 3) {\n    atomic_store_explicit(x, 4, memory_order_relaxed);\n  } else {"));
    assert_non_null(strstr(s, "exists (0:r0=3 /\\ [x]=9)\n"));
    free(s);
    for (int k = 0; k < HUNT_RED_KINDS; k++)
        for (int i = 0; i < hunt_red_sites(t, (hunt_red_kind)k); i++)
            for (int c = 1; c <= 2; c++) {
                char *e = hunt_red_edit(t, (hunt_red_kind)k, i, c);
                if (!e)
                    continue;
                diag d = {0};
                fe_test *ft = fe_parse(e, strlen(e), "edit.litmus", &d);
                if (!ft && (k != HUNT_RED_STMT))
                    fail_msg("kind %d at %d (%d) does not parse: %s\n%s", k, i, c, d.msg, e);
                fe_test_free(ft);
                free(e);
            }
    /* 3 to 7 each go to the least value unused at its turn (2, 3, ...),
     * in the init, the code and the condition alike; 9, in the condition
     * alone, stays */
    s = hunt_red_edit(t, HUNT_RED_VALUE, 0, hunt_red_sites(t, HUNT_RED_VALUE));
    assert_non_null(s);
    assert_non_null(strstr(s, "{ x=0; y=2; }"));
    assert_non_null(strstr(s, "if (r0 == 2) {\n    atomic_store_explicit(x, 3, memory_order_relaxed);\n"
                              "    int r1 = atomic_fetch_add_explicit(x, 4, memory_order_seq_cst);"));
    assert_non_null(strstr(s, "atomic_exchange_explicit(x, 6, memory_order_seq_cst);"));
    assert_non_null(strstr(s, "exists (0:r0=2 /\\ (0:r1=3 \\/ 1:r0=1) /\\ [x]=9)\n"));
    free(s);
}

static void planted_bug_reduces_to_sb(void **state)
{
    (void)state;
    int calls = 0;
    hunt_reduce_stats st;
    diag d = {0};
    char *r = hunt_reduce(big, sb_pred, &calls, false, &st, &d);
    assert_non_null(r);
    if (strcmp(r, sb_want))
        fail_msg("reduced to:\n%s", r);
    assert_int_equal(st.threads_before, 4);
    assert_int_equal(st.accesses_before, 12);
    assert_int_equal(st.threads_after, 2);
    assert_int_equal(st.accesses_after, 4);
    assert_int_equal(st.tries, calls);
    free(r);
}

/* herd7 7.57 (HERD7, with HERD_LIBDIR its libdir) reads the reduced test
 * and finds its state forbidden under rc11: skipped without them. */
static void herd_reads_the_result(void **state)
{
    (void)state;
    const char *herd = getenv("HERD7"), *lib = getenv("HERD_LIBDIR");
    if (!herd || !lib || access(herd, X_OK))
        skip();
    char dir[] = "/tmp/test-hunt-herd-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], cmd[1024], line[256];
    snprintf(path, sizeof path, "%s/big.litmus", dir);
    FILE *f = fopen(path, "w");
    fputs(sb_want, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "'%s' -set-libdir '%s' -model rc11.cat %s 2>&1", herd, lib, path);
    f = popen(cmd, "r");
    bool never = false, warned = false;
    while (fgets(line, sizeof line, f)) {
        never |= !strncmp(line, "Observation big Never", 21);
        warned |= !strncmp(line, "Warning", 7);
    }
    pclose(f);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    assert_false(warned);
    assert_true(never);
}

static void no_bug_no_reduction(void **state)
{
    (void)state;
    int calls = 0;
    diag d = {0};
    const char *mp = "C MP\n{}\nP0 (atomic_int* x) {\n  atomic_store(x, 1);\n}\n\nexists (x=1)\n";
    assert_null(hunt_reduce(mp, sb_pred, &calls, false, NULL, &d));
    assert_true(d.set);
    d = (diag){0};
    assert_null(
        hunt_reduce("C bad\n{}\nP0 (atomic_int* x) {\n  atomic_store(x\n}\n", sb_pred, &calls, false, NULL, &d));
    assert_int_equal(d.status, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(drop_thread_renumbers),   cmocka_unit_test(drop_statement_and_its_atom),
        cmocka_unit_test(weaken_steps),            cmocka_unit_test(values_renamed),
        cmocka_unit_test(nested_statements),       cmocka_unit_test(planted_bug_reduces_to_sb),
        cmocka_unit_test(herd_reads_the_result),
        cmocka_unit_test(no_bug_no_reduction),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
