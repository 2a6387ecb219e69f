/* Run the user's compiler, through util/proc.h's runner: a time limit, its
 * own process group, stderr kept for the message, and, when litmusc dies
 * mid-compile, no compiler left running and no temporary folder left.
 * -fno-pic makes every global access a direct x(%rip) operand with an
 * R_X86_64_PC32 relocation (on AArch64 ADRP and a :lo12: relocation; no
 * GOT indirection to follow); the target's flags come next (target.c) and
 * the user's after, so they can add, not undo, those. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lift/lift.h"
#include "util/mem.h"
#include "util/proc.h"

bool lift_compile(const char *cc, const char *cflags, const char *src, const char *obj, diag *d)
{
    return lift_compile_within(cc, cflags, src, obj, LIFT_CC_TIMEOUT_S, NULL, d);
}

bool lift_compile_within(const char *cc, const char *cflags, const char *src, const char *obj, double timeout_s,
                         const char *temp_dir, diag *d)
{
    return lift_compile_target(cc, cflags, LIFT_X86_64, src, obj, timeout_s, temp_dir, d);
}

/* Is CC clang by name (a path's last part "clang", "clang-14", ...)? */
static bool is_clang(const char *cc)
{
    const char *b = strrchr(cc, '/');
    return !strncmp(b ? b + 1 : cc, "clang", 5);
}

/* The target's own flags for CC, as lift_compile_target gives them. */
char *lift_target_flags(lift_target tg, const char *cc)
{
    const lift_target_row *row = lift_target_get(tg);
    bool cl = *row->clang_flag && is_clang(cc);
    return xasprintf("%s%s%s", cl ? row->clang_flag : "", cl && *row->cflags ? " " : "", row->cflags);
}

bool lift_compile_target(const char *cc, const char *cflags, lift_target tg, const char *src, const char *obj,
                         double timeout_s, const char *temp_dir, diag *d)
{
    const lift_target_row *row = lift_target_get(tg);
    char *flags = xstrdup(cflags ? cflags : "");
    char *argv[64];
    int n = 0;
    argv[n++] = (char *)cc;
    if (*row->clang_flag && is_clang(cc))
        argv[n++] = (char *)row->clang_flag;
    argv[n++] = "-c";
    argv[n++] = "-fno-pic";
    if (*row->cflags)
        argv[n++] = (char *)row->cflags;
    for (char *s = strtok(flags, " \t"); s && n < 58; s = strtok(NULL, " \t"))
        argv[n++] = s;
    argv[n++] = (char *)src;
    argv[n++] = "-o";
    argv[n++] = (char *)obj;
    argv[n] = NULL;
    proc_opts o = {0};
    o.timeout_s = timeout_s;
    o.cleanup_dir = temp_dir;
    o.tmpdir = temp_dir;    /* the compiler's own temporaries (cc*.s) go with the folder */
    proc_result r;
    diag pd = {0};
    bool ok = proc_run(argv, &o, &r, &pd);
    const char *what = cflags && *cflags ? cflags : "";
    if (!ok) {
        /* not found, not executable: this machine's lack, not the test's */
        diag_fail(d, "cc-check: %s", pd.msg);
    } else if (r.timed_out) {
        ok = diag_fail(d, "cc-check: '%s%s%s' did not finish compiling the test in %g s (timed out)", cc,
                       *what ? " " : "", what, timeout_s);
    } else if (r.interrupted) {
        ok = diag_fail(d, "cc-check: '%s%s%s' was interrupted", cc, *what ? " " : "", what);
    } else if (!proc_ok(&r)) {
        char tail[240], how[96];
        proc_err_tail(&r, tail, sizeof tail);
        proc_describe(&r, how, sizeof how);
        ok = diag_error(d, src, 0, 0, "cc-check: '%s%s%s' failed to compile the test%s%s%s (%s)", cc,
                        *what ? " " : "", what, *tail ? ", its stderr ending '" : "", tail, *tail ? "'" : "", how);
    }
    proc_result_free(&r);
    free(flags);
    return ok;
}
