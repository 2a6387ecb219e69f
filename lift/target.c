/* The machines cc-check lifts, one row each: what the object must be,
 * what every compiler is told, and the model the lifted test runs under.
 * AArch64's compilers are told -mno-outline-atomics: by default Debian's
 * gcc and clang call libgcc's helpers (__aarch64_ldadd4_acq_rel) for an
 * atomic RMW, which choose LSE or an exclusive loop at run time, and a
 * call cannot lift; with it the object holds the instructions themselves,
 * as the -march given selects them (armv8-a: LDAXR/STLXR, armv8.1-a: LSE).
 * AArch64's sources are judged under rc11-lb, RC11 without no-thin-air
 * (model/cat/rc11-lb.cat says why): Arm's mappings, like the standard,
 * allow load buffering, and rc11 would call every LB test a bug. */
#include <string.h>
#include <gelf.h>
#include "lift/lift.h"

/* lift_a64_test_text with the row's arguments: its loops are cut, never
 * unrolled, and every row it writes is herd's (no *WHY). */
static char *a64_text(const ir_test *t, const lift_func *funcs, int unroll, const char *origin, char **why, diag *d)
{
    (void)unroll;
    *why = NULL;
    return lift_a64_test_text(t, funcs, origin, d);
}

static const lift_target_row rows[] = {
    [LIFT_X86_64] = {"x86_64", EM_X86_64, LIFT_COMPILED_MODEL, "rc11", "cc", "", "", "x86_64",
#if defined(__x86_64__)
                     true,
#else
                     false,
#endif
                     false, true, lift_test_text},
    [LIFT_AARCH64] = {"aarch64", EM_AARCH64, "aarch64", "rc11-lb", "aarch64-linux-gnu-gcc", "-mno-outline-atomics",
                      "--target=aarch64-linux-gnu", "AArch64",
#if defined(__aarch64__)
                      true,
#else
                      false,
#endif
                      true, false, a64_text},
};

const lift_target_row *lift_target_get(lift_target tg)
{
    return &rows[tg];
}

bool lift_target_parse(const char *name, lift_target *tg)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (!strcmp(name, rows[i].name))
            return *tg = (lift_target)i, true;
    return false;
}
