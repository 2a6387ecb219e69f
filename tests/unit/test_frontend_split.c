/* Splitting a file into header, info lines, init, program and condition:
 * the header forms, info lines kept verbatim, where the program ends. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "frontend/frontend.h"

static diag d;

static fe_test *parse_as(const char *s, const char *file)
{
    memset(&d, 0, sizeof d);
    fe_test *t = fe_parse(s, strlen(s), file, &d);
    if (!t)
        fail_msg("parse failed: %d:%d %s", d.line, d.col, d.msg);
    return t;
}

static void test_header_forms(void **st)
{
    (void)st;
    fe_test *t = parse_as("(* leading comment *)\nX86 SB+mfence.x-y[1]:z (TeX)\n  \"doc on\n the next line\" ;\n"
                          "{ }\n P0 ;\n MOV [x],$1 ;\nexists (x=1)\n", "dir/SB.litmus");
    assert_string_equal(t->name, "SB+mfence.x-y[1]:z");
    assert_string_equal(t->doc, "doc on\n the next line");
    assert_string_equal(t->arch_name, "X86");
    assert_string_equal(t->file, "dir/SB.litmus");
    fe_test_free(t);
    t = parse_as("JAVA --\n{ x=0; 0:X=x; }\nThread0 { X.set(1); }\nexists (x=1)\n", "some/where/MP+vol.litmus");
    assert_int_equal(t->arch, FE_ARCH_JAVA);
    assert_string_equal(t->name, "MP+vol");     /* `--`: the file's base name */
    assert_null(t->doc);
    fe_test_free(t);
}

static void test_info_lines_verbatim(void **st)
{
    (void)st;
    fe_test *t = parse_as("X86 T\nCycle=Rfi PodRR Fre\nRelax = [Rfi,PodRR]  \nPrefetch=0:x=F,0:y=T\nEmpty=\n"
                          "{ }\n P0 ;\n MOV [x],$1 ;\nexists (x=1)\n", "t.litmus");
    assert_int_equal(t->ninfo, 4);
    assert_string_equal(t->info[0].key, "Cycle");
    assert_string_equal(t->info[0].value, "Rfi PodRR Fre");
    assert_string_equal(t->info[1].key, "Relax");
    assert_string_equal(t->info[1].value, "[Rfi,PodRR]");
    assert_string_equal(t->info[2].value, "0:x=F,0:y=T");
    assert_string_equal(t->info[3].value, "");
    assert_int_equal(t->info[2].pos.line, 4);
    fe_test_free(t);
}

static void test_program_end(void **st)
{
    (void)st;
    /* in C, `(*` is code and a keyword inside braces is not the condition */
    fe_test *t = parse_as("C T\n{ }\nP0 (atomic_int* x) { int forall = (*x); int exists = 1; }\n(0:forall=0)\n", "t.litmus");
    assert_int_equal(t->nthreads, 1);
    assert_int_equal(t->cond.quant, FE_Q_EXISTS);
    assert_string_equal(t->cond.prop->lhs.name, "forall");
    fe_test_free(t);
    /* x86: a bare `(P)` condition at the start of a line; comments in code */
    t = parse_as("X86 T\n{ }\n P0 (* one *) ;\n MOV [x],$1 (* two *) ;\n(x=1)\n", "t.litmus");
    assert_int_equal(t->nrows, 1);
    assert_int_equal(t->cond.prop->kind, FE_P_ATOM);
    fe_test_free(t);
    /* no condition at all: exists true */
    t = parse_as("Java T\n{ x=0; 0:X=x; }\nThread0 { X.set(1); }\n", "t.litmus");
    assert_int_equal(t->cond.quant, FE_Q_EXISTS);
    assert_int_equal(t->cond.prop->kind, FE_P_TRUE);
    fe_test_free(t);
    /* init braces nest (array initialisers) */
    t = parse_as("C T\n{ int a[2] = {1,2}; }\nP0 (int* a) { }\nexists (a[1]=2)\n", "t.litmus");
    assert_int_equal(t->init[0].nelems, 2);
    assert_int_equal(t->cond.prop->lhs.index, 1);
    fe_test_free(t);
}

static void test_parse_file(void **st)
{
    (void)st;
    memset(&d, 0, sizeof d);
    assert_null(fe_parse_file("/nonexistent/dir/x.litmus", &d));
    assert_true(d.set);
    assert_int_equal(d.status, 2);
    assert_int_equal(d.line, 0);
    assert_non_null(strstr(d.msg, "cannot open"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_forms),
        cmocka_unit_test(test_info_lines_verbatim),
        cmocka_unit_test(test_program_end),
        cmocka_unit_test(test_parse_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
