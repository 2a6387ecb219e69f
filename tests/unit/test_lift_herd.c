/* lift/herd.c: each rewrite into herd7 7.57's X86_64 gives the states
 * the compiler's form gives under x86tso (both read by litmusc's X86_64
 * frontend, the wide form as compilers write it), every rewritten row
 * uses herd's mnemonics only, and what herd has no form for stays with
 * its reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "frontend/frontend.h"
#include "ir/lower.h"
#include "lift/lift.h"
#include "model/model.h"
#include "util/mem.h"

static char **rows_of(const char *const *src, int n)
{
    char **r = xcalloc((size_t)n + 1, sizeof *r);
    for (int i = 0; i < n; i++)
        r[i] = xstrdup(src[i]);
    return r;
}

/* The test: P0's rows R0[0..N0), P1 the row P1ROW, INIT and LOCS. */
static char *text_of(const char *init, char **r0, int n0, const char *p1row, const char *locs)
{
    strbuf b = {0};
    sb_printf(&b, "X86_64 T\n{ %s }\n P0 | P1 ;\n", init);
    for (int i = 0; i < n0 || i == 0; i++)
        sb_printf(&b, " %s | %s ;\n", i < n0 ? r0[i] : "", i == 0 ? p1row : "");
    sb_printf(&b, "locations [%s]\nexists (true)\n", locs);
    return sb_take(&b);
}

/* The states of TEXT under x86tso, one line. */
static char *states_of(const char *text)
{
    diag d = {0};
    fe_test *ft = fe_parse(text, strlen(text), "t.litmus", &d);
    if (!ft) {
        char msg[DIAG_MSG_MAX];
        diag_format(&d, msg, sizeof msg);
        fail_msg("%s\n%s", msg, text);
    }
    ir_test *t = ir_lower(ft, &d);
    if (!t) {
        char msg[DIAG_MSG_MAX];
        diag_format(&d, msg, sizeof msg);
        fail_msg("%s\n%s", msg, text);
    }
    model_set *ms = model_set_new();
    model *m = model_set_get(ms, "x86tso", &d);
    assert_non_null(m);
    bset *b = model_run(m, t, &d);
    assert_non_null(b);
    strbuf s = {0};
    for (int i = 0; i < b->nstates; i++) {
        for (int k = 0; k < b->nobs; k++)
            sb_printf(&s, "%lld,", (long long)b->states[i].vals[k]);
        sb_add(&s, "; ");
    }
    bset_free(b);
    model_set_free(ms);
    ir_test_free(t);
    fe_test_free(ft);
    return sb_take(&s);
}

/* herd7 7.57's mnemonics (lib/X86_64Lexer.mll), what the rewrites may write. */
static bool herd_row(const char *r)
{
    static const char *const ok[] = {"mov", "movb", "movw", "movl", "movq", "add", "addb", "addw", "addl", "addq",
                                     "xor", "xorb", "xorw", "xorl", "xorq", "or", "orb", "orw", "orl", "orq", "and",
                                     "shl", "cmp", "cmpb", "cmpw", "cmpl", "cmpq", "inc", "incl", "dec", "decl",
                                     "xchgl", "cmpxchgl", "mfence", "jmp", "je", "jne", "jle", "jgt", "jge", NULL};
    if (r[0] == 'L' && r[strlen(r) - 1] == ':')
        return true;
    if (!strncmp(r, "lock ", 5))
        r += 5;
    size_t n = strcspn(r, " ");
    for (int i = 0; ok[i]; i++)
        if (strlen(ok[i]) == n && !strncmp(ok[i], r, n))
            return !strstr(r, "(%rip)") && !strstr(r, "$0x");
    return false;
}

/* P0's ROWS as the compiler wrote them against their herd form, with P1
 * running P1ROW beside them: the same states, herd's rows only. */
static void same_states(const char *init, const char *const *rows, int n, const char *p1row, const char *locs)
{
    char **wide = rows_of(rows, n), **herd = rows_of(rows, n);
    int nh = n;
    char *why = lift_herd_rows(&herd, &nh);
    if (why)
        fail_msg("left as it was: %s", why);
    for (int i = 0; i < nh; i++)
        if (!herd_row(herd[i]))
            fail_msg("not herd's: '%s'", herd[i]);
    char *tw = text_of(init, wide, n, p1row, locs), *th = text_of(init, herd, nh, p1row, locs);
    char *sw = states_of(tw), *sh = states_of(th);
    if (strcmp(sw, sh))
        fail_msg("states differ:\n%s=> %s\n%s=> %s", tw, sw, th, sh);
    assert_true(strchr(sw, ';') != strrchr(sw, ';'));   /* both paths taken somewhere */
    free(sw), free(sh), free(tw), free(th);
    strv_free(wide, n);
    strv_free(herd, nh);
}

static void operands_and_jumps(void **state)
{
    (void)state;
    const char *const r[] = {"movl x(%rip), %eax", "cmpl $0x1, %eax", "jl L2", "jg L1", "movl $1, r(%rip)",
                             "L1:", "orl $0x82, %eax", "L2:", "andl $0x80, %eax", "movl %eax, s(%rip)"};
    same_states("x=0; r=0; s=0;", r, 10, "movl $1,(x)", "r; s;");
    const char *const g[] = {"movl x(%rip), %eax", "cmpl $1, %eax", "jg L1", "movl $1, r(%rip)", "L1:"};
    same_states("x=0; r=0;", g, 5, "movl $2,(x)", "r;");
    /* js after test r,r: the register's sign (the wide form has no js: the
     * herd form against cmp $0 and jl, the same test) */
    const char *const sj[] = {"movl x(%rip), %eax", "testl %eax, %eax", "js L1", "movl $1, r(%rip)", "L1:"};
    char **h = rows_of(sj, 5);
    int nh = 5;
    assert_null(lift_herd_rows(&h, &nh));
    assert_string_equal(h[1], "cmpl $0, %eax");
    assert_string_equal(h[2], "jge Lh0");
    assert_string_equal(h[3], "jmp L1");
    strv_free(h, nh);
    const char *const sl[] = {"movl x(%rip), %eax", "cmpl $0, %eax", "jl L1", "movl $1, r(%rip)", "L1:"};
    same_states("x=0; r=0;", sl, 5, "movl $-1,(x)", "r;");
    const char *const t[] = {"movl x(%rip), %eax", "testl %eax, %eax", "je L1", "movl $1, r(%rip)", "L1:",
                             "subl $1, %eax", "movl %eax, s(%rip)", "lock subl $1, y(%rip)"};
    same_states("x=0; r=0; s=0; y=5;", t, 8, "movl $1,(x)", "r; s; y;");
    const char *const sh[] = {"movl x(%rip), %eax", "shll $2, %eax", "sall %eax", "movl %eax, r(%rip)",
                              "movabsq $0x100000000, %rcx", "movq %rcx, s(%rip)"};
    same_states("x=0; r=0; s=0;", sh, 6, "movl $1,(x)", "r; s;");
    const char *const u[] = {"movl x(%rip), %eax", "movl $5, %ecx", "subl %eax, %ecx", "movl %ecx, r(%rip)",
                             "cmpl $3, %ecx", "jl L1", "movl $1, s(%rip)", "L1:"};
    same_states("x=0; r=0; s=0;", u, 8, "movl $3,(x)", "r; s;");
}

static void setcc_cmovcc(void **state)
{
    (void)state;
    const char *const r[] = {"movl x(%rip), %eax", "cmpl $1, %eax", "sete %al", "movzbl %al, %eax",
                             "movl %eax, r(%rip)", "cmpl $1, x(%rip)", "setne s(%rip)"};
    same_states("x=0; r=7; s=7;", r, 7, "movl $1,(x)", "r; s;");
    const char *const c[] = {"movl x(%rip), %eax", "movl $5, %ecx", "cmpl $1, %eax", "cmovnel %ecx, %eax",
                             "movl %eax, r(%rip)", "cmpl $5, %ecx", "cmovel x(%rip), %edx", "movl %edx, s(%rip)"};
    same_states("x=0; r=0; s=0;", c, 8, "movl $1,(x)", "r; s;");
}

static void extensions(void **state)
{
    (void)state;
    const char *const z[] = {"movzbl x(%rip), %eax", "movl %eax, r(%rip)", "movzwl x(%rip), %ecx",
                             "movl %ecx, s(%rip)"};
    same_states("int8_t x=0; r=9; s=9;", z, 4, "movb $3,(x)", "r; s;");
    const char *const s[] = {"movsbl x(%rip), %eax", "movl %eax, r(%rip)", "movslq %eax, %rax",
                             "movq %rax, s(%rip)"};
    same_states("int8_t x=0; r=9; int64_t s=9;", s, 4, "movb $-2,(x)", "r; s;");
}

static void not_neg_ret(void **state)
{
    (void)state;
    const char *const r[] = {"movl x(%rip), %eax", "notl %eax", "movl %eax, r(%rip)", "negl %eax",
                             "movl %eax, s(%rip)", "cmpl $0, x(%rip)", "je L1", "ret", "L1:", "movl $3, t(%rip)"};
    same_states("x=0; r=0; s=0; t=0;", r, 10, "movl $4,(x)", "r; s; t;");
}

/* What herd has no form for stays, named; flags a rewrite would clobber too. */
static void left_with_reason(void **state)
{
    (void)state;
    char **f = rows_of((const char *const[]){"mfence ", "lfence"}, 2);
    int nf = 2;
    assert_null(lift_herd_rows(&f, &nf));
    assert_string_equal(f[0], "mfence");
    strv_free(f, nf);
    const char *const cases[][3] = {{"lock xaddl %eax, x(%rip)", "movl %eax, r(%rip)", "xadd"},
                                    {"cmpl $1, %eax", "ja L1", "unsigned"},
                                    {"lock orl $1, x(%rip)", "mfence", "lock or"},
                                    {"notl %eax", "jne L1", "a not before a flag test"},
                                    {"subl %ecx, %eax", "jl L1", "sub of a register before a flag test"},
                                    {"shrl $1, x(%rip)", "mfence", "shr/sar"}};
    for (int i = 0; i < 6; i++) {
        const char *rows[] = {cases[i][0], cases[i][1], "L1:"};
        char **r = rows_of(rows, 3);
        int n = 3;
        char *why = lift_herd_rows(&r, &n);
        assert_non_null(why);
        if (!strstr(why, cases[i][2]))
            fail_msg("'%s' for %s", why, cases[i][0]);
        assert_null(strstr(r[0], "(%rip)"));     /* the operands herd's way all the same */
        free(why);
        strv_free(r, n);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(operands_and_jumps), cmocka_unit_test(setcc_cmovcc), cmocka_unit_test(extensions),
        cmocka_unit_test(not_neg_ret),        cmocka_unit_test(left_with_reason),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
