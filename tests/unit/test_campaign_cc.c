/* A campaign counts cc-check's refusals by kind: the kind of each message
 * lift/ and the compiler step give, worked out by hand from the message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "campaign/internal.h"

static void expect_kind(const char *msg, const char *kind)
{
    strbuf b = {0};
    ccrun_reason_kind(msg, &b);
    assert_string_equal(b.s ? b.s : "", kind);
    sb_free(&b);
}

static void test_reason_kinds(void **state)
{
    (void)state;
    /* the closing parentheses name it */
    expect_kind("cc-check: P0: cannot lift 'call __stack_chk_fail' (a call)", "a call");
    expect_kind("cc-check: P1: cannot lift 'jmp *%rax' (an indirect jump)", "an indirect jump");
    /* a quoted instruction with parentheses of its own, a clause before the kind */
    expect_kind("cc-check: P1: cannot lift 'movl (, %rdx, 4), %edx' (an indexed address into x: an address "
                "dependency, which the X86_64 dialect has no operand for)",
                "an address dependency, which the X86_64 dialect has no operand for");
    expect_kind("cc-check: P1: cannot lift 'addq $0, %rax' (arithmetic on x's address: an address dependency, "
                "which the X86_64 dialect has no operand for)",
                "an address dependency, which the X86_64 dialect has no operand for");
    /* no parentheses: the last clause, quoted parts elided */
    expect_kind("cc-check: 'gcc -O2 -x: y' failed to compile the test", "failed to compile the test");
    expect_kind("cc-check: 'gcc -O2' failed to compile the test (compiler not found)", "compiler not found");
    expect_kind("cc-check: P0: 'movl y+4(%rip), %eax' names memory that is not a test location",
                "names memory that is not a test location");
    expect_kind("cc-check: SB gcc -O2: a loop needs more than 2 iterations on some run (--unroll 2 is not enough)",
                "--unroll 2 is not enough");
    expect_kind("", "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reason_kinds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
